/**
 * A script's snapshot names are input: their count and their length are
 * bounded before one is kept, so a session's memory does not grow with the
 * script (issue 28, item 6).
 */
import assert from "node:assert/strict";
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import {
  MAX_SNAPSHOT_NAME,
  MAX_SNAPSHOTS,
} from "../../lib/experiments/script.ts";
import { TEST_BASE } from "../_helpers/helpers.ts";

const precheck = (name: string) =>
  JSON.stringify({
    op: "policy.precheck",
    job: "JOB-001",
    copies: 2,
    as: name,
  });

Deno.test("script: past the snapshot count, a new name is one invalid step and a known one still works", async () => {
  const names = Array.from({ length: MAX_SNAPSHOTS + 1 }, (_, i) => `s${i}`);
  const steps = [
    ...names.map(precheck),
    // A name already kept is replaced, not added: still allowed.
    precheck("s0"),
    JSON.stringify({
      op: "policy.insert_checked",
      job: "JOB-001",
      copies: 2,
      snapshot: "s0",
    }),
    // The refused name was never kept.
    JSON.stringify({
      op: "policy.insert_naive",
      job: "JOB-002",
      copies: 2,
      snapshot: `s${MAX_SNAPSHOTS}`,
    }),
  ];
  const io = memoryIo(steps.join("\n") + "\n", false, TEST_BASE);
  assert.equal(await main(["script"], io), 1);
  const out = io.stdout.map((l) => JSON.parse(l));
  assert.equal(out.length, steps.length);
  for (let i = 0; i < MAX_SNAPSHOTS; i++) {
    assert.deepEqual(out[i], { snapshot: { revision: 1, max_copies: 3 } });
  }
  assert.deepEqual(out[MAX_SNAPSHOTS], {
    raised: "invalid_step",
    message: `line ${
      MAX_SNAPSHOTS + 1
    }: more than ${MAX_SNAPSHOTS} snapshot names; reuse one`,
  });
  assert.deepEqual(out[MAX_SNAPSHOTS + 1], {
    snapshot: { revision: 1, max_copies: 3 },
  });
  assert.deepEqual(out[MAX_SNAPSHOTS + 2], { inserted: true });
  assert.equal(out[MAX_SNAPSHOTS + 3].raised, "invalid_step");
  assert.match(out[MAX_SNAPSHOTS + 3].message, /unknown snapshot/);
});

Deno.test("script: a snapshot name past its length is refused without being kept or echoed", async () => {
  const fits = "n".repeat(MAX_SNAPSHOT_NAME);
  const long = "n".repeat(MAX_SNAPSHOT_NAME + 1);
  const huge = "n".repeat(512 << 10);
  const steps = [
    precheck(fits),
    precheck(long),
    precheck(huge),
    JSON.stringify({
      op: "policy.insert_checked",
      job: "JOB-001",
      copies: 2,
      snapshot: huge,
    }),
  ];
  const io = memoryIo(steps.join("\n") + "\n", false, TEST_BASE);
  assert.equal(await main(["script"], io), 1);
  const tooLong = (n: number, field: string) =>
    JSON.stringify({
      raised: "invalid_step",
      message:
        `line ${n}: ${field} longer than ${MAX_SNAPSHOT_NAME} characters`,
    });
  assert.deepEqual(io.stdout, [
    '{"snapshot":{"revision":1,"max_copies":3}}',
    tooLong(2, "as"),
    tooLong(3, "as"),
    tooLong(4, "snapshot"),
  ]);
});
