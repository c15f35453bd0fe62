/**
 * One record per attempt, and the two things read from it.
 *
 * - {@linkcode AttemptRecord}: everything one attempt did, as the lab's
 *   timeline returns it (`Lab.attempt`).
 * - The output object ({@linkcode RunOutput}): the reference's result dict
 *   ({@linkcode RunResult}, in its key order) for an attempt that returned,
 *   or the `raised` object ({@linkcode Raised}) of the script contract for
 *   one that threw. `guardlab run --json`, `script`, the demos and MCP print
 *   it.
 * - The view's input ({@linkcode Attempt}): what the timeline view draws.
 *   It is plain data because the ledger view draws it from a receipt row
 *   alone, where no record exists.
 *
 * `Lab.observe` reads a record both ways; everyone who shows an attempt goes
 * through it.
 *
 * @module
 */
import { isSqliteError } from "../base/errors.ts";
import { AuditUnavailable, Cancelled } from "./errors.ts";
import type { EventName, ReceiptStatus, Status, StopPoint } from "./stages.ts";

/** What the business step stores and the caller may receive. */
export interface DraftValue {
  /** Business key. */
  job: string;
  /** The fixed template text, e.g. `river / copies=2`. */
  text: string;
}

/** The receipt row an attempt wrote. */
export interface WrittenReceipt {
  /** The attempt number SQLite assigned. */
  attempt: number;
  /** The status recorded, `cancelled` included. */
  status: ReceiptStatus;
  /** Whether a draft for the key existed when the receipt was written. */
  effect_exists: boolean;
  /** How many rows the receipt INSERT really added (a naive receipt may claim one with 0). */
  rowsInserted: number;
}

/**
 * Everything one attempt did, returned to its caller and kept nowhere else:
 * two overlapping attempts on one lab each get their own.
 */
export interface AttemptRecord {
  /** The business key, once the arguments were valid; `null` before. */
  job: string | null;
  /** The stages the attempt passed, in order, as far as it got. */
  events: readonly EventName[];
  /**
   * The receipt it wrote, or `null` when the write failed (then `outcome`
   * is the failure). An attempt that returned always has one.
   */
  receipt: WrittenReceipt | null;
  /** Where a cancellation or an injected failure stopped it, if one did. */
  stoppedAt?: StopPoint;
  /** The rule that refused it (e.g. `batch_limit`), if a check said no. */
  refusal?: string;
  /** `parallel` when the input guardrail ran beside the call. */
  inputGuardrail?: "parallel";
  /** How it ended for the caller: a status, or what was thrown instead. */
  outcome:
    | {
      kind: "result";
      /** How the call ended. */
      status: Status;
      /** What the caller may use: only an accepted result releases a value. */
      released: DraftValue | null;
    }
    | {
      kind: "thrown";
      /** The cancellation, audit failure or database error. */
      error: unknown;
      /** The cancellation that was being recorded when `error` happened. */
      whileCancelling?: unknown;
    };
}

/** The result of a run that was not cancelled, in the reference's key order. */
export interface RunResult {
  /** The receipt's attempt number. */
  attempt: number;
  /** Business key, `null` when the arguments had none that was valid. */
  job: string | null;
  /** How the call ended. */
  status: Status;
  /** Whether a draft for `job` exists now (maybe from an earlier attempt). */
  effect_exists: boolean;
  /** The stages this attempt passed, in order. */
  events: EventName[];
  /** What the caller may use: only an accepted result releases a value. */
  released: DraftValue | null;
}

/** A thrown run, as one JSON object. */
export interface Raised {
  /** `cancelled`, `audit_unavailable` or `database_error`. */
  raised: "cancelled" | "audit_unavailable" | "database_error";
  /** The error's own message (empty for a cancellation, as Python's CancelledError). */
  message: string;
  /** `cancelled` when the error happened while the run was being cancelled. */
  cause?: "cancelled";
}

/** The output object of one attempt: its result, or what it raised. */
export type RunOutput = RunResult | Raised;

/**
 * An attempt as the timeline view draws it: from a record, through
 * {@linkcode attemptOf}, or from a receipt row alone (the ledger view).
 */
export interface Attempt {
  /** Events the attempt reached (for a raised run, as far as they are known). */
  events: readonly string[];
  /** How it ended for the caller. */
  outcome:
    | { kind: "result"; status: string; released: unknown }
    | { kind: "raised"; raised: string; message: string; cause?: string };
  /** Whether the draft exists after the attempt. */
  draftExists: boolean;
  /** Receipt attempt number, or null when none was written. */
  receiptAttempt: number | null;
  /** Receipt status, when one was written. */
  receiptStatus?: string;
  /** Where a cancellation or injected failure stopped it. */
  stoppedAt?: StopPoint;
  /** The rule that refused it. */
  refusal?: string;
  /** `parallel` when the input guardrail ran beside the call. */
  inputGuardrail?: "parallel";
  /** Rows the receipt INSERT really added, when not the 1 it claimed (a naive receipt). */
  receiptRowsInserted?: number;
}

/**
 * The result object of an attempt that returned: its receipt and what it
 * released, in the reference's key order.
 */
export function resultOf(record: AttemptRecord): RunResult {
  const { outcome, receipt } = record;
  if (outcome.kind !== "result" || receipt === null) {
    throw new TypeError("resultOf: this attempt did not return a result");
  }
  return {
    attempt: receipt.attempt,
    job: record.job,
    status: outcome.status,
    effect_exists: receipt.effect_exists,
    events: [...record.events],
    released: outcome.released,
  };
}

/**
 * The output object of `record`: its result, or the `raised` object of what
 * it threw. An error with no `raised` object (a bug, not an outcome) is
 * thrown on.
 */
export function outputOf(record: AttemptRecord): RunOutput {
  const { outcome } = record;
  if (outcome.kind === "result") return resultOf(record);
  const raised = raisedOf(outcome.error, outcome.whileCancelling);
  if (raised === undefined) throw outcome.error;
  return raised;
}

/**
 * The view's input for `record`, which ended in `output`; `draftExists`
 * says whether the draft exists after it.
 */
export function attemptOf(
  record: AttemptRecord,
  output: RunOutput,
  draftExists: boolean,
): Attempt {
  const { receipt } = record;
  return {
    events: record.events,
    outcome: "raised" in output
      ? { kind: "raised", ...output }
      : { kind: "result", status: output.status, released: output.released },
    draftExists,
    receiptAttempt: receipt?.attempt ?? null,
    receiptStatus: receipt?.status,
    ...(record.stoppedAt ? { stoppedAt: record.stoppedAt } : {}),
    ...(record.refusal ? { refusal: record.refusal } : {}),
    ...(record.inputGuardrail ? { inputGuardrail: record.inputGuardrail } : {}),
    ...(receipt && receipt.rowsInserted !== 1
      ? { receiptRowsInserted: receipt.rowsInserted }
      : {}),
  };
}

/** Whether `error` is a cancellation: the injected one or an AbortSignal's default reason. */
export function isCancellation(error: unknown): boolean {
  return error instanceof Cancelled ||
    (error instanceof DOMException && error.name === "AbortError");
}

/**
 * The `raised` object for an error a run threw, or `undefined` for anything
 * else. `whileCancelling` is the cancellation that was being recorded when
 * the error happened (an audit failure also carries it as its `cause`).
 */
export function raisedOf(
  error: unknown,
  whileCancelling?: unknown,
): Raised | undefined {
  if (isCancellation(error)) return { raised: "cancelled", message: "" };
  const base: Raised | undefined = error instanceof AuditUnavailable
    ? { raised: "audit_unavailable", message: error.message }
    : isSqliteError(error)
    ? { raised: "database_error", message: error.message }
    : undefined;
  if (
    base &&
    (isCancellation(whileCancelling) ||
      isCancellation((error as Error).cause))
  ) {
    base.cause = "cancelled";
  }
  return base;
}
