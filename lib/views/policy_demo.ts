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

/** The policy demo's words for outcomes and drafts; `{…}` are filled from the demo's result. */
export const POLICY_DEMO_MESSAGES = {
  none: { en: "none", zh: "无" },
  draft: {
    en: "{job} copies={copies} checked at rev {rev}",
    zh: "{job} copies={copies}，按修订号 {rev} 检查",
  },
  inserted: { en: "inserted", zh: "已写入" },
  refused: { en: "refused, nothing written", zh: "拒绝，什么也没写" },
  drafts: { en: "  drafts: {drafts}", zh: "  草稿：{drafts}" },
} as const satisfies Record<string, Text>;

type DraftRows = [string, number, number][];

/** The policy demo as readable lines (80 columns at most), in `lang`. */
export function policyLines(r: PolicyDemoResult, lang: Lang = "en"): string[] {
  const m = POLICY_DEMO_MESSAGES;
  const drafts = (rows: DraftRows): Text =>
    fill(m.drafts, {
      drafts: rows.length === 0 ? m.none : joinTexts(
        rows.map(([job, copies, rev]) => fill(m.draft, { job, copies, rev })),
        "; ",
      ),
    });
  // An insert reports whether it wrote; a check or a failure reports words.
  const outcome = (value: unknown): string | Text =>
    typeof value === "boolean"
      ? (value ? m.inserted : m.refused)
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
