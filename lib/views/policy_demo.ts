/**
 * The policy demo as readable lines: each scenario's interleaving and what
 * the ledger held afterwards.
 *
 * @module
 */
import type { PolicyDemoResult } from "../experiments/demo.ts";
import type { Lang } from "../i18n.ts";

function draftsText(drafts: [string, number, number][], lang: Lang): string {
  if (drafts.length === 0) return lang === "zh" ? "无" : "none";
  return drafts.map(([job, copies, rev]) =>
    lang === "zh"
      ? `${job} copies=${copies}，按修订号 ${rev} 检查`
      : `${job} copies=${copies} checked at rev ${rev}`
  ).join("; ");
}

const insertText = (inserted: boolean, lang: Lang) =>
  lang === "zh"
    ? (inserted ? "已写入" : "拒绝，什么也没写")
    : (inserted ? "inserted" : "refused, nothing written");

/** The policy demo as readable lines (80 columns at most), in `lang`. */
export function policyLines(r: PolicyDemoResult, lang: Lang = "en"): string[] {
  const d = (rows: [string, number, number][]) => draftsText(rows, lang);
  const i = (inserted: boolean) => insertText(inserted, lang);
  if (lang === "zh") {
    return [
      "",
      "naive_stale：前检看到修订号 1（上限 3）；随后规则改为上限 1",
      "  错误对照（insert_naive）照样写入",
      `  草稿：${d(r.naive_stale)}`,
      "",
      "checked_stale：同样的交错，条件写入",
      `  拿旧 Snapshot 做条件写入：${i(r.checked_stale)}`,
      `  草稿：${d(r.after_stale)}`,
      `  对同一请求重新前检：${r.fresh_check_same_request}`,
      `  新请求 JOB-002 copies=1，重新前检后：${i(r.new_input_accepted)}`,
      `  草稿：${d(r.after_recovery)}`,
      "",
      "restored_value_old_revision：上限 3 → 1 → 3，修订号 1 → 3",
      `  拿修订号 1 的 Snapshot 做条件写入：${
        i(r.restored_value_old_revision)
      }`,
      `  草稿：${d(r.after_restored_value)}`,
      "",
      "precommit_error：INSERT 之后、COMMIT 之前失败",
      `  抛出：${r.precommit_error}；已回滚`,
      `  草稿：${d(r.after_precommit_error)}`,
    ];
  }
  return [
    "",
    "naive_stale: pre-check saw rev 1 (limit 3); the rule became limit 1",
    `  naive insert (the wrong control) wrote anyway`,
    `  drafts: ${d(r.naive_stale)}`,
    "",
    "checked_stale: same interleaving, conditional insert",
    `  checked insert with the old snapshot: ${i(r.checked_stale)}`,
    `  drafts: ${d(r.after_stale)}`,
    `  fresh pre-check of the same request: ${r.fresh_check_same_request}`,
    `  new request JOB-002 copies=1, freshly checked: ${
      i(r.new_input_accepted)
    }`,
    `  drafts: ${d(r.after_recovery)}`,
    "",
    "restored_value_old_revision: limit 3 -> 1 -> 3, revision 1 -> 3",
    `  checked insert with the rev-1 snapshot: ${
      i(r.restored_value_old_revision)
    }`,
    `  drafts: ${d(r.after_restored_value)}`,
    "",
    "precommit_error: failure after INSERT, before COMMIT",
    `  raised: ${r.precommit_error}; rolled back`,
    `  drafts: ${d(r.after_precommit_error)}`,
  ];
}
