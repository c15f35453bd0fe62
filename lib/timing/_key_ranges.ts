/**
 * Facts about every draft of a ledger, found a range of the drafts' keys at
 * a time (`Ledger.keyRanges`): SQLite holds the keys of one range, at most
 * {@linkcode MAX_HELD_KEY_CHARS}, and reads the receipts once for each
 * range; the reader holds the two keys at a range's ends and what it shows.
 * What a history needs (`historyFacts`), what reconciliation lists
 * (`reconcileRange`), and the compensations with their receipts.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { exitOnSignal, startSignalWatcher } from "../base/exit_hooks.ts";
import type { CompensationState } from "./_compensation_schema.ts";
import {
  compensationReceiptsOf,
  type CompensationRow,
  countOf,
  eventsOf,
  keysOf,
  LIST,
  listOf,
  type ReceiptRow,
  receiptRow,
} from "./_ledger_reads.ts";

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
