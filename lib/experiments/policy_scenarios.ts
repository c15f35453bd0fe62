/**
 * The policy lab's demo scenarios, each defined once as its steps. The demo
 * runs these steps (`policyDemo`), `explain` replays them as `script` lines
 * and draws them in two lanes, and the demo's narration (`says`) is read
 * from them: a scenario changed here changes all three.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { Scenario } from "./scenario.ts";

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

/** A policy scenario's name. */
export type PolicyScenarioName =
  | "naive_stale"
  | "checked_stale"
  | "restored_value_old_revision"
  | "precommit_error";

/**
 * A policy scenario: its heading in the demo, and its steps, run in a fresh
 * policy database of its own.
 */
export interface PolicyScenario
  extends Scenario<PolicyScenarioName, keyof PolicyDemoResult> {
  /** The demo's heading line for the scenario. */
  readonly title: Text;
}

const JOB_001 = { job: "JOB-001", copies: 2 } as const;

/** The reader pre-checks JOB-001 and keeps the snapshot as `seen`. */
const CHECKED_AS_SEEN = {
  step: { op: "policy.precheck", ...JOB_001, as: "seen" },
} as const;

/** The editor lowers the limit to 1: the rule the pre-check saw is gone. */
const LIMIT_LOWERED = { step: { op: "policy.change", max_copies: 1 } } as const;

/** A checked insert of JOB-001 under the snapshot `seen`. */
const INSERT_SEEN = {
  op: "policy.insert_checked",
  ...JOB_001,
  snapshot: "seen",
} as const;

/** The policy lab's four demo scenarios, in demo order. */
export const POLICY_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "naive_stale",
    title: {
      en: "naive_stale: pre-check saw rev 1 (limit 3); the rule became limit 1",
      zh: "naive_stale：前检看到修订号 1（上限 3）；随后规则改为上限 1",
    },
    steps: [
      CHECKED_AS_SEEN,
      LIMIT_LOWERED,
      {
        step: { op: "policy.insert_naive", ...JOB_001, snapshot: "seen" },
        says: {
          en: "  naive insert (the wrong control) wrote anyway",
          zh: "  对照实现 insert_naive 照样写入",
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
      CHECKED_AS_SEEN,
      LIMIT_LOWERED,
      {
        step: INSERT_SEEN,
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
      CHECKED_AS_SEEN,
      LIMIT_LOWERED,
      { step: { op: "policy.change", max_copies: 3 } },
      {
        step: INSERT_SEEN,
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
      CHECKED_AS_SEEN,
      {
        step: { ...INSERT_SEEN, fail_before_commit: true },
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
