/**
 * What every check of the checker asks of a case's history: which call,
 * which answer, which read, and what the oracle declared of the contract.
 * Read only: it judges nothing (`_checker.ts` does).
 *
 * @module
 */
import type { Verdict } from "./cases.ts";
import type {
  CallRecord,
  CaseHistory,
  ContractRecord,
  HistoryAnswer,
  HistoryRecord,
  ReadRecord,
} from "./_history.ts";
import type { AnswerSeen, NotRunReason } from "./_report.ts";
import type { Outcome, ToolHints } from "./session.ts";

/** An answer's outcome in the words `--json` has always used (`client_saw`, `answers`). */
export function outcomeOf(a: HistoryAnswer): Outcome {
  switch (a.outcome) {
    case "ok":
      return "success";
    case "error":
      return a.error === "tool"
        ? "tool-error"
        : a.error === "http"
        ? "http-error"
        : a.error === "marked"
        ? "marked-refusal"
        : "rpc-error";
    case "unknown":
      return "closed";
    default:
      return "no-answer";
  }
}

/** A count the case needed, and whether the read was there at all. */
export interface Counted {
  readonly count: number | null;
  /** No such read in the history: nothing was counted. */
  readonly missing: boolean;
}

/** The questions every check asks of a history: which call, which answer, which read. */
export class Reading {
  constructor(
    readonly records: readonly HistoryRecord[],
    readonly subject: CaseHistory["subject"] = "mcp-server",
  ) {}

  /** What the oracle declared of the contract, when it did. */
  contract(): ContractRecord | undefined {
    const c = this.records.find((r) => r.op === "contract");
    return c?.op === "contract" ? c : undefined;
  }

  /**
   * OTHER-STATUS, as information, when an HTTP API refused call `n` with
   * another status than the draft's `want` and the verdict is one of
   * `when` (the checker sets it beside those only).
   */
  otherStatus(
    n: number,
    want: number,
    verdict: Verdict,
    when: readonly Verdict[],
  ): Verdict[] {
    const a = this.answerOf(n);
    return this.subject === "http-api" && when.includes(verdict) &&
        a.outcome === "error" && a.status !== undefined && a.status !== want
      ? ["OTHER-STATUS"]
      : [];
  }

  /** The client's calls, in call order. */
  clientCalls(): CallRecord[] {
    return this.records.filter((r): r is CallRecord => r.op === "call");
  }

  /** Client call `n`, when the history has it. */
  call(n: number): CallRecord | undefined {
    return this.clientCalls().find((c) => c.call === n);
  }

  /** The answer to call `n`; a call not in the history got none. */
  answerOf(n: number): HistoryAnswer {
    return this.call(n)?.answer ?? { outcome: "none" };
  }

  /** What the client saw of call `n`: nothing when guardlab withheld the answer. */
  saw(n: number): Outcome {
    const withheld = this.records.some((r) =>
      r.op === "fault" && r.fault === "withhold" && r.call === n
    );
    return withheld ? "no-answer" : outcomeOf(this.answerOf(n));
  }

  /** The index of call `n`'s record (the end of the history when it has none). */
  callIndex(n: number): number {
    const at = this.records.findIndex((r) => r.op === "call" && r.call === n);
    return at < 0 ? this.records.length : at;
  }

  /** The index of the last client call's record. */
  lastCallIndex(): number {
    return this.records.findLastIndex((r) => r.op === "call");
  }

  /**
   * The reads from index `from` on (reads made while a call was in flight
   * left out, and the fresh key's read before any call: it proves the
   * count or shows it unproven, see `freshCounted`; one that could not
   * count, as a read tool that errors on a key it has never seen, proves
   * nothing either way and fails nothing).
   */
  readsFrom(from: number, to = this.records.length): ReadRecord[] {
    return this.records.slice(Math.max(0, from), to).filter((
      r,
    ): r is ReadRecord =>
      r.op === "read" && r.in_flight !== true && r.fresh !== true
    );
  }

  /** The first read after index `at` (with `count`, or with `other_count`), up to the next client call. */
  countAfter(at: number, other = false): Counted {
    const next = this.records.findIndex((r, i) => i > at && r.op === "call");
    const read = this.readsFrom(at + 1, next < 0 ? undefined : next)
      .find((r) => (r.other === true) === other);
    return read === undefined
      ? { count: null, missing: true }
      : { count: read.count, missing: false };
  }

  /** The last read before index `at`, in flight or not. */
  countBefore(at: number): Counted {
    const read = this.records.slice(0, at).findLast((r) =>
      r.op === "read" && r.fresh !== true
    );
    return read?.op === "read"
      ? { count: read.count, missing: false }
      : { count: null, missing: true };
  }

  /** A lost answer's two reads: before the retry (call 2, after index `from`), and after it. */
  retried(from = -1): { before: Counted; n: Counted } {
    const retry = this.callIndex(2);
    const before = this.records.slice(from + 1, retry).findLast((r) =>
      r.op === "read" && r.in_flight !== true && r.other !== true &&
      r.fresh !== true
    );
    return {
      before: before?.op === "read"
        ? { count: before.count, missing: false }
        : { count: null, missing: true },
      n: this.countAfter(retry),
    };
  }

  /** What the server answered each client call (a call the client cancelled, unanswered, left out), in call order. */
  answers(): AnswerSeen[] {
    return this.clientCalls()
      .filter((c) => c.answer.outcome !== "cancelled")
      .sort((a, b) => a.call - b.call)
      .map((c) => ({
        call: c.call,
        outcome: outcomeOf(c.answer),
        ...(c.answer.text === undefined ? {} : { text: c.answer.text }),
        ...(c.answer.ms === undefined ? {} : { ms: c.answer.ms }),
        ...(c.process === undefined ? {} : { process: c.process }),
        ...(c.answer.status === undefined ? {} : { status: c.answer.status }),
        ...(c.answer.code === undefined ? {} : { code: c.answer.code }),
      }));
  }

  /** Why the case was not run, when it was not. */
  skipped(): NotRunReason | undefined {
    const skip = this.records.find((r) => r.op === "skip");
    return skip?.op === "skip" ? skip.reason : undefined;
  }

  /** The first process of the case's own that could not be started. */
  startFailed(): number | undefined {
    const failed = this.records.find((r) =>
      r.op === "process" && r.event === "start-failed"
    );
    return failed?.op === "process" ? failed.process ?? 0 : undefined;
  }

  /** The run's server had exited before the case began. */
  gone(): boolean {
    return this.records.some((r) => r.op === "process" && r.event === "gone");
  }

  /** The run's server exited during the case. */
  exited(): boolean {
    return this.records.some((r) =>
      r.op === "process" && r.event === "exit" && r.process === undefined
    );
  }

  /** A setup call was not answered success. */
  setupFailed(): boolean {
    return this.records.some((r) =>
      r.op === "setup" &&
      (r.answer.outcome !== "ok" || r.missing !== undefined)
    );
  }

  /** A read before any call, of a key no call had used, that already counted it. */
  freshCounted(): boolean {
    return this.records.some((r) =>
      r.op === "read" && r.fresh === true && r.count !== null && r.count > 0
    );
  }

  /** A read that could not count (not one made while a call was in flight). */
  readFailed(): boolean {
    return this.readsFrom(0).some((r) => r.count === null);
  }

  /** The hints the write or read tool declared, when it was listed. */
  hints(role: "write" | "read"): ToolHints | undefined {
    const listed = this.records.find((r) =>
      r.op === "listed" && r.role === role
    );
    return listed?.op === "listed" ? listed.hints : undefined;
  }
}
