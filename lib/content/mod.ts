/**
 * The teaching texts: what `explain` says of every demo scenario
 * (`scenarios.ts`) and of every lesson beyond the demo (`lessons.ts`), each
 * side by side in English and Chinese, put together as labelled lines by
 * `explain.ts`; and the SDK lens (`sdk_lens.ts`), whose prose is built from
 * the SDK facts as data (`sdk_guardrail_rows.ts`, `sdk_tool_rows.ts`) and
 * cites where each fact comes from (`sdk_sources.ts`). The words around the
 * texts are in `messages.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explanationLines } from "./mod.ts";
 *
 * assert.equal(
 *   explanationLines("output_rejected", "zh")[0],
 *   "output_rejected (timing)",
 * );
 * ```
 *
 * @module
 */
export * from "./explanation.ts";
export * from "./scenarios.ts";
export * from "./lessons.ts";
export * from "./explain.ts";
export * from "./sdk_sources.ts";
export * from "./sdk_guardrail_rows.ts";
export * from "./sdk_tool_rows.ts";
export * from "./sdk_lens.ts";
export * from "./messages.ts";
