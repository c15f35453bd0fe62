/**
 * Typed errors of the two labs. Each is caught where it becomes a status, or
 * propagates on purpose (audit and database failures, cancellation).
 *
 * @module
 */

/** A structural or business input check said no; `reason` names the rule. */
export class InputRejected extends Error {
  /** Which rule refused the input, e.g. `shape`, `copies`, `batch_limit`. */
  readonly reason: string;
  /** Build a rejection for `reason`. */
  constructor(reason: string) {
    super(reason);
    this.name = "InputRejected";
    this.reason = reason;
  }
}

/** The output check refused a result that the business step already produced. */
export class OutputRejected extends Error {
  /** Build an output rejection. */
  constructor(reason = "output_contract") {
    super(reason);
    this.name = "OutputRejected";
  }
}

/** The same business key was used with other arguments. */
export class KeyConflict extends Error {
  /** Build a key conflict. */
  constructor() {
    super("same_key_different_arguments");
    this.name = "KeyConflict";
  }
}

/** The audit receipt could not be written as exactly one new row. */
export class AuditUnavailable extends Error {
  /** Build an audit failure; `cause` carries the cancellation it interrupted, if any. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AuditUnavailable";
  }
}

/** The abort reason used when a cancel fault is injected at a checkpoint. */
export class Cancelled extends Error {
  /** The checkpoint where the cancellation landed. */
  readonly checkpoint: string;
  /** Build a cancellation at `checkpoint`. */
  constructor(checkpoint: string) {
    super(`cancelled at ${checkpoint}`);
    this.name = "AbortError";
    this.checkpoint = checkpoint;
  }
}

/** A failure injected by the trusted harness; it stands for any unexpected error. */
export class InjectedFailure extends Error {
  /** Build an injected failure named after where it was raised. */
  constructor(where: string) {
    super(where);
    this.name = "InjectedFailure";
  }
}

/** A ledger file that exists but is not a usable guardlab ledger. */
export class LedgerUnusable extends Error {
  /** Build the refusal for `path`. */
  constructor(message: string) {
    super(message);
    this.name = "LedgerUnusable";
  }
}

/** Whether `error` came from SQLite through `node:sqlite`. */
export function isSqliteError(error: unknown): error is Error {
  return error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_SQLITE_ERROR";
}
