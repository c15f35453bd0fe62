/**
 * `verify`: run every demo and compare every scenario with the expected JSON
 * that is built into the program (JSON imports, embedded by `deno compile`).
 *
 * @module
 */
import expectedPolicy from "../../fixtures/expected-policy.json" with {
  type: "json",
};
import expectedTiming from "../../fixtures/expected-timing.json" with {
  type: "json",
};
import expectedArticle from "../../fixtures/expected-article.json" with {
  type: "json",
};
import { articleDemo } from "./article_demo.ts";
import { policyDemo, timingDemo } from "./demo.ts";
import { canonicalJson } from "../base/json.ts";
import { fill, type Lang, say, type Text } from "../base/i18n.ts";

/** What `verify` reports, beside the scenario names. */
export const VERIFY_MESSAGES = {
  expected: { en: "  expected: {value}", zh: "  预期：{value}" },
  actual: { en: "  actual:   {value}", zh: "  实际：{value}" },
  allMatch: {
    en:
      "all {checks} checks of the {scenarios} scenarios match the expected answers",
    zh: "{scenarios} 个场景的 {checks} 项检查全部与预期答案一致",
  },
  differ: {
    en: "{failed} of {checks} checks differ from the expected answers",
    zh: "{checks} 项检查中有 {failed} 项与预期答案不一致",
  },
} as const satisfies Record<string, Text>;

/** The labs whose demos are verified, in the order `demo` runs them. */
export const LAB_NAMES = ["timing", "policy", "article"] as const;

/** The hand-written expected answers, per lab. */
export const EXPECTED: Readonly<Record<LabName, Record<string, unknown>>> = {
  timing: expectedTiming,
  policy: expectedPolicy,
  article: expectedArticle,
};

/** The labs: the two of the article's code, and its other claims. */
export type LabName = typeof LAB_NAMES[number];

/** One scenario's comparison. */
export interface Check {
  /** Which lab. */
  lab: LabName;
  /** Scenario key. */
  scenario: string;
  /** Whether actual equals expected. */
  pass: boolean;
  /** The expected value (`undefined` if the fixture lacks it). */
  expected: unknown;
  /** The actual value (`undefined` if the demo lacks it). */
  actual: unknown;
}

/** Compare one lab's results with its expected answers, scenario by scenario, in the fixture's order. */
export function compareLab(
  lab: LabName,
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): Check[] {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  return keys.map((scenario) => {
    const e = expected[scenario];
    const a = actual[scenario];
    const pass = e !== undefined && a !== undefined &&
      canonicalJson(e) === canonicalJson(a);
    return { lab, scenario, pass, expected: e, actual: a };
  });
}

/** Run every demo inside `folder` and compare them with `expected`. */
export async function verify(
  folder: string,
  expected: Readonly<Record<LabName, Record<string, unknown>>> = EXPECTED,
): Promise<Check[]> {
  const timing = await timingDemo(folder) as unknown as Record<string, unknown>;
  const policy = await policyDemo(folder) as unknown as Record<string, unknown>;
  const article = (await articleDemo(folder)).result as unknown as Record<
    string,
    unknown
  >;
  return [
    ...compareLab("timing", expected.timing, timing),
    ...compareLab("policy", expected.policy, policy),
    ...compareLab("article", expected.article, article),
  ];
}

/**
 * The demo scenario (as `explain` names them) that a checked key belongs
 * to: a scenario's result and the ledger rows read after it are one lesson.
 * `draft_rows` counts the whole timing demo.
 */
export function scenarioOf(key: string): string {
  const owner: Record<string, string> = {
    draft_rows: "timing demo",
    after_stale: "checked_stale",
    fresh_check_same_request: "checked_stale",
    new_input_accepted: "checked_stale",
    after_recovery: "checked_stale",
    after_restored_value: "restored_value_old_revision",
    after_precommit_error: "precommit_error",
  };
  return owner[key] ?? key;
}

/**
 * Render checks as lines, in `lang`: one per checked key under its scenario,
 * expected and actual under each mismatch, then the count of checks and of
 * the scenarios they belong to (the ones `explain` explains).
 */
export function renderChecks(checks: Check[], lang: Lang = "en"): string[] {
  const show = (v: unknown) =>
    v === undefined ? "(missing)" : JSON.stringify(v);
  const lines: string[] = [];
  for (const c of checks) {
    const scenario = scenarioOf(c.scenario);
    const label = scenario === c.scenario
      ? `${c.lab}/${scenario}`
      : `${c.lab}/${scenario} · ${c.scenario}`;
    lines.push(`${c.pass ? "pass" : "FAIL"} ${label}`);
    if (!c.pass) {
      const m = VERIFY_MESSAGES;
      lines.push(say(fill(m.expected, { value: show(c.expected) }), lang));
      lines.push(say(fill(m.actual, { value: show(c.actual) }), lang));
    }
  }
  const failed = checks.filter((c) => !c.pass).length;
  const scenarios = new Set(
    checks.map((c) => scenarioOf(c.scenario)).filter((s) =>
      s !== "timing demo"
    ),
  ).size;
  lines.push(say(
    fill(failed === 0 ? VERIFY_MESSAGES.allMatch : VERIFY_MESSAGES.differ, {
      checks: checks.length,
      scenarios,
      failed,
    }),
    lang,
  ));
  return lines;
}
