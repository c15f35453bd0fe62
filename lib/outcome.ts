/**
 * How a run that threw is reported as data: the `raised` objects of the
 * script contract, shared by `guardlab run --json` and `guardlab script`.
 *
 * @module
 */
import { AuditUnavailable, Cancelled, isSqliteError } from "./errors.ts";

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

/** The `raised` object for an error a run threw, or `undefined` for anything else. */
export function raisedOf(error: unknown): Raised | undefined {
  if (isCancellation(error)) return { raised: "cancelled", message: "" };
  const base: Raised | undefined = error instanceof AuditUnavailable
    ? { raised: "audit_unavailable", message: error.message }
    : isSqliteError(error)
    ? { raised: "database_error", message: error.message }
    : undefined;
  if (base && isCancellation((error as Error).cause)) base.cause = "cancelled";
  return base;
}
