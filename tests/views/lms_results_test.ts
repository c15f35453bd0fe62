/**
 * The results files `exercise grade --format` writes, each held to the
 * fields its system documents, and to values written by hand. The field
 * lists are the systems' own, read from their published documentation:
 *
 * - Gradescope: the autograder specification, "Output format"
 *   (gradescope/autograder_samples, docs/specs.md; the same text as
 *   gradescope-autograders.readthedocs.io/en/latest/specs/);
 * - PrairieLearn: "External Grading", "Grading results"
 *   (PrairieLearn/PrairieLearn, docs/externalGrading.md);
 * - Exercism: "The Test Runner Interface", "Output format"
 *   (exercism/docs, building/tooling/test-runners/interface.md).
 *
 * No npm package carries these as JSON Schemas; each list below is typed
 * from that documentation, with its presence rule and allowed values.
 */
import assert from "node:assert/strict";
import { BUILTIN_COURSE } from "../../lib/exercises/mod.ts";
import type { ClassGrade, Row } from "../../lib/exercises/class_grade.ts";
import { LMS_FORMATS, lmsResults } from "../../lib/views/lms_results.ts";

type Kind = "number" | "string" | "boolean" | "array" | "object" | "null";

/** A documented field: its types, whether it must be there, and its allowed values. */
interface Field {
  types: Kind[];
  required?: boolean;
  values?: readonly unknown[];
  range?: [number, number];
}

const VISIBILITY = ["hidden", "after_due_date", "after_published", "visible"];

/** Gradescope, docs/specs.md "Output format": top level, and each test. */
const GRADESCOPE = {
  top: {
    score: { types: ["number"] },
    execution_time: { types: ["number"] },
    output: { types: ["string"] },
    visibility: { types: ["string"], values: VISIBILITY },
    stdout_visibility: { types: ["string"], values: VISIBILITY },
    extra_data: { types: ["object"] },
    tests: { types: ["array"] },
    leaderboard: { types: ["array"] },
  } as Record<string, Field>,
  test: {
    score: { types: ["number"] },
    max_score: { types: ["number"] },
    name: { types: ["string"] },
    number: { types: ["string"] },
    output: { types: ["string"] },
    tags: { types: ["array"] },
    visibility: { types: ["string"], values: VISIBILITY },
    extra_data: { types: ["object"] },
  } as Record<string, Field>,
};

/** PrairieLearn, docs/externalGrading.md "Grading results". */
const PRAIRIELEARN = {
  top: {
    gradable: { types: ["boolean"] },
    score: { types: ["number"], range: [0, 1] },
    message: { types: ["string"] },
    output: { types: ["string"] },
    images: { types: ["array"] },
    tests: { types: ["array"] },
    format_errors: { types: ["string", "array"] },
  } as Record<string, Field>,
  test: {
    name: { types: ["string"] },
    description: { types: ["string"] },
    points: { types: ["number"] },
    max_points: { types: ["number"] },
    message: { types: ["string"] },
    output: { types: ["string"] },
    images: { types: ["array"] },
  } as Record<string, Field>,
};

/** Exercism, interface.md "Output format", version 3. */
const EXERCISM = {
  top: {
    version: { types: ["number"], required: true, values: [1, 2, 3] },
    status: {
      types: ["string"],
      required: true,
      values: ["pass", "fail", "error"],
    },
    message: { types: ["string", "null"] },
    tests: { types: ["array"], required: true },
  } as Record<string, Field>,
  test: {
    name: { types: ["string"], required: true },
    test_code: { types: ["string"] },
    status: {
      types: ["string"],
      required: true,
      values: ["pass", "fail", "error"],
    },
    message: { types: ["string", "null"] },
    output: { types: ["string"] },
    task_id: { types: ["number"] },
  } as Record<string, Field>,
};

function kind(v: unknown): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v as Kind;
}

/** What is wrong with `value` by the documented `fields` (empty: nothing). */
function problems(
  value: unknown,
  fields: Record<string, Field>,
  at: string,
): string[] {
  if (kind(value) !== "object") return [`${at}: not an object`];
  const record = value as Record<string, unknown>;
  const found: string[] = [];
  for (const [key, v] of Object.entries(record)) {
    const field = fields[key];
    if (field === undefined) {
      found.push(`${at}.${key}: not a documented field`);
      continue;
    }
    if (!field.types.includes(kind(v))) found.push(`${at}.${key}: ${kind(v)}`);
    if (field.values && !field.values.includes(v)) {
      found.push(`${at}.${key}: ${JSON.stringify(v)} is not allowed`);
    }
    if (
      field.range && typeof v === "number" &&
      (v < field.range[0] || v > field.range[1])
    ) found.push(`${at}.${key}: ${v} out of range`);
  }
  for (const [key, field] of Object.entries(fields)) {
    if (field.required && !(key in record)) found.push(`${at}.${key}: missing`);
  }
  return found;
}

/** Every documented rule of `format` that `value` breaks. */
function breaks(format: string, value: unknown): string[] {
  const spec = format === "gradescope"
    ? GRADESCOPE
    : format === "prairielearn"
    ? PRAIRIELEARN
    : EXERCISM;
  const top = problems(value, spec.top, format);
  const record = value as Record<string, unknown>;
  const tests = Array.isArray(record.tests) ? record.tests : [];
  const each = tests.flatMap((t, i) =>
    problems(t, spec.test, `${format}.tests[${i}]`)
  );
  const rules: string[] = [];
  if (format === "gradescope" && !("score" in record)) {
    // "optional, but required if not on each test case"
    if (tests.some((t) => !("score" in t))) rules.push("score: missing");
  }
  if (format === "prairielearn") {
    // "If the submission is not gradable, the field gradable is required"
    if (record.gradable !== false && !("score" in record)) {
      rules.push("score: required when gradable");
    }
  }
  if (format === "exercism") {
    // "message: required if status = error"
    if (record.status === "error" && typeof record.message !== "string") {
      rules.push("message: required with status error");
    }
    if (record.version === 3 && tests.length > 0) {
      // "Only link a test to a task if it can be linked to precisely one task."
      const ids = tests.map((t) => t.task_id);
      if (new Set(ids).size !== ids.length) rules.push("task_id: repeated");
    }
  }
  return [...top, ...each, ...rules];
}

function row(cells: Row["cells"], more: Partial<Row> = {}): Row {
  return {
    file: "li-lei.json",
    name: "李雷",
    cells,
    revealed: [],
    hinted: [],
    code: "NET-2026",
    first: {},
    total: Object.values(cells).filter((c) => c === "done").length,
    ownTotal: null,
    flags: [],
    ...more,
  };
}

function graded(r: Row): ClassGrade {
  const numbers = BUILTIN_COURSE.exercises.map((x) => x.n);
  return {
    exercises: numbers,
    rows: [r],
    perExercise: {},
    notRerun: [17],
    builtinHandIns: 0,
    order: [],
    identicalCountedOnce: false,
    course: BUILTIN_COURSE.id,
  };
}

/** Exercises 1 and 15 done, 2 not yet, 3 over the limit, the rest not handed in. */
const CELLS: Row["cells"] = Object.fromEntries(
  BUILTIN_COURSE.exercises.map((x) => [x.n, "missing"]),
);
Object.assign(CELLS, { 1: "done", 2: "not-yet", 3: "over-limit", 15: "done" });

Deno.test("lms results: every format keeps to its documented fields, graded or not", () => {
  const malformed = row({}, {
    total: null,
    name: null,
    flags: [{ kind: "malformed", reason: { en: "not JSON", zh: "不是 JSON" } }],
  });
  for (const format of LMS_FORMATS) {
    for (const lang of ["en", "zh"] as const) {
      for (const r of [row(CELLS), malformed]) {
        const value = lmsResults(
          format,
          graded(r),
          BUILTIN_COURSE,
          lang,
          "NET-2026",
        );
        assert.deepEqual(breaks(format, value), [], `${format} ${lang}`);
      }
    }
  }
  // The checker itself catches what it must: an undocumented key, a score
  // out of range, an unknown status.
  assert.deepEqual(
    breaks("prairielearn", { score: 2, grade: 1 }).sort(),
    [
      "prairielearn.grade: not a documented field",
      "prairielearn.score: 2 out of range",
    ],
  );
  assert.deepEqual(
    breaks("exercism", { version: 3, status: "ok", tests: [] }),
    [
      'exercism.status: "ok" is not allowed',
    ],
  );
});

Deno.test("lms results: the values, written by hand", () => {
  const g = graded(row(CELLS));
  const gs = lmsResults("gradescope", g, BUILTIN_COURSE, "en", "NET-2026") as {
    score: number;
    output: string;
    tests: unknown[];
  };
  assert.equal(gs.score, 2);
  assert.equal(
    gs.output,
    "2 of 20 exercises done (course guardlab, code NET-2026): each answer " +
      "re-run by guardlab with your own values",
  );
  assert.equal(gs.tests.length, 20);
  assert.deepEqual(gs.tests.slice(0, 3), [
    {
      name: "1. A rejected output leaves its draft",
      number: "1",
      score: 1,
      max_score: 1,
      output: "done",
      visibility: "visible",
    },
    {
      name: "2. One status, two ledgers",
      number: "2",
      score: 0,
      max_score: 1,
      output: "not passed: see why with guardlab exercise check 2",
      visibility: "visible",
    },
    {
      name: "3. A retry reuses, and checks again",
      number: "3",
      score: 0,
      max_score: 1,
      output: "over the limit: the answer runs too many steps or bytes",
      visibility: "visible",
    },
  ]);
  const pl = lmsResults("prairielearn", g, BUILTIN_COURSE, "zh", null) as {
    gradable: boolean;
    score: number;
    message: string;
    tests: Record<string, unknown>[];
  };
  assert.equal(pl.gradable, true);
  assert.equal(pl.score, 2 / 20);
  assert.equal(
    pl.message,
    "完成 2 / 20 道练习（课程 guardlab）：每个答案都由 guardlab 按你自己的取值重新运行",
  );
  assert.deepEqual(pl.tests[1], {
    name: "2. 同一个状态，两种账本",
    description: "提交点之前的失败会回滚，之后的失败留下效果，而状态相同。",
    points: 0,
    max_points: 1,
    message: "未通过：用 guardlab exercise check 2 查看原因",
  });
  const ex = lmsResults("exercism", g, BUILTIN_COURSE, "en", null) as {
    status: string;
    tests: Record<string, unknown>[];
  };
  assert.equal(ex.status, "fail");
  assert.deepEqual(ex.tests[2], {
    name: "3. A retry reuses, and checks again",
    status: "error",
    message: "over the limit: the answer runs too many steps or bytes",
    test_code: "guardlab exercise check 3 < answer.jsonl",
    task_id: 3,
  });
  assert.deepEqual(ex.tests[0], {
    name: "1. A rejected output leaves its draft",
    status: "pass",
    message: null,
    test_code: "guardlab exercise check 1 < answer.jsonl",
    task_id: 1,
  });
  // Every exercise done: pass.
  const all = graded(row(Object.fromEntries(
    BUILTIN_COURSE.exercises.map((x) => [x.n, "done"]),
  )));
  assert.equal(
    (lmsResults("exercism", all, BUILTIN_COURSE, "en") as { status: string })
      .status,
    "pass",
  );
  assert.equal(
    (lmsResults("prairielearn", all, BUILTIN_COURSE, "en") as { score: number })
      .score,
    1,
  );
  // Not graded: PrairieLearn's "invalid, not gradable" costs no attempt.
  const bad = graded(row({}, {
    total: null,
    flags: [{ kind: "malformed", reason: { en: "not JSON", zh: "不是 JSON" } }],
  }));
  assert.deepEqual(lmsResults("prairielearn", bad, BUILTIN_COURSE, "en"), {
    gradable: false,
    format_errors: ["not graded: not JSON"],
  });
  assert.deepEqual(lmsResults("exercism", bad, BUILTIN_COURSE, "en"), {
    version: 3,
    status: "error",
    message: "not graded: not JSON",
    tests: [],
  });
  assert.deepEqual(lmsResults("gradescope", bad, BUILTIN_COURSE, "en"), {
    score: 0,
    output: "not graded: not JSON",
    visibility: "visible",
    tests: [],
  });
});
