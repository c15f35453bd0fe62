/**
 * `guardlab accept`: the article's acceptance test against an MCP server's
 * write tool. Its flags and help, then one of three: `accept init`
 * (`_init.ts`), `accept judge` (`_judge.ts`), or a run of the matrix
 * (`_run.ts`), which hands the server and the oracle to `lib/accept/`.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import { HOST_VARIANTS } from "../../../accept/cases.ts";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  MAX_ANSWER_TIMEOUT_MS,
  MIN_ANSWER_TIMEOUT_MS,
} from "../../../accept/limits.ts";
import {
  type InitializeFailed,
  startTimeoutOf,
} from "../../../accept/session.ts";
import { assertGrantFor } from "../../../accept/start.ts";
import { command } from "../../command.ts";
import { headersOf } from "./_ci.ts";
import { initText, sourceOf } from "./_args.ts";
import { assertInitFlags, runInit } from "./_init.ts";
import { runMatrix } from "./_run.ts";
import { ACCEPT_HELP as H } from "./_help.ts";
import { wholeFlag } from "../../parser.ts";

/** The `accept` command. */
export const accept = command({
  name: "accept",
  usage: `accept (--example NAME | --oracle FILE -- COMMAND ARGS… |
                     --oracle FILE --url URL [--header NAME=VALUE…]
                     [--header-env NAME=VARIABLE…] |
                     --http-oracle FILE [--openapi FILE]
                       (--url URL … | -- COMMAND ARGS…))
                    [--tool NAME] [--cases LIST] [--copies N] [--timeline]
                    [--timeout-ms N] [--cancel-after-ms N] [--otlp FILE]
                    [--json | --format svg] [--junit FILE] [--baseline FILE]
       guardlab accept init [--output FILE] (-- COMMAND ARGS… | --url URL …)
       guardlab accept judge REPORT.json [--json]
       guardlab accept host [--url URL] [--cases LIST] [--variant V]
                    [--case-ms N] [--json] [--junit FILE] [--otlp FILE]
                    -- HOSTCOMMAND…
       guardlab accept host --example HOST [--cases LIST] [--variant V]
                    [--json] [--junit FILE] [--otlp FILE]`,
  about: H.about,
  options: {
    oracle: { type: "string", value: "FILE", help: H.oracle },
    "http-oracle": { type: "string", value: "FILE", help: H.httpOracle },
    openapi: { type: "string", value: "FILE", help: H.openapi },
    example: {
      type: "string",
      value: "NAME",
      // A server for the matrix, or an agent host for accept host: each
      // door checks its own names (a list of both would offer names the
      // other refuses).
      help: H.example,
    },
    url: { type: "string", value: "URL", help: H.url },
    header: {
      type: "string",
      value: "NAME=VALUE",
      multiple: true,
      help: H.header,
    },
    "header-env": {
      type: "string",
      value: "NAME=VARIABLE",
      multiple: true,
      help: H.headerEnv,
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
    junit: { type: "string", value: "FILE", help: H.junit },
    otlp: { type: "string", value: "FILE", help: H.otlp },
    baseline: { type: "string", value: "FILE", help: H.baseline },
    output: { type: "string", value: "FILE", help: H.output },
    variant: {
      type: "string",
      value: "VARIANT",
      choices: HOST_VARIANTS,
      help: H.variant,
    },
    "case-ms": { type: "string", value: "N", help: H.caseMs },
  },
  maxPositionals: 256,
  exits: {
    0: H.exit0,
    1: H.exit1,
    2: H.exit2,
    4: H.exit4,
    5: H.exit5,
    6: H.exit6,
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
    if (positionals[0] === "host" || positionals[0] === "host-tool") {
      // Loaded here: only accept host needs the model, the tool and the relay.
      const host = await import("./_host.ts");
      const run = positionals[0] === "host"
        ? host.runHostCommand
        : host.runHostTool;
      return await run(values, positionals.slice(1), { trusted, io, lang });
    }
    if (positionals[0] === "judge") {
      // Loaded here: a run of accept never needs the judge of a saved report.
      const { runJudge } = await import("./_judge.ts");
      return await runJudge(values, positionals.slice(1), {
        trusted,
        io,
        lang,
      });
    }
    return await runMatrix(values, positionals, {
      trusted,
      timeoutMs,
      io,
      lang,
      initLine,
    });
  },
});
