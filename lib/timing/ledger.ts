/**
 * The lab's SQLite ledger: the `drafts` table (the business effect) and the
 * `receipts` table (the audit trail), with the reference lab's exact schema;
 * beside them, when used, the compensation tables and the MCP call tables
 * (`call_schema.ts`), which say who made each attempt.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { DatabaseSync } from "node:sqlite";
import {
  countRows,
  DEFAULT_BUSY_TIMEOUT_MS,
  immediate,
  MAX_EXACT,
  openDatabase,
  type SchemaSpec,
  statement,
} from "../store/db.ts";
import { DraftNotInserted } from "./errors.ts";
import {
  COMPENSATION_TABLES,
  type CompensationState,
  CREATE_COMPENSATION_TABLES_IF_MISSING,
} from "./_compensation_schema.ts";
import {
  CALL_TABLES,
  type CallTool,
  CREATE_CALL_TABLES_IF_MISSING,
  MAX_CLIENT_NAME,
} from "./call_schema.ts";
import { GRANTED_FOLDERS } from "../sandbox/sandbox.ts";
import { TIMING_MESSAGES } from "./messages.ts";

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
  what: TIMING_MESSAGES.ledger,
  tables: { drafts: DRAFTS, receipts: RECEIPTS },
  autoIndexes: [
    "sqlite_autoindex_drafts_1",
    "sqlite_autoindex_compensations_1",
  ],
  optionalTables: { ...COMPENSATION_TABLES, ...CALL_TABLES },
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

/**
 * Which MCP call an attempt is: its session, its `tools/call` number, the
 * tool, the key it asked about and when it started (microseconds since the
 * epoch, by this machine's clock: sessions in other processes compare).
 */
export interface CallTag {
  /** The session's number on this ledger. */
  session: number;
  /** The call's number in its session, from 1. */
  call: number;
  /** The tool called. */
  tool: CallTool;
  /** The business key it named, if it named a valid one. */
  job: string | null;
  /** When it started. */
  startedUs: number;
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

/** Now, in whole microseconds since the epoch (this machine's clock). */
export function microsNow(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Options for {@linkcode Ledger.open}. */
export interface LedgerOptions {
  /** Milliseconds to wait for a lock held by another connection. */
  busyTimeoutMs?: number;
  /**
   * `read`: a view of what the file holds, which never changes a byte beside
   * it; `observe`: a live read-only connection beside this process's writer;
   * `write` (the default) may create.
   */
  mode?: "read" | "observe" | "write";
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
  // Private: every statement on the ledger is a method here, so its SQL has
  // one home and no caller can hold a transaction the ledger does not know.
  readonly #db: DatabaseSync;
  /** The MCP call whose attempt is running in this async context, if any. */
  readonly #tags = new AsyncLocalStorage<CallTag>();

  private constructor(db: DatabaseSync) {
    this.#db = db;
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
    return immediate(this.#db, body);
  }

  /** The stored draft for `job`, if any. */
  findDraft(job: string): StoredDraft | undefined {
    return statement(this.#db, "SELECT digest, body FROM drafts WHERE job=?")
      .get(job) as StoredDraft | undefined;
  }

  /**
   * Insert a new draft row, and throw {@linkcode DraftNotInserted} unless the
   * statement really added one: the same rule as the receipt.
   */
  insertDraft(job: string, digest: string, body: string): void {
    const changes = Number(
      statement(this.#db, "INSERT INTO drafts VALUES(?,?,?)").run(
        job,
        digest,
        body,
      ).changes,
    );
    if (changes !== 1) throw new DraftNotInserted(changes);
  }

  /** Whether a draft for `job` exists. */
  draftExists(job: string): boolean {
    return statement(this.#db, "SELECT 1 AS present FROM drafts WHERE job=?")
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
      this.#db,
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,?,?)",
    ).run(
      job,
      status,
      effectExists ? 1 : 0,
      eventsText,
    );
    const written = {
      changes: Number(info.changes),
      attempt: Number(info.lastInsertRowid),
    };
    // Inside the receipt's own transaction: the call row and the receipt
    // are committed together, with no commit of their own.
    const tag = this.#tags.getStore();
    if (tag !== undefined && written.changes === 1) {
      this.#insertCall(tag, written.attempt);
    }
    return written;
  }

  /**
   * Run `body` as MCP call `tag`: the receipt it writes (in any turn of
   * `body`'s async work) gets a `mcp_calls` row in the same transaction.
   */
  taggedAs<T>(tag: CallTag, body: () => T): T {
    return this.#tags.run(tag, body);
  }

  /**
   * Start a new MCP session on this ledger (the call tables made if
   * missing) and return its number. `client` is cut to
   * {@linkcode MAX_CLIENT_NAME} characters.
   */
  openSession(client: string): number {
    return this.writeTransaction(() => {
      this.#db.exec(CREATE_CALL_TABLES_IF_MISSING);
      const info = statement(
        this.#db,
        "INSERT INTO mcp_sessions(client, started_us) VALUES(?, ?)",
      ).run([...client].slice(0, MAX_CLIENT_NAME).join(""), microsNow());
      return Number(info.lastInsertRowid);
    });
  }

  /**
   * Record MCP call `tag` that wrote no receipt of the lab's (a read, or an
   * attempt whose receipt failed), in its own transaction.
   */
  recordCall(tag: CallTag): void {
    this.writeTransaction(() => this.#insertCall(tag, null));
  }

  #insertCall(tag: CallTag, receipt: number | null): void {
    statement(
      this.#db,
      "INSERT INTO mcp_calls VALUES(?, ?, ?, ?, ?, ?, ?)",
    ).run(
      tag.session,
      tag.call,
      tag.tool,
      tag.job,
      receipt,
      tag.startedUs,
      Math.max(tag.startedUs, microsNow()),
    );
  }

  /** Every MCP call on record, in the order they started. */
  calls(): CallRow[] {
    if (!this.#hasTables("mcp_sessions", "mcp_calls")) return [];
    return (statement(
      this.#db,
      `SELECT session, call, tool, job, receipt, started_us, ended_us
       FROM mcp_calls ORDER BY started_us, session, call`,
    ).all() as unknown as CallRow[]).map((r) => ({
      session: Number(r.session),
      call: Number(r.call),
      tool: r.tool,
      job: r.job,
      receipt: r.receipt === null ? null : Number(r.receipt),
      started_us: Number(r.started_us),
      ended_us: Number(r.ended_us),
    }));
  }

  /** Every MCP session on record, by number. */
  sessions(): SessionRow[] {
    if (!this.#hasTables("mcp_sessions", "mcp_calls")) return [];
    return (statement(
      this.#db,
      "SELECT session, client, started_us FROM mcp_sessions ORDER BY session",
    ).all() as unknown as SessionRow[]).map((r) => ({
      session: Number(r.session),
      client: r.client,
      started_us: Number(r.started_us),
    }));
  }

  /** Number of MCP calls on record (0 when no MCP server touched the ledger). */
  countCalls(): number {
    if (!this.#hasTables("mcp_sessions", "mcp_calls")) return 0;
    return countRows(this.#db, "mcp_calls");
  }

  /** Number of drafts. */
  countDrafts(): number {
    return countRows(this.#db, "drafts");
  }

  /** Number of receipts. */
  countReceipts(): number {
    return countRows(this.#db, "receipts");
  }

  /** All drafts ordered by job, bodies parsed. */
  drafts(): DraftRow[] {
    const rows = statement(
      this.#db,
      "SELECT job, digest, body FROM drafts ORDER BY job",
    )
      .all() as unknown as { job: string; digest: string; body: string }[];
    return rows.map((r) => ({
      job: r.job,
      digest: r.digest,
      body: parseOr(r.body),
    }));
  }

  /** The receipts numbered above `attempt`, in order: what an observer has not seen yet. */
  receiptsAfter(attempt: number): ReceiptRow[] {
    return this.#receiptRows("WHERE attempt>? ", attempt);
  }

  /** All receipts ordered by attempt, events parsed. */
  receipts(): ReceiptRow[] {
    return this.#receiptRows("");
  }

  /** The receipts `where` selects (guardlab's own SQL, never user text), decoded. */
  #receiptRows(where: string, ...params: number[]): ReceiptRow[] {
    const rows = statement(
      this.#db,
      `SELECT attempt, job, status, effect_exists, events FROM receipts ${where}ORDER BY attempt`,
    ).all(...params) as unknown as {
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

  /** Whether this connection is inside a transaction now (a finished step must leave none open). */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  /**
   * Install (`ignore`, `abort`) or remove (`none`) the test-only receipt
   * fault trigger: a trusted fixture for the demos, `script` and tests,
   * never tool input.
   */
  setReceiptFault(fault: ReceiptFault | "none"): void {
    this.#db.exec("DROP TRIGGER IF EXISTS fixture_receipt_fault");
    if (fault !== "none") this.#db.exec(receiptFaultTrigger(fault));
  }

  /** The connection's settings as SQLite reports them (what `openDatabase` set). */
  connectionSettings(): {
    journalMode: string;
    synchronous: number;
    tempStore: number;
    busyTimeoutMs: number;
  } {
    const one = (pragma: string) =>
      Object.values(
        this.#db.prepare(`PRAGMA ${pragma}`).get() as Record<string, unknown>,
      )[0];
    return {
      journalMode: String(one("journal_mode")),
      synchronous: Number(one("synchronous")),
      tempStore: Number(one("temp_store")),
      busyTimeoutMs: Number(one("busy_timeout")),
    };
  }

  #hasCompensationTables(): boolean {
    return this.#hasTables("compensations", "compensation_receipts");
  }

  /** Whether both tables `a` and `b` (guardlab's own names) exist. */
  #hasTables(a: string, b: string): boolean {
    const row = statement(
      this.#db,
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type='table' AND name IN (?, ?)",
    ).get(a, b) as { n: number };
    return Number(row.n) === 2;
  }

  /** The compensation state of `job`. */
  compensationState(job: string): CompensationState {
    if (!this.#hasCompensationTables()) return "none";
    const row = statement(
      this.#db,
      "SELECT state FROM compensations WHERE job=?",
    ).get(job) as { state: string } | undefined;
    return row === undefined ? "none" : row.state as CompensationState;
  }

  /** Every key with a compensation, its state and its compensation receipts, by job. */
  compensations(): {
    job: string;
    state: CompensationState;
    receipts: number;
  }[] {
    if (!this.#hasCompensationTables()) return [];
    return (statement(
      this.#db,
      // The receipts are counted per key once, then joined: a subquery per
      // compensation would scan every receipt for each (quadratic).
      `SELECT c.job AS job, c.state AS state, coalesce(r.n, 0) AS n
     FROM compensations c LEFT JOIN (SELECT job, COUNT(*) AS n
       FROM compensation_receipts GROUP BY job) r ON r.job=c.job
     ORDER BY c.job`,
    ).all() as unknown as {
      job: string;
      state: CompensationState;
      n: number;
    }[])
      .map((r) => ({ job: r.job, state: r.state, receipts: Number(r.n) }));
  }

  /**
   * Record that `job`'s compensation was asked for. Call inside
   * {@linkcode Ledger.writeTransaction}, after
   * {@linkcode Ledger.ensureCompensationTables}.
   */
  recordCompensationRequest(job: string): void {
    statement(
      this.#db,
      "INSERT INTO compensations(job, state) VALUES(?, 'requested')",
    ).run(job);
  }

  /**
   * Create the compensation tables if they are missing. Call inside
   * {@linkcode Ledger.writeTransaction}.
   */
  ensureCompensationTables(): void {
    this.#db.exec(CREATE_COMPENSATION_TABLES_IF_MISSING);
  }

  /** Mark `job`'s requested compensation voided; returns how many rows changed. */
  voidCompensation(job: string): number {
    return Number(
      statement(
        this.#db,
        "UPDATE compensations SET state='voided' WHERE job=? AND state='requested'",
      ).run(job).changes,
    );
  }

  /** Insert a compensation receipt; returns the rows really changed and its number. */
  insertCompensationReceipt(
    job: string,
    eventsText: string,
  ): { changes: number; attempt: number } {
    const info = statement(
      this.#db,
      "INSERT INTO compensation_receipts(job, status, events) VALUES(?, 'voided', ?)",
    ).run(job, eventsText);
    return {
      changes: Number(info.changes),
      attempt: Number(info.lastInsertRowid),
    };
  }

  /** Close the connection. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
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
