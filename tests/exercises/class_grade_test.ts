/**
 * A class graded at once. Students of one course code, each in a private
 * folder of their own, work as a student would: set a name and the course
 * code, read their values from `exercise show`, check answers, hand in.
 *
 * - 王小明 pastes 李雷's answers into his own work (they fail for his
 *   values: copies), and also hands in 李雷's file as it is (a byte copy).
 * - 李雷's hand-in is handed in twice more, edited and its digest computed
 *   again: renamed to 周杰, and with an invisible word joiner (U+2060) in
 *   the name. The values come from the name and the seed, so both fail as
 *   copies; the invisible character is shown, flagged, and graded.
 * - Two students are both named 王伟: each has values of their own, so when
 *   one pastes the other's answer it fails, and the table shows each row's
 *   file.
 * - 赵敏 guesses a prediction wrong and reveals it, and makes another
 *   prediction after a hint.
 * - 孙浩 typed the course code as NET-V4: his work is scored under the
 *   teacher's code and, beside it, under his own, and the table names it.
 *
 * Each hand-in's times of first checks are set by the test (and the digest
 * computed again), so the order the table sets out for each flagged group
 * is the one written by hand. The teacher copies the hand-ins into a folder
 * of their own and grades it: the table must be the hand-written one in
 * `fixtures/class/`, in both languages, and JSON and CSV carry the same
 * columns and flags, the same in every language. Then a course file: 周杰
 * forgot `--course` throughout, and the grade says so in one line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli } from "../_helpers/helpers.ts";
import { readCsv } from "../_helpers/csv.ts";
import { CAN_RUN, NEEDS_RUN, startGuardlab } from "../_helpers/spawn.ts";
import { privateRootPath } from "../../lib/sandbox/sandbox.ts";
import { type HandIn, makeHandIn } from "../../lib/exercises/mod.ts";

const CODE = "NET-2026";
const FIXTURES = fileURLToPath(
  new URL("../../fixtures/class/", import.meta.url),
);
const DATA = fileURLToPath(
  new URL("../../lib/exercises/data/", import.meta.url),
);

interface Values {
  job: string;
  otherJob: string;
  topic: string;
  copies: number;
}

/** How many students this file has made: each gets the next fixed seed. */
// From 2: the seeds 2 to 8 give the seven students of the first class, and
// 李雷's hand-in under the names it is copied to, keys of their own in
// exercises 1 to 3 (checked with paramsFor when the derivation changed).
let made = 1;

/**
 * One student, in a temp folder of their own. Their variant seed is fixed
 * (a real one is 64 random bits): with random seeds two students' keys can
 * coincide about once in a few hundred classes, and a test must not depend
 * on luck; the seeds used here give each student keys no other student has,
 * which the test checks first.
 */
async function student(name: string, code = CODE) {
  const base = await Deno.makeTempDir({ prefix: "guardlab-class-" });
  const say = (args: string[], input = "") => cli(args, input, false, base);
  assert.equal((await say(["config", "name", name])).code, 0);
  assert.equal((await say(["config", "course", code])).code, 0);
  const seed = (++made).toString(16).padStart(16, "0");
  await Deno.writeTextFile(
    join(privateRootPath(base), "exercises.json"),
    JSON.stringify({ variant: seed }),
    { mode: 0o600 },
  );
  return {
    base,
    say,
    /** This student's values for exercise `n`, as `exercise show` states them. */
    async values(n: number, course: string[] = []): Promise<Values> {
      const shown = (await say(["exercise", ...course, "show", String(n)])).out
        .join(" ").replace(/\s+/g, " ");
      // Show names the values the exercise uses; one it does not use is
      // any allowed value.
      const value = (re: RegExp) => shown.match(re)?.[1];
      const job = value(/\): job (JOB-\d{3})/);
      assert.ok(job, shown);
      return {
        job,
        otherJob: value(/other job (JOB-\d{3})/) ?? "JOB-999",
        topic: value(/topic (river|forest)/) ?? "river",
        copies: Number(value(/ copies (\d)/) ?? 1),
      };
    },
    async check(n: number, answer: string, more: string[] = []) {
      return (await say(["exercise", ...more, "check", String(n)], answer))
        .code;
    },
    async handIn(course: string[] = []): Promise<string> {
      const r = await say(["exercise", ...course, "hand-in"]);
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
const WRONG_GUESS = '{"outcome":"accepted","draft":true,"receipts":1}';
const PREDICTION_16 = '{"outcome":"input_rejected","draft":true,"receipts":1}';

/** The fixture's lines. */
async function fixture(name: string): Promise<string[]> {
  return (await Deno.readTextFile(join(FIXTURES, name))).replace(/\n$/, "")
    .split("\n");
}

/**
 * `text`, a hand-in, edited as a classmate could and its digest computed
 * again: `name` (when given), and each exercise's time of first check from
 * `first` (by slug), for a table whose order is known.
 */
function edited(
  text: string,
  first: Record<string, string>,
  name?: string,
): string {
  const { format: _, version: __, digest: ___, ...fields } = JSON.parse(
    text,
  ) as HandIn;
  for (const [slug, time] of Object.entries(first)) {
    if (fields.exercises[slug]) fields.exercises[slug].first = time;
  }
  return JSON.stringify(makeHandIn({ ...fields, name: name ?? fields.name }));
}

/** Each exercise's slug by number, for `edited`. */
const SLUG: Record<number, string> = {
  1: "output-check-cannot-unwrite",
  2: "same-error-two-ledgers",
  3: "retry-reuses",
  15: "predict-cancel-after-commit",
  16: "predict-parallel-guardrail",
};

/** Times of first checks on 2 March 2026 (UTC), by exercise number. */
const at = (times: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(times).map((
      [n, t],
    ) => [SLUG[Number(n)], `2026-03-02T${t}:00.000Z`]),
  );

/** Write `text` as a hand-in of the teacher's (mode 0600, whatever the umask). */
async function keep(folder: string, name: string, text: string) {
  await Deno.writeTextFile(join(folder, name), text, { mode: 0o600 });
  await Deno.chmod(join(folder, name), 0o600);
}

Deno.test("class: one course code, copies, an identical file, namesakes, a reveal, a mistyped code", async (t) => {
  const li = await student("李雷");
  const han = await student("韩梅梅");
  const wang = await student("王小明");
  const weiA = await student("王伟");
  const weiB = await student("王伟");
  const zhao = await student("赵敏");
  const sun = await student("孙浩", "NET-V4");
  const teacher = await Deno.makeTempDir({ prefix: "guardlab-teacher-" });
  const everyone = [li, han, wang, weiA, weiB, zhao, sun];
  try {
    // The fixed seeds give every student keys of their own (see student()).
    const keys = (await Promise.all(everyone.map((s) => s.values(2))))
      .flatMap((v) => [v.job, v.otherJob]);
    assert.equal(new Set(keys).size, keys.length, keys.join(" "));
    // 李雷: exercises 1, 2 and 15 done; 3 tried and not yet.
    const liAnswers = {
      1: outputRejected(await li.values(1)),
      2: twoErrors(await li.values(2)),
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
            `uses the key \\S+, which is not yours: your keys are ${mine.job} and JOB-\\d{3} \\(guardlab exercise show 1\\)`,
          ),
        );
      },
    );
    for (const n of [2, 3, 15] as const) {
      await wang.check(n, liAnswers[n]);
    }
    // Two students named 王伟: each their own values (issue 29, item 2).
    const aValues = [await weiA.values(1), await weiA.values(2)];
    const bValues = await weiB.values(1);
    assert.notDeepEqual(aValues[0], bValues, "namesakes, other values");
    assert.equal(await weiA.check(1, outputRejected(aValues[0])), 0);
    assert.equal(await weiA.check(2, twoErrors(aValues[1])), 0);
    assert.equal(await weiB.check(1, outputRejected(bValues)), 0);
    assert.equal(await weiB.check(2, twoErrors(aValues[1])), 1);
    // 赵敏: a wrong first guess, then revealed (issue 29, item 1).
    await t.step("a reveal comes only after the first guess", async () => {
      const early = await zhao.say(
        ["exercise", "check", "15", "--reveal"],
        "",
      );
      assert.equal(early.code, 1);
      assert.match(
        early.out.join(" ").replace(/\s+/g, " "),
        /only after your first prediction is kept/,
      );
      assert.doesNotMatch(early.out.join(" "), /cancelled/);
      assert.equal(await zhao.check(15, WRONG_GUESS, []), 1);
      const shown = await zhao.say(["exercise", "check", "15", "--reveal"]);
      assert.equal(shown.code, 1, "the first guess still counts");
      assert.ok(
        shown.out.includes("  outcome: cancelled"),
        shown.out.join("\n"),
      );
    });
    // 赵敏 asks a hint before her next prediction: the table marks it h.
    await zhao.say(["exercise", "hint", "16"]);
    assert.equal(await zhao.check(16, PREDICTION_16), 0);
    // 孙浩 typed the code as NET-V4 (issue 29, item 3; issue 39).
    const sunValues = [await sun.values(1), await sun.values(2)];
    assert.equal(await sun.check(1, outputRejected(sunValues[0])), 0);
    assert.equal(await sun.check(2, twoErrors(sunValues[1])), 0);

    // The teacher's step: copy the hand-ins into a folder of their own.
    const folder = join(teacher, "net-2026");
    await Deno.mkdir(folder, { mode: 0o700 });
    const liFile = edited(
      await li.handIn(),
      at({ 1: "09:00", 2: "09:10", 3: "09:20", 15: "09:30" }),
    );
    await keep(folder, "li-lei.json", liFile);
    await keep(
      folder,
      "han-meimei.json",
      edited(await han.handIn(), at({ 1: "09:05", 2: "09:15" })),
    );
    await keep(
      folder,
      "wang-xiaoming.json",
      edited(
        await wang.handIn(),
        at({ 1: "10:00", 2: "10:01", 3: "10:02", 15: "10:03" }),
      ),
    );
    // A byte copy; a copy renamed to another student; a copy whose name
    // carries an invisible word joiner: the last two with their digests
    // computed again, as anyone can.
    await keep(folder, "wang-xiaoming-2.json", liFile);
    await keep(folder, "liu-yang.json", edited(liFile, {}, "刘洋"));
    await keep(folder, "li-lei-2.json", edited(liFile, {}, "李\u2060雷"));
    await keep(
      folder,
      "wang-wei-a.json",
      edited(await weiA.handIn(), at({ 1: "09:40", 2: "09:50" })),
    );
    await keep(
      folder,
      "wang-wei-b.json",
      edited(await weiB.handIn(), at({ 1: "10:30", 2: "10:40" })),
    );
    await keep(
      folder,
      "zhao-min.json",
      edited(await zhao.handIn(), at({ 15: "11:00", 16: "11:10" })),
    );
    await keep(
      folder,
      "sun-hao.json",
      edited(await sun.handIn(), at({ 1: "09:20", 2: "09:25" })),
    );
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
          assert.deepEqual(r.out, await fixture(`table.${lang}.txt`));
        },
      );
    }

    await t.step(
      "JSON carries the same columns and flags, in every language",
      async () => {
        const [en, zh] = [
          (await grade(["--json"])).out[0],
          (await grade(["--json", "--lang", "zh"])).out[0],
        ];
        assert.equal(zh, en, "machine output is the same in both languages");
        const json = JSON.parse(en);
        const byFile = Object.fromEntries(
          json.students.map((s: { file: string }) => [s.file, s]),
        );
        const codes = (file: string) =>
          byFile[file].flags.map((f: { code: string }) => f.code);
        assert.deepEqual(Object.keys(byFile), [
          "han-meimei.json",
          "li-lei-2.json",
          "li-lei.json",
          "liu-yang.json",
          "sun-hao.json",
          "wang-wei-a.json",
          "wang-wei-b.json",
          "wang-xiaoming-2.json",
          "wang-xiaoming.json",
          "zhao-min.json",
        ]);
        // 李雷's work, five times: as handed in, byte for byte, renamed,
        // with an invisible character in the name, and pasted answer by
        // answer into 王小明's own: identical, and the last three copies.
        const copies = (of: string) => [
          `copy(1:${of})`,
          `copy(2:${of})`,
        ];
        const owners = "li-lei.json|wang-xiaoming-2.json";
        assert.deepEqual(codes("li-lei.json"), [
          "identical(li-lei-2.json|liu-yang.json|wang-xiaoming-2.json|wang-xiaoming.json)",
        ]);
        assert.deepEqual(codes("wang-xiaoming-2.json"), [
          "identical(li-lei-2.json|li-lei.json|liu-yang.json|wang-xiaoming.json)",
        ]);
        assert.deepEqual(codes("liu-yang.json"), [
          "identical(li-lei-2.json|li-lei.json|wang-xiaoming-2.json|wang-xiaoming.json)",
          ...copies(owners),
        ]);
        assert.deepEqual(codes("li-lei-2.json"), [
          "hand-made-name",
          "identical(li-lei.json|liu-yang.json|wang-xiaoming-2.json|wang-xiaoming.json)",
          ...copies(owners),
        ]);
        assert.deepEqual(codes("wang-xiaoming.json"), [
          "identical(li-lei-2.json|li-lei.json|liu-yang.json|wang-xiaoming-2.json)",
          ...copies(owners),
        ]);
        // The invisible character is kept in the name, and graded.
        assert.equal(byFile["li-lei-2.json"].name, "李\u2060雷");
        assert.equal(byFile["li-lei-2.json"].graded, true);
        assert.equal(byFile["li-lei-2.json"].total, 1);
        assert.deepEqual(codes("wang-wei-a.json"), [
          "duplicate-name(wang-wei-b.json)",
        ]);
        assert.deepEqual(codes("wang-wei-b.json"), [
          "duplicate-name(wang-wei-a.json)",
          "copy(2:wang-wei-a.json)",
        ]);
        assert.deepEqual(codes("zhao-min.json"), ["revealed(15)"]);
        assert.deepEqual(byFile["zhao-min.json"].revealed, [15]);
        assert.deepEqual(byFile["zhao-min.json"].hintedBeforeGuess, [16]);
        assert.deepEqual(codes("sun-hao.json"), [
          "other-course(id=guardlab,code=NET-V4,done=2)",
        ]);
        assert.equal(byFile["sun-hao.json"].code, "NET-V4");
        assert.equal(byFile["sun-hao.json"].total, 0);
        assert.equal(byFile["sun-hao.json"].ownCodeTotal, 2);
        assert.equal(byFile["li-lei.json"].ownCodeTotal, null);
        assert.deepEqual(byFile["li-lei.json"].first, {
          "1": "2026-03-02T09:00:00.000Z",
          "2": "2026-03-02T09:10:00.000Z",
          "3": "2026-03-02T09:20:00.000Z",
          "15": "2026-03-02T09:30:00.000Z",
        });
        const wangRow = byFile["wang-xiaoming.json"];
        assert.deepEqual(
          [wangRow.cells["1"], wangRow.cells["2"], wangRow.cells["3"]],
          ["copy", "copy", "not-yet"],
        );
        assert.equal(wangRow.total, 1);
        assert.deepEqual(byFile["zhao-min.json"].flags[0].message, {
          en:
            "exercise 15: the outcome was revealed (--reveal), after the first guess",
          zh: "练习 15：结果被揭示过（--reveal），在第一次猜测之后",
        });
        // Five hand-ins of one piece of work count once.
        assert.equal(json.identicalCountedOnce, true);
        assert.equal(json.perExercise["1"], 4);
        assert.deepEqual(json.order[2], {
          exercise: 2,
          handIns: [
            { file: "wang-wei-a.json", first: "2026-03-02T09:50:00.000Z" },
            { file: "wang-wei-b.json", first: "2026-03-02T10:40:00.000Z" },
          ],
        });
      },
    );

    /**
     * The CSV's bytes as a spreadsheet opens them: the UTF-8 byte order
     * mark first (Excel reads the names as UTF-8 only with it), then
     * strict UTF-8, then records; checked against hand-written columns.
     */
    const assertSpreadsheet = (bytes: Uint8Array) => {
      assert.deepEqual(
        [...bytes.subarray(0, 3)],
        [0xef, 0xbb, 0xbf],
        "a UTF-8 BOM first",
      );
      assert.ok(!bytes.includes(0x0d), "LF line ends, as --help says");
      const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
        .decode(bytes);
      const { bom, rows } = readCsv(text);
      assert.ok(bom);
      const header = [
        "file",
        "student",
        ...Array.from({ length: 16 }, (_, i) => String(i + 1)),
        "17 (ledger copy re-judged, session not re-run)",
        "18",
        "19",
        "20",
        "total",
        "own code total",
        "code used",
        "revealed",
        "hints before guess",
        "first checked",
        "flags",
      ];
      assert.deepEqual(rows[0], header);
      // One row per student, an empty row, then the totals apart from them.
      assert.equal(rows.length, 1 + 10 + 1 + 1);
      assert.deepEqual(rows[11], [""]);
      assert.deepEqual(rows[12].slice(0, 3), ["", "done per exercise", "4"]);
      const students = rows.slice(1, 11);
      assert.ok(students.every((r) => r.length === header.length));
      // A name shows the invisible character it holds, in the CSV too.
      assert.deepEqual(students.map((r) => r[1]), [
        "韩梅梅",
        "李\\u2060雷",
        "李雷",
        "刘洋",
        "孙浩",
        "王伟",
        "王伟",
        "李雷",
        "王小明",
        "赵敏",
      ]);
      const sunRow = students[4];
      assert.deepEqual(
        [sunRow[2], sunRow[3], sunRow[22], sunRow[23], sunRow[24], sunRow[28]],
        [
          "not-yet",
          "not-yet",
          "0",
          "2",
          "NET-V4",
          "other-course(id=guardlab,code=NET-V4,done=2)",
        ],
      );
      assert.equal(
        sunRow[27],
        "1=2026-03-02T09:20:00.000Z 2=2026-03-02T09:25:00.000Z",
      );
      const zhaoRow = students[9];
      assert.deepEqual(
        [zhaoRow[16], zhaoRow[17], zhaoRow[24], zhaoRow[25], zhaoRow[26]],
        ["not-yet", "done", "NET-2026", "15", "16"],
      );
      // The hand-in with the invisible name: every column filled.
      const hidden = students[1];
      assert.deepEqual(
        [hidden[2], hidden[3], hidden[4], hidden[16], hidden[22], hidden[24]],
        ["copy", "copy", "not-yet", "done", "1", "NET-2026"],
      );
      assert.equal(
        hidden[28],
        "hand-made-name; identical(li-lei.json|liu-yang.json|wang-xiaoming-2.json|wang-xiaoming.json); copy(1:li-lei.json|wang-xiaoming-2.json); copy(2:li-lei.json|wang-xiaoming-2.json)",
      );
    };

    await t.step(
      "CSV: opened as a spreadsheet reads it, the same in every language",
      async () => {
        const [en, zh] = [
          (await grade(["--csv"])).out,
          (await grade(["--csv", "--lang", "zh"])).out,
        ];
        assert.deepEqual(zh, en);
        assertSpreadsheet(new TextEncoder().encode(en.join("\n") + "\n"));
      },
    );

    await t.step({
      name: "CSV: the file `--csv > FILE` writes, byte for byte" + NEEDS_RUN,
      ignore: !CAN_RUN,
      async fn() {
        // The real process, under the binary's permissions: the bytes that
        // reach a file are the ones a spreadsheet opens.
        const child = startGuardlab([
          "exercise",
          "grade",
          folder,
          "--csv",
          "--home",
          privateRootPath(teacher),
        ]);
        await child.stdin.close();
        const { code, stdout } = await child.output();
        assert.equal(code, 0);
        const file = join(teacher, "net-2026.csv");
        await Deno.writeFile(file, stdout, { mode: 0o600 });
        assertSpreadsheet(await Deno.readFile(file));
      },
    });
  } finally {
    for (const dir of [...everyone.map((s) => s.base), teacher]) {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("class: a course file, and a student who forgot --course", async (t) => {
  const li = await student("李雷");
  const zhou = await student("周杰");
  const teacher = await Deno.makeTempDir({ prefix: "guardlab-teacher-" });
  try {
    // The teacher's course: two built-in exercises, by their slugs.
    const exercises = await Promise.all(
      [
        "01-output-check-cannot-unwrite.json",
        "15-predict-cancel-after-commit.json",
      ]
        .map(async (f) => JSON.parse(await Deno.readTextFile(join(DATA, f)))),
    );
    const text = JSON.stringify({ course: "net-2026", exercises });
    for (const base of [li.base, zhou.base, teacher]) {
      await Deno.writeTextFile(join(base, "course.json"), text, {
        mode: 0o600,
      });
    }
    const course = (base: string) => ["--course", join(base, "course.json")];
    // Every command printed under a course names it (issue 29, item 4).
    await t.step("show names the course in its Check line", async () => {
      const r = await li.say(["exercise", ...course(li.base), "show", "1"]);
      assert.equal(
        r.out.at(-1),
        `Check: guardlab exercise --course ${
          join(li.base, "course.json")
        } check 1 < answer.jsonl`,
      );
    });
    const liValues = await li.values(1, course(li.base));
    await t.step(
      "a key that is not the student's: the line to read names the course",
      async () => {
        const theirs = ["JOB-998", "JOB-999"].find((k) =>
          k !== liValues.job && k !== liValues.otherJob
        )!;
        const file = join(li.base, "course.json");
        for (const lang of ["en", "zh"] as const) {
          const r = await li.say(
            ["exercise", ...course(li.base), "check", "1", "--lang", lang],
            outputRejected({ ...liValues, job: theirs }),
          );
          assert.equal(r.code, 1);
          const said = r.out.join(" ").replace(/\s+/g, " ");
          assert.ok(
            said.includes(
              lang === "en"
                ? `(guardlab exercise --course ${file} show 1)`
                : `（guardlab exercise --course ${file} show 1）`,
            ),
            said,
          );
        }
      },
    );
    assert.equal(
      await li.check(1, outputRejected(liValues), course(li.base)),
      0,
    );
    assert.equal(await li.check(2, PREDICTION, course(li.base)), 0);
    // 周杰 checks exercises 1 and 15 of the built-in course instead.
    const zhouValues = await zhou.values(1);
    assert.equal(await zhou.check(1, outputRejected(zhouValues)), 0);
    assert.equal(await zhou.check(15, PREDICTION), 0);
    await t.step(
      "a hand-in under the course names what was passed without it",
      async () => {
        const r = await zhou.say(["exercise", ...course(zhou.base), "hand-in"]);
        assert.equal(r.code, 0);
        const file = join(zhou.base, "course.json");
        // Two notes, each wrapped at 80 columns under its text (issue 48).
        assert.equal(
          r.err.join("\n").replace(/\n +/g, " "),
          [
            `guardlab: exercise 1 was passed without --course, so it is not in this hand-in: check it again (guardlab exercise --course ${file} check 1)`,
            `guardlab: exercise 2 was passed without --course, so it is not in this hand-in: check it again (guardlab exercise --course ${file} check 2)`,
          ].join("\n"),
        );
        assert.ok(r.err.every((l) => l.length <= 80), r.err.join("\n"));
        assert.deepEqual(JSON.parse(r.out[0]).exercises, {});
      },
    );
    const folder = join(teacher, "net-2026");
    await Deno.mkdir(folder, { mode: 0o700 });
    await keep(folder, "li-lei.json", await li.handIn(course(li.base)));
    // 周杰 hands in without --course too.
    await keep(folder, "zhou-jie.json", await zhou.handIn());
    assert.equal(
      (await cli(["config", "course", CODE], "", false, teacher)).code,
      0,
    );
    for (const lang of ["en", "zh"] as const) {
      await t.step(
        `the table, in ${lang}, says what went wrong in one line`,
        async () => {
          const r = await cli(
            ["exercise", ...course(teacher), "grade", folder, "--lang", lang],
            "",
            false,
            teacher,
          );
          assert.equal(r.code, 0, r.err.join("\n"));
          assert.deepEqual(r.out, await fixture(`course.${lang}.txt`));
        },
      );
    }
  } finally {
    for (const dir of [li.base, zhou.base, teacher]) {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
