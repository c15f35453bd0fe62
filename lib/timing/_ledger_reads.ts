/**
 * How the ledger's rows are read back (`ledger.ts`'s `Ledger` calls each of
 * these on its own connection): decoded one at a time for a view that
 * takes what it shows, or summed up by SQLite where a view needs a fact
 * about every row (which drafts no receipt shows committed, which keys were
 * accepted). What a reader holds is what it shows and the facts of a batch
 * of at most {@linkcode MAX_HELD_KEY_CHARS} of keys, never the whole
 * ledger: a fact about every draft is found a batch of keys at a time, in
 * key order, each batch with one pass of SQLite over the receipts.
 *
 * A stored value (a body, a list of events) is read with
 * {@linkcode storedValue}: nested deeper than a reader can walk, it is read
 * as its text.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { storedValue } from "../base/json.ts";
import { exitOnSignal, startSignalWatcher } from "../base/exit_hooks.ts";
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

/**
 * What a history needs of a ledger's rows, without holding them (see
 * {@linkcode historyFacts}).
 */
export interface HistoryFacts {
  /** How many receipts there are. */
  count: number;
  /** How many drafts no receipt shows committed (each an attempt without a receipt). */
  missing: number;
  /** The last drafts, by key, that no receipt records at all (at most the number asked), in key order. */
  trailing: string[];
  /** The latest receipts, oldest first (at most the number asked). */
  latest: ReceiptRow[];
  /**
   * For each key of {@linkcode HistoryFacts.latest} whose draft no receipt
   * shows committed: its first receipt's number.
   */
  firstAttempt: Map<string, number>;
}

/**
 * The most key text a batch of drafts holds, in UTF-16 code units, each
 * key counted with {@linkcode KEY_COST} more: a fact about every draft is
 * found a range of keys at a time, with one pass of SQLite over the
 * receipts for each range. SQLite holds the range's keys (an index of
 * them, to look each receipt's key up in); the reader holds the two keys
 * at its ends. A ledger of guardlab's own keys (`JOB-` and three digits)
 * is one range; a million keys of ten characters, two.
 */
export const MAX_HELD_KEY_CHARS = 1 << 24;

/** What holding one key costs besides its characters. */
const KEY_COST = 16;

/**
 * A ledger of this many rows or more is read with Ctrl-C watched for
 * (`base/exit_hooks.ts`): reading it takes long enough to want stopping,
 * and starting the watcher costs a thread.
 */
const WATCHED_ROWS = 1 << 14;

/** Start watching for signals when `rows` are about to be read a range at a time. */
export function watchWhenLarge(rows: number): void {
  if (rows >= WATCHED_ROWS) startSignalWatcher();
}

/** A range of the drafts' key index, its ends included, and how many keys it holds. */
export interface KeyRange {
  /** Its first key. */
  lo: string;
  /** Its last key. */
  hi: string;
  /** How many drafts it holds. */
  count: number;
}

/**
 * SQL for the keys of the range whose ends are the parameters `?1` and
 * `?2`, and a test of a row's `job` against it: the two ends compared
 * first (cheap, and most rows of a big ledger fall outside a range), then
 * the keys SQLite holds for the range (an index of its drafts' keys).
 */
const IN_RANGE =
  "job BETWEEN ?1 AND ?2 AND job IN (SELECT job FROM drafts WHERE job BETWEEN ?1 AND ?2)";

/** How many keys a range starts with; fewer while its keys are long. */
const RANGE_KEYS = 1 << 19;

/**
 * The drafts' key index in ranges of at most {@linkcode MAX_HELD_KEY_CHARS}
 * (ascending, or from the last key back; a test passes a smaller bound as
 * `maxChars`). SQLite walks the index (a range's
 * end is found by skipping its count of keys, its size by summing their
 * lengths); this thread holds the keys at the ends. A range whose keys are
 * longer than the bound is halved until it fits, or holds one key. A
 * signal that came meanwhile ends the process between ranges.
 */
export function* keyRanges(
  db: DatabaseSync,
  descending = false,
  maxChars: number = MAX_HELD_KEY_CHARS,
): Generator<KeyRange> {
  const [order, after] = descending ? ["DESC", "<"] : ["ASC", ">"];
  const firstKey = db.prepare(
    `SELECT job FROM drafts ORDER BY job ${order} LIMIT 1`,
  );
  const nextKey = db.prepare(
    `SELECT job FROM drafts WHERE job ${after} ? ORDER BY job ${order} LIMIT 1`,
  );
  const endKey = db.prepare(
    `SELECT job FROM drafts WHERE job ${after}= ?1 ORDER BY job ${order}
     LIMIT 1 OFFSET ?2`,
  );
  const lastKey = db.prepare(
    `SELECT job FROM drafts ORDER BY job ${
      descending ? "ASC" : "DESC"
    } LIMIT 1`,
  );
  const sizeOf = db.prepare(
    `SELECT COUNT(*) AS count, coalesce(SUM(length(job)), 0) AS chars
     FROM drafts WHERE job BETWEEN ?1 AND ?2`,
  );
  const key = (row: unknown) => (row as { job: string } | undefined)?.job;
  let start = key(firstKey.get());
  let keys = RANGE_KEYS;
  while (start !== undefined) {
    const end = key(endKey.get(start, keys - 1)) ?? key(lastKey.get())!;
    const [lo, hi] = descending ? [end, start] : [start, end];
    const { count, chars } = sizeOf.get(lo, hi) as {
      count: number;
      chars: number;
    };
    const n = Number(count);
    if (n > 1 && Number(chars) + n * KEY_COST > maxChars) {
      keys = Math.max(1, n >> 1);
      continue;
    }
    yield { lo, hi, count: n };
    exitOnSignal();
    start = key(nextKey.get(end));
    keys = Math.min(RANGE_KEYS, n * 2);
  }
}

/** The name under which SQLite knows {@linkcode eventsOf}'s verdict on a commit. */
const COMMITTED = "guardlab_committed";

const withCommitted = new WeakSet<DatabaseSync>();

/**
 * `db` with {@linkcode COMMITTED} defined: whether a receipt's stored
 * events show its draft committed, decided as every view decides it
 * ({@linkcode eventsOf}).
 */
function committedDefined(db: DatabaseSync): DatabaseSync {
  if (!withCommitted.has(db)) {
    db.function(
      COMMITTED,
      { deterministic: true, directOnly: true },
      (text: unknown) =>
        typeof text === "string" &&
          eventsOf(text).includes("effect_committed")
          ? 1
          : 0,
    );
    withCommitted.add(db);
  }
  return db;
}

/**
 * SQL that is true of a receipt of one of `keys` (SQL for a set of keys)
 * whose events show its draft committed. The events hold
 * `effect_committed` only if their text holds those letters or an escape
 * (a backslash): only such rows of those keys are decoded, last.
 */
const showsCommit = (keys: string) =>
  `(instr(events, 'effect_committed') OR instr(events, char(92)))
   AND ${keys} AND ${COMMITTED}(events)`;

/** `jobs` as the one parameter of `… IN (SELECT value FROM json_each(?))`. */
function listOf(jobs: Iterable<string>): string {
  return JSON.stringify([...jobs]);
}

/** SQL for the keys of the list that is the parameter `?1` ({@linkcode listOf}). */
const LIST = "(SELECT value FROM json_each(?1))";

/** The keys the rows of `sql` (one column, `job`; parameter `?1` a list) name. */
function keysOf(
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

/** Of the keys `jobs`, those some receipt shows committing their draft (one pass of SQLite). */
export function committedAmong(
  db: DatabaseSync,
  jobs: Iterable<string>,
): Set<string> {
  return keysOf(
    committedDefined(db),
    `SELECT DISTINCT job FROM receipts WHERE ${showsCommit(`job IN ${LIST}`)}`,
    jobs,
  );
}

/** Of the keys `jobs`, those with a draft (through the key index). */
export function draftedAmong(
  db: DatabaseSync,
  jobs: Iterable<string>,
): Set<string> {
  return keysOf(db, `SELECT job FROM drafts WHERE job IN ${LIST}`, jobs);
}

/**
 * What a history needs of the ledger, held within a bound: how many
 * receipts; how many drafts no receipt shows committed; the last `last` of
 * those that no receipt names at all; the latest `last` receipts; and the
 * first receipt of each of their keys whose draft none shows committed.
 * The drafts are read a range of keys at a time from the last key back
 * ({@linkcode MAX_HELD_KEY_CHARS}); SQLite reads the receipts, one pass
 * for each range (and one more while drafts no receipt names are still
 * wanted); nothing is sorted but by an index.
 */
export function historyFacts(
  db: DatabaseSync,
  last: number,
  maxChars: number = MAX_HELD_KEY_CHARS,
): HistoryFacts {
  const count = countOf(db, "receipts");
  watchWhenLarge(count + countOf(db, "drafts"));
  committedDefined(db);
  const committedIn = db.prepare(
    `SELECT COUNT(DISTINCT job) AS n FROM receipts
     WHERE ${showsCommit(IN_RANGE)}`,
  );
  // The range's drafts that no receipt names, from the last key back.
  const unnamedIn = db.prepare(
    `SELECT job FROM drafts WHERE job BETWEEN ?1 AND ?2 AND job NOT IN
       (SELECT job FROM receipts WHERE ${IN_RANGE})
     ORDER BY job DESC LIMIT ?3`,
  );
  let missing = 0;
  const trailing: string[] = [];
  for (const range of keyRanges(db, true, maxChars)) {
    const { lo, hi } = range;
    const committed = count === 0
      ? 0
      : Number((committedIn.get(lo, hi) as { n: number }).n);
    missing += range.count - committed;
    if (trailing.length >= last || committed === range.count) continue;
    const rows = unnamedIn.all(lo, hi, last - trailing.length) as {
      job: string;
    }[];
    trailing.push(...rows.map((r) => r.job));
  }
  trailing.reverse();
  const latest = (db.prepare(
    `SELECT attempt, job, status, effect_exists, events FROM receipts
     ORDER BY attempt DESC LIMIT ?`,
  ).all(last) as unknown[]).reverse().map(receiptRow);
  const keys = new Set(latest.flatMap((r) => r.job === null ? [] : [r.job]));
  const drafted = draftedAmong(db, keys);
  const committed = committedAmong(db, drafted);
  const wanted = [...drafted].filter((job) => !committed.has(job));
  const firstAttempt = new Map<string, number>();
  if (wanted.length > 0) {
    // In receipt order: the first row of each key is its first receipt.
    const rows = db.prepare(
      `SELECT job, attempt FROM receipts WHERE job IN ${LIST}
       ORDER BY attempt`,
    ).iterate(listOf(wanted)) as Iterable<{ job: string; attempt: number }>;
    for (const r of rows) {
      if (!firstAttempt.has(r.job)) firstAttempt.set(r.job, Number(r.attempt));
      if (firstAttempt.size === wanted.length) break;
    }
  }
  return { count, missing, trailing, latest, firstAttempt };
}

/** One key reconciliation lists: the draft's key and digest, and its compensation state. */
export interface ListedKey {
  /** Business key. */
  job: string;
  /** The digest of the request that made the draft. */
  digest: string;
  /** Its compensation's state, or `null` when none was asked for. */
  state: CompensationState | null;
}

/** What reconciliation finds in one range of keys. */
export interface RangeFindings {
  /** How many keys of the range it lists. */
  listed: number;
  /** How many of those a compensation voided (settled). */
  voided: number;
  /** The first `limit` keys it lists, in order. */
  first: ListedKey[];
}

/**
 * What reconciliation lists in `range`: every draft no receipt accepts,
 * and every compensated one; how many, how many of them are voided, and
 * the first `limit` in key order. One pass of SQLite over the receipts;
 * the compensations looked up by key.
 */
export function reconcileRange(
  db: DatabaseSync,
  range: KeyRange,
  limit: number,
  compensations: boolean,
): RangeFindings {
  const state = compensations
    ? "(SELECT state FROM compensations c WHERE c.job = d.job)"
    : "NULL";
  const listed = `SELECT d.job AS job, d.digest AS digest, ${state} AS state
    FROM drafts d WHERE d.job BETWEEN ?1 AND ?2 AND (${state} IS NOT NULL
      OR d.job NOT IN (SELECT job FROM receipts
        WHERE status = 'accepted' AND ${IN_RANGE}))`;
  // The first keys, and one more: when that one is not there, they are
  // all the range lists, and no second pass counts them.
  const first = limit <= 0 ? [] : (db.prepare(
    `${listed} ORDER BY d.job LIMIT ?3`,
  ).all(range.lo, range.hi, limit + 1) as unknown as ListedKey[]);
  if (limit > 0 && first.length <= limit) {
    return {
      listed: first.length,
      voided: first.filter((k) => k.state === "voided").length,
      first,
    };
  }
  const counts = db.prepare(
    `SELECT COUNT(*) AS n, COUNT(state = 'voided' OR NULL) AS voided
     FROM (${listed})`,
  ).get(range.lo, range.hi) as { n: number; voided: number };
  return {
    listed: Number(counts.n),
    voided: Number(counts.voided),
    first: first.slice(0, limit),
  };
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

/**
 * The compensations by key, each with how many compensation receipts name
 * it, one at a time: read in batches of at most
 * {@linkcode MAX_HELD_KEY_CHARS}, one pass over the compensation receipts
 * for each, and no further than the reader takes.
 */
export function* eachCompensation(
  db: DatabaseSync,
): Generator<CompensationRow> {
  const rows = db.prepare(
    "SELECT job, state FROM compensations ORDER BY job",
  ).iterate() as Iterable<{ job: string; state: CompensationState }>;
  let batch: { job: string; state: CompensationState }[] = [];
  let held = 0;
  const flush = function* () {
    const counts = compensationReceiptsOf(db, batch.map((c) => c.job));
    for (const c of batch) yield { ...c, receipts: counts.get(c.job) ?? 0 };
    [batch, held] = [[], 0];
    exitOnSignal();
  };
  for (const row of rows) {
    batch.push({ job: row.job, state: row.state });
    held += row.job.length + KEY_COST;
    if (held >= MAX_HELD_KEY_CHARS) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

/** How many rows `table` (a name of guardlab's own schema) holds. */
function countOf(db: DatabaseSync, table: string): number {
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
