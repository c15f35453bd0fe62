/**
 * How a run that threw is reported as data: the `raised` objects of the
 * script contract, shared by `guardlab run --json` and `guardlab script`.
 *
 * @module
 */
import { AuditUnavailable, Cancelled, isSqliteError } from "../base/errors.ts";
import type { AttemptRecord, Faults, Lab, RunResult } from "./lab.ts";
import type { Attempt } from "./attempt.ts";

/** A thrown run, as one JSON object. */
export interface Raised {
  /** `cancelled`, `audit_unavailable` or `database_error`. */
  raised: "cancelled" | "audit_unavailable" | "database_error";
  /** The error's own message (empty for a cancellation, as Python's CancelledError). */
  message: string;
  /** `cancelled` when the error happened while the run was being cancelled. */
  cause?: "cancelled";
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

/** What one attempt gave its caller, and the same attempt as the timeline view needs it. */
export interface Observed {
  /** The result object, or the raised object when the run threw. */
  output: RunResult | Raised;
  /** The attempt for {@linkcode timelineOf}. */
  attempt: Attempt;
}

/**
 * Run one attempt and describe it. A cancellation, audit failure or
 * database error becomes its `raised` object; anything else propagates.
 */
export async function observeRun(
  lab: Lab,
  raw: unknown,
  faults?: Faults,
  signal?: AbortSignal,
): Promise<Observed> {
  const record = await lab.attempt(raw, faults, signal);
  let output: RunResult | Raised;
  if (record.outcome.kind === "result") output = record.outcome.result;
  else {
    const raised = raisedOf(
      record.outcome.error,
      record.outcome.whileCancelling,
    );
    if (raised === undefined) throw record.outcome.error;
    output = raised;
  }
  return { output, attempt: attemptOf(lab, raw, record, output) };
}

/** The timeline input for `record`, an attempt given `raw` that ended in `output`. */
function attemptOf(
  lab: Lab,
  raw: unknown,
  record: AttemptRecord,
  output: RunResult | Raised,
): Attempt {
  const job = (raw as { job?: unknown } | null)?.job;
  return {
    events: record.events,
    outcome: "raised" in output
      ? { kind: "raised", ...output }
      : { kind: "result", status: output.status, released: output.released },
    draftExists: "raised" in output
      ? typeof job === "string" && lab.ledger.draftExists(job)
      : output.effect_exists,
    receiptAttempt: record.receipt?.attempt ?? null,
    receiptStatus: record.receipt?.status,
    ...(record.stoppedAt ? { stoppedAt: record.stoppedAt } : {}),
    ...(record.refusal ? { refusal: record.refusal } : {}),
    ...(record.inputGuardrail ? { inputGuardrail: record.inputGuardrail } : {}),
    ...(record.receipt && record.receipt.rowsInserted !== 1
      ? { receiptRowsInserted: record.receipt.rowsInserted }
      : {}),
  };
}
