/**
 * The policy demo as readable lines: each scenario's heading, the line each
 * of its steps says, and what the ledger held afterwards. The lines come
 * from the scenarios' one definition (`POLICY_SCENARIOS`), filled with what
 * the demo reported.
 *
 * @module
 */
import {
  POLICY_SCENARIOS,
  type PolicyDemoResult,
} from "../experiments/policy_scenarios.ts";
import { fill, joinTexts, type Lang, say, type Text } from "../base/i18n.ts";
import { DRAFT_ROW_MESSAGES, POLICY_DEMO_MESSAGES } from "./_messages.ts";

type DraftRows = [string, number, number][];

/** The policy demo as readable lines (80 columns at most), in `lang`. */
export function policyLines(r: PolicyDemoResult, lang: Lang = "en"): string[] {
  const m = POLICY_DEMO_MESSAGES;
  const drafts = (rows: DraftRows): Text =>
    fill(m.drafts, {
      drafts: rows.length === 0 ? DRAFT_ROW_MESSAGES.none : joinTexts(
        rows.map(([job, copies, rev]) => fill(m.draft, { job, copies, rev })),
        "; ",
      ),
    });
  // An insert reports whether it wrote; a check or a failure reports words.
  // A pre-check's refusal is said as a verdict, its code in parentheses.
  const outcome = (value: unknown): string | Text =>
    typeof value === "boolean"
      ? (value ? m.inserted : m.refused)
      : value === "current_limit"
      ? m.currentLimit
      : String(value ?? "");
  const lines: (Text | "")[] = [];
  for (const scenario of POLICY_SCENARIOS) {
    lines.push("", scenario.title);
    for (const { reports, rowsAfter, says } of scenario.steps) {
      const value = reports === undefined ? undefined : r[reports];
      if (says) lines.push(fill(says, { result: outcome(value) }));
      else if (Array.isArray(value)) lines.push(drafts(value));
      if (rowsAfter) lines.push(drafts(r[rowsAfter] as DraftRows));
    }
  }
  return lines.map((line) => line === "" ? "" : say(line, lang));
}
