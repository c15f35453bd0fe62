/**
 * A ledger's history without holding the ledger. With no MCP call on
 * record, the attempts drawn (the latest {@linkcode MAX_DRAWN_ATTEMPTS})
 * are worked out from facts SQLite reads a batch of keys at a time
 * (`Ledger.historyFacts`: counts, the latest receipts, and facts of their
 * keys), the same history {@linkcode historyOf} works out from every row.
 * Calls on record order the attempts by their start, which takes every
 * row: that is done for a ledger of at most {@linkcode MAX_ORDERED_ROWS}
 * rows; a larger one is drawn in receipt order, and the view says so.
 * The sessions and the compensations are read one at a time while they
 * fit in the view's bound.
 *
 * @module
 */
import type { HistoryFacts, Ledger, ReceiptRow } from "../timing/ledger.ts";
import {
  attemptOfReceipt,
  historyOf,
  type LedgerAttempt,
  type LedgerHistory,
  MAX_DRAWN_ATTEMPTS,
  type ReceiptFact,
  receiptlessAttempt,
} from "./ledger_timeline.ts";
import { boundHistory } from "./shown_history.ts";
import { timelineOf } from "./timeline.ts";
import type { ViewBudget } from "./view_bound.ts";
import type { Text } from "../base/i18n.ts";
import { LEDGER_TIMELINE_MESSAGES } from "./_messages.ts";

/**
 * The most rows (receipts, MCP calls and drafts together) whose attempts a
 * timeline puts in the order their calls started: that order takes every
 * row in memory at once. A ledger with more is drawn in receipt order.
 */
export const MAX_ORDERED_ROWS = 1 << 16;

/** What a view of a ledger's history shows, and how it was ordered. */
export interface ShownLedgerHistory {
  /** The part of the history the view's bound lets through. */
  history: LedgerHistory;
  /** Whether MCP calls on record ordered it (the reads and sessions are then part of it). */
  byCalls: boolean;
  /**
   * When there were too many rows to order by the calls
   * ({@linkcode MAX_ORDERED_ROWS}): how many calls are on record, and the
   * bound (what `--format json` says); `null` otherwise.
   */
  unordered: { calls: number; max_rows: number } | null;
  /** The line that says the attempts are in receipt order, when they are (else none). */
  order: Text[];
}

/**
 * The history of ledger `book` as far as `budget` lets it be shown (see
 * the module doc): what is held is what is shown, the facts of one batch
 * of keys, and, for a ledger ordered by its calls, its rows.
 */
export function ledgerHistory(
  book: Ledger,
  budget: ViewBudget,
): ShownLedgerHistory {
  const calls = book.countCalls();
  const rows = calls + book.countReceipts() + book.countDrafts();
  const byCalls = calls > 0 && rows <= MAX_ORDERED_ROWS;
  const whole = byCalls
    ? historyOf(
      book.receipts(),
      [...book.eachDraftKey()],
      [],
      book.calls(),
    )
    : historyFrom(book.historyFacts(MAX_DRAWN_ATTEMPTS), []);
  const bounded = boundHistory(whole, budget);
  return {
    history: {
      ...bounded,
      sessions: budget.takeFrom(
        "sessions",
        sessionsOf(book),
        book.countSessions(),
      ),
      compensations: budget.takeFrom(
        "compensations",
        book.eachCompensation(),
        book.countCompensations(),
      ),
    },
    byCalls,
    unordered: byCalls || calls === 0
      ? null
      : { calls, max_rows: MAX_ORDERED_ROWS },
    order: byCalls || calls === 0
      ? []
      : [LEDGER_TIMELINE_MESSAGES.unordered(calls, MAX_ORDERED_ROWS)],
  };
}

/** The sessions of `book`, one at a time, as a history names them. */
function* sessionsOf(
  book: Ledger,
): Generator<{ session: number; client: string }> {
  for (const s of book.eachSession()) {
    yield { session: s.session, client: s.client };
  }
}

/**
 * The {@linkcode HistoryFacts} of `receipts` (in receipt order) for a
 * ledger of `drafts`, worked out here from every row: what
 * `Ledger.historyFacts` reads with SQLite a batch of keys at a time.
 */
export function summaryOf(
  receipts: Iterable<ReceiptRow | ReceiptFact>,
  drafts: readonly string[],
  last: number = MAX_DRAWN_ATTEMPTS,
): HistoryFacts {
  const named = new Set<string>();
  const first = new Map<string, number>();
  const committed = new Set<string>();
  const all: (ReceiptRow | ReceiptFact)[] = [];
  for (const r of receipts) {
    if (r.job !== null) {
      named.add(r.job);
      if (!first.has(r.job)) first.set(r.job, r.attempt);
      if (r.events.includes("effect_committed")) committed.add(r.job);
    }
    all.push(r);
  }
  const missing = drafts.filter((j) => !committed.has(j));
  const latest = all.slice(-last).map((r) => ({ ...r, events: [...r.events] }));
  const drafted = new Set(drafts);
  const firstAttempt = new Map<string, number>();
  for (const r of latest) {
    const job = r.job;
    if (job !== null && drafted.has(job) && !committed.has(job)) {
      firstAttempt.set(job, first.get(job)!);
    }
  }
  return {
    count: all.length,
    missing: missing.length,
    trailing: missing.filter((j) => !named.has(j)).sort().slice(-last),
    latest,
    firstAttempt,
  };
}

/**
 * {@linkcode historyOf} for a ledger with no MCP call on record, from the
 * facts of its rows (`Ledger.historyFacts`, read by SQLite): counts, the
 * last drafts no receipt names, the latest receipts and facts of their
 * keys, never the whole ledger. The history is the one `historyOf` works
 * out from every row (`tests/views/history_stream_test.ts` holds the two
 * together).
 */
export function historyFrom(
  facts: HistoryFacts,
  compensations: { job: string; state: string; receipts: number }[],
  sessions: readonly { session: number; client: string }[] = [],
): LedgerHistory {
  const { count, missing, trailing, latest, firstAttempt } = facts;
  // Drafts with no receipt at all come last, by key; before them, each
  // receipt, with a receipt-less attempt before the first of its key.
  const drawn: LedgerAttempt[] = trailing.slice(-MAX_DRAWN_ATTEMPTS).map((
    job,
  ) => ({ receipt: null, job, status: null, ...receiptlessAttempt(job) }));
  const before: LedgerAttempt[] = [];
  const room = () => before.length + drawn.length < MAX_DRAWN_ATTEMPTS;
  for (let i = latest.length - 1; i >= 0 && room(); i--) {
    const r = latest[i];
    const attempt = attemptOfReceipt(r);
    before.push({
      receipt: r.attempt,
      job: r.job,
      status: r.status,
      attempt,
      timeline: timelineOf(attempt),
    });
    const job = r.job;
    if (job !== null && firstAttempt.get(job) === r.attempt && room()) {
      before.push({
        receipt: null,
        job,
        status: null,
        ...receiptlessAttempt(job),
      });
    }
  }
  return {
    attempts: [...before.reverse(), ...drawn],
    reads: [],
    sessions: sessions.map((s) => ({ session: s.session, client: s.client })),
    omitted: Math.max(0, count + missing - MAX_DRAWN_ATTEMPTS),
    compensations,
  };
}
