/**
 * The policy lab drawn as two lanes: the reader (who pre-checks and then
 * writes) and the editor (who changes the rule). Each step lands in the
 * lane of the connection that ran it, in time order, so a student sees the
 * rule change between the check and the write, and whether the conditional
 * insert still matched.
 *
 * @module
 */
import type { PolicyStep } from "../experiments/script.ts";
import { type Lang, say, type Text } from "../base/i18n.ts";
import { plainValue } from "../base/plain.ts";
import { svgStart, xmlEscape } from "./svg.ts";
import { displayWidth, wrap } from "../base/terminal.ts";

/** The two connections of the policy lab. */
export type PolicyLane = "reader" | "editor";

/** One policy step as the view shows it. */
export interface PolicyRow {
  /** Which connection ran it. */
  lane: PolicyLane;
  /** What it did and what came of it. */
  text: Text;
  /** Whether it is the moment the rule changed, or a write that was refused. */
  emphasis?: "rule_changed" | "refused" | "written";
}

const LANE_LABEL: Record<PolicyLane, Text> = {
  reader: { en: "reader (check, then write)", zh: "读者（先检查，再写入）" },
  editor: { en: "editor (changes the rule)", zh: "编辑者（修改规则）" },
};

const rev = (o: unknown) => (o as { revision?: unknown })?.revision;
const max = (o: unknown) => (o as { max_copies?: unknown })?.max_copies;

/**
 * The row for one `policy.*` script step and the object it printed, or
 * `null` for a step that is not a policy step.
 */
export function policyRow(
  { step, output, snapshotRevision }: PolicyStep,
): PolicyRow | null {
  const job = `${step.job} ×${step.copies}`;
  const raised = typeof output.raised === "string"
    ? `${output.raised}${output.message ? `: ${output.message}` : ""}`
    : undefined;
  switch (step.op) {
    case "policy.precheck":
      return {
        lane: "reader",
        text: "snapshot" in output
          ? {
            en: `pre-check ${job}: saw revision ${rev(output.snapshot)}, ` +
              `limit ${max(output.snapshot)}: allowed`,
            zh: `前检 ${job}：看到修订号 ${rev(output.snapshot)}、上限 ${
              max(output.snapshot)
            }：允许`,
          }
          : {
            en: `pre-check ${job}: refused (${output.rejected})`,
            zh: `前检 ${job}：拒绝（${output.rejected}）`,
          },
      };
    case "policy.change":
      return {
        lane: "editor",
        emphasis: "rule_changed",
        text: output.policy
          ? {
            en: `rule changed: revision ${rev(output.policy)}, limit ${
              max(output.policy)
            }`,
            zh: `规则已修改：修订号 ${rev(output.policy)}，上限 ${
              max(output.policy)
            }`,
          }
          : raised
          ? {
            en: `rule change refused (${raised})`,
            zh: `修改被拒绝（${raised}）`,
          }
          : {
            en: "rule changed, but the rule row is missing",
            zh: "修改了规则，但规则行缺失",
          },
      };
    case "policy.insert_checked": {
      const saw = snapshotRevision === undefined
        ? ""
        : ` (saw revision ${snapshotRevision})`;
      const sawZh = snapshotRevision === undefined
        ? ""
        : `（所见修订号 ${snapshotRevision}）`;
      if (output.inserted === true) {
        return {
          lane: "reader",
          emphasis: "written",
          text: {
            en: `conditional insert ${job}${saw}: condition matched, committed`,
            zh: `条件写入 ${job}${sawZh}：条件匹配，已提交`,
          },
        };
      }
      if (output.inserted === false) {
        return {
          lane: "reader",
          emphasis: "refused",
          text: {
            en: `conditional insert ${job}${saw}: condition did not match, ` +
              "nothing written",
            zh: `条件写入 ${job}${sawZh}：条件不匹配，什么也没写`,
          },
        };
      }
      return {
        lane: "reader",
        emphasis: "refused",
        text: {
          en: `conditional insert ${job}: ${raised ?? output.rejected}`,
          zh: `条件写入 ${job}：${raised ?? output.rejected}`,
        },
      };
    }
    case "policy.insert_naive":
      return {
        lane: "reader",
        emphasis: output.inserted === true ? "written" : "refused",
        text: output.inserted === true
          ? {
            en: `naive insert ${job}: written on the old check alone`,
            zh: `错误对照 ${job}：只凭旧检查就写入了`,
          }
          : {
            en: `naive insert ${job}: ${raised ?? output.rejected}`,
            zh: `错误对照 ${job}：${raised ?? output.rejected}`,
          },
      };
    case "policy.lock":
      return {
        lane: "editor",
        text: raised ? { en: `lock: ${raised}`, zh: `加锁：${raised}` } : {
          en: "holds the write lock (BEGIN IMMEDIATE)",
          zh: "持有写锁（BEGIN IMMEDIATE）",
        },
      };
    case "policy.unlock":
      return {
        lane: "editor",
        text: {
          en: "releases the lock (ROLLBACK)",
          zh: "释放写锁（ROLLBACK）",
        },
      };
    case "policy.delete":
      return {
        lane: "editor",
        emphasis: "rule_changed",
        text: { en: "deletes the rule row", zh: "删除了规则行" },
      };
    case "policy.rows":
      return {
        lane: "editor",
        text: Array.isArray(output.rows) ? draftRowsText(output.rows) : {
          en: `reads drafts: ${raised}`,
          zh: `读取草稿：${raised}`,
        },
      };
  }
  return null;
}

/**
 * The policy lab's draft rows (`[job, copies, checked_revision]`) in words:
 * `drafts: JOB-002 ×1 (revision 2)`, never the JSON array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftRowsText } from "./policy_view.ts";
 * assert.equal(draftRowsText([["JOB-002", 1, 2]]).zh, "草稿：JOB-002 ×1（修订号 2）");
 * assert.equal(draftRowsText([]).en, "drafts: none");
 * ```
 */
export function draftRowsText(rows: readonly unknown[]): Text {
  if (rows.length === 0) return { en: "drafts: none", zh: "草稿：无" };
  const texts = rows.map((row): Text => {
    if (!Array.isArray(row) || row.length !== 3) {
      return { en: plainValue(row, "en"), zh: plainValue(row, "zh") };
    }
    const [job, copies, revision] = row.map((v) => plainValue(v, "en"));
    return {
      en: `${job} ×${copies} (revision ${revision})`,
      zh: `${job} ×${copies}（修订号 ${revision}）`,
    };
  });
  return {
    en: `drafts: ${texts.map((t) => t.en).join(", ")}`,
    zh: `草稿：${texts.map((t) => t.zh).join("、")}`,
  };
}

const HALF = 38;

/** The two lane headers, for the first policy row of a view. */
export function policyHeader(lang: Lang): string[] {
  const reader = say(LANE_LABEL.reader, lang);
  const editor = say(LANE_LABEL.editor, lang);
  return [
    `  ${reader}${
      " ".repeat(Math.max(1, HALF - displayWidth(reader)))
    }| ${editor}`,
    `  ${"-".repeat(HALF)}+${"-".repeat(78 - HALF - 3)}`,
  ];
}

/** One row in its lane, wrapped within its half of 80 columns. */
export function renderPolicyRow(row: PolicyRow, lang: Lang): string[] {
  const mark = row.emphasis === "rule_changed"
    ? "! "
    : row.emphasis === "refused"
    ? "x "
    : row.emphasis === "written"
    ? "+ "
    : "  ";
  const width = row.lane === "reader" ? HALF - 1 : 78 - HALF - 3;
  const lines = wrap(mark + say(row.text, lang), width, 0).map((l) => l.trim());
  return lines.map((l, i) => {
    const text = i === 0 ? l : "  " + l;
    return row.lane === "reader"
      ? `  ${text}${" ".repeat(Math.max(1, HALF - displayWidth(text)))}|`
      : `  ${" ".repeat(HALF)}| ${text}`;
  });
}

const BOX_W = 250;
const BOX_H = 62;
const STEP_X = 262;

/** The policy rows as an SVG: a reader lane and an editor lane, in time order. */
export function policySvg(
  title: string,
  rows: PolicyRow[],
  lang: Lang,
  notes: string[] = [],
): string {
  const left = 20;
  const laneY: Record<PolicyLane, number> = { reader: 60, editor: 150 };
  const width = left * 2 + 180 + STEP_X * Math.max(0, rows.length - 1) + BOX_W;
  const height = 240 + notes.length * 18;
  const fill = (r: PolicyRow) =>
    r.emphasis === "rule_changed"
      ? "#fbe6b8"
      : r.emphasis === "refused"
      ? "#f8d0d0"
      : r.emphasis === "written"
      ? "#d8f0d8"
      : "#eeeeee";
  const parts = svgStart(title, width, height, 12);
  for (const lane of ["reader", "editor"] as const) {
    parts.push(
      `<text x="${left}" y="${laneY[lane] + 28}" font-weight="bold">${
        xmlEscape(say(LANE_LABEL[lane], lang).split(/[（(]/)[0].trim())
      }</text>`,
      `<line x1="${left + 170}" y1="${laneY[lane] + BOX_H / 2}" x2="${
        width - left
      }" y2="${laneY[lane] + BOX_H / 2}" stroke="#bdbdbd" stroke-width="1"/>`,
    );
  }
  rows.forEach((row, i) => {
    const x = left + 180 + STEP_X * i;
    const y = laneY[row.lane];
    const lines = wrap(say(row.text, lang), 34, 0).map((l) => l.trim()).slice(
      0,
      3,
    );
    parts.push(
      `<g class="policy-step" data-lane="${row.lane}" data-emphasis="${
        row.emphasis ?? "none"
      }">`,
      `<rect x="${x}" y="${y}" width="${BOX_W}" height="${BOX_H}" rx="6" fill="${
        fill(row)
      }" stroke="#616161" stroke-width="1"/>`,
      ...lines.map((l, j) =>
        `<text x="${x + 6}" y="${y + 18 + 16 * j}">${
          xmlEscape(j === 0 ? `${i + 1}. ${l}` : `    ${l}`)
        }</text>`
      ),
      `</g>`,
    );
  });
  notes.forEach((line, i) => {
    parts.push(
      `<text x="${left}" y="${250 + 18 * i}" xml:space="preserve">${
        xmlEscape(line)
      }</text>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n");
}
