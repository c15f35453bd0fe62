/**
 * The `exercise` command: list, show (and the teacher's invariants), hints,
 * check with feedback lines, predictions (one line, the first guess counts,
 * a wrong guess shows nothing, --reveal is recorded), progress as text and
 * JSON, hand-in and grade by re-running.
 */
import assert from "node:assert/strict";
import { BUILTIN_COURSE } from "../../lib/exercises/mod.ts";
import { cli } from "../_helpers/helpers.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";
import { ENV_READABLE } from "../_helpers/env.ts";

const EXERCISES = BUILTIN_COURSE.exercises;
const run = (job: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2 },
    ...extra,
  });
const bad = { faults: { bad_output: true } };

async function withBase(body: (say: typeof cli) => Promise<void>) {
  await using baseFolder = await tempDir("guardlab-ex-");
  const base = baseFolder.path;
  await body((args, input = "") => cli(args, input, false, base));
}

Deno.test("exercise: list, show, hints, check, progress that survives reset, hand-in and grade", async () => {
  await withBase(async (say) => {
    const list = JSON.parse((await say(["exercise", "list", "--json"])).out[0]);
    assert.equal(list.length, EXERCISES.length);
    assert.ok(list.every((x: { state: string }) => x.state === "not started"));
    const shown = (await say(["exercise", "show", "1", "--lang", "zh"])).out;
    assert.equal(shown[0], "1. 后检拒绝了，草稿还在");
    assert.match(shown[2], /^用 JOB-001（river，2 份）制造一次调用：/);
    assert.ok(shown.some((l) => l.startsWith("论断：")));
    assert.ok(shown.includes(
      '  {"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
    ));
    // Hints come one more at a time, and stop at the last.
    const hints = async () =>
      (await say(["exercise", "hint", "1"])).out.filter((l) => /^\d\. /.test(l))
        .length;
    assert.equal(await hints(), 1);
    assert.equal(await hints(), 2);
    assert.equal(await hints(), 2, "no more than there are");
    const wrongFirst = await say(["exercise", "check", "1"], run("JOB-001"));
    assert.equal(wrongFirst.code, 1);
    assert.deepEqual(wrongFirst.out, [
      "[no] a run of JOB-001 (river, 2 copies) ended output_rejected",
      "     what your answer did: line 1, a run of JOB-001 (river, 2 copies) ended",
      "         accepted after the commit point (its draft was committed)",
      "[--] a run of JOB-001 committed that draft before the output check ran",
      "[--] the ledger (second connection) still holds the draft of JOB-001",
      "[--] no receipt of JOB-001 says accepted",
      "[--] the draft of JOB-001 was not voided afterwards",
      "Marks: [no] does not hold (under it, what your answer did); [--] not checked: it",
      "       rests on the line marked [no]",
      "exercise 1: not yet",
    ]);
    const right = await say(["exercise", "check", "1"], run("JOB-001", bad));
    assert.equal(right.code, 0);
    assert.ok(right.out.includes("exercise 1: done"));
    assert.match(
      right.out.join(" "),
      /Why: Line 1 committed the draft "river \/ copies=2" of JOB-001; the output check/,
    );
    // A later wrong try does not lose the passing answer.
    assert.equal((await say(["exercise", "check", "1"], "")).code, 1);
    // A ledger reset keeps the progress.
    await say([
      "run",
      "--ledger",
      "x",
      ...runFlags({ copies: 1 }),
    ]);
    await say(["reset", "--ledger", "x"]);
    const progress = (await say(["exercise", "progress"])).out;
    assert.equal(progress[0], `1 of ${EXERCISES.length} exercises done`);
    const json = JSON.parse(
      (await say(["exercise", "progress", "--json"])).out[0],
    );
    assert.deepEqual(
      { course: json.course, done: json.done, of: json.of },
      { course: "guardlab", done: 1, of: EXERCISES.length },
    );
    assert.deepEqual(json.exercises[0], {
      n: 1,
      slug: "output-check-cannot-unwrite",
      state: "done",
      hints: 2,
    });
    // A hand-in says whose work it is: none without a name.
    const nameless = await say(["exercise", "hand-in"]);
    assert.equal(nameless.code, 2);
    assert.match(nameless.err[0], /set your name first.*config name/);
    assert.equal((await say(["config", "name", "Li Lei"])).code, 0);
    const handIn = (await say(["exercise", "hand-in"])).out[0];
    const bundle = JSON.parse(handIn);
    assert.deepEqual(Object.keys(bundle.exercises), [
      "output-check-cannot-unwrite",
    ]);
    assert.equal(bundle.name, "Li Lei");
    const graded = JSON.parse(
      (await say(["exercise", "grade", "--json"], handIn)).out[0],
    );
    const [row] = graded.students;
    assert.deepEqual(
      Object.entries(row.cells).filter(([, c]) => c !== "missing"),
      [["1", "done"]],
    );
    // Grading re-runs answers: a bundle that only claims success gets nothing.
    bundle.exercises["same-error-two-ledgers"] = {
      answer: run("JOB-001"),
      passed: "2026-01-01T00:00:00.000Z",
      checks: 1,
      hints: 0,
      revealed: false,
      first: "2026-01-01T00:00:00.000Z",
      hints_before_guess: null,
    };
    const regraded = JSON.parse(
      (await say(["exercise", "grade", "--json"], JSON.stringify(bundle)))
        .out[0],
    );
    assert.equal(regraded.students[0].cells["2"], "not-yet");
    assert.equal(regraded.students[0].flags[0].kind, "edited");
    assert.equal((await say(["exercise", "grade"], "[]")).code, 1);
    for (
      const args of [
        ["exercise"],
        ["exercise", "show", "99"],
        ["exercise", "fly"],
        ["exercise", "check", "1", "--invariants"],
        ["exercise", "show", "1", "--reveal"],
        ["exercise", "hint", "1", "--json"],
        ["exercise", "list", "--csv"],
      ]
    ) {
      assert.equal((await say(args)).code, 2, args.join(" "));
    }
  });
});

Deno.test("exercise: a prediction is one line, only the first guess counts, a wrong guess shows nothing, --reveal is recorded", async () => {
  await withBase(async (say) => {
    const n = String(
      EXERCISES.findIndex((x) => x.slug === "predict-cancel-after-commit") + 1,
    );
    const twoLines = await say(
      ["exercise", "check", n],
      '{"outcome":"cancelled","draft":true,"receipts":1}\n{"outcome":"x"}',
    );
    assert.equal(twoLines.code, 1);
    assert.deepEqual(twoLines.out, [
      "not yet: a prediction is one line; line 2 is one too many; your one guess is",
      "         still unused",
    ]);
    const wrong = await say(
      ["exercise", "check", n],
      '{"outcome":"accepted","draft":true,"receipts":1}',
    );
    assert.equal(wrong.code, 1);
    assert.doesNotMatch(wrong.out.join("\n"), /cancelled|What happened/);
    // The right answer now: the first guess is the one that counts.
    const second = await say(
      ["exercise", "check", n],
      '{"outcome":"cancelled","draft":true,"receipts":1}',
    );
    assert.equal(second.code, 1);
    // However the line wraps, it names the first guess.
    const squeeze = (t: string) => t.replace(/\s+/g, "");
    assert.equal(
      squeeze(second.out.slice(0, 2).join("")),
      squeeze(
        'only your first prediction counts: {"outcome":"accepted","draft":true,"receipts":1}',
      ),
    );
    assert.doesNotMatch(second.out.join("\n"), /What happened/);
    const shown = await say(["exercise", "check", n, "--reveal"]);
    assert.equal(shown.code, 1);
    assert.deepEqual(shown.out.slice(-4), [
      "What happened:",
      "  outcome: cancelled",
      "  draft: true",
      "  receipts: 1",
    ]);
    const json = JSON.parse(
      (await say(["exercise", "progress", "--json"])).out[0],
    );
    assert.deepEqual(json.exercises[Number(n) - 1], {
      n: Number(n),
      slug: "predict-cancel-after-commit",
      state: "attempted",
      hints: 0,
      revealed: true,
    });
    // A right first guess passes and shows what happened.
    const m = String(
      EXERCISES.findIndex((x) => x.slug === "predict-parallel-guardrail") + 1,
    );
    const right = await say(
      ["exercise", "check", m, "--lang", "zh"],
      '{"outcome":"input_rejected","draft":true,"receipts":1.0}',
    );
    assert.equal(right.code, 0);
    assert.ok(right.out.includes("实际发生的是："));
    assert.ok(right.out.includes("  receipts：1"));
  });
});

/** A well-formed guess for prediction `x`, right or wrong: the first value each field allows. */
function someGuess(x: (typeof EXERCISES)[number]): string {
  const first = (accepts: unknown) =>
    Array.isArray(accepts)
      ? accepts[0]
      : accepts === "boolean"
      ? true
      : accepts === "outcome"
      ? "accepted"
      : accepts === "verdict"
      ? "ONCE"
      : 0;
  return JSON.stringify(
    Object.fromEntries(
      (x.predict ?? []).map((f) => [f.field, first(f.accepts)]),
    ),
  );
}

Deno.test("exercise: show --invariants prints every exercise's invariants in both languages, a prediction's once its guess is kept (review)", async () => {
  await withBase(async (say) => {
    for (const x of EXERCISES) {
      if (x.kind === "prediction") {
        // They bind what happens (19: the side is "after"): the answer.
        const before = await say([
          "exercise",
          "show",
          String(x.n),
          "--invariants",
        ]);
        assert.equal(before.code, 0);
        assert.deepEqual(before.out, [
          `exercise ${x.n} is a prediction: its invariants say what happens, so they are shown`,
          `    once your first prediction is kept (guardlab exercise check ${x.n} < guess.json)`,
        ]);
        const zh = await say([
          "exercise",
          "show",
          String(x.n),
          "--invariants",
          "--lang",
          "zh",
        ]);
        assert.deepEqual(zh.out, [
          `练习 ${x.n} 是预测题：它的不变式说出了会发生什么，所以在你的第一次预测保存之后才显示`,
          `                  （guardlab exercise check ${x.n} < guess.json）`,
        ]);
        // A host run in process (exercise 20) cannot be judged where the
        // environment is denied: its guess is not kept, nothing to show.
        if (x.host_example !== undefined && !ENV_READABLE) continue;
        const guess = await say(
          ["exercise", "check", String(x.n)],
          someGuess(x),
        );
        assert.ok([0, 1].includes(guess.code), guess.out.join("\n"));
        assert.doesNotMatch(guess.out.join("\n"), /still unused/);
      }
      const r = await say(["exercise", "show", String(x.n), "--invariants"]);
      assert.equal(r.code, 0);
      assert.match(
        r.out[0],
        new RegExp(`^${x.n}\\. ${x.slug} \\(${x.kind}\\)`),
      );
      // A ledger-judged exercise starts from ledger rows, every other from steps.
      const first = x.judged === "ledger"
        ? /^ {4}P1 {2}ledger receipts /
        : /^ {4}P1 {2}pick /;
      assert.ok(r.out.some((l) => first.test(l)), x.slug);
      // Each sentence in English, then in Chinese.
      const says = x.invariants[0].premises[0].says!;
      const i = r.out.findIndex((l) =>
        l.trim() ===
          says.en.replace("{job}", "JOB-001").replace("{otherJob}", "JOB-002")
            .replace("{topic}", "river").replace("{copies}", "2").replace(
              "{overCopies}",
              "4",
            ).replace("{lowerLimit}", "1")
      );
      assert.ok(i > 0, `${x.slug}: ${r.out.join("\n")}`);
      assert.match(r.out[i + 1], /[\u4e00-\u9fff]/);
      const zh = await say([
        "exercise",
        "show",
        String(x.n),
        "--invariants",
        "--lang",
        "zh",
      ]);
      assert.deepEqual(zh.out, r.out, "a teacher's view is the same in both");
    }
    const one = (await say(["exercise", "show", "1", "--invariants"])).out;
    assert.ok(one.includes(
      '    P1  pick runs as a where job = {job}, topic = {topic}, copies = {copies}, status = "output_rejected"',
    ));
    assert.ok(one.includes(
      '    F2  none: ledger receipts where job = a.job, status = "accepted"',
    ));
    assert.ok(one.includes("        no receipt of {a.job} says accepted"));
    assert.ok(one.includes("        {a.job} 没有任何 accepted 回执"));
  });
});
