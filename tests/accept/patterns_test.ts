/**
 * The patterns issue 36 measured on servers nobody here wrote, each
 * reproduced by a fixture server that really behaves so (a process over
 * stdio, with its notes in a file), its verdict checked, and its effect
 * counted in that server's own store: a bad call answered success; a bad
 * call with a key of its own; other arguments added beside the first;
 * callers told "already exists" for an effect that exists; where a cancel
 * falls (forced each way by a server that holds its answer until an event);
 * two processes over one store; a kill after the commit; declared hints
 * against behaviour; an answer's own words, cut and inert. Expectations
 * are written by hand from what each fixture does.
 */
import assert from "node:assert/strict";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { MAX_ANSWER_TEXT } from "../../lib/accept/limits.ts";
import { cancelPlan } from "../../lib/accept/_case_runs.ts";
import {
  matrixLines,
  timelineLines,
} from "../../lib/accept/views/accept_view.ts";
import {
  acceptFixture as accept,
  CAN_START,
  NEEDS_START,
  storedUnder,
} from "../_helpers/accept_helpers.ts";

const PUT = EXAMPLE_ORACLE.tools[0];

/** The example oracle, its bad call carrying a key of its own. */
const OWN_KEY = {
  tools: [{ ...PUT, bad_call: { id: "bad-{run}", text: "" } }],
};

function test(name: string, fn: () => Promise<void>) {
  Deno.test({
    name: `accept patterns: ${name}` + NEEDS_START,
    ignore: !CAN_START,
    fn,
  });
}

test("a bad call answered success and written is ACCEPTED-BAD-CALL, apart from a refusal after the write", async () => {
  const accepted = await accept("accepts-bad", ["rejected"]);
  const [a] = accepted.results;
  assert.equal(a.verdict, "ACCEPTED-BAD-CALL");
  assert.equal(a.class, "unsafe");
  assert.deepEqual(a.client_saw, ["success"]);
  assert.equal(a.effect, 1);
  assert.equal(storedUnder(accepted, a.key), 1);
  const late = await accept("writes-then-rejects", ["rejected"]);
  const [r] = late.results;
  assert.equal(r.verdict, "EFFECT-DESPITE-REJECTION");
  assert.deepEqual(r.client_saw, ["tool-error"]);
  assert.equal(storedUnder(late, r.key), 1);
  const refused = await accept("correct", ["rejected"]);
  assert.equal(refused.results[0].verdict, "NO-EFFECT");
  assert.equal(storedUnder(refused, refused.results[0].key), 0);
});

test("a bad call with a key of its own is counted under that key, the client's answer in the verdict (before: under call's key, NO-EFFECT)", async () => {
  const accepted = await accept("accepts-bad", ["rejected"], {
    oracle: OWN_KEY,
  });
  const [a] = accepted.results;
  assert.equal(a.key, `bad-${a.run}`);
  assert.equal(a.counted_under, "bad_call");
  assert.equal(a.effect, 1);
  assert.equal(a.verdict, "ACCEPTED-BAD-CALL");
  assert.equal(storedUnder(accepted, `bad-${a.run}`), 1);
  // Nothing under call's key: counting there would have said NO-EFFECT.
  assert.equal(storedUnder(accepted, `note-${a.run}-001`), 0);
  const late = await accept("writes-then-rejects", ["rejected"], {
    oracle: OWN_KEY,
  });
  assert.equal(late.results[0].verdict, "EFFECT-DESPITE-REJECTION");
  assert.equal(storedUnder(late, late.results[0].key), 1);
  // A bad call with no key at the pointer: call's key, and the row says so.
  const { bad_call: _b, ...rest } = PUT;
  const keyless = await accept("accepts-bad", ["rejected"], {
    oracle: { tools: [{ ...rest, bad_call: { text: "" } }] },
  });
  assert.equal(keyless.results[0].counted_under, "call");
  const shown = matrixLines(keyless, "en").join(" ").replace(/ +/g, " ");
  assert.match(
    shown,
    /carries no key of its own: its effect was counted under call's key/,
  );
});

test("the same key with other arguments: DUPLICATED when both remain, OVERWRITTEN only when the old is gone, each counted", async () => {
  const both = await accept("duplicates", ["same-key-other-arguments"]);
  const [d] = both.results;
  assert.equal(d.verdict, "DUPLICATED");
  assert.deepEqual([d.effect, d.effect_old, d.effect_other], [2, 1, 1]);
  assert.deepEqual(
    both.stored.filter((n) => n.id === d.key).map((n) => n.text),
    [`hello ${d.run}`, `other ${d.run}`],
  );
  assert.ok(
    matrixLines(both, "en").includes(
      "      the first arguments' effect: 1 left; the other arguments': 1",
    ),
  );
  const replaced = await accept("overwrites", ["same-key-other-arguments"]);
  const [o] = replaced.results;
  assert.equal(o.verdict, "OVERWRITTEN");
  assert.equal(o.class, "info");
  assert.deepEqual([o.effect, o.effect_old, o.effect_other], [1, 0, 1]);
  assert.deepEqual(
    replaced.stored.filter((n) => n.id === o.key).map((n) => n.text),
    [`other ${o.run}`],
  );
});

test("N identical calls, one effect, k of them told it failed: FALSE-FAILURE (k of N), with the server's words", async () => {
  const report = await accept("false-failure", ["concurrent-same"]);
  const [r] = report.results;
  assert.equal(r.verdict, "FALSE-FAILURE");
  assert.equal(r.effect, 1);
  assert.equal(r.told_failed, 9);
  assert.equal(r.client_saw.filter((o) => o === "success").length, 1);
  assert.equal(storedUnder(report, r.key), 1);
  const said = r.answers.filter((a) => a.outcome === "tool-error");
  assert.equal(said.length, 9);
  for (const a of said) {
    assert.equal(
      a.text,
      `UNIQUE constraint failed: notes.id (${r.key} already exists)`,
    );
  }
  const lines = matrixLines(report, "en");
  assert.ok(
    lines.includes(
      "      9 of 10 callers were told the call failed, yet its effect exists",
    ),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) =>
      /^ {6}call \d+ was answered: “UNIQUE constraint failed/.test(l)
    ),
  );
  // ONCE needs every answer to be a success.
  const correct = await accept("correct", ["concurrent-same"]);
  assert.equal(correct.results[0].verdict, "ONCE");
  assert.equal(correct.results[0].told_failed, 0);
});

test("cancel before the answer, forced: the server holds its answer until the cancel comes; the effect stays", async () => {
  // Any delay: the answer cannot come first.
  const report = await accept("holds-until-cancelled", ["cancel-after-send"], {
    cancelAfterMs: 30,
  });
  const [r] = report.results;
  assert.deepEqual(r.cancel, { after_ms: 30, from: "flag", sent: true });
  assert.deepEqual(r.info, ["EFFECT-DESPITE-CANCEL"]);
  assert.equal(r.verdict, "ONCE");
  assert.equal(r.effect_before_retry, 1);
  assert.equal(storedUnder(report, r.key), 1);
  const steps = r.timeline.map((e) => `${e.lane} ${e.kind}`);
  assert.ok(steps.includes("client cancelled"));
  assert.ok(!steps.includes("guardlab too-late"));
  // The held call was never answered: only the retry was.
  assert.deepEqual(r.answers.map((a) => `${a.call} ${a.outcome}`), [
    "2 success",
  ]);
});

test("the answer before the cancel, forced: no cancel is sent, the information is CANCEL-TOO-LATE, and the case says so in one line", async () => {
  // The server answers at once; the delay is ten minutes, and the case
  // does not wait it out: the answer ends the wait.
  const report = await accept("correct", ["cancel-after-send"], {
    cancelAfterMs: 600_000,
  });
  const [r] = report.results;
  assert.deepEqual(r.cancel, { after_ms: 600_000, from: "flag", sent: false });
  assert.deepEqual(r.info, ["CANCEL-TOO-LATE"]);
  assert.equal(r.verdict, "ONCE");
  const steps = r.timeline.map((e) => `${e.lane} ${e.kind}`);
  assert.ok(!steps.includes("client cancelled"));
  assert.ok(steps.includes("guardlab too-late"));
  const ms = r.answers[0].ms;
  const lines = matrixLines(report, "en");
  // One sentence (wrapped where the column ends), the answer's own time in it.
  const text = lines.map((l) => l.trim()).join(" ");
  assert.ok(
    text.includes(
      `no cancel was tested: the server answered call 1 in ${ms} ms, before the cancel was due at 600000 ms (--cancel-after-ms); --cancel-after-ms N sets the delay`,
    ),
    lines.join("\n"),
  );
  assert.ok(
    text.includes(
      "also: CANCEL-TOO-LATE: the answer came before the cancel could be sent: this run tested no cancel",
    ),
  );
  assert.ok(lines.every((l) => l.length <= 80));
  const zh = timelineLines(r, "zh");
  assert.ok(
    zh.includes(
      "                          | 调用 1 的应答先到：     |",
    ) && zh.includes("                          | 没有发送取消            |"),
    zh.join("\n"),
  );
});

test("the cancel's delay: half the median latency measured before it, else the default, else the flag", async () => {
  assert.deepEqual(cancelPlan(undefined, []), {
    after_ms: 20,
    from: "default",
  });
  assert.deepEqual(cancelPlan(undefined, [4.2, 0.9, 9]), {
    after_ms: 2,
    from: "measured",
    median_ms: 4.2,
  });
  assert.deepEqual(cancelPlan(undefined, [1.5, 2.5]), {
    after_ms: 1,
    from: "measured",
    median_ms: 2,
  });
  assert.deepEqual(cancelPlan(0, [40]), { after_ms: 0, from: "flag" });
  const report = await accept("correct", [
    "once",
    "lost-reply-retry",
    "cancel-after-send",
  ], { cancelAfterMs: "measured" });
  const [once, lost, cancel] = report.results;
  const measured = [once.answers[0].ms!, lost.answers[0].ms!].sort((a, b) =>
    a - b
  );
  const median = (measured[0] + measured[1]) / 2;
  assert.equal(cancel.cancel?.from, "measured");
  assert.equal(cancel.cancel?.after_ms, Math.floor(median / 2));
  // Where the cancel fell is the server's speed: what the case says must
  // be what it saw.
  assert.equal(cancel.info.includes("CANCEL-TOO-LATE"), !cancel.cancel?.sent);
});

test("two processes over one store: ALL-KEPT when each sees the other's notes, LOST (k of N) when each writes back only its own", async () => {
  const kept = await accept("correct", ["two-processes"]);
  const [k] = kept.results;
  assert.equal(k.verdict, "ALL-KEPT");
  assert.equal(k.effect, 10);
  assert.equal(
    kept.stored.filter((n) => n.id.startsWith(`note-${k.run}-`)).length,
    10,
  );
  assert.deepEqual(
    k.timeline.filter((e) => e.lane === "guardlab" && e.process !== undefined)
      .map((e) => `${e.kind} ${e.process}`).filter((s) =>
        !s.startsWith("forwarded") && !s.startsWith("read") &&
        !s.startsWith("delivered")
      ),
    ["started 1", "started 2", "closed 1", "closed 2", "started 3"],
  );
  // Calls 1-5 to process 1, 6-10 to process 2.
  assert.deepEqual(
    k.answers.map((a) => a.process),
    [1, 1, 1, 1, 1, 2, 2, 2, 2, 2],
  );
  const lost = await accept("cache", ["two-processes"]);
  const [l] = lost.results;
  assert.equal(l.verdict, "LOST");
  assert.deepEqual(l.client_saw, Array(10).fill("success"));
  // The last process to write left its own five.
  assert.equal(l.effect, 5);
  assert.equal(
    lost.stored.filter((n) => n.id.startsWith(`note-${l.run}-`)).length,
    5,
  );
});

test("a kill after the commit: ONCE, LOST-ON-RESTART when the server had only buffered it, DUPLICATED or FALSE-FAILURE on the retry", async () => {
  const once = await accept("correct", ["crash-after-commit"]);
  const [o] = once.results;
  assert.equal(o.verdict, "ONCE");
  assert.deepEqual(
    [o.effect_before_kill, o.effect_before_retry, o.effect],
    [1, 1, 1],
  );
  assert.equal(storedUnder(once, o.key), 1);
  const kinds = o.timeline.filter((e) => e.lane === "guardlab").map((e) =>
    `${e.kind}${e.process ? ` ${e.process}` : ""}`
  );
  assert.deepEqual(kinds.filter((k) => /started|killed|closed/.test(k)), [
    "started 1",
    "killed 1",
    "started 2",
  ]);
  // The first server on its own file: only the killed and the restarted
  // one share the store.
  const lost = await accept("buffered", ["crash-after-commit"], {
    apart: true,
  });
  const [l] = lost.results;
  assert.equal(l.verdict, "LOST-ON-RESTART");
  assert.equal(l.class, "unsafe");
  assert.deepEqual([l.effect_before_kill, l.effect_before_retry], [1, 0]);
  // The store holds the retry's note, written when the restarted server's
  // input ended; the note the first one showed never reached it.
  assert.equal(storedUnder(lost, l.key), 1);
  assert.ok(
    matrixLines(lost, "en").includes(
      "      the read saw 1 before the kill, 0 after the restart",
    ),
  );
  const dup = await accept("duplicates", ["crash-after-commit"]);
  assert.equal(dup.results[0].verdict, "DUPLICATED");
  assert.equal(storedUnder(dup, dup.results[0].key), 2);
  const ff = await accept("false-failure", ["crash-after-commit"]);
  assert.equal(ff.results[0].verdict, "FALSE-FAILURE");
  assert.equal(storedUnder(ff, ff.results[0].key), 1);
  assert.match(ff.results[0].answers.at(-1)?.text ?? "", /already exists/);
});

test("declared hints against behaviour: the hint a verdict contradicts is named; a read tool without readOnlyHint is information", async () => {
  const dup = await accept("duplicates", [
    "lost-reply-retry",
    "concurrent-same",
    "annotations",
  ]);
  const a = dup.results[2];
  assert.equal(a.verdict, "ANNOTATION-CONTRADICTED");
  assert.deepEqual(a.hints, { idempotentHint: true, readOnlyHint: false });
  assert.deepEqual(
    a.contradicted?.map((c) =>
      `${c.hint}=${c.declared} ${c.case} ${c.verdict}`
    ),
    [
      "idempotentHint=true lost-reply-retry DUPLICATED",
      "idempotentHint=true concurrent-same DUPLICATED",
    ],
  );
  assert.deepEqual(a.info, []);
  const lines = matrixLines(dup, "en");
  assert.ok(
    lines.includes(
      "  declared hints: idempotentHint: true, readOnlyHint: false",
    ),
  );
  assert.ok(
    lines.includes(
      "      declares idempotentHint: true, yet lost-reply-retry: DUPLICATED",
    ),
    lines.join("\n"),
  );
  const ro = await accept("claims-read-only", ["once", "annotations"]);
  assert.deepEqual(
    ro.results[1].contradicted?.map((c) => `${c.hint} ${c.case} ${c.effect}`),
    ["readOnlyHint once 1"],
  );
  assert.deepEqual(ro.results[1].info, []);
  assert.equal(storedUnder(ro, ro.results[0].key), 1);
  const over = await accept("overwrites", [
    "same-key-other-arguments",
    "annotations",
  ]);
  assert.deepEqual(
    over.results[1].contradicted?.map((c) => `${c.hint}=${c.declared}`),
    ["destructiveHint=false"],
  );
  // It does not say its read tool is read-only either.
  assert.deepEqual(over.results[1].info, ["READ-HINT-MISSING"]);
  const good = await accept("correct", CASES_WITH_REPEATS);
  assert.equal(good.results.at(-1)?.verdict, "HINTS-HOLD");
  assert.deepEqual(good.results.at(-1)?.info, []);
  // Declared, but no case that checks it ran.
  const alone = await accept("correct", ["annotations"]);
  assert.equal(alone.results[0].verdict, "NOT-RUN");
  assert.equal(alone.results[0].not_run, "nothing-to-check");
  const none = await accept("silent-conflict", ["once", "annotations"]);
  assert.equal(none.results[1].verdict, "NOTHING-PROMISED");
  assert.deepEqual(none.results[1].info, []);
});

const CASES_WITH_REPEATS = [
  "lost-reply-retry",
  "same-key-other-arguments",
  "annotations",
] as const;

test("an answer's text is kept cut to a bound and inert: in the JSON, on the matrix, on the timeline", async () => {
  const report = await accept("loud-refusal", ["once"]);
  const [r] = report.results;
  assert.equal(r.verdict, "NONE");
  const text = r.answers[0].text ?? "";
  // 200 characters of what it said (the escape, the override and the
  // invisible space shown as \uXXXX), then "…".
  const said = "refused\u001b[2J\u202eUNIQUE\u200b " + "x".repeat(1000);
  const cut = [...said].slice(0, MAX_ANSWER_TEXT).join("");
  assert.equal(
    text,
    cut.replace("\u001b", "\\u001b").replace("\u202e", "\\u202e").replace(
      "\u200b",
      "\\u200b",
    ) + "…",
  );
  const drives = (t: string) =>
    ["\u001b", "\u202e", "\u200b"].some((c) => t.includes(c));
  assert.ok(!drives(JSON.stringify(report)));
  for (const lang of ["en", "zh"] as const) {
    const shown = [...matrixLines(report, lang), ...timelineLines(r, lang)];
    assert.ok(!shown.some(drives));
    assert.ok(shown.join("").includes("refused\\u001b[2J\\u202eUNIQUE"));
  }
  // On the timeline, where the server said it.
  assert.ok(
    timelineLines(r, "en").join(" ").includes(
      "| answers call 1: error",
    ),
  );
});
