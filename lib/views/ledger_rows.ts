/**
 * What `guardlab ledger` shows of a ledger's rows: each kind read one row
 * at a time, in its order, and taken while it fits in the view's bound
 * (`view_bound.ts`); every kind counted in full by SQLite. No row longer
 * than a view could show is read into memory, and what is held is what is
 * shown.
 *
 * @module
 */
import type {
  CallRow,
  CompensationRow,
  DraftRow,
  Ledger,
  ReceiptRow,
  SessionRow,
} from "../timing/ledger.ts";
import {
  MAX_READ_CHARS,
  MAX_VIEW_ROWS,
  type ViewBudget,
} from "./view_bound.ts";

/** The rows `ledger` shows of a ledger, and what it counts of all of them. */
export interface LedgerRows {
  /** The business effect. */
  drafts: DraftRow[];
  /** The audit trail. */
  receipts: ReceiptRow[];
  /** The compensation state of each draft shown that has one. */
  states: ReadonlyMap<string, string>;
  /** The compensations, by key (for `--json`). */
  voids: CompensationRow[];
  /** The MCP calls on record, in the order they started (for `--json`). */
  calls: CallRow[];
  /** The MCP sessions on record (for `--json`). */
  sessions: SessionRow[];
  /** How many drafts, receipts, calls and compensations it holds. */
  all: {
    drafts: number;
    receipts: number;
    calls: number;
    compensations: number;
  };
}

/**
 * The rows of `book` that `budget` lets through, in the order `ledger`
 * shows them: drafts, receipts, then (for `--json`) compensations,
 * sessions and calls.
 */
export function ledgerRows(
  book: Ledger,
  budget: ViewBudget,
  json: boolean,
): LedgerRows {
  const [calls, sessions] = [book.countCalls(), book.countSessions()];
  const [drafts, receipts] = [book.countDrafts(), book.countReceipts()];
  const compensations = book.countCompensations();
  const shownDrafts = budget.takeFrom(
    "drafts",
    book.eachDraft(MAX_READ_CHARS),
    drafts,
  );
  return {
    drafts: shownDrafts,
    receipts: budget.takeFrom(
      "receipts",
      book.eachReceipt(undefined, MAX_READ_CHARS),
      receipts,
    ),
    // The tags of the drafts shown, looked up by their stored keys.
    states: book.compensationStatesOf(shownDrafts.map((d) => d.job)),
    voids: json
      ? budget.takeFrom("compensations", book.eachCompensation(), compensations)
      : [],
    sessions: json
      ? budget.takeFrom("sessions", book.eachSession(), sessions)
      : [],
    // Sorted by SQLite keeping no more than a view can show.
    calls: json
      ? budget.takeFrom("calls", book.eachCall(MAX_VIEW_ROWS + 1), calls)
      : [],
    all: { drafts, receipts, calls, compensations },
  };
}
