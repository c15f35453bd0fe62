/**
 * A course: an id and its exercises in order. An exercise's number is its
 * place in the course (from 1), never written in its data. The built-in
 * exercises are the default course; a teacher's course file has the same
 * form, and a malformed one is refused with its line and field.
 *
 * @module
 */
import { BUILTIN_EXERCISES } from "./builtin.ts";
import type { Text } from "../base/i18n.ts";
import { type Exercise, FormError, readExercise } from "./form.ts";
import {
  childPath,
  CourseError,
  type Located,
  parseLocated,
} from "./json_positions.ts";

/** A course: what `check`, `hand-in` and `grade` work through. */
export interface Course {
  /** The course's id, carried by a hand-in (`guardlab` for the built-in one). */
  readonly id: string;
  /** The exercises, in order; `exercises[i].n` is `i + 1`. */
  readonly exercises: readonly Exercise[];
}

/** The id of the built-in course. */
export const BUILTIN_COURSE_ID = "guardlab";

/** The most exercises a course may have. */
export const MAX_EXERCISES = 100;

const COURSE_ID = /^[a-z0-9][a-z0-9._-]{0,47}$/;

function builtin(): Course {
  const exercises = BUILTIN_EXERCISES.map(({ file, data }, i) => {
    try {
      return readExercise(data, i + 1);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      // A built-in exercise that breaks the form is a bug caught by the tests.
      throw new Error(`${file}: ${error.field}: ${error.message}`);
    }
  });
  const slugs = new Set(exercises.map((x) => x.slug));
  if (slugs.size !== exercises.length) throw new Error("duplicate slugs");
  return { id: BUILTIN_COURSE_ID, exercises };
}

/** The built-in exercises, shipped inside the program. */
export const BUILTIN_COURSE: Course = builtin();

/** The exercise numbered `n` in `course`, if there is one. */
export function exerciseAt(course: Course, n: number): Exercise | undefined {
  return Number.isInteger(n) && n >= 1 ? course.exercises[n - 1] : undefined;
}

/** The exercise called `slug` in `course`, if there is one. */
export function exerciseNamed(
  course: Course,
  slug: string,
): Exercise | undefined {
  return course.exercises.find((x) => x.slug === slug);
}

/**
 * Read a course file's text: `{"course": ID, "exercises": [...]}`, each
 * exercise in the built-in form. Throws {@linkcode CourseError} with the
 * line and field of the first thing wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CourseError } from "./json_positions.ts";
 * import { readCourse } from "./course.ts";
 * assert.throws(
 *   () => readCourse('{\n  "course": "net-101",\n  "exercises": 3\n}'),
 *   (e: CourseError) => e.position?.line === 3 && e.field === "exercises",
 * );
 * ```
 */
export function readCourse(text: string): Course {
  const located: Located = parseLocated(text);
  const at = (field: string) =>
    located.positions.get(field) ?? nearest(located, field);
  const fail = (field: string, text: Text): never => {
    throw new CourseError(text, field, at(field));
  };
  const t = (en: string, zh: string): Text => ({ en, zh });
  const top = located.value;
  if (typeof top !== "object" || top === null || Array.isArray(top)) {
    return fail(
      "",
      t(
        'must be one JSON object {"course": ..., "exercises": [...]}',
        '必须是一个 JSON 对象 {"course": ..., "exercises": [...]}',
      ),
    );
  }
  const course = top as Record<string, unknown>;
  for (const key of Object.keys(course)) {
    if (key !== "course" && key !== "exercises") {
      fail(
        childPath("", key),
        t(
          "unknown field (expected course, exercises)",
          "未知字段（应为 course、exercises）",
        ),
      );
    }
  }
  if (!Object.hasOwn(course, "course")) {
    fail("", t("the field course is missing", "缺少字段 course"));
  }
  if (!Object.hasOwn(course, "exercises")) {
    fail("", t("the field exercises is missing", "缺少字段 exercises"));
  }
  const id = course.course;
  if (
    typeof id !== "string" || !COURSE_ID.test(id) || id === BUILTIN_COURSE_ID
  ) {
    fail(
      "course",
      t(
        `must be an id of 1-48 of a-z, 0-9, ".", "_" and "-" (not "${BUILTIN_COURSE_ID}")`,
        `必须是 1-48 个 a-z、0-9、"."、"_" 和 "-" 组成的 id（不能是 "${BUILTIN_COURSE_ID}"）`,
      ),
    );
  }
  const list = course.exercises;
  if (!Array.isArray(list) || list.length === 0) {
    return fail(
      "exercises",
      t(
        "must be a list of at least one exercise",
        "必须是至少含一个练习的列表",
      ),
    );
  }
  if (list.length > MAX_EXERCISES) {
    fail(
      "exercises",
      t(
        `has more than ${MAX_EXERCISES} exercises`,
        `超过 ${MAX_EXERCISES} 个练习`,
      ),
    );
  }
  const exercises = list.map((x, i) => {
    const path = childPath("exercises", i);
    try {
      return readExercise(x, i + 1, path);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      return fail(error.field, error.text);
    }
  });
  const seen = new Map<string, number>();
  exercises.forEach((x, i) => {
    if (seen.has(x.slug)) {
      fail(
        childPath(childPath("exercises", i), "slug"),
        t(
          `the slug ${x.slug} is also exercise ${seen.get(x.slug)}'s`,
          `slug ${x.slug} 与练习 ${seen.get(x.slug)} 重复`,
        ),
      );
    }
    seen.set(x.slug, i + 1);
  });
  return { id: id as string, exercises };
}

/** The position of `field`, or of the closest enclosing value that has one. */
function nearest(located: Located, field: string) {
  let path = field;
  while (path !== "") {
    const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
    path = cut <= 0 ? "" : path.slice(0, cut);
    const p = located.positions.get(path);
    if (p) return p;
  }
  return located.positions.get("") ?? null;
}
