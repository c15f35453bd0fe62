/**
 * `guardlab proxy`: a drop-in `mcpServers` entry that forwards, records and
 * injects faults (`lib/accept/proxy.ts`), and `guardlab proxy show FILE`,
 * which draws a record (`lib/views/proxy_view.ts`). Stdout is the client's
 * protocol channel: bytes the server wrote go there unchanged, never
 * through the screen writer.
 *
 * @module
 */
import { join } from "node:path";
import { fill, say, type Text } from "../../base/i18n.ts";
import { privateRoot, trustedFolders } from "../../sandbox/sandbox.ts";
import {
  BadFaults,
  parseFaults,
  type ProxyFault,
} from "../../accept/faults.ts";
import { createPrivateFile, readBoundedFile } from "../../accept/files.ts";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  MAX_ANSWER_TIMEOUT_MS,
  MAX_FAULTS_BYTES,
  MAX_RECORD_BYTES,
  MIN_ANSWER_TIMEOUT_MS,
} from "../../accept/limits.ts";
import { ACCEPT_MESSAGES } from "../../accept/messages.ts";
import type { Oracle } from "../../accept/oracle.ts";
import { parseRecord, RecordWriter } from "../../accept/record.ts";
import { assertGrantFor } from "../../accept/start.ts";
import { proxyShowLines, proxySvg } from "../../views/proxy_view.ts";
import { command } from "../command.ts";
import { EXIT } from "../exit.ts";
import { readOracleFile } from "../oracle_file.ts";
import { ACCEPT_CLI_MESSAGES as M } from "../messages/accept.ts";
import { PROXY_CLI_MESSAGES as C, PROXY_HELP as H } from "../messages/proxy.ts";
import { UsageError, wholeFlag } from "../parser.ts";

/** Write bytes to stdout whole; a reader that went away ends the interest, not the proxy. */
function writeStdout(bytes: Uint8Array): void {
  try {
    while (bytes.length > 0) {
      bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/** The `proxy` command. */
export const proxy = command({
  name: "proxy",
  usage: `proxy [--faults FILE] [--record FILE] [--oracle FILE]
                    [--timeout-ms N] -- COMMAND ARGS…
       guardlab proxy show FILE [--format svg] [--oracle FILE]`,
  about: H.about,
  options: {
    faults: { type: "string", value: "FILE", help: H.faults },
    record: { type: "string", value: "FILE", help: H.record },
    oracle: { type: "string", value: "FILE", help: H.oracle },
    "timeout-ms": { type: "string", value: "N", help: H.timeout },
    format: {
      type: "string",
      value: "FORMAT",
      choices: ["text", "svg"],
      help: H.format,
    },
  },
  maxPositionals: 256,
  exits: { 0: H.exit0, 1: H.exit1, 2: H.exit2, 4: H.exit4 },
  async run({ values, positionals, io, lang }) {
    const trusted = trustedFolders(io.base);
    const readFile = async <T>(
      path: string,
      max: number,
      what: Text,
      parse: (t: string) => T,
    ) => {
      try {
        return parse(await readBoundedFile(path, trusted, max));
      } catch (error) {
        if (
          error instanceof Deno.errors.NotFound ||
          error instanceof Deno.errors.IsADirectory
        ) {
          io.err(
            `guardlab: ${
              say(
                fill(M.notReadable, { what, file: JSON.stringify(path) }),
                lang,
              )
            }`,
          );
          return null;
        }
        throw error;
      }
    };
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
    if (positionals[0] === "show") {
      if (positionals.length !== 2) {
        throw new UsageError(C.needsServer, "proxy");
      }
      const file = positionals[1];
      const lines = await readFile(
        file,
        MAX_RECORD_BYTES,
        C.recordWord,
        parseRecord,
      );
      if (lines === null) return EXIT.failed;
      if ("bad" in lines) {
        throw new UsageError(
          fill(C.badRecord, { file: JSON.stringify(file), line: lines.bad }),
          "proxy",
        );
      }
      if (values.format === "svg") io.out(proxySvg(lines, file, lang, oracle));
      else {for (const line of proxyShowLines(lines, file, lang, oracle)) {
          io.out(line);
        }}
      return EXIT.ok;
    }
    if (positionals.length === 0) throw new UsageError(C.needsServer, "proxy");
    const [server, ...args] = positionals;
    assertGrantFor({ kind: "command", command: server, args }, "proxy");
    const timeoutMs = wholeFlag(
      "proxy",
      "--timeout-ms",
      values["timeout-ms"],
      DEFAULT_ANSWER_TIMEOUT_MS,
      MIN_ANSWER_TIMEOUT_MS,
      MAX_ANSWER_TIMEOUT_MS,
    );
    let faults: ProxyFault[] = [];
    if (values.faults !== undefined) {
      try {
        const read = await readFile(
          values.faults,
          MAX_FAULTS_BYTES,
          C.faultsWord,
          parseFaults,
        );
        if (read === null) return EXIT.failed;
        faults = read;
      } catch (error) {
        if (error instanceof BadFaults) {
          throw new UsageError(error.text, "proxy");
        }
        throw error;
      }
    }
    const asked = values.record ??
      join(
        privateRoot(io)!,
        `proxy-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`,
      );
    const created = createPrivateFile(asked, trusted);
    const path = created.path;
    const record = new RecordWriter(created.file);
    record.write({ kind: "start", guardlab_proxy: 1, command: positionals });
    io.err(say(fill(C.recording, { path }), lang));
    const { runProxy } = await import("../../accept/proxy.ts");
    let end;
    try {
      end = await runProxy({
        command: server,
        args,
        input: io.stdin(),
        output: writeStdout,
        faults,
        record,
        oracle,
        timeoutMs,
        log: (line) => io.err(say(line, lang)),
      });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        io.err(
          `guardlab: ${
            say(
              fill(ACCEPT_MESSAGES.notFound, {
                command: JSON.stringify(server),
              }),
              lang,
            )
          }`,
        );
        return EXIT.failed;
      }
      throw error;
    } finally {
      record.close();
    }
    return end.serverFirst && end.serverCode !== 0 ? EXIT.failed : EXIT.ok;
  },
});
