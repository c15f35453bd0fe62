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
import { fill, type Lang, say } from "../base/i18n.ts";
import { VERIFY_MESSAGES } from "./_messages.ts";
import { POLICY_SCENARIOS } from "./policy_scenarios.ts";

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

/** The whole timing demo, the owner of the one check that counts all of it. */
const TIMING_DEMO = "timing demo";

/**
 * The policy result keys that are not scenario names, each with the
 * scenario whose step reports it: a scenario's result and the ledger rows
 * read after it are one lesson. Read from the scenarios' steps.
 */
const POLICY_KEY_OWNERS: ReadonlyMap<string, string> = new Map(
  POLICY_SCENARIOS.flatMap((scenario) =>
    scenario.steps.flatMap(({ reports, rowsAfter }) =>
      [reports, rowsAfter].flatMap((key) =>
        key === undefined || key === scenario.name
          ? []
          : [[key, scenario.name] as const]
      )
    )
  ),
);

/**
 * The demo scenario (as `explain` names them) that a checked key belongs
 * to. `draft_rows` counts the whole timing demo.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scenarioOf } from "./verify.ts";
 * assert.equal(scenarioOf("after_stale"), "checked_stale");
 * assert.equal(scenarioOf("output_rejected"), "output_rejected");
 * ```
 */
export function scenarioOf(key: string): string {
  if (key === "draft_rows") return TIMING_DEMO;
  return POLICY_KEY_OWNERS.get(key) ?? key;
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
    const mark = say(
      c.pass ? VERIFY_MESSAGES.pass : VERIFY_MESSAGES.fail,
      lang,
    );
    lines.push(`${mark} ${label}`);
    if (!c.pass) {
      const m = VERIFY_MESSAGES;
      lines.push(say(fill(m.expected, { value: show(c.expected) }), lang));
      lines.push(say(fill(m.actual, { value: show(c.actual) }), lang));
    }
  }
  const failed = checks.filter((c) => !c.pass).length;
  const scenarios = new Set(
    checks.map((c) => scenarioOf(c.scenario)).filter((s) => s !== TIMING_DEMO),
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
