/**
 * The teaching texts: what `explain` says of every demo scenario
 * (`_scenarios.ts`) and of every lesson beyond the demo (`lessons.ts`), each
 * side by side in English and Chinese, put together as labelled lines by
 * `explain.ts`; and the SDK lens (`sdk_lens.ts`), whose prose is built from
 * the SDK facts as data (`_sdk_guardrail_rows.ts`, `_sdk_tool_rows.ts`) and
 * cites where each fact comes from (`sdk_sources.ts`). The words around the
 * texts are in `_messages.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explanationLines } from "./mod.ts";
 *
 * assert.equal(
 *   explanationLines("output_rejected", "zh")[0],
 *   "output_rejected（时间线实验）",
 * );
 * ```
 *
 * @module
 */
export * from "./_explanation.ts";
export * from "./_scenarios.ts";
export * from "./lessons.ts";
export * from "./explain.ts";
export * from "./sdk_sources.ts";
export * from "./_sdk_guardrail_rows.ts";
export * from "./_sdk_tool_rows.ts";
export * from "./sdk_lens.ts";
export * from "./_messages.ts";
