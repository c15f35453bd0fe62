/**
 * Compensation: undoing a committed draft takes the business's own flow,
 * which is another write with its own commit point, and which can itself
 * fail. A compensation is recorded as requested (one commit), then voids the
 * draft in its own transaction (the draft row stays; the void is a fact of
 * its own), then writes its own receipt. The reference lab's two tables are
 * never touched: the facts live in two tables it ignores.
 *
 * @module
 */
import { immediate, statement } from "../store/db.ts";
import { AuditUnavailable, InjectedFailure } from "../errors.ts";
import type { Ledger } from "./ledger.ts";
import { pythonJson } from "../store/wire.ts";

/** Where a trusted fault can make the compensation fail. */
export const COMPENSATION_FAULTS = ["before_commit", "after_commit"] as const;

/** A compensation fault point. */
export type CompensationFault = typeof COMPENSATION_FAULTS[number];

/** How a compensation went. */
export interface CompensationResult {
  /** The business key. */
  job: string;
  /**
   * `voided`: done and on record; `no_draft`: nothing to undo;
   * `already_voided`: done before, nothing written now.
   */
  status: "voided" | "no_draft" | "already_voided";
  /** What happened, in order. */
  events: string[];
  /** The compensation receipt's number, when one was written. */
  attempt: number | null;
}

/** The state of a key's compensation: none, requested (not confirmed), or voided. */
export type CompensationState = "none" | "requested" | "voided";

function hasTables(ledger: Ledger): boolean {
  const row = statement(
    ledger.db,
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE type='table' AND name IN ('compensations','compensation_receipts')",
  ).get() as { n: number };
  return Number(row.n) === 2;
}

/** The compensation state of `job` (read on the ledger's own connection). */
export function compensationState(
  ledger: Ledger,
  job: string,
): CompensationState {
  if (!hasTables(ledger)) return "none";
  const row = statement(
    ledger.db,
    "SELECT state FROM compensations WHERE job=?",
  ).get(job) as { state: string } | undefined;
  return row === undefined ? "none" : row.state as CompensationState;
}

/** Every key with a compensation, and its state, by job. */
export function compensations(
  ledger: Ledger,
): { job: string; state: CompensationState; receipts: number }[] {
  if (!hasTables(ledger)) return [];
  return (statement(
    ledger.db,
    `SELECT c.job AS job, c.state AS state,
       (SELECT COUNT(*) FROM compensation_receipts r WHERE r.job=c.job) AS n
     FROM compensations c ORDER BY c.job`,
  ).all() as unknown as {
    job: string;
    state: CompensationState;
    n: number;
  }[])
    .map((r) => ({ job: r.job, state: r.state, receipts: Number(r.n) }));
}

/**
 * Compensate `job`: record the request, void the draft in its own
 * transaction, then write the compensation's receipt (exactly one row, or
 * {@linkcode AuditUnavailable}). `failAt` (a trusted fault) raises inside
 * the void transaction (`before_commit`: rolled back, the request stays
 * unconfirmed) or right after its commit (`after_commit`: voided, no
 * compensation receipt).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compensate, Lab } from "../mod.ts";
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await lab.run({ job: "JOB-001", topic: "river", copies: 2 }, { badOutput: true });
 * assert.equal(compensate(lab.ledger, "JOB-001").status, "voided");
 * // The draft row stays; a retry of the key is refused, not re-created.
 * assert.equal(lab.ledger.countDrafts(), 1);
 * const retry = await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
 * assert.equal(retry.status, "key_voided");
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function compensate(
  ledger: Ledger,
  job: string,
  failAt?: CompensationFault,
): CompensationResult {
  const db = ledger.db;
  const events: string[] = [];
  // The request is a fact of its own: if what follows fails, reconcile can
  // still tell that a compensation was asked for and never confirmed.
  const start = immediate(db, () => {
    // Nothing to undo writes nothing, not even the tables.
    if (!ledger.draftExists(job)) return "no_draft" as const;
    db.exec(`CREATE TABLE IF NOT EXISTS compensations(
      job TEXT PRIMARY KEY, state TEXT NOT NULL)`);
    db.exec(`CREATE TABLE IF NOT EXISTS compensation_receipts(
      attempt INTEGER PRIMARY KEY AUTOINCREMENT,
      job TEXT NOT NULL, status TEXT NOT NULL, events TEXT NOT NULL)`);
    const state = compensationState(ledger, job);
    if (state === "voided") return "already_voided" as const;
    if (state === "none") {
      statement(
        db,
        "INSERT INTO compensations(job, state) VALUES(?, 'requested')",
      ).run(job);
    }
    return "requested" as const;
  });
  if (start !== "requested") {
    return { job, status: start, events, attempt: null };
  }
  events.push("compensation_requested");
  // The compensation's own commit point.
  immediate(db, () => {
    const changed = statement(
      db,
      "UPDATE compensations SET state='voided' WHERE job=? AND state='requested'",
    ).run(job).changes;
    if (Number(changed) !== 1) {
      throw new AuditUnavailable("compensation did not void exactly one row");
    }
    if (failAt === "before_commit") {
      throw new InjectedFailure("compensation_before_commit");
    }
  });
  events.push("void_committed");
  if (failAt === "after_commit") {
    throw new InjectedFailure("compensation_after_commit");
  }
  const attempt = immediate(db, () => {
    const info = statement(
      db,
      "INSERT INTO compensation_receipts(job, status, events) VALUES(?, 'voided', ?)",
    ).run(job, pythonJson(events));
    if (Number(info.changes) !== 1) {
      throw new AuditUnavailable("compensation receipt did not create one row");
    }
    return Number(info.lastInsertRowid);
  });
  events.push("compensation_receipt_written");
  return { job, status: "voided", events, attempt };
}
