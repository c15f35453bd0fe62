/**
 * One case's record, shared by every session of the case: its timeline
 * (drawn), its problems and notices (shown), and its history (judged by
 * the checker). A call's record is kept open until its answer comes; the
 * history handed to the checker is a copy taken when the case ends.
 *
 * @module
 */
import type { ChannelNotice } from "../wire/channel.ts";
import {
  type CallRecord,
  type CaseHistory,
  HISTORY_VERSION,
  type HistoryRecord,
  type HistorySubject,
  type ProblemKind,
  tenths,
} from "./_history.ts";

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
  | "too-late"
  | "read"
  | "waited"
  | "setup"
  | "started"
  | "killed"
  | "closed"
  | "notice"
  | "problem"
  | "exited";

/** How a call ended, as the side that waited for it saw it. */
export type Outcome =
  | "success"
  | "tool-error"
  | "rpc-error"
  | "http-error"
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
  /** What the answer said, for answered: its text, cut and inert. */
  readonly text?: string;
  /** The effect counted, for a read. */
  readonly count?: number | null;
  /** How long guardlab waited, for waited. */
  readonly ms?: number;
  /** For a read: the first one in this case that saw the effect. */
  readonly visible?: boolean;
  /** For a read: the last of reads repeated until the effect showed (or the answer came). */
  readonly polled?: boolean;
  /** What the problem was, for a problem. */
  readonly problem?: ProblemKind;
  /** What the notice was, for a notice. */
  readonly notice?: NoticeKind;
  /** The JSON-RPC id a problem is about. */
  readonly id?: number;
  /** Which server process, in a case that starts its own (from 1). */
  readonly process?: number;
  /** Milliseconds since the case started (shown in JSON, never judged on). */
  readonly at_ms: number;
}

/** One thing a server did wrong during a case. */
export interface Problem {
  /** What it was. */
  readonly kind: ProblemKind;
  /** The id it concerned, when there is one. */
  readonly id?: number;
}

/** What a server did that was noted and set aside. */
export type NoticeKind = ChannelNotice["kind"];

/**
 * One thing noted during a case that is no fault of the protocol's, as the
 * channel said it: a body discarded unread (it decides nothing), or a
 * message nested past the depth bound, read no further (an answer so deep
 * counts as none; the id it answered is the session's, not the report's).
 */
export type Notice =
  | Extract<ChannelNotice, { kind: "discarded-body" }>
  | Omit<Extract<ChannelNotice, { kind: "too-deep" }>, "id">;

/** A history record as it is kept while the case runs: a call's answer comes later. */
export type RecordInProgress =
  | Exclude<HistoryRecord, CallRecord>
  | Omit<CallRecord, "answer"> & { answer?: CallRecord["answer"] };

/** A record before its time is stamped: `at_ms` is now unless given. */
export type Unstamped<R> = R extends unknown
  ? Omit<R, "at_ms"> & { at_ms?: number }
  : never;

/** One case's record: its timeline, its problems, its notices, its history. */
export class CaseLog {
  /** The steps so far. */
  readonly events: TimelineEvent[] = [];
  /** What was noted and set aside so far. */
  readonly notices: Notice[] = [];
  /** What happened so far, as the checker reads it. */
  readonly records: RecordInProgress[] = [];
  /** When the case started. */
  readonly started: number = performance.now();

  /** What kind of system the history records (`http-api` over an HTTP API's channel). */
  constructor(readonly subject: HistorySubject = "mcp-server") {}

  /** What a server did wrong so far (the history's problem records). */
  get problems(): Problem[] {
    return this.records.flatMap((r) =>
      r.op === "problem"
        ? [{ kind: r.problem, ...(r.id === undefined ? {} : { id: r.id }) }]
        : []
    );
  }

  /** Milliseconds since the case started, as a history keeps them. */
  now(): number {
    return tenths(performance.now() - this.started);
  }

  /** Add one record, at `at_ms` (now when not given), of `process` unless it names one. */
  record(
    record: Unstamped<RecordInProgress>,
    process?: number,
  ): RecordInProgress {
    const { op, at_ms, ...rest } = record;
    const full = {
      op,
      at_ms: at_ms ?? this.now(),
      ...rest,
      ...(process === undefined || "process" in record ? {} : { process }),
    } as RecordInProgress;
    this.records.push(full);
    return full;
  }

  /**
   * The history as it stands now, copied: an answer that comes later
   * changes nothing in it. A call still unanswered was cancelled by the
   * client (its cancel was sent), or its outcome is unknown.
   */
  history(): CaseHistory {
    const cancelled = new Set(
      this.records.flatMap((r) =>
        r.op === "fault" && r.fault === "cancel" && r.sent ? [r.call] : []
      ),
    );
    const records = this.records.map((r): HistoryRecord =>
      r.op === "call"
        ? {
          ...r,
          answer: r.answer ??
            { outcome: cancelled.has(r.call) ? "cancelled" : "unknown" },
        }
        : r
    );
    return {
      version: HISTORY_VERSION,
      subject: this.subject,
      epoch_ms: Math.round((performance.timeOrigin + this.started) * 10) / 10,
      records: structuredClone(records),
    };
  }
}
