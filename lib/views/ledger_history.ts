/**
 * A ledger's history without holding the ledger: when no MCP call is on
 * record, the attempts drawn (the latest {@linkcode MAX_DRAWN_ATTEMPTS})
 * are worked out from a summary of the receipts that SQLite reads
 * (`Ledger.receiptSummary`: one fact per key and the latest receipts), the
 * same history {@linkcode historyOf} works out from every row; calls on
 * record order the attempts by their start, which takes every row.
 *
 * @module
 */
import type { Ledger } from "../timing/ledger.ts";
import {
  attemptOfReceipt,
  historyOf,
  type LedgerAttempt,
  type LedgerHistory,
  MAX_DRAWN_ATTEMPTS,
  type ReceiptFact,
  receiptlessAttempt,
} from "./ledger_timeline.ts";
import { timelineOf } from "./timeline.ts";

/**
 * The history of ledger `book`, and whether MCP calls on record ordered
 * it (then the reads among the attempts and the sessions are part of it).
 */
export function ledgerHistory(
  book: Ledger,
): { history: LedgerHistory; byCalls: boolean } {
  const drafts = [...book.eachDraft()].map((d) => d.job);
  const voids = book.compensations();
  const sessions = book.sessions();
  const calls = book.calls();
  return calls.length === 0
    ? {
      history: historyFrom(
        book.receiptSummary(MAX_DRAWN_ATTEMPTS, drafts),
        drafts,
        voids,
        sessions,
      ),
      byCalls: false,
    }
    : {
      history: historyOf(book.receipts(), drafts, voids, calls, sessions),
      byCalls: true,
    };
}

/**
 * What {@linkcode historyFrom} needs of a ledger's receipts: how many there
 * are, the keys whose draft some receipt shows committed, the first receipt
 * number of each draft's key that none does, and the latest receipts (at
 * least {@linkcode MAX_DRAWN_ATTEMPTS} of them, or all), oldest first.
 */
export interface ReceiptSummary {
  /** How many receipts there are. */
  count: number;
  /** The first receipt number of each draft's key that no receipt shows committed. */
  firstAttempt: ReadonlyMap<string, number>;
  /** The keys some receipt's events show committing their draft. */
  committedOnRecord: ReadonlySet<string>;
  /** The latest receipts, oldest first. */
  latest: readonly ReceiptFact[];
}

/**
 * The {@linkcode ReceiptSummary} of `receipts` (in receipt order) for a
 * ledger of `drafts`, worked out here from every row.
 */
export function summaryOf(
  receipts: Iterable<ReceiptFact>,
  drafts: readonly string[],
): ReceiptSummary {
  const first = new Map<string, number>();
  const committedOnRecord = new Set<string>();
  const latest: ReceiptFact[] = [];
  let count = 0;
  for (const r of receipts) {
    if (r.job !== null) {
      if (!first.has(r.job)) first.set(r.job, r.attempt);
      if (r.events.includes("effect_committed")) committedOnRecord.add(r.job);
    }
    latest.push(r);
    if (latest.length > MAX_DRAWN_ATTEMPTS) latest.shift();
    count++;
  }
  const firstAttempt = new Map(
    drafts.filter((j) => !committedOnRecord.has(j) && first.has(j))
      .map((j) => [j, first.get(j)!]),
  );
  return { count, firstAttempt, committedOnRecord, latest };
}

/**
 * {@linkcode historyOf} for a ledger with no MCP call on record, from the
 * summary of its receipts (`Ledger.receiptSummary`, read by SQLite): one
 * fact per key and the latest receipts, never the whole ledger. The
 * history is the one `historyOf` works out from every row
 * (`tests/views/history_stream_test.ts` holds the two together).
 */
export function historyFrom(
  summary: ReceiptSummary,
  draftJobs: readonly string[],
  compensations: { job: string; state: string; receipts: number }[],
  sessions: readonly { session: number; client: string }[] = [],
): LedgerHistory {
  const { count, firstAttempt, committedOnRecord, latest } = summary;
  const missing = new Set(draftJobs.filter((j) => !committedOnRecord.has(j)));
  // Drafts with no receipt at all come last, by key; before them, each
  // receipt, with a receipt-less attempt before the first of its key.
  const trailing = [...missing].filter((j) => !firstAttempt.has(j)).sort();
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
    if (
      job !== null && missing.has(job) &&
      firstAttempt.get(job) === r.attempt && room()
    ) {
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
    omitted: Math.max(0, count + missing.size - MAX_DRAWN_ATTEMPTS),
    compensations,
  };
}
