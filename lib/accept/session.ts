/**
 * One MCP session with a server, as `accept` drives it: the client's calls
 * go through guardlab, which forwards them, and delivers or withholds each
 * answer. Every step lands on the case's timeline in the lane where it
 * happened (client, guardlab, server), and every wait has a bound. What the
 * server does wrong (answers twice, answers an id nobody sent, writes what
 * is not a message, exits) is noted as a problem of the case it happened in;
 * what it does that decides nothing (a body on a 202) as a notice. A case
 * that starts servers of its own (two processes, a restart) opens a session
 * on each and gives them the case's log: one timeline, the process named.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import { inert } from "../base/terminal.ts";
import {
  MAX_ANSWER_TEXT,
  MAX_LISTED_TOOLS,
  MAX_TOOL_PAGES,
  START_TIMEOUT_MS,
} from "./limits.ts";
import { resultText } from "./oracle.ts";
import {
  CaseLog,
  type Outcome,
  type Problem,
  type RecordInProgress,
  type TimelineEvent,
  type Unstamped,
} from "./_case_log.ts";
import { HINT_NAMES, type ToolHints } from "./_history.ts";

export type {
  EventKind,
  Lane,
  Notice,
  NoticeKind,
  Outcome,
  Problem,
  TimelineEvent,
} from "./_case_log.ts";
export { HINT_NAMES, type ProblemKind, type ToolHints } from "./_history.ts";
import type {
  Channel,
  ChannelNotice,
  ChannelProblem,
  CloseReason,
} from "../wire/channel.ts";
import { HTTP_STATUS_META } from "../wire/http_api.ts";
import {
  errorResponse,
  isRequest,
  isResponse,
  type Message,
  METHOD_NOT_FOUND,
} from "../wire/message.ts";

/** An answer as guardlab received it. */
export interface Answer {
  /** How it ended. */
  readonly outcome: Outcome;
  /** The tool result, when there is one. */
  readonly result?: Record<string, unknown>;
  /**
   * What the answer said: a tool result's text content, or a JSON-RPC
   * error's message; at most {@linkcode MAX_ANSWER_TEXT} characters, every
   * character that could drive a terminal shown as `\uXXXX`.
   */
  readonly text?: string;
  /** Milliseconds from the send to the answer (a measure, never a verdict). */
  readonly ms?: number;
  /** For `no-answer`: an answer came, and was not read (nested past the bound). */
  readonly refused?: "too-deep";
  /** For `rpc-error`: the JSON-RPC error object, as it came (input, unchecked). */
  readonly error?: Record<string, unknown>;
  /** For `rpc-error`: its code, when it is a whole number. */
  readonly code?: number;
  /** Over an HTTP API's channel: the response's status. */
  readonly status?: number;
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
  /** The log of the case the request was made in. */
  log: CaseLog;
  settle(answer: Answer): void;
  timer: ReturnType<typeof setTimeout>;
  quiet: boolean;
  sentAt: number;
}

/** The bound of the wait for `initialize`: `timeoutMs`, and at least {@linkcode START_TIMEOUT_MS}. */
export function startTimeoutOf(timeoutMs: number): number {
  return Math.max(timeoutMs, START_TIMEOUT_MS);
}

/** What an answer said, cut to {@linkcode MAX_ANSWER_TEXT} characters and inert. */
export function shownAnswerText(raw: string): string {
  const chars = [...raw];
  const cut = chars.length > MAX_ANSWER_TEXT
    ? chars.slice(0, MAX_ANSWER_TEXT).join("") + "…"
    : raw;
  return inert(cut);
}

/** How a session is opened. */
export interface OpenOptions {
  /** The bound of the wait for initialize (default: {@linkcode startTimeoutOf} the answer bound). */
  readonly startTimeoutMs?: number;
  /** Which server process this is, in a case that starts its own. */
  readonly process?: number;
}

/** A session over `channel`; {@linkcode Session.open} initializes it. */
export class Session {
  /** The server's name and version, from initialize. */
  serverInfo: { name: string; version: string } = { name: "?", version: "?" };
  /** The tools the server lists. */
  tools: string[] = [];
  /** The tools as listed (name, schemas, annotations), at most {@linkcode MAX_LISTED_TOOLS} over {@linkcode MAX_TOOL_PAGES} pages: input, unchecked. */
  listed: unknown[] = [];
  /** The hints each listed tool declares, by name. */
  hints: Map<string, ToolHints> = new Map();
  /** Why `tools/list` could not be read to its end (no answer, an error, no list): the hints of a tool it did not name are unseen. */
  listFailed?: "no-answer" | "error" | "not-a-list";
  /** The current case's record (before the first case: the start's). */
  log: CaseLog;
  /** Set once the server exited or the channel closed. */
  closedBy: CloseReason | null = null;
  readonly #channel: Channel;
  readonly #timeoutMs: number;
  readonly #process: number | undefined;
  readonly #waiting = new Map<number, Waiting>();
  readonly #answered = new Set<number>();
  #nextId = 1;

  private constructor(
    channel: Channel,
    timeoutMs: number,
    process: number | undefined,
  ) {
    this.#channel = channel;
    this.#timeoutMs = timeoutMs;
    this.#process = process;
    this.log = new CaseLog(this.subject);
    channel.onmessage = (m) => this.#receive(m);
    channel.onproblem = (p) => this.#problem(p);
    channel.onnotice = (n) => this.#notice(n);
    channel.onclose = (why) => this.#closed(why);
  }

  /** The case's timeline so far. */
  get events(): TimelineEvent[] {
    return this.log.events;
  }

  /** The case's problems so far. */
  get problems(): Problem[] {
    return this.log.problems;
  }

  /**
   * Initialize a session on `channel` and list its tools; every wait is
   * bounded by `timeoutMs`, initialize's by {@linkcode startTimeoutOf}.
   */
  static async open(
    channel: Channel,
    timeoutMs: number,
    options: OpenOptions = {},
  ): Promise<Session> {
    const s = new Session(channel, timeoutMs, options.process);
    const init = await s.#request(
      "initialize",
      {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "guardlab-accept", version: "1" },
      },
      null,
      true,
      options.startTimeoutMs ?? startTimeoutOf(timeoutMs),
    ).answer;
    if (init.outcome === "no-answer" || init.outcome === "closed") {
      throw new InitializeFailed(init.outcome);
    }
    if (init.outcome !== "success") {
      throw new InitializeFailed("error", init.text ?? "");
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
      if (!Array.isArray(tools)) {
        const o = listed.outcome;
        s.listFailed = o === "success"
          ? "not-a-list"
          : o.endsWith("error")
          ? "error"
          : "no-answer";
        break;
      }
      s.listed.push(...tools.slice(0, MAX_LISTED_TOOLS - s.listed.length));
      cursor = listed.result?.nextCursor;
      if (typeof cursor !== "string" || s.listed.length >= MAX_LISTED_TOOLS) {
        break;
      }
    }
    for (const t of s.listed) {
      if (!isPlainRecord(t) || typeof t.name !== "string") continue;
      s.tools.push(t.name);
      s.hints.set(t.name, hintsOf(t.annotations));
    }
    return s;
  }

  /** What the history of a case on this session records: an MCP server, or an HTTP API behind its channel. */
  get subject(): "mcp-server" | "http-api" {
    return this.#channel.speaks === "http-api" ? "http-api" : "mcp-server";
  }

  /** Start a new case: a fresh timeline, problem and notice list. */
  beginCase(): void {
    this.log = new CaseLog(this.subject);
  }

  /** Record on `log` from now on (a session a case started, joining the case's timeline). */
  join(log: CaseLog): void {
    this.log = log;
  }

  /** Add one record to the case's history, at `at_ms` (now when not given), with this session's process. */
  record(record: Unstamped<RecordInProgress>): RecordInProgress {
    return this.log.record(record, this.#process);
  }

  /** Note one step on the timeline. */
  note(event: Omit<TimelineEvent, "at_ms">): void {
    this.log.events.push({
      ...event,
      ...(this.#process === undefined || event.process !== undefined
        ? {}
        : { process: this.#process }),
      at_ms: Math.round(performance.now() - this.log.started),
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
    opts: {
      call: number;
      retry?: boolean;
      withhold?: boolean;
      /** Sent beside the arguments: `_meta`, `idempotencyKey` (where the oracle places the key). */
      params?: Record<string, unknown>;
    },
  ): Pending {
    this.note({
      lane: "client",
      kind: opts.retry ? "retried" : "sent",
      call: opts.call,
    });
    const pending = this.#request(
      "tools/call",
      { name: tool, arguments: args, ...opts.params },
      opts.call,
      false,
    );
    this.note({ lane: "guardlab", kind: "forwarded", call: opts.call });
    const log = this.log;
    const answer = pending.answer.then((a) => {
      if (log !== this.log) return a;
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

  /** Close the channel (bounded: see {@linkcode Channel.close}) and every wait. */
  async close(): Promise<void> {
    await this.#channel.close();
    this.#endWaits();
  }

  /** End the server at once, as a crash would (SIGKILL to its process group), and every wait. */
  async kill(): Promise<void> {
    await this.#channel.kill();
    this.#endWaits();
  }

  /** The server's last stderr lines. */
  stderrTail(): string[] {
    return this.#channel.stderrTail();
  }

  #endWaits(): void {
    for (const [id, w] of this.#waiting) {
      clearTimeout(w.timer);
      this.#waiting.delete(id);
      w.settle({ outcome: "closed" });
    }
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
        // Nothing more is read for it (an HTTP body is cancelled).
        this.#channel.forget?.(id);
        settle({ outcome: "no-answer" });
      }, timeoutMs);
      // Registered before the send: an in-process server may answer at once.
      this.#waiting.set(id, {
        call,
        settle,
        timer,
        quiet,
        log: this.log,
        sentAt: performance.now(),
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
      if (isRequest(message)) {
        this.#channel.send(
          message.method === "ping"
            ? { jsonrpc: "2.0", id, result: {} }
            : errorResponse(id, METHOD_NOT_FOUND, "Method not found"),
        );
      }
      return;
    }
    if (typeof id !== "number" || !isResponse(message)) {
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
    const ms = Math.round((performance.now() - w.sentAt) * 10) / 10;
    const answer: Answer = "error" in message
      ? rpcError(message.error, ms)
      : isPlainRecord(message.result)
      ? this.#result(message.result, ms)
      : { outcome: "rpc-error", text: "result is not an object", ms };
    if (!w.quiet && w.log === this.log) {
      this.note({
        lane: "server",
        kind: "answered",
        call: w.call,
        outcome: answer.outcome,
        text: answer.text,
      });
    }
    w.settle(answer);
  }

  /** A tool result as an answer; over an HTTP API's channel, with the response's status. */
  #result(result: Record<string, unknown>, ms: number): Answer {
    const error = result.isError === true;
    const answer: Answer = {
      outcome: error ? "tool-error" : "success",
      result,
      text: shownAnswerText(resultText(result)),
      ms,
    };
    if (this.subject !== "http-api") return answer;
    // Only the HTTP API's channel writes this, never a server.
    const status = isPlainRecord(result._meta)
      ? result._meta[HTTP_STATUS_META]
      : undefined;
    return {
      ...answer,
      outcome: error ? "http-error" : "success",
      ...(Number.isInteger(status) ? { status: status as number } : {}),
    };
  }

  #problem(p: ChannelProblem): void {
    this.#problemOf({ kind: p.kind });
  }

  #problemOf(p: Problem): void {
    this.record({
      op: "problem",
      problem: p.kind,
      ...(p.id === undefined ? {} : { id: p.id }),
    });
    this.note({
      lane: "server",
      kind: "problem",
      call: null,
      problem: p.kind,
      ...(p.id === undefined ? {} : { id: p.id }),
    });
  }

  #notice(n: ChannelNotice): void {
    this.log.notices.push(
      n.kind === "too-deep"
        ? { kind: n.kind, max: n.max }
        : { kind: n.kind, status: n.status, method: n.method.slice(0, 64) },
    );
    this.note({ lane: "server", kind: "notice", call: null, notice: n.kind });
    const id = n.kind === "too-deep" ? n.id : null;
    const w = typeof id === "number" ? this.#waiting.get(id) : undefined;
    if (typeof id === "number" && w !== undefined) {
      // The request's answer came, and guardlab read it no further: for
      // the case, no answer it could use (never a count or a verdict drawn
      // from a value it did not read).
      this.#waiting.delete(id);
      this.#answered.add(id);
      clearTimeout(w.timer);
      w.settle({ outcome: "no-answer", refused: "too-deep" });
    }
  }

  #closed(why: CloseReason): void {
    if (this.closedBy !== null) return;
    this.closedBy = why;
    this.record({ op: "process", event: "exit" });
    this.note({ lane: "server", kind: "exited", call: null });
    this.#endWaits();
  }
}

/** A JSON-RPC error as an answer: its message shown, its code and object kept. */
function rpcError(error: unknown, ms: number): Answer {
  const e = isPlainRecord(error) ? error : {};
  return {
    outcome: "rpc-error",
    text: shownAnswerText(String(e.message ?? "")),
    error: e,
    ...(Number.isInteger(e.code) ? { code: e.code as number } : {}),
    ms,
  };
}

/** The three hints of `annotations`, each kept only when it is a boolean. */
function hintsOf(annotations: unknown): ToolHints {
  const hints: Record<string, boolean> = {};
  if (!isPlainRecord(annotations)) return hints;
  for (const name of HINT_NAMES) {
    if (typeof annotations[name] === "boolean") hints[name] = annotations[name];
  }
  return hints;
}
