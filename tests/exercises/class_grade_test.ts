/**
 * A class graded at once. Three students of one course code, each in a
 * private folder of their own, work as a student would: set a name and the
 * course code, read their values from `exercise show`, check answers, hand
 * in. 王小明 pastes 李雷's answers into his own work, and also hands in 李雷's
 * file as it is. The teacher copies the hand-ins into a folder of their own
 * and grades it: the table must be the hand-written one in
 * `fixtures/class/`, in both languages; the pasted answers fail and are
 * flagged as copies; the duplicate name is flagged; CSV and JSON carry the
 * same columns.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli } from "../_helpers/helpers.ts";

const CODE = "NET-2026";
const FIXTURES = fileURLToPath(
  new URL("../../fixtures/class/", import.meta.url),
);

interface Values {
  job: string;
  otherJob: string;
  topic: string;
  copies: number;
}

/** One student, in a temp folder of their own. */
async function student(name: string) {
  const base = await Deno.makeTempDir({ prefix: "guardlab-class-" });
  const say = (args: string[], input = "") => cli(args, input, false, base);
  assert.equal((await say(["config", "name", name])).code, 0);
  assert.equal((await say(["config", "course", CODE])).code, 0);
  return {
    base,
    say,
    /** This student's values for exercise `n`, as `exercise show` states them. */
    async values(n: number): Promise<Values> {
      const shown = (await say(["exercise", "show", String(n)])).out.join(" ")
        .replace(/\s+/g, " ");
      const m = shown.match(
        /job (JOB-\d{3}), other job (JOB-\d{3}), topic (river|forest), copies (\d)/,
      );
      assert.ok(m, shown);
      return { job: m[1], otherJob: m[2], topic: m[3], copies: Number(m[4]) };
    },
    async check(n: number, answer: string) {
      return (await say(["exercise", "check", String(n)], answer)).code;
    },
    async handIn(): Promise<string> {
      const r = await say(["exercise", "hand-in"]);
      assert.equal(r.code, 0, r.err.join("\n"));
      return r.out[0];
    },
  };
}

const run = (v: Values, job: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: v.topic, copies: v.copies },
    ...extra,
  });

/** Exercise 1: the output check refuses after the commit. */
const outputRejected = (v: Values) =>
  run(v, v.job, { faults: { bad_output: true } });
/** Exercise 2: one failure before the commit, one after. */
const twoErrors = (v: Values) =>
  [
    run(v, v.job, { faults: { fail_at: "inside_transaction" } }),
    run(v, v.otherJob, { faults: { fail_at: "after_commit" } }),
  ].join("\n");
/** Exercise 3, wrong: two clean runs prove no reuse after a failure. */
const twoCleanRuns = (v: Values) => [run(v, v.job), run(v, v.job)].join("\n");
const PREDICTION = '{"outcome":"cancelled","draft":true,"receipts":1}';

Deno.test("class: three students, one course code, a copy and a duplicate name", async (t) => {
  const li = await student("李雷");
  const han = await student("韩梅梅");
  const wang = await student("王小明");
  const teacher = await Deno.makeTempDir({ prefix: "guardlab-teacher-" });
  try {
    // 李雷: exercises 1, 2 and 15 done; 3 tried and not yet.
    const liValues = [await li.values(1), await li.values(2)];
    const liAnswers = {
      1: outputRejected(liValues[0]),
      2: twoErrors(liValues[1]),
      3: twoCleanRuns(await li.values(3)),
      15: PREDICTION,
    };
    assert.equal(await li.check(1, liAnswers[1]), 0);
    assert.equal(await li.check(2, liAnswers[2]), 0);
    assert.equal(await li.check(3, liAnswers[3]), 1);
    assert.equal(await li.check(15, liAnswers[15]), 0);
    // 韩梅梅: exercise 1 done, 2 tried with one error only.
    const hanValues = await han.values(1);
    assert.equal(await han.check(1, outputRejected(hanValues)), 0);
    assert.equal(
      await han.check(
        2,
        run(await han.values(2), hanValues.job, {
          faults: { fail_at: "inside_transaction" },
        }),
      ),
      1,
    );
    // 王小明 pastes 李雷's answers: his values differ, so they fail, and say why.
    await t.step(
      "a pasted answer fails, naming the student's own keys",
      async () => {
        const r = await wang.say(["exercise", "check", "1"], liAnswers[1]);
        assert.equal(r.code, 1);
        const mine = await wang.values(1);
        assert.match(
          r.out.join(" ").replace(/\s+/g, " "),
          new RegExp(
            `uses the (key|topic) \\S+, which is not yours: your (keys are ${mine.job} and ${mine.otherJob}|topic is ${mine.topic})`,
          ),
        );
      },
    );
    for (const n of [2, 3, 15] as const) {
      await wang.check(n, liAnswers[n]);
    }
    // The teacher's step: copy the hand-ins into a folder of their own.
    const folder = join(teacher, "net-2026");
    await Deno.mkdir(folder, { mode: 0o700 });
    const liFile = await li.handIn();
    await Deno.writeTextFile(join(folder, "li-lei.json"), liFile);
    await Deno.writeTextFile(
      join(folder, "han-meimei.json"),
      await han.handIn(),
    );
    await Deno.writeTextFile(
      join(folder, "wang-xiaoming.json"),
      await wang.handIn(),
    );
    await Deno.writeTextFile(join(folder, "wang-xiaoming-2.json"), liFile);
    const grade = (args: string[]) =>
      cli(["exercise", "grade", folder, ...args], "", false, teacher);
    assert.equal(
      (await cli(["config", "course", CODE], "", false, teacher)).code,
      0,
    );

    for (const lang of ["en", "zh"] as const) {
      await t.step(
        `the table, in ${lang}, is the hand-written one`,
        async () => {
          const r = await grade(["--lang", lang]);
          assert.equal(r.code, 0, r.err.join("\n"));
          const expected = (await Deno.readTextFile(
            join(FIXTURES, `table.${lang}.txt`),
          )).replace(/\n$/, "").split("\n");
          assert.deepEqual(r.out, expected);
        },
      );
    }

    await t.step("JSON and CSV carry the same columns", async () => {
      const json = JSON.parse((await grade(["--json"])).out[0]);
      assert.deepEqual(
        json.students.map((s: { file: string }) => s.file),
        [
          "han-meimei.json",
          "li-lei.json",
          "wang-xiaoming-2.json",
          "wang-xiaoming.json",
        ],
      );
      const wangRow = json.students[3];
      assert.equal(wangRow.name, "王小明");
      assert.deepEqual(
        [wangRow.cells["1"], wangRow.cells["2"], wangRow.cells["3"]],
        ["copy", "copy", "not-yet"],
      );
      assert.equal(wangRow.total, 1);
      assert.deepEqual(
        json.students[1].flags.map((f: { kind: string }) => f.kind),
        ["duplicate-name"],
      );
      assert.deepEqual(json.perExercise["1"], 3);
      const csv = (await grade(["--csv"])).out;
      assert.equal(
        csv[0],
        `"file","student",${
          Array.from({ length: 16 }, (_, i) => `"${i + 1}"`).join(",")
        },"17 (ledger copy re-judged, session not re-run)","18","total","flags"`,
      );
      assert.equal(csv.length, 1 + 4 + 1);
      assert.match(csv[4], /^"wang-xiaoming.json","王小明","copy","copy",/);
    });
  } finally {
    for (const dir of [li.base, han.base, wang.base, teacher]) {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
