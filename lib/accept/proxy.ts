/**
 * `guardlab proxy`: a drop-in `mcpServers` entry that sits between an
 * agent's host and the real server. Every message goes through unchanged,
 * both ways (initialize, lists, calls, notifications, progress,
 * cancellation, resources, prompts), and is recorded with its time,
 * direction and call number; only with `--traceparent` does a
 * `tools/call` that names no parent get the proxy's span as its
 * `params._meta.traceparent`. Faults apply by tool name and call number:
 * an answer dropped or held back, a cancel sent on the client's behalf, a
 * call delivered twice or fanned out. With an oracle, the effect of each
 * write is read from the server by key once the client has gone, and the
 * effect of a call the client cancels (its timeout) as the cancel passes,
 * while the server is still there: reads the agent never saw.
 *
 * The server runs with the user's own rights: Deno's sandbox covers
 * guardlab, not the server.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { pumpLines } from "../wire/channel.ts";
import {
  idKey,
  isRequest,
  isResponse,
  type Message,
  parseMessage,
  REQUEST_CANCELLED,
} from "../wire/message.ts";
import {
  drainAfterExit,
  type ServerProcess,
  startServerProcess,
} from "../wire/server_process.ts";
import { faultsFor, type ProxyFault } from "./faults.ts";
import { MAX_RECORD_LINES } from "./limits.ts";
import { MAX_DEPTH, MAX_MESSAGE_BYTES } from "../wire/limits.ts";
import { PROXY_LOG as P } from "./proxy_messages.ts";
import { countIn, type Oracle, substitute } from "./oracle.ts";
import { readEffects, writeKey } from "./_proxy_effects.ts";
import type { RecordWriter } from "./record.ts";
import {
  parseTraceparent,
  randomSpanId,
  type TraceContext,
  traceparentOf,
} from "../otlp/ids.ts";

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
  /**
   * `--traceparent`: the parent of a call that names none; the proxy then
   * adds its own span's traceparent to that request's `params._meta`, so
   * the server's spans are the proxy's children.
   */
  readonly traceparent?: TraceContext;
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
  /**
   * Set once the call was cancelled (by the client, or by a cancel
   * fault): a server rightly never answers it, so the end waits for it
   * no more.
   */
  cancelled: boolean;
}

const encoder = new TextEncoder();

/**
 * Run one proxy session: until the client closes its end (or the server
 * exits). Read top to bottom, it is the session's timeline: the server
 * starts; both sides' messages pass (each forwarded first, then recorded,
 * its faults applied); when the client has gone, the calls still in flight
 * answer, then each write's effect is read by key; the server ends.
 */
export async function runProxy(o: ProxyOptions): Promise<ProxyEnd> {
  const server = startServerProcess(o.command, o.args, "inherit");
  const session = new ProxySession(o, server);
  // The server has gone when its output ended, or a bounded grace after it
  // exited: a process it started may hold its stdout open.
  const serverDone = session.readServer();
  // The client's input stops being read once the session is over, so a
  // client that keeps its end open does not keep the proxy alive.
  const clientDone = session.readClient();
  const first = await Promise.race([
    clientDone.then(() => "client" as const),
    serverDone.then(() => "server" as const),
  ]);
  if (first === "client") {
    // The client has gone: the calls still in flight answer (bounded),
    // then each write's effect is read, while the server is still there.
    await session.settleInFlight();
    await session.readEffects();
  }
  // Bounded, step by step: the server's input closed, a grace to exit, its
  // process group ended, its pipes and the client's input no longer read.
  const code = await session.end();
  // The server went first, or went while calls were still unanswered.
  const serverFirst = first === "server" ||
    (session.serverGone && session.unanswered > 0);
  if (serverFirst) o.log(fill(P.serverExited, { code: code ?? "killed" }));
  return { serverCode: code, serverFirst };
}

/** One proxy session's state, and what happens to each message that passes. */
class ProxySession {
  readonly #o: ProxyOptions;
  readonly #server: ServerProcess;
  readonly #rec: RecordWriter;
  #calls = 0;
  readonly #perTool = new Map<string, number>();
  readonly #inflight = new Map<string, InFlight>();
  /** Every call seen, kept after its answer: a late cancel still names its call. */
  readonly #seenCalls = new Map<string, InFlight>();
  readonly #copies = new Map<string, InFlight>();
  readonly #reads = new Map<string, (m: Message) => void>();
  readonly #writes: { call: number; tool: string; args: unknown }[] = [];
  #copyId = 0;
  #readId = 0;
  /** Answers held back while their effect is read. */
  #holding = 0;
  /** Calls in flight that were cancelled: the end does not wait for their answers. */
  #cancelledInFlight = 0;
  /** Reads of an effect on a cancel, still waiting for their answer. */
  #cancelReads = 0;
  /** Called whenever something the end waits for may have happened. */
  #drained: () => void = () => {};
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #clientInput = new AbortController();
  /** Set once the server has gone (its output ended, or it exited). */
  serverGone = false;

  constructor(o: ProxyOptions, server: ServerProcess) {
    this.#o = o;
    this.#server = server;
    this.#rec = o.record;
    this.#rec.onFull = () =>
      o.log(fill(P.recordFull, { max: MAX_RECORD_LINES }));
  }

  /** Calls whose answer never came (cancelled ones included). */
  get unanswered(): number {
    return this.#inflight.size;
  }

  /** Read the server's output until it has gone; a read still waiting then gets nothing. */
  readServer(): Promise<void> {
    const output = pumpLines(
      this.#server.stdout,
      (text) => this.#fromServer(text),
      () => {
        this.#note({ dir: "server>client", action: "too-long" }, null);
        this.#o.log(
          fill(P.tooLong, { side: P.sideServer, max: MAX_MESSAGE_BYTES }),
        );
      },
    );
    return drainAfterExit(this.#server, output).then(() => {
      this.serverGone = true;
      // A read still waiting has no one left to answer it.
      for (const [key, onAnswer] of [...this.#reads]) {
        this.#reads.delete(key);
        onAnswer({});
      }
      // A wait for answers ends when nobody is left to give them.
      this.#drained();
    });
  }

  /** Read the client's input until it ends (or the session is over). */
  readClient(): Promise<void> {
    return pumpLines(
      this.#o.input.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), {
        signal: this.#clientInput.signal,
      }),
      (text) => this.#fromClient(text),
      () => {
        this.#note({ dir: "client>server", action: "too-long" }, null);
        this.#o.log(
          fill(P.tooLong, { side: P.sideClient, max: MAX_MESSAGE_BYTES }),
        );
      },
    );
  }

  /**
   * Wait, at most the answer bound, until every call in flight has its
   * answer (or the server has gone). A cancelled call is not waited for:
   * a server rightly never answers it, and a host that closes the
   * session stops the proxy soon after (agents-core's MCP client: 2 s).
   */
  settleInFlight(): Promise<void> {
    return settle(
      () =>
        this.serverGone ||
        (this.#inflight.size === this.#cancelledInFlight &&
          this.#timers.size === 0 && this.#holding === 0 &&
          this.#cancelReads === 0),
      this.#o.timeoutMs,
      (wake) => (this.#drained = wake),
    );
  }

  /** With an oracle, read the effect of every write the session made, by key, through the server itself. */
  async readEffects(): Promise<void> {
    if (this.#o.oracle === undefined || this.serverGone) return;
    const n = await readEffects(
      this.#o.oracle,
      this.#writes,
      this.#rec,
      (spec, key) => this.#readCount(spec, key),
    );
    this.#o.log(fill(P.oracleRead, { n }));
  }

  /** End the session: no timer left, the server ended (bounded), the client's input no longer read. */
  async end(): Promise<number | null> {
    for (const t of this.#timers) clearTimeout(t);
    const code = await this.#server.end();
    this.#clientInput.abort();
    return code;
  }

  #toServer(text: string): void {
    this.#server.write(encoder.encode(text + "\n"));
  }

  /**
   * Send `text` to the client; the time it left, taken before it leaves:
   * whatever the client does with it (an agent's output guardrail) comes
   * after it.
   */
  #toClient(text: string): number {
    const at = this.#rec.now();
    this.#o.output(encoder.encode(text + "\n"));
    return at;
  }

  #note(...a: Parameters<RecordWriter["message"]>): void {
    this.#rec.message(...a);
  }

  /** Run `fn` after `ms`, unless the session ends first. */
  #later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
      this.#drained();
    }, ms);
    this.#timers.add(t);
  }

  /** A line from the client: a tools/call is a call; anything else goes on unchanged. */
  #fromClient(text: string): void {
    const parsed = parseMessage(text);
    const m = "message" in parsed ? parsed.message : undefined;
    if (m !== undefined && isRequest(m, "tools/call")) {
      return this.#call(m, text);
    }
    // Forwarded unchanged: even a line the server will refuse (or one
    // nested past what guardlab reads, recorded by its size) is the
    // client's to send.
    const cancelKey = m?.method === "notifications/cancelled"
      ? idKey((m.params as { requestId?: unknown })?.requestId)
      : undefined;
    const cancel = cancelKey === undefined
      ? undefined
      : this.#seenCalls.get(cancelKey);
    this.#toServer(text);
    this.#note(
      {
        dir: "client>server",
        action: "forwarded",
        ...(cancel ? { call: cancel.call, tool: cancel.tool } : {}),
      },
      text,
      m,
    );
    if (cancel !== undefined) this.#clientCancelled(cancelKey!, cancel);
  }

  /**
   * The client cancelled a call (its timeout): no answer is waited for
   * any more, and with an oracle the effect of its key is read now, while
   * the server is still there (a host that closes the session stops the
   * proxy soon after, before any wait for that answer could end).
   */
  #clientCancelled(key: string, flight: InFlight): void {
    this.#markCancelled(key, flight);
    const target = this.#o.oracle === undefined
      ? null
      : writeKey(this.#o.oracle, flight.tool, flight.args);
    if (target === null) return;
    this.#cancelReads++;
    this.#readNow(flight, target, { after_cancel: flight.call }).then(() => {
      this.#cancelReads--;
      this.#drained();
    });
  }

  /** Read the effect of a call's key now, and record what was counted and why it was read then. */
  #readNow(
    flight: InFlight,
    target: NonNullable<ReturnType<typeof writeKey>>,
    when: { before_delivery: number } | { after_cancel: number },
  ): Promise<void> {
    return this.#readCount(target.spec, target.key).then((count) => {
      this.#rec.write({
        kind: "effect",
        t: this.#rec.now(),
        tool: flight.tool,
        key: target.key,
        calls: [flight.call],
        count,
        ...when,
      });
    });
  }

  /** A call (its id's key) was cancelled: the end no longer waits for its answer. */
  #markCancelled(key: string, flight: InFlight): void {
    if (flight.cancelled) return;
    flight.cancelled = true;
    if (this.#inflight.get(key) === flight) this.#cancelledInFlight++;
    this.#drained();
  }

  /** A client's tools/call: sent on at once, then numbered, recorded, and its faults planned. */
  #call(m: Message, text: string): void {
    // The call leaves first: everything below (the plan, the record) is
    // bookkeeping the server need not wait for. Only its trace context is
    // worked out before: with --traceparent, what leaves carries the
    // proxy's span as its parent.
    const trace = this.#traceOf(m);
    this.#toServer(trace.text ?? text);
    const params = m.params as { name?: unknown; arguments?: unknown };
    const tool = typeof params?.name === "string" ? params.name : "";
    const call = ++this.#calls;
    const ofTool = (this.#perTool.get(tool) ?? 0) + 1;
    this.#perTool.set(tool, ofTool);
    const flight: InFlight = {
      call,
      tool,
      args: params?.arguments,
      plan: faultsFor(this.#o.faults, tool, call, ofTool),
      answered: false,
      cancelled: false,
    };
    this.#inflight.set(idKey(m.id), flight);
    if (this.#seenCalls.size < MAX_RECORD_LINES) {
      this.#seenCalls.set(idKey(m.id), flight);
    }
    this.#writes.push({ call, tool, args: params?.arguments });
    this.#note(
      { dir: "client>server", action: "forwarded", call, tool, ...trace.line },
      text,
      m,
    );
    this.#sendCopies(m, flight);
    if (flight.plan.cancel_after_ms !== undefined) {
      this.#later(flight.plan.cancel_after_ms, () => this.#cancel(m, flight));
    }
  }

  /**
   * A call's trace context: the proxy's own span for it, and its parent,
   * the client's `params._meta.traceparent` or else `--traceparent`; with
   * the flag's, the request to send with the proxy's span added as its
   * traceparent (`text`, else the client's bytes go on unchanged).
   */
  #traceOf(m: Message): {
    line: {
      span: string;
      traceparent?: string;
      traceparent_from?: "client" | "flag";
    };
    text?: string;
  } {
    const span = randomSpanId();
    const params = m.params as { _meta?: unknown } | undefined;
    const meta = params?._meta !== null && typeof params?._meta === "object"
      ? params._meta as Record<string, unknown>
      : undefined;
    const given = parseTraceparent(meta?.traceparent);
    if (given !== null) {
      return {
        line: {
          span,
          traceparent: meta!.traceparent as string,
          traceparent_from: "client",
        },
      };
    }
    const flag = this.#o.traceparent;
    if (flag === undefined) return { line: { span } };
    const added = {
      ...m,
      params: {
        ...params,
        _meta: { ...meta, traceparent: traceparentOf(flag.traceId, span) },
      },
    };
    return {
      line: {
        span,
        traceparent: traceparentOf(flag.traceId, flag.parentId),
        traceparent_from: "flag",
      },
      text: JSON.stringify(added),
    };
  }

  /** A deliver_twice or fanout fault: copies of the call, with ids of guardlab's own (their answers are recorded, never delivered). */
  #sendCopies(m: Message, flight: InFlight): void {
    const { plan } = flight;
    const extra = plan.fanout !== undefined
      ? plan.fanout - 1
      : plan.deliver_twice
      ? 1
      : 0;
    if (extra <= 0) return;
    for (let k = 0; k < extra; k++) {
      const id = `guardlab-copy-${++this.#copyId}`;
      this.#copies.set(idKey(id), flight);
      this.#toServer(JSON.stringify({ ...m, id }));
    }
    this.#note({
      dir: "guardlab>server",
      action: "copy",
      call: flight.call,
      tool: flight.tool,
      copies: extra,
    }, null);
  }

  /** A cancel_after_ms fault, due: the server is sent notifications/cancelled, the client an error, unless it has its answer. */
  #cancel(m: Message, flight: InFlight): void {
    if (flight.answered) return;
    flight.answered = true;
    this.#markCancelled(idKey(m.id), flight);
    const { call, tool } = flight;
    const ms = flight.plan.cancel_after_ms!;
    const cancel = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: {
        requestId: m.id,
        reason: "guardlab proxy: cancel_after_ms fault",
      },
    });
    this.#toServer(cancel);
    this.#note(
      { dir: "guardlab>server", action: "cancelled", call, tool, ms },
      cancel,
    );
    const error = JSON.stringify({
      jsonrpc: "2.0",
      id: m.id,
      error: {
        code: REQUEST_CANCELLED,
        message: `guardlab proxy: cancelled after ${ms} ms (a fault)`,
      },
    });
    const at = this.#toClient(error);
    this.#note(
      { dir: "guardlab>client", action: "cancelled", call, tool },
      error,
      undefined,
      at,
    );
    this.#o.log(fill(P.cancelledByFault, { call, ms }));
  }

  /** A line from the server: an answer to one of guardlab's reads, to a copy, or to a call; anything else goes to the client. */
  #fromServer(text: string): void {
    const parsed = parseMessage(text);
    if (!("message" in parsed)) {
      // Not forwarded: what the server wrote is no message guardlab reads
      // (not JSON-RPC, or nested past the depth bound).
      const deep = parsed.refused === "too-deep";
      this.#note({
        dir: "server>client",
        action: deep ? "too-deep" : "not-json",
      }, text);
      this.#o.log(deep ? fill(P.tooDeep, { max: MAX_DEPTH }) : P.serverNotJson);
      return;
    }
    const m = parsed.message;
    const key = idKey(m.id);
    const read = isResponse(m) ? this.#reads.get(key) : undefined;
    const copy = isResponse(m) ? this.#copies.get(key) : undefined;
    const flight = isResponse(m) ? this.#inflight.get(key) : undefined;
    if (read !== undefined) {
      this.#reads.delete(key);
      this.#note({ dir: "server>guardlab", action: "delivered" }, text, m);
      read(m);
    } else if (copy !== undefined) {
      this.#copies.delete(key);
      this.#note(
        {
          dir: "server>guardlab",
          action: "copy",
          call: copy.call,
          tool: copy.tool,
        },
        text,
        m,
      );
    } else if (flight !== undefined) {
      this.#inflight.delete(key);
      if (flight.cancelled) this.#cancelledInFlight--;
      this.#answered(flight, text, m);
    } else {
      const at = this.#toClient(text);
      this.#note({ dir: "server>client", action: "forwarded" }, text, m, at);
    }
  }

  /**
   * A call's answer came: with --read-before-delivery and a key, the
   * effect is read before the client learns anything (whatever the client
   * does next, an output guardrail or a retry, comes after this read);
   * else it goes on at once.
   */
  #answered(flight: InFlight, text: string, m: Message): void {
    const target = this.#o.readBeforeDelivery && this.#o.oracle !== undefined
      ? writeKey(this.#o.oracle, flight.tool, flight.args)
      : null;
    if (target === null) {
      this.#deliver(flight, text, m, false);
      this.#drained();
      return;
    }
    this.#holding++;
    this.#note(
      {
        dir: "server>guardlab",
        action: "held",
        call: flight.call,
        tool: flight.tool,
      },
      text,
      m,
    );
    this.#readNow(flight, target, { before_delivery: flight.call }).then(() => {
      this.#holding--;
      this.#deliver(flight, text, m, true);
      this.#drained();
    });
  }

  /** What becomes of a call's answer: late, dropped, delayed or forwarded. */
  #deliver(
    flight: InFlight,
    text: string,
    m: Message,
    afterRead: boolean,
  ): void {
    const base = {
      call: flight.call,
      tool: flight.tool,
      ...(afterRead ? { after_read: true as const } : {}),
    };
    if (flight.answered) {
      this.#note({ dir: "server>guardlab", action: "late", ...base }, text, m);
      return;
    }
    flight.answered = true;
    const ms = flight.plan.delay_response_ms;
    if (flight.plan.drop_response) {
      this.#note(
        { dir: "server>guardlab", action: "dropped", ...base },
        text,
        m,
      );
    } else if (ms !== undefined) {
      this.#note(
        { dir: "server>guardlab", action: "delayed", ms, ...base },
        text,
        m,
      );
      this.#later(ms, () => {
        const at = this.#toClient(text);
        this.#note(
          { dir: "guardlab>client", action: "delivered", ...base },
          text,
          m,
          at,
        );
      });
    } else {
      // The answer leaves before it is recorded: the client never waits on the record.
      const at = this.#toClient(text);
      this.#note(
        {
          dir: afterRead ? "guardlab>client" : "server>client",
          action: afterRead ? "delivered" : "forwarded",
          ...base,
        },
        text,
        m,
        at,
      );
    }
  }

  /** The effect of `key` as the oracle's read tool counts it, or null (bounded by the timeout). */
  async #readCount(
    spec: Oracle["tools"][number],
    key: string,
  ): Promise<number | null> {
    if (this.serverGone) return null;
    const p = { run: "{run}", n: 1, key };
    const read = substitute(spec.read, p);
    const id = `guardlab-read-${++this.#readId}`;
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: read.tool, arguments: read.arguments },
    });
    const reply = await new Promise<Message | null>(
      (resolve) => {
        const t = setTimeout(() => {
          this.#reads.delete(idKey(id));
          resolve(null);
        }, this.#o.timeoutMs);
        this.#reads.set(idKey(id), (m) => {
          clearTimeout(t);
          resolve(m);
        });
        this.#toServer(text);
        this.#note({ dir: "guardlab>server", action: "forwarded" }, text);
      },
    );
    const result = reply !== null && isPlainRecord(reply.result) &&
        reply.result.isError !== true
      ? reply.result
      : null;
    return result === null ? null : countIn(spec.count, result, p);
  }
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
