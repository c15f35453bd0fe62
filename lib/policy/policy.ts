/**
 * The policy boundary lab: a pre-check judged the facts it saw; the write must
 * commit only if those facts (the rule revision) still hold at commit time.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { COPIES_RANGE, isIntegerIn, JOB_PATTERN } from "../timing/args.ts";
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  immediate,
  MAX_EXACT,
  openDatabase,
  openUnchecked,
  type SchemaSpec,
  statement,
} from "../store/db.ts";
import { InjectedFailure, InputRejected } from "../timing/errors.ts";
import { GRANTED_FOLDERS } from "../sandbox/sandbox.ts";

/** A draft request in the policy lab. */
export interface PolicyRequest {
  /** Business key, `JOB-` and three digits. */
  readonly job: unknown;
  /** An integer in {@linkcode COPIES_RANGE}. */
  readonly copies: unknown;
}

/** Throw {@linkcode InputRejected} (`job` or `copies`) unless `request` is well formed. */
export function validateRequest(
  request: PolicyRequest,
): asserts request is { job: string; copies: number } {
  if (typeof request.job !== "string" || !JOB_PATTERN.test(request.job)) {
    throw new InputRejected("job");
  }
  if (!isIntegerIn(request.copies, ...COPIES_RANGE)) {
    throw new InputRejected("copies");
  }
}

/**
 * What one read of the rule saw. It is a fact about the past, not a
 * credential: {@linkcode PolicyLab.insertChecked} re-verifies it at commit time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PolicyLab, Snapshot } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = PolicyLab.open(`${dir}/policy.sqlite`);
 * db.initialize();
 * assert.ok(db.precheck({ job: "JOB-001", copies: 1 }) instanceof Snapshot);
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class Snapshot {
  /** Build a snapshot of `revision` and its limit. */
  constructor(readonly revision: number, readonly max_copies: number) {}
}

// A rule may allow any number of copies a request may ask for, or none.
const MOST_COPIES = COPIES_RANGE[1];

const POLICY = `CREATE TABLE policy(
  singleton INTEGER PRIMARY KEY CHECK(singleton=1),
  revision INTEGER NOT NULL CHECK(revision>0),
  max_copies INTEGER NOT NULL CHECK(max_copies BETWEEN 0 AND ${MOST_COPIES}))`;
const POLICY_DRAFTS = `CREATE TABLE drafts(
  job TEXT PRIMARY KEY, copies INTEGER NOT NULL,
  checked_revision INTEGER NOT NULL)`;

/** The policy database's exact schema, as the reference writes it. */
export const POLICY_SCHEMA: SchemaSpec = {
  what: { en: "policy database", zh: "规则数据库" },
  tables: { policy: POLICY, drafts: POLICY_DRAFTS },
  autoIndexes: ["sqlite_autoindex_drafts_1"],
  triggers: {},
  rowChecks: {
    policy: `revision<${MAX_EXACT}`,
    drafts: `copies BETWEEN -${MAX_EXACT} AND ${MAX_EXACT}
      AND checked_revision BETWEEN -${MAX_EXACT} AND ${MAX_EXACT}`,
  },
  badValues: [],
  create: `${POLICY};\nINSERT INTO policy VALUES(1, 1, 3);\n${POLICY_DRAFTS};`,
};

/** Options for {@linkcode PolicyLab.open}. */
export interface ConnectOptions {
  /** Milliseconds to wait for another connection's lock; the lab's fixed interleavings use 0. */
  busyTimeoutMs?: number;
  /** Folders the path is checked from; the sandbox grant by default. */
  trusted?: readonly string[];
}

/**
 * Check the policy database at `path` (exact schema, integrity) and create
 * it at revision 1, limit 3, if it is new. Check and creation share one write
 * transaction, so two processes starting together cannot both initialise it.
 * A refused file is left byte-identical.
 */
export function ensurePolicyDatabase(
  path: string,
  trusted: readonly string[] = GRANTED_FOLDERS,
): void {
  openDatabase(path, POLICY_SCHEMA, {
    mode: "write",
    trusted,
    busyTimeoutMs: DEFAULT_BUSY_TIMEOUT_MS,
  }).close();
}

/** Thrown inside the transaction to roll it back when the condition fails. */
const NOT_MATCHED = Symbol("condition no longer holds");

/** Options for {@linkcode PolicyLab.insertChecked}. */
export interface InsertCheckedOptions {
  /** Trusted fault: fail after the INSERT, before COMMIT. */
  failBeforeCommit?: boolean;
}

/**
 * The policy lab over one connection of its own, the same shape as the
 * timing lab's `Ledger`: every statement on the policy database is a method
 * here. The lab's interleavings use two of them on one file, a reader (who
 * pre-checks and writes) and an editor (who changes the rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PolicyLab } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/policy.sqlite`;
 * const reader = PolicyLab.open(path);
 * const editor = PolicyLab.open(path);
 * reader.initialize();
 * const request = { job: "JOB-001", copies: 2 };
 * const seen = reader.precheck(request);
 * editor.changePolicy(1); // the rule changes between check and commit
 * assert.equal(reader.insertChecked(request, seen), false);
 * assert.deepEqual(editor.rows(), []);
 * reader.close();
 * editor.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class PolicyLab {
  // Private: the policy lab's SQL has one home, as the ledger's.
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /**
   * Open a connection in autocommit mode; every transaction is begun
   * explicitly. The place is checked first (no link, a private folder). The
   * file uses write-ahead logging with synchronous=FULL, like the lab ledger:
   * each commit is synced before it returns.
   */
  static open(path: string, options: ConnectOptions = {}): PolicyLab {
    return new PolicyLab(
      openUnchecked(path, {
        trusted: options.trusted ?? GRANTED_FOLDERS,
        busyTimeoutMs: options.busyTimeoutMs,
      }),
    );
  }

  /** Open an existing policy database read-only, checked; it never changes a byte. */
  static openForReading(
    path: string,
    trusted: readonly string[] = GRANTED_FOLDERS,
  ): PolicyLab {
    return new PolicyLab(
      openDatabase(path, POLICY_SCHEMA, { mode: "read", trusted }),
    );
  }

  /**
   * A live read-only connection to a policy database this process is
   * writing (a second connection that sees each commit), checked; it never
   * changes a byte.
   */
  static observe(
    path: string,
    trusted: readonly string[] = GRANTED_FOLDERS,
  ): PolicyLab {
    return new PolicyLab(
      openDatabase(path, POLICY_SCHEMA, { mode: "observe", trusted }),
    );
  }

  /** Close the connection. */
  close(): void {
    this.#db.close();
  }

  /** Create the policy singleton (revision 1, limit 3) and the drafts table. */
  initialize(): void {
    this.#db.exec(POLICY_SCHEMA.create);
  }

  /**
   * Trusted setup only, never a tool: set the limit and advance the revision,
   * even when the value is unchanged, so an old snapshot can never match again.
   */
  changePolicy(maxCopies: unknown): void {
    if (!isIntegerIn(maxCopies, 0, MOST_COPIES)) {
      throw new RangeError("max_copies");
    }
    statement(
      this.#db,
      "UPDATE policy SET revision=revision+1, max_copies=? WHERE singleton=1",
    ).run(maxCopies);
  }

  /** Trusted setup only: delete the rule row (a pre-check then finds no rule). */
  deleteRule(): void {
    this.#db.exec("DELETE FROM policy");
  }

  /** The current rule, or `null` when the policy row is missing. */
  currentPolicy(): Snapshot | null {
    const row = statement(
      this.#db,
      "SELECT revision, max_copies FROM policy WHERE singleton=1",
    ).get() as { revision: number; max_copies: number } | undefined;
    return row === undefined
      ? null
      : new Snapshot(Number(row.revision), Number(row.max_copies));
  }

  /** Validate `request` and judge it against the rule as it is now. */
  precheck(request: PolicyRequest): Snapshot {
    validateRequest(request);
    const snapshot = this.currentPolicy();
    if (snapshot === null) throw new InputRejected("missing_policy");
    if (request.copies > snapshot.max_copies) {
      throw new InputRejected("current_limit");
    }
    return snapshot;
  }

  /** Deliberately wrong control: trusts an earlier check forever. */
  insertNaive(request: PolicyRequest, snapshot: Snapshot): void {
    validateRequest(request);
    statement(this.#db, "INSERT INTO drafts VALUES(?,?,?)").run(
      request.job,
      request.copies,
      snapshot.revision,
    );
  }

  /**
   * Insert the draft only if the rule revision is still the one `snapshot` saw
   * and its limit still admits the copies, decided inside one write
   * transaction. Returns `false` (nothing written) when the condition no longer
   * holds; every other failure rolls back and propagates.
   */
  insertChecked(
    request: PolicyRequest,
    snapshot: Snapshot,
    options: InsertCheckedOptions = {},
  ): boolean {
    validateRequest(request);
    if (
      !(snapshot instanceof Snapshot) || !Number.isInteger(snapshot.revision)
    ) {
      throw new TypeError("snapshot");
    }
    // The write lock is taken first, so no rule change can commit between the
    // condition and the insert.
    try {
      return this.writeTransaction(() => {
        const changed = statement(
          this.#db,
          `INSERT INTO drafts(job, copies, checked_revision)
           SELECT ?, ?, revision FROM policy
           WHERE singleton=1 AND revision=? AND max_copies>=?`,
        ).run(request.job, request.copies, snapshot.revision, request.copies)
          .changes;
        // The condition no longer holds: nothing was inserted, roll back.
        if (Number(changed) !== 1) throw NOT_MATCHED;
        if (options.failBeforeCommit) {
          throw new InjectedFailure("injected_before_commit");
        }
        return true;
      });
    } catch (error) {
      if (error === NOT_MATCHED) return false;
      throw error;
    }
  }

  /** The drafts as `[job, copies, checked_revision]`, ordered by job. */
  rows(): [string, number, number][] {
    return (statement(
      this.#db,
      "SELECT job, copies, checked_revision FROM drafts ORDER BY job",
    ).all() as unknown as {
      job: string;
      copies: number;
      checked_revision: number;
    }[])
      .map((r) => [r.job, Number(r.copies), Number(r.checked_revision)]);
  }

  /**
   * Run `body` in one write transaction. The write lock is taken at BEGIN, so
   * no other connection can change the rule while `body` runs.
   */
  writeTransaction<T>(body: () => T): T {
    return immediate(this.#db, body);
  }

  /** Take the write lock and hold it (`BEGIN IMMEDIATE`) until {@linkcode PolicyLab.releaseWriteLock}. */
  holdWriteLock(): void {
    this.#db.exec("BEGIN IMMEDIATE");
  }

  /** Roll back the transaction this connection holds, if any (as Python's `rollback()`). */
  releaseWriteLock(): void {
    if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
  }

  /** Whether this connection is inside a transaction now. */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }
}
