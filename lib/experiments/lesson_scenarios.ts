/**
 * The lessons `explain` teaches beyond the demo, each defined once as the
 * `script` steps that reproduce it (none where only prose can: a kill, a
 * comparison of tool types), so `explain LESSON --format svg` draws what
 * really happens. Their texts are in `lib/content/lessons.ts`.
 *
 * @module
 */
import type { Scenario } from "./scenario.ts";
import { runStep, type ScriptStep } from "./_steps.ts";

const RECEIPTS_IGNORED: ScriptStep = { op: "fixture", receipt_fault: "ignore" };
const RECEIPTS_WRITTEN: ScriptStep = { op: "fixture", receipt_fault: "none" };
const EDITOR_READS_DRAFTS = { step: { op: "policy.rows" } } as const;
const JOB_001 = { job: "JOB-001", copies: 2 } as const;

/** The lessons, in the order `explain list` shows them. */
export const LESSON_SCENARIOS = [
  {
    name: "inside_vs_after_commit",
    steps: [
      { step: runStep({}, { faults: { fail_at: "inside_transaction" } }) },
      {
        step: runStep({ job: "JOB-002" }, {
          faults: { fail_at: "after_commit" },
        }),
      },
    ],
  },
  {
    name: "audit_unavailable",
    steps: [{ step: runStep({}, { faults: { audit_failure: true } }) }],
  },
  {
    name: "key_conflict",
    steps: [{ step: runStep() }, { step: runStep({ copies: 3 }) }],
  },
  { name: "killed_after_commit", steps: [] },
  {
    name: "receipt_ignore_trigger",
    steps: [
      { step: RECEIPTS_IGNORED },
      { step: runStep() },
      { step: RECEIPTS_WRITTEN },
      { step: runStep() },
    ],
  },
  {
    name: "new_key_second_draft",
    steps: [{ step: runStep() }, { step: runStep({ job: "JOB-002" }) }],
  },
  {
    name: "lock_busy",
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.lock" } },
      { step: { op: "policy.insert_checked", ...JOB_001, snapshot: "seen" } },
      { step: { op: "policy.unlock" } },
      EDITOR_READS_DRAFTS,
    ],
  },
  {
    name: "missing_rule",
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.delete" } },
      { step: { op: "policy.insert_checked", ...JOB_001, snapshot: "seen" } },
      EDITOR_READS_DRAFTS,
    ],
  },
  {
    name: "inserted_false_is_not_proof",
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.change", max_copies: 3 } },
      { step: { op: "policy.insert_checked", ...JOB_001, snapshot: "seen" } },
      EDITOR_READS_DRAFTS,
    ],
  },
  { name: "compensation_can_fail", steps: [] },
  { name: "tool_types", steps: [] },
  {
    name: "approval_recheck",
    // The approval wait in the policy lab's terms: a check before the wait,
    // a rule change during it, and the write that re-checks at its commit.
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "approved" } },
      { step: { op: "policy.change", max_copies: 1 } },
      {
        step: { op: "policy.insert_checked", ...JOB_001, snapshot: "approved" },
      },
      { step: { op: "policy.precheck", ...JOB_001 } },
      EDITOR_READS_DRAFTS,
    ],
  },
] as const satisfies readonly Scenario[];

/** A lesson's name. */
export type LessonName = typeof LESSON_SCENARIOS[number]["name"];
