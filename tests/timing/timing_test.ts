import assert from "node:assert/strict";
import { isSqliteError } from "../../lib/base/errors.ts";
import { DatabaseSync } from "node:sqlite";
import {
  AuditUnavailable,
  Cancelled,
  type Lab,
  type RunResult,
} from "../../lib/mod.ts";
import {
  ACCEPTED_EVENTS,
  ARGS,
  persistedCounts,
  persistedReceipts,
  rejection,
  tempLab,
} from "../_helpers/helpers.ts";

type Scope = Awaited<ReturnType<typeof tempLab>>;

/** One reference scenario on a fresh ledger. */
function scenario(
  t: Deno.TestContext,
  name: string,
  body: (s: Scope) => Promise<void>,
): Promise<boolean> {
  return t.step(name, async () => {
    await using s = await tempLab();
    await body(s);
  });
}

/** The receipt INSERT was a silent no-op, and the lab said so (as assertRaisesRegex). */
async function rejectsAuditInsert(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  assert.ok(error instanceof AuditUnavailable, String(error));
  assert.match(error.message, /^audit insert did not create one row$/);
}

async function rejectsCancelled(
  lab: Lab,
  promise: Promise<RunResult>,
): Promise<void> {
  await assert.rejects(promise, Cancelled);
  assert.equal(lab.ledger.inTransaction, false);
}

Deno.test("timing lab: SQLite receipt faults", async (t) => {
  await scenario(
    t,
    "sqlite ignored receipt and same-key recovery",
    async (s) => {
      s.lab.ledger.setReceiptFault("ignore");
      await rejectsAuditInsert(s.lab.run(ARGS));
      assert.deepEqual(persistedCounts(s.path), [1, 0]);
      assert.equal(s.lab.ledger.inTransaction, false);
      // Remove only the fixture; the business request stays as it was.
      s.lab.ledger.setReceiptFault("none");
      const r = await s.lab.run(ARGS);
      assert.equal(r.status, "accepted");
      assert.ok(r.events.includes("effect_reused"));
      assert.ok(!r.events.includes("effect_committed"));
      assert.ok(r.events.includes("output_allowed"));
      assert.deepEqual(r.released, {
        job: "JOB-001",
        text: "river / copies=2",
      });
      assert.deepEqual(persistedCounts(s.path), [1, 1]);
    },
  );

  await scenario(
    t,
    "sqlite ignored receipt cannot reuse old receipt",
    async (s) => {
      const first = await s.lab.run(ARGS);
      s.lab.ledger.setReceiptFault("ignore");
      await rejectsAuditInsert(s.lab.run({ ...ARGS, job: "JOB-002" }));
      assert.deepEqual(persistedCounts(s.path), [2, 1]);
      assert.deepEqual(persistedReceipts(s.path), [
        { attempt: first.attempt, job: "JOB-001", status: "accepted" },
      ]);
      assert.equal(s.lab.ledger.inTransaction, false);
    },
  );

  await scenario(
    t,
    "sqlite aborted receipt preserves committed effect",
    async (s) => {
      s.lab.ledger.setReceiptFault("abort");
      const error = await rejection(s.lab.run(ARGS));
      assert.ok(isSqliteError(error), "the SQLite error propagates unchanged");
      assert.match((error as Error).message, /fixture_receipt_abort/);
      assert.deepEqual(persistedCounts(s.path), [1, 0]);
      assert.equal(s.lab.ledger.inTransaction, false);
    },
  );

  await scenario(
    t,
    "sqlite ignored receipt during cancel takes precedence",
    async (s) => {
      s.lab.ledger.setReceiptFault("ignore");
      const error = await rejection(
        s.lab.run(ARGS, { cancelAt: "after_business" }),
      );
      assert.ok(error instanceof AuditUnavailable);
      assert.ok(
        error.cause instanceof Cancelled,
        "the cancellation stays as the cause",
      );
      assert.deepEqual(persistedCounts(s.path), [1, 0]);
      assert.equal(s.lab.ledger.inTransaction, false);
    },
  );

  await scenario(
    t,
    "sqlite aborted receipt during cancel keeps the cancel as cause",
    async (s) => {
      s.lab.ledger.setReceiptFault("abort");
      const record = await s.lab.attempt(ARGS, { cancelAt: "output_check" });
      assert.equal(record.outcome.kind, "thrown");
      if (record.outcome.kind !== "thrown") return;
      // SQLite's own error is passed on untouched; the attempt record keeps
      // the cancellation it interrupted, as Python's __context__ does.
      assert.ok(isSqliteError(record.outcome.error));
      assert.equal((record.outcome.error as Error).cause, undefined);
      assert.ok(record.outcome.whileCancelling instanceof Cancelled);
      assert.equal(record.receipt, null);
      assert.deepEqual(persistedCounts(s.path), [1, 0]);
    },
  );
});

Deno.test("timing lab: validation and input check", async (t) => {
  await scenario(t, "success order", async (s) => {
    const r = await s.lab.run(ARGS);
    assert.equal(r.status, "accepted");
    assert.deepEqual(r.events, ACCEPTED_EVENTS);
    assert.equal(r.effect_exists, true);
    assert.deepEqual(r.released, { job: "JOB-001", text: "river / copies=2" });
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });

  const rejected: [string, unknown, string][] = [
    ["missing field", { job: "JOB-001" }, "shape"],
    ["extra field", { ...ARGS, skip_checks: true }, "shape"],
    ["bool is not count", { ...ARGS, copies: true }, "copies"],
    ["invalid job", { ...ARGS, job: "../report" }, "job"],
    ["unknown topic", { ...ARGS, topic: "unknown" }, "topic"],
    ["zero count", { ...ARGS, copies: 0 }, "copies"],
    ["non-string topic", { ...ARGS, topic: ["river"] }, "topic"],
  ];
  for (const [name, raw] of rejected) {
    await scenario(t, name, async (s) => {
      const r = await s.lab.run(raw);
      assert.equal(r.status, "input_rejected");
      assert.equal(r.effect_exists, false);
      assert.equal(r.released, null);
      assert.deepEqual(persistedCounts(s.path), [0, 1]);
    });
  }

  await scenario(t, "batch policy", async (s) => {
    const r = await s.lab.run({ ...ARGS, copies: 4 });
    assert.deepEqual(r.events, ["arguments_valid"]);
    assert.equal(r.status, "input_rejected");
    assert.equal(r.effect_exists, false);
    assert.deepEqual(persistedCounts(s.path), [0, 1]);
  });
});

Deno.test("timing lab: faults around the commit point", async (t) => {
  await scenario(t, "output rejection preserves effect", async (s) => {
    const r = await s.lab.run(ARGS, { badOutput: true });
    assert.equal(r.status, "output_rejected");
    assert.equal(r.effect_exists, true);
    assert.equal(r.released, null);
    assert.ok(!r.events.includes("output_allowed"));
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });

  await scenario(t, "before business exception", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "before_business" });
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, false);
    assert.deepEqual(persistedCounts(s.path), [0, 1]);
  });

  await scenario(t, "local transaction rollback", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "inside_transaction" });
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, false);
    assert.ok(!r.events.includes("effect_committed"));
    assert.deepEqual(persistedCounts(s.path), [0, 1]);
  });

  await scenario(t, "after commit exception", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "after_commit" });
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, true);
    assert.ok(!r.events.includes("output_started"));
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });

  await scenario(t, "after business exception", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "after_business" });
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, true);
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });

  await scenario(t, "output check exception", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "output_check" });
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, true);
    assert.equal(r.released, null);
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });

  await scenario(t, "error status does not leak the error text", async (s) => {
    const r = await s.lab.run(ARGS, { failAt: "after_commit" });
    assert.ok(!JSON.stringify(r).includes("InjectedFailure"));
    assert.deepEqual(Object.keys(r), [
      "attempt",
      "job",
      "status",
      "effect_exists",
      "events",
      "released",
    ]);
  });
});

Deno.test("timing lab: cancellation", async (t) => {
  await scenario(t, "cancel before business", async (s) => {
    await rejectsCancelled(
      s.lab,
      s.lab.run(ARGS, { cancelAt: "before_business" }),
    );
    assert.deepEqual(persistedCounts(s.path), [0, 1]);
    assert.equal(persistedReceipts(s.path)[0].status, "cancelled");
  });

  await scenario(t, "cancel after business", async (s) => {
    await rejectsCancelled(
      s.lab,
      s.lab.run(ARGS, { cancelAt: "after_business" }),
    );
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
    assert.equal(persistedReceipts(s.path)[0].status, "cancelled");
  });

  await scenario(t, "cancel during output check", async (s) => {
    await rejectsCancelled(
      s.lab,
      s.lab.run(ARGS, { cancelAt: "output_check" }),
    );
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
    assert.equal(persistedReceipts(s.path)[0].status, "cancelled");
  });

  await scenario(t, "real task cancel after commit", async (s) => {
    const controller = new AbortController();
    const reason = new Error("caller went away");
    let reached!: () => void;
    const atCommit = new Promise<void>((resolve) => reached = resolve);
    const running = s.lab.run(ARGS, {
      // Hold the run after commit until the caller aborts it.
      pause: (point) =>
        point === "after_commit"
          ? (reached(), new Promise(() => {}))
          : undefined,
    }, controller.signal);
    await atCommit;
    controller.abort(reason);
    await assert.rejects(running, (e) => e === reason);
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
    assert.equal(persistedReceipts(s.path)[0].status, "cancelled");
  });

  await scenario(
    t,
    "signal aborted before the run cancels at the first checkpoint",
    async (s) => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(
        s.lab.run(ARGS, {}, controller.signal),
        (e) => e instanceof DOMException && e.name === "AbortError",
      );
      assert.deepEqual(persistedCounts(s.path), [0, 1]);
    },
  );

  await scenario(t, "audit error during cancel takes precedence", async (s) => {
    const error = await rejection(s.lab.run(ARGS, {
      cancelAt: "after_business",
      auditFailure: true,
    }));
    assert.ok(error instanceof AuditUnavailable);
    assert.ok(error.cause instanceof Cancelled);
    assert.deepEqual(persistedCounts(s.path), [1, 0]);
  });
});

Deno.test("timing lab: retries and keys", async (t) => {
  await scenario(t, "idempotent retry after rejection", async (s) => {
    await s.lab.run(ARGS, { badOutput: true });
    const r = await s.lab.run(ARGS);
    assert.ok(r.events.includes("effect_reused"));
    assert.ok(r.events.includes("output_allowed"));
    assert.equal(r.attempt, 2);
    assert.deepEqual(persistedCounts(s.path), [1, 2]);
  });

  await scenario(t, "retry runs output check again", async (s) => {
    await s.lab.run(ARGS);
    const r = await s.lab.run(ARGS, { badOutput: true });
    assert.equal(r.status, "output_rejected");
    assert.equal(r.released, null);
    assert.deepEqual(persistedCounts(s.path), [1, 2]);
  });

  await scenario(t, "same key conflict", async (s) => {
    await s.lab.run(ARGS);
    const r = await s.lab.run({ ...ARGS, copies: 3 });
    assert.equal(r.status, "key_conflict");
    assert.equal(r.released, null);
    assert.deepEqual(persistedCounts(s.path), [1, 2]);
  });

  await scenario(t, "new key is new effect", async (s) => {
    await s.lab.run(ARGS);
    await s.lab.run({ ...ARGS, job: "JOB-002" });
    assert.deepEqual(persistedCounts(s.path), [2, 2]);
  });

  await scenario(t, "restart same database", async (s) => {
    await s.lab.run(ARGS, { failAt: "after_commit" });
    const r = await s.reopen().run(ARGS);
    assert.ok(r.events.includes("effect_reused"));
    assert.deepEqual(persistedCounts(s.path), [1, 2]);
  });

  await scenario(t, "audit failure never claims success", async (s) => {
    await assert.rejects(
      s.lab.run(ARGS, { auditFailure: true }),
      AuditUnavailable,
    );
    assert.deepEqual(persistedCounts(s.path), [1, 0]);
  });

  await scenario(t, "receipt does not store rejected payload", async (s) => {
    await s.lab.run(ARGS, { badOutput: true });
    // Every stored receipt field, read through a second connection.
    const observer = new DatabaseSync(s.path, { readOnly: true });
    try {
      const rows = observer.prepare("SELECT * FROM receipts").all();
      assert.equal(rows.length, 1);
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes("SYNTHETIC-BAD-OUTPUT"), stored);
      const events = JSON.parse(String(rows[0].events)) as string[];
      assert.ok(events.includes("effect_committed"));
    } finally {
      observer.close();
    }
    assert.deepEqual(persistedCounts(s.path), [1, 1]);
  });
});

Deno.test("timing lab: overlapping attempts on one lab keep their own records", async () => {
  await using s = await tempLab();
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  // A pauses after its commit; B runs start to end meanwhile.
  const a = s.lab.attempt(ARGS, {
    pause: (point) => point === "after_commit" ? held : undefined,
  });
  const b = await s.lab.attempt({ ...ARGS, job: "JOB-002" }, {
    badOutput: true,
  });
  release();
  const first = await a;
  assert.equal(b.receipt?.status, "output_rejected");
  assert.equal(b.receipt?.attempt, 1);
  assert.ok(b.events.includes("output_started"));
  assert.equal(first.receipt?.status, "accepted");
  assert.equal(first.receipt?.attempt, 2);
  assert.deepEqual(first.events, ACCEPTED_EVENTS);
  assert.deepEqual(persistedReceipts(s.path), [
    { attempt: 1, job: "JOB-002", status: "output_rejected" },
    { attempt: 2, job: "JOB-001", status: "accepted" },
  ]);
});
