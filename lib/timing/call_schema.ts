/**
 * Who made each attempt, kept beside the reference lab's tables: the two
 * tables `guardlab mcp` writes, their exact `CREATE TABLE` and the checks on
 * their values. The `receipts` table stays the reference's byte for byte;
 * these say which MCP session and which `tools/call` of it wrote a receipt,
 * when the call started and ended, and which read tools (`ledger`,
 * `reconcile`) were called, so a timeline can draw attempts in the order
 * they started and show where they overlapped. A ledger no MCP server
 * touched has neither table. The ledger's schema check and the writes both
 * read them from here.
 *
 * @module
 */
import { MAX_EXACT } from "../store/db.ts";

/** The tools a call row may name: the four `guardlab mcp` serves. */
export const CALL_TOOLS = [
  "create_draft",
  "ledger",
  "reconcile",
  "compensate",
] as const;

/** A tool a call row names. */
export type CallTool = typeof CALL_TOOLS[number];

/** The longest client name a session row keeps (the rest is cut). */
export const MAX_CLIENT_NAME = 80;

const SESSIONS = `CREATE TABLE mcp_sessions(
      session INTEGER PRIMARY KEY, client TEXT NOT NULL,
      started_us INTEGER NOT NULL)`;
const CALLS = `CREATE TABLE mcp_calls(
      session INTEGER NOT NULL, call INTEGER NOT NULL, tool TEXT NOT NULL,
      job TEXT, receipt INTEGER, started_us INTEGER NOT NULL,
      ended_us INTEGER NOT NULL)`;

/**
 * Create the call tables if they are missing, from the same definitions the
 * schema check compares with (SQLite stores the statement without its
 * `IF NOT EXISTS`).
 */
export const CREATE_CALL_TABLES_IF_MISSING: string = [SESSIONS, CALLS]
  .map((sql) => sql.replace(/^CREATE TABLE /, "CREATE TABLE IF NOT EXISTS "))
  .join(";\n");

const TOOL_LIST = CALL_TOOLS.map((t) => `'${t}'`).join(",");

/** The call tables, exact, for the ledger's schema check. */
export const CALL_TABLES = {
  mcp_sessions: {
    create: SESSIONS,
    rowCheck: `session BETWEEN 1 AND ${MAX_EXACT}
      AND length(client)<=${MAX_CLIENT_NAME}
      AND started_us BETWEEN 0 AND ${MAX_EXACT}`,
  },
  mcp_calls: {
    create: CALLS,
    rowCheck: `session BETWEEN 1 AND ${MAX_EXACT}
      AND call BETWEEN 1 AND ${MAX_EXACT} AND tool IN (${TOOL_LIST})
      AND (job IS NULL OR length(job)<=16)
      AND (receipt IS NULL OR receipt BETWEEN 1 AND ${MAX_EXACT})
      AND started_us>=0 AND ended_us>=started_us AND ended_us<=${MAX_EXACT}`,
  },
} as const;
