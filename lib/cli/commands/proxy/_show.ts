/**
 * `guardlab proxy show FILE [--agent AGENTFILE]`: a record drawn as the
 * acceptance test's timeline, and with an agent record, both on one
 * timeline with the agent's lane beside client, guardlab and server. Both
 * files are hostile input: bounded before they are read, checked line by
 * line, refused in one line.
 *
 * @module
 */
import { fill, type Lang } from "../../../base/i18n.ts";
import { AGENT_MESSAGES as A } from "../../../accept/agent_messages.ts";
import { parseAgentRecord } from "../../../accept/agent_record.ts";
import { MAX_RECORD_BYTES } from "../../../accept/limits.ts";
import type { Oracle } from "../../../accept/oracle.ts";
import { parseRecord } from "../../../accept/record.ts";
import {
  mergedJson,
  mergedShowLines,
  mergedSvg,
} from "../../../accept/views/agent_view.ts";
import {
  probeOnly,
  proxyJson,
  proxyShowLines,
  proxySvg,
  type SessionPointer,
} from "../../../accept/views/proxy_view.ts";
import { nextRecordName } from "../../../accept/files.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { PROXY_MESSAGES as C } from "./_messages.ts";
import { UsageError } from "../../parser.ts";
import type { ReadFile } from "./_files.ts";
import type { ProxyTraceInput } from "../../../accept/views/proxy_otlp.ts";
import { encodeTrace } from "../../../otlp/trace.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";

/** What `proxy show` needs. */
export interface ShowOptions {
  /** The proxy record. */
  readonly file: string;
  /** `--agent AGENTFILE`. */
  readonly agentFile?: string;
  /** The oracle, for the keys of retries. */
  readonly oracle?: Oracle;
  /** text, svg or json. */
  readonly format: "text" | "svg" | "json";
  /** `--otlp FILE`: the timeline as an OpenTelemetry trace, to this new file. */
  readonly otlp?: string;
  /** The folders files may be in. */
  readonly trusted: readonly string[];
  /** How a file is read. */
  readonly readFile: ReadFile;
  /** Where to write. */
  readonly io: Io;
  /** The screen's language. */
  readonly lang: Lang;
}

/**
 * Where the session of a probe record is: the next name the proxy takes
 * when a name is taken (a client that probes first starts it again for
 * the session), and whether a file is there. Only looked at, never read
 * or followed.
 */
function sessionPointer(file: string): SessionPointer | undefined {
  const path = nextRecordName(file);
  if (path === null) return undefined;
  let found = false;
  try {
    found = Deno.lstatSync(path).isFile;
  } catch {
    // Not there, or not ours to look at: the screen says it is not there.
  }
  return { path, found };
}

/** Draw a record (with its agent record); returns the exit code. */
export async function showRecord(o: ShowOptions): Promise<number> {
  const { io, lang, file, oracle } = o;
  // The trace's file is checked before either record is read.
  if (o.otlp !== undefined) assertNewFile(o.otlp, o.trusted);
  const lines = await o.readFile(
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
  const next = probeOnly(lines) ? sessionPointer(file) : undefined;
  if (o.agentFile === undefined) {
    if (o.format === "json") {
      io.out(
        JSON.stringify(proxyJson(lines, file, lang, oracle, next), null, 2),
      );
    } else if (o.format === "svg") {
      io.out(proxySvg(lines, file, lang, oracle, next));
    } else {
      for (const line of proxyShowLines(lines, file, lang, oracle, next)) {
        io.out(line);
      }
    }
    await writeTrace(o, { lines, file, oracle, lang });
    return EXIT.ok;
  }
  const agentFile = o.agentFile;
  const agent = await o.readFile(
    agentFile,
    MAX_RECORD_BYTES,
    C.agentRecordWord,
    parseAgentRecord,
  );
  if (agent === null) return EXIT.failed;
  if ("bad" in agent) {
    throw new UsageError(
      fill(A.badAgentRecord, {
        file: JSON.stringify(agentFile),
        line: agent.bad,
      }),
      "proxy",
    );
  }
  const start = lines[0];
  if (start.kind !== "start" || start.epoch_ms === undefined) {
    throw new UsageError(
      fill(A.noClock, { file: JSON.stringify(file) }),
      "proxy",
    );
  }
  const files = { record: file, agent: agentFile, next };
  if (o.format === "json") {
    io.out(
      JSON.stringify(mergedJson(lines, agent, files, lang, oracle), null, 2),
    );
  } else if (o.format === "svg") {
    io.out(mergedSvg(lines, agent, files, lang, oracle));
  } else {
    for (const line of mergedShowLines(lines, agent, files, lang, oracle)) {
      io.out(line);
    }
  }
  await writeTrace(o, { lines, file, agent, oracle, lang });
  return EXIT.ok;
}

/**
 * `--otlp FILE`: what was just shown, as an OpenTelemetry trace
 * (`accept/views/proxy_otlp.ts`), written to a new file.
 */
async function writeTrace(o: ShowOptions, input: ProxyTraceInput) {
  if (o.otlp === undefined) return;
  const { proxyTrace } = await import("../../../accept/views/proxy_otlp.ts");
  writeNewFile(o.otlp, o.trusted, encodeTrace(await proxyTrace(input)).text);
}
