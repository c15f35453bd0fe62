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

/**
 * guardlab will not touch this path or file: a link, a folder another user
 * can change, a file that is not a ledger. Always exit 4 with one line, and
 * the path is left exactly as it was.
 */
export class Refused extends Error {
  /** Build the refusal; `message` is the one line the user reads. */
  constructor(message: string) {
    super(message);
    this.name = "Refused";
  }
}

/** A ledger file that exists but is not a usable guardlab ledger. */
export class LedgerUnusable extends Refused {
  /** Build the refusal for `path`. */
  constructor(message: string) {
    super(message);
    this.name = "LedgerUnusable";
  }
}

/**
 * The draft INSERT did not add exactly one row (a trigger doing
 * `RAISE(IGNORE)` makes it a silent no-op). The business transaction rolls
 * back, and the attempt ends as `error`, never `accepted`.
 */
export class DraftNotInserted extends Error {
  /** Build the failure; `changes` is the row count SQLite reported. */
  constructor(changes: number) {
    super(`draft insert changed ${changes} rows, not 1`);
    this.name = "DraftNotInserted";
  }
}

/** Whether `error` came from SQLite through `node:sqlite`. */
export function isSqliteError(error: unknown): error is Error {
  return error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_SQLITE_ERROR";
}
