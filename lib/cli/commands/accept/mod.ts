/**
 * `guardlab accept`: the article's acceptance test against an MCP server's
 * write tool. Parses the flags, picks the server and the oracle, and hands
 * them to `lib/accept/`; the matrix and timelines are drawn by
 * `lib/views/accept_view.ts`.
 *
 * @module
 */
import { fill, say } from "../../../base/i18n.ts";
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import { EXAMPLE_NAMES } from "../../../accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../../accept/example_oracle.ts";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  DEFAULT_COPIES,
  MAX_ANSWER_TIMEOUT_MS,
  MAX_COPIES,
  MAX_DELAY_MS,
  MIN_ANSWER_TIMEOUT_MS,
} from "../../../accept/limits.ts";
import type { Oracle } from "../../../accept/oracle.ts";
import { runAccept } from "../../../accept/run.ts";
import { InitializeFailed, startTimeoutOf } from "../../../accept/session.ts";
import {
  assertGrantFor,
  serverChannel,
  StartFailed,
} from "../../../accept/start.ts";
import {
  acceptScreen,
  acceptSvg,
  titleText,
} from "../../../views/accept_view.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { readOracleFile } from "../../oracle_file.ts";
import {
  ACCEPT_CI_HELP as CI,
  ACCEPT_CI_MESSAGES as C,
} from "../../messages/accept_ci.ts";
import {
  baselineJson,
  exitOf,
  headersOf,
  readBaseline,
  sameRun,
} from "./_ci.ts";
import { casesOf, initText, sourceOf } from "./_args.ts";
import { assertInitFlags, runInit } from "./_init.ts";
import { junitXml } from "../../../views/accept_junit.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";
import {
  assertSameOracle,
  assertSameServer,
  type Baseline,
  compareWithBaseline,
  type Comparison,
  oracleDigest,
} from "../../../accept/baseline.ts";
import {
  ACCEPT_CLI_MESSAGES as M,
  ACCEPT_HELP as H,
} from "../../messages/accept.ts";
import { printable, UsageError, wholeFlag } from "../../parser.ts";

/** The `accept` command. */
export const accept = command({
  name: "accept",
  usage: `accept (--example NAME | --oracle FILE -- COMMAND ARGS… |
                     --oracle FILE --url URL [--header NAME=VALUE…]
                     [--header-env NAME=VARIABLE…])
                    [--tool NAME] [--cases LIST] [--copies N] [--timeline]
                    [--timeout-ms N] [--cancel-after-ms N]
                    [--json | --format svg] [--junit FILE] [--baseline FILE]
       guardlab accept init [--output FILE] (-- COMMAND ARGS… | --url URL …)`,
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
    header: {
      type: "string",
      value: "NAME=VALUE",
      multiple: true,
      help: CI.header,
    },
    "header-env": {
      type: "string",
      value: "NAME=VARIABLE",
      multiple: true,
      help: CI.headerEnv,
    },
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
    junit: { type: "string", value: "FILE", help: CI.junit },
    baseline: { type: "string", value: "FILE", help: CI.baseline },
    output: { type: "string", value: "FILE", help: CI.output },
  },
  maxPositionals: 256,
  exits: {
    0: CI.exit0,
    1: CI.exit1,
    2: CI.exit2,
    4: CI.exit4,
    5: CI.exit5,
    6: CI.exit6,
  },
  async run({ values, positionals, io, lang }) {
    const trusted = trustedFolders(io.base);
    const timeoutMs = wholeFlag(
      "accept",
      "--timeout-ms",
      values["timeout-ms"],
      DEFAULT_ANSWER_TIMEOUT_MS,
      MIN_ANSWER_TIMEOUT_MS,
      MAX_ANSWER_TIMEOUT_MS,
    );
    const initLine = (error: InitializeFailed) =>
      say(initText(error, startTimeoutOf(timeoutMs)), lang);
    if (positionals[0] === "init") {
      const rest = positionals.slice(1);
      assertInitFlags(values, rest);
      const source = sourceOf(
        "accept",
        values,
        rest,
        headersOf("accept", values),
      );
      assertGrantFor(source, "accept init");
      return await runInit({
        source,
        output: values.output,
        trusted,
        timeoutMs,
        io,
        lang,
        initLine,
      });
    }
    if (values.output !== undefined) {
      throw new UsageError(fill(C.initFlags, { flag: "--output" }), "accept");
    }
    const source = sourceOf(
      "accept",
      values,
      positionals,
      headersOf("accept", values),
    );
    const options = {
      cases: casesOf(values.cases),
      copies: wholeFlag(
        "accept",
        "--copies",
        values.copies,
        DEFAULT_COPIES,
        1,
        MAX_COPIES,
      ),
      timeoutMs,
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
        trusted,
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
    // Everything that can refuse is checked before the server starts.
    const digest = oracleDigest(oracle);
    if (values.junit !== undefined) assertNewFile(values.junit, trusted);
    let baseline: Baseline | undefined;
    if (values.baseline !== undefined) {
      const read = await readBaseline(values.baseline, trusted, io, lang);
      if (typeof read === "number") return read;
      baseline = read;
      sameRun(() => assertSameOracle(read, digest, values.baseline!));
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
        io.err(`guardlab: ${initLine(error)}`);
        return EXIT.inconclusive;
      }
      throw error;
    }
    let comparison: Comparison | undefined;
    if (baseline !== undefined) {
      sameRun(() => assertSameServer(baseline, report, values.baseline!));
      comparison = compareWithBaseline(report, baseline);
    }
    const code = exitOf(report, comparison);
    if (values.json) {
      io.out(JSON.stringify(
        {
          ...report,
          oracle_digest: digest,
          ...(comparison ? { baseline: baselineJson(comparison) } : {}),
          exit: code,
        },
        null,
        2,
      ));
    } else if (values.format === "svg") {
      io.out(acceptSvg(report, lang, say(titleText(report), lang)));
    } else {
      const shown = {
        kind: source.kind,
        name: source.kind === "example" ? source.name : undefined,
      };
      const screen = acceptScreen(report, {
        source: shown,
        timeline: values.timeline === true,
        exit: code,
        ...(comparison && values.baseline
          ? { baseline: { file: values.baseline, comparison } }
          : {}),
      }, lang);
      for (const line of screen) io.out(line);
    }
    if (values.junit !== undefined) {
      writeNewFile(
        values.junit,
        trusted,
        junitXml(report, {
          lang,
          at: new Date(),
          oracleDigest: digest,
          exit: code,
          comparison,
        }),
      );
    }
    return code;
  },
});
