/**
 * `guardlab accept`: the article's acceptance test against an MCP server's
 * write tool. Parses the flags, picks the server and the oracle, and hands
 * them to `lib/accept/`; the matrix and timelines are drawn by
 * `lib/views/accept_view.ts`.
 *
 * @module
 */
import { fill, say } from "../../base/i18n.ts";
import { trustedFolders } from "../../sandbox/sandbox.ts";
import {
  CASE_NAMES,
  type CaseName,
  EXAMPLE_NAMES,
  type ExampleName,
  isCaseName,
} from "../../accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../accept/example_oracle.ts";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  DEFAULT_COPIES,
  MAX_ANSWER_TIMEOUT_MS,
  MAX_COPIES,
  MAX_DELAY_MS,
  MIN_ANSWER_TIMEOUT_MS,
} from "../../accept/limits.ts";
import type { Oracle } from "../../accept/oracle.ts";
import { runAccept } from "../../accept/run.ts";
import { InitializeFailed, startTimeoutOf } from "../../accept/session.ts";
import {
  assertGrantFor,
  serverChannel,
  type ServerSource,
  StartFailed,
} from "../../accept/start.ts";
import { loopbackUrl } from "../../accept/http.ts";
import { acceptScreen, acceptSvg, titleText } from "../../views/accept_view.ts";
import { command } from "../command.ts";
import { EXIT } from "../exit.ts";
import { readOracleFile } from "../oracle_file.ts";
import {
  ACCEPT_CLI_MESSAGES as M,
  ACCEPT_HELP as H,
} from "../messages/accept.ts";
import { printable, UsageError, wholeFlag } from "../parser.ts";

/** The server `values` and `positionals` name: exactly one of a command, a URL, an example. */
export function sourceOf(
  cmd: string,
  values: { url?: string; example?: string },
  positionals: string[],
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
    return { kind: "example", name: values.example as ExampleName };
  }
  if (values.url !== undefined) {
    const url = loopbackUrl(values.url);
    if (url === null) {
      throw new UsageError(
        fill(M.urlNotLoopback, { got: printable(values.url) }),
        cmd,
      );
    }
    return { kind: "url", url };
  }
  return {
    kind: "command",
    command: positionals[0],
    args: positionals.slice(1),
  };
}

function casesOf(list: string | undefined): CaseName[] {
  if (list === undefined) return [...CASE_NAMES];
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const name of names) {
    if (!isCaseName(name)) {
      throw new UsageError(
        fill(M.unknownCase, {
          got: printable(name),
          names: CASE_NAMES.join(", "),
        }),
        "accept",
      );
    }
  }
  return [...new Set(names)] as CaseName[];
}

/** The `accept` command. */
export const accept = command({
  name: "accept",
  usage: `accept (--example NAME | --oracle FILE -- COMMAND ARGS… |
                     --oracle FILE --url http://127.0.0.1:PORT/mcp)
                    [--tool NAME] [--cases LIST] [--copies N] [--timeline]
                    [--timeout-ms N] [--cancel-after-ms N]
                    [--json | --format svg]`,
  about: H.about,
  options: {
    oracle: { type: "string", value: "FILE", help: H.oracle },
    example: {
      type: "string",
      value: "NAME",
      choices: EXAMPLE_NAMES,
      help: H.example,
    },
    url: { type: "string", value: "URL", help: H.url },
    tool: { type: "string", value: "NAME", help: H.tool },
    cases: { type: "string", value: "LIST", help: H.cases },
    copies: { type: "string", value: "N", help: H.copies },
    "timeout-ms": { type: "string", value: "N", help: H.timeout },
    "cancel-after-ms": { type: "string", value: "N", help: H.cancelAfter },
    timeline: { type: "boolean", help: H.timeline },
    json: { type: "boolean", help: H.json },
    format: {
      type: "string",
      value: "FORMAT",
      choices: ["text", "svg"],
      help: H.format,
    },
  },
  maxPositionals: 256,
  exits: { 0: H.exit0, 1: H.exit1, 2: H.exit2, 4: H.exit4, 5: null, 6: null },
  async run({ values, positionals, io, lang }) {
    const source = sourceOf("accept", values, positionals);
    const cases = casesOf(values.cases);
    const options = {
      cases,
      copies: wholeFlag(
        "accept",
        "--copies",
        values.copies,
        DEFAULT_COPIES,
        1,
        MAX_COPIES,
      ),
      timeoutMs: wholeFlag(
        "accept",
        "--timeout-ms",
        values["timeout-ms"],
        DEFAULT_ANSWER_TIMEOUT_MS,
        MIN_ANSWER_TIMEOUT_MS,
        MAX_ANSWER_TIMEOUT_MS,
      ),
      // Absent: half the median latency measured before the case.
      cancelAfterMs: values["cancel-after-ms"] === undefined
        ? undefined
        : wholeFlag(
          "accept",
          "--cancel-after-ms",
          values["cancel-after-ms"],
          0,
          0,
          MAX_DELAY_MS,
        ),
    };
    if (values.json && values.format === "svg") {
      throw new UsageError(M.jsonOrSvg, "accept");
    }
    let oracle: Oracle;
    if (source.kind === "example") {
      if (values.oracle !== undefined) {
        throw new UsageError(M.needsOracle, "accept");
      }
      oracle = EXAMPLE_ORACLE;
    } else {
      if (values.oracle === undefined) {
        throw new UsageError(M.needsOracle, "accept");
      }
      assertGrantFor(source, "accept");
      const read = await readOracleFile(
        values.oracle,
        trustedFolders(io.base),
        io,
        lang,
        "accept",
      );
      if (typeof read === "number") return read;
      oracle = read;
    }
    if (
      values.tool !== undefined &&
      !oracle.tools.some((t) => t.tool === values.tool)
    ) {
      throw new UsageError(
        fill(M.unknownTool, { got: printable(values.tool) }),
        "accept",
      );
    }
    let report;
    try {
      const { channel, start } = await serverChannel(source);
      report = await runAccept(channel, {
        ...options,
        oracle,
        tool: values.tool,
        start,
      });
    } catch (error) {
      if (error instanceof StartFailed) {
        io.err(`guardlab: ${say(error.text, lang)}`);
        return EXIT.failed;
      }
      if (error instanceof InitializeFailed) {
        io.err(
          `guardlab: ${
            say(initLine(error, startTimeoutOf(options.timeoutMs)), lang)
          }`,
        );
        return EXIT.inconclusive;
      }
      throw error;
    }
    const code = report.unsafe > 0
      ? EXIT.unsafe
      : report.inconclusive > 0
      ? EXIT.inconclusive
      : EXIT.ok;
    if (values.json) {
      io.out(JSON.stringify({ ...report, exit: code }, null, 2));
    } else if (values.format === "svg") {
      io.out(acceptSvg(report, lang, say(titleText(report), lang)));
    } else {
      const shown = {
        kind: source.kind,
        name: source.kind === "example" ? source.name : undefined,
      };
      for (
        const line of acceptScreen(report, {
          source: shown,
          timeline: values.timeline === true,
          exit: code,
        }, lang)
      ) {
        io.out(line);
      }
    }
    return code;
  },
});

function initLine(error: InitializeFailed, ms: number) {
  return error.why === "no-answer"
    ? fill(M.initNoAnswer, { ms })
    : error.why === "closed"
    ? fill(M.initClosed, {
      tail: error.tail ? fill(M.stderrTail, { line: error.tail }) : "",
    })
    : fill(M.initError, { detail: error.message.replace(/^error: /, "") });
}
