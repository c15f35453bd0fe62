/**
 * The one place guardlab opens SQLite: the file's place is checked without
 * following links, an existing file is inspected (integrity, exact schema,
 * exact integers) before anything is written, and a view never changes a
 * byte: it reads the file and its log into memory and opens that copy, so
 * SQLite never touches a file beside it. Also the immediate write
 * transaction and row counts.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { isSqliteError, LedgerUnusable } from "../base/errors.ts";
import { checkDatabasePlace } from "../sandbox/safe_fs.ts";
import type { Text } from "../base/i18n.ts";
import { viewImage } from "./snapshot.ts";
import { onExit } from "../base/exit_hooks.ts";

/** What a guardlab database must hold, exactly. */
export interface SchemaSpec {
  /** What the file is called in messages, e.g. `ledger` / `账本`. */
  what: Text;
  /** Table name → its CREATE TABLE statement, as guardlab and the reference write it. */
  tables: Readonly<Record<string, string>>;
  /**
   * Tables guardlab adds later, only when first needed (the reference
   * ignores them): checked exactly when present, never required. Each
   * carries its own value checks.
   */
  optionalTables?: Readonly<
    Record<string, { create: string; badValues: readonly string[] }>
  >;
  /** Indexes SQLite makes by itself for those tables (primary keys on text). */
  autoIndexes: readonly string[];
  /** Triggers that are allowed by exact name and SQL (trusted test fixtures). */
  triggers: Readonly<Record<string, readonly string[]>>;
  /**
   * Queries that each return a count of rows guardlab could not show
   * exactly: a value of the wrong kind, or an integer beyond 2^53 that
   * JavaScript would round.
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
}

/**
 * How long a writer waits for another connection's lock before failing with
 * SQLITE_BUSY, when the caller does not say otherwise: the lab ledger, and
 * the policy database while it is checked and created.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** The largest integer JavaScript represents exactly. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** `sql` with runs of white space made one, and none around punctuation. */
export function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, " ").replace(/ ?([(),;]) ?/g, "$1").trim();
}

/**
 * Open `path` as the database `spec` describes, or throw
 * {@linkcode LedgerUnusable} (exit 4) and leave the file as it was.
 *
 * An existing file is inspected before SQLite opens it by path: its bytes
 * and its log's committed frames are read into memory and checked there
 * (integrity, exact schema, exact integers). SQLite deletes or folds a
 * `-wal` when a connection to the file closes, so a refusal that had opened
 * the file could still change it; this way it never has.
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
  let empty = !existed;
  if (existed && mode !== "observe") {
    // An empty file beside a -wal is refused here, before SQLite could
    // delete that -wal; an empty file alone is new only to a writer.
    const image = viewImage(path, spec.what, mode === "write");
    if (image === null) empty = true;
    else {
      const copy = sqliteStep(path, spec, () => inMemory(image));
      try {
        empty = sqliteStep(path, spec, () => inspect(copy, path, spec));
        if (empty && mode === "read") {
          throw new LedgerUnusable({
            en: `${path} is not a ${spec.what.en} (it is empty)`,
            zh: `${path} 不是${spec.what.zh}（文件是空的）`,
          });
        }
      } catch (error) {
        copy.close();
        throw error;
      }
      if (mode === "read") return copy;
      copy.close();
    }
  }
  const db = sqliteStep(path, spec, () =>
    tracked(
      new DatabaseSync(path, {
        readOnly: mode !== "write",
        timeout: options.busyTimeoutMs ?? 0,
      }),
    ));
  try {
    sqliteStep(path, spec, () => {
      // Sorting and temporary tables stay in memory: no file outside the
      // ledger's folder, and TMPDIR is never consulted.
      db.exec("PRAGMA temp_store=MEMORY");
      if (mode === "write") {
        useDurableWal(db);
        if (empty) immediate(db, () => createIfEmpty(db, spec));
      }
    });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Connections to files that are still open, each with its close-on-signal registration. */
const live = new Map<DatabaseSync, Disposable>();

/**
 * `db`, closed before the process ends on a signal or an uncaught error
 * (newest first, so a read-only observer closes before the writer it
 * watches): the last connection to close folds the log into the file and
 * removes it, and a ledger at rest is one file that can be copied alone.
 */
function tracked(db: DatabaseSync): DatabaseSync {
  for (const [other, registration] of live) {
    if (!other.isOpen) {
      registration[Symbol.dispose]();
      live.delete(other);
    }
  }
  live.set(
    db,
    onExit(() => {
      if (db.isOpen) db.close();
    }),
  );
  return db;
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

/** Run `body`, turning an SQLite error into the refusal of `path`. */
function sqliteStep<T>(path: string, spec: SchemaSpec, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (isSqliteError(error)) {
      throw new LedgerUnusable({
        en: `${path} is not a usable SQLite ${spec.what.en} (${
          firstLine(error)
        })`,
        zh: `${path} 不是可用的 SQLite ${spec.what.zh}（${firstLine(error)}）`,
      });
    }
    throw error;
  }
}

function firstLine(error: Error): string {
  return error.message.split("\n")[0];
}

/** Another process may have created the schema since the inspection. */
function createIfEmpty(db: DatabaseSync, spec: SchemaSpec): void {
  const objects = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master")
    .get() as {
      n: number;
    };
  if (Number(objects.n) === 0) db.exec(spec.create);
}

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/**
 * Check an existing file before anything is written: SQLite's integrity
 * check, the exact schema (tables with their columns, types and keys; no views; no
 * triggers but the allowed fixtures), and integers guardlab can show
 * exactly. Returns whether the file holds no schema at all.
 */
function inspect(db: DatabaseSync, path: string, spec: SchemaSpec): boolean {
  const refuse = (why: Text) =>
    new LedgerUnusable({
      en: `${path} is not a guardlab ${spec.what.en} (${why.en})`,
      zh: `${path} 不是 guardlab 的${spec.what.zh}（${why.zh}）`,
    });
  // The quick check skips whether each index agrees with its table: a drafts
  // row that says JOB-777 under a key index that still says JOB-001 passes
  // it, and a later INSERT of JOB-777 would then make a second row for one
  // primary key. The integrity check compares them. At most one error is
  // collected: the first is enough to refuse.
  const check = db.prepare("PRAGMA integrity_check(1)").all() as {
    integrity_check: string;
  }[];
  if (check.length !== 1 || check[0].integrity_check !== "ok") {
    const said = (check[0]?.integrity_check ?? "no answer")
      .replace(/\*\*\* in database main \*\*\*/, "").replace(/\s+/g, " ")
      .trim();
    throw refuse({
      en: `damaged: ${said.slice(0, 100)}`,
      zh: `已损坏：${said.slice(0, 100)}`,
    });
  }
  const objects = db.prepare(
    "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
  ).all() as unknown as MasterRow[];
  if (objects.length === 0) return true;
  const seenTables = new Set<string>();
  for (const o of objects) {
    if (o.type === "table") {
      if (o.name === "sqlite_sequence") continue;
      const expected = spec.tables[o.name] ??
        spec.optionalTables?.[o.name]?.create;
      if (expected === undefined) {
        throw refuse({
          en: `a foreign table ${o.name}`,
          zh: `有外来的表 ${o.name}`,
        });
      }
      if (normalizeSql(o.sql ?? "") !== normalizeSql(expected)) {
        throw refuse({
          en: `table ${o.name} is not defined as guardlab defines it`,
          zh: `表 ${o.name} 的定义与 guardlab 的不同`,
        });
      }
      seenTables.add(o.name);
    } else if (o.type === "index") {
      if (!spec.autoIndexes.includes(o.name)) {
        throw refuse({
          en: `a foreign index ${o.name}`,
          zh: `有外来的索引 ${o.name}`,
        });
      }
    } else if (o.type === "trigger") {
      const allowed = spec.triggers[o.name] ?? [];
      if (!allowed.map(normalizeSql).includes(normalizeSql(o.sql ?? ""))) {
        throw refuse({
          en: `a trigger ${o.name} guardlab did not install`,
          zh: `有不是 guardlab 安装的触发器 ${o.name}`,
        });
      }
    } else {
      throw refuse({
        en: `a ${o.type} named ${o.name}`,
        zh: `有名为 ${o.name} 的 ${o.type}`,
      });
    }
  }
  for (const table of Object.keys(spec.tables)) {
    if (!seenTables.has(table)) {
      throw refuse({ en: `no table ${table}`, zh: `缺少表 ${table}` });
    }
  }
  const optional = Object.entries(spec.optionalTables ?? {})
    .filter(([name]) => seenTables.has(name))
    .flatMap(([, table]) => table.badValues);
  for (const query of [...spec.badValues, ...optional]) {
    const row = db.prepare(query).get() as { n: number };
    if (Number(row.n) !== 0) {
      throw refuse({
        en: "it holds values guardlab cannot show exactly (a wrong kind, " +
          "or an integer beyond 2^53)",
        zh: "其中有 guardlab 无法准确显示的值（类型不对，或整数超过 2^53）",
      });
    }
  }
  return false;
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
  checkDatabasePlace(path, { tops: options.trusted });
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
 * Write-ahead logging with `synchronous=FULL`: each COMMIT syncs the log
 * before it returns, so a committed draft or receipt survives a power cut,
 * at one sync per commit instead of the rollback journal's several.
 * Measured with `deno task bench`; see the README.
 */
export function useDurableWal(db: DatabaseSync): void {
  try {
    db.exec("PRAGMA journal_mode=WAL");
  } catch (error) {
    // Another connection is switching the same file right now; it ends in WAL too.
    if (!isSqliteError(error) || !/locked|busy/.test(error.message)) {
      throw error;
    }
  }
  db.exec("PRAGMA synchronous=FULL");
}

/**
 * Run `body` in one write transaction. The write lock is taken at BEGIN, so
 * a read-then-write never has to upgrade its lock under contention, and no
 * other connection can commit between what `body` reads and what it writes.
 */
export function immediate<T>(db: DatabaseSync, body: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = body();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
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
