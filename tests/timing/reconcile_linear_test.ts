/**
 * Reconciliation is linear in the size of the ledger: `pendingKeys` reads
 * each receipt's key a bounded number of times, however many drafts there
 * are (it once filtered every receipt for each draft: 20,000 rows took
 * 6.5 s, 100,000 minutes). Counted, not timed: the receipts handed to it
 * count every read of their `job`. The time itself is in
 * `reconcile_bench.ts`.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "../../lib/timing/ledger.ts";
import { CREATE_COMPENSATION_TABLES_IF_MISSING } from "../../lib/timing/_compensation_schema.ts";
import {
  argsForDigest,
  pendingKeys,
  reconcileLedger,
} from "../../lib/timing/reconcile.ts";
import { COPIES_RANGE, TOPICS } from "../../lib/timing/args.ts";
import { fingerprint } from "../../lib/store/wire.ts";

/** A stand-in ledger of `n` drafts, one receipt each, counting reads of a receipt's key. */
function countedLedger(n: number) {
  const reads = { job: 0, digest: 0 };
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
  // Each read of a draft's digest counted: 18 candidates are hashed for it.
  const drafts = jobs.map((job) => ({
    job,
    get digest() {
      reads.digest++;
      return fingerprint({ job, topic: "river", copies: 2 });
    },
  }));
  // What SQLite does for the real ledger: one pass over the receipts for a
  // range of keys (here the whole index), one read of each key.
  const ledger = {
    countDrafts: () => n,
    countReceipts: () => n,
    keyRanges: () => [{ lo: jobs[0], hi: jobs.at(-1)!, count: n }].values(),
    reconcileRange: (_range: unknown, limit: number) => {
      const accepted = new Set<string>();
      for (const r of receipts) {
        const job = r.job;
        if (r.status === "accepted") accepted.add(job);
      }
      const listed = drafts.filter((d) => !accepted.has(d.job));
      return {
        listed: listed.length,
        voided: 0,
        first: listed.slice(0, limit).map((d) =>
          Object.defineProperties({ job: d.job, state: null }, {
            digest: { get: () => d.digest, enumerable: true },
          })
        ),
      };
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

Deno.test("reconcile: the request behind a digest is worked out only for the keys a view shows", () => {
  const n = 2_000;
  const { ledger, reads } = countedLedger(n);
  let asked = 0;
  const found = reconcileLedger(ledger, { show: () => ++asked <= 5 });
  assert.equal(found.shown.length, 5);
  assert.equal(found.listed, n / 10, "every key is still counted");
  assert.equal(found.open, n / 10);
  assert.ok(reads.digest <= 6, `${reads.digest} digests read`);
});

Deno.test("reconcile: the request found from parts made once is the one fingerprint hashes", () => {
  const jobs = ["JOB-001", "JOB-\u00e9", "JOB-\u{1f600}", 'JOB-"\\', ""];
  for (const job of jobs) {
    for (const topic of TOPICS) {
      for (let copies = COPIES_RANGE[0]; copies <= COPIES_RANGE[1]; copies++) {
        const args = { job, topic, copies };
        assert.deepEqual(argsForDigest(job, fingerprint(args)), args);
      }
    }
    assert.equal(argsForDigest(job, "0".repeat(64)), null);
    assert.equal(
      argsForDigest(job, fingerprint({ job, topic: "sea", copies: 2 })),
      null,
    );
  }
});

Deno.test("reconcile: a range of keys at a time, the keys and counts worked out from every row", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gl-reconcile-" });
  try {
    const path = `${dir}/lab.sqlite`;
    Ledger.open(path, { trusted: [dir] }).close();
    const db = new DatabaseSync(path);
    db.exec("BEGIN");
    db.exec(CREATE_COMPENSATION_TABLES_IF_MISSING);
    const keys = Array.from(
      { length: 3000 },
      (_, k) => `JOB-${String(k).padStart(5, "0")}`,
    );
    const draft = db.prepare("INSERT INTO drafts VALUES(?, ?, '{}')");
    const add = db.prepare(
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,'[]')",
    );
    const comp = db.prepare("INSERT INTO compensations VALUES(?, ?)");
    const compReceipt = db.prepare(
      "INSERT INTO compensation_receipts(job,status,events) VALUES(?,'voided','[]')",
    );
    keys.forEach((job, k) => {
      draft.run(job, fingerprint({ job, topic: "forest", copies: 1 + k % 9 }));
      if (k % 3 !== 0) add.run(job, k % 7 === 0 ? "error" : "accepted");
      if (k % 11 === 0) comp.run(job, k % 2 ? "voided" : "requested");
      if (k % 22 === 11) compReceipt.run(job);
    });
    // Receipts of keys with no draft, between and after the drafts' keys.
    for (let k = 0; k < 50; k++) add.run(`JOB-${k * 61}x`, "error");
    db.exec("COMMIT");
    db.close();
    const ledger = Ledger.open(path, { mode: "read", trusted: [dir] });
    try {
      const all = pendingKeys(ledger);
      // What every row says, worked out here.
      const receipts = ledger.receipts();
      const states = new Map(
        ledger.compensations().map((c) => [c.job, c] as const),
      );
      const accepted = new Set(
        receipts.filter((r) => r.status === "accepted").map((r) => r.job),
      );
      const listed = keys.filter((j) => states.has(j) || !accepted.has(j));
      assert.deepEqual(all.map((p) => p.job), listed);
      for (const p of all) {
        assert.deepEqual(
          p.receipts,
          receipts.filter((r) => r.job === p.job).map((r) => ({
            attempt: r.attempt,
            status: r.status,
          })),
        );
        const k = keys.indexOf(p.job);
        assert.deepEqual(p.retry, {
          job: p.job,
          topic: "forest",
          copies: 1 + k % 9,
        });
        const c = states.get(p.job);
        assert.equal(
          p.state,
          c?.state === "voided"
            ? "voided"
            : c?.state === "requested"
            ? "compensation_requested"
            : "unaccepted",
        );
        if (c?.state === "voided") {
          assert.equal(p.compensationReceipt, c.receipts > 0);
        }
      }
      // A range of about 200 keys at a time: the same keys, the same counts.
      for (const shown of [Infinity, 40]) {
        let asked = 0;
        const found = reconcileLedger(ledger, {
          show: () => ++asked <= shown,
          maxRangeChars: 5_000,
        });
        assert.ok([...ledger.keyRanges(false, 5_000)].length >= 10);
        assert.deepEqual(
          found.shown,
          all.slice(0, Math.min(shown, all.length)),
        );
        assert.equal(found.listed, all.length);
        assert.equal(
          found.open,
          all.filter((p) => p.state !== "voided").length,
        );
      }
    } finally {
      ledger.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
