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
import { InjectedFailure, InputRejected } from "../errors.ts";
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
 * credential: {@linkcode insertChecked} re-verifies it at commit time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect, initialize, precheck, Snapshot } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * assert.ok(precheck(db, { job: "JOB-001", copies: 1 }) instanceof Snapshot);
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
  badValues: [
    `SELECT COUNT(*) AS n FROM policy WHERE typeof(revision)!='integer'
       OR revision>=${MAX_EXACT} OR typeof(max_copies)!='integer'`,
    `SELECT COUNT(*) AS n FROM drafts WHERE typeof(job)!='text'
       OR typeof(copies)!='integer' OR abs(copies)>${MAX_EXACT}
       OR typeof(checked_revision)!='integer'
       OR abs(checked_revision)>${MAX_EXACT}`,
  ],
  create: `${POLICY};\nINSERT INTO policy VALUES(1, 1, 3);\n${POLICY_DRAFTS};`,
};

/** Options for {@linkcode connect}. */
export interface ConnectOptions {
  /** Milliseconds to wait for another connection's lock; the lab's fixed interleavings use 0. */
  busyTimeoutMs?: number;
  /** Folders the path is checked from; the sandbox grant by default. */
  trusted?: readonly string[];
}

/**
 * Open a connection in autocommit mode; every transaction is begun
 * explicitly. The place is checked first (no link, a private folder). The
 * file uses write-ahead logging with synchronous=FULL, like the lab ledger:
 * each commit is synced before it returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect, initialize, rows } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/policy.sqlite`;
 * const db = connect(path);
 * initialize(db);
 * assert.deepEqual(rows(db), []);
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function connect(
  path: string,
  options: ConnectOptions = {},
): DatabaseSync {
  return openUnchecked(path, {
    trusted: options.trusted ?? GRANTED_FOLDERS,
    busyTimeoutMs: options.busyTimeoutMs,
  });
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

/** Open an existing policy database read-only, checked; it never changes a byte. */
export function openPolicyForReading(
  path: string,
  trusted: readonly string[] = GRANTED_FOLDERS,
): DatabaseSync {
  return openDatabase(path, POLICY_SCHEMA, { mode: "read", trusted });
}

/**
 * A live read-only connection to a policy database this process is
 * writing (a second connection that sees each commit), checked; it never
 * changes a byte.
 */
export function observePolicy(
  path: string,
  trusted: readonly string[] = GRANTED_FOLDERS,
): DatabaseSync {
  return openDatabase(path, POLICY_SCHEMA, { mode: "observe", trusted });
}

/**
 * Create the policy singleton (revision 1, limit 3) and the drafts table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect, currentPolicy, initialize } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * assert.deepEqual({ ...currentPolicy(db) }, { revision: 1, max_copies: 3 });
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function initialize(db: DatabaseSync): void {
  db.exec(POLICY_SCHEMA.create);
}

/**
 * Trusted setup only, never a tool: set the limit and advance the revision,
 * even when the value is unchanged, so an old snapshot can never match again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePolicy, connect, currentPolicy, initialize } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * changePolicy(db, 3); // the same value still advances the revision
 * assert.deepEqual({ ...currentPolicy(db) }, { revision: 2, max_copies: 3 });
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function changePolicy(db: DatabaseSync, maxCopies: unknown): void {
  if (!isIntegerIn(maxCopies, 0, MOST_COPIES)) {
    throw new RangeError("max_copies");
  }
  statement(
    db,
    "UPDATE policy SET revision=revision+1, max_copies=? WHERE singleton=1",
  ).run(maxCopies);
}

/**
 * The current rule, or `null` when the policy row is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect, currentPolicy, initialize } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * db.exec("DELETE FROM policy");
 * assert.equal(currentPolicy(db), null);
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function currentPolicy(db: DatabaseSync): Snapshot | null {
  const row = statement(
    db,
    "SELECT revision, max_copies FROM policy WHERE singleton=1",
  ).get() as { revision: number; max_copies: number } | undefined;
  return row === undefined
    ? null
    : new Snapshot(Number(row.revision), Number(row.max_copies));
}

/**
 * Validate `request` and judge it against the rule as it is now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePolicy, connect, initialize, precheck } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * assert.equal(precheck(db, { job: "JOB-001", copies: 2 }).revision, 1);
 * changePolicy(db, 1);
 * assert.throws(() => precheck(db, { job: "JOB-001", copies: 2 }), { reason: "current_limit" });
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function precheck(db: DatabaseSync, request: PolicyRequest): Snapshot {
  validateRequest(request);
  const snapshot = currentPolicy(db);
  if (snapshot === null) throw new InputRejected("missing_policy");
  if (request.copies > snapshot.max_copies) {
    throw new InputRejected("current_limit");
  }
  return snapshot;
}

/**
 * Deliberately wrong control: trusts an earlier check forever.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePolicy, connect, initialize, insertNaive, precheck, rows } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/policy.sqlite`;
 * const reader = connect(path);
 * const editor = connect(path);
 * initialize(reader);
 * const seen = precheck(reader, { job: "JOB-001", copies: 2 });
 * changePolicy(editor, 1);
 * // The wrong control writes under the stale revision anyway.
 * insertNaive(reader, { job: "JOB-001", copies: 2 }, seen);
 * assert.deepEqual(rows(editor), [["JOB-001", 2, 1]]);
 * reader.close();
 * editor.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function insertNaive(
  db: DatabaseSync,
  request: PolicyRequest,
  snapshot: Snapshot,
): void {
  validateRequest(request);
  statement(db, "INSERT INTO drafts VALUES(?,?,?)").run(
    request.job,
    request.copies,
    snapshot.revision,
  );
}

/** Thrown inside the transaction to roll it back when the condition fails. */
const NOT_MATCHED = Symbol("condition no longer holds");

/** Options for {@linkcode insertChecked}. */
export interface InsertCheckedOptions {
  /** Trusted fault: fail after the INSERT, before COMMIT. */
  failBeforeCommit?: boolean;
}

/**
 * Insert the draft only if the rule revision is still the one `snapshot` saw
 * and its limit still admits the copies, decided inside one write
 * transaction. Returns `false` (nothing written) when the condition no longer
 * holds; every other failure rolls back and propagates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePolicy, connect, initialize, insertChecked, precheck, rows } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/policy.sqlite`;
 * const reader = connect(path);
 * const editor = connect(path);
 * initialize(reader);
 * const request = { job: "JOB-001", copies: 2 };
 * const seen = precheck(reader, request);
 * changePolicy(editor, 1); // the rule changes between check and commit
 * assert.equal(insertChecked(reader, request, seen), false);
 * assert.deepEqual(rows(editor), []);
 * reader.close();
 * editor.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function insertChecked(
  db: DatabaseSync,
  request: PolicyRequest,
  snapshot: Snapshot,
  options: InsertCheckedOptions = {},
): boolean {
  validateRequest(request);
  if (!(snapshot instanceof Snapshot) || !Number.isInteger(snapshot.revision)) {
    throw new TypeError("snapshot");
  }
  // The write lock is taken first, so no rule change can commit between the
  // condition and the insert.
  try {
    return immediate(db, () => {
      const changed = statement(
        db,
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

/**
 * The drafts as `[job, copies, checked_revision]`, ordered by job.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connect, initialize, insertChecked, precheck, rows } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const db = connect(`${dir}/policy.sqlite`);
 * initialize(db);
 * const request = { job: "JOB-001", copies: 2 };
 * insertChecked(db, request, precheck(db, request));
 * assert.deepEqual(rows(db), [["JOB-001", 2, 1]]);
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function rows(db: DatabaseSync): [string, number, number][] {
  return (statement(
    db,
    "SELECT job, copies, checked_revision FROM drafts ORDER BY job",
  ).all() as unknown as {
    job: string;
    copies: number;
    checked_revision: number;
  }[])
    .map((r) => [r.job, Number(r.copies), Number(r.checked_revision)]);
}
