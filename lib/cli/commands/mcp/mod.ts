/**
 * `guardlab mcp`: the timing lab's tool served over the Model Context
 * Protocol on stdin and stdout, so a real agent's calls land on a ledger.
 * The MCP SDK is loaded here only, with a dynamic import of a literal
 * specifier: no other command (and no `deno task demo`) ever fetches it.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import {
  BadFaultsFile,
  FaultSchedule,
  readFaults,
} from "../../../mcp/faults.ts";
import { hostConfig } from "../../../mcp/host_config.ts";
import { labFilesIn, trustedFolders } from "../../../sandbox/sandbox.ts";
import { onExit } from "../../../base/exit_hooks.ts";
import { scratchFolder } from "../../../sandbox/scratch.ts";
import {
  INPUT_GUARDRAIL_MODES,
  Lab,
  RECEIPT_MODES,
} from "../../../timing/lab.ts";
import { fill, say } from "../../../base/i18n.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { FAULTS_FILE, MCP_HELP as H, MCP_MESSAGES as M } from "./_messages.ts";
import { UsageError } from "../../parser.ts";
import { LEDGER_OPTIONS, ledgerFileOf } from "../../places.ts";
import { openUserFile } from "../../user_file.ts";

/** The `mcp` command. */
export const mcp = command({
  name: "mcp",
  usage: `mcp [--ledger NAME | --ledger-file PATH]
                    [--input-guardrail ${INPUT_GUARDRAIL_MODES.join("|")}]
                    [--receipt ${RECEIPT_MODES.join("|")}] [--faults FILE]
                    [--print-config]`,
  about: H.about,
  options: {
    ...LEDGER_OPTIONS,
    "input-guardrail": {
      type: "string",
      value: "MODE",
      choices: INPUT_GUARDRAIL_MODES,
      help: H.inputGuardrail,
    },
    receipt: {
      type: "string",
      value: "MODE",
      choices: RECEIPT_MODES,
      help: H.receipt,
    },
    faults: { type: "string", value: "FILE", help: H.faults },
    "print-config": { type: "boolean", help: H.printConfig },
  },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: H.exitUsage, 4: null },
  async run({ values, io, lang }) {
    if (values["print-config"]) {
      printConfig(values, io.out);
      return EXIT.ok;
    }
    const switches = {
      inputGuardrail: values["input-guardrail"],
      receipt: values.receipt,
    };
    const trusted = trustedFolders(io.base);
    let faults = new FaultSchedule();
    if (values.faults !== undefined) {
      const stream = await openUserFile(values.faults, io, lang, FAULTS_FILE);
      if (typeof stream === "number") return stream;
      try {
        faults = await readFaults(stream);
      } catch (error) {
        if (error instanceof BadFaultsFile) {
          throw new UsageError(error.text, "mcp");
        }
        throw error;
      }
    }
    const named = ledgerFileOf("mcp", io, values, true);
    // Without a name, the ledger lives in this process's scratch folder and
    // goes with it: --ledger NAME keeps what the session left.
    using scratch = named === undefined || named === null
      ? scratchFolder(io.base)
      : undefined;
    const path = scratch ? labFilesIn(scratch.path).lab : named!;
    const lab = Lab.open(path, { trusted });
    using _closeFirst = onExit(() => lab.close());
    if (scratch) {
      io.err(say(fill(M.scratchLedger, { path }), lang));
    }
    if (io.stdinIsTerminal) {
      io.err(say(M.fromTerminal, lang));
    }
    try {
      // The literal specifier keeps the SDK out of every other command's graph.
      const { serveMcp } = await import("../../../mcp/server.ts");
      await serveMcp({
        lab,
        ledgerPath: path,
        trusted,
        lang,
        faults,
        switches,
        input: io.stdin(),
        write: (line) => io.out(line),
        log: (line) => io.err(line),
      });
    } finally {
      lab.close();
    }
    return EXIT.ok;
  },
});

/**
 * `--print-config`: the `mcpServers` block that starts this same server
 * (the same flags) from any folder, as JSON on stdout. Nothing is served
 * and nothing is opened; a path flag must be absolute, since a host starts
 * the server in a folder of its own.
 */
function printConfig(
  values: Record<string, string | boolean | undefined>,
  out: (line: string) => void,
): void {
  const args: string[] = [];
  for (
    const flag of [
      "ledger",
      "ledger-file",
      "input-guardrail",
      "receipt",
      "faults",
      "home",
      "lang",
    ]
  ) {
    const value = values[flag];
    if (typeof value !== "string") continue;
    if (
      ["ledger-file", "faults", "home"].includes(flag) && !isAbsolute(value)
    ) {
      throw new UsageError(fill(M.printConfigAbsolute, { flag }), "mcp");
    }
    args.push(`--${flag}`, value);
  }
  for (const line of JSON.stringify(hostConfig(args), null, 2).split("\n")) {
    out(line);
  }
}
