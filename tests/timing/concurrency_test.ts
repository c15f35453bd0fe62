/**
 * Beyond the article's single serial caller: concurrent processes on one
 * ledger, a policy that changes under racing inserts, and processes killed
 * at each stage. Everything is asserted by reading the databases afterwards.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  ledgerPaths,
  privateRoot,
  removeLedger,
} from "../../lib/sandbox/sandbox.ts";

/**
 * The spawned CLI works in the real private folder (it has no other): the
 * tests use unique ledger names there and remove only those.
 */
const realRoot = () => privateRoot()!;
import { PAUSE_POINTS } from "../../lib/timing/stages.ts";
import { persistedCounts } from "../_helpers/helpers.ts";
import {
  CAN_RUN,
  NEEDS_RUN,
  spawnGuardlab,
  startGuardlab,
} from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

function uniqueLedger(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

Deno.test({
  name: "concurrency: 10 processes on one ledger, same keys, same arguments" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const name = uniqueLedger("t-conc");
    try {
      const jobs = ["JOB-001", "JOB-002", "JOB-003"];
      const runners = Array.from({ length: 8 }, (_, i) =>
        spawnGuardlab([
          "run",
          "--ledger",
          name,
          "--job",
          jobs[i % 3],
          "--topic",
          "river",
          "--copies",
          "2",
          "--json",
        ]));
      const steps = (offset: number) =>
        Array.from(
          { length: 20 },
          (_, k) =>
            JSON.stringify({
              op: "run",
              args: { job: jobs[(k + offset) % 3], topic: "river", copies: 2 },
            }),
        ).join("\n");
      const scripts = [0, 1].map((o) =>
        spawnGuardlab(["script", "--ledger", name], steps(o))
      );
      const done = await Promise.all([...runners, ...scripts]);
      // run --json wraps its result; a script prints the result alone.
      const results = done.flatMap((r) =>
        r.out.map((l) => JSON.parse(l)).map((o) => o.result ?? o)
      );
      for (const r of done) assert.equal(r.code, 0, r.err.join("\n"));
      assert.equal(results.length, 8 + 40);
      for (const r of results) {
        assert.equal(r.status, "accepted", JSON.stringify(r));
      }
      for (const job of jobs) {
        const committed = results.filter((r) =>
          r.job === job && r.events.includes("effect_committed")
        );
        assert.equal(committed.length, 1, `${job} committed exactly once`);
      }
      const attempts = results.map((r) => r.attempt).sort((a, b) => a - b);
      assert.equal(
        new Set(attempts).size,
        attempts.length,
        "every attempt has its own receipt",
      );
      assert.deepEqual(persistedCounts(ledgerPaths(realRoot(), name).lab), [
        3,
        results.length,
      ]);
    } finally {
      removeLedger(realRoot(), name);
    }
  },
});

/**
 * One race: a changer moves the limit 20 times while 6 processes pre-check
 * and insert. Asserts the safety property (every committed row was checked
 * against the revision it committed under, within that revision's limit) and
 * returns how many rows committed.
 */
async function policyRace(name: string): Promise<number> {
  try {
    // Create the policy database first, so every process races on the data, not the schema.
    await spawnGuardlab(
      ["script", "--ledger", name],
      '{"op":"policy.rows"}\n',
    );
    const limits = [
      1,
      4,
      2,
      3,
      1,
      2,
      4,
      3,
      2,
      1,
      3,
      4,
      2,
      1,
      3,
      2,
      4,
      1,
      3,
      2,
    ];
    const changer = spawnGuardlab(
      ["script", "--ledger", name],
      limits.map((m) => JSON.stringify({ op: "policy.change", max_copies: m }))
        .join("\n"),
    );
    const inserters = Array.from({ length: 6 }, (_, p) => {
      const lines: string[] = [];
      for (let k = 0; k < 12; k++) {
        const job = `JOB-${p}${String(k).padStart(2, "0")}`;
        const copies = 1 + ((p + k) % 4);
        lines.push(
          JSON.stringify({ op: "policy.precheck", job, copies, as: `s${k}` }),
        );
        lines.push(
          JSON.stringify({
            op: "policy.insert_checked",
            job,
            copies,
            snapshot: `s${k}`,
          }),
        );
      }
      return spawnGuardlab(["script", "--ledger", name], lines.join("\n"));
    });
    const [changed, ...inserted] = await Promise.all([changer, ...inserters]);
    assert.equal(changed.code, 0, changed.err.join("\n"));

    // The limit in force at each revision, from the changer's own reports.
    const limitAt = new Map<number, number>([[1, 3]]);
    for (const line of changed.out) {
      const out = JSON.parse(line);
      if (out.policy) limitAt.set(out.policy.revision, out.policy.max_copies);
      else assert.equal(out.raised, "database_error", line);
    }

    // The snapshot revision each successful insert was checked against.
    const checkedAt = new Map<string, number>();
    for (const [p, run] of inserted.entries()) {
      assert.equal(run.err.length, 0, run.err.join("\n"));
      for (let i = 0; i < run.out.length; i += 2) {
        const pre = JSON.parse(run.out[i]);
        const ins = JSON.parse(run.out[i + 1]);
        if (pre.snapshot === undefined) {
          // A refused or busy pre-check leaves no snapshot to insert with.
          assert.ok(
            pre.rejected === "current_limit" ||
              pre.raised === "database_error",
            run.out[i],
          );
          assert.equal(ins.raised, "invalid_step", run.out[i + 1]);
        } else if (ins.inserted === true) {
          checkedAt.set(
            `JOB-${p}${String(i / 2).padStart(2, "0")}`,
            pre.snapshot.revision,
          );
        } else if (ins.inserted !== false) {
          assert.equal(ins.raised, "database_error", run.out[i + 1]);
        }
      }
      assert.equal(
        run.code,
        run.out.some((l) => l.includes("invalid_step")) ? 1 : 0,
      );
    }

    const db = new DatabaseSync(ledgerPaths(realRoot(), name).policy, {
      readOnly: true,
    });
    let rows: { job: string; copies: number; checked_revision: number }[];
    try {
      rows = db.prepare(
        "SELECT job, copies, checked_revision FROM drafts ORDER BY job",
      )
        .all() as unknown as typeof rows;
    } finally {
      db.close();
    }
    assert.equal(rows.length, checkedAt.size);
    for (const row of rows) {
      assert.equal(
        row.checked_revision,
        checkedAt.get(row.job),
        `${row.job} committed under the checked revision`,
      );
      const limit = limitAt.get(row.checked_revision);
      assert.ok(
        limit !== undefined,
        `revision ${row.checked_revision} is known`,
      );
      assert.ok(
        row.copies <= limit,
        `${row.job}: ${row.copies} copies within limit ${limit}`,
      );
    }
    return rows.length;
  } finally {
    removeLedger(realRoot(), name);
  }
}

Deno.test({
  name:
    "concurrency: the policy changes while 6 processes precheck and insert" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    // Safety is asserted on every race. Liveness (some insert commits) depends
    // on how the processes happen to interleave: on a loaded machine every
    // snapshot can go stale, so the race runs again, up to three times.
    let committed = 0;
    for (let race = 0; race < 3 && committed === 0; race++) {
      committed = await policyRace(uniqueLedger("t-race"));
    }
    assert.ok(committed > 0, "some inserts got through in three races");
  },
});

async function waitForLine(
  stream: ReadableStream<Uint8Array>,
  wanted: string,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = setTimeout(() => reader.cancel(), 15_000);
  try {
    while (!seen.includes(wanted)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
    reader.releaseLock();
  }
  return seen;
}

Deno.test({
  name:
    "killed processes: SIGKILL at each stage, then integrity, reconcile, retry" +
    NEEDS_RUN,
  ignore: !CAN_RUN || Deno.build.os === "windows",
  async fn(t) {
    for (const point of PAUSE_POINTS) {
      await t.step(point, async () => {
        const name = uniqueLedger("t-kill");
        const args = [
          "--ledger",
          name,
          ...runFlags({ job: "JOB-007", topic: "forest", copies: 3 }),
        ];
        try {
          const child = startGuardlab(["run", ...args, "--pause-at", point]);
          await child.stdin.close();
          const said = await waitForLine(child.stderr, `paused ${point}`);
          assert.match(said, new RegExp(`^paused ${point}$`, "m"));
          child.kill("SIGKILL");
          const status = await child.status;
          assert.equal(status.signal, "SIGKILL");
          await child.stdout.cancel();
          await child.stderr.cancel();

          const path = ledgerPaths(realRoot(), name).lab;
          const db = new DatabaseSync(path);
          try {
            assert.deepEqual(
              db.prepare("PRAGMA integrity_check").all().map((r) =>
                Object.values(r)[0]
              ),
              ["ok"],
            );
          } finally {
            db.close();
          }
          const afterCommit = point !== "before_business";
          assert.deepEqual(persistedCounts(path), [afterCommit ? 1 : 0, 0]);

          const pending = await spawnGuardlab([
            "reconcile",
            ...args.slice(0, 2),
          ]);
          assert.equal(
            pending.code,
            afterCommit ? 3 : 0,
            pending.out.join("\n"),
          );
          if (afterCommit) {
            assert.match(pending.out[0], /^JOB-007: .*no receipt at all/);
          }

          const retry = await spawnGuardlab(["run", ...args, "--json"]);
          assert.equal(retry.code, 0, retry.err.join("\n"));
          const result = JSON.parse(retry.out[0]).result;
          assert.equal(result.status, "accepted");
          assert.ok(
            result.events.includes(
              afterCommit ? "effect_reused" : "effect_committed",
            ),
          );
          assert.ok(
            result.events.includes("output_allowed"),
            "the output check ran again",
          );
          assert.deepEqual(persistedCounts(path), [1, 1]);
          assert.equal(
            (await spawnGuardlab(["reconcile", ...args.slice(0, 2)])).code,
            0,
          );
        } finally {
          removeLedger(realRoot(), name);
        }
      });
    }
  },
});
