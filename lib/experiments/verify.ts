/**
 * `verify`: run both demos and compare every scenario with the expected JSON
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
import { policyDemo, timingDemo } from "./demo.ts";
import { canonicalJson } from "../store/wire.ts";

/** The hand-written expected answers, per lab. */
export const EXPECTED: Readonly<Record<LabName, Record<string, unknown>>> = {
  timing: expectedTiming,
  policy: expectedPolicy,
};

/** The two labs. */
export type LabName = "timing" | "policy";

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

/** Run both demos inside `folder` and compare them with `expected`. */
export async function verify(
  folder: string,
  expected: Readonly<Record<LabName, Record<string, unknown>>> = EXPECTED,
): Promise<Check[]> {
  const timing = await timingDemo(folder) as unknown as Record<string, unknown>;
  const policy = await policyDemo(folder) as unknown as Record<string, unknown>;
  return [
    ...compareLab("timing", expected.timing, timing),
    ...compareLab("policy", expected.policy, policy),
  ];
}

/** Render checks as lines: one per scenario, expected and actual under each mismatch. */
export function renderChecks(checks: Check[]): string[] {
  const show = (v: unknown) =>
    v === undefined ? "(missing)" : JSON.stringify(v);
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.pass ? "pass" : "FAIL"} ${c.lab}/${c.scenario}`);
    if (!c.pass) {
      lines.push(`  expected: ${show(c.expected)}`);
      lines.push(`  actual:   ${show(c.actual)}`);
    }
  }
  const failed = checks.filter((c) => !c.pass).length;
  lines.push(
    failed === 0
      ? `all ${checks.length} scenarios match the expected answers`
      : `${failed} of ${checks.length} scenarios differ from the expected answers`,
  );
  return lines;
}
