/**
 * The timeline view of one attempt: each stage in order with its mark, the
 * commit point between business and output check, and what the ledger and
 * the caller hold afterwards.
 *
 * @module
 */
import type { EventName } from "../timing/stages.ts";

/** How an attempt ended for the caller. */
export type Outcome =
  | { kind: "result"; status: string; released: unknown }
  | { kind: "raised"; raised: string; message: string; cause?: string };

/** The mark of one stage. */
export type Mark =
  | "passed"
  | "refused"
  | "failed"
  | "cancelled"
  | "not reached";

/** One row of the timeline. */
export interface StageRow {
  /** Stage label. */
  stage: string;
  /** What happened there. */
  mark: Mark;
  /** A short note (e.g. `new draft`, `reused draft`). */
  note: string;
}

/** The whole view of one attempt. */
export interface Timeline {
  /** Stages before the commit point. */
  before: StageRow[];
  /** What the commit point saw. */
  commit: string;
  /** Stages after the commit point (output check, receipt). */
  after: StageRow[];
  /** Ledger and caller state after the attempt. */
  state: { draft: boolean; receipt: string; caller: string };
}

/** What a run produced, in the shape both `run` and `script` print. */
export interface Attempt {
  /** Events the attempt reached (for a raised run, as far as they are known). */
  events: readonly EventName[] | readonly string[];
  /** How it ended. */
  outcome: Outcome;
  /** Whether the draft exists after the attempt. */
  draftExists: boolean;
  /** Receipt attempt number, or null when none was written. */
  receiptAttempt: number | null;
  /** Receipt status, when one was written. */
  receiptStatus?: string;
}

const STOP_MARK: Record<string, Mark> = {
  input_rejected: "refused",
  output_rejected: "refused",
  key_conflict: "refused",
  error: "failed",
  cancelled: "cancelled",
  audit_unavailable: "failed",
  database_error: "failed",
};

/** Build the timeline of `attempt`. */
export function timelineOf(attempt: Attempt): Timeline {
  const seen = new Set<string>(attempt.events);
  const stop = attempt.outcome.kind === "result"
    ? attempt.outcome.status
    : attempt.outcome.raised;
  const passed = [
    seen.has("arguments_valid"),
    seen.has("input_allowed"),
    seen.has("effect_committed") || seen.has("effect_reused"),
    seen.has("output_allowed"),
  ];
  const firstOpen = passed.indexOf(false);
  const markAt = (i: number): Mark => {
    if (passed[i]) return "passed";
    if (i === firstOpen) return STOP_MARK[stop] ?? "failed";
    return "not reached";
  };
  const businessNote = seen.has("effect_committed")
    ? "new draft committed"
    : seen.has("effect_reused")
    ? "existing draft reused"
    : seen.has("business_started")
    ? "transaction rolled back or refused"
    : "";
  const commit = seen.has("effect_committed")
    ? "draft committed; no later check can undo it"
    : seen.has("effect_reused")
    ? "draft already there; this attempt wrote none"
    : "not reached; this attempt wrote no draft";
  const receipt = attempt.receiptAttempt === null
    ? "not written"
    : `#${attempt.receiptAttempt} ${attempt.receiptStatus ?? stop}`;
  const caller = attempt.outcome.kind === "raised"
    ? `an exception (${attempt.outcome.raised})`
    : attempt.outcome.released === null
    ? `no value (status ${attempt.outcome.status})`
    : "the checked value";
  return {
    before: [
      { stage: "arguments valid", mark: markAt(0), note: "" },
      { stage: "input check", mark: markAt(1), note: "" },
      { stage: "business", mark: markAt(2), note: businessNote },
    ],
    commit,
    after: [
      { stage: "output check", mark: markAt(3), note: "" },
      {
        stage: "receipt",
        mark: attempt.receiptAttempt === null ? "failed" : "passed",
        note: receipt,
      },
    ],
    state: { draft: attempt.draftExists, receipt, caller },
  };
}

/** Styling hooks for {@linkcode renderTimeline}; identity functions give plain text. */
export interface Style {
  /** Style a mark. */
  mark(mark: Mark, text: string): string;
  /** Style the commit divider. */
  divider(text: string): string;
}

/** Plain text, for pipes and `NO_COLOR`. */
export const PLAIN: Style = { mark: (_m, t) => t, divider: (t) => t };

/** ANSI colours for a terminal. */
export const ANSI: Style = {
  mark(mark, text) {
    const code = mark === "passed"
      ? 32
      : mark === "not reached"
      ? 90
      : mark === "cancelled"
      ? 33
      : 31;
    return `\x1b[${code}m${text}\x1b[0m`;
  },
  divider: (t) => `\x1b[1m${t}\x1b[0m`,
};

const SYMBOL: Record<Mark, string> = {
  "passed": "[ok]",
  "refused": "[no]",
  "failed": "[!!]",
  "cancelled": "[xx]",
  "not reached": "[ ]",
};

/** Render `timeline` as lines no wider than 80 columns. */
export function renderTimeline(
  timeline: Timeline,
  style: Style = PLAIN,
): string[] {
  const row = (r: StageRow) => {
    const label = `${SYMBOL[r.mark].padEnd(4)} ${r.mark}`;
    // Pad outside the colour codes, so coloured and plain text line up alike.
    const pad = r.note ? " ".repeat(16 - label.length) + "  " + r.note : "";
    return `  ${r.stage.padEnd(16)} ${style.mark(r.mark, label)}${pad}`;
  };
  return [
    ...timeline.before.map(row),
    "  " +
    style.divider(`--- commit point: ${timeline.commit} `.padEnd(76, "-")),
    ...timeline.after.map(row),
    `  ledger: draft ${
      timeline.state.draft ? "present" : "absent"
    }, receipt ${timeline.state.receipt}`,
    `  caller received: ${timeline.state.caller}`,
  ];
}
