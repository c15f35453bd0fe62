/**
 * A course file: a teacher's exercise built from the blocks alone judges
 * answers with the same engine; a malformed file is refused with its line
 * and field; the reader is bounded in bytes and depth. The built-in
 * exercises are read by the same reader.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BUILTIN_COURSE,
  CourseError,
  defaultParams,
  judgeAnswer,
  MAX_COURSE_BYTES,
  MAX_DEPTH,
  parseLocated,
  readCourse,
} from "../../lib/exercises/mod.ts";
import { cli, TEST_BASE, TEST_ROOT } from "../_helpers/helpers.ts";
import { IS_ROOT } from "../_helpers/sandbox_fixtures.ts";
import { tempDir } from "../_helpers/tmp.ts";

const T = (en: string, zh: string) => ({ en, zh });

/** A teacher's exercise, only blocks: pick, before, compare, bind, ledger. */
const REUSE = {
  slug: "second-call-reuses",
  kind: "script",
  title: T("The second call reuses", "第二次调用复用草稿"),
  task: T(
    "Run {job} twice with the same arguments; both accepted on record.",
    "用同样的参数运行 {job} 两次；两次都有 accepted 记录。",
  ),
  claim: T(
    "The same key and arguments write once.",
    "同一业务键、同样参数只写一次。",
  ),
  hints: [T("Send the same line twice.", "把同一行发送两次。")],
  why: T(
    "Attempt {a.attempt} wrote the draft of {k}; attempt {b.attempt} reused it.",
    "尝试 {a.attempt} 写下了 {k} 的草稿；尝试 {b.attempt} 复用了它。",
  ),
  invariants: [{
    premises: [
      {
        pick: "runs",
        as: "a",
        where: {
          job: { param: "job" },
          status: "accepted",
          events: { has: "effect_committed" },
        },
        says: T(
          "a run of {job} wrote its draft and returned accepted",
          "{job} 的一次调用写下草稿并返回 accepted",
        ),
      },
      { bind: "k", to: { ref: "a.job" } },
      {
        pick: "runs",
        as: "b",
        where: { job: { ref: "k" }, events: { has: "effect_reused" } },
        says: T("another run of {k} reused it", "{k} 的另一次调用复用了它"),
      },
      { before: ["a", "b"], says: T("the reuse came later", "复用发生在之后") },
    ],
    findings: [
      {
        compare: [{ ref: "b.attempt" }, ">", { ref: "a.attempt" }],
        says: T("its attempt number is higher", "它的尝试编号更大"),
      },
      {
        ledger: "receipts",
        where: { step: { ref: "b.step" }, status: "accepted" },
        says: T(
          "the ledger holds its accepted receipt",
          "账本里有它的 accepted 回执",
        ),
      },
      {
        ledger: "drafts",
        none: true,
        where: { job: { not: { ref: "k" } } },
        says: T("no other key has a draft", "没有别的键有草稿"),
      },
    ],
  }],
};

const COURSE = JSON.stringify(
  { course: "net-101", exercises: [REUSE] },
  null,
  2,
);
const run = (job: string, extra = {}) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2 },
    ...extra,
  });

Deno.test("course file: an exercise built from the blocks alone judges answers", async (t) => {
  const course = readCourse(COURSE);
  assert.equal(course.id, "net-101");
  const x = course.exercises[0];
  assert.equal(x.n, 1);
  const judged = async (steps: string[]) => {
    const v = await judgeAnswer(x, steps.join("\n"), defaultParams, {
      scratch: TEST_ROOT,
      trusted: [TEST_BASE, "/tmp"],
    });
    return {
      v,
      marks: v.findings.map((f) => f.status).join(" "),
      lines: v.feedback.map((l) => l.en),
    };
  };
  await t.step("right, twice written", async () => {
    const a = await judged([run("JOB-001"), run("JOB-001")]);
    assert.equal(a.marks, "yes yes yes yes yes yes", a.lines.join("\n"));
    assert.equal(
      a.v.why?.en,
      "Attempt 1 wrote the draft of JOB-001; attempt 2 reused it.",
    );
    const b = await judged([
      run("JOB-001"),
      '{"op":"count"}',
      run("JOB-001"),
      '{"op":"receipts"}',
    ]);
    assert.equal(b.v.passed, true, b.lines.join("\n"));
  });
  await t.step("near misses", async () => {
    const once = await judged([run("JOB-001")]);
    assert.equal(
      once.marks,
      "yes no not-checked not-checked not-checked not-checked",
    );
    assert.deepEqual(once.lines.slice(0, 2), [
      "[ok] a run of JOB-001 wrote its draft and returned accepted",
      "[no] another run of JOB-001 reused it",
    ]);
    const other = await judged([run("JOB-001"), run("JOB-002")]);
    assert.equal(other.v.passed, false);
    const lie = await judged([
      run("JOB-001"),
      '{"op":"fixture","receipt_fault":"ignore"}',
      run("JOB-001", { receipt: "naive" }),
    ]);
    assert.equal(lie.marks, "yes yes yes no no yes", lie.lines.join("\n"));
    const extra = await judged([
      run("JOB-001"),
      run("JOB-001"),
      run("JOB-003"),
    ]);
    assert.deepEqual(extra.v.findings.map((f) => f.status).at(-1), "no");
  });
});

/** The first line of a refusal of `text`. */
function refusal(
  text: string,
): { line: number | undefined; field: string; message: string } {
  try {
    readCourse(text);
  } catch (error) {
    if (!(error instanceof CourseError)) throw error;
    return {
      line: error.position?.line,
      field: error.field,
      message: error.message,
    };
  }
  throw new Error("accepted");
}

Deno.test("course file: a malformed file is refused with its line and field", () => {
  const broken = (
    mutate: (x: typeof REUSE & Record<string, unknown>) => void,
  ) => {
    const x = structuredClone(REUSE) as typeof REUSE & Record<string, unknown>;
    mutate(x);
    return JSON.stringify({ course: "net-101", exercises: [x] }, null, 2);
  };
  // Lines counted by hand in the pretty-printed file (2-space indent).
  assert.deepEqual(
    refusal(
      '{\n  "course": "c1",\n  "exercises": [\n    {"slug": "x",, }\n  ]\n}',
    ),
    {
      line: 4,
      field: "exercises[0]",
      message: "expected a field name in double quotes",
    },
  );
  assert.deepEqual(
    refusal(broken((x) => {
      (x.invariants[0].premises[0] as Record<string, unknown>).pick = "runz";
    })),
    {
      line: 33,
      field: "exercises[0].invariants[0].premises[0].pick",
      message: "must be one of runs, steps",
    },
  );
  assert.deepEqual(
    refusal(broken((x) => {
      (x.invariants[0].findings[0] as Record<string, unknown>).compare = [
        { ref: "z.attempt" },
        ">",
        1,
      ];
    })),
    {
      line: 86,
      field: "exercises[0].invariants[0].findings[0].compare[0].ref",
      message: "z.attempt: no such name bound before this point",
    },
  );
  const noZh = refusal(broken((x) => {
    x.title = { en: "only English" } as typeof x.title;
  }));
  assert.deepEqual(noZh, {
    line: 7,
    field: "exercises[0].title.zh",
    message: "missing",
  });
  const code = refusal(broken((x) => {
    (x.invariants[0].premises[0] as Record<string, unknown>).predicate =
      "retryReuses";
  }));
  assert.equal(code.field, "exercises[0].invariants[0].premises[0].predicate");
  assert.match(code.message, /^unknown field/);
  assert.equal(code.line, 48);
  const field = refusal(broken((x) => {
    (x.invariants[0].premises[0].where as Record<string, unknown>).colour = 1;
  }));
  assert.equal(
    field.field,
    "exercises[0].invariants[0].premises[0].where.colour",
  );
  assert.match(field.message, /^steps have no field colour/);
  assert.deepEqual(
    refusal('{"course": "guardlab", "exercises": []}').field,
    "course",
  );
  assert.deepEqual(
    refusal('{"course": "c", "exercises": []}').field,
    "exercises",
  );
  assert.deepEqual(refusal('{"course": "c", "course": "d"}'), {
    line: 1,
    field: "course",
    message: 'the field "course" appears twice',
  });
  assert.equal(refusal("").message, "the file ends where a value should be");
  assert.equal(
    refusal('{"course": "c"} x').message,
    "unexpected text after the JSON value",
  );
  const dup = refusal(
    JSON.stringify({ course: "c", exercises: [REUSE, REUSE] }),
  );
  assert.equal(dup.field, "exercises[1].slug");
});

Deno.test("course file: the reader is bounded in depth and bytes", () => {
  const deep = "[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1);
  assert.throws(() => parseLocated(deep), /nested deeper than 32 levels/);
  const ok = "[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH);
  assert.ok(parseLocated(ok));
  const bomb = "[".repeat(1_000_000);
  assert.throws(() => parseLocated(bomb), CourseError);
  const big = '"' + "x".repeat(MAX_COURSE_BYTES) + '"';
  assert.throws(() => parseLocated(big), /larger than 1048576 bytes/);
  // Positions, by hand.
  const { value, positions } = parseLocated(
    '{\n  "a": [1,\n    {"b": "\\u4e2d"}]\n}',
  );
  assert.deepEqual(value, { a: [1, { b: "中" }] });
  assert.deepEqual(positions.get("a[1].b"), { line: 3, column: 11 });
  // A "__proto__" key stays data, as JSON.parse keeps it.
  const proto = parseLocated('{"__proto__": {"x": 1}}').value as Record<
    string,
    unknown
  >;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.ok(Object.hasOwn(proto, "__proto__"));
});

Deno.test("course file: the built-in exercises are a course in the same form", () => {
  assert.equal(BUILTIN_COURSE.id, "guardlab");
  BUILTIN_COURSE.exercises.forEach((x, i) => assert.equal(x.n, i + 1));
  const again = readCourse(JSON.stringify({
    course: "copy-of-builtin",
    exercises: BUILTIN_COURSE.exercises.map(({ n: _n, ...x }) => x),
  }));
  assert.equal(again.exercises.length, BUILTIN_COURSE.exercises.length);
});

Deno.test("course file: exercise --course FILE lists, shows and checks; a bad file is one line, exit 2", async () => {
  await using baseFolder = await tempDir("guardlab-course-");
  const base = baseFolder.path;
  const file = join(base, "course.json");
  await Deno.writeTextFile(file, COURSE);
  const list = await cli(
    ["exercise", "--course", file, "list", "--json"],
    "",
    false,
    base,
  );
  assert.equal(list.code, 0, list.err.join("\n"));
  assert.deepEqual(
    JSON.parse(list.out[0]).map((x: { slug: string }) => x.slug),
    [
      "second-call-reuses",
    ],
  );
  const show = await cli(
    ["exercise", "--course", file, "show", "1", "--lang", "zh"],
    "",
    false,
    base,
  );
  assert.equal(show.out[0], "1. 第二次调用复用草稿");
  assert.ok(
    show.out.includes(
      "用同样的参数运行 JOB-001 两次；两次都有 accepted 记录。",
    ),
  );
  const check = await cli(
    ["exercise", "--course", file, "check", "1"],
    [run("JOB-001"), run("JOB-001")].join("\n"),
    false,
    base,
  );
  assert.equal(check.code, 0, check.out.join("\n"));
  // Progress of another course never mixes with the built-in one.
  const builtin = JSON.parse(
    (await cli(["exercise", "progress", "--json"], "", false, base)).out[0],
  );
  assert.equal(builtin.done, 0);
  const mine = JSON.parse(
    (await cli(
      ["exercise", "--course", file, "progress", "--json"],
      "",
      false,
      base,
    )).out[0],
  );
  assert.deepEqual([mine.course, mine.done, mine.of], ["net-101", 1, 1]);
  await Deno.writeTextFile(
    file,
    COURSE.replace('"kind": "script"', '"kind": "essay"'),
  );
  const bad = await cli(
    ["exercise", "--course", file, "list"],
    "",
    false,
    base,
  );
  assert.equal(bad.code, 2);
  assert.deepEqual(bad.out, []);
  assert.deepEqual(bad.err, [
    `guardlab: course "${file}": line 6, field exercises[0].kind: must be "script" or "prediction"`,
  ]);
  const zh = await cli(
    ["exercise", "--course", file, "list", "--lang", "zh"],
    "",
    false,
    base,
  );
  assert.deepEqual(zh.err, [
    `guardlab: 课程 "${file}"：第 6 行，字段 exercises[0].kind：必须是 "script" 或 "prediction"`,
  ]);
  const missing = await cli(
    ["exercise", "--course", join(base, "none.json"), "list"],
    "",
    false,
    base,
  );
  assert.equal(missing.code, 1);
  assert.equal(missing.err.length, 1);
});

Deno.test("course file: the course chapter's example is a course the reader takes, in both languages", () => {
  for (
    const name of [
      "docs/en/06-course-and-grading.md",
      "docs/zh/06-course-and-grading.md",
    ]
  ) {
    const text = Deno.readTextFileSync(
      new URL(`../../${name}`, import.meta.url),
    );
    const from = text.indexOf(
      "```json\n",
      text.search(/^## (A course file|课程文件)$/m),
    );
    const json = text.slice(from + 8, text.indexOf("\n```", from + 8));
    const course = readCourse(json);
    assert.equal(course.id, "net-101", name);
    assert.deepEqual(course.exercises.map((x) => x.slug), [
      "second-call-reuses",
    ]);
    assert.deepEqual(
      course.exercises[0],
      readCourse(COURSE).exercises[0],
      `${name}: the same exercise the tests judge`,
    );
  }
});

Deno.test({
  name:
    "course file: the teacher's own file is refused to a student, who reads a copy of their own, as chapter 6 says (review)" +
    (IS_ROOT ? "" : " [ignored: giving a file to a second user needs root]"),
  ignore: !IS_ROOT,
  async fn() {
    await using baseFolder = await tempDir("guardlab-course-");
    const base = baseFolder.path;
    // The teacher (uid 65534 here) wrote the course file; the student
    // running guardlab is another account.
    const teachers = join(base, "net-101.json");
    await Deno.writeTextFile(teachers, COURSE, { mode: 0o644 });
    await Deno.chown(teachers, 65534, 65534);
    const list = (file: string) =>
      cli(["exercise", "--course", file, "list"], "", false, base);
    const refused = await list(teachers);
    assert.equal(refused.code, 4, refused.err.join("\n"));
    assert.match(
      refused.err.join(" "),
      /refused: .*net-101\.json belongs to uid 65534, not to you/,
    );
    // The copy a student makes in a folder of their own is theirs.
    const mine = join(base, "li-lei");
    await Deno.mkdir(mine, { mode: 0o700 });
    await Deno.copyFile(teachers, join(mine, "net-101.json"));
    const read = await list(join(mine, "net-101.json"));
    assert.equal(read.code, 0, read.err.join("\n"));
    assert.match(read.out[0], /^ 1\. The second call reuses +not started$/);
  },
});
