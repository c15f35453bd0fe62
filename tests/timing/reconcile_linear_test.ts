/**
 * Reconciliation is linear in the size of the ledger: `pendingKeys` reads
 * each receipt's key a bounded number of times, however many drafts there
 * are (it once filtered every receipt for each draft: 20,000 rows took
 * 6.5 s, 100,000 minutes). Counted, not timed: the receipts handed to it
 * count every read of their `job`. The time itself is in
 * `reconcile_bench.ts`.
 */
import assert from "node:assert/strict";
import type { Ledger } from "../../lib/timing/ledger.ts";
import { pendingKeys } from "../../lib/timing/reconcile.ts";
import { fingerprint } from "../../lib/store/wire.ts";

/** A stand-in ledger of `n` drafts, one receipt each, counting reads of a receipt's key. */
function countedLedger(n: number) {
  const reads = { job: 0 };
  const jobs = Array.from(
    { length: n },
    (_, i) => `JOB-${String(i).padStart(6, "0")}`,
  );
  const receipts = jobs.map((job, i) => {
    const row = {
      attempt: i + 1,
      status: i % 10 === 0 ? "output_rejected" : "accepted",
      effect_exists: true,
      events: [],
    };
    return Object.defineProperty(row, "job", {
      enumerable: true,
      get() {
        reads.job++;
        return job;
      },
    }) as typeof row & { job: string };
  });
  const drafts = jobs.map((job) => ({
    job,
    text: fingerprint({ job, topic: "river", copies: 2 }),
  }));
  // What SQLite does for the real ledger: one pass over the receipts for a
  // batch of keys, one read of each key.
  const ledger = {
    countDrafts: () => n,
    countReceipts: () => n,
    draftBatches: () => [drafts].values(),
    acceptedAmong: (batch: Iterable<string>) => {
      const wanted = new Set(batch);
      const keys = new Set<string>();
      for (const r of receipts) {
        const job = r.job;
        if (r.status === "accepted" && wanted.has(job)) keys.add(job);
      }
      return keys;
    },
    receiptsByKey: (batch: readonly string[]) => {
      const wanted = new Set(batch);
      const lists = new Map<string, { attempt: number; status: string }[]>();
      for (const r of receipts) {
        const job = r.job;
        if (!wanted.has(job)) continue;
        if (!lists.has(job)) lists.set(job, []);
        lists.get(job)!.push({ attempt: r.attempt, status: r.status });
      }
      return { lists, dropped: new Set() };
    },
    compensationStatesOf: () => new Map(),
    compensationReceiptsOf: () => new Map(),
  } as unknown as Ledger;
  return { ledger, reads };
}

Deno.test("reconcile: pendingKeys reads each receipt's key a bounded number of times", () => {
  for (const n of [100, 2_000]) {
    const { ledger, reads } = countedLedger(n);
    const pending = pendingKeys(ledger);
    assert.equal(pending.length, n / 10);
    assert.deepEqual(pending[0].receipts, [
      { attempt: 1, status: "output_rejected" },
    ]);
    assert.ok(reads.job <= 4 * n, `${reads.job} reads for ${n} receipts`);
  }
});
