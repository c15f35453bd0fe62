/**
 * `accept`'s flags for CI and for a deployed server: the headers of
 * `--url` (`--header`, and `--header-env`, whose value is read from the
 * environment under the grant and never shown), the baseline read and
 * checked, and the exit code a run earns with or without it.
 *
 * @module
 */
import { keepSecret } from "../../../base/secrets.ts";
import { fill, type Lang, type Text } from "../../../base/i18n.ts";
import { Refused } from "../../../base/errors.ts";
import type { TextError } from "../../../base/text_error.ts";
import {
  BadBaseline,
  type Baseline,
  type Comparison,
  parseBaseline,
} from "../../../accept/baseline.ts";
import { readBoundedFile } from "../../../accept/files.ts";
import { PROTOCOL_HEADERS } from "../../../wire/http.ts";
import {
  MAX_HEADER_BYTES,
  MAX_HEADERS,
  MAX_REPORT_BYTES,
} from "../../../accept/limits.ts";
import type { AcceptReport } from "../../../accept/run.ts";
import { EXIT, type ExitCode } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { readOrSay } from "../../oracle_file.ts";
import { ACCEPT_MESSAGES as C } from "./_messages.ts";
import { printable, UsageError } from "../../parser.ts";

/** An HTTP header name: RFC 9110's token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** An environment variable's name. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * A value that can be sent as it is: one line of at most
 * {@linkcode MAX_HEADER_BYTES} visible ASCII characters, spaces and tabs.
 * Anything else (`tok-秘密-123`) is not a byte string an HTTP request can
 * carry: refused here, at the start, not found out when the first request
 * cannot be sent.
 */
function oneLine(value: string): boolean {
  return value.length <= MAX_HEADER_BYTES && /^[\t\x20-\x7e]*$/.test(value);
}

/**
 * The headers of `--header NAME=VALUE` and `--header-env NAME=VARIABLE`,
 * by lower-case name, or `undefined` when none is given. A variable is
 * read only when this process's grant names it (the engineer grant:
 * `GUARDLAB_HEADER_*`), else refused (exit 4); its value is never in a
 * message.
 */
export function headersOf(
  command: string,
  values: { header?: string[]; "header-env"?: string[]; url?: string },
): Record<string, string> | undefined {
  const plain = values.header ?? [];
  const fromEnv = values["header-env"] ?? [];
  if (plain.length + fromEnv.length === 0) return undefined;
  if (values.url === undefined) throw new UsageError(C.headerNeedsUrl, command);
  if (plain.length + fromEnv.length > MAX_HEADERS) {
    throw new UsageError(fill(C.tooManyHeaders, { max: MAX_HEADERS }), command);
  }
  const entries: [string, string][] = [];
  const split = (flag: string, given: string) => {
    const cut = given.indexOf("=");
    const name = cut < 0 ? "" : given.slice(0, cut);
    if (!HEADER_NAME.test(name)) {
      // A --header's text may hold a secret: only --header-env's is shown.
      throw new UsageError(
        fill(C.badHeader, {
          flag,
          got: flag === "--header-env" ? printable(given) : "…",
        }),
        command,
      );
    }
    if (PROTOCOL_HEADERS.includes(name.toLowerCase())) {
      throw new UsageError(
        fill(C.protocolHeader, { flag, name: printable(name) }),
        command,
      );
    }
    return [name.toLowerCase(), given.slice(cut + 1)] as const;
  };
  for (const given of plain) {
    const [name, value] = split("--header", given);
    if (!oneLine(value)) {
      throw new UsageError(
        fill(C.badHeader, { flag: "--header", got: printable(name) }),
        command,
      );
    }
    entries.push([name, value]);
  }
  for (const given of fromEnv) {
    const [name, variable] = split("--header-env", given);
    if (!VARIABLE.test(variable)) {
      throw new UsageError(
        fill(C.badHeader, { flag: "--header-env", got: printable(given) }),
        command,
      );
    }
    if (
      Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
    ) {
      throw new Refused(fill(C.envNotGranted, { variable }));
    }
    const value = Deno.env.get(variable);
    if (value === undefined) {
      throw new UsageError(fill(C.envUnset, { variable }), command);
    }
    if (!oneLine(value)) {
      throw new UsageError(
        fill(C.envBadValue, { variable, max: MAX_HEADER_BYTES }),
        command,
      );
    }
    entries.push([name, value]);
  }
  // Every value is a secret from here on: nothing guardlab prints or
  // writes holds it (lib/base/secrets.ts).
  for (const [, value] of entries) keepSecret(value);
  // Object.fromEntries defines each name as data: `__proto__` is a name too.
  return Object.fromEntries(entries);
}

/**
 * A report in `file` (bounded at 16 MiB, never through a link), read by
 * `parse`, or the exit code after its one line: a missing file exit 1
 * (naming `what` it should have held); a file `parse` refuses (with `Bad`)
 * a usage error.
 */
export async function readReport<T>(
  file: string,
  what: Text,
  parse: (text: string, file: string) => T,
  Bad: abstract new (...args: never[]) => TextError,
  { trusted, io, lang }: { trusted: readonly string[]; io: Io; lang: Lang },
): Promise<T | ExitCode> {
  const text = await readOrSay(
    () => readBoundedFile(file, trusted, MAX_REPORT_BYTES),
    file,
    what,
    io,
    lang,
  );
  if (typeof text === "number") return text;
  try {
    return parse(text, file);
  } catch (error) {
    if (error instanceof Bad) throw new UsageError(error.text, "accept");
    throw error;
  }
}

/** The baseline in `file`, or the exit code after its one line ({@linkcode readReport}). */
export function readBaseline(
  file: string,
  trusted: readonly string[],
  io: Io,
  lang: Lang,
): Promise<Baseline | ExitCode> {
  return readReport(file, C.baselineWord, parseBaseline, BadBaseline, {
    trusted,
    io,
    lang,
  });
}

/**
 * The exit code of a run: 5 when a verdict is unsafe, else 6 when a case
 * could not be judged, else 0; with a baseline, only what it did not
 * excuse counts.
 */
export function exitOf(
  report: { readonly unsafe: number; readonly inconclusive: number },
  comparison?: Comparison,
): ExitCode {
  const { unsafe, inconclusive } = comparison ?? report;
  return unsafe > 0
    ? EXIT.unsafe
    : inconclusive > 0
    ? EXIT.inconclusive
    : EXIT.ok;
}

/** Run a baseline check; its refusal is a usage error (exit 2), one line. */
export function sameRun(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof BadBaseline) {
      throw new UsageError(error.text, "accept");
    }
    throw error;
  }
}

/** The baseline section of `--json`: each row by tool, entry and case, with what it was. */
export function baselineJson(comparison: Comparison) {
  return Object.fromEntries(
    (["excused", "fixed", "worse", "new"] as const).map((status) => [
      status,
      comparison.rows.filter((r) => r.status === status).map((r) => ({
        tool: r.row.tool,
        entry: r.row.entry,
        case: r.row.case,
        verdict: r.row.verdict,
        ...(r.before === undefined ? {} : { baseline: r.before }),
      })),
    ]),
  );
}

/** A run's report as `--json` prints it: the report, the oracle's digest, the baseline's section when there is one, the exit code. */
export function reportJson(
  report: AcceptReport,
  digest: string | undefined,
  code: ExitCode,
  comparison?: Comparison,
  more: Record<string, unknown> = {},
): string {
  return JSON.stringify(
    {
      ...report,
      ...(digest === undefined ? {} : { oracle_digest: digest }),
      ...(comparison ? { baseline: baselineJson(comparison) } : {}),
      ...more,
      exit: code,
    },
    null,
    2,
  );
}
