/**
 * `guardlab proxy`: a drop-in `mcpServers` entry that forwards, records and
 * injects faults (`lib/accept/proxy.ts`, started by `_run.ts`);
 * `guardlab proxy show FILE [--agent AGENTFILE]`, which draws a record, with
 * an agent record beside it when given (`_show.ts`); and
 * `guardlab proxy --print-agent-hook`, the module an engineer adds to their
 * agent to write that agent record. Stdout is the client's protocol
 * channel while a session runs: bytes the server wrote go there unchanged,
 * never through the screen writer.
 *
 * @module
 */
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import { AGENT_HOOK_SOURCE } from "../../../accept/agent_hook_source.ts";
import type { Oracle } from "../../../accept/oracle.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { readOracleFile } from "../../oracle_file.ts";
import { ACCEPT_PROXY_MESSAGES as M } from "../../messages/common.ts";
import { PROXY_HELP as H, PROXY_MESSAGES as C } from "./_messages.ts";
import { UsageError } from "../../parser.ts";
import { fileReader } from "./_files.ts";
import { runSession } from "./_run.ts";
import { showRecord } from "./_show.ts";

/** The flags of a session or of show: `--print-agent-hook` takes none of them. */
const OWN_FLAGS = [
  "faults",
  "record",
  "oracle",
  "read-before-delivery",
  "timeout-ms",
  "agent",
  "format",
  "json",
  "otlp",
  "traceparent",
] as const;

/** The `proxy` command. */
export const proxy = command({
  name: "proxy",
  usage: `proxy [--faults FILE] [--record FILE] [--timeout-ms N]
                    [--oracle FILE [--read-before-delivery]]
                    [--traceparent VALUE] -- COMMAND ARGS…
       guardlab proxy show FILE [--agent AGENTFILE] [--oracle FILE]
                    [--json | --format svg] [--otlp FILE]
       guardlab proxy --print-agent-hook`,
  about: H.about,
  options: {
    faults: { type: "string", value: "FILE", help: H.faults },
    record: { type: "string", value: "FILE", help: H.record },
    oracle: { type: "string", value: "FILE", help: H.oracle },
    "read-before-delivery": { type: "boolean", help: H.readBeforeDelivery },
    "timeout-ms": { type: "string", value: "N", help: H.timeout },
    agent: { type: "string", value: "AGENTFILE", help: H.agent },
    format: {
      type: "string",
      value: "FORMAT",
      choices: ["text", "svg"],
      help: H.format,
    },
    json: { type: "boolean", help: H.json },
    otlp: { type: "string", value: "FILE", help: H.otlp },
    traceparent: { type: "string", value: "VALUE", help: H.traceparent },
    "print-agent-hook": { type: "boolean", help: H.printAgentHook },
  },
  maxPositionals: 256,
  exits: { 0: H.exit0, 1: H.exit1, 2: H.exit2, 4: H.exit4 },
  async run({ values, positionals, io, lang }) {
    if (values["print-agent-hook"]) {
      if (
        positionals.length > 0 ||
        OWN_FLAGS.some((f) => values[f] !== undefined)
      ) {
        throw new UsageError(C.hookAlone, "proxy");
      }
      // The module as it ships, byte for byte (an engineer saves it to a
      // file); a checkout with CRLF line ends (Windows) prints LF all the same.
      const lines = AGENT_HOOK_SOURCE.replace(/\r\n/g, "\n").replace(/\n$/, "")
        .split("\n");
      for (const line of lines) {
        io.out(line);
      }
      return EXIT.ok;
    }
    const show = positionals[0] === "show";
    if (
      !show &&
      (values.agent !== undefined || values.json || values.otlp !== undefined)
    ) {
      throw new UsageError(C.showOnly, "proxy");
    }
    if (show && values.traceparent !== undefined) {
      throw new UsageError(C.sessionOnly, "proxy");
    }
    if (values.json && values.format === "svg") {
      throw new UsageError(M.jsonOrSvg, "proxy");
    }
    if (
      values["read-before-delivery"] && (show || values.oracle === undefined)
    ) {
      throw new UsageError(C.readNeedsOracle, "proxy");
    }
    const trusted = trustedFolders(io.base);
    const readFile = fileReader(trusted, io, lang);
    let oracle: Oracle | undefined;
    if (values.oracle !== undefined) {
      const read = await readOracleFile(
        values.oracle,
        trusted,
        io,
        lang,
        "proxy",
      );
      if (typeof read === "number") return read;
      oracle = read;
    }
    if (show) {
      if (positionals.length !== 2) {
        throw new UsageError(C.needsServer, "proxy");
      }
      return await showRecord({
        file: positionals[1],
        agentFile: values.agent,
        oracle,
        format: values.json ? "json" : values.format === "svg" ? "svg" : "text",
        otlp: values.otlp,
        trusted,
        readFile,
        io,
        lang,
      });
    }
    return await runSession({
      positionals,
      faults: values.faults,
      record: values.record,
      timeoutMs: values["timeout-ms"],
      readBeforeDelivery: values["read-before-delivery"] === true,
      oracle,
      trusted,
      readFile,
      io,
      lang,
      traceparent: values.traceparent,
    });
  },
});
