/**
 * The one place guardlab opens SQLite: the file's place is checked without
 * following links, an existing file is inspected (integrity, exact schema,
 * exact integers) before anything is written, and a view never changes a
 * byte: it reads the file and its log into memory and opens that copy, so
 * SQLite never touches a file beside it. Also the immediate write
 * transaction and row counts.
 *
 * A ledger of the user's private folder that guardlab checked or wrote
 * last, and that nothing else has written since (`_provenance.ts`), is
 * opened by name without that inspection: what the inspection would find
 * is what guardlab left there.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { LedgerUnusable } from "../base/errors.ts";
import {
  assertDescriptorsLeft,
  checkDatabasePlace,
  createPrivateFile,
} from "../sandbox/safe_fs.ts";
import { fill, type Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import { viewImage } from "./_snapshot.ts";
import {
  CHECK_TIME_LIMIT_MS,
  type CheckBounds,
  inspectBounded,
  startChecker,
} from "./_bounded.ts";
import { problemText, STORE_MESSAGES } from "./_messages.ts";
import {
  dataVersion,
  sqliteStep,
  tracked,
  useDurableWal,
} from "./_connection.ts";
import {
  countInspection,
  follow,
  openProven,
  ownFile,
  restingState,
  stateAfterSwitch,
} from "./_provenance.ts";
import type { FileState } from "./_proof.ts";

export { useDurableWal } from "./_connection.ts";
export { closeDatabase, type OpenCounts, openCounts } from "./_provenance.ts";

/** What a guardlab database must hold, exactly. */
export interface SchemaSpec {
  /** What the file is called in messages, e.g. `ledger` / `账本`. */
  what: Text;
  /** Table name → its CREATE TABLE statement, as guardlab and the reference write it. */
  tables: Readonly<Record<string, string>>;
  /**
   * Table name → what each of its rows must hold beyond the types its
   * columns declare, as a SQL condition over the row (`null`: nothing
   * more). The check holds every table as STRICT (each value of the type
   * its column declares, exactly) with this condition as its CHECK, in
   * one pass over the rows (`_inspect.ts`'s `strictForm`).
   */
  rowChecks: Readonly<Record<string, string | null>>;
  /**
   * Tables guardlab adds later, only when first needed (the reference
   * ignores them): checked exactly when present, never required. Each
   * carries its own row check.
   */
  optionalTables?: Readonly<
    Record<string, { create: string; rowCheck: string | null }>
  >;
  /**
   * Indexes SQLite makes by itself for those tables (primary keys on text).
   * Not read by the check any more: it builds guardlab's own schema and
   * compares every object, indexes included, with what SQLite reports.
   */
  autoIndexes?: readonly string[];
  /** Triggers that are allowed by exact name and SQL (trusted test fixtures). */
  triggers: Readonly<Record<string, readonly string[]>>;
  /**
   * Queries that each return a count of rows guardlab could not show
   * exactly (a value of the wrong kind, or an integer beyond 2^53 that
   * JavaScript would round) in a table no row check can hold: SQLite's
   * own `sqlite_sequence`.
   */
  badValues: readonly string[];
  /** Statements that create the schema in an empty file (one transaction). */
  create: string;
}

/**
 * How a database is opened.
 *
 * - `read`: a view. The file (with its committed `-wal` frames) is read
 *   into memory and that copy is opened: SQLite never opens the file by
 *   path, so nothing beside it is created, changed or removed, refusals
 *   included.
 * - `observe`: a live read-only connection beside a writer of this same
 *   process, which sees each commit as it lands. The writer has just
 *   checked the file; close this one before the writer (the last connection
 *   to close folds the log back into the file, and a read-only one cannot).
 * - `write`: may create and change.
 */
export interface OpenOptions {
  /** `read` (a view), `observe` (beside this process's writer) or `write`. */
  mode: "read" | "observe" | "write";
  /** Folders the path is checked from (see {@linkcode checkDatabasePlace}). */
  trusted: readonly string[];
  /** Milliseconds to wait for another connection's lock. */
  busyTimeoutMs?: number;
  /** How the check of an existing file is bounded (tests make it shorter). */
  bounds?: CheckBounds;
  /**
   * For tests: called after a ledger's proof of provenance has matched the
   * open file and before SQLite opens it by name, so that a test can act
   * there as a racing program would.
   */
  beforeProvenOpen?: () => void;
  /**
   * For tests: called when a writer has opened a file it checked, which
   * another program left with a rollback journal, before it switches the
   * file to write-ahead logging.
   */
  beforeSwitch?: () => void;
}

/**
 * How long a writer waits for another connection's lock before failing with
 * SQLITE_BUSY, when the caller does not say otherwise: the lab ledger, and
 * the policy database while it is checked and created.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** The largest integer JavaScript represents exactly. */
export const MAX_EXACT: number = Number.MAX_SAFE_INTEGER;

/**
 * Open `path` as the database `spec` describes, or throw
 * {@linkcode LedgerUnusable} (exit 4) and leave the file as it was.
 *
 * An existing file is inspected before SQLite opens it by path: its bytes
 * and its log's committed frames are read into memory and checked there
 * (integrity, exact schema, exact integers). SQLite deletes or folds a
 * `-wal` when a connection to the file closes, so a refusal that had opened
 * the file could still change it; this way it never has. The one
 * exception is a ledger of the private folder whose proof of provenance
 * holds ({@linkcode openProven}).
 */
export function openDatabase(
  path: string,
  spec: SchemaSpec,
  options: OpenOptions,
): DatabaseSync {
  const { mode } = options;
  const existed = checkDatabasePlace(path, {
    tops: options.trusted,
    mustExist: mode !== "write",
  });
  const own = mode !== "observe" && ownFile(path);
  if (existed && own) {
    const proven = openProven(
      path,
      spec,
      options,
      () => new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 0 }),
    );
    if (proven !== null) return proven;
  }
  let empty = !existed;
  // The file as the check is about to read it, when nothing lies beside it:
  // a writer that finds it unchanged once open knows what it holds.
  let checkedState: FileState | null = null;
  // The bytes that were checked, as long as a writer may compare them.
  let checkedImage: Uint8Array | null = null;
  if (existed && mode !== "observe") {
    if (own && mode === "write") checkedState = restingState(path);
    // The threads the check runs on start while the file is read; a thread
    // that finds no file descriptor ends the process without a word.
    assertDescriptorsLeft(path);
    startChecker(WORKER_OPENER);
    // An empty file beside a -wal is refused here, before SQLite could
    // delete that -wal; an empty file alone is new only to a writer.
    const image = viewImage(path, spec.what, mode === "write");
    if (image === null) empty = true;
    else {
      empty = inspected(path, spec, image, options.bounds);
      if (empty && mode === "read") {
        throw new LedgerUnusable(
          fill(STORE_MESSAGES.empty, { path: inert(path), what: spec.what }),
        );
      }
      // What a view shows is the image that was checked, never the file.
      if (mode === "read") {
        return sqliteStep(path, spec.what, () => inMemory(image));
      }
      if (checkedState !== null) checkedImage = image;
    }
  }
  // A new file is this user's alone from its first byte, and so are the
  // -wal, -shm and -journal SQLite makes beside it with the file's mode.
  const created = !existed && mode === "write" && createPrivateFile(path);
  const db = sqliteStep(path, spec.what, () =>
    tracked(
      new DatabaseSync(path, {
        readOnly: mode !== "write",
        timeout: options.busyTimeoutMs ?? 0,
      }),
    ));
  try {
    sqliteStep(path, spec.what, () => {
      // Sorting and temporary tables stay in memory: no file outside the
      // ledger's folder, and TMPDIR is never consulted.
      db.exec("PRAGMA temp_store=MEMORY");
      if (mode === "write") {
        // A file another program left in rollback mode is switched to WAL
        // now, which rewrites its header: guardlab's own write, so the
        // file is still the one checked if nothing else differs.
        const switching = checkedImage !== null && !inWalMode(db);
        if (switching) options.beforeSwitch?.();
        useDurableWal(db);
        if (switching) {
          checkedState = stateAfterSwitch(path, checkedImage!, checkedState!);
        }
        checkedImage = null;
        const version = own ? dataVersion(db) : 0;
        const made = empty && immediate(db, () => createIfEmpty(db, spec));
        if (own && ((created && made) || checkedState !== null)) {
          follow(
            db,
            path,
            spec,
            version,
            created && made ? null : checkedState,
          );
        }
      }
    });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A connection to `image` in memory, never to a file, that refuses to
 * write: what a view shows is what was read.
 */
function inMemory(image: Uint8Array): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  try {
    db.deserialize(image);
    db.exec("PRAGMA temp_store=MEMORY");
    db.exec("PRAGMA query_only=1");
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** An empty database in memory: what the check's worker opens (see {@linkcode WORKER_OPENER}). */
function emptyInMemory(): DatabaseSync {
  return new DatabaseSync(":memory:");
}

/**
 * {@linkcode emptyInMemory} as the source the check's worker thread runs:
 * the worker cannot import this module (the sandbox grants no read of the
 * program's own files), so the one place SQLite is opened hands it the
 * text, with the worker's own `node:sqlite`.
 */
const WORKER_OPENER = 'const { DatabaseSync } = require("node:sqlite");\n' +
  emptyInMemory.toString();

/**
 * Inspect the image of the existing file at `path` where the check can be
 * stopped (`_bounded.ts`): its exact schema first, then its integrity and
 * values. Returns whether it holds no schema at all; throws
 * {@linkcode LedgerUnusable} for anything else than guardlab's own.
 */
function inspected(
  path: string,
  spec: SchemaSpec,
  image: Uint8Array,
  bounds: CheckBounds = {},
): boolean {
  countInspection();
  const finding = inspectBounded(WORKER_OPENER, image, spec, bounds);
  if (finding === "timed-out") {
    const ms = bounds.timeLimitMs ?? CHECK_TIME_LIMIT_MS;
    // Whole seconds, or hundredths below ten (a test's short limit).
    const seconds = Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 0));
    // Stopped is not found wrong: the line says which.
    throw new LedgerUnusable(
      fill(STORE_MESSAGES.checkStopped, {
        path: inert(path),
        what: spec.what,
        seconds,
      }),
    );
  }
  if (finding.ok) return finding.empty;
  const { problem } = finding;
  throw new LedgerUnusable(
    fill(
      problem.kind === "unusable"
        ? STORE_MESSAGES.unusable
        : STORE_MESSAGES.notGuardlab,
      { path: inert(path), what: spec.what, why: problemText(problem) },
    ),
  );
}

/** Whether `db`'s file logs ahead already (its header says so): reads no schema. */
function inWalMode(db: DatabaseSync): boolean {
  const row = db.prepare("PRAGMA journal_mode").get() as {
    journal_mode: string;
  };
  return row.journal_mode === "wal";
}

/**
 * Create the schema in an empty file; another process may have created it
 * since the inspection. Returns whether this call created it.
 */
function createIfEmpty(db: DatabaseSync, spec: SchemaSpec): boolean {
  const objects = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master")
    .get() as {
      n: number;
    };
  if (Number(objects.n) !== 0) return false;
  db.exec(spec.create);
  return true;
}

/**
 * A connection with its place checked (no link, a private folder) but no
 * schema check: the policy lab's `PolicyLab.open`, which the reference opens bare
 * and initialises itself. Sorting stays in memory; the file uses durable
 * write-ahead logging like every database guardlab writes.
 */
export function openUnchecked(
  path: string,
  options: { trusted: readonly string[]; busyTimeoutMs?: number },
): DatabaseSync {
  if (!checkDatabasePlace(path, { tops: options.trusted })) {
    createPrivateFile(path);
  }
  const db = tracked(
    new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 0 }),
  );
  try {
    db.exec("PRAGMA temp_store=MEMORY");
    useDurableWal(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A second, read-only connection to a database this process has just
 * written and checked: it sees what was committed, not what the writer holds
 * in a transaction. Used by the demos and the judge to count what is really
 * there.
 */
export function openObserver(path: string): DatabaseSync {
  return tracked(new DatabaseSync(path, { readOnly: true }));
}

/**
 * Run `body` in one write transaction. The write lock is taken at BEGIN, so
 * a read-then-write never has to upgrade its lock under contention, and no
 * other connection can commit between what `body` reads and what it writes.
 */
export function immediate<T>(db: DatabaseSync, body: () => T): T {
  // Prepared once per connection, like every statement run more than once.
  statement(db, "BEGIN IMMEDIATE").run();
  try {
    const result = body();
    statement(db, "COMMIT").run();
    return result;
  } catch (error) {
    if (db.isTransaction) statement(db, "ROLLBACK").run();
    throw error;
  }
}

/** Number of rows in `table` (a name from guardlab's own schema, never user text). */
export function countRows(db: DatabaseSync, table: string): number {
  const row = statement(db, `SELECT COUNT(*) AS n FROM ${table}`).get() as {
    n: number;
  };
  return Number(row.n);
}

const prepared = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The prepared statement for `sql` on `db`, prepared once per connection and
 * reused: every statement guardlab runs more than once goes through here.
 */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = prepared.get(db);
  if (cache === undefined) prepared.set(db, cache = new Map());
  let stmt = cache.get(sql);
  if (stmt === undefined) cache.set(sql, stmt = db.prepare(sql));
  return stmt;
}
