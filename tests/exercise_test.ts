/**
 * Every checker judged against a correct answer, an empty one and plausible
 * wrong ones (the right outcome reached the wrong way, or the right statuses
 * with the wrong ledger). Answers run in a fresh scratch ledger; the checkers
 * read it through a second connection.
 */
import assert from "node:assert/strict";
import { exerciseOf, EXERCISES } from "../lib/exercises/catalog.ts";
import { judge } from "../lib/exercises/judge.ts";
import { cli, TEST_BASE, TEST_ROOT } from "./helpers.ts";

const run = (
  job: string,
  extra: Record<string, unknown> = {},
  args: Record<string, unknown> = {},
) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2, ...args },
    ...extra,
  });
const bad = { faults: { bad_output: true } };
const pre = (job: string, copies: number, as = "s") =>
  JSON.stringify({ op: "policy.precheck", job, copies, as });
const change = (max: number) =>
  JSON.stringify({ op: "policy.change", max_copies: max });
const checked = (job: string, copies: number, extra = {}) =>
  JSON.stringify({
    op: "policy.insert_checked",
    job,
    copies,
    snapshot: "s",
    ...extra,
  });

/** For each exercise: a correct answer, then wrong ones (each must fail). */
const ANSWERS: Record<number, { correct: string[]; wrong: string[][] }> = {
  1: {
    correct: [run("JOB-001", bad)],
    wrong: [
      [run("JOB-001")],
      [run("JOB-001", bad, { copies: 4 })],
      [run("JOB-001", bad), run("JOB-001")],
    ],
  },
  2: {
    correct: [
      run("JOB-001", { faults: { fail_at: "inside_transaction" } }),
      run("JOB-002", { faults: { fail_at: "after_commit" } }),
    ],
    wrong: [
      [run("JOB-001", { faults: { fail_at: "inside_transaction" } })],
      [
        run("JOB-001", { faults: { fail_at: "before_business" } }),
        run("JOB-002", { faults: { fail_at: "inside_transaction" } }),
      ],
    ],
  },
  3: {
    correct: [run("JOB-001", bad), run("JOB-001")],
    wrong: [
      [run("JOB-001"), run("JOB-001")],
      [run("JOB-001", bad), run("JOB-002")],
    ],
  },
  4: {
    correct: [run("JOB-001"), run("JOB-001", {}, { copies: 3 })],
    wrong: [
      [run("JOB-001"), run("JOB-001")],
      [run("JOB-001"), run("JOB-002", {}, { copies: 3 })],
    ],
  },
  5: {
    correct: [run("JOB-001"), run("JOB-002")],
    wrong: [
      [run("JOB-001"), run("JOB-001")],
      [run("JOB-001"), run("JOB-002", {}, { topic: "forest" })],
    ],
  },
  6: {
    correct: [
      '{"op":"fixture","receipt_fault":"ignore"}',
      run("JOB-001", { receipt: "naive" }),
      run("JOB-002"),
    ],
    wrong: [
      [run("JOB-001", { receipt: "naive" }), run("JOB-002")],
      ['{"op":"fixture","receipt_fault":"ignore"}', run("JOB-001")],
    ],
  },
  7: {
    correct: [run("JOB-002", { faults: { cancel_at: "after_business" } })],
    wrong: [
      [run("JOB-002", { faults: { cancel_at: "before_business" } })],
      [run("JOB-002", { faults: { fail_at: "after_business" } })],
    ],
  },
  8: {
    correct: [
      run("JOB-001", {
        faults: { cancel_at: "after_business", audit_failure: true },
      }),
    ],
    wrong: [
      [run("JOB-001", { faults: { audit_failure: true } })],
      [run("JOB-001", { faults: { cancel_at: "after_business" } })],
    ],
  },
  9: {
    correct: [
      pre("JOB-001", 2),
      change(1),
      '{"op":"policy.insert_naive","job":"JOB-001","copies":2,"snapshot":"s"}',
      checked("JOB-002", 2),
    ],
    wrong: [
      [pre("JOB-001", 2), change(1), checked("JOB-001", 2)],
      [
        pre("JOB-001", 2),
        '{"op":"policy.insert_naive","job":"JOB-001","copies":2,"snapshot":"s"}',
        checked("JOB-002", 2),
      ],
    ],
  },
  10: {
    correct: [pre("JOB-001", 2), change(1), change(3), checked("JOB-001", 2)],
    wrong: [
      [pre("JOB-001", 2), change(1), checked("JOB-001", 2)],
      [pre("JOB-001", 2), change(3), checked("JOB-001", 2)],
    ],
  },
  11: {
    correct: [
      pre("JOB-001", 2),
      checked("JOB-001", 2, { fail_before_commit: true }),
    ],
    wrong: [
      [pre("JOB-001", 2), checked("JOB-001", 2)],
      [pre("JOB-001", 2), '{"op":"policy.lock"}', checked("JOB-001", 2)],
    ],
  },
  12: {
    correct: [
      run("JOB-001", { input_guardrail: "parallel" }, { copies: 4 }),
      run("JOB-002", { input_guardrail: "sequential" }, { copies: 4 }),
    ],
    wrong: [
      [run("JOB-001", { input_guardrail: "parallel" }, { copies: 4 })],
      [
        run("JOB-001", { input_guardrail: "parallel" }),
        run("JOB-002", {}, { copies: 4 }),
      ],
    ],
  },
  13: {
    correct: [run("JOB-001", bad), run("JOB-001")],
    wrong: [
      [run("JOB-001", bad), run("JOB-002")],
      [run("JOB-001")],
    ],
  },
  14: {
    correct: [
      run("JOB-001", bad),
      '{"op":"compensate","job":"JOB-001","faults":{"fail_at":"before_commit"}}',
    ],
    wrong: [
      [run("JOB-001", bad), '{"op":"compensate","job":"JOB-001"}'],
      [
        run("JOB-001", bad),
        '{"op":"compensate","job":"JOB-009","faults":{"fail_at":"before_commit"}}',
      ],
    ],
  },
  15: {
    correct: ['{"outcome":"cancelled","draft":true,"receipts":1}'],
    wrong: [
      ['{"outcome":"cancelled","draft":false,"receipts":1}'],
      ['{"outcome":"accepted","draft":true,"receipts":1}'],
      ["not json"],
    ],
  },
  16: {
    correct: ['{"outcome":"input_rejected","draft":true,"receipts":1}'],
    wrong: [
      ['{"outcome":"input_rejected","draft":false,"receipts":1}'],
      ['{"outcome":"accepted","draft":true,"receipts":1}'],
    ],
  },
};

const TRUSTED = [TEST_BASE, "/tmp"];

Deno.test("exercises: every checker passes its answer and refuses the wrong ones", async (t) => {
  assert.ok(EXERCISES.length >= 12);
  assert.deepEqual(
    Object.keys(ANSWERS).map(Number),
    EXERCISES.map((x) => x.n),
    "every exercise is tested",
  );
  for (const x of EXERCISES) {
    await t.step(`${x.n} ${x.slug}`, async () => {
      const { correct, wrong } = ANSWERS[x.n];
      assert.ok(wrong.length >= 2, "at least two wrong answers");
      const ok = await judge(x, correct.join("\n"), TEST_ROOT, TRUSTED);
      assert.equal(
        ok.done,
        true,
        JSON.stringify(ok.findings.filter((f) => !f.held)),
      );
      const empty = await judge(x, "", TEST_ROOT, TRUSTED);
      assert.equal(empty.done, false, "empty");
      for (const [i, answer] of wrong.entries()) {
        const j = await judge(x, answer.join("\n"), TEST_ROOT, TRUSTED);
        assert.equal(j.done, false, `wrong answer ${i + 1} passed`);
      }
      if (x.kind === "script") {
        // The right steps plus one invalid line prove nothing.
        const spoiled = await judge(
          x,
          [...correct, '{"op":"nope"}'].join("\n"),
          TEST_ROOT,
          TRUSTED,
        );
        assert.equal(spoiled.done, false);
        assert.match(
          spoiled.reason!.en,
          /^line \d+ is not a step that can run/,
        );
      }
    });
  }
  await t.step("a lone clean run passes no exercise", async () => {
    for (const x of EXERCISES) {
      const j = await judge(x, run("JOB-001"), TEST_ROOT, TRUSTED);
      assert.equal(j.done, false, `exercise ${x.n}`);
    }
  });
});

Deno.test("exercises: the command, progress that survives reset, hand-in and grade", async () => {
  const base = await Deno.makeTempDir({ prefix: "guardlab-ex-" });
  try {
    const say = (args: string[], input = "") => cli(args, input, false, base);
    const list = JSON.parse((await say(["exercise", "list", "--json"])).out[0]);
    assert.equal(list.length, EXERCISES.length);
    assert.ok(list.every((x: { state: string }) => x.state === "not started"));
    const shown = (await say(["exercise", "show", "1", "--lang", "zh"])).out;
    assert.match(shown[0], /^1\. 后检拒绝了，草稿还在$/);
    assert.ok(shown.some((l) => l.startsWith("论断：")));
    // Hints come one more at a time, and stop at the last.
    const hints = async () =>
      (await say(["exercise", "hint", "1"])).out.filter((l) => /^\d\. /.test(l))
        .length;
    assert.equal(await hints(), 1);
    assert.equal(await hints(), 2);
    assert.equal(await hints(), 2, "no more than there are");
    const wrongFirst = await say(["exercise", "check", "1"], run("JOB-001"));
    assert.equal(wrongFirst.code, 1);
    assert.match(
      wrongFirst.out.join("\n"),
      /\[no\] a run ended output_rejected/,
    );
    const right = await say(["exercise", "check", "1"], run("JOB-001", bad));
    assert.equal(right.code, 0);
    assert.match(right.out.at(-2) ?? "", /done|Why/);
    // A later wrong try does not lose the passing answer.
    assert.equal((await say(["exercise", "check", "1"], "")).code, 1);
    assert.equal(
      (await say(
        ["exercise", "check", "15"],
        '{"outcome":"accepted","draft":false,"receipts":1}',
      )).code,
      1,
    );
    // A ledger reset keeps the progress.
    await say([
      "run",
      "--ledger",
      "x",
      "--job",
      "JOB-001",
      "--topic",
      "river",
      "--copies",
      "1",
    ]);
    await say(["reset", "--ledger", "x"]);
    const progress = (await say(["exercise", "progress"])).out;
    assert.equal(progress[0], `1 of ${EXERCISES.length} exercises done`);
    // A hand-in says whose work it is: none without a name.
    const nameless = await say(["exercise", "hand-in"]);
    assert.equal(nameless.code, 2);
    assert.match(nameless.err[0], /set your name first.*config name/);
    assert.equal((await say(["config", "name", "Li Lei"])).code, 0);
    const handIn = (await say(["exercise", "hand-in"])).out[0];
    const bundle = JSON.parse(handIn);
    assert.deepEqual(Object.keys(bundle.exercises), [
      "output-check-cannot-unwrite",
      "predict-cancel-after-commit",
    ]);
    assert.equal(bundle.name, "Li Lei");
    const graded = JSON.parse(
      (await say(["exercise", "grade", "--json"], handIn)).out[0],
    );
    const [row] = graded.students;
    assert.deepEqual(
      Object.entries(row.cells).filter(([, c]) => c !== "missing"),
      [["1", "done"], ["15", "not-yet"]],
    );
    // Grading re-runs answers: a bundle that only claims success gets nothing.
    bundle.exercises["same-error-two-ledgers"] = {
      answer: run("JOB-001"),
      passed: "2026-01-01T00:00:00.000Z",
      checks: 1,
      hints: 0,
      revealed: false,
    };
    const regraded = JSON.parse(
      (await say(["exercise", "grade", "--json"], JSON.stringify(bundle)))
        .out[0],
    );
    assert.equal(regraded.students[0].cells["2"], "not-yet");
    assert.equal(regraded.students[0].flags[0].kind, "edited");
    assert.equal((await say(["exercise", "grade"], "[]")).code, 1);
    for (
      const args of [["exercise"], ["exercise", "show", "99"], [
        "exercise",
        "fly",
      ]]
    ) {
      assert.equal((await say(args)).code, 2, args.join(" "));
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("exercises: every text in both languages, and every exercise numbered in order", () => {
  EXERCISES.forEach((x, i) => {
    assert.equal(x.n, i + 1);
    assert.equal(exerciseOf(x.n), x);
    for (const text of [x.title, x.task, x.claim, x.why, ...x.hints]) {
      assert.ok(text.en.trim() && text.zh.trim(), x.slug);
      assert.match(text.zh, /[\u4e00-\u9fff]/, x.slug);
    }
    assert.ok(x.hints.length >= 2 && x.hints.length <= 3, x.slug);
  });
});
