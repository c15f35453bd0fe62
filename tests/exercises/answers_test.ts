/**
 * Every built-in exercise judged against answers written by hand: its
 * correct answer, correct answers written differently, and near misses,
 * one per class of wrong verdict the engine must not give (an "accepted"
 * taken from the run instead of the ledger, a refusal with another cause,
 * a legitimate path refused, a pasted answer with another student's values,
 * ...). The answers are data, one file per exercise in `answers/` (named as
 * the exercise's own data file), each case with its hand-written expected
 * statuses and feedback lines; the answers run in a fresh scratch ledger and
 * the engine reads the ledger through a second connection.
 *
 * A case's `answer` is its steps, one JSON value a line: an object is the
 * step as `JSON.stringify` writes it, a string is a line exactly as written
 * (a float, odd spacing, something that is not JSON at all).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  BUILTIN_COURSE,
  defaultParams,
  type Exercise,
  type ExerciseParams,
  judgeAnswer,
  type Verdict,
} from "../../lib/exercises/mod.ts";
import { BUILTIN_EXERCISES } from "../../lib/exercises/builtin.ts";
import {
  zhPunctuationProblems,
  zhSpacingProblems,
} from "../../lib/base/_zh_punctuation.ts";
import { cli, TEST_BASE, TEST_ROOT } from "../_helpers/helpers.ts";
import { VERDICTS } from "../../lib/accept/cases.ts";
import { HOST_EXAMPLE_TIMEOUT_MS } from "../../lib/accept/limits.ts";
import { tempDir } from "../_helpers/tmp.ts";
import { ENV_READABLE, NEEDS_ENV } from "../_helpers/env.ts";

const TRUSTED = [TEST_BASE, "/tmp"];

const ANSWERS = fileURLToPath(new URL("./answers/", import.meta.url));

/**
 * One answer and what must come of it: the status of each finding in
 * order (`ok`, `no`, `--`), or `reason` when nothing can be judged; and
 * lines (English feedback) that must be printed exactly.
 */
interface Case {
  /** What the answer shows, or which class of miss it is. */
  name: string;
  answer: unknown[];
  expect: string;
  lines?: string[];
  /** Lines of the Chinese feedback that must be printed exactly. */
  zh?: string[];
}

/** One exercise's file: its slug, the right answers and the near misses. */
interface Answers {
  exercise: string;
  right: Case[];
  wrong: Case[];
}

/** Answers that pass only with a classmate's values (`other-values.json`). */
interface OtherValues {
  params: ExerciseParams;
  pass: { exercise: number; answer: unknown[]; why?: string }[];
}

function read<T>(file: string): T {
  return JSON.parse(Deno.readTextFileSync(ANSWERS + file)) as T;
}

/** The answer's text: one line per step. */
function text(answer: unknown[]): string {
  return answer.map((s) => typeof s === "string" ? s : JSON.stringify(s))
    .join("\n");
}

/** Every exercise's answers, by exercise number, read from its own file. */
const CASES: Record<number, Answers> = Object.fromEntries(
  BUILTIN_EXERCISES.map(({ file }, i) => [i + 1, read<Answers>(file)]),
);
const OTHER = read<OtherValues>("other-values.json");

function statuses(v: Verdict): string {
  if (v.reason) return "reason";
  return v.findings.map((f) =>
    f.status === "yes" ? "ok" : f.status === "no" ? "no" : "--"
  ).join(" ");
}

function exercise(n: number): Exercise {
  return BUILTIN_COURSE.exercises[n - 1];
}

async function judged(
  n: number,
  answer: unknown[],
  params = defaultParams,
  more: { reveal?: boolean; maxWork?: number } = {},
) {
  return await judgeAnswer(exercise(n), text(answer), params, {
    scratch: TEST_ROOT,
    trusted: TRUSTED,
    ...more,
  });
}

Deno.test({
  name:
    "exercise answers: 20, a host run guardlab stopped at its limit judges no prediction: the right one is not marked wrong, and the judge says the setup did not run as the course says" +
    NEEDS_ENV,
  ignore: !ENV_READABLE,
  async fn() {
    const x = BUILTIN_COURSE.exercises.find((e) => e.host_example)!;
    assert.equal(x.n, 20);
    // A limit no longer than the host's own timeout (which starts at its
    // call): guardlab stops the run while the host still waits.
    const v = await judgeAnswer(
      x,
      '{"resends":false,"cancels":true,"told":"failure","rows":2}',
      defaultParams,
      {
        scratch: TEST_ROOT,
        trusted: TRUSTED,
        hostRunMs: HOST_EXAMPLE_TIMEOUT_MS,
      },
    );
    assert.equal(v.passed, false);
    assert.deepEqual(v.findings, []);
    assert.deepEqual(v.feedback[0], {
      en:
        "not yet: this exercise's setup did not run as its course says; tell your teacher",
      zh: "无法判定：这个练习的预设步骤没有按课程所写运行；请告诉老师",
    });
    assert.equal(v.revealed, null);
  },
});

Deno.test("exercise answers: one file per exercise, and nothing else", () => {
  const files = [...Deno.readDirSync(ANSWERS)].map((e) => e.name).sort();
  assert.deepEqual(
    files,
    [...BUILTIN_EXERCISES.map((x) => x.file), "other-values.json"].sort(),
  );
  for (const x of BUILTIN_COURSE.exercises) {
    assert.equal(CASES[x.n].exercise, x.slug, `answers of exercise ${x.n}`);
  }
});

Deno.test("exercise answers: every exercise, right answers and near misses, judged by cause", async (t) => {
  for (const x of BUILTIN_COURSE.exercises) {
    // A host run in process (exercise 20) loads agents-core, which reads
    // the environment: it needs env granted or ignored.
    const host = x.host_example !== undefined;
    await t.step({
      name: `${x.n} ${x.slug}` + (host ? NEEDS_ENV : ""),
      ignore: host && !ENV_READABLE,
      fn: async (t) => {
        const { right, wrong } = CASES[x.n];
        assert.ok(right.length >= 3, "the answer and two written differently");
        assert.ok(wrong.length >= 4, "at least four near misses");
        for (const c of [...right, ...wrong]) {
          await t.step(c.name, async () => {
            const v = await judged(x.n, c.answer);
            const english = v.feedback.map((l) => l.en);
            assert.equal(statuses(v), c.expect, english.join("\n"));
            assert.equal(v.passed, right.includes(c), english.join("\n"));
            for (const line of c.lines ?? []) {
              assert.ok(
                english.includes(line),
                `${line}\n---\n${english.join("\n")}`,
              );
            }
            const chinese = v.feedback.map((l) => l.zh);
            for (const line of c.zh ?? []) {
              assert.ok(
                chinese.includes(line),
                `${line}\n---\n${chinese.join("\n")}`,
              );
            }
            // A line for every finding, in both languages, and nothing undefined.
            for (const l of v.feedback) {
              assert.doesNotMatch(
                l.en + l.zh,
                /undefined|\{[a-z]+[A-Za-z]*(\.[a-z_]+)?\}/,
              );
              // Chinese, a field's label, a mark, or a command to copy.
              assert.match(
                l.zh,
                /[\u4e00-\u9fff]|^\s*[a-z][a-zA-Z0-9_]*[:：]|^\[|^ {2}guardlab /,
              );
              // One parenthesis, one kind of comma: never an ASCII comma,
              // nor 、 and ， mixed in one (issue 39).
              for (const [inside] of l.zh.matchAll(/（[^（）]*）/g)) {
                assert.doesNotMatch(inside, /, /, l.zh);
                assert.ok(
                  !(inside.includes("、") && inside.includes("，")),
                  l.zh,
                );
              }
            }
            // The Chinese a student reads follows the punctuation and spacing
            // rules, feedback, reasons and "why" alike (issue 29).
            for (const l of [...v.feedback, v.why, v.reason]) {
              if (!l) continue;
              assert.deepEqual(
                [...zhPunctuationProblems(l.zh), ...zhSpacingProblems(l.zh)],
                [],
                l.zh,
              );
            }
            if (right.includes(c)) {
              assert.ok(v.why, "a pass says why");
            } else {
              assert.equal(v.why, null);
            }
          });
        }
      },
    });
  }
});

Deno.test("exercise answers: a pasted answer fails with another student's values", async (t) => {
  // A prediction has one right answer whatever the values: no signal there.
  for (const x of BUILTIN_COURSE.exercises.filter((x) => x.kind === "script")) {
    await t.step(`${x.n} ${x.slug}`, async () => {
      const mine = CASES[x.n].right[0].answer;
      const v = await judged(x.n, mine, OTHER.params);
      assert.equal(v.passed, false, v.feedback.map((l) => l.en).join("\n"));
    });
  }
  await t.step(
    "the same exercises pass when written with those values",
    async () => {
      assert.ok(OTHER.pass.length >= 6);
      for (const { exercise: n, answer, why } of OTHER.pass) {
        const v = await judged(n, answer, OTHER.params);
        assert.equal(v.passed, true, v.feedback.map((l) => l.en).join("\n"));
        if (why !== undefined) assert.equal(v.why?.en, why);
      }
    },
  );
});

Deno.test("exercise answers: a prediction never shows what happened after a wrong guess, unless revealed", async () => {
  const wrong = [{ outcome: "accepted", draft: true, receipts: 1 }];
  const v = await judged(15, wrong);
  assert.equal(v.revealed, null);
  const text = v.feedback.map((l) => l.en + l.zh).join("\n");
  assert.doesNotMatch(text, /cancelled/);
  const shown = await judged(15, wrong, defaultParams, { reveal: true });
  assert.deepEqual(shown.revealed?.map((l) => l.en), [
    "outcome: cancelled",
    "draft: true",
    "receipts: 1",
  ]);
  assert.equal(shown.passed, false);
  // No guess, or a malformed one, is nothing to reveal against (issue 29, item 1).
  for (const none of [[], [{ outcome: "cancelled", draft: "true" }]]) {
    const nothing = await judged(15, none, defaultParams, { reveal: true });
    assert.equal(nothing.passed, false);
    assert.equal(nothing.revealed, null);
    assert.ok(nothing.reason);
  }
});

Deno.test("exercise answers: every script exercise refuses an empty answer and one with an invalid step", async () => {
  for (const x of BUILTIN_COURSE.exercises) {
    const empty = await judged(x.n, []);
    assert.equal(empty.passed, false);
    assert.ok(empty.reason, `${x.n}: empty`);
    if (x.kind !== "script") continue;
    if (x.judged === "ledger") {
      // Judged from a ledger copy: anything else is not a copy, never run.
      const mixed = await judged(x.n, [...CASES[x.n].right[0].answer, {}]);
      assert.equal(mixed.passed, false);
      assert.match(mixed.reason!.en, /^this is not a ledger copy/);
      continue;
    }
    const spoiled = await judged(x.n, [
      ...CASES[x.n].right[0].answer,
      { op: "nope" },
    ]);
    assert.equal(spoiled.passed, false);
    assert.match(spoiled.reason!.en, /^line \d+ is not a step that can run/);
  }
});

Deno.test("exercise answers: the engine's work is bounded, and a premise nothing meets ends the search", async () => {
  // 200 steps and no naive insert at all: the answer to exercise 9 is judged
  // "no" at that premise, not "over the limit" after trying every pair.
  const steps: unknown[] = [];
  for (let i = 0; i < 66; i++) {
    steps.push({
      op: "policy.precheck",
      job: "JOB-001",
      copies: 2,
      as: `s${i}`,
    });
  }
  for (let i = 0; i < 67; i++) {
    steps.push({ op: "policy.change", max_copies: 1 });
  }
  for (let i = 0; i < 67; i++) {
    steps.push({
      op: "policy.insert_checked",
      job: "JOB-002",
      copies: 2,
      snapshot: `s${i % 66}`,
    });
  }
  const v = await judged(9, steps);
  assert.equal(v.overLimit, false);
  assert.equal(statuses(v), "ok ok ok no -- --");
  // A cap on the work: past it, "over the limit" with the reason.
  const failAt = (job: string, at: string) => ({
    op: "run",
    args: { job, topic: "river", copies: 2 },
    faults: { fail_at: at },
  });
  const capped = await judged(
    2,
    [
      failAt("JOB-001", "inside_transaction"),
      failAt("JOB-002", "after_commit"),
    ],
    defaultParams,
    { maxWork: 3 },
  );
  assert.equal(capped.overLimit, true);
  assert.equal(capped.passed, false);
  assert.equal(
    capped.reason?.en,
    "over the limit: judging this answer needs more than 3 checks; write fewer steps",
  );
});

Deno.test("exercise answers: 18 refuses a guess that is not a verdict accept prints, names them all, and keeps the guess unused (issue 39)", async () => {
  const right = {
    lost_reply_retry: "ONCE",
    concurrent_distinct: "LOST",
    concurrent_same: "ONCE",
    same_key_other_arguments: "SILENT-CONFLICT",
  };
  for (
    const [field, bad] of [
      ["lost_reply_retry", "once"],
      ["same_key_other_arguments", "SILENT_CONFLICT"],
      ["concurrent_distinct", "LOST (1 of 10 kept)"],
    ]
  ) {
    const v = await judged(18, [{ ...right, [field]: bad }]);
    assert.equal(v.passed, false);
    // The list is accept's own (lib/accept/cases.ts), never a copy: a
    // verdict added there is allowed here.
    assert.equal(
      v.reason?.en,
      `"${field}" is "${bad}", which it cannot be: it is one of the ` +
        `verdicts guardlab accept prints: ${VERDICTS.join(", ")}; your one ` +
        "guess is still unused",
    );
    assert.equal(
      v.reason?.zh,
      `"${field}" 的值 "${bad}" 不在允许范围内，应为 guardlab accept ` +
        `输出的结论之一：${
          VERDICTS.join("、")
        }（这次不算，你唯一的一次预测仍未用掉）`,
    );
  }
  // Written by hand: the verdicts chapter 8 names, in accept's order.
  assert.ok(
    VERDICTS.join(", ").startsWith(
      "ONCE, NONE, DUPLICATED, NO-EFFECT, EFFECT-DESPITE-REJECTION",
    ),
  );
  for (const v of ["ALL-KEPT", "LOST", "CONFLICT-REPORTED", "NOT-RUN"]) {
    assert.ok(VERDICTS.includes(v as typeof VERDICTS[number]), v);
  }
  // Refused, the guess is not kept: the right one after it still counts.
  await using baseFolder = await tempDir("guardlab-ex18-");
  const base = baseFolder.path;
  const say = (args: string[], input = "") => cli(args, input, false, base);
  const typo = await say(
    ["exercise", "check", "18"],
    JSON.stringify({ ...right, lost_reply_retry: "once" }),
  );
  assert.equal(typo.code, 1);
  const now = await say(["exercise", "check", "18"], JSON.stringify(right));
  assert.equal(now.code, 0, now.out.join("\n"));
});
