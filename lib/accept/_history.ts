/**
 * The history of one case: what happened, as data, in the order it
 * happened. The code that drives the server only records; the checker
 * (`checker.ts`) judges the history alone, so a verdict can be judged
 * again offline from a saved `--json` report (`accept judge`), and tested
 * with histories written by hand. Jepsen and Maelstrom work this way: the
 * run records operations and their outcomes, faults and reads; a pure
 * function of that record gives the verdict.
 *
 * The format is versioned (`version`), and says what kind of system it
 * records (`subject`). One record per attempt: a call is one record, its
 * answer inside it; a read by key is one record with its count; a fault,
 * a process started or killed, a protocol problem, each one record. Every
 * record has `at_ms`, milliseconds since the case started (a time is
 * shown, never judged on: a verdict never rests on a wall-clock margin).
 *
 * ```json
 * {"version": 1, "subject": "mcp-server", "records": [
 *   {"op": "fault", "fault": "withhold", "call": 1, "at_ms": 0.4},
 *   {"op": "call", "call": 1, "tool": "put_note", "arguments": {"id": "n-1"},
 *    "key": "n-1", "at_ms": 0.4, "answer": {"outcome": "ok", "text": "…", "at_ms": 2.1, "ms": 1.7}},
 *   {"op": "read", "tool": "get_notes", "key": "n-1", "count": 1, "at_ms": 2.5},
 *   {"op": "call", "call": 2, "retry": true, "tool": "put_note", …},
 *   {"op": "read", "tool": "get_notes", "key": "n-1", "count": 2, "at_ms": 5.0}
 * ]}
 * ```
 *
 * @module
 */
import type { ChannelProblem } from "../wire/channel.ts";
import type { ConflictMark, Json } from "./oracle.ts";

/** The declared hints of one tool, as its `annotations` in tools/list give them (booleans only). */
export interface ToolHints {
  /** The tool says it changes nothing. */
  readonly readOnlyHint?: boolean;
  /** The tool says it may replace or delete what exists (false: only adds). */
  readonly destructiveHint?: boolean;
  /** The tool says calling it again with the same arguments has no further effect. */
  readonly idempotentHint?: boolean;
}

/** The hint names accept reads, in the order it shows them. */
export const HINT_NAMES = [
  "idempotentHint",
  "readOnlyHint",
  "destructiveHint",
] as const;

/** What a server did wrong. */
export type ProblemKind =
  | "answered-twice"
  | "unknown-id"
  | ChannelProblem["kind"];

/** Why a case tested nothing. */
export type NotRunReason =
  /** The oracle gives no arguments for it (no bad_call, no other_call). */
  | "no-arguments"
  /** guardlab did not start this server (`--url`): it cannot start a second one or restart it. */
  | "not-started"
  /** The tool declares hints, and no case that checks them ran. */
  | "nothing-to-check"
  /** guardlab did not see the tool in tools/list (not listed, or the list could not be read): its hints are unknown. */
  | "not-listed"
  /** The oracle states no key lifetime (`key_lifetime_ms`). */
  | "no-lifetime"
  /** The key is one of the call's arguments: a call without it is the rejected case's. */
  | "key-is-argument"
  /** The read counts by the key itself: an effect stored under no key could not be seen. */
  | "read-needs-key"
  /** The oracle's `error_call` was answered success: there was no error to replay. */
  | "not-an-error";

/** The version of the history format this guardlab writes and judges. */
export const HISTORY_VERSION = 1;

/**
 * What a history records: `mcp-server`, a server's write tool under
 * `accept`'s cases; `http-api`, one write endpoint of an HTTP API under the
 * same cases (a call is a request, its answer the response: `status`, and
 * the body's digest). Another kind of system (an agent host) records a
 * history of its own subject, in the same shape.
 */
export type HistorySubject = "mcp-server" | "http-api";

/**
 * How a call ended, as guardlab saw it:
 * - `ok`: answered, not an error;
 * - `error`: answered an error (`error` says whose: the tool's `isError`,
 *   JSON-RPC's, or `marked`: a result without `isError` that carries the
 *   oracle's `refusal` mark, the way this server says no), with its text;
 * - `none`: no answer within the bound (`--timeout-ms`), or an answer
 *   guardlab did not read (`refused` says why: nested past the bound);
 * - `unknown`: the server went away (it exited, or its channel closed)
 *   while the call was out: it may or may not have taken effect;
 * - `cancelled`: the client cancelled it, and no answer had come when the
 *   case ended.
 */
export type AnswerOutcome = "ok" | "error" | "none" | "unknown" | "cancelled";

/** A call's answer, as guardlab received it (whether the client got it is a fault's to say). */
export interface HistoryAnswer {
  /** How the call ended. */
  readonly outcome: AnswerOutcome;
  /** For `error`: the tool's own error (`isError`), a JSON-RPC error, an HTTP status that is not 2xx, or a result the oracle's `refusal` mark names a refusal. */
  readonly error?: "tool" | "rpc" | "http" | "marked";
  /** An HTTP API's status. */
  readonly status?: number;
  /** A JSON-RPC error's code. */
  readonly code?: number;
  /**
   * What the answer was, as a digest (`sha256:` and hex): of an HTTP
   * response's status and body, of a tool result or a JSON-RPC error as
   * canonical JSON. Two answers with one digest are the same answer: the
   * stored result came back.
   */
  readonly digest?: string;
  /** The value at the oracle's conflict pointer, when it declares one and the answer has a scalar there. */
  readonly pointed?: string | number | boolean | null;
  /** What the answer said: at most 200 characters, inert. */
  readonly text?: string;
  /** For `none`: the answer came, and was not read. */
  readonly refused?: "too-deep";
  /** Milliseconds since the case started, when the answer came. */
  readonly at_ms?: number;
  /** Milliseconds from the send to the answer (a measure, never judged on). */
  readonly ms?: number;
}

/** A call of the client's: the write tool, sent through guardlab. */
export interface CallRecord {
  /** What it is. */
  readonly op: "call";
  /** When it was sent. */
  readonly at_ms: number;
  /** The case's call number, from 1. */
  readonly call: number;
  /** The tool called. */
  readonly tool: string;
  /** Its arguments, as sent (a value over 64 KiB kept as its size: `arguments_bytes`). */
  readonly arguments?: Json;
  /** The size of arguments too large to keep. */
  readonly arguments_bytes?: number;
  /** The business key the arguments carry at the oracle's key pointer, or null when they carry none. */
  readonly key: string | null;
  /** The client sends it again (a retry of an earlier call). */
  readonly retry?: true;
  /** Sent without its key (the missing-key case): `key` is the one it would have carried. */
  readonly keyless?: true;
  /** What it carried in `params._meta`, when the oracle puts the key there. */
  readonly meta?: Json;
  /** Which server process it went to, in a case that starts its own. */
  readonly process?: number;
  /** Its answer. */
  readonly answer: HistoryAnswer;
}

/** A read by key: the oracle's read tool asked by guardlab, the effect counted. */
export interface ReadRecord {
  /** What it is. */
  readonly op: "read";
  /** When it was sent. */
  readonly at_ms: number;
  /** The read tool. */
  readonly tool: string;
  /** The key it counted under. */
  readonly key: string;
  /** The effect counted, or null when it could not be counted (the read failed, or its result has nothing to count). */
  readonly count: number | null;
  /** Counted with the oracle's `other_count` (the other arguments' effect), not `count`. */
  readonly other?: true;
  /** Made while the case's call was in flight, to see when the effect shows: a read that cannot count then means "not yet". */
  readonly in_flight?: true;
  /**
   * Made before the case's first call, of a key no call has used yet: it
   * must count 0, or the count cannot tell an effect (a read tool that
   * shows the key it was asked for, as a query echoed in its result).
   */
  readonly fresh?: true;
  /** For a fresh read that did not count 0: what the read answered, at most 200 characters, inert. */
  readonly text?: string;
  /** Which server process it asked, in a case that starts its own. */
  readonly process?: number;
}

/** A setup call, made by guardlab before the case's first call. */
export interface SetupRecord {
  /** What it is. */
  readonly op: "setup";
  /** When it was sent. */
  readonly at_ms: number;
  /** The tool called. */
  readonly tool: string;
  /** Its answer. */
  readonly answer: HistoryAnswer;
  /** What it captured for later calls (`{setup.NAME}`), by name. */
  readonly captured?: { readonly [name: string]: string };
  /** A capture its answer did not hold (the case then makes no call). */
  readonly missing?: string;
}

/**
 * A fault guardlab injected:
 * - `withhold`: the server's answer to `call` is kept from the client
 *   (the client sees none, as after a remote timeout);
 * - `cancel`: the client cancels `call` (`notifications/cancelled`) after
 *   `after_ms`, placed as `from` says; `sent: false` when the answer came
 *   first and no cancel was sent;
 * - `kill`: server process `process` is ended at once (SIGKILL to its
 *   process group), as a crash would.
 */
export type FaultRecord =
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault: "withhold";
    readonly call: number;
  }
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault: "cancel";
    readonly call: number;
    readonly sent: boolean;
    readonly after_ms: number;
    readonly from: "flag" | "measured" | "default";
    readonly median_ms?: number;
  }
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault: "kill";
    readonly process: number;
  }
  | {
    readonly op: "fault";
    readonly at_ms: number;
    readonly fault: "wait";
    /** How long guardlab waited before the next call (inside the key's stated lifetime). */
    readonly ms: number;
  };

/**
 * What the oracle declares of the idempotency-key contract, as the case
 * used it (a history is judged without its oracle): where the key goes,
 * how a retryable in-flight conflict looks, how long a key is kept.
 */
export interface ContractRecord {
  /** What it is. */
  readonly op: "contract";
  /** When. */
  readonly at_ms: number;
  /** Where the call carries its key: among its arguments, in `params._meta`, as `params.idempotencyKey`, or (HTTP) in a request header. */
  readonly key_in?: "arguments" | "_meta" | "idempotencyKey" | "header";
  /** The conflict a client may retry after, as the server marks it. */
  readonly conflict?: ConflictMark;
  /** The key's lifetime the server publishes, in ms. */
  readonly lifetime_ms?: number;
}

/**
 * A server process's life, as guardlab saw it: `start` (a process of the
 * case's own is started), `start-failed` (it could not be started, or did
 * not get through initialize), `close` (guardlab ends it: its input
 * closed, a grace, its group ended), `exit` (it exited, or its channel
 * closed), `gone` (the run's server had exited before the case began).
 * Without `process`, the run's own server.
 */
export interface ProcessRecord {
  /** What it is. */
  readonly op: "process";
  /** When. */
  readonly at_ms: number;
  /** What happened. */
  readonly event: "start" | "start-failed" | "close" | "exit" | "gone";
  /** Which process of the case's own, from 1; absent for the run's server. */
  readonly process?: number;
}

/** Something the server did wrong (it answered twice, wrote what is not a message, …). */
export interface ProblemRecord {
  /** What it is. */
  readonly op: "problem";
  /** When. */
  readonly at_ms: number;
  /** What it was. */
  readonly problem: ProblemKind;
  /** The JSON-RPC id it concerned. */
  readonly id?: number;
  /** Which server process, in a case that starts its own. */
  readonly process?: number;
}

/** The case tested nothing, and why (decided before any call: what the oracle or the run lacks). */
export interface SkipRecord {
  /** What it is. */
  readonly op: "skip";
  /** When. */
  readonly at_ms: number;
  /** Why. */
  readonly reason: NotRunReason;
}

/** A tool's declared hints, as `tools/list` gave them (the annotations case); a tool not listed has no record. */
export interface ListedRecord {
  /** What it is. */
  readonly op: "listed";
  /** When. */
  readonly at_ms: number;
  /** The oracle's write tool, or its read tool. */
  readonly role: "write" | "read";
  /** The tool. */
  readonly tool: string;
  /** Its hints (booleans only). */
  readonly hints: ToolHints;
}

/** One record of a history. */
export type HistoryRecord =
  | CallRecord
  | ReadRecord
  | SetupRecord
  | FaultRecord
  | ProcessRecord
  | ProblemRecord
  | SkipRecord
  | ListedRecord
  | ContractRecord;

/** The history of one case. */
export interface CaseHistory {
  /** The format's version: {@linkcode HISTORY_VERSION}. */
  readonly version: typeof HISTORY_VERSION;
  /** What kind of system it records. */
  readonly subject: HistorySubject;
  /**
   * When the case began on the wall clock, Unix ms (where `at_ms` counts
   * from): shown (a trace's times), never judged on. Absent from a history
   * recorded before it was kept.
   */
  readonly epoch_ms?: number;
  /** What happened, in order. */
  readonly records: readonly HistoryRecord[];
}

/** Milliseconds as a history keeps them: a tenth of a millisecond. */
export function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Whether answer `a` is the conflict `mark` declares retryable: an error
 * with that HTTP status, that JSON-RPC code, or that value at the
 * oracle's pointer (`pointed`, recorded when the answer came).
 */
export function isConflictAnswer(
  mark: ConflictMark | undefined,
  a: HistoryAnswer,
): boolean {
  if (mark === undefined || a.outcome !== "error") return false;
  if ("status" in mark) return a.status === mark.status;
  if ("code" in mark) return a.error === "rpc" && a.code === mark.code;
  return a.pointed !== undefined && a.pointed === mark.value;
}
