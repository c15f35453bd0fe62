/**
 * One student's grade as the results file a learning system reads, so the
 * grade goes where teachers already grade (`exercise grade HAND-IN --format
 * NAME`): one test per exercise, one point each, judged as `grade` judges
 * (every answer re-run with the student's own values).
 *
 * - `gradescope`: the autograder's `results.json` (Gradescope's autograder
 *   specification, `docs/specs.md` of gradescope/autograder_samples):
 *   `score`, and `tests` with `score`, `max_score`, `name`, `number`,
 *   `output` and `visibility`.
 * - `prairielearn`: the external grader's `results.json` (PrairieLearn's
 *   `docs/externalGrading.md`, "Grading results"): `gradable`, `score` from
 *   0 to 1, and `tests` with `name`, `description`, `points`, `max_points`
 *   and `message`; a hand-in that cannot be graded is `gradable: false`
 *   with its reason in `format_errors`, so the student loses no attempt.
 * - `exercism`: the test runner's `results.json`, version 3 (Exercism's
 *   `building/tooling/test-runners/interface.md`): `status` (`pass`,
 *   `fail`, `error`), and `tests` with `name`, `status`, `message`,
 *   `test_code` and `task_id`, the exercise's number.
 *
 * Names and messages are in the call's language (they are what a student
 * reads in the system); keys and statuses are the format's. The process
 * evidence (first checks, hints before a guess, reveals, flags) is not in
 * these files: it stays in `--csv` and `--json`, for the teacher.
 *
 * @module
 */
import { type Lang, say, type Text } from "../base/i18n.ts";
import type { Cell, ClassGrade, Row } from "../exercises/class_grade.ts";
import type { Course } from "../exercises/course.ts";
import { LMS_MESSAGES as M } from "./_lms_messages.ts";

/** The learning systems whose results file `grade --format` writes. */
export const LMS_FORMATS = ["gradescope", "prairielearn", "exercism"] as const;

/** One of {@linkcode LMS_FORMATS}. */
export type LmsFormat = typeof LMS_FORMATS[number];

/** One exercise of the one hand-in: its number, title and cell. */
interface Scored {
  readonly n: number;
  readonly title: string;
  readonly cell: Cell;
  readonly words: string;
}

function scored(grade: ClassGrade, course: Course, lang: Lang): Scored[] {
  const [row] = grade.rows;
  return course.exercises.map((x) => {
    const cell = row.cells[x.n] ?? "missing";
    return {
      n: x.n,
      title: `${x.n}. ${say(x.title, lang)}`,
      cell,
      words: say(M.cell(cell, x.n), lang),
    };
  });
}

/** Why the one hand-in was not graded, or null when it was. */
function notGraded(row: Row): Text | null {
  if (row.total !== null) return null;
  const flag = row.flags.find((f) => f.kind === "malformed");
  return flag?.kind === "malformed" ? M.notGraded(flag.reason) : M.unknown;
}

/**
 * The results file of `format` for the one hand-in `grade` holds (its
 * first row), in `lang`, as a JSON value; `code` is the course code it was
 * graded under (null: none).
 */
export function lmsResults(
  format: LmsFormat,
  grade: ClassGrade,
  course: Course,
  lang: Lang,
  code: string | null = null,
): unknown {
  const row = grade.rows[0];
  const refused = notGraded(row);
  const tests = refused ? [] : scored(grade, course, lang);
  const done = tests.filter((t) => t.cell === "done").length;
  const summary = say(
    refused ?? M.summary(done, course.exercises.length, grade.course, code),
    lang,
  );
  if (format === "gradescope") {
    return {
      score: done,
      output: summary,
      visibility: "visible",
      tests: tests.map((t) => ({
        name: t.title,
        number: String(t.n),
        score: t.cell === "done" ? 1 : 0,
        max_score: 1,
        output: t.words,
        visibility: "visible",
      })),
    };
  }
  if (format === "prairielearn") {
    if (refused) return { gradable: false, format_errors: [summary] };
    return {
      gradable: true,
      score: done / tests.length,
      message: summary,
      tests: tests.map((t) => ({
        name: t.title,
        description: say(course.exercises[t.n - 1].claim, lang),
        points: t.cell === "done" ? 1 : 0,
        max_points: 1,
        message: t.words,
      })),
    };
  }
  if (refused) {
    return { version: 3, status: "error", message: summary, tests: [] };
  }
  return {
    version: 3,
    status: tests.every((t) => t.cell === "done") ? "pass" : "fail",
    message: null,
    tests: tests.map((t) => ({
      name: t.title,
      status: t.cell === "done"
        ? "pass"
        : t.cell === "over-limit"
        ? "error"
        : "fail",
      message: t.cell === "done" ? null : t.words,
      test_code: `guardlab exercise check ${t.n} < answer.jsonl`,
      task_id: t.n,
    })),
  };
}
