/**
 * The timeline view of one attempt: each stage in order with its mark, the
 * commit point between business and output check, and what the ledger and
 * the caller hold afterwards. A mark sits on the stage where the event
 * happened: a cancel or failure between two stages gets a row of its own
 * ("before business", "after commit"), never the next stage's.
 *
 * @module
 */
import type { Attempt } from "../timing/attempt.ts";
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import { ruleOf, RULES } from "../timing/messages.ts";
import { STATUSES } from "../timing/stages.ts";
import type { CommitState, Mark, StageId } from "./_marks.ts";
import {
  AGENT_INPUT_LABEL,
  COMMIT_TEXT,
  MARK_LABEL,
  STAGE_LABEL,
  STAGE_NOTES,
  STATE_TEXTS,
  TIMELINE_MESSAGES,
} from "./_messages.ts";

/** The statuses guardlab writes on a receipt: a result's, or a cancel. */
const RECEIPT_STATUSES: ReadonlySet<string> = new Set([
  ...STATUSES,
  "cancelled",
]);

/** One row of the timeline. */
export interface StageRow {
  /** Which stage. */
  stage: StageId;
  /** What happened there. */
  mark: Mark;
  /** Why, or what it means, when there is something to say. */
  note: Text | null;
  /** A label in place of the stage's own, when the stage plays another part. */
  label?: Text;
}

/** The whole view of one attempt. */
export interface Timeline {
  /** Stages before the commit point. */
  before: StageRow[];
  /** What the commit point saw. */
  commit: CommitState;
  /** Stages after the commit point (a gap row, output check, receipt). */
  after: StageRow[];
  /** Ledger and caller state after the attempt. */
  state: { draft: boolean; receipt: Text; caller: Text };
}

/** The label a row is shown with. */
export function stageLabel(row: StageRow): Text {
  return row.label ?? STAGE_LABEL[row.stage];
}

/** A check's mark: passed, refused, or never reached. */
function checkMark(passed: boolean, refused: boolean): Mark {
  return passed ? "passed" : refused ? "refused" : "not reached";
}

function ruleNote(refusal: string | undefined): Text | null {
  return (refusal !== undefined && ruleOf(refusal)) || null;
}

/**
 * Build the timeline of `attempt`.
 *
 * Long: it is the timeline, stage by stage in the order `Lab.run` runs them
 * (arguments, input check, the commit point, output check, receipt), each
 * mark placed on the stage where it happened; split, a reader would lose
 * that order, which is the lesson.
 */
export function timelineOf(attempt: Attempt): Timeline {
  const seen = new Set<string>(attempt.events);
  const { outcome, stoppedAt } = attempt;
  const status = outcome.kind === "result" ? outcome.status : undefined;
  const cancelled = outcome.kind === "raised" &&
    (outcome.raised === "cancelled" || outcome.cause === "cancelled");
  // What happened where the attempt stopped, if a fault stopped it.
  const stopMark: Mark = cancelled ? "cancelled" : "failed";
  const before: StageRow[] = [];
  const after: StageRow[] = [];
  // A check that said no, then a receipt that failed to write: the call
  // raised audit_unavailable, yet the refusal happened where it happened,
  // at the last stage the events reached, and its mark stays there.
  const refusedUnrecorded = outcome.kind === "raised" &&
    attempt.refusal !== undefined;
  const refusedAs = (...statuses: string[]) =>
    refusedUnrecorded || statuses.includes(status ?? "");

  const argsRefused = refusedAs("input_rejected") &&
    !seen.has("arguments_valid");
  before.push({
    stage: "arguments",
    mark: checkMark(seen.has("arguments_valid"), argsRefused),
    note: argsRefused ? ruleNote(attempt.refusal) : null,
  });
  const parallel = attempt.inputGuardrail === "parallel";
  const inputRefused = refusedAs("input_rejected") &&
    seen.has("arguments_valid") && !seen.has("input_allowed");
  before.push(
    parallel && seen.has("arguments_valid")
      ? {
        stage: "input",
        label: AGENT_INPUT_LABEL,
        mark: "in parallel",
        note: STAGE_NOTES.parallelInput,
      }
      : {
        stage: "input",
        mark: checkMark(seen.has("input_allowed"), inputRefused),
        note: inputRefused ? ruleNote(attempt.refusal) : null,
      },
  );
  if (stoppedAt === "before_business") {
    before.push({
      stage: "before_business",
      mark: stopMark,
      note: cancelled
        ? STAGE_NOTES.cancelBeforeBusiness
        : STAGE_NOTES.errorBeforeBusiness,
    });
  }
  const committed = seen.has("effect_committed");
  const reused = seen.has("effect_reused");
  const businessMark: Mark = committed || reused
    ? "passed"
    : !seen.has("business_started")
    ? "not reached"
    : refusedAs("key_conflict", "key_voided")
    ? "refused"
    : "failed";
  before.push({
    stage: "business",
    mark: businessMark,
    note: committed
      ? STAGE_NOTES.committed
      : reused
      ? STAGE_NOTES.reused
      : businessMark === "refused"
      ? (status === "key_voided" || attempt.refusal === "key_voided"
        ? RULES.key_voided
        : RULES.same_key_different_arguments)
      : businessMark === "failed"
      ? STAGE_NOTES.rolledBack
      : null,
  });

  if (parallel && seen.has("arguments_valid")) {
    const late = seen.has("input_tripwire");
    after.push({
      stage: "input_verdict",
      // A tripwire outranks an allowed verdict a ledger may also claim.
      mark: late ? "refused" : checkMark(seen.has("input_allowed"), false),
      note: late
        ? STAGE_NOTES.tripwireAfterCommit(
          ruleNote(attempt.refusal) ?? RULES.batch_limit,
        )
        : seen.has("input_allowed")
        ? STAGE_NOTES.allowedAfterCommit
        : null,
    });
  }
  if (stoppedAt === "after_commit" || stoppedAt === "after_business") {
    after.push({
      stage: "after_commit",
      mark: stopMark,
      note: cancelled
        ? STAGE_NOTES.cancelAfterCommit
        : STAGE_NOTES.errorAfterCommit,
    });
  }
  const outputMark: Mark = seen.has("output_allowed")
    ? "passed"
    : !seen.has("output_started")
    ? "not reached"
    : refusedAs("output_rejected")
    ? "refused"
    : stoppedAt === "output_check"
    ? stopMark
    : "failed";
  after.push({
    stage: "output",
    mark: outputMark,
    note: outputMark === "refused"
      ? ruleNote(attempt.refusal)
      : outputMark === "cancelled"
      ? STAGE_NOTES.cancelDuringCheck
      : outputMark === "failed"
      ? STAGE_NOTES.checkFailed
      : null,
  });

  const lied = attempt.receiptRowsInserted === 0;
  const receipt: Text = attempt.receiptAttempt === null
    ? STATE_TEXTS.noReceipt
    : lied
    ? STATE_TEXTS.claimedReceipt(attempt.receiptAttempt)
    : STATE_TEXTS.receipt(attempt.receiptAttempt, attempt.receiptStatus);
  after.push({
    stage: "receipt",
    // A status guardlab never writes (a ledger from someone else) says
    // nothing about how the call went: unknown, never passed.
    mark: attempt.receiptAttempt === null || lied
      ? "failed"
      : RECEIPT_STATUSES.has(attempt.receiptStatus ?? "")
      ? "passed"
      : "unknown",
    note: lied
      ? STAGE_NOTES.claimedNoRows(attempt.receiptAttempt)
      : attempt.receiptAttempt !== null
      ? STAGE_NOTES.written(attempt.receiptAttempt, attempt.receiptStatus)
      : cancelled
      ? STAGE_NOTES.receiptFailedWhileCancelling
      : STAGE_NOTES.receiptFailed,
  });

  const caller: Text = outcome.kind === "raised"
    ? outcome.cause === "cancelled"
      ? STATE_TEXTS.raisedWhileCancelling(outcome.raised)
      : STATE_TEXTS.raised(outcome.raised)
    : outcome.released === null
    ? STATE_TEXTS.noValue(outcome.status)
    : STATE_TEXTS.checkedValue;

  return {
    before,
    commit: committed ? "committed" : reused ? "reused" : "not reached",
    after,
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
      : mark === "not reached" || mark === "unknown"
      ? 90
      : mark === "cancelled"
      ? 33
      : mark === "in parallel"
      ? 36
      : 31;
    return `\x1b[${code}m${text}\x1b[0m`;
  },
  divider: (t) => `\x1b[1m${t}\x1b[0m`,
};

/** The symbol of each mark, the same in both languages. */
export const SYMBOL: Readonly<Record<Mark, string>> = {
  "passed": "[ok]",
  "refused": "[no]",
  "failed": "[!!]",
  "cancelled": "[xx]",
  "in parallel": "[..]",
  "not reached": "[ ]",
  "unknown": "[??]",
};

/** The column where a row's note starts. */
const NOTE_AT = 2 + 16 + 1 + 18;

/** `text` padded with spaces to `width` terminal columns. */
function padTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Render `timeline` in `lang` as lines no wider than 80 columns. */
export function renderTimeline(
  timeline: Timeline,
  style: Style = PLAIN,
  lang: Lang = "en",
): string[] {
  const row = (r: StageRow): string[] => {
    const word = say(MARK_LABEL[r.mark], lang);
    const label = `${SYMBOL[r.mark].padEnd(4)} ${word}`;
    const head = `  ${padTo(say(stageLabel(r), lang), 16)} `;
    if (r.note === null) return [head + style.mark(r.mark, label)];
    // Pad outside the colour codes, so coloured and plain text line up alike;
    // the note wraps in its own column.
    const gap = " ".repeat(Math.max(1, 18 - displayWidth(label)));
    const [first, ...rest] = wrap(say(r.note, lang), 80 - NOTE_AT, 0)
      .map((l) => l.trim());
    return [
      head + style.mark(r.mark, label) + gap + first,
      ...rest.map((l) => " ".repeat(NOTE_AT) + l),
    ];
  };
  const divider = `--- ${say(COMMIT_TEXT[timeline.commit], lang)} `;
  const state = timeline.state;
  return [
    ...timeline.before.flatMap(row),
    "  " +
    style.divider(
      divider + "-".repeat(Math.max(0, 76 - displayWidth(divider))),
    ),
    ...timeline.after.flatMap(row),
    say(
      fill(
        state.draft
          ? TIMELINE_MESSAGES.ledgerDraft
          : TIMELINE_MESSAGES.ledgerNoDraft,
        { receipt: state.receipt },
      ),
      lang,
    ),
    say(fill(TIMELINE_MESSAGES.caller, { caller: state.caller }), lang),
  ];
}
