/**
 * `guardlab proxy`: a drop-in `mcpServers` entry that sits between an
 * agent's host and the real server. Every message goes through unchanged,
 * both ways (initialize, lists, calls, notifications, progress,
 * cancellation, resources, prompts), and is recorded with its time,
 * direction and call number. Faults apply by tool name and call number:
 * an answer dropped or held back, a cancel sent on the client's behalf, a
 * call delivered twice or fanned out. With an oracle, the effect of each
 * write is read from the server by key once the client has gone: a read
 * the agent never saw.
 *
 * The server runs with the user's own rights: Deno's sandbox covers
 * guardlab, not the server.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { messageOf, pumpLines } from "./channel.ts";
import { drainAfterExit, startServerProcess } from "./_server_process.ts";
import { faultsFor, type ProxyFault } from "./faults.ts";
import { MAX_MESSAGE_BYTES, MAX_RECORD_LINES } from "./limits.ts";
import { PROXY_MESSAGES as P } from "./proxy_messages.ts";
import { countIn, type Oracle, pointerGet, substitute } from "./oracle.ts";
import type { RecordWriter } from "./record.ts";

/** What the proxy needs. */
export interface ProxyOptions {
  /** The server to start. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** The client's messages (the proxy's stdin). */
  readonly input: ReadableStream<Uint8Array>;
  /** Write bytes to the client (the proxy's stdout), unchanged. */
  readonly output: (bytes: Uint8Array) => void;
  /** The faults to apply. */
  readonly faults: readonly ProxyFault[];
  /** Where each message is recorded. */
  readonly record: RecordWriter;
  /** The oracle, for the effect of each write at the end. */
  readonly oracle?: Oracle;
  /** How long the end-of-session reads wait for an answer. */
  readonly timeoutMs: number;
  /**
   * With an oracle: read each write's effect by key when its answer comes
   * back, before the client gets it (the answer waits for the read), so the
   * record shows where the effect became visible relative to what the
   * client knew.
   */
  readonly readBeforeDelivery?: boolean;
  /** One line of the proxy's log (stderr). */
  readonly log: (line: Text) => void;
}

/** How a proxy session ended. */
export interface ProxyEnd {
  /** The server's exit code, or null when it was killed. */
  readonly serverCode: number | null;
  /** Whether the server exited before the client closed its end. */
  readonly serverFirst: boolean;
}

interface InFlight {
  call: number;
  tool: string;
  args: unknown;
  plan: ReturnType<typeof faultsFor>;
  /** Set once the client has its answer (or the error a cancel fault gave it). */
  answered: boolean;
}

const encoder = new TextEncoder();

/** JSON-RPC's code for "request cancelled", used when a cancel fault answers the client. */
export const CANCELLED_CODE = -32800;

/** Run one proxy session: until the client closes its end (or the server exits). */
export async function runProxy(o: ProxyOptions): Promise<ProxyEnd> {
  const server = startServerProcess(o.command, o.args, "inherit");
  const toServer = (text: string) => server.write(encoder.encode(text + "\n"));
  // The time an answer leaves is taken before it leaves: whatever the
  // client does with it (an agent's output guardrail) comes after it.
  const toClient = (text: string): number => {
    const at = rec.now();
    o.output(encoder.encode(text + "\n"));
    return at;
  };
  const rec = o.record;
  rec.onFull = () => o.log(fill(P.recordFull, { max: MAX_RECORD_LINES }));
  const note = (...a: Parameters<RecordWriter["message"]>) => rec.message(...a);

  let calls = 0;
  const perTool = new Map<string, number>();
  const inflight = new Map<string, InFlight>();
  const seenCalls = new Map<string, InFlight>();
  const copies = new Map<string, InFlight>();
  const reads = new Map<string, (m: Record<string, unknown>) => void>();
  const writes: { call: number; tool: string; args: unknown }[] = [];
  let copyId = 0;
  let readId = 0;
  /** Answers held back while their effect is read. */
  let holding = 0;
  let drained: () => void = () => {};
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
      drained();
    }, ms);
    timers.add(t);
  };

  const fromClient = (text: string) => {
    const m = messageOf(text);
    if (typeof m === "string" || !isRequest(m, "tools/call")) {
      // Forwarded unchanged: even a line the server will refuse is the client's to send.
      const cancel =
        typeof m !== "string" && m.method === "notifications/cancelled"
          ? seenCalls.get(
            idKey((m.params as { requestId?: unknown })?.requestId),
          )
          : undefined;
      toServer(text);
      note(
        {
          dir: "client>server",
          action: "forwarded",
          ...(cancel ? { call: cancel.call, tool: cancel.tool } : {}),
        },
        text,
        typeof m === "string" ? undefined : m,
      );
      return;
    }
    // The call leaves first: everything below (the plan, the record) is
    // bookkeeping the server need not wait for.
    toServer(text);
    const params = m.params as { name?: unknown; arguments?: unknown };
    const tool = typeof params?.name === "string" ? params.name : "";
    const call = ++calls;
    const ofTool = (perTool.get(tool) ?? 0) + 1;
    perTool.set(tool, ofTool);
    const plan = faultsFor(o.faults, tool, call, ofTool);
    const flight: InFlight = {
      call,
      tool,
      args: params?.arguments,
      plan,
      answered: false,
    };
    inflight.set(idKey(m.id), flight);
    // Kept after the answer, so a late cancel still names its call.
    if (seenCalls.size < MAX_RECORD_LINES) seenCalls.set(idKey(m.id), flight);
    writes.push({ call, tool, args: params?.arguments });
    note({ dir: "client>server", action: "forwarded", call, tool }, text, m);
    const extra = plan.fanout !== undefined
      ? plan.fanout - 1
      : plan.deliver_twice
      ? 1
      : 0;
    if (extra > 0) {
      for (let k = 0; k < extra; k++) {
        const id = `guardlab-copy-${++copyId}`;
        copies.set(idKey(id), flight);
        toServer(JSON.stringify({ ...m, id }));
      }
      note({
        dir: "guardlab>server",
        action: "copy",
        call,
        tool,
        copies: extra,
      }, null);
    }
    if (plan.cancel_after_ms !== undefined) {
      later(plan.cancel_after_ms, () => {
        if (flight.answered) return;
        flight.answered = true;
        const cancel = JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: {
            requestId: m.id,
            reason: "guardlab proxy: cancel_after_ms fault",
          },
        });
        toServer(cancel);
        note({
          dir: "guardlab>server",
          action: "cancelled",
          call,
          tool,
          ms: plan.cancel_after_ms,
        }, cancel);
        const error = JSON.stringify({
          jsonrpc: "2.0",
          id: m.id,
          error: {
            code: CANCELLED_CODE,
            message:
              `guardlab proxy: cancelled after ${plan.cancel_after_ms} ms (a fault)`,
          },
        });
        const at = toClient(error);
        note(
          { dir: "guardlab>client", action: "cancelled", call, tool },
          error,
          undefined,
          at,
        );
        o.log(fill(P.cancelledByFault, { call, ms: plan.cancel_after_ms! }));
      });
    }
  };

  const fromServer = (text: string) => {
    const m = messageOf(text);
    if (typeof m === "string") {
      note({ dir: "server>client", action: "not-json" }, text);
      o.log(P.serverNotJson);
      return;
    }
    const isAnswer = !("method" in m) && ("result" in m || "error" in m);
    if (!isAnswer) {
      const at = toClient(text);
      note({ dir: "server>client", action: "forwarded" }, text, m, at);
      return;
    }
    const key = idKey(m.id);
    const read = reads.get(key);
    if (read !== undefined) {
      reads.delete(key);
      note({ dir: "server>guardlab", action: "delivered" }, text, m);
      read(m);
      return;
    }
    const copy = copies.get(key);
    if (copy !== undefined) {
      copies.delete(key);
      note(
        {
          dir: "server>guardlab",
          action: "copy",
          call: copy.call,
          tool: copy.tool,
        },
        text,
        m,
      );
      return;
    }
    const flight = inflight.get(key);
    if (flight === undefined) {
      const at = toClient(text);
      note({ dir: "server>client", action: "forwarded" }, text, m, at);
      return;
    }
    inflight.delete(key);
    const target = o.readBeforeDelivery && o.oracle !== undefined
      ? writeKey(o.oracle, flight.tool, flight.args)
      : null;
    if (target === null) {
      answer(flight, text, m, false);
      drained();
      return;
    }
    // The effect is read before the client learns anything: whatever the
    // client does next (an output guardrail, a retry) comes after this read.
    holding++;
    note(
      {
        dir: "server>guardlab",
        action: "held",
        call: flight.call,
        tool: flight.tool,
      },
      text,
      m,
    );
    readCount(target.spec, target.key).then((count) => {
      rec.write({
        kind: "effect",
        t: rec.now(),
        tool: flight.tool,
        key: target.key,
        calls: [flight.call],
        count,
        before_delivery: flight.call,
      });
      holding--;
      answer(flight, text, m, true);
      drained();
    });
  };

  /** What becomes of a call's answer: late, dropped, delayed or forwarded. */
  const answer = (
    flight: InFlight,
    text: string,
    m: Record<string, unknown>,
    afterRead: boolean,
  ) => {
    const base = {
      call: flight.call,
      tool: flight.tool,
      ...(afterRead ? { after_read: true as const } : {}),
    };
    if (flight.answered) {
      note({ dir: "server>guardlab", action: "late", ...base }, text, m);
    } else if (flight.plan.drop_response) {
      flight.answered = true;
      note({ dir: "server>guardlab", action: "dropped", ...base }, text, m);
    } else if (flight.plan.delay_response_ms !== undefined) {
      flight.answered = true;
      const ms = flight.plan.delay_response_ms;
      note({ dir: "server>guardlab", action: "delayed", ms, ...base }, text, m);
      later(ms, () => {
        const at = toClient(text);
        note(
          { dir: "guardlab>client", action: "delivered", ...base },
          text,
          m,
          at,
        );
      });
    } else if (afterRead) {
      flight.answered = true;
      const at = toClient(text);
      note(
        { dir: "guardlab>client", action: "delivered", ...base },
        text,
        m,
        at,
      );
    } else {
      // The answer leaves before it is recorded: the client never waits on the record.
      flight.answered = true;
      const at = toClient(text);
      note({ dir: "server>client", action: "forwarded", ...base }, text, m, at);
    }
  };

  /** The effect of `key` as the oracle's read tool counts it, or null (bounded by the timeout). */
  const readCount = async (
    spec: Oracle["tools"][number],
    key: string,
  ): Promise<number | null> => {
    if (serverGone) return null;
    const p = { run: "{run}", n: 1, key };
    const read = substitute(spec.read, p);
    const id = `guardlab-read-${++readId}`;
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: read.tool, arguments: read.arguments },
    });
    const reply = await new Promise<Record<string, unknown> | null>(
      (resolve) => {
        const t = setTimeout(() => {
          reads.delete(idKey(id));
          resolve(null);
        }, o.timeoutMs);
        reads.set(idKey(id), (m) => {
          clearTimeout(t);
          resolve(m);
        });
        toServer(text);
        note({ dir: "guardlab>server", action: "forwarded" }, text);
      },
    );
    const result = reply !== null && isPlainRecord(reply.result) &&
        reply.result.isError !== true
      ? reply.result
      : null;
    return result === null ? null : countIn(spec.count, result, p);
  };

  let serverGone = false;
  const serverOutput = pumpLines(server.stdout, fromServer, () => {
    note({ dir: "server>client", action: "too-long" }, null);
    o.log(fill(P.tooLong, { side: P.sideServer, max: MAX_MESSAGE_BYTES }));
  });
  // The server has gone when its output ended, or a bounded grace after it
  // exited: a process it started may hold its stdout open.
  const serverDone = drainAfterExit(server, serverOutput).then(() => {
    serverGone = true;
    // A read still waiting has no one left to answer it.
    for (const [key, onAnswer] of [...reads]) {
      reads.delete(key);
      onAnswer({});
    }
    // A wait for answers ends when nobody is left to give them.
    drained();
  });
  // The client's input stops being read once the session is over, so a
  // client that keeps its end open does not keep the proxy alive.
  const clientInput = new AbortController();
  const clientDone = pumpLines(
    o.input.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), {
      signal: clientInput.signal,
    }),
    fromClient,
    () => {
      note({ dir: "client>server", action: "too-long" }, null);
      o.log(fill(P.tooLong, { side: P.sideClient, max: MAX_MESSAGE_BYTES }));
    },
  );
  const first = await Promise.race([
    clientDone.then(() => "client" as const),
    serverDone.then(() => "server" as const),
  ]);

  if (first === "client") {
    // The client has gone: let the calls still in flight answer (bounded), then
    // read each write's effect, then end the server's input.
    await settle(
      () =>
        serverGone ||
        (inflight.size === 0 && timers.size === 0 && holding === 0),
      o.timeoutMs,
      (f) => (drained = f),
    );
    if (o.oracle !== undefined && !serverGone) {
      const n = await readEffects(o.oracle, writes, rec, readCount);
      o.log(fill(P.oracleRead, { n }));
    }
  }
  for (const t of timers) clearTimeout(t);
  // Bounded, step by step: the server's input closed, a grace to exit, its
  // process group ended, its pipes and the client's input no longer read.
  const code = await server.end();
  clientInput.abort();
  // The server went first, or went while calls were still unanswered.
  const serverFirst = first === "server" || (serverGone && inflight.size > 0);
  if (serverFirst) o.log(fill(P.serverExited, { code: code ?? "killed" }));
  return { serverCode: code, serverFirst };
}

function isRequest(m: Record<string, unknown>, method: string): boolean {
  return m.method === method && m.id !== undefined && m.id !== null;
}

/** A JSON-RPC id as a map key: 1 and "1" stay apart. */
function idKey(id: unknown): string {
  return typeof id === "string" ? `s:${id}` : `n:${String(id)}`;
}

/** Wait until `done()` holds (checked whenever `wake` is called), at most `ms`. */
function settle(
  done: () => boolean,
  ms: number,
  hook: (wake: () => void) => void,
): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(finish, ms);
    function finish() {
      clearTimeout(t);
      hook(() => {});
      resolve();
    }
    hook(() => {
      if (done()) finish();
    });
  });
}

/** The oracle's entry for a write and its business key, or null when it has none. */
function writeKey(
  oracle: Oracle,
  tool: string,
  args: unknown,
): { spec: Oracle["tools"][number]; key: string } | null {
  const spec = oracle.tools.find((t) => t.tool === tool);
  if (spec === undefined) return null;
  const found = pointerGet(args, spec.key);
  if (
    !found.found ||
    (typeof found.value !== "string" && typeof found.value !== "number")
  ) return null;
  return { spec, key: String(found.value) };
}

/**
 * Read the effect of every write the session made, by key: one read per
 * key, through the server itself, after the client has gone.
 */
async function readEffects(
  oracle: Oracle,
  writes: readonly { call: number; tool: string; args: unknown }[],
  rec: RecordWriter,
  readCount: (
    spec: Oracle["tools"][number],
    key: string,
  ) => Promise<number | null>,
): Promise<number> {
  const keys = new Map<
    string,
    { spec: Oracle["tools"][number]; key: string; calls: number[] }
  >();
  for (const w of writes) {
    const target = writeKey(oracle, w.tool, w.args);
    if (target === null) continue;
    const at = `${w.tool}\u0000${target.key}`;
    const entry = keys.get(at) ?? { ...target, calls: [] };
    entry.calls.push(w.call);
    keys.set(at, entry);
  }
  for (const { spec, key, calls } of keys.values()) {
    const count = await readCount(spec, key);
    rec.write({
      kind: "effect",
      t: rec.now(),
      tool: spec.tool,
      key,
      calls,
      count,
    });
  }
  return keys.size;
}
