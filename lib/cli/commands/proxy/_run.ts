/**
 * One proxy session: the server started under the engineer grant, every
 * message forwarded and recorded (`lib/accept/proxy.ts`, loaded with a
 * dynamic import), faults applied, and with an oracle the effect of each
 * write read by key. Stdout is the client's protocol channel: bytes the
 * server wrote go there unchanged, never through the screen writer.
 *
 * @module
 */
import { join } from "node:path";
import { fill, type Lang, say } from "../../../base/i18n.ts";
import { privateRoot } from "../../../sandbox/sandbox.ts";
import {
  BadFaults,
  parseFaults,
  type ProxyFault,
} from "../../../accept/faults.ts";
import { createPrivateFile } from "../../../accept/files.ts";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  MAX_ANSWER_TIMEOUT_MS,
  MAX_FAULTS_BYTES,
  MIN_ANSWER_TIMEOUT_MS,
} from "../../../accept/limits.ts";
import { START_MESSAGES } from "../../../accept/messages.ts";
import type { Oracle } from "../../../accept/oracle.ts";
import { RecordWriter } from "../../../accept/record.ts";
import { assertGrantFor } from "../../../accept/start.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { PROXY_MESSAGES as C } from "./_messages.ts";
import { printable, UsageError, wholeFlag } from "../../parser.ts";
import type { ReadFile } from "./_files.ts";
import { parseTraceparent, randomTraceId } from "../../../otlp/ids.ts";

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

/** What a session needs from the command line. */
export interface SessionOptions {
  /** The server's command and its arguments. */
  readonly positionals: readonly string[];
  /** `--faults FILE`. */
  readonly faults?: string;
  /** `--record FILE`. */
  readonly record?: string;
  /** `--timeout-ms N`, unparsed. */
  readonly timeoutMs?: string;
  /** `--read-before-delivery`. */
  readonly readBeforeDelivery: boolean;
  /** The oracle read from `--oracle FILE`. */
  readonly oracle?: Oracle;
  /** The folders files may be in. */
  readonly trusted: readonly string[];
  /** How a file is read. */
  readonly readFile: ReadFile;
  /** Where to write. */
  readonly io: Io;
  /** The language of the log. */
  readonly lang: Lang;
  /** `--traceparent`, unparsed. */
  readonly traceparent?: string;
}

/** Run one proxy session; returns the exit code. */
export async function runSession(o: SessionOptions): Promise<number> {
  const { io, lang, positionals } = o;
  if (positionals.length === 0) throw new UsageError(C.needsServer, "proxy");
  const [server, ...args] = positionals;
  const parent = o.traceparent === undefined
    ? undefined
    : parseTraceparent(o.traceparent);
  if (parent === null) {
    throw new UsageError(
      fill(C.badTraceparent, { got: printable(o.traceparent!) }),
      "proxy",
    );
  }
  assertGrantFor({ kind: "command", command: server, args }, "proxy");
  const timeoutMs = wholeFlag(
    "proxy",
    "--timeout-ms",
    o.timeoutMs,
    DEFAULT_ANSWER_TIMEOUT_MS,
    MIN_ANSWER_TIMEOUT_MS,
    MAX_ANSWER_TIMEOUT_MS,
  );
  let faults: ProxyFault[] = [];
  if (o.faults !== undefined) {
    try {
      const read = await o.readFile(
        o.faults,
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
  const asked = o.record ??
    join(
      privateRoot(io)!,
      `proxy-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`,
    );
  const created = createPrivateFile(asked, o.trusted);
  const path = created.path;
  const record = new RecordWriter(
    created.file,
    (why) => io.err(say(why, lang)),
  );
  record.write({
    kind: "start",
    guardlab_proxy: 1,
    command: [...positionals],
    epoch_ms: record.origin,
    oracle: o.oracle !== undefined,
    read_before_delivery: o.readBeforeDelivery,
    // The session's own trace, for the calls that name no parent.
    trace: randomTraceId(),
    ...(parent === undefined ? {} : { traceparent: o.traceparent }),
  });
  // A host that probes first (agents-core's MCP client) starts guardlab
  // proxy twice, the first time for the probe alone: the session is then
  // in the next free name, which this line names beside the one asked for.
  io.err(
    say(
      created.taken === null
        ? fill(C.recording, { path })
        : fill(C.recordingNext, { path, taken: created.taken }),
      lang,
    ),
  );
  const { runProxy } = await import("../../../accept/proxy.ts");
  let end;
  try {
    end = await runProxy({
      command: server,
      args,
      input: io.stdin(),
      output: writeStdout,
      faults,
      record,
      oracle: o.oracle,
      timeoutMs,
      readBeforeDelivery: o.readBeforeDelivery,
      log: (line) => io.err(say(line, lang)),
      ...(parent === undefined ? {} : { traceparent: parent }),
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      io.err(
        `guardlab: ${
          say(
            fill(START_MESSAGES.notFound, {
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
}
