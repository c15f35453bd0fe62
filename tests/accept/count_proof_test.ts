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
  fixtureCommand,
  matrixOf,
  NEEDS_START,
  privateDir,
  runEngineer,
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

/** `accept init` on fixture `mode` over a store of the test's own, in `lang`: its exit code, draft, summary and the store after. */
async function init(mode: string, lang: "en" | "zh") {
  using dir = privateDir("gl-count-proof-init-");
  const store = join(dir.path, "notes.jsonl");
  const out = await runEngineer([
    "accept",
    "init",
    "--lang",
    lang,
    "--",
    ...fixtureCommand(mode, store),
  ]);
  return {
    code: out.code,
    entry: JSON.parse(out.stdout).tools[0],
    err: out.err,
    notes: storedNotes(store),
  };
}

Deno.test({
  name:
    "count proof: accept init reads a key never used before it writes the draft; a read that echoes it marks the count NOT CONFIRMED with one line (en, zh); a count it proves stays as drafted" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    // echo-read-bare: no output schema and no free field but the key, so
    // the draft counts the key in the read's text, which the read echoes.
    const en = await init("echo-read-bare", "en");
    assert.equal(en.code, 0);
    assert.deepEqual(en.entry.count, { text: "{key}" });
    assert.match(
      en.entry.guesses.count,
      /^NOT CONFIRMED: init read gl-id-fresh-[0-9a-f]{8}-001, a key no call had used, and this count found it 1 time\(s\), so the read shows the key it was asked for \(SELECT \* FROM notes WHERE id = 'gl-id-fresh-[0-9a-f]{8}-001'\\u000a\[\]\) and would count an effect where there is none: count by a field of the read's result instead$/,
    );
    const line = en.err.filter((l) => l.includes("could not confirm"));
    assert.equal(line.length, 1);
    assert.match(
      line[0],
      /^put_note: its count is a guess init could not confirm: a read of gl-id-fresh-[0-9a-f]{8}-001, a key no call had used, counted 1 \(the read shows the key it was asked for\); see guesses\.count$/,
    );
    assert.ok(en.err.includes("  put_note: key, read, count"));
    // init wrote nothing: its read is the only call it made.
    assert.deepEqual(en.notes, []);
    const zh = await init("echo-read-bare", "zh");
    assert.match(
      zh.entry.guesses.count,
      /^未能确认：init 读取了从未用过的业务键 gl-id-fresh-[0-9a-f]{8}-001，这个计数却找到 1 次，/,
    );
    assert.equal(
      zh.err.filter((l) =>
        /^put_note：它的计数是 init 无法确认的猜测：读取从未用过的业务键 gl-id-fresh-[0-9a-f]{8}-001，计数却为 1（读取工具会显示它被问到的业务键）；见 guesses\.count$/
          .test(l)
      ).length,
      1,
    );
    // echo-read lists an output schema: the draft counts the items of
    // /notes by id, which the echoed query does not hold; nothing marked.
    const json = await init("echo-read", "en");
    assert.equal(json.code, 0);
    assert.equal(
      json.entry.guesses.count,
      "the items of /notes in the read's result whose id is the key (from the read tool's output schema)",
    );
    assert.ok(!json.err.some((l) => l.includes("could not confirm")));
  },
});
