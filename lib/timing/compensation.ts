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
import { AuditUnavailable, InjectedFailure } from "./errors.ts";
import type { Ledger } from "./ledger.ts";
import type { CompensationState } from "./_compensation_schema.ts";
export type { CompensationState } from "./_compensation_schema.ts";
import { pythonJson } from "../base/json.ts";

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

/** The compensation state of `job` (read on the ledger's own connection). */
export function compensationState(
  ledger: Ledger,
  job: string,
): CompensationState {
  return ledger.compensationState(job);
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
  const events: string[] = [];
  // The request is a fact of its own: if what follows fails, reconcile can
  // still tell that a compensation was asked for and never confirmed.
  const start = ledger.writeTransaction(() => {
    // Nothing to undo writes nothing, not even the tables.
    if (!ledger.draftExists(job)) return "no_draft" as const;
    ledger.ensureCompensationTables();
    const state = ledger.compensationState(job);
    if (state === "voided") return "already_voided" as const;
    if (state === "none") ledger.recordCompensationRequest(job);
    return "requested" as const;
  });
  if (start !== "requested") {
    return { job, status: start, events, attempt: null };
  }
  events.push("compensation_requested");
  // The compensation's own commit point.
  ledger.writeTransaction(() => {
    if (ledger.voidCompensation(job) !== 1) {
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
  const attempt = ledger.writeTransaction(() => {
    const info = ledger.insertCompensationReceipt(job, pythonJson(events));
    if (info.changes !== 1) {
      throw new AuditUnavailable("compensation receipt did not create one row");
    }
    return info.attempt;
  });
  events.push("compensation_receipt_written");
  return { job, status: "voided", events, attempt };
}
