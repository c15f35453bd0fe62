/**
 * The policy lab's demo scenarios, each defined once as its steps. The demo
 * runs these steps (`policyDemo`), `explain` replays them as `script` lines
 * and draws them in two lanes, and the demo's narration is read from them:
 * a scenario changed here changes all three.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** What the policy demo did; keys are the reference's. */
export interface PolicyDemoResult {
  /** Stale rule, naive control: the draft is written anyway. */
  naive_stale: [string, number, number][];
  /** Stale rule, checked insert: refused. */
  checked_stale: boolean;
  /** Drafts after the refused insert. */
  after_stale: [string, number, number][];
  /** A fresh pre-check of the same request. */
  fresh_check_same_request: string;
  /** An explicitly new request checked against the current rule. */
  new_input_accepted: boolean;
  /** Drafts after the recovery. */
  after_recovery: [string, number, number][];
  /** Value restored (3→1→3) but the revision moved on: refused. */
  restored_value_old_revision: boolean;
  /** Drafts after it. */
  after_restored_value: [string, number, number][];
  /** The error injected between INSERT and COMMIT. */
  precommit_error: string;
  /** Drafts after the rollback. */
  after_precommit_error: [string, number, number][];
}

/**
 * One `policy.*` step of the `script` contract, as data (its JSON form is
 * the `script` line). The reader pre-checks and inserts; the editor changes
 * the rule and reads the drafts.
 */
export type PolicyScriptStep =
  | {
    readonly op: "policy.precheck";
    readonly job: string;
    readonly copies: number;
    /** Remember the snapshot under this name. */
    readonly as?: string;
  }
  | { readonly op: "policy.change"; readonly max_copies: number }
  | {
    readonly op: "policy.insert_naive";
    readonly job: string;
    readonly copies: number;
    readonly snapshot: string;
  }
  | {
    readonly op: "policy.insert_checked";
    readonly job: string;
    readonly copies: number;
    readonly snapshot: string;
    /** Inject a failure after the INSERT, before the COMMIT. */
    readonly fail_before_commit?: true;
  }
  | { readonly op: "policy.rows" };

/** One step of a scenario: the step itself, and what the demo reports and says of it. */
export interface PolicyScenarioStep {
  /** The step as `script` runs it. */
  readonly step: PolicyScriptStep;
  /**
   * The demo result key its outcome fills: a pre-check's rejection reason
   * (or `allowed`), an insert's `inserted`, the error an injected failure
   * raised (`none` if nothing was raised), or the drafts `policy.rows` read.
   */
  readonly reports?: keyof PolicyDemoResult;
  /**
   * The demo result key filled with the drafts the editor reads right after
   * this step: an observation through the second connection, not a step,
   * so the lanes do not draw it.
   */
  readonly rowsAfter?: keyof PolicyDemoResult;
  /** The demo's line for this step; `{result}` is its reported outcome. */
  readonly says?: Text;
}

/** A policy scenario: its name, the demo's heading for it, and its steps in time order. */
export interface PolicyScenario {
  /** The scenario's name, as `explain` and the demo's result know it. */
  readonly name:
    | "naive_stale"
    | "checked_stale"
    | "restored_value_old_revision"
    | "precommit_error";
  /** The demo's heading line for the scenario. */
  readonly title: Text;
  /** Its steps, each in a fresh policy database of its own scenario. */
  readonly steps: readonly PolicyScenarioStep[];
}

const JOB_001 = { job: "JOB-001", copies: 2 } as const;

/** The policy lab's four demo scenarios, in demo order. */
export const POLICY_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "naive_stale",
    title: {
      en: "naive_stale: pre-check saw rev 1 (limit 3); the rule became limit 1",
      zh: "naive_stale：前检看到修订号 1（上限 3）；随后规则改为上限 1",
    },
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.change", max_copies: 1 } },
      {
        step: { op: "policy.insert_naive", ...JOB_001, snapshot: "seen" },
        says: {
          en: "  naive insert (the wrong control) wrote anyway",
          zh: "  错误对照（insert_naive）照样写入",
        },
      },
      { step: { op: "policy.rows" }, reports: "naive_stale" },
    ],
  },
  {
    name: "checked_stale",
    title: {
      en: "checked_stale: same interleaving, conditional insert",
      zh: "checked_stale：同样的交错，条件写入",
    },
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.change", max_copies: 1 } },
      {
        step: { op: "policy.insert_checked", ...JOB_001, snapshot: "seen" },
        reports: "checked_stale",
        rowsAfter: "after_stale",
        says: {
          en: "  checked insert with the old snapshot: {result}",
          zh: "  拿旧 Snapshot 做条件写入：{result}",
        },
      },
      {
        step: { op: "policy.precheck", ...JOB_001 },
        reports: "fresh_check_same_request",
        says: {
          en: "  fresh pre-check of the same request: {result}",
          zh: "  对同一请求重新前检：{result}",
        },
      },
      // A deliberately new business input, chosen by the reader, not a silent rewrite.
      {
        step: {
          op: "policy.precheck",
          job: "JOB-002",
          copies: 1,
          as: "fresh",
        },
      },
      {
        step: {
          op: "policy.insert_checked",
          job: "JOB-002",
          copies: 1,
          snapshot: "fresh",
        },
        reports: "new_input_accepted",
        says: {
          en: "  new request JOB-002 copies=1, freshly checked: {result}",
          zh: "  新请求 JOB-002 copies=1，重新前检后：{result}",
        },
      },
      { step: { op: "policy.rows" }, reports: "after_recovery" },
    ],
  },
  {
    name: "restored_value_old_revision",
    title: {
      en: "restored_value_old_revision: limit 3 -> 1 -> 3, revision 1 -> 3",
      zh: "restored_value_old_revision：上限 3 → 1 → 3，修订号 1 → 3",
    },
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      { step: { op: "policy.change", max_copies: 1 } },
      { step: { op: "policy.change", max_copies: 3 } },
      {
        step: { op: "policy.insert_checked", ...JOB_001, snapshot: "seen" },
        reports: "restored_value_old_revision",
        says: {
          en: "  checked insert with the rev-1 snapshot: {result}",
          zh: "  拿修订号 1 的 Snapshot 做条件写入：{result}",
        },
      },
      { step: { op: "policy.rows" }, reports: "after_restored_value" },
    ],
  },
  {
    name: "precommit_error",
    title: {
      en: "precommit_error: failure after INSERT, before COMMIT",
      zh: "precommit_error：INSERT 之后、COMMIT 之前失败",
    },
    steps: [
      { step: { op: "policy.precheck", ...JOB_001, as: "seen" } },
      {
        step: {
          op: "policy.insert_checked",
          ...JOB_001,
          snapshot: "seen",
          fail_before_commit: true,
        },
        reports: "precommit_error",
        says: {
          en: "  raised: {result}; rolled back",
          zh: "  抛出：{result}；已回滚",
        },
      },
      { step: { op: "policy.rows" }, reports: "after_precommit_error" },
    ],
  },
];

/**
 * A scenario's steps as the `script` lines that replay it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { POLICY_SCENARIOS, scriptLines } from "./policy_scenarios.ts";
 * assert.equal(
 *   scriptLines(POLICY_SCENARIOS[0])[1],
 *   '{"op":"policy.change","max_copies":1}',
 * );
 * ```
 */
export function scriptLines(scenario: PolicyScenario): string[] {
  return scenario.steps.map(({ step }) => JSON.stringify(step));
}
