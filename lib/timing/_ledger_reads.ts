/**
 * How the ledger's rows are read back (`ledger.ts`'s `Ledger` calls each of
 * these on its own connection): decoded one at a time for a view that
 * takes what it shows, or summed up by SQLite where a view needs a fact
 * about every row (which keys were accepted, each key's first receipt):
 * what a reader holds is what it shows and one fact per key, never the
 * whole ledger.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

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

/** What {@linkcode receiptSummary} tells of the receipts. */
export interface ReceiptSummary {
  /** How many receipts there are. */
  count: number;
  /** The first receipt number of each draft's key that no receipt shows committed. */
  firstAttempt: Map<string, number>;
  /** The keys some receipt's events show committing their draft. */
  committedOnRecord: Set<string>;
  /** The latest receipts, oldest first. */
  latest: ReceiptRow[];
}

/** The drafts ordered by job, bodies parsed, one at a time (each walk a statement of its own). */
export function* eachDraft(db: DatabaseSync): Generator<DraftRow> {
  const rows = db.prepare("SELECT job, digest, body FROM drafts ORDER BY job")
    .iterate() as Iterable<{ job: string; digest: string; body: string }>;
  for (const r of rows) {
    yield { job: r.job, digest: r.digest, body: parseOr(r.body) };
  }
}

/** The receipts ordered by attempt (those numbered above `after`, when given), one at a time. */
export function* eachReceipt(
  db: DatabaseSync,
  after?: number,
): Generator<ReceiptRow> {
  const columns = "attempt, job, status, effect_exists, events";
  const query = db.prepare(
    after === undefined
      ? `SELECT ${columns} FROM receipts ORDER BY attempt`
      : `SELECT ${columns} FROM receipts WHERE attempt>? ORDER BY attempt`,
  );
  const rows = after === undefined ? query.iterate() : query.iterate(after);
  for (const r of rows) yield receiptRow(r);
}

/** The MCP calls on record, in the order they started, one at a time. */
export function* eachCall(db: DatabaseSync): Generator<CallRow> {
  const rows = db.prepare(
    `SELECT session, call, tool, job, receipt, started_us, ended_us
     FROM mcp_calls ORDER BY started_us, session, call`,
  ).iterate() as Iterable<CallRow>;
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

/** The keys with an accepted receipt, found by SQLite. */
export function acceptedKeys(db: DatabaseSync): Set<string> {
  const rows = db.prepare(
    `SELECT DISTINCT job FROM receipts
     WHERE status='accepted' AND job IS NOT NULL`,
  ).all() as { job: string }[];
  return new Set(rows.map((r) => r.job));
}

/** The number, key and status of each receipt of `jobs`, in order. */
export function receiptsOf(
  db: DatabaseSync,
  jobs: readonly string[],
): { attempt: number; job: string; status: string }[] {
  return (db.prepare(
    `SELECT attempt, job, status FROM receipts
     WHERE job IN (SELECT value FROM json_each(?)) ORDER BY attempt`,
  ).all(JSON.stringify(jobs)) as {
    attempt: number;
    job: string;
    status: string;
  }[]).map((r) => ({
    attempt: Number(r.attempt),
    job: r.job,
    status: r.status,
  }));
}

/**
 * What a history needs of the receipts, without holding them: how many,
 * the keys some receipt shows committing their draft, the first receipt of
 * each of `drafts` that none does, and the latest `last` receipts, in
 * order. SQLite reads the rows, and what it keeps is one entry per key
 * (no sort of every row: temporary storage is memory here). A receipt's
 * events hold `effect_committed` only if their text holds those letters or
 * an escape (a backslash): only such rows are decoded.
 */
export function receiptSummary(
  db: DatabaseSync,
  last: number,
  drafts: readonly string[],
): ReceiptSummary {
  const committedOnRecord = new Set<string>();
  const maybe = db.prepare(
    `SELECT DISTINCT job, events FROM receipts WHERE job IS NOT NULL
     AND (instr(events, 'effect_committed') OR instr(events, char(92)))`,
  ).all() as { job: string; events: string }[];
  for (const r of maybe) {
    if (eventsOf(r.events).includes("effect_committed")) {
      committedOnRecord.add(r.job);
    }
  }
  // Drafts no receipt shows committed: rare (an attempt that left none).
  const uncommitted = drafts.filter((job) => !committedOnRecord.has(job));
  const firstAttempt = new Map<string, number>();
  const first = db.prepare(
    `SELECT job, MIN(attempt) AS attempt FROM receipts
     WHERE job IN (SELECT value FROM json_each(?)) GROUP BY job`,
  ).all(JSON.stringify(uncommitted)) as { job: string; attempt: number }[];
  for (const r of first) firstAttempt.set(r.job, Number(r.attempt));
  const count = Number(
    (db.prepare("SELECT COUNT(*) AS n FROM receipts").get() as { n: number })
      .n,
  );
  const latest = db.prepare(
    `SELECT attempt, job, status, effect_exists, events FROM receipts
     ORDER BY attempt DESC LIMIT ?`,
  ).all(last).reverse().map(receiptRow);
  return { count, firstAttempt, committedOnRecord, latest };
}

/** A receipts row as SQLite gives it, decoded. */
// deno-lint-ignore no-explicit-any
function receiptRow(r: any): ReceiptRow {
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
 * else. A ledger guardlab wrote holds a handful of distinct texts: each is
 * decoded once and its list (frozen) shared, so reading a million receipts
 * makes a handful of lists, not a million.
 */
function eventsOf(text: string): string[] {
  let events = decoded.get(text);
  if (events === undefined) {
    const parsed = parseOr(text);
    events = Object.freeze(
      Array.isArray(parsed) ? parsed.map(String) : [String(parsed)],
    ) as string[];
    if (decoded.size >= 64) decoded.clear();
    decoded.set(text, events);
  }
  return events;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
