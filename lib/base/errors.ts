/**
 * Typed errors of the two labs. Each is caught where it becomes a status, or
 * propagates on purpose (audit and database failures, cancellation).
 *
 * @module
 */
import type { Text } from "./i18n.ts";
import { TextError } from "./text_error.ts";

/**
 * A structural or business input check said no; `reason` names the rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InputRejected } from "../mod.ts";
 *
 * const error = new InputRejected("batch_limit");
 * assert.equal(error.reason, "batch_limit");
 * ```
 */
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

/**
 * The output check refused a result that the business step already produced.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutputRejected, outputCheck } from "../mod.ts";
 *
 * const args = { job: "JOB-001", topic: "river", copies: 2 } as const;
 * assert.throws(() => outputCheck({ job: "JOB-001", text: "tampered" }, args), OutputRejected);
 * ```
 */
export class OutputRejected extends Error {
  /** Build an output rejection. */
  constructor(reason = "output_contract") {
    super(reason);
    this.name = "OutputRejected";
  }
}

/**
 * The same business key was used with other arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
 * // The same key with other arguments: the first draft stays as it was.
 * const again = await lab.run({ job: "JOB-001", topic: "river", copies: 3 });
 * assert.equal(again.status, "key_conflict");
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class KeyConflict extends Error {
  /** Build a key conflict. */
  constructor() {
    super("same_key_different_arguments");
    this.name = "KeyConflict";
  }
}

/**
 * The audit receipt could not be written as exactly one new row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AuditUnavailable, Lab } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await assert.rejects(
 *   lab.run({ job: "JOB-001", topic: "river", copies: 2 }, { auditFailure: true }),
 *   AuditUnavailable,
 * );
 * // The draft was committed before the receipt failed: it is still there.
 * assert.equal(lab.ledger.countDrafts(), 1);
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class AuditUnavailable extends Error {
  /** Build an audit failure; `cause` carries the cancellation it interrupted, if any. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AuditUnavailable";
  }
}

/**
 * The abort reason used when a cancel fault is injected at a checkpoint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Cancelled, Lab } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await assert.rejects(
 *   lab.run({ job: "JOB-002", topic: "river", copies: 2 }, { cancelAt: "after_business" }),
 *   Cancelled,
 * );
 * // A cancel after the commit point leaves the effect.
 * assert.equal(lab.ledger.draftExists("JOB-002"), true);
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
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

/**
 * A failure injected by the trusted harness; it stands for any unexpected error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * const r = await lab.run(
 *   { job: "JOB-001", topic: "river", copies: 2 },
 *   { failAt: "inside_transaction" },
 * );
 * // Folded into status error, and rolled back: no draft.
 * assert.equal(r.status, "error");
 * assert.equal(r.effect_exists, false);
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
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
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LedgerUnusable, Refused } from "../mod.ts";
 *
 * assert.ok(new LedgerUnusable("x is not a ledger") instanceof Refused);
 * ```
 */
export class Refused extends TextError {
  /** Build the refusal; `message` is the one line the user reads. */
  constructor(message: Text | string) {
    super(message);
    this.name = "Refused";
  }
}

/**
 * A ledger file that exists but is not a usable guardlab ledger.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab, LedgerUnusable } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/notes.sqlite`, "not a database at all");
 * assert.throws(() => Lab.open(`${dir}/notes.sqlite`), LedgerUnusable);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class LedgerUnusable extends Refused {
  /** Build the refusal for `path`. */
  constructor(message: Text | string) {
    super(message);
    this.name = "LedgerUnusable";
  }
}

/**
 * The business key was voided by a compensation: it is never re-created.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeyVoided } from "../mod.ts";
 * assert.equal(new KeyVoided().message, "key_voided");
 * ```
 */
export class KeyVoided extends Error {
  /** Build the refusal. */
  constructor() {
    super("key_voided");
    this.name = "KeyVoided";
  }
}

/**
 * The draft INSERT did not add exactly one row (a trigger doing
 * `RAISE(IGNORE)` makes it a silent no-op). The business transaction rolls
 * back, and the attempt ends as `error`, never `accepted`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DraftNotInserted } from "../mod.ts";
 *
 * assert.match(new DraftNotInserted(0).message, /changed 0 rows, not 1/);
 * ```
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
