/**
 * A verdict is only as good as its count, and an answer is what a host
 * reads it as. Fixtures that really behave so, each checked against its
 * own store: a read tool that echoes the key it was asked for (as dbhub
 * echoes its SELECT: a text count finds the key in the query), and a tool
 * that refuses in its words only (`{"success": false, …}`, no isError, as
 * task-orchestrator does), with and without the oracle's refusal mark.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import type { Oracle } from "../../lib/accept/oracle.ts";
import { runAccept } from "../../lib/accept/run.ts";
import {
  CAN_START,
  fixtureChannel,
  matrixOf,
  NEEDS_START,
  privateDir,
  storedNotes,
} from "../_helpers/accept_helpers.ts";

const [TOOL] = EXAMPLE_ORACLE.tools;

/** Run `cases` on fixture `mode` over a store of the test's own, judged by `oracle`. */
async function run(mode: string, oracle: Oracle, cases: string[]) {
  using dir = privateDir("gl-count-proof-");
  const store = join(dir.path, "notes.jsonl");
  const report = await runAccept(fixtureChannel(mode, store), {
    oracle,
    cases: cases as never,
    copies: 4,
    timeoutMs: 10_000,
  });
  return { report, notes: storedNotes(store) };
}

Deno.test({
  name:
    "count proof: a read that echoes its key makes once and rejected NOT-JUDGED, effect unknown (before: DUPLICATED for one write, EFFECT-DESPITE-REJECTION with no row)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const { report, notes } = await run("echo-read", {
      tools: [{ ...TOOL, count: { text: "{key}" } }],
    }, ["once", "rejected"]);
    assert.deepEqual(matrixOf(report), [
      "once: NOT-JUDGED",
      "rejected: NOT-JUDGED",
    ]);
    assert.deepEqual(report.results.map((r) => r.effect), [null, null]);
    // The server's own store: one note, the once case's; the bad call
    // wrote nothing.
    assert.equal(notes.length, 1);
    assert.equal(notes[0].id, report.results[0].key);
    // The fresh read is on the history, with what it answered.
    const fresh = report.results[0].history.records.find((r) =>
      r.op === "read" && r.fresh === true
    );
    assert.ok(fresh?.op === "read");
    assert.equal(fresh.count, 1);
    assert.match(fresh.text ?? "", /^SELECT \* FROM notes WHERE id = 'note-/);
    // The same server counted by its notes' ids proves its count.
    const proved = await run("echo-read", {
      tools: [{
        ...TOOL,
        count: { text: '"id":"{key}"' },
      }],
    }, ["once"]);
    assert.deepEqual(matrixOf(proved.report), ["once: ONCE"]);
    assert.equal(proved.notes.length, 1);
  },
});

Deno.test({
  name:
    "count proof: a refusal in words only (no isError), nothing written, is REFUSAL-AS-SUCCESS (before: ACCEPTED-BAD-CALL); with the oracle's refusal mark, NO-EFFECT" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const plain = await run("quiet-refusal", EXAMPLE_ORACLE, ["rejected"]);
    assert.deepEqual(matrixOf(plain.report), ["rejected: REFUSAL-AS-SUCCESS"]);
    assert.equal(plain.report.results[0].class, "unsafe");
    assert.deepEqual(plain.report.results[0].client_saw, ["success"]);
    assert.deepEqual(plain.notes, []);
    const marked = await run("quiet-refusal", {
      tools: [{ ...TOOL, refusal: { json: "/success", value: false } }],
    }, ["rejected", "once"]);
    assert.deepEqual(matrixOf(marked.report), [
      "rejected: NO-EFFECT",
      "once: ONCE",
    ]);
    assert.deepEqual(marked.report.results[0].client_saw, ["marked-refusal"]);
    assert.equal(marked.notes.length, 1);
    // A server that writes the bad call and answers success is still
    // ACCEPTED-BAD-CALL.
    const accepts = await run("accepts-bad", EXAMPLE_ORACLE, ["rejected"]);
    assert.deepEqual(matrixOf(accepts.report), ["rejected: ACCEPTED-BAD-CALL"]);
    assert.equal(accepts.notes.length, 1);
  },
});
