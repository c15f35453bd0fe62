/**
 * What `accept`'s command line names: the server (exactly one of a
 * command, a URL, an example), the cases, and the one line of a server
 * that did not get through initialize.
 *
 * @module
 */
import { fill, type Text } from "../../../base/i18n.ts";
import {
  ALL_CASE_NAMES,
  CASE_NAMES,
  type CaseName,
  EXAMPLE_NAMES,
  HOST_EXAMPLE_NAMES,
  isCaseName,
} from "../../../accept/cases.ts";
import { loopbackUrl, remoteUrl } from "../../../wire/http.ts";
import type { InitializeFailed } from "../../../accept/session.ts";
import type { ServerSource } from "../../../accept/start.ts";
import { ACCEPT_MESSAGES as M } from "./_messages.ts";
import { choice, printable, UsageError } from "../../parser.ts";

/** The server `values` and `positionals` name: exactly one of a command, a URL, an example. */
export function sourceOf(
  cmd: string,
  values: { url?: string; example?: string },
  positionals: string[],
  headers?: Record<string, string>,
): ServerSource {
  const given = [
    positionals.length > 0,
    values.url !== undefined,
    values.example !== undefined,
  ]
    .filter(Boolean).length;
  if (given === 0) throw new UsageError(M.needsServer, cmd);
  if (given > 1) throw new UsageError(M.oneServer, cmd);
  if (values.example !== undefined) {
    // --example takes a server and a host; a host is run by accept host.
    if ((HOST_EXAMPLE_NAMES as readonly string[]).includes(values.example)) {
      throw new UsageError(
        fill(M.exampleIsHost, { name: printable(values.example) }),
        cmd,
      );
    }
    const name = choice(cmd, "--example", values.example, EXAMPLE_NAMES)!;
    return { kind: "example", name };
  }
  if (values.url !== undefined) {
    // Loopback over http or https; another host over https only, and only
    // under a grant that names it (assertGrantFor says so in one line).
    const url = loopbackUrl(values.url) ?? remoteUrl(values.url);
    if (url === null) {
      throw new UsageError(
        fill(M.urlNotLoopback, { got: printable(withoutSecret(values.url)) }),
        cmd,
      );
    }
    return { kind: "url", url, ...(headers ? { headers } : {}) };
  }
  return {
    kind: "command",
    command: positionals[0],
    args: positionals.slice(1),
  };
}

/** `text` with a URL's user and password masked: a refusal never shows a secret. */
function withoutSecret(text: string): string {
  try {
    const url = new URL(text);
    if (url.username === "" && url.password === "") return text;
    url.username = "…";
    url.password = "";
    return url.href;
  } catch {
    return text;
  }
}

/** The cases of `--cases` (`all` when not given), each name checked. */
export function casesOf(
  list: string | undefined,
  all: readonly CaseName[] = CASE_NAMES,
): CaseName[] {
  if (list === undefined) return [...all];
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const name of names) {
    if (!isCaseName(name)) {
      throw new UsageError(
        fill(M.unknownCase, {
          got: printable(name),
          names: ALL_CASE_NAMES.join(", "),
        }),
        "accept",
      );
    }
  }
  return [...new Set(names)] as CaseName[];
}

/** The one line of a server that did not get through initialize, having waited `ms`. */
export function initText(error: InitializeFailed, ms: number): Text {
  return error.why === "no-answer"
    ? fill(M.initNoAnswer, { ms })
    : error.why === "closed"
    ? fill(M.initClosed, {
      tail: error.tail ? fill(M.stderrTail, { line: error.tail }) : "",
    })
    : fill(M.initError, { detail: error.message.replace(/^error: /, "") });
}

/** Refuse (a usage error, `text` naming it) the first flag of `values` not among `allowed` (a subcommand's own). */
export function assertFlagsAmong(
  values: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  text: Text,
): void {
  const extra = Object.keys(values).find((k) => !allowed.includes(k));
  if (extra !== undefined) {
    throw new UsageError(fill(text, { flag: `--${extra}` }), "accept");
  }
}
