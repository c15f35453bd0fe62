/**
 * One MCP session with a server, as `accept` drives it: the client's calls
 * go through guardlab, which forwards them, and delivers or withholds each
 * answer. Every step lands on the case's timeline in the lane where it
 * happened (client, guardlab, server), and every wait has a bound. What the
 * server does wrong (answers twice, answers an id nobody sent, writes what
 * is not a message, exits) is noted as a problem of the case it happened in.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import {
  MAX_LISTED_TOOLS,
  MAX_TOOL_PAGES,
  START_TIMEOUT_MS,
} from "./limits.ts";
import type {
  Channel,
  ChannelProblem,
  CloseReason,
  Message,
} from "./channel.ts";

/** The three lanes of a timeline. */
export type Lane = "client" | "guardlab" | "server";

/** What one step of a timeline is. */
export type EventKind =
  | "sent"
  | "retried"
  | "forwarded"
  | "answered"
  | "delivered"
  | "withheld"
  | "gave-up"
  | "cancelled"
  | "read"
  | "setup"
  | "problem"
  | "exited";

/** How a call ended, as the side that waited for it saw it. */
export type Outcome =
  | "success"
  | "tool-error"
  | "rpc-error"
  | "no-answer"
  | "closed";

/** One step of a case's timeline. */
export interface TimelineEvent {
  /** Where it happened. */
  readonly lane: Lane;
  /** What happened. */
  readonly kind: EventKind;
  /** The case's call number it belongs to (from 1), or null. */
  readonly call: number | null;
  /** How an answer ended, for answered/delivered/withheld/gave-up. */
  readonly outcome?: Outcome;
  /** The effect counted, for a read. */
  readonly count?: number | null;
  /** For a read: the first one in this case that saw the effect. */
  readonly visible?: boolean;
  /** What the problem was, for a problem. */
  readonly problem?: ProblemKind;
  /** The JSON-RPC id a problem is about. */
  readonly id?: number;
  /** Milliseconds since the case started (shown in JSON, never judged on). */
  readonly at_ms: number;
}

/** What a server did wrong. */
export type ProblemKind =
  | "answered-twice"
  | "unknown-id"
  | ChannelProblem["kind"];

/** One thing a server did wrong during a case. */
export interface Problem {
  /** What it was. */
  readonly kind: ProblemKind;
  /** The id it concerned, when there is one. */
  readonly id?: number;
}

/** An answer as guardlab received it. */
export interface Answer {
  /** How it ended. */
  readonly outcome: Outcome;
  /** The tool result, when there is one. */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error's message, when there is one. */
  readonly error?: string;
}

/** A call in flight. */
export interface Pending {
  /** The JSON-RPC id guardlab sent it with. */
  readonly id: number;
  /** The case's call number. */
  readonly call: number;
  /** Settles when the server answers, the wait runs out, or the server exits. */
  readonly answer: Promise<Answer>;
}

/** The server did not get through initialize. */
export class InitializeFailed extends Error {
  /** The server's last line on stderr, when it said something before it went. */
  tail?: string;
  /** What went wrong, for the one line. */
  constructor(readonly why: "no-answer" | "closed" | "error", detail = "") {
    super(`${why}${detail ? `: ${detail}` : ""}`);
  }
}

/** The protocol version guardlab asks for. */
export const PROTOCOL_VERSION = "2025-06-18";

interface Waiting {
  call: number | null;
  generation: number;
  settle(answer: Answer): void;
  timer: ReturnType<typeof setTimeout>;
  quiet: boolean;
}

/** The bound of the wait for `initialize`: `timeoutMs`, and at least {@linkcode START_TIMEOUT_MS}. */
export function startTimeoutOf(timeoutMs: number): number {
  return Math.max(timeoutMs, START_TIMEOUT_MS);
}

/** A session over `channel`; {@linkcode Session.open} initializes it. */
export class Session {
  /** The server's name and version, from initialize. */
  serverInfo: { name: string; version: string } = { name: "?", version: "?" };
  /** The tools the server lists. */
  tools: string[] = [];
  /**
   * The tools as the server listed them (name, schemas, annotations), at
   * most {@linkcode MAX_LISTED_TOOLS} over at most
   * {@linkcode MAX_TOOL_PAGES} pages: input from the server, unchecked.
   */
  listed: unknown[] = [];
  /** The case's timeline so far. */
  events: TimelineEvent[] = [];
  /** The case's problems so far. */
  problems: Problem[] = [];
  /** Set once the server exited or the channel closed. */
  closedBy: CloseReason | null = null;
  readonly #channel: Channel;
  readonly #timeoutMs: number;
  readonly #waiting = new Map<number, Waiting>();
  readonly #answered = new Set<number>();
  #nextId = 1;
  #started = performance.now();
  /** Bumped by each case, so a late answer to an earlier case's call lands on no later timeline. */
  #generation = 0;

  private constructor(channel: Channel, timeoutMs: number) {
    this.#channel = channel;
    this.#timeoutMs = timeoutMs;
    channel.onmessage = (m) => this.#receive(m);
    channel.onproblem = (p) => this.#problem(p);
    channel.onclose = (why) => this.#closed(why);
  }

  /**
   * Initialize a session on `channel` and list its tools; every wait is
   * bounded by `timeoutMs`, initialize's by {@linkcode startTimeoutOf}.
   */
  static async open(channel: Channel, timeoutMs: number): Promise<Session> {
    const s = new Session(channel, timeoutMs);
    const init = await s.#request(
      "initialize",
      {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "guardlab-accept", version: "1" },
      },
      null,
      true,
      startTimeoutOf(timeoutMs),
    ).answer;
    if (init.outcome === "no-answer" || init.outcome === "closed") {
      throw new InitializeFailed(init.outcome);
    }
    if (init.outcome !== "success") {
      throw new InitializeFailed("error", init.error ?? "");
    }
    const info = init.result?.serverInfo;
    if (isPlainRecord(info)) {
      s.serverInfo = {
        name: String(info.name ?? "?").slice(0, 80),
        version: String(info.version ?? "?").slice(0, 40),
      };
    }
    channel.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    let cursor: unknown = undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await s.#request(
        "tools/list",
        typeof cursor === "string" ? { cursor } : {},
        null,
        true,
      ).answer;
      const tools = listed.result?.tools;
      if (!Array.isArray(tools)) break;
      s.listed.push(...tools.slice(0, MAX_LISTED_TOOLS - s.listed.length));
      cursor = listed.result?.nextCursor;
      if (typeof cursor !== "string" || s.listed.length >= MAX_LISTED_TOOLS) {
        break;
      }
    }
    s.tools = s.listed.flatMap((t) =>
      isPlainRecord(t) && typeof t.name === "string" ? [t.name] : []
    );
    return s;
  }

  /** Start a new case: a fresh timeline and problem list. */
  beginCase(): void {
    this.events = [];
    this.problems = [];
    this.#started = performance.now();
    this.#generation++;
  }

  /** Note one step on the timeline. */
  note(event: Omit<TimelineEvent, "at_ms">): void {
    this.events.push({
      ...event,
      at_ms: Math.round(performance.now() - this.#started),
    });
  }

  /**
   * The client sends (or retries) a tools/call through guardlab. With
   * `withhold`, guardlab keeps the server's answer from the client: the
   * client sees no answer, as after a remote timeout.
   */
  call(
    tool: string,
    args: Record<string, unknown>,
    opts: { call: number; retry?: boolean; withhold?: boolean },
  ): Pending {
    this.note({
      lane: "client",
      kind: opts.retry ? "retried" : "sent",
      call: opts.call,
    });
    const pending = this.#request(
      "tools/call",
      { name: tool, arguments: args },
      opts.call,
      false,
    );
    this.note({ lane: "guardlab", kind: "forwarded", call: opts.call });
    const generation = this.#generation;
    const answer = pending.answer.then((a) => {
      if (generation !== this.#generation) return a;
      if (a.outcome === "no-answer") {
        this.note({
          lane: "client",
          kind: "gave-up",
          call: opts.call,
          outcome: a.outcome,
        });
      } else if (a.outcome !== "closed") {
        this.note({
          lane: "guardlab",
          kind: opts.withhold ? "withheld" : "delivered",
          call: opts.call,
          outcome: a.outcome,
        });
      }
      return a;
    });
    return { id: pending.id, call: opts.call, answer };
  }

  /** The client cancels `pending` (MCP's `notifications/cancelled`), forwarded at once. */
  cancel(pending: Pending): void {
    this.note({ lane: "client", kind: "cancelled", call: pending.call });
    this.#channel.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: {
        requestId: pending.id,
        reason: "guardlab accept: cancel-after-send",
      },
    });
  }

  /** A call guardlab makes on its own (a read or a setup step): not the client's. */
  async own(
    tool: string,
    args: Record<string, unknown>,
    kind: "read" | "setup",
  ): Promise<Answer> {
    const answer = await this.#request(
      "tools/call",
      { name: tool, arguments: args },
      null,
      true,
    ).answer;
    if (kind === "setup") {
      this.note({
        lane: "guardlab",
        kind: "setup",
        call: null,
        outcome: answer.outcome,
      });
    }
    return answer;
  }

  /** Close the channel and every wait. */
  async close(): Promise<void> {
    await this.#channel.close();
    for (const [id, w] of this.#waiting) {
      clearTimeout(w.timer);
      this.#waiting.delete(id);
      w.settle({ outcome: "closed" });
    }
  }

  /** The server's last stderr lines. */
  stderrTail(): string[] {
    return this.#channel.stderrTail();
  }

  #request(
    method: string,
    params: Message,
    call: number | null,
    quiet: boolean,
    timeoutMs: number = this.#timeoutMs,
  ): { id: number; answer: Promise<Answer> } {
    const id = this.#nextId++;
    const answer = new Promise<Answer>((settle) => {
      if (this.closedBy !== null) {
        settle({ outcome: "closed" });
        return;
      }
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        settle({ outcome: "no-answer" });
      }, timeoutMs);
      // Registered before the send: an in-process server may answer at once.
      this.#waiting.set(id, {
        call,
        settle,
        timer,
        quiet,
        generation: this.#generation,
      });
    });
    this.#channel.send({ jsonrpc: "2.0", id, method, params });
    return { id, answer };
  }

  #receive(message: Message): void {
    const id = message.id;
    if ("method" in message) {
      // A request of the server's own (ping, roots, sampling): answered
      // plainly, so a server that asks is not left waiting.
      if (id !== undefined && id !== null) {
        this.#channel.send(
          message.method === "ping" ? { jsonrpc: "2.0", id, result: {} } : {
            jsonrpc: "2.0",
            id,
            error: { code: -32601, message: "Method not found" },
          },
        );
      }
      return;
    }
    if (
      typeof id !== "number" || !("result" in message || "error" in message)
    ) {
      if (typeof id === "string") this.#problemOf({ kind: "unknown-id" });
      else this.#problemOf({ kind: "not-message" });
      return;
    }
    const w = this.#waiting.get(id);
    if (w === undefined) {
      if (this.#answered.has(id)) {
        this.#problemOf({ kind: "answered-twice", id });
      } else if (id >= this.#nextId || id < 1) {
        this.#problemOf({ kind: "unknown-id", id });
      }
      // Else: an answer after guardlab stopped waiting for it (a timed-out
      // or cancelled call); it changes nothing the case already judged.
      this.#answered.add(id);
      return;
    }
    this.#waiting.delete(id);
    this.#answered.add(id);
    clearTimeout(w.timer);
    const answer: Answer = "error" in message
      ? {
        outcome: "rpc-error",
        error: String((message.error as { message?: unknown })?.message ?? "")
          .slice(0, 200),
      }
      : isPlainRecord(message.result)
      ? {
        outcome: message.result.isError === true ? "tool-error" : "success",
        result: message.result,
      }
      : { outcome: "rpc-error", error: "result is not an object" };
    if (!w.quiet && w.generation === this.#generation) {
      this.note({
        lane: "server",
        kind: "answered",
        call: w.call,
        outcome: answer.outcome,
      });
    }
    w.settle(answer);
  }

  #problem(p: ChannelProblem): void {
    this.#problemOf({ kind: p.kind });
  }

  #problemOf(p: Problem): void {
    this.problems.push(p);
    this.note({
      lane: "server",
      kind: "problem",
      call: null,
      problem: p.kind,
      ...(p.id === undefined ? {} : { id: p.id }),
    });
  }

  #closed(why: CloseReason): void {
    if (this.closedBy !== null) return;
    this.closedBy = why;
    this.note({ lane: "server", kind: "exited", call: null });
    for (const [id, w] of this.#waiting) {
      clearTimeout(w.timer);
      this.#waiting.delete(id);
      w.settle({ outcome: "closed" });
    }
  }
}
