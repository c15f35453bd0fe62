/**
 * guardlab: where a tool's guardrail stops a call, relative to the call's
 * side effect, shown against a real SQLite ledger.
 *
 * @example
 * ```ts
 * import { Lab } from "./mod.ts";
 * // A folder of your own: a ledger in the shared /tmp itself is refused.
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * const result = await lab.run(
 *   { job: "JOB-001", topic: "river", copies: 2 },
 *   { badOutput: true },
 * );
 * // The output check refused, yet the draft was already committed:
 * console.log(result.status, result.effect_exists); // "output_rejected" true
 * lab.close();
 * ```
 *
 * @module
 */
export * from "./args.ts";
export type { SchemaSpec } from "./db.ts";
export * from "./demo.ts";
export * from "./errors.ts";
export * from "./explain.ts";
export * from "./lab.ts";
export * from "./ledger.ts";
export * from "./outcome.ts";
export * from "./policy.ts";
export * from "./reconcile.ts";
export * from "./script.ts";
export * from "./stages.ts";
export * from "./timeline.ts";
export * from "./verify.ts";
export * from "./wire.ts";
