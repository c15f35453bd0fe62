/**
 * The labs' typed errors. Each is caught where it becomes a status
 * (`input_rejected`, `output_rejected`, `key_conflict`, `key_voided`,
 * `error`), or propagates on purpose: an audit failure and a cancellation
 * are never turned into a status.
 *
 * @module
 */

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
