/**
 * The experiments: scenarios and scripts run against the two labs. A
 * scenario is its steps, the `script` contract's steps as data
 * (`_steps.ts`), defined once per lab (`timing_scenarios.ts`,
 * `policy_scenarios.ts`, `article_scenarios.ts`, and the lessons'
 * `lesson_scenarios.ts`) and run by one runner (`scenario.ts`) through the
 * `script` runner itself (`script.ts`). The demos (`demo.ts`,
 * `article_demo.ts`) run them and read what the labs did; `verify.ts`
 * compares that with the hand-written answers in `fixtures/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timingDemo } from "./mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const result = await timingDemo(dir);
 * // The output check refused, yet the draft was already committed:
 * assert.equal(result.output_rejected.status, "output_rejected");
 * assert.equal(result.output_rejected.effect_exists, true);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./_steps.ts";
export * from "./scenario.ts";
export * from "./timing_scenarios.ts";
export * from "./policy_scenarios.ts";
export * from "./article_scenarios.ts";
export * from "./lesson_scenarios.ts";
export * from "./script.ts";
export * from "./demo.ts";
export * from "./article_demo.ts";
export * from "./verify.ts";
export * from "./_messages.ts";
