/**
 * `guardlab accept` drawn: the matrix (one row per case, with what the
 * client saw, the effect counted by key and the verdict, and under each
 * row what the verdict means and the article's sentence it tests), and
 * each case's timeline in three lanes (client, guardlab, server), with the
 * moment the effect became visible to the read tool drawn as a divider,
 * the way the lab's timeline draws its commit point. Text within 80
 * columns, and SVG.
 *
 * @module
 */
import { fill, type Lang, same, say, type Text } from "../../base/i18n.ts";
import { displayWidth, inert, wrap } from "../../base/terminal.ts";
import type { AcceptReport, CaseResult } from "../run.ts";
import type { Lane, TimelineEvent } from "../session.ts";
import { VERDICT_CLASS } from "../cases.ts";
import { MATRIX_WORDS as M, TIMELINE_WORDS as W } from "../messages.ts";
import {
  NOT_RUN_WHY,
  NOTICE_WORD,
  VERDICT_ARTICLE,
  VERDICT_MEANING,
} from "../verdict_messages.ts";
import {
  detailTexts,
  effectText,
  hintsText,
  problemsText,
  sawText,
  shownReport,
} from "./_accept_details.ts";
import { eventText, PROCESS_KINDS } from "./_accept_events.ts";
import { svgStart, xmlEscape } from "../../base/markup.ts";
import type { Comparison } from "../baseline.ts";
import { BASELINE_MESSAGES, JUDGE_MESSAGES } from "../ci_messages.ts";
import type { Changed } from "../judge.ts";
import { baselineLines, changedLines } from "./_accept_baseline.ts";

const COLS = { case: 25, saw: 24, effect: 12 };

/** The width of a screen. */
const WIDTH = 80;

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(1, width - displayWidth(text)));
}

/** The matrix of `report` in `lang`, each line within 80 columns. */
export function matrixLines(report: AcceptReport, lang: Lang): string[] {
  const lines: string[] = [];
  const entries = [...new Set(report.results.map((r) => r.entry))];
  for (const entry of entries) {
    const rows = report.results.filter((x) => x.entry === entry);
    const tool = rows[0].tool;
    const twice = report.results.some((x) =>
      x.tool === tool && x.entry !== entry
    );
    if (lines.length > 0) lines.push("");
    lines.push(
      ...wrap(
        say(
          fill(twice ? M.writeToolEntry : M.writeTool, { tool, entry }),
          lang,
        ),
        WIDTH,
        2,
      ).map((l) => l.trimEnd()),
    );
    const hints = report.hints?.[tool];
    if (hints !== undefined) {
      wrap(say(hintsText(hints), lang), 74, 0).forEach((l, i) =>
        lines.push((i === 0 ? "  " : "    ") + l.trim())
      );
    }
    lines.push(
      "  " + pad(say(M.headCase, lang), COLS.case) +
        pad(say(M.headSaw, lang), COLS.saw) +
        pad(say(M.headEffect, lang), COLS.effect) + say(M.headVerdict, lang),
    );
    for (const r of rows) {
      const saw = wrap(say(sawText(r.client_saw), lang), COLS.saw - 1, 0).map((
        l,
      ) => l.trim());
      const head = "  " + pad(r.case, COLS.case) + pad(saw[0], COLS.saw);
      // A verdict too long for its column starts early enough to end by
      // column 80 (never over the effect before it).
      const room = Math.min(
        COLS.effect,
        WIDTH - displayWidth(head) - r.verdict.length,
      );
      const effect = say(effectText(r), lang);
      if (
        displayWidth(head) + displayWidth(effect) + 1 + r.verdict.length <=
          WIDTH
      ) {
        lines.push(head + pad(effect, room) + r.verdict);
      } else {
        // An effect too long to share the line: the verdict goes under it,
        // ending by column 80.
        lines.push(head + effect);
        lines.push(" ".repeat(WIDTH - r.verdict.length) + r.verdict);
      }
      for (const more of saw.slice(1)) {
        lines.push("  " + " ".repeat(COLS.case) + more);
      }
      const notes: Text[] = [VERDICT_MEANING[r.verdict]];
      if (r.not_run !== undefined) notes.push(NOT_RUN_WHY[r.not_run]);
      notes.push(...detailTexts(r));
      if (r.problems.length > 0) notes.push(problemsText(r));
      // The same notice again says nothing new: it is shown once.
      const notices = new Map(r.notices.map((n) => [JSON.stringify(n), n]));
      for (const n of notices.values()) {
        notes.push(fill(NOTICE_WORD[n.kind], n));
      }
      for (const i of r.info) {
        notes.push(fill(M.info, { verdict: i, meaning: VERDICT_MEANING[i] }));
      }
      // The article's sentence about a retry reading the old draft back
      // says nothing of a single call: the `once` case has no second call.
      if (!(r.case === "once" && r.verdict === "ONCE")) {
        notes.push(fill(M.article, { sentence: VERDICT_ARTICLE[r.verdict] }));
      }
      for (const note of notes) {
        for (const l of wrap(say(note, lang), 74, 0)) {
          lines.push("      " + l.trim());
        }
      }
    }
  }
  return lines;
}

/** How many rows of each class: the summary line's numbers. */
export function classCounts(report: AcceptReport) {
  const of = (c: string) =>
    report.results.filter((r) => VERDICT_CLASS[r.verdict] === c).length;
  return {
    cases: report.results.length,
    safe: of("safe"),
    unsafe: of("unsafe"),
    inconclusive: of("inconclusive"),
    info: of("info"),
  };
}

/** The summary line of `report`. */
export function summaryText(report: AcceptReport): Text {
  return fill(M.summary, classCounts(report));
}

/** One drawn step: its lane, its words, and whether the effect showed first here. */
export interface DrawnStep {
  /** The lane it is drawn in. */
  readonly lane: Lane;
  /** What happened. */
  readonly text: Text;
  /** The effect's count, when this is the first read that saw it. */
  readonly visible?: number;
  /** The event's kind, for styling. */
  readonly kind: TimelineEvent["kind"];
}

/**
 * The steps of a timeline, with runs of the same step over consecutive
 * calls folded into one (`sends calls 1–10`), and runs of reads with the
 * same count into one.
 */
export function drawnSteps(events: readonly TimelineEvent[]): DrawnStep[] {
  const steps: DrawnStep[] = [];
  for (let i = 0; i < events.length;) {
    const { width, times } = foldAt(events, i);
    for (let k = 0; k < width; k++) {
      const e = events[i + k];
      const last = events[i + k + (times - 1) * width];
      const n = e.kind === "read" ? times : 1;
      const calls = e.call === null
        ? same("")
        : times > 1
        ? fill(W.many, { from: e.call, to: last.call ?? e.call })
        : fill(W.one, { n: e.call });
      steps.push({
        lane: e.lane,
        kind: e.kind,
        text: eventText(e, calls, n),
        ...(e.visible && typeof e.count === "number"
          ? { visible: e.count }
          : {}),
      });
    }
    i += width * times;
  }
  return steps;
}

/** Whether `b` repeats `a` for the next call (or, for a read, the next key with the same count). */
function repeats(a: TimelineEvent, b: TimelineEvent): boolean {
  if (
    a.kind !== b.kind || a.lane !== b.lane || a.outcome !== b.outcome ||
    a.process !== b.process || a.text !== b.text || b.visible || b.polled
  ) return false;
  if (
    a.kind === "problem" || a.kind === "exited" || a.kind === "setup" ||
    PROCESS_KINDS.includes(a.kind) || a.kind === "notice"
  ) {
    return false;
  }
  if (a.kind === "read") return a.count === b.count;
  return a.call !== null && b.call === a.call + 1;
}

/** The widest block of 1 to 3 steps that repeats from `at`, and how often. */
function foldAt(
  events: readonly TimelineEvent[],
  at: number,
): { width: number; times: number } {
  let best = { width: 1, times: 1 };
  for (let width = 1; width <= 3; width++) {
    let times = 1;
    while (
      at + (times + 1) * width <= events.length &&
      Array.from({ length: width }, (_, k) => k).every((k) =>
        repeats(
          events[at + (times - 1) * width + k],
          events[at + times * width + k],
        )
      )
    ) times++;
    if (times > 1 && width * times > best.width * best.times) {
      best = { width, times };
    }
  }
  if (best.times > 1 && events[at].visible) return { width: 1, times: 1 };
  return best;
}

/** A lane of a drawn timeline: accept's three, and the agent's beside them (`proxy show --agent`). */
export type ViewLane = Lane | "agent";

const LANES: readonly ViewLane[] = ["client", "guardlab", "server"];
const LANE_WORD: Readonly<Record<ViewLane, Text>> = {
  agent: W.laneAgent,
  client: W.laneClient,
  guardlab: W.laneGuardlab,
  server: W.laneServer,
};

/** One step of a lane table: its lane, its words, and where the effect first showed. */
export interface LaneStep {
  /** The lane it is drawn in. */
  readonly lane: ViewLane;
  /** What happened. */
  readonly text: Text;
  /** The effect's count, when this step is where it was first seen. */
  readonly visible?: number;
  /** The divider's words, when they are not accept's (the key named). */
  readonly divider?: Text;
  /** When it happened, in ms from the start, when the table shows times. */
  readonly at_ms?: number;
}

/** A step's time as the table's first column shows it: `+12ms`, `-3ms`. */
function timeText(ms: number): string {
  return ms < 0 ? `${ms}ms` : `+${ms}ms`;
}

/**
 * Steps in lanes (client, guardlab, server, or `lanes`), one a row, each
 * lane's text wrapped in its own column, the table within 80 columns (the
 * lanes equally wide unless `layout` says); with times, a column of `+ms`
 * first.
 */
export function laneTable(
  steps: readonly LaneStep[],
  lang: Lang,
  withTime = false,
  lanes: readonly ViewLane[] = LANES,
  layout?: { readonly timeW: number; readonly widths: readonly number[] },
): string[] {
  const timeW = withTime ? layout?.timeW ?? 10 : 0;
  // 80 columns: two of indent, and "| " between lanes.
  const even = Math.floor(
    (78 - timeW - 2 * (lanes.length - 1)) / lanes.length,
  );
  const width = (k: number) => layout?.widths[k] ?? even;
  const row = (cells: string[], time = "") =>
    ("  " + (withTime ? pad(time, timeW) : "") +
      cells.map((c, k) => k === cells.length - 1 ? c : pad(c, width(k)))
        .join("| ")).trimEnd();
  const lines = [
    row(lanes.map((l) => say(LANE_WORD[l], lang))),
    "  " + (withTime ? " ".repeat(timeW) : "") +
    lanes.map((_, k) => "-".repeat(width(k))).join("+-"),
  ];
  if (steps.length === 0) lines.push("  " + say(W.none, lang));
  for (const step of steps) {
    if (step.visible !== undefined) {
      const divider = say(
        step.divider ?? fill(W.visible, { count: step.visible }),
        lang,
      );
      lines.push(
        "  " + divider + "-".repeat(Math.max(0, 77 - displayWidth(divider))),
      );
    }
    const at = lanes.indexOf(step.lane);
    // Made visible before it is wrapped (as the terminal would show it
    // anyway): an escape in a recorded name then takes the room it shows in.
    const parts = wrap(inert(say(step.text, lang)), width(at) - 1, 0).map((
      l,
    ) => l.trim());
    let time = withTime && step.at_ms !== undefined ? timeText(step.at_ms) : "";
    // A time wider than its column (a session of hours) takes a line of
    // its own, so the lanes stay where the header put them.
    if (displayWidth(time) >= timeW && time !== "") {
      lines.push("  " + time);
      time = "";
    }
    parts.forEach((part, i) => {
      lines.push(
        row(lanes.map((_, k) => k === at ? part : ""), i === 0 ? time : ""),
      );
    });
  }
  return lines;
}

/** The timeline of one case as text: three lanes, one step a row. */
export function timelineLines(r: CaseResult, lang: Lang): string[] {
  return [
    ...wrap(
      say(fill(M.timelineOf, { case: r.case, tool: r.tool, key: r.key }), lang),
      WIDTH,
      2,
    ).map((l) => l.trimEnd()),
    ...laneTable(drawnSteps(r.timeline), lang),
  ];
}

const STEP_W = 200;
const STEP_H = 46;
const STEP_GAP = 12;
/** The height of one lane in an SVG. */
const LANE_H = 60;

/** Every case of `report` as one SVG: per case three lanes, steps left to right, the effect's first sighting as a red divider. */
export function acceptSvg(
  report: AcceptReport,
  lang: Lang,
  title: string,
): string {
  return lanesSvg(
    title,
    report.results.map((r) => ({
      title: fill(same("{title}: {verdict}"), {
        title: fill(M.timelineOf, { case: r.case, tool: r.tool, key: r.key }),
        verdict: r.verdict,
      }),
      steps: drawnSteps(r.timeline),
      data: `data-case="${xmlEscape(r.case)}" data-verdict="${
        xmlEscape(r.verdict)
      }"`,
    })),
    lang,
  );
}

/** The fill of a step box, by what happened there. */
function toneOf(kind: string | undefined): string {
  return kind === "withheld" || kind === "gave-up" || kind === "held" ||
      kind === "too-late"
    ? "#fbe6b8"
    : kind === "cancelled" || kind === "problem" || kind === "exited" ||
        kind === "bad" || kind === "killed"
    ? "#f8d0d0"
    : kind === "read"
    ? "#d7eef5"
    : kind === "retried"
    ? "#e8dff5"
    : "#eeeeee";
}

/** The most lines a step's box holds in an SVG; a longer text ends in "…". */
const SVG_STEP_LINES = 5;
/** The room of a box's text, in terminal columns (a CJK character is two). */
const SVG_STEP_COLUMNS = 30;

/** A step's words as its SVG box shows them: its number and time first, every line within the box. */
function boxLines(step: LaneStep, n: number, lang: Lang): string[] {
  const time = step.at_ms !== undefined ? ` +${step.at_ms}ms` : "";
  const words = `${n}.${time} ${say(step.text, lang)}`;
  const lines = wrap(words, SVG_STEP_COLUMNS, 0).map((l) => l.trim());
  return lines.length <= SVG_STEP_LINES
    ? lines
    : [...lines.slice(0, SVG_STEP_LINES - 1), lines[SVG_STEP_LINES - 1] + "…"];
}

/**
 * Blocks of lane steps as one SVG (accept's cases, or one proxy session,
 * with the agent's lane when given), and `notes` under them. Every box of
 * a block is as tall as its longest text needs, so no word is lost; the
 * line where an effect was first visible is labelled with its words.
 */
export function lanesSvg(
  title: string,
  blocks: readonly {
    title: Text;
    steps: readonly (LaneStep & { kind?: string })[];
    data?: string;
  }[],
  lang: Lang,
  lanes: readonly ViewLane[] = LANES,
  notes: readonly string[] = [],
): string {
  const longest = Math.max(1, ...blocks.map((c) => c.steps.length));
  const width = 20 + 110 + longest * (STEP_W + STEP_GAP) + 40;
  const texts = blocks.map((b) =>
    b.steps.map((s, i) => boxLines(s, i + 1, lang))
  );
  const stepH = texts.map((b) =>
    Math.max(STEP_H, 14 + 16 * Math.max(0, ...b.map((l) => l.length)))
  );
  const laneH = stepH.map((h) => h + LANE_H - STEP_H);
  const blockH = laneH.map((h) => 50 + lanes.length * h);
  const height = 60 + blockH.reduce((a, b) => a + b, 0) + 18 * notes.length;
  const parts = svgStart(title, width, height, 12);
  let top = 50;
  blocks.forEach((b, n) => {
    const laneY = (lane: ViewLane) => lanes.indexOf(lane) * laneH[n];
    parts.push(
      `<g class="case"${b.data ? ` ${b.data}` : ""}>`,
      `<text x="20" y="${top + 16}" font-weight="bold">${
        xmlEscape(say(b.title, lang))
      }</text>`,
    );
    for (const lane of lanes) {
      const y = top + 30 + laneY(lane);
      parts.push(
        `<text x="20" y="${y + 28}" font-weight="bold">${
          xmlEscape(say(LANE_WORD[lane], lang))
        }</text>`,
        `<line x1="120" y1="${y + stepH[n] / 2}" x2="${width - 20}" y2="${
          y + stepH[n] / 2
        }" stroke="#bdbdbd" stroke-width="1"/>`,
      );
    }
    b.steps.forEach((step, i) => {
      const x = 130 + i * (STEP_W + STEP_GAP);
      const y = top + 30 + laneY(step.lane);
      if (step.visible !== undefined) {
        const lx = x - STEP_GAP / 2;
        const bottom = top + 20 + lanes.length * laneH[n];
        const words = say(
          step.divider ?? fill(W.visible, { count: step.visible }),
          lang,
        ).replace(/^-+\s*/, "").trim();
        const label = wrap(words, 34, 0).map((l) => l.trim());
        parts.push(
          `<g class="effect-visible" data-count="${step.visible}">`,
          `<line x1="${lx}" y1="${
            top + 26
          }" x2="${lx}" y2="${bottom}" stroke="#b71c1c" stroke-width="4"/>`,
          ...label.slice(0, 2).map((l, j) =>
            `<text x="${lx + 4}" y="${
              bottom + 12 + 12 * j
            }" font-size="10" fill="#b71c1c">${
              xmlEscape(j === 1 && label.length > 2 ? l + "…" : l)
            }</text>`
          ),
          `</g>`,
        );
      }
      parts.push(
        `<g class="step" data-lane="${step.lane}" data-kind="${
          xmlEscape(step.kind ?? "")
        }">`,
        `<rect x="${x}" y="${y}" width="${STEP_W}" height="${
          stepH[n]
        }" rx="6" fill="${
          toneOf(step.kind)
        }" stroke="#616161" stroke-width="1"/>`,
        ...texts[n][i].map((l, j) =>
          `<text x="${x + 6}" y="${y + 18 + 16 * j}">${xmlEscape(l)}</text>`
        ),
        `</g>`,
      );
    });
    parts.push(`</g>`);
    top += blockH[n];
  });
  notes.forEach((line, i) => {
    parts.push(
      `<text x="20" y="${top + 20 + 18 * i}" xml:space="preserve">${
        xmlEscape(line)
      }</text>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n");
}

/** What the screen says about where the server came from, and the exit code. */
export interface ScreenOptions {
  /** Where the server came from. */
  readonly source: {
    /** A started server, a URL, an example run in process, or a saved report judged again. */
    readonly kind: "command" | "url" | "example" | "report";
    /** The example's name, or the report's file. */
    readonly name?: string;
  };
  /** Whether to draw each case's timeline after the matrix. */
  readonly timeline: boolean;
  /** The exit code the command returns. */
  readonly exit: number;
  /** The baseline the run was compared with (`--baseline`), and its file. */
  readonly baseline?: {
    readonly file: string;
    readonly comparison: Comparison;
  };
  /** `accept judge`: the rows whose stated verdict their history does not give. */
  readonly changed?: readonly Changed[];
}

/** The title line: which server, which version. */
export function titleText(report: AcceptReport): Text {
  return fill(M.title, {
    server: report.server.name,
    version: report.server.version,
  });
}

/** The whole text screen of `guardlab accept`. */
export function acceptScreen(
  given: AcceptReport,
  options: ScreenOptions,
  lang: Lang,
): string[] {
  const report = shownReport(given);
  // The title wrapped too: a server names itself, at any length.
  const lines = wrap(say(titleText(report), lang), WIDTH, 2).map((l) =>
    l.trimEnd()
  );
  // The notes above the matrix, each wrapped within the screen's width.
  const notes: Text[] = [
    options.source.kind === "example"
      ? fill(M.exampleNote, { name: options.source.name ?? "" })
      : options.source.kind === "report"
      ? fill(JUDGE_MESSAGES.note, {
        file: JSON.stringify(options.source.name ?? ""),
      })
      : M.grantNote,
  ];
  if (report.list_failed !== undefined) {
    notes.push(fill(M.listFailed, {
      why: report.list_failed === "no-answer"
        ? M.listNoAnswer
        : report.list_failed === "error"
        ? M.listError
        : M.listNotAList,
    }));
  }
  if (report.unlisted.length > 0) {
    notes.push(fill(M.unlisted, { tools: report.unlisted.join(", ") }));
  }
  if (report.startup_problems.length > 0) {
    const problems = problemsText({ problems: report.startup_problems });
    notes.push(fill(M.startup, { problems }));
  }
  for (const note of notes) {
    lines.push(...wrap(say(note, lang), WIDTH, 2).map((l) => l.trimEnd()));
  }
  lines.push(
    "",
    ...matrixLines(report, lang),
    "",
    say(summaryText(report), lang),
  );
  if (options.baseline !== undefined) {
    const { file, comparison } = options.baseline;
    lines.push(...baselineLines(given, comparison, file, lang));
    if (
      options.exit === 0 &&
      comparison.rows.some((r) => r.status === "excused")
    ) lines.push(say(BASELINE_MESSAGES.exitExcused, lang));
  }
  lines.push(...changedLines(options.changed ?? [], lang));
  if (options.exit === 5) lines.push(say(M.exitUnsafe, lang));
  if (options.exit === 6) lines.push(say(M.exitInconclusive, lang));
  if (options.timeline) {
    for (const r of report.results) lines.push("", ...timelineLines(r, lang));
  }
  return lines;
}
