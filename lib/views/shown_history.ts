/**
 * What of a ledger's history a view draws, and how: the part that fits in
 * a view's bound (`view_bound.ts`), with every stored string shown inert.
 * The history itself is worked out from the stored rows first
 * (`ledger_timeline.ts`); only what is drawn is shown.
 *
 * @module
 */
import {
  attemptOfReceipt,
  type CallPlace,
  type LedgerAttempt,
  type LedgerHistory,
  receiptlessAttempt,
} from "./ledger_timeline.ts";
import { timelineOf } from "./timeline.ts";
import { textCost, type ViewBudget } from "./view_bound.ts";

/**
 * The part of `h` a view shows within `budget`: the latest attempts whose
 * key, status (each counted twice, as they are drawn) and call fit, the
 * older ones of those drawn left out and counted; then the other calls
 * among the attempts kept, the sessions and the compensations that fit
 * (`ledger_history.ts` reads a ledger's own one at a time instead).
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
    (a, limit) =>
      2 * textCost([a.job, a.status], limit) + textCost(a.by ?? null, limit),
  ).reverse();
  const dropped = h.attempts.length - kept.length;
  const reads = budget.take(
    "calls",
    h.reads.filter((r) => r.after >= dropped),
  ).map((r) => ({ ...r, after: r.after - dropped }));
  return {
    attempts: kept,
    reads,
    sessions: budget.take("sessions", h.sessions),
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
  const place = (by: CallPlace): CallPlace => ({
    ...by,
    overlaps: by.overlaps.map((o) => ({ ...o, tool: show(o.tool) })),
  });
  return {
    attempts: h.attempts.map((a): LedgerAttempt => {
      const job = a.job === null ? null : show(a.job);
      const by = a.by === undefined ? {} : { by: place(a.by) };
      if (a.receipt === null || a.status === null) {
        return {
          receipt: null,
          job,
          status: null,
          ...receiptlessAttempt(job!),
          ...by,
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
        ...by,
      };
    }),
    reads: h.reads.map((r) => ({
      ...r,
      tool: show(r.tool),
      job: r.job === null ? null : show(r.job),
      by: place(r.by),
    })),
    sessions: h.sessions.map((s) => ({ ...s, client: show(s.client) })),
    omitted: h.omitted,
    compensations: h.compensations.map((c) => ({
      ...c,
      job: show(c.job),
      state: show(c.state),
    })),
  };
}
