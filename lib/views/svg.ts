/**
 * A self-contained SVG of one or more timelines, for slides: the same marks
 * as the terminal view, the commit point drawn as a divider.
 *
 * @module
 */
import { type Attempt, type Mark, timelineOf } from "./timeline.ts";

const FILL: Record<Mark, string> = {
  "passed": "#d8f0d8",
  "refused": "#f8d0d0",
  "failed": "#f8d0d0",
  "cancelled": "#fbe6b8",
  "not reached": "#eeeeee",
};

const STROKE: Record<Mark, string> = {
  "passed": "#2e7d32",
  "refused": "#c62828",
  "failed": "#c62828",
  "cancelled": "#b26a00",
  "not reached": "#9e9e9e",
};

/** Escape text for XML content and attributes; `@std/html`'s `escape` is the JSR equivalent. */
export function xmlEscape(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) =>
      ({
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        '"': "&quot;",
        "'": "&apos;",
      })[c]!,
  );
}

const BOX_W = 150;
const BOX_H = 44;
const GAP = 14;
const LEFT = 20;
const LANE_H = 120;
const COMMIT_GAP = 36;

function boxX(i: number): number {
  // Three boxes before the commit point, two after, with room for the divider.
  return LEFT + i * (BOX_W + GAP) + (i >= 3 ? COMMIT_GAP : 0);
}

/** Render lanes of attempts plus optional note lines as one SVG document. */
export function timelineSvg(
  title: string,
  lanes: { title: string; attempt: Attempt }[],
  notes: string[],
): string {
  const width = boxX(5) + LEFT;
  const notesTop = 60 + lanes.length * LANE_H;
  const height = notesTop + notes.length * 18 + 20;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13">`,
    `<title>${xmlEscape(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="30" font-size="18" font-weight="bold">${
      xmlEscape(title)
    }</text>`,
  );
  const commitX = boxX(3) - (GAP + COMMIT_GAP) / 2;
  lanes.forEach((lane, n) => {
    const top = 50 + n * LANE_H;
    const view = timelineOf(lane.attempt);
    const rows = [...view.before, ...view.after];
    parts.push(
      `<text x="${LEFT}" y="${top + 18}" font-weight="bold">${
        xmlEscape(lane.title)
      }</text>`,
    );
    rows.forEach((row, i) => {
      const x = boxX(i);
      const y = top + 28;
      parts.push(
        `<g class="stage" data-mark="${row.mark}">`,
        `<rect x="${x}" y="${y}" width="${BOX_W}" height="${BOX_H}" rx="6" ` +
          `fill="${FILL[row.mark]}" stroke="${
            STROKE[row.mark]
          }" stroke-width="1.5"/>`,
        `<text x="${x + 8}" y="${y + 18}">${xmlEscape(row.stage)}</text>`,
        `<text x="${x + 8}" y="${y + 35}" fill="${STROKE[row.mark]}">${
          xmlEscape(row.mark)
        }</text>`,
        `</g>`,
      );
    });
    parts.push(
      `<line x1="${commitX}" y1="${top + 20}" x2="${commitX}" y2="${
        top + 80
      }" ` +
        `stroke="#000000" stroke-width="2" stroke-dasharray="6 4"/>`,
      `<text x="${commitX}" y="${
        top + 96
      }" text-anchor="middle" font-size="11">commit point</text>`,
      `<text x="${LEFT}" y="${top + 112}" font-size="12" fill="#333333">${
        xmlEscape(
          `draft ${
            view.state.draft ? "present" : "absent"
          } · receipt ${view.state.receipt} · ` +
            `caller: ${view.state.caller}`,
        )
      }</text>`,
    );
  });
  notes.forEach((line, i) => {
    parts.push(
      `<text x="${LEFT}" y="${
        notesTop + 18 * i
      }" font-family="monospace" font-size="12" ` +
        `xml:space="preserve">${xmlEscape(line)}</text>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n");
}
