/**
 * The lab's SQLite ledger: the `drafts` table (the business effect) and the
 * `receipts` table (the audit trail), with the reference lab's exact schema.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import {
  countRows,
  immediate,
  MAX_EXACT,
  openDatabase,
  type SchemaSpec,
  statement,
} from "../store/db.ts";
import { DraftNotInserted } from "../errors.ts";
import { COMPENSATION_TABLES } from "./compensation_schema.ts";
import { GRANTED_FOLDERS } from "../sandbox/sandbox.ts";

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
  what: { en: "ledger", zh: "账本" },
  tables: { drafts: DRAFTS, receipts: RECEIPTS },
  autoIndexes: [
    "sqlite_autoindex_drafts_1",
    "sqlite_autoindex_compensations_1",
  ],
  optionalTables: COMPENSATION_TABLES,
  triggers: {
    fixture_receipt_fault: [
      receiptFaultTrigger("ignore"),
      receiptFaultTrigger("abort"),
    ],
  },
  badValues: [
    `SELECT COUNT(*) AS n FROM drafts WHERE typeof(job)!='text'
       OR typeof(digest)!='text' OR typeof(body)!='text'`,
    `SELECT COUNT(*) AS n FROM receipts WHERE attempt>${MAX_EXACT}
       OR typeof(job) NOT IN ('text','null') OR typeof(status)!='text'
       OR typeof(effect_exists)!='integer' OR abs(effect_exists)>${MAX_EXACT}
       OR typeof(events)!='text'`,
    // The next attempt number must be exact too.
    `SELECT COUNT(*) AS n FROM sqlite_sequence
       WHERE typeof(seq)!='integer' OR seq>=${MAX_EXACT}`,
  ],
  create: `${DRAFTS};
${RECEIPTS};`,
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
  /** `read` opens read-only and never changes a byte; `write` (the default) may create. */
  mode?: "read" | "write";
  /** Folders the path is checked from; the sandbox grant by default. */
  trusted?: readonly string[];
}

/**
 * One connection to a ledger file. Opening refuses files that are not SQLite
 * or hold a foreign schema, and leaves such files as they were.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Ledger } from "../mod.ts";
 * // A folder of your own: a ledger in the shared /tmp itself is refused.
 * const dir = Deno.makeTempDirSync();
 * const ledger = Ledger.open(`${dir}/lab.sqlite`);
 * assert.equal(ledger.countDrafts(), 0);
 * ledger.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class Ledger {
  /** The underlying connection (tests use it to install fixtures). */
  readonly db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * Open the ledger at `path`, creating it for writing if needed. Throws
   * {@linkcode LedgerUnusable} for a link, a foreign or damaged file, and
   * leaves such a file byte-identical.
   */
  static open(path: string, options: LedgerOptions = {}): Ledger {
    return new Ledger(
      openDatabase(path, LEDGER_SCHEMA, {
        mode: options.mode ?? "write",
        trusted: options.trusted ?? GRANTED_FOLDERS,
        busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      }),
    );
  }

  /**
   * Run `body` in one write transaction. The write lock is taken at BEGIN, so
   * a read-then-write never has to upgrade its lock under contention.
   */
  writeTransaction<T>(body: () => T): T {
    return immediate(this.db, body);
  }

  /** The stored draft for `job`, if any. */
  findDraft(job: string): StoredDraft | undefined {
    return statement(this.db, "SELECT digest, body FROM drafts WHERE job=?")
      .get(job) as StoredDraft | undefined;
  }

  /**
   * Insert a new draft row, and throw {@linkcode DraftNotInserted} unless the
   * statement really added one: the same rule as the receipt.
   */
  insertDraft(job: string, digest: string, body: string): void {
    const changes = Number(
      statement(this.db, "INSERT INTO drafts VALUES(?,?,?)").run(
        job,
        digest,
        body,
      ).changes,
    );
    if (changes !== 1) throw new DraftNotInserted(changes);
  }

  /** Whether a draft for `job` exists. */
  draftExists(job: string): boolean {
    return statement(this.db, "SELECT 1 AS present FROM drafts WHERE job=?")
      .get(job) !== undefined;
  }

  /** Insert a receipt row; returns how many rows the statement really changed and the new attempt id. */
  insertReceipt(
    job: string | null,
    status: string,
    effectExists: boolean,
    eventsText: string,
  ): { changes: number; attempt: number } {
    const info = statement(
      this.db,
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,?,?)",
    ).run(
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
    return countRows(this.db, "drafts");
  }

  /** Number of receipts. */
  countReceipts(): number {
    return countRows(this.db, "receipts");
  }

  /** All drafts ordered by job, bodies parsed. */
  drafts(): DraftRow[] {
    const rows = statement(
      this.db,
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
    const rows = statement(
      this.db,
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
