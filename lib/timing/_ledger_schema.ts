/**
 * The ledger's exact schema, as the reference lab writes it (the drafts and
 * the receipts), with the tables guardlab adds when first needed and the
 * one trigger a trusted test fixture may install.
 *
 * @module
 */
import { MAX_EXACT, type SchemaSpec } from "../store/db.ts";
import { COMPENSATION_TABLES } from "./_compensation_schema.ts";
import { CALL_TABLES } from "./call_schema.ts";
import { TIMING_MESSAGES } from "./messages.ts";

const DRAFTS = `CREATE TABLE drafts(
  job TEXT PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL)`;
const RECEIPTS = `CREATE TABLE receipts(
  attempt INTEGER PRIMARY KEY AUTOINCREMENT,
  job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL,
  events TEXT NOT NULL)`;

/** The two receipt faults a trusted test fixture can install. */
export type ReceiptFault = "ignore" | "abort";

/**
 * The test-only trigger that makes the receipt INSERT a silent no-op
 * (`ignore`) or fail (`abort`). Trusted fixture, never tool input; the only
 * trigger a ledger may hold.
 */
export function receiptFaultTrigger(fault: ReceiptFault): string {
  const action = fault === "ignore"
    ? "SELECT RAISE(IGNORE);"
    : "SELECT RAISE(ABORT, 'fixture_receipt_abort');";
  return `CREATE TRIGGER fixture_receipt_fault BEFORE INSERT ON receipts BEGIN ${action} END`;
}

/** The ledger's exact schema, as the reference lab writes it. */
export const LEDGER_SCHEMA: SchemaSpec = {
  what: TIMING_MESSAGES.ledger,
  tables: { drafts: DRAFTS, receipts: RECEIPTS },
  autoIndexes: [
    "sqlite_autoindex_drafts_1",
    "sqlite_autoindex_compensations_1",
  ],
  optionalTables: { ...COMPENSATION_TABLES, ...CALL_TABLES },
  triggers: {
    fixture_receipt_fault: [
      receiptFaultTrigger("ignore"),
      receiptFaultTrigger("abort"),
    ],
  },
  rowChecks: {
    drafts: null,
    receipts: `attempt<=${MAX_EXACT}
      AND effect_exists BETWEEN -${MAX_EXACT} AND ${MAX_EXACT}`,
  },
  badValues: [
    // The next attempt number must be exact too.
    `SELECT COUNT(*) AS n FROM sqlite_sequence
       WHERE typeof(seq)!='integer' OR seq>=${MAX_EXACT}`,
  ],
  create: `${DRAFTS};
${RECEIPTS};`,
};
