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
import { fill, joinTexts, type Lang, say, type Text } from "../base/i18n.ts";
import { plainText } from "../base/plain.ts";
import { svgStart, xmlEscape } from "../base/markup.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import {
  DRAFT_ROW_MESSAGES,
  POLICY_LANES,
  POLICY_STEP_MESSAGES,
} from "./_messages.ts";

/** The two connections of the policy lab. */
export type PolicyLane = "reader" | "editor";

/** What a row stands out as: the moment the rule changed, or a write refused or made. */
export type Emphasis = "rule_changed" | "refused" | "written";

/** One policy step as the view shows it. */
export interface PolicyRow {
  /** Which connection ran it. */
  lane: PolicyLane;
  /** What it did and what came of it. */
  text: Text;
  /** Whether it is the moment the rule changed, or a write that was refused. */
  emphasis?: Emphasis;
}

const M = POLICY_STEP_MESSAGES;

const rev = (o: unknown) => String((o as { revision?: unknown })?.revision);
const max = (o: unknown) => String((o as { max_copies?: unknown })?.max_copies);

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
  const outcome = String(raised ?? output.rejected);
  switch (step.op) {
    case "policy.precheck":
      return {
        lane: "reader",
        text: "snapshot" in output
          ? fill(M.precheckAllowed, {
            job,
            revision: rev(output.snapshot),
            limit: max(output.snapshot),
          })
          : fill(M.precheckRefused, { job, reason: String(output.rejected) }),
      };
    case "policy.change":
      return {
        lane: "editor",
        emphasis: "rule_changed",
        text: output.policy
          ? fill(M.ruleChanged, {
            revision: rev(output.policy),
            limit: max(output.policy),
          })
          : raised
          ? fill(M.ruleChangeRefused, { raised })
          : M.ruleRowMissing,
      };
    case "policy.insert_checked": {
      const saw = snapshotRevision === undefined
        ? ""
        : fill(M.sawRevision, { revision: String(snapshotRevision) });
      if (output.inserted === true) {
        return {
          lane: "reader",
          emphasis: "written",
          text: fill(M.insertMatched, { job, saw }),
        };
      }
      return {
        lane: "reader",
        emphasis: "refused",
        text: output.inserted === false
          ? fill(M.insertNotMatched, { job, saw })
          : fill(M.insertFailed, { job, outcome }),
      };
    }
    case "policy.insert_naive":
      return output.inserted === true
        ? {
          lane: "reader",
          emphasis: "written",
          text: fill(M.naiveWritten, { job }),
        }
        : {
          lane: "reader",
          emphasis: "refused",
          text: fill(M.naiveFailed, { job, outcome }),
        };
    case "policy.lock":
      return {
        lane: "editor",
        text: raised ? fill(M.lockFailed, { raised }) : M.locked,
      };
    case "policy.unlock":
      return { lane: "editor", text: M.unlocked };
    case "policy.delete":
      return { lane: "editor", emphasis: "rule_changed", text: M.ruleDeleted };
    case "policy.rows":
      return {
        lane: "editor",
        text: Array.isArray(output.rows)
          ? draftRowsText(output.rows)
          : fill(M.readFailed, { raised: String(raised) }),
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
  const D = DRAFT_ROW_MESSAGES;
  const words = rows.map((row): Text => {
    if (!Array.isArray(row) || row.length !== 3) return plainText(row);
    const [job, copies, revision] = row.map((v) => plainText(v));
    return fill(D.row, { job, copies, revision });
  });
  return fill(D.drafts, {
    drafts: words.length === 0 ? D.none : joinTexts(words, D.separator),
  });
}

const HALF = 38;

/** The two lane headers, for the first policy row of a view. */
export function policyHeader(lang: Lang): string[] {
  const reader = say(POLICY_LANES.reader.heading, lang);
  const editor = say(POLICY_LANES.editor.heading, lang);
  return [
    `  ${reader}${
      " ".repeat(Math.max(1, HALF - displayWidth(reader)))
    }| ${editor}`,
    `  ${"-".repeat(HALF)}+${"-".repeat(78 - HALF - 3)}`,
  ];
}

/** How a row stands out: its mark in the terminal, its fill in the SVG. */
const EMPHASIS_LOOK: Readonly<
  Record<Emphasis | "none", { mark: string; fill: string }>
> = {
  rule_changed: { mark: "! ", fill: "#fbe6b8" },
  refused: { mark: "x ", fill: "#f8d0d0" },
  written: { mark: "+ ", fill: "#d8f0d8" },
  none: { mark: "  ", fill: "#eeeeee" },
};

/** One row in its lane, wrapped within its half of 80 columns. */
export function renderPolicyRow(row: PolicyRow, lang: Lang): string[] {
  const { mark } = EMPHASIS_LOOK[row.emphasis ?? "none"];
  const width = row.lane === "reader" ? HALF - 1 : 78 - HALF - 3;
  // A continuation line is indented two columns inside the lane, so it is
  // wrapped with them counted: the reader lane's "|" stays in its column.
  const lines = wrap(mark + say(row.text, lang), width, 2);
  return lines.map((l, i) => {
    const text = i === 0 ? l.trim() : l.trimEnd();
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
  const parts = svgStart(title, width, height, 12);
  for (const lane of ["reader", "editor"] as const) {
    parts.push(
      `<text x="${left}" y="${laneY[lane] + 28}" font-weight="bold">${
        xmlEscape(say(POLICY_LANES[lane].name, lang))
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
        EMPHASIS_LOOK[row.emphasis ?? "none"].fill
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
