/**
 * The views: what the labs did, drawn for people. The timeline of one
 * attempt (`timeline.ts`) and of a ledger's history (`ledger_timeline.ts`),
 * the policy lab's two lanes (`policy_view.ts`), the policy demo's lines
 * (`policy_demo.ts`), a compensation's timeline (`compensation_view.ts`),
 * the SVG for slides (`svg.ts`) and the class's grade table
 * (`grade_table.ts`). A mark sits on the stage where the event happened.
 * The views' words are in `_messages.ts` (the timeline's with the
 * timeline); a view picks a language only through `say`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftRowsText } from "./mod.ts";
 *
 * assert.deepEqual(draftRowsText([["JOB-002", 1, 2]]), {
 *   en: "drafts: JOB-002 ×1 (revision 2)",
 *   zh: "草稿：JOB-002 ×1（修订号 2）",
 * });
 * ```
 *
 * @module
 */
export * from "./timeline.ts";
export * from "./ledger_timeline.ts";
export * from "./policy_view.ts";
export * from "./policy_demo.ts";
export * from "./compensation_view.ts";
export * from "./svg.ts";
export * from "./view_bound.ts";
export * from "./shown_history.ts";
export * from "./grade_table.ts";
export * from "./_messages.ts";
export * from "./_grade_messages.ts";
