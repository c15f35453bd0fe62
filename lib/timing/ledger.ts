/**
 * The lab's SQLite ledger: the `drafts` table (the business effect) and the
 * `receipts` table (the audit trail), with the reference lab's exact schema;
 * beside them, when used, the compensation tables and the MCP call tables
 * (`call_schema.ts`), which say who made each attempt.
 *
 * @module
 */
import type * as AsyncHooks from "node:async_hooks";
import type { AsyncLocalStorage } from "node:async_hooks";
import { nodeBuiltin } from "../base/node_builtin.ts";
import type { DatabaseSync } from "node:sqlite";
import {
  closeDatabase,
  countRows,
  DEFAULT_BUSY_TIMEOUT_MS,
  immediate,
  openDatabase,
  statement,
} from "../store/db.ts";
import { DraftNotInserted } from "./errors.ts";
import {
  type CompensationState,
  CREATE_COMPENSATION_TABLES_IF_MISSING,
} from "./_compensation_schema.ts";
import {
  type CallTool,
  CREATE_CALL_TABLES_IF_MISSING,
  MAX_CLIENT_NAME,
} from "./call_schema.ts";
import { GRANTED_FOLDERS } from "../sandbox/sandbox.ts";
import {
  type CallRow,
  compensationReceiptsOf,
  type CompensationRow,
  compensationStatesOf,
  type DraftRow,
  eachCall,
  eachDraft,
  eachDraftKey,
  eachReceipt,
  eachSession,
  type ReceiptRow,
  receiptsByKey,
  type SessionRow,
} from "./_ledger_reads.ts";
import {
  committedAmong,
  eachCompensation,
  type HistoryFacts,
  historyFacts,
  type KeyRange,
  keyRanges,
  type RangeFindings,
  reconcileRange,
} from "./_key_ranges.ts";

export type {
  CallRow,
  CompensationRow,
  DraftRow,
  ReceiptRow,
  SessionRow,
} from "./_ledger_reads.ts";
export type {
  HistoryFacts,
  KeyRange,
  ListedKey,
  RangeFindings,
} from "./_key_ranges.ts";
export { MAX_HELD_KEY_CHARS } from "./_key_ranges.ts";
import {
  LEDGER_SCHEMA,
  type ReceiptFault,
  receiptFaultTrigger,
} from "./_ledger_schema.ts";

export { LEDGER_SCHEMA, type ReceiptFault, receiptFaultTrigger };

/** A stored draft as the business step reads it back. */
export interface StoredDraft {
  /** Canonical digest of the arguments that created it. */
  digest: string;
  /** The draft body, JSON text. */
  body: string;
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
  /**
   * For tests: called when the ledger's proof of provenance has matched,
   * before SQLite opens it (see `store/_provenance.ts`).
   */
  beforeProvenOpen?: () => void;
  /**
   * For tests: called when a writer has opened a file it checked that
   * another program left with a rollback journal, before it switches it to
   * write-ahead logging (see `store/db.ts`).
   */
  beforeSwitch?: () => void;
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
  /**
   * Made at the first {@linkcode Ledger.taggedAs} (an MCP session): a
   * command that tags no call never loads `node:async_hooks`.
   */
  #tags?: AsyncLocalStorage<CallTag>;

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
        beforeProvenOpen: options.beforeProvenOpen,
        beforeSwitch: options.beforeSwitch,
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
    const tag = this.#tags?.getStore();
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
    this.#tags ??= new (nodeBuiltin<typeof AsyncHooks>("node:async_hooks")
      .AsyncLocalStorage)<CallTag>();
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
    return [...this.eachCall()];
  }

  /**
   * The MCP calls on record, one at a time, in the order they started: the
   * first `limit` of them, when given (SQLite keeps no more while it sorts).
   */
  *eachCall(limit?: number): Generator<CallRow> {
    if (this.#hasTables("mcp_sessions", "mcp_calls")) {
      yield* eachCall(this.#db, limit);
    }
  }

  /** Every MCP session on record, by number. */
  sessions(): SessionRow[] {
    return [...this.eachSession()];
  }

  /** The MCP sessions on record, one at a time, by number. */
  *eachSession(): Generator<SessionRow> {
    if (this.#hasTables("mcp_sessions", "mcp_calls")) {
      yield* eachSession(this.#db);
    }
  }

  /** Number of MCP sessions on record (0 when no MCP server touched the ledger). */
  countSessions(): number {
    if (!this.#hasTables("mcp_sessions", "mcp_calls")) return 0;
    return countRows(this.#db, "mcp_sessions");
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
    return [...this.eachDraft()];
  }

  /** The receipts numbered above `attempt`, in order: what an observer has not seen yet. */
  receiptsAfter(attempt: number): ReceiptRow[] {
    return [...this.eachReceipt(attempt)];
  }

  /** All receipts ordered by attempt, events parsed. */
  receipts(): ReceiptRow[] {
    return [...this.eachReceipt()];
  }

  /**
   * The drafts ordered by job, one at a time: a view takes what it shows
   * and reads no further, so what it holds does not grow with the ledger.
   * The walk ends before the first draft whose stored text is longer than
   * `maxChars` characters (a view passes the most it could ever show).
   */
  eachDraft(maxChars?: number): Generator<DraftRow> {
    return eachDraft(this.#db, maxChars);
  }

  /**
   * The receipts in order (those above `after`, when given), one at a
   * time; the walk ends before the first longer than `maxChars`.
   */
  eachReceipt(after?: number, maxChars?: number): Generator<ReceiptRow> {
    return eachReceipt(this.#db, after, maxChars);
  }

  /** The drafts' keys in order, one at a time (through the key index). */
  eachDraftKey(): Generator<string> {
    return eachDraftKey(this.#db);
  }

  /**
   * The drafts' key index in ranges of at most `MAX_HELD_KEY_CHARS` (a
   * test passes a smaller `maxChars`), in order or from the last key back:
   * what SQLite holds at once to find a fact about every draft.
   */
  keyRanges(descending = false, maxChars?: number): Generator<KeyRange> {
    return keyRanges(this.#db, descending, maxChars);
  }

  /**
   * What reconciliation lists in `range` (drafts no receipt accepts, and
   * compensated ones): how many, how many voided, and the first `limit`.
   */
  reconcileRange(range: KeyRange, limit: number): RangeFindings {
    return reconcileRange(
      this.#db,
      range,
      limit,
      this.#hasCompensationTables(),
    );
  }

  /** Of the keys `jobs`, those some receipt shows committing their draft. */
  committedAmong(jobs: Iterable<string>): Set<string> {
    return committedAmong(this.#db, jobs);
  }

  /**
   * The number and status of each receipt of `jobs`, in order, by key,
   * holding at most `maxHeld` receipts (the lists of the last keys let go
   * past it): see `_ledger_reads.ts`.
   */
  receiptsByKey(
    jobs: readonly string[],
    maxHeld?: number,
  ): {
    lists: Map<string, { attempt: number; status: string }[]>;
    dropped: Set<string>;
  } {
    return receiptsByKey(this.#db, jobs, maxHeld);
  }

  /**
   * What a history needs of the ledger without holding it (counts, the
   * last `last` drafts no receipt names, the latest `last` receipts and
   * facts of their keys): see `_ledger_reads.ts`.
   */
  historyFacts(last: number): HistoryFacts {
    return historyFacts(this.#db, last);
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
  compensations(): CompensationRow[] {
    return [...this.eachCompensation()];
  }

  /**
   * The compensations by key, one at a time, each with how many
   * compensation receipts name it (a batch of keys at a time: what is held
   * does not grow with the ledger).
   */
  *eachCompensation(): Generator<CompensationRow> {
    if (this.#hasCompensationTables()) yield* eachCompensation(this.#db);
  }

  /** Number of compensations (0 when none was ever asked for). */
  countCompensations(): number {
    if (!this.#hasCompensationTables()) return 0;
    return countRows(this.#db, "compensations");
  }

  /** How many compensation receipts name each of `jobs` (one pass over them). */
  compensationReceiptsOf(jobs: Iterable<string>): Map<string, number> {
    if (!this.#hasCompensationTables()) return new Map();
    return compensationReceiptsOf(this.#db, jobs);
  }

  /** The compensation state of each of `jobs` that has one. */
  compensationStatesOf(jobs: Iterable<string>): Map<string, CompensationState> {
    if (!this.#hasCompensationTables()) return new Map();
    return compensationStatesOf(this.#db, jobs);
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
    // A writer of the private folder renews its proof of provenance here.
    closeDatabase(this.#db);
  }
}
