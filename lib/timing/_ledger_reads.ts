/**
 * How the ledger's rows are read back (`ledger.ts`'s `Ledger` calls each of
 * these on its own connection): decoded one at a time for a view that
 * takes what it shows, no row longer than it could show read at all, or
 * looked up for the keys a view shows. A fact about every draft is found
 * a range of keys at a time (`_key_ranges.ts`).
 *
 * A stored value (a body, a list of events) is read with
 * {@linkcode storedValue}: nested deeper than a reader can walk, it is read
 * as its text.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { storedValue } from "../base/json.ts";
import { exitOnSignal } from "../base/exit_hooks.ts";
import type { CompensationState } from "./_compensation_schema.ts";

/** One receipts row, decoded. */
export interface ReceiptRow {
  /** Attempt number, assigned by SQLite. */
  attempt: number;
  /** Business key, or `null` when the arguments had no valid key. */
  job: string | null;
  /** Recorded status, including `cancelled`. */
  status: string;
  /** Whether a draft for `job` existed when the receipt was written. */
  effect_exists: boolean;
  /** The timeline up to the receipt. */
  events: string[];
}

/** One drafts row, decoded. */
export interface DraftRow {
  /** Business key. */
  job: string;
  /** Canonical argument digest. */
  digest: string;
  /** Parsed draft body. */
  body: unknown;
}

/** One `mcp_calls` row, decoded. */
export interface CallRow {
  /** The session's number on this ledger. */
  session: number;
  /** The call's number in its session. */
  call: number;
  /** The tool called. */
  tool: string;
  /** The business key it named, or null. */
  job: string | null;
  /** The receipt it wrote, or null (a read, or an attempt that wrote none). */
  receipt: number | null;
  /** When it started, in microseconds since the epoch. */
  started_us: number;
  /** When it ended (its receipt was written), in microseconds since the epoch. */
  ended_us: number;
}

/** One `mcp_sessions` row, decoded. */
export interface SessionRow {
  /** Its number on this ledger, from 1. */
  session: number;
  /** The client's name and version, as it said at `initialize`. */
  client: string;
  /** When its first call started, in microseconds since the epoch. */
  started_us: number;
}

/** One compensation, with how many compensation receipts its key has. */
export interface CompensationRow {
  /** Business key. */
  job: string;
  /** `requested` or `voided`. */
  state: CompensationState;
  /** How many compensation receipts name the key. */
  receipts: number;
}

/** `jobs` as the one parameter of `… IN (SELECT value FROM json_each(?))`. */
export function listOf(jobs: Iterable<string>): string {
  return JSON.stringify([...jobs]);
}

/** SQL for the keys of the list that is the parameter `?1` ({@linkcode listOf}). */
export const LIST = "(SELECT value FROM json_each(?1))";

/** The keys the rows of `sql` (one column, `job`; parameter `?1` a list) name. */
export function keysOf(
  db: DatabaseSync,
  sql: string,
  jobs: Iterable<string>,
): Set<string> {
  const out = new Set<string>();
  const rows = db.prepare(sql).iterate(listOf(jobs)) as Iterable<
    { job: string }
  >;
  for (const r of rows) out.add(r.job);
  return out;
}

/**
 * The number and status of each receipt of `jobs`, in order, by key; a
 * key's list is kept only while the lists together hold at most
 * `maxHeld` receipts: past that, the lists of the last keys (in the order
 * of `jobs`) are let go, and those keys are in `dropped`. What a view
 * cannot show is never held: it shows keys in order and stops at the
 * first that does not fit, and no key whose list was let go would fit.
 */
export function receiptsByKey(
  db: DatabaseSync,
  jobs: readonly string[],
  maxHeld: number = Number.MAX_SAFE_INTEGER,
): {
  lists: Map<string, { attempt: number; status: string }[]>;
  dropped: Set<string>;
} {
  const order = new Map(jobs.map((job, i) => [job, i]));
  const lists = new Map<string, { attempt: number; status: string }[]>();
  const dropped = new Set<string>();
  let held = 0;
  // The last key still held, in the order of `jobs`.
  let end = jobs.length;
  const rows = db.prepare(
    `SELECT attempt, job, status FROM receipts WHERE job IN ${LIST}
     ORDER BY attempt`,
  ).iterate(listOf(jobs)) as Iterable<
    { attempt: number; job: string; status: string }
  >;
  let seen = 0;
  for (const r of rows) {
    if (++seen % 65536 === 0) exitOnSignal();
    const at = order.get(r.job)!;
    if (at >= end) continue;
    let list = lists.get(r.job);
    if (list === undefined) lists.set(r.job, list = []);
    list.push({ attempt: Number(r.attempt), status: r.status });
    held++;
    while (held > maxHeld && end > 0) {
      end--;
      const job = jobs[end];
      held -= lists.get(job)?.length ?? 0;
      lists.delete(job);
      dropped.add(job);
    }
  }
  return { lists, dropped };
}

/** The compensation state of each of `jobs` that has one (through the key index). */
export function compensationStatesOf(
  db: DatabaseSync,
  jobs: Iterable<string>,
): Map<string, CompensationState> {
  const rows = db.prepare(
    `SELECT job, state FROM compensations WHERE job IN ${LIST}`,
  ).all(listOf(jobs)) as { job: string; state: CompensationState }[];
  return new Map(rows.map((r) => [r.job, r.state]));
}

/** How many compensation receipts name each of `jobs` (one pass of SQLite). */
export function compensationReceiptsOf(
  db: DatabaseSync,
  jobs: Iterable<string>,
): Map<string, number> {
  const counts = new Map<string, number>();
  const rows = db.prepare(
    `SELECT job FROM compensation_receipts WHERE job IN ${LIST}`,
  ).iterate(listOf(jobs)) as Iterable<{ job: string }>;
  for (const r of rows) counts.set(r.job, (counts.get(r.job) ?? 0) + 1);
  return counts;
}

/** How many rows `table` (a name of guardlab's own schema) holds. */
export function countOf(db: DatabaseSync, table: string): number {
  return Number(
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number })
      .n,
  );
}

/** The drafts' keys in order, one at a time, read through the key index. */
export function* eachDraftKey(db: DatabaseSync): Generator<string> {
  const rows = db.prepare("SELECT job FROM drafts ORDER BY job")
    .iterate() as Iterable<{ job: string }>;
  for (const r of rows) yield r.job;
}

/**
 * SQL for a row's stored size in bytes, found without reading its text
 * (`octet_length` reads the row's header only): a row of more than three
 * bytes for each of `maxChars` characters is longer than `maxChars` UTF-16
 * code units, since no code unit takes more than three bytes of UTF-8.
 */
const bytesOf = (columns: readonly string[]) =>
  columns.map((c) => `coalesce(octet_length(${c}), 0)`).join(" + ");

/**
 * The drafts ordered by job, bodies read with {@linkcode storedValue}, one
 * at a time (each walk a statement of its own). The walk ends before the
 * first row whose stored text is longer than `maxChars` characters (more
 * than three bytes for each): such a row is never read into memory, nor is
 * any after it (a view passes the most it could show).
 */
export function* eachDraft(
  db: DatabaseSync,
  maxChars: number = Number.MAX_SAFE_INTEGER,
): Generator<DraftRow> {
  const size = bytesOf(["job", "digest", "body"]);
  const columns = ["job", "digest", "body"]
    .map((c) => `CASE WHEN ${size} <= ?1 THEN ${c} END AS ${c}`).join(", ");
  const bytes = Math.min(3 * maxChars, Number.MAX_SAFE_INTEGER);
  const rows = db.prepare(
    `SELECT ${size} AS n, ${columns} FROM drafts ORDER BY drafts.job`,
  ).iterate(bytes) as Iterable<
    { n: number; job: string; digest: string; body: string }
  >;
  for (const r of rows) {
    if (Number(r.n) > bytes) return;
    yield { job: r.job, digest: r.digest, body: storedValue(r.body) };
  }
}

/**
 * The receipts ordered by attempt (those numbered above `after`, when
 * given), one at a time. The walk ends before the first row whose stored
 * text is longer than `maxChars` characters (see {@linkcode eachDraft}).
 */
export function* eachReceipt(
  db: DatabaseSync,
  after?: number,
  maxChars: number = Number.MAX_SAFE_INTEGER,
): Generator<ReceiptRow> {
  const size = bytesOf(["job", "status", "events"]);
  const columns = ["job", "status", "effect_exists", "events"]
    .map((c) => `CASE WHEN ${size} <= ?1 THEN ${c} END AS ${c}`).join(", ");
  const bytes = Math.min(3 * maxChars, Number.MAX_SAFE_INTEGER);
  const rows = db.prepare(
    `SELECT ${size} AS n, attempt, ${columns} FROM receipts
     WHERE attempt > ?2 ORDER BY attempt`,
  ).iterate(bytes, after ?? Number.MIN_SAFE_INTEGER) as Iterable<
    { n: number }
  >;
  for (const r of rows) {
    if (Number(r.n) > bytes) return;
    yield receiptRow(r);
  }
}

/**
 * The MCP calls on record, in the order they started, one at a time: the
 * first `limit` of them (SQLite then sorts keeping no more than those).
 */
export function* eachCall(
  db: DatabaseSync,
  limit = -1,
): Generator<CallRow> {
  const rows = db.prepare(
    `SELECT session, call, tool, job, receipt, started_us, ended_us
     FROM mcp_calls ORDER BY started_us, session, call LIMIT ?`,
  ).iterate(limit) as Iterable<CallRow>;
  for (const r of rows) {
    yield {
      session: Number(r.session),
      call: Number(r.call),
      tool: r.tool,
      job: r.job,
      receipt: r.receipt === null ? null : Number(r.receipt),
      started_us: Number(r.started_us),
      ended_us: Number(r.ended_us),
    };
  }
}

/** The MCP sessions on record, by number, one at a time. */
export function* eachSession(db: DatabaseSync): Generator<SessionRow> {
  const rows = db.prepare(
    "SELECT session, client, started_us FROM mcp_sessions ORDER BY session",
  ).iterate() as Iterable<SessionRow>;
  for (const r of rows) {
    yield {
      session: Number(r.session),
      client: r.client,
      started_us: Number(r.started_us),
    };
  }
}

/** A receipts row as SQLite gives it, decoded. */
// deno-lint-ignore no-explicit-any
export function receiptRow(r: any): ReceiptRow {
  return {
    attempt: Number(r.attempt),
    job: r.job as string | null,
    status: r.status as string,
    effect_exists: Boolean(r.effect_exists),
    events: eventsOf(r.events as string),
  };
}

/** The lists {@linkcode eventsOf} made last, by their text (at most 64). */
const decoded = new Map<string, string[]>();

/**
 * Receipt events as a list, even when a hand-edited row holds something
 * else (read with {@linkcode storedValue}: a list nested deeper than a
 * reader can walk is one text). A ledger guardlab wrote holds a handful of
 * distinct texts: each is decoded once and its list (frozen) shared, so
 * reading a million receipts makes a handful of lists, not a million.
 */
export function eventsOf(text: string): string[] {
  let events = decoded.get(text);
  if (events === undefined) {
    const parsed = storedValue(text);
    events = Object.freeze(
      Array.isArray(parsed) ? parsed.map(String) : [String(parsed)],
    ) as string[];
    if (decoded.size >= 64) decoded.clear();
    decoded.set(text, events);
  }
  return events;
}
