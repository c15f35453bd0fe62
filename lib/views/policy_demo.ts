/**
 * The policy demo as readable lines: each scenario's interleaving and what
 * the ledger held afterwards.
 *
 * @module
 */
import type { PolicyDemoResult } from "../experiments/demo.ts";
import { fill, joinTexts, type Lang, say, type Text } from "../i18n.ts";

/** The policy demo's words; `{…}` are filled from the demo's result. */
export const POLICY_DEMO_MESSAGES = {
  none: { en: "none", zh: "无" },
  draft: {
    en: "{job} copies={copies} checked at rev {rev}",
    zh: "{job} copies={copies}，按修订号 {rev} 检查",
  },
  inserted: { en: "inserted", zh: "已写入" },
  refused: { en: "refused, nothing written", zh: "拒绝，什么也没写" },
  drafts: { en: "  drafts: {drafts}", zh: "  草稿：{drafts}" },
  naiveStale: {
    en: "naive_stale: pre-check saw rev 1 (limit 3); the rule became limit 1",
    zh: "naive_stale：前检看到修订号 1（上限 3）；随后规则改为上限 1",
  },
  naiveWrote: {
    en: "  naive insert (the wrong control) wrote anyway",
    zh: "  错误对照（insert_naive）照样写入",
  },
  checkedStale: {
    en: "checked_stale: same interleaving, conditional insert",
    zh: "checked_stale：同样的交错，条件写入",
  },
  checkedOld: {
    en: "  checked insert with the old snapshot: {result}",
    zh: "  拿旧 Snapshot 做条件写入：{result}",
  },
  freshCheck: {
    en: "  fresh pre-check of the same request: {result}",
    zh: "  对同一请求重新前检：{result}",
  },
  newRequest: {
    en: "  new request JOB-002 copies=1, freshly checked: {result}",
    zh: "  新请求 JOB-002 copies=1，重新前检后：{result}",
  },
  restored: {
    en: "restored_value_old_revision: limit 3 -> 1 -> 3, revision 1 -> 3",
    zh: "restored_value_old_revision：上限 3 → 1 → 3，修订号 1 → 3",
  },
  restoredInsert: {
    en: "  checked insert with the rev-1 snapshot: {result}",
    zh: "  拿修订号 1 的 Snapshot 做条件写入：{result}",
  },
  precommit: {
    en: "precommit_error: failure after INSERT, before COMMIT",
    zh: "precommit_error：INSERT 之后、COMMIT 之前失败",
  },
  precommitRaised: {
    en: "  raised: {error}; rolled back",
    zh: "  抛出：{error}；已回滚",
  },
} as const satisfies Record<string, Text>;

/** The policy demo as readable lines (80 columns at most), in `lang`. */
export function policyLines(r: PolicyDemoResult, lang: Lang = "en"): string[] {
  const m = POLICY_DEMO_MESSAGES;
  const drafts = (rows: [string, number, number][]): Text =>
    fill(m.drafts, {
      drafts: rows.length === 0 ? m.none : joinTexts(
        rows.map(([job, copies, rev]) => fill(m.draft, { job, copies, rev })),
        "; ",
      ),
    });
  const insert = (inserted: boolean) => inserted ? m.inserted : m.refused;
  const lines: (Text | "")[] = [
    "",
    m.naiveStale,
    m.naiveWrote,
    drafts(r.naive_stale),
    "",
    m.checkedStale,
    fill(m.checkedOld, { result: insert(r.checked_stale) }),
    drafts(r.after_stale),
    fill(m.freshCheck, { result: r.fresh_check_same_request }),
    fill(m.newRequest, { result: insert(r.new_input_accepted) }),
    drafts(r.after_recovery),
    "",
    m.restored,
    fill(m.restoredInsert, { result: insert(r.restored_value_old_revision) }),
    drafts(r.after_restored_value),
    "",
    m.precommit,
    fill(m.precommitRaised, { error: r.precommit_error }),
    drafts(r.after_precommit_error),
  ];
  return lines.map((line) => line === "" ? "" : say(line, lang));
}
