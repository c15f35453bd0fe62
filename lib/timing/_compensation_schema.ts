/**
 * The two tables a compensation writes, beside the reference lab's two:
 * their exact `CREATE TABLE` and the checks on their values. The ledger's
 * schema check and the compensation itself both read them from here.
 *
 * @module
 */
import { MAX_EXACT } from "../store/db.ts";

// Indented as the tables have always been written, so a new ledger's
// sqlite_master holds the same bytes as before; the check normalises space.
const COMPENSATIONS = `CREATE TABLE compensations(
      job TEXT PRIMARY KEY, state TEXT NOT NULL)`;
const COMPENSATION_RECEIPTS = `CREATE TABLE compensation_receipts(
      attempt INTEGER PRIMARY KEY AUTOINCREMENT,
      job TEXT NOT NULL, status TEXT NOT NULL, events TEXT NOT NULL)`;

/**
 * Create the compensation tables if they are missing, from the same
 * definitions the schema check compares with (SQLite stores the statement
 * without its `IF NOT EXISTS`).
 */
export const CREATE_COMPENSATION_TABLES_IF_MISSING: string = [
  COMPENSATIONS,
  COMPENSATION_RECEIPTS,
].map((sql) => sql.replace(/^CREATE TABLE /, "CREATE TABLE IF NOT EXISTS "))
  .join(";\n");

/** The state of a key's compensation: none, requested (not confirmed), or voided. */
export type CompensationState = "none" | "requested" | "voided";

/** The compensation tables, exact, for the ledger's schema check. */
export const COMPENSATION_TABLES = {
  compensations: {
    create: COMPENSATIONS,
    rowCheck: "state IN ('requested','voided')",
  },
  compensation_receipts: {
    create: COMPENSATION_RECEIPTS,
    rowCheck: `attempt<=${MAX_EXACT}`,
  },
} as const;
