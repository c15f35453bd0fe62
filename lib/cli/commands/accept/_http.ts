/**
 * What `accept --http-oracle` adds to a run: the HTTP oracle read (its
 * operations from `--openapi`), and the cases an HTTP API runs.
 *
 * @module
 */
import { fill } from "../../../base/i18n.ts";
import { type CaseName, HTTP_CASE_NAMES } from "../../../accept/cases.ts";
import type { HttpOracle } from "../../../accept/http_oracle.ts";
import { BadOracle } from "../../../accept/oracle.ts";
import {
  assertGrantFor,
  loadHttpOracle,
  type ServerSource,
} from "../../../accept/start.ts";
import type { ExitCode } from "../../exit.ts";
import { readOrSay } from "../../oracle_file.ts";
import { ACCEPT_PROXY_MESSAGES as S } from "../../messages/common.ts";
import { printable, UsageError } from "../../parser.ts";
import { ACCEPT_MESSAGES as M } from "./_messages.ts";
import type { Io } from "../../io.ts";
import type { Lang } from "../../../base/i18n.ts";

/**
 * The HTTP oracle `--http-oracle` names (its operations from `--openapi`
 * when given), read once the grant the API needs is checked; the exit code
 * after its one line when a file cannot be read.
 */
export async function httpOracleFor(
  source: ServerSource,
  values: Readonly<Record<string, unknown>>,
  ctx: { trusted: readonly string[]; io: Io; lang: Lang },
): Promise<HttpOracle | ExitCode> {
  const file = values["http-oracle"] as string;
  const openapi = values.openapi as string | undefined;
  if (source.kind === "example" || values.oracle !== undefined) {
    throw new UsageError(M.httpOracleOrOracle, "accept");
  }
  assertGrantFor(source, "accept");
  let oracle: HttpOracle | ExitCode;
  try {
    oracle = await readOrSay(
      () => loadHttpOracle(file, ctx.trusted, openapi),
      file,
      S.oracleWord,
      ctx.io,
      ctx.lang,
    );
  } catch (error) {
    if (error instanceof BadOracle) throw new UsageError(error.text, "accept");
    throw error;
  }
  if (typeof oracle === "number") return oracle;
  const tool = values.tool as string | undefined;
  if (tool !== undefined && !oracle.tools.some((t) => t.tool === tool)) {
    throw new UsageError(
      fill(M.unknownTool, { got: printable(tool) }),
      "accept",
    );
  }
  return oracle;
}

/** An HTTP API's cases: all of its own by default; a case of MCP alone in `--cases` is refused. */
export function httpCases(
  list: string | undefined,
  asked: readonly CaseName[],
): CaseName[] {
  if (list === undefined) return [...HTTP_CASE_NAMES];
  const other = asked.find((c) => !HTTP_CASE_NAMES.includes(c));
  if (other !== undefined) {
    throw new UsageError(
      fill(M.notHttpCase, {
        got: other,
        names: HTTP_CASE_NAMES.join(", "),
      }),
      "accept",
    );
  }
  return [...asked];
}
