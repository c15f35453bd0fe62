/**
 * The timing lab: one tool call laid out on one timeline against a real
 * SQLite ledger, in the reference's order: argument validation → input
 * check → business write (the commit point) → output check → audit
 * receipt.
 *
 * - `lab.ts`: the {@linkcode Lab} and its timeline; `run()` is the
 *   reference's, `attempt()` returns the attempt's record, `observe()` reads
 *   it as the output object and the timeline view's input.
 * - `attempt.ts`: that record and the two things read from it.
 * - `args.ts`: the tool's arguments and the input check; `stages.ts`: the
 *   names of events, checkpoints, statuses and pause points.
 * - `ledger.ts`: the `drafts` and `receipts` tables; `compensation.ts` and
 *   `reconcile.ts`: undoing a committed draft, and what needs attention.
 * - `errors.ts`: the labs' typed errors; `messages.ts`: the lab's texts
 *   (the rule each refusal names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab } from "./mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * const { output, attempt } = await lab.observe(
 *   { job: "JOB-001", topic: "river", copies: 2 },
 *   { cancelAt: "after_business" },
 * );
 * // The cancel came after the commit point: it is raised, and the draft stays.
 * assert.deepEqual(output, { raised: "cancelled", message: "" });
 * assert.equal(attempt.draftExists, true);
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./args.ts";
export * from "./attempt.ts";
export * from "./call_schema.ts";
export * from "./compensation.ts";
export * from "./errors.ts";
export * from "./lab.ts";
export * from "./ledger.ts";
export * from "./messages.ts";
export * from "./reconcile.ts";
export * from "./stages.ts";
