/**
 * The lab's SQLite ledger: the `drafts` table (the business effect) and the
 * `receipts` table (the audit trail), with the reference lab's exact schema.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { isSqliteError, LedgerUnusable } from "./errors.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS drafts(
  job TEXT PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS receipts(
  attempt INTEGER PRIMARY KEY AUTOINCREMENT,
  job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL,
  events TEXT NOT NULL);
`;

const EXPECTED_COLUMNS: Record<string, string[]> = {
  drafts: ["job", "digest", "body"],
  receipts: ["attempt", "job", "status", "effect_exists", "events"],
};

/** How long a writer waits for another connection's lock before failing. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** A stored draft as the business step reads it back. */
export interface StoredDraft {
  /** Canonical digest of the arguments that created it. */
  digest: string;
  /** The draft body, JSON text. */
  body: string;
}

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

/** Options for {@linkcode Ledger.open}. */
export interface LedgerOptions {
  /** Milliseconds to wait for a lock held by another connection. */
  busyTimeoutMs?: number;
}

/**
 * One connection to a ledger file. Opening refuses files that are not SQLite
 * or hold a foreign schema, and leaves such files as they were.
 *
 * @example
 * ```ts
 * const ledger = Ledger.open("/tmp/lab.sqlite");
 * console.log(ledger.countDrafts());
 * ledger.close();
 * ```
 */
export class Ledger {
  /** The underlying connection (tests use it to install fixtures). */
  readonly db: DatabaseSync;
  readonly #findDraft: StatementSync;
  readonly #insertDraft: StatementSync;
  readonly #draftExists: StatementSync;
  readonly #insertReceipt: StatementSync;

  private constructor(db: DatabaseSync) {
    this.db = db;
    this.#findDraft = db.prepare("SELECT digest, body FROM drafts WHERE job=?");
    this.#insertDraft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
    this.#draftExists = db.prepare(
      "SELECT 1 AS present FROM drafts WHERE job=?",
    );
    this.#insertReceipt = db.prepare(
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,?,?)",
    );
  }

  /** Open (creating if needed) the ledger at `path`. Throws {@linkcode LedgerUnusable} for foreign files. */
  static open(path: string, options: LedgerOptions = {}): Ledger {
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path, {
        timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      });
    } catch (error) {
      // A missing folder or a directory in place of the file: say so in one line.
      if (isSqliteError(error) && !(error instanceof Deno.errors.NotCapable)) {
        throw new LedgerUnusable(
          `cannot open a ledger at ${path} (${error.message.split(":")[0]})`,
        );
      }
      throw error;
    }
    try {
      assertLedgerSchema(db, path);
      useDurableWal(db);
      db.exec(SCHEMA);
      return new Ledger(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Run `body` in one write transaction. The write lock is taken at BEGIN, so
   * a read-then-write never has to upgrade its lock under contention.
   */
  writeTransaction<T>(body: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = body();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  /** The stored draft for `job`, if any. */
  findDraft(job: string): StoredDraft | undefined {
    return this.#findDraft.get(job) as StoredDraft | undefined;
  }

  /** Insert a new draft row. */
  insertDraft(job: string, digest: string, body: string): void {
    this.#insertDraft.run(job, digest, body);
  }

  /** Whether a draft for `job` exists. */
  draftExists(job: string): boolean {
    return this.#draftExists.get(job) !== undefined;
  }

  /** Insert a receipt row; returns how many rows the statement really changed and the new attempt id. */
  insertReceipt(
    job: string | null,
    status: string,
    effectExists: boolean,
    eventsText: string,
  ): { changes: number; attempt: number } {
    const info = this.#insertReceipt.run(
      job,
      status,
      effectExists ? 1 : 0,
      eventsText,
    );
    return {
      changes: Number(info.changes),
      attempt: Number(info.lastInsertRowid),
    };
  }

  /** Number of drafts. */
  countDrafts(): number {
    return count(this.db, "drafts");
  }

  /** Number of receipts. */
  countReceipts(): number {
    return count(this.db, "receipts");
  }

  /** All drafts ordered by job, bodies parsed. */
  drafts(): DraftRow[] {
    const rows = this.db.prepare(
      "SELECT job, digest, body FROM drafts ORDER BY job",
    )
      .all() as unknown as { job: string; digest: string; body: string }[];
    return rows.map((r) => ({
      job: r.job,
      digest: r.digest,
      body: parseOr(r.body),
    }));
  }

  /** All receipts ordered by attempt, events parsed. */
  receipts(): ReceiptRow[] {
    const rows = this.db.prepare(
      "SELECT attempt, job, status, effect_exists, events FROM receipts ORDER BY attempt",
    ).all() as unknown as {
      attempt: number;
      job: string | null;
      status: string;
      effect_exists: number;
      events: string;
    }[];
    return rows.map((r) => ({
      attempt: Number(r.attempt),
      job: r.job,
      status: r.status,
      effect_exists: Boolean(r.effect_exists),
      events: eventsOf(r.events),
    }));
  }

  /** Close the connection. */
  close(): void {
    if (this.db.isOpen) this.db.close();
  }
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

function count(db: DatabaseSync, table: "drafts" | "receipts"): number {
  const row = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as {
    n: number;
  };
  return Number(row.n);
}

/** Receipt events as a list, even when a hand-edited row holds something else. */
function eventsOf(text: string): string[] {
  const parsed = parseOr(text);
  return Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Refuse a file that is not SQLite, is damaged, or holds tables that are not the ledger's. */
function assertLedgerSchema(db: DatabaseSync, path: string): void {
  let tables: { name: string }[];
  try {
    tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name",
    ).all() as unknown as { name: string }[];
  } catch (error) {
    if (isSqliteError(error)) {
      throw new LedgerUnusable(
        `${path} is not a usable SQLite ledger (${error.message})`,
      );
    }
    throw error;
  }
  for (const { name } of tables) {
    if (name === "sqlite_sequence") continue;
    const expected = EXPECTED_COLUMNS[name];
    if (expected === undefined) {
      throw new LedgerUnusable(
        `${path} holds a foreign schema (table ${name})`,
      );
    }
    const columns =
      (db.prepare(`PRAGMA table_info(${name})`).all() as unknown as {
        name: string;
      }[]).map((c) => c.name);
    if (columns.join(",") !== expected.join(",")) {
      throw new LedgerUnusable(
        `${path} holds a foreign schema (table ${name})`,
      );
    }
  }
}
