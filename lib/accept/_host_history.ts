/**
 * The history of one case of `accept host`: what the host did between the
 * model guardlab plays and the tool guardlab plays, as data, in the order
 * it happened. The same shape as a server's history (`_history.ts`):
 * versioned, one record per attempt, each with `at_ms`; its `subject` is
 * `agent-host`. The code that plays the model and the tool only records;
 * the checker (`_host_checker.ts`) judges the history alone, so `accept
 * judge` judges a saved `accept host --json` report again, and every
 * verdict is reached from a history written by hand.
 *
 * ```json
 * {"version": 1, "subject": "agent-host", "records": [
 *   {"op": "plan", "at_ms": 0, "case": "no-reply", "variant": "unkeyed",
 *    "transport": "stdio", "tool": "write_row", "key": "k-3f9a-1", "new_key": "k-3f9a-2"},
 *   {"op": "process", "at_ms": 0.2, "who": "host", "event": "start"},
 *   {"op": "model", "at_ms": 801.4, "request": 1, "offered": true, "results": [], "reply": "call-1"},
 *   {"op": "call", "at_ms": 812.0, "call": 1, "conn": 2, "id": 2, "key": "k-3f9a-1",
 *    "arguments": {"key": "k-3f9a-1", "amount": 5}, "effect": "written", "reply": "none"},
 *   {"op": "cancel", "at_ms": 3815.2, "conn": 2, "id": 2, "call": 1, "reason": "timed out"},
 *   {"op": "model", "at_ms": 3820.9, "request": 2, "offered": true,
 *    "results": [{"call": 1, "text": "Request timed out"}], "reply": "call-2"},
 *   …
 *   {"op": "read", "at_ms": 5002.1, "key": "k-3f9a-1", "count": 1}
 * ]}
 * ```
 *
 * @module
 */
import type { Json } from "./oracle.ts";
import type { HostCaseName, HostTransport, HostVariant } from "./cases.ts";
import type { ToolHints } from "./_history.ts";
import { HISTORY_VERSION } from "./_history.ts";

export { HISTORY_VERSION };

/** What the case was: the first record of every host history. */
export interface PlanRecord {
  /** What it is. */
  readonly op: "plan";
  /** When (0: the case's start). */
  readonly at_ms: number;
  /** The case. */
  readonly case: HostCaseName;
  /** The tool's variant. */
  readonly variant: HostVariant;
  /** How the tool was offered. */
  readonly transport: HostTransport;
  /** The write tool's name, as the tool lists it. */
  readonly tool: string;
  /** The hints the tool declares in tools/list. */
  readonly hints: ToolHints;
  /** The key the model's first call carries. */
  readonly key: string;
  /** The key the naive model's second call carries. */
  readonly new_key: string;
}

/**
 * What the tool did with a call, at its commit: `written` a new effect,
 * `reused` the effect the key already had (keyed), `refused` nothing
 * (arguments it does not take, or the key with other arguments).
 */
export type CallEffect = "written" | "reused" | "refused";

/**
 * What guardlab did with the tool's answer: `ok` sent it; `error` sent the
 * tool's own error (`isError`, after the commit); `none` withheld it for
 * good; `late` withheld it until the host gave up on it, then sent it
 * (a `release` fault record says when), or never, when the host never gave
 * up or its connection had closed; `killed` ended the tool's process instead; `http-503`
 * answered HTTP 503; `reset` closed the host's HTTP connection with no answer
 * (the session stays); `expired` forgot the session and answered HTTP 404.
 */
export type CallReply =
  | "ok"
  | "error"
  | "none"
  | "late"
  | "killed"
  | "http-503"
  | "reset"
  | "expired";

/** A `tools/call` of the write tool, as it reached the tool. */
export interface HostCallRecord {
  /** What it is. */
  readonly op: "call";
  /** When it arrived. */
  readonly at_ms: number;
  /** Its place among the calls the tool received, from 1. */
  readonly call: number;
  /** Which connection (a process over stdio, a session over HTTP) it came on, from 1. */
  readonly conn: number;
  /** Its JSON-RPC id (a string cut to 64 characters). */
  readonly id: string | number;
  /** The key its arguments carry (`arguments.key`), or null. */
  readonly key: string | null;
  /** Its arguments (a value over 64 KiB kept as its size: `arguments_bytes`). */
  readonly arguments?: Json;
  /** The size of arguments too large to keep. */
  readonly arguments_bytes?: number;
  /** What the tool did. */
  readonly effect: CallEffect;
  /** What guardlab did with the answer. */
  readonly reply: CallReply;
}

/** One tool result the host handed the model, as the model's request carried it. */
export interface ModelResult {
  /** Which of the model's calls it answers (1: the first key, 2: the new key), or null when it answers neither. */
  readonly call: 1 | 2 | null;
  /** What it said: at most 400 characters, inert. */
  readonly text: string;
}

/**
 * What the model guardlab plays answered: `call-1` asked for the first
 * call, `call-2` asked again under the new key (after a result that was not
 * the tool's success), `done` ended, `refused` turned the request down
 * (not the run's API key, a body too big, not a chat request).
 */
export type ModelReply = "call-1" | "call-2" | "done" | "refused";

/** A request the host made of the model. */
export interface ModelRecord {
  /** What it is. */
  readonly op: "model";
  /** When it arrived. */
  readonly at_ms: number;
  /** Its place among the model's requests, from 1. */
  readonly request: number;
  /** Whether it asked for a stream (`stream: true`: answered as server-sent events). */
  readonly stream?: true;
  /** Whether the write tool was among the tools it offered. */
  readonly offered: boolean;
  /** The name the host gave the write tool, when it differs from the tool's own (`mcp__guardlab__write_row`). */
  readonly offered_as?: string;
  /** The tool results the request carried, in order. */
  readonly results: readonly ModelResult[];
  /** What the model answered. */
  readonly reply: ModelReply;
}

/** A `notifications/cancelled` the host sent the tool. */
export interface CancelRecord {
  /** What it is. */
  readonly op: "cancel";
  /** When it arrived. */
  readonly at_ms: number;
  /** On which connection. */
  readonly conn: number;
  /** The request id it names (a string cut to 64 characters). */
  readonly id: string | number | null;
  /** The call of the same connection and id, or null. */
  readonly call: number | null;
  /** Its reason, at most 200 characters, inert. */
  readonly reason?: string;
}

/**
 * A fault guardlab applied to call `call` after the tool's commit
 * (`withhold`, `error`, `kill`, `http-503`, `expire`), or the release of a
 * late answer (`release`): `after` says what the host did first (it sent
 * a cancel, told the model, sent the call again, or its connection closed).
 */
export type HostFaultRecord =
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault:
      | "withhold"
      | "error"
      | "kill"
      | "http-503"
      | "reset"
      | "expire";
    readonly call: number;
  }
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault: "release";
    readonly call: number;
    readonly after: "cancel" | "told" | "resend" | "closed";
  };

/**
 * A life event: the host process (`who: "host"`: started, exited with
 * `code`, or ended by guardlab at the case's limit); a connection to the
 * tool (`who: "tool"`, numbered `conn`: a process the host started over
 * stdio, a session over HTTP: started, initialized by `client`, closed by
 * the host, killed or expired by a fault).
 */
export interface HostProcessRecord {
  /** What it is. */
  readonly op: "process";
  /** When. */
  readonly at_ms: number;
  /** Whose life. */
  readonly who: "host" | "tool";
  /** What happened. */
  readonly event:
    | "start"
    | "start-failed"
    | "initialized"
    | "exit"
    | "limit"
    | "closed"
    | "killed"
    | "expired";
  /** The tool connection, from 1. */
  readonly conn?: number;
  /** The host's exit code (null: a signal ended it). */
  readonly code?: number | null;
  /** The client the host named at initialize (name and version, each cut). */
  readonly client?: string;
}

/** The ledger counted by key at the end of the case, by guardlab reading its own store. */
export interface LedgerReadRecord {
  /** What it is. */
  readonly op: "read";
  /** When. */
  readonly at_ms: number;
  /** The key. */
  readonly key: string;
  /** The effects under it, or null when the ledger could not be read. */
  readonly count: number | null;
}

/** The host asked the tool for its list (agents-core asks before every model request). */
export interface ToolsListedRecord {
  /** What it is. */
  readonly op: "listed";
  /** When. */
  readonly at_ms: number;
  /** On which connection. */
  readonly conn: number;
}

/** Something a client of the model or the tool did that is not what it serves: counted, never answered as asked. */
export interface HostProblemRecord {
  /** What it is. */
  readonly op: "problem";
  /** When. */
  readonly at_ms: number;
  /** Where. */
  readonly where: "model" | "tool";
  /** What: not JSON, past a bound, not a message, without the run's key or the connection's token. */
  readonly problem:
    | "not-json"
    | "too-long"
    | "too-deep"
    | "not-message"
    | "unauthorized";
}

/** One record of a host history. */
export type HostRecord =
  | PlanRecord
  | HostCallRecord
  | ModelRecord
  | CancelRecord
  | HostFaultRecord
  | HostProcessRecord
  | LedgerReadRecord
  | ToolsListedRecord
  | HostProblemRecord;

/** The history of one case of `accept host`. */
export interface HostHistory {
  /** The format's version. */
  readonly version: typeof HISTORY_VERSION;
  /** What it records: an agent host. */
  readonly subject: "agent-host";
  /**
   * When the case began on the wall clock, Unix ms (where `at_ms` counts
   * from): shown (`accept host --otlp`'s times), never judged on. Absent
   * from a history recorded before it was kept.
   */
  readonly epoch_ms?: number;
  /** What happened, in order. */
  readonly records: readonly HostRecord[];
  /** How many records past the bound were not kept (the reads and the host's end always are). */
  readonly dropped?: number;
}

/** What every dummy API key `accept host` hands a host begins with (a UUID follows). */
export const DUMMY_KEY_PREFIX = "guardlab-dummy-";

/**
 * `text` with every dummy API key in it, whole or cut short, shown as
 * `guardlab-dummy-…`: a host may say its key back in what it sends.
 */
export function maskDummyKeys(text: string): string {
  return text.replace(/guardlab-dummy-[0-9a-f-]*/g, `${DUMMY_KEY_PREFIX}…`);
}

/** The write tool `accept host` offers, by the name it lists. */
export const WRITE_TOOL = "write_row";

/**
 * The tool's answer to a call that took effect: `ok: row for KEY written`
 * (a new effect) or `… reused` (the key's effect, keyed). A tool result
 * the host hands the model is the tool's success exactly when it carries
 * this text for the call's key, however the host wraps it (a JSON string,
 * a content array).
 */
export function successText(key: string, effect: "written" | "reused"): string {
  return `ok: row for ${key} ${effect}`;
}

/** What every success text for `key` starts with. */
export function successMark(key: string): string {
  return `ok: row for ${key} `;
}

/** The tool's own error, answered (`isError: true`) after its commit in `error-after-commit`. */
export const TOOL_ERROR_TEXT =
  "error: the ledger failed after writing the row; try again";

/**
 * The words that tell a model the outcome is not known, as guardlab reads
 * a tool result (lower case, any of them anywhere in the text; a bare
 * "unknown" is not among them: "Unknown error" says failed). A host that
 * says it otherwise is read as saying "failed", as a naive model reads
 * it: the row quotes what it said, so an engineer can see which.
 */
export const UNKNOWN_PHRASES: readonly string[] = [
  "outcome is unknown",
  "outcome unknown",
  "unknown outcome",
  "result is unknown",
  "unknown whether",
  "not known whether",
  "may have",
  "might have",
  "may or may not",
  "uncertain",
  "could not be verified",
  "verify the outcome",
  "check whether",
];
