/**
 * A real abort, sent by another task while the attempt waits at a
 * checkpoint, lands there: at each of the three checkpoints, with no fault
 * injected and no harness hold. This is what the checkpoint's turn of the
 * event loop is for (a resolved promise would let the attempt run to its end
 * before the aborting task ever ran). The aborting task is queued `k` turns
 * ahead, so it runs while the attempt waits at its (k+1)-th checkpoint; the
 * verdict comes from where the attempt stopped and from the ledger, read
 * through a second connection, never from a clock.
 */
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import type { Checkpoint } from "../../lib/timing/stages.ts";
import {
  persistedCounts,
  persistedReceipts,
  tempLab,
} from "../_helpers/helpers.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };

/** Abort `controller` with `reason` after `turns` more turns of the event loop. */
function abortAfter(
  turns: number,
  controller: AbortController,
  reason: unknown,
): void {
  setImmediate(() =>
    turns === 0
      ? controller.abort(reason)
      : abortAfter(turns - 1, controller, reason)
  );
}

const CASES: readonly {
  at: Checkpoint;
  events: string[];
  drafts: number;
}[] = [
  {
    at: "before_business",
    events: ["arguments_valid", "input_allowed"],
    drafts: 0,
  },
  {
    at: "after_business",
    events: [
      "arguments_valid",
      "input_allowed",
      "business_started",
      "effect_committed",
    ],
    drafts: 1,
  },
  {
    at: "output_check",
    events: [
      "arguments_valid",
      "input_allowed",
      "business_started",
      "effect_committed",
      "output_started",
    ],
    drafts: 1,
  },
];

Deno.test("timing lab: an abort sent by another task lands at every checkpoint", async (t) => {
  for (const [turns, expected] of CASES.entries()) {
    await t.step(`at ${expected.at}`, async () => {
      await using s = await tempLab();
      const controller = new AbortController();
      const reason = new Error("the caller went away");
      // Queued before the attempt starts: it runs while the attempt waits.
      abortAfter(turns, controller, reason);
      const record = await s.lab.attempt(ARGS, {}, controller.signal);
      assert.equal(record.stoppedAt, expected.at);
      assert.deepEqual(record.outcome, { kind: "thrown", error: reason });
      assert.deepEqual(record.events, expected.events);
      assert.equal(record.receipt?.status, "cancelled");
      assert.equal(s.lab.ledger.inTransaction, false);
      assert.deepEqual(persistedCounts(s.path), [expected.drafts, 1]);
      assert.equal(persistedReceipts(s.path)[0].status, "cancelled");
    });
  }
  await t.step(
    "one turn later than the last checkpoint: accepted",
    async () => {
      await using s = await tempLab();
      const controller = new AbortController();
      abortAfter(CASES.length, controller, new Error("too late"));
      const result = await s.lab.run(ARGS, {}, controller.signal);
      assert.equal(result.status, "accepted");
      assert.deepEqual(persistedCounts(s.path), [1, 1]);
    },
  );
});
