/**
 * What a ledger says happened, attempt by attempt: the timeline of every
 * receipt in order, each with its stage marks and what the commit point saw
 * (committed, reused, not reached), drawn from the receipts alone. A draft
 * whose committing attempt left no receipt (a killed process, a failed
 * audit, a naive receipt that claimed a row it never wrote) is an attempt
 * too, and is drawn as one: hiding it would hide exactly what reconcile is
 * for. Used by `guardlab ledger --timeline`, e.g. after an agent's session
 * over `guardlab mcp`.
 *
 * @module
 */
import { type Lang, say, type Text } from "../base/i18n.ts";
import type { Attempt } from "../timing/attempt.ts";
import type { StopPoint } from "../timing/stages.ts";
import { wrap } from "../base/terminal.ts";
import {
  COMMIT_SHORT,
  LEDGER_TIMELINE_MESSAGES,
  MARK_LABEL,
  SHORT_STAGE_LABEL,
  STAGE_LABEL,
  STATE_TEXTS,
} from "./messages.ts";
import { textCost, type ViewBudget } from "./view_bound.ts";
import {
  PLAIN,
  type StageRow,
  type Style,
  SYMBOL,
  type Timeline,
  timelineOf,
} from "./timeline.ts";

/** At most this many attempts are drawn (the latest); the rest are counted. */
export const MAX_DRAWN_ATTEMPTS = 500;

/** One receipt row as the ledger holds it. */
export interface ReceiptFact {
  /** Attempt number. */
  attempt: number;
  /** Business key, or null. */
  job: string | null;
  /** Recorded status. */
  status: string;
  /** Whether the draft existed when the receipt was written. */
  effect_exists: boolean;
  /** The events up to the receipt. */
  events: readonly string[];
}

/** One attempt on the ledger's timeline. */
export interface LedgerAttempt {
  /** The receipt's number, or null for a draft whose attempt left none. */
  receipt: number | null;
  /** Business key. */
  job: string | null;
  /** The receipt's status, or null when there is none. */
  status: string | null;
  /** The attempt, as the timeline view needs it. */
  attempt: Attempt;
  /** The stages, the commit point and what the ledger held afterwards. */
  timeline: Timeline;
}

/** The whole history of one ledger. */
export interface LedgerHistory {
  /** Attempts in order: by receipt number, each receipt-less one before the first receipt of its key. */
  attempts: LedgerAttempt[];
  /** Attempts older than the ones drawn. */
  omitted: number;
  /** Compensations, by key. */
  compensations: { job: string; state: string; receipts: number }[];
}

function indexOf(events: readonly string[], name: string): number {
  return events.indexOf(name);
}

/** Where an attempt that was cancelled or failed stopped, read from its events. */
function stopPointOf(events: readonly string[]): StopPoint | undefined {
  if (events.includes("output_started")) return "output_check";
  if (events.includes("effect_committed") || events.includes("effect_reused")) {
    return "after_business";
  }
  if (events.includes("business_started")) return "inside_transaction";
  if (events.includes("arguments_valid")) return "before_business";
  return undefined;
}

/** The attempt a receipt records. */
export function attemptOfReceipt(r: ReceiptFact): Attempt {
  const events = r.events;
  const business = indexOf(events, "business_started");
  const parallel = events.includes("input_tripwire") ||
    (business >= 0 && indexOf(events, "input_allowed") > business);
  const stopped = r.status === "cancelled" || r.status === "error";
  const stoppedAt = stopped ? stopPointOf(events) : undefined;
  return {
    events,
    outcome: r.status === "cancelled"
      ? { kind: "raised", raised: "cancelled", message: "" }
      : {
        kind: "result",
        status: r.status,
        // Only an accepted result released a value; the receipt does not keep it.
        released: r.status === "accepted" ? {} : null,
      },
    draftExists: r.effect_exists,
    receiptAttempt: r.attempt,
    receiptStatus: r.status,
    ...(stoppedAt ? { stoppedAt } : {}),
    // The one rule a status names by itself (an input rejection does not
    // say which rule; the receipt keeps only the status).
    ...(r.status === "output_rejected" ? { refusal: "output_contract" } : {}),
    ...(parallel ? { inputGuardrail: "parallel" as const } : {}),
  };
}

/** The attempt that committed `job`'s draft and left no receipt. */
function receiptlessAttempt(
  job: string,
): { attempt: Attempt; timeline: Timeline } {
  const events = [
    "arguments_valid",
    "business_started",
    "effect_committed",
  ];
  const attempt: Attempt = {
    events,
    outcome: { kind: "raised", raised: "no_receipt", message: "" },
    draftExists: true,
    receiptAttempt: null,
  };
  const row = (
    stage: StageRow["stage"],
    mark: StageRow["mark"],
    note: Text | null,
  ): StageRow => ({ stage, mark, note });
  const timeline: Timeline = {
    before: [
      row("arguments", "passed", LEDGER_TIMELINE_MESSAGES.validArguments(job)),
      row("input", "unknown", LEDGER_TIMELINE_MESSAGES.unknownInput),
      row("business", "passed", LEDGER_TIMELINE_MESSAGES.draftRowExists),
    ],
    commit: "committed",
    after: [
      row("output", "unknown", LEDGER_TIMELINE_MESSAGES.unknownInput),
      row("receipt", "failed", LEDGER_TIMELINE_MESSAGES.receiptMissing),
    ],
    state: {
      draft: true,
      receipt: STATE_TEXTS.noReceipt,
      caller: STATE_TEXTS.unknownCaller,
    },
  };
  return { attempt, timeline };
}

/**
 * The history of a ledger from its rows: every receipt as an attempt, in
 * order, and for each draft that no receipt shows being committed, one
 * attempt without a receipt, placed before the first receipt of its key
 * (the commit came before any reuse).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyOf } from "./ledger_timeline.ts";
 * const h = historyOf(
 *   [{ attempt: 1, job: "JOB-001", status: "accepted", effect_exists: true,
 *      events: ["arguments_valid", "input_allowed", "business_started",
 *               "effect_reused", "output_started", "output_allowed"] }],
 *   ["JOB-001"],
 *   [],
 * );
 * // The draft was committed by an attempt that left no receipt.
 * assert.deepEqual(h.attempts.map((a) => a.receipt), [null, 1]);
 * ```
 */
export function historyOf(
  receipts: readonly ReceiptFact[],
  draftJobs: readonly string[],
  compensations: { job: string; state: string; receipts: number }[],
): LedgerHistory {
  const committedOnRecord = new Set(
    receipts.filter((r) =>
      r.job !== null && r.events.includes("effect_committed")
    )
      .map((r) => r.job!),
  );
  const missing = new Set(draftJobs.filter((j) => !committedOnRecord.has(j)));
  const all: LedgerAttempt[] = [];
  const placed = new Set<string>();
  const placeMissing = (job: string) => {
    if (!missing.has(job) || placed.has(job)) return;
    placed.add(job);
    all.push({ receipt: null, job, status: null, ...receiptlessAttempt(job) });
  };
  for (const r of receipts) {
    if (r.job !== null) placeMissing(r.job);
    const attempt = attemptOfReceipt(r);
    all.push({
      receipt: r.attempt,
      job: r.job,
      status: r.status,
      attempt,
      timeline: timelineOf(attempt),
    });
  }
  // Drafts with no receipt at all: their order is unknown, so last.
  for (const job of [...missing].sort()) placeMissing(job);
  const omitted = Math.max(0, all.length - MAX_DRAWN_ATTEMPTS);
  return { attempts: all.slice(omitted), omitted, compensations };
}

/**
 * The part of `h` a view shows within `budget`: the latest attempts whose
 * key and status (counted twice, as they are drawn) fit (the older ones of those drawn are left out and
 * counted), then the compensations that fit.
 */
export function boundHistory(
  h: LedgerHistory,
  budget: ViewBudget,
): LedgerHistory {
  const latestFirst = h.attempts.toReversed();
  const kept = budget.take(
    "attempts",
    latestFirst,
    // The key and the status are drawn twice at most: in the attempt's
    // title, and in a note or its state line.
    (a, limit) => 2 * textCost([a.job, a.status], limit),
  );
  return {
    attempts: kept.reverse(),
    omitted: h.omitted,
    compensations: budget.take("compensations", h.compensations),
  };
}

/**
 * `h` with every stored string passed through `show` (`inert` for text and
 * SVG), each attempt's timeline drawn again from the shown words. The
 * history is worked out from the stored strings first (which draft a
 * receipt records is a question about the stored keys, not the shown ones),
 * and only what is drawn is shown: a view never makes a whole ledger inert.
 * The stages are read from the events as stored, which no view prints.
 */
export function shownHistory(
  h: LedgerHistory,
  show: (text: string) => string,
): LedgerHistory {
  return {
    attempts: h.attempts.map((a): LedgerAttempt => {
      const job = a.job === null ? null : show(a.job);
      if (a.receipt === null || a.status === null) {
        return {
          receipt: null,
          job,
          status: null,
          ...receiptlessAttempt(job!),
        };
      }
      const status = show(a.status);
      const attempt = attemptOfReceipt({
        attempt: a.receipt,
        job,
        status,
        effect_exists: a.attempt.draftExists,
        events: a.attempt.events,
      });
      return {
        receipt: a.receipt,
        job,
        status,
        attempt,
        timeline: timelineOf(attempt),
      };
    }),
    omitted: h.omitted,
    compensations: h.compensations.map((c) => ({
      ...c,
      job: show(c.job),
      state: show(c.state),
    })),
  };
}

/** The heading of one attempt: its receipt, key, status and what the commit point saw. */
export function attemptTitle(a: LedgerAttempt, lang: Lang): string {
  const job = a.job ?? say(LEDGER_TIMELINE_MESSAGES.noJob, lang);
  const commit = COMMIT_SHORT[a.timeline.commit];
  if (a.receipt === null) {
    return say(LEDGER_TIMELINE_MESSAGES.noReceiptTitle(job, commit), lang);
  }
  return `#${a.receipt}  ${job}  ${a.status}  ${say(commit, lang)}`;
}

/** The marks of one attempt on one line (wrapped within 80 columns), the commit point as `|`. */
function marksLine(t: Timeline, style: Style, lang: Lang): string[] {
  const mark = (r: StageRow) =>
    `${say(SHORT_STAGE_LABEL[r.stage], lang)} ${
      style.mark(r.mark, SYMBOL[r.mark])
    }`;
  const line = `    ${t.before.map(mark).join(" > ")} ${style.divider("|")} ${
    t.after.map(mark).join(" > ")
  }`;
  return wrap(line, 80);
}

/** The notes of one attempt worth reading (a refusal, a cancel after commit, a missing receipt). */
function notesOf(t: Timeline, lang: Lang): string[] {
  return [...t.before, ...t.after]
    .filter((r) => r.note !== null && r.mark !== "passed")
    .flatMap((r) =>
      wrap(
        say(
          LEDGER_TIMELINE_MESSAGES.note(
            STAGE_LABEL[r.stage],
            MARK_LABEL[r.mark],
            r.note!,
          ),
          lang,
        ),
        80,
      )
    );
}

/** The history as lines of text, in `lang`, at most 80 columns wide. */
export function renderHistory(
  h: LedgerHistory,
  style: Style = PLAIN,
  lang: Lang = "en",
): string[] {
  const lines: string[] = [];
  const receipts = h.attempts.filter((a) => a.receipt !== null).length;
  const without = h.attempts.length - receipts;
  lines.push(...wrap(
    say(
      LEDGER_TIMELINE_MESSAGES.attemptsInOrder(
        h.attempts.length,
        receipts,
        without,
      ),
      lang,
    ),
    80,
  ));
  // The legend, from the same tables the marks come from.
  const legend = (marks: readonly (keyof typeof SYMBOL)[]) =>
    marks.map((m) => `${SYMBOL[m]} ${say(MARK_LABEL[m], lang)}`).join("  ");
  lines.push(
    `  | ${say(LEDGER_TIMELINE_MESSAGES.commitPoint, lang)}  ${
      legend(["passed", "refused", "failed", "cancelled"])
    }`,
    `  ${legend(["in parallel", "not reached", "unknown"])}`,
  );
  if (h.omitted > 0) {
    lines.push(say(LEDGER_TIMELINE_MESSAGES.omitted(h.omitted), lang));
  }
  for (const a of h.attempts) {
    lines.push(...wrap(attemptTitle(a, lang), 80));
    lines.push(...marksLine(a.timeline, style, lang));
    lines.push(...notesOf(a.timeline, lang));
  }
  for (const c of h.compensations) {
    lines.push(say(
      c.state === "voided"
        ? LEDGER_TIMELINE_MESSAGES.compensationVoided(c.job, c.receipts > 0)
        : LEDGER_TIMELINE_MESSAGES.compensationRequested(c.job),
      lang,
    ));
  }
  return lines;
}
