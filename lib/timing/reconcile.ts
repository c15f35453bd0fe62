/**
 * Reconciliation: the keys whose effect exists but whose outcome was never
 * accepted on record, and the safe next step for each.
 *
 * @module
 */
import { COPIES_RANGE, type ToolArgs, TOPICS } from "./args.ts";
import type { Ledger } from "./ledger.ts";
import { fingerprint } from "../store/wire.ts";

/** One key that needs attention. */
export interface Pending {
  /** Business key. */
  job: string;
  /**
   * `unaccepted`: the effect is there and no receipt says accepted;
   * `compensation_requested`: a compensation was asked for and never
   * confirmed; `voided`: compensated and on record (settled, shown for
   * completeness).
   */
  state: "unaccepted" | "compensation_requested" | "voided";
  /** Its receipts so far (possibly none: effect present, receipt missing). */
  receipts: { attempt: number; status: string }[];
  /** The arguments whose digest is the stored one, or null if none is valid. */
  retry: ToolArgs | null;
  /** The safe next step. */
  next: "retry_same_arguments" | "compensate_again" | "none";
  /** For a voided key: whether the compensation's own receipt exists. */
  compensationReceipt?: boolean;
}

/** Whether `p` needs a person: everything but a settled void. */
export function needsAttention(p: Pending): boolean {
  return p.state !== "voided";
}

const [FEWEST, MOST] = COPIES_RANGE;

/**
 * The arguments that created a draft, found from what the ledger holds: the
 * one valid candidate for `job` whose digest equals the stored `digest`.
 * Nothing is parsed out of the draft's text. `null` when none matches (a
 * hand-edited row).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argsForDigest } from "./reconcile.ts";
 * import { fingerprint } from "../store/wire.ts";
 * const args = { job: "JOB-002", topic: "forest", copies: 3 } as const;
 * assert.deepEqual(argsForDigest("JOB-002", fingerprint(args)), args);
 * assert.equal(argsForDigest("JOB-002", "not a digest"), null);
 * ```
 */
export function argsForDigest(job: string, digest: string): ToolArgs | null {
  for (const topic of TOPICS) {
    for (let copies = FEWEST; copies <= MOST; copies++) {
      const candidate: ToolArgs = { job, topic, copies };
      if (fingerprint(candidate) === digest) return candidate;
    }
  }
  return null;
}

/**
 * Every draft without an `accepted` receipt, ordered by job.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab, pendingKeys } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await lab.run({ job: "JOB-001", topic: "river", copies: 2 }, { badOutput: true });
 * const [pending] = pendingKeys(lab.ledger);
 * assert.equal(pending.job, "JOB-001");
 * assert.deepEqual(pending.retry, { job: "JOB-001", topic: "river", copies: 2 });
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function pendingKeys(ledger: Ledger): Pending[] {
  // SQLite reads the receipts: first which keys have an accepted one,
  // then the receipts of the keys listed. What is held is the keys and the
  // receipts listed, not the ledger: a year of runs costs time, not memory.
  const accepted = ledger.acceptedKeys();
  const compensated = new Map(ledger.compensations().map((c) => [c.job, c]));
  const drafts = [...ledger.eachDraft()];
  const listed = drafts.filter((d) =>
    compensated.has(d.job) || !accepted.has(d.job)
  ).map((d) => d.job);
  const byJob = new Map<string, { attempt: number; status: string }[]>();
  for (const { attempt, job, status } of ledger.receiptsOf(listed)) {
    let list = byJob.get(job);
    if (list === undefined) byJob.set(job, list = []);
    list.push({ attempt, status });
  }
  const out: Pending[] = [];
  for (const draft of drafts) {
    const mine = byJob.get(draft.job) ?? [];
    const retry = argsForDigest(draft.job, draft.digest);
    const c = compensated.get(draft.job);
    if (c?.state === "voided") {
      out.push({
        job: draft.job,
        state: "voided",
        receipts: mine,
        retry,
        next: "none",
        compensationReceipt: c.receipts > 0,
      });
    } else if (c?.state === "requested") {
      out.push({
        job: draft.job,
        state: "compensation_requested",
        receipts: mine,
        retry,
        next: "compensate_again",
      });
    } else if (!accepted.has(draft.job)) {
      out.push({
        job: draft.job,
        state: "unaccepted",
        receipts: mine,
        retry,
        next: "retry_same_arguments",
      });
    }
  }
  return out;
}
