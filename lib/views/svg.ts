/**
 * A self-contained SVG of one or more timelines, for slides: the same marks
 * as the terminal view, the commit point drawn as a divider. (What every
 * guardlab SVG and XML shares, the escape and the document's opening, is
 * `lib/base/markup.ts`.)
 *
 * @module
 */
import { fill, type Lang, say } from "../base/i18n.ts";
import { COMMIT_WORDS, SVG_MESSAGES } from "./_messages.ts";
import { svgStart, xmlEscape } from "../base/markup.ts";
import type { Attempt } from "../timing/attempt.ts";
import type { CommitState, Mark } from "./_marks.ts";
import { MARK_LABEL } from "./_messages.ts";
import {
  stageLabel,
  type StageRow,
  SYMBOL,
  type Timeline,
  timelineOf,
} from "./timeline.ts";

const FILL: Record<Mark, string> = {
  "passed": "#d8f0d8",
  "refused": "#f8d0d0",
  "failed": "#f8d0d0",
  "cancelled": "#fbe6b8",
  "in parallel": "#d7eef5",
  "not reached": "#eeeeee",
  "unknown": "#f4f4f4",
};

const STROKE: Record<Mark, string> = {
  "passed": "#2e7d32",
  "refused": "#c62828",
  "failed": "#c62828",
  "cancelled": "#b26a00",
  "in parallel": "#00838f",
  "not reached": "#9e9e9e",
  "unknown": "#616161",
};

const BOX_W = 138;
const BOX_H = 44;
const GAP = 12;
const LEFT = 20;
const LANE_H = 132;
const COMMIT_GAP = 40;
const BADGE_W = 150;
/** The most boxes a lane can have: five stages, a late input verdict, a gap row. */
const MOST_BOXES = 7;

/** How the commit point is drawn: committed, reused and not reached look different. */
const COMMIT_LINE: Record<
  CommitState,
  { stroke: string; dash: string; width: number }
> = {
  "committed": { stroke: "#b71c1c", dash: "", width: 4 },
  "reused": { stroke: "#1565c0", dash: "10 4 2 4", width: 3 },
  "not reached": { stroke: "#9e9e9e", dash: "2 5", width: 1.5 },
};

/**
 * Render lanes of attempts plus optional note lines as one SVG document, in
 * `lang`. Each lane shows its stages, the commit point drawn by what
 * happened there, and whether the draft is present, as a badge.
 */
export function timelineSvg(
  title: string,
  lanes: { title: string; attempt: Attempt; timeline?: Timeline }[],
  notes: string[],
  lang: Lang = "en",
): string {
  const width = LEFT + MOST_BOXES * (BOX_W + GAP) + COMMIT_GAP + BADGE_W +
    LEFT;
  const notesTop = 70 + lanes.length * LANE_H;
  const height = notesTop + notes.length * 18 + 20;
  const parts = svgStart(title, width, height, 13);
  lanes.forEach((lane, n) => {
    const top = 50 + n * LANE_H;
    const view = lane.timeline ?? timelineOf(lane.attempt);
    parts.push(
      `<text x="${LEFT}" y="${top + 18}" font-weight="bold">${
        xmlEscape(lane.title)
      }</text>`,
    );
    let x = LEFT;
    const box = (row: StageRow) => {
      const y = top + 30;
      parts.push(
        `<g class="stage" data-stage="${row.stage}" data-mark="${row.mark}">`,
        `<rect x="${x}" y="${y}" width="${BOX_W}" height="${BOX_H}" rx="6" ` +
          `fill="${FILL[row.mark]}" stroke="${
            STROKE[row.mark]
          }" stroke-width="1.5"/>`,
        `<text x="${x + 8}" y="${y + 18}">${
          xmlEscape(say(stageLabel(row), lang))
        }</text>`,
        `<text x="${x + 8}" y="${y + 35}" fill="${STROKE[row.mark]}">${
          xmlEscape(`${SYMBOL[row.mark]} ${say(MARK_LABEL[row.mark], lang)}`)
        }</text>`,
        `</g>`,
      );
      x += BOX_W + GAP;
    };
    view.before.forEach(box);
    const commitX = x + COMMIT_GAP / 2 - GAP / 2;
    const line = COMMIT_LINE[view.commit];
    parts.push(
      `<g class="commit" data-commit="${view.commit}">`,
      `<line x1="${commitX}" y1="${top + 22}" x2="${commitX}" y2="${
        top + 84
      }" stroke="${line.stroke}" stroke-width="${line.width}"${
        line.dash ? ` stroke-dasharray="${line.dash}"` : ""
      }/>`,
      `<text x="${commitX}" y="${
        top + 100
      }" text-anchor="middle" font-size="12" font-weight="bold" fill="${line.stroke}">${
        xmlEscape(say(COMMIT_WORDS[view.commit], lang))
      }</text>`,
      `</g>`,
    );
    x += COMMIT_GAP;
    view.after.forEach(box);
    const badgeX = width - LEFT - BADGE_W;
    const present = view.state.draft;
    parts.push(
      `<g class="draft" data-draft="${present ? "present" : "absent"}">`,
      `<rect x="${badgeX}" y="${
        top + 30
      }" width="${BADGE_W}" height="${BOX_H}" rx="8" ` +
        `fill="${present ? "#b71c1c" : "#ffffff"}" stroke="${
          present ? "#b71c1c" : "#9e9e9e"
        }" stroke-width="2"/>`,
      `<text x="${badgeX + BADGE_W / 2}" y="${
        top + 57
      }" text-anchor="middle" font-size="15" font-weight="bold" fill="${
        present ? "#ffffff" : "#616161"
      }">${
        xmlEscape(
          say(
            present ? SVG_MESSAGES.draftPresent : SVG_MESSAGES.draftAbsent,
            lang,
          ),
        )
      }</text>`,
      `</g>`,
      `<text x="${LEFT}" y="${top + 122}" font-size="12" fill="#333333">${
        xmlEscape(
          say(
            fill(SVG_MESSAGES.state, {
              receipt: view.state.receipt,
              caller: view.state.caller,
            }),
            lang,
          ),
        )
      }</text>`,
    );
  });
  notes.forEach((line, i) => {
    parts.push(
      `<text x="${LEFT}" y="${
        notesTop + 18 * i
      }" font-size="12" xml:space="preserve">${xmlEscape(line)}</text>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n");
}
