/**
 * A course: an id and its exercises in order. An exercise's number is its
 * place in the course (from 1), never written in its data. The built-in
 * exercises are the default course; a teacher's course file has the same
 * form, and a malformed one is refused with its line and field.
 *
 * The file is read by a small JSON parser that remembers where each value
 * starts, so that an error can name its line and field (`JSON.parse` names
 * neither). It is bounded: at most {@linkcode MAX_COURSE_BYTES} bytes and
 * {@linkcode MAX_DEPTH} levels of nesting. Duplicate keys are refused
 * rather than silently overwritten.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import { BUILTIN_EXERCISES } from "./builtin.ts";
import { type Exercise, readExercise } from "./_form.ts";
import {
  COURSE_MESSAGES,
  FORM_MESSAGES,
  JSON_MESSAGES as J,
} from "./messages.ts";
import { childPath, FormError } from "./_schema.ts";

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

/** The largest course file read, in bytes. */
export const MAX_COURSE_BYTES = 1 << 20;

/** The deepest nesting of arrays and objects accepted. */
export const MAX_DEPTH = 32;

const COURSE_ID = /^[a-z0-9][a-z0-9._-]{0,47}$/;

/** A value's place: a line and column, from 1. */
export interface Position {
  /** Line, from 1. */
  line: number;
  /** Column, from 1 (in UTF-16 units). */
  column: number;
}

/** A parse or form error in a course file, at a place, naming the field. */
export class CourseError extends TextError {
  /** Build the error: what is wrong, the field's path, and where (null: the whole file). */
  constructor(
    text: Text,
    /** The field's path, e.g. `exercises[2].hints[0].zh`, or "" for the top. */
    readonly field: string,
    /** Where, or null when the whole file is at fault. */
    readonly position: Position | null,
  ) {
    super(text);
  }
}

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

/**
 * Read a course file's text: `{"course": ID, "exercises": [...]}`, each
 * exercise in the built-in form. Throws {@linkcode CourseError} with the
 * line and field of the first thing wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CourseError, readCourse } from "./course.ts";
 * assert.throws(
 *   () => readCourse('{\n  "course": "net-101",\n  "exercises": 3\n}'),
 *   (e: CourseError) => e.position?.line === 3 && e.field === "exercises",
 * );
 * ```
 */
export function readCourse(text: string): Course {
  const located: Located = parseLocated(text);
  const fail = (field: string, text: Text): never => {
    throw new CourseError(text, field, positionOf(located, field));
  };
  const course = located.value;
  if (!isPlainRecord(course)) return fail("", COURSE_MESSAGES.notCourse);
  for (const key of Object.keys(course)) {
    if (key !== "course" && key !== "exercises") {
      fail(
        childPath("", key),
        FORM_MESSAGES.unknownField(["course", "exercises"]),
      );
    }
  }
  for (const key of ["course", "exercises"]) {
    if (!Object.hasOwn(course, key)) {
      fail("", COURSE_MESSAGES.missingField(key));
    }
  }
  const id = course.course;
  if (
    typeof id !== "string" || !COURSE_ID.test(id) || id === BUILTIN_COURSE_ID
  ) {
    fail("course", COURSE_MESSAGES.courseId(BUILTIN_COURSE_ID));
  }
  const list = course.exercises;
  if (!Array.isArray(list) || list.length === 0) {
    return fail("exercises", COURSE_MESSAGES.noExercises);
  }
  if (list.length > MAX_EXERCISES) {
    fail("exercises", COURSE_MESSAGES.tooManyExercises(MAX_EXERCISES));
  }
  const exercises = list.map((x, i) => {
    try {
      return readExercise(x, i + 1, childPath("exercises", i));
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      return fail(error.field, error.text);
    }
  });
  const seen = new Map<string, number>();
  exercises.forEach((x, i) => {
    const taken = seen.get(x.slug);
    if (taken !== undefined) {
      fail(
        childPath(childPath("exercises", i), "slug"),
        COURSE_MESSAGES.slugTaken(x.slug, taken),
      );
    }
    seen.set(x.slug, i + 1);
  });
  return { id: id as string, exercises };
}

/** The position of `field`, or of the closest enclosing value that has one. */
function positionOf(located: Located, field: string): Position | null {
  let path = field;
  for (;;) {
    const p = located.positions.get(path);
    if (p) return p;
    if (path === "") return null;
    const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
    path = cut <= 0 ? "" : path.slice(0, cut);
  }
}

/** A parsed document: its value, and the position of each field path. */
export interface Located {
  /** The value, as `JSON.parse` would give it (objects have no prototype tricks). */
  value: unknown;
  /** Where each path's value starts (`""` is the top value). */
  positions: Map<string, Position>;
}

/**
 * Parse `text` as JSON, recording positions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLocated } from "./course.ts";
 * const { value, positions } = parseLocated('{\n  "a": [1, {"b": true}]\n}');
 * assert.deepEqual(value, { a: [1, { b: true }] });
 * assert.deepEqual(positions.get("a[1].b"), { line: 2, column: 18 });
 * ```
 */
export function parseLocated(text: string): Located {
  if (new TextEncoder().encode(text).length > MAX_COURSE_BYTES) {
    throw new CourseError(J.tooLarge(MAX_COURSE_BYTES), "", null);
  }
  return new Parser(text).document();
}
class Parser {
  #i = 0;
  #line = 1;
  #lineStart = 0;
  readonly #text: string;
  readonly #positions = new Map<string, Position>();

  constructor(text: string) {
    this.#text = text.startsWith("\uFEFF") ? text.slice(1) : text;
  }

  document(): Located {
    this.#space();
    const value = this.#value("", 0);
    this.#space();
    if (this.#i < this.#text.length) {
      this.#fail(
        J.trailing,
        "",
      );
    }
    return { value, positions: this.#positions };
  }

  #position(): Position {
    return { line: this.#line, column: this.#i - this.#lineStart + 1 };
  }

  #fail(message: Text, path: string): never {
    throw new CourseError(message, path, this.#position());
  }

  #space(): void {
    const t = this.#text;
    while (this.#i < t.length) {
      const c = t[this.#i];
      if (c === "\n") {
        this.#i++;
        this.#line++;
        this.#lineStart = this.#i;
      } else if (c === " " || c === "\t" || c === "\r") this.#i++;
      else break;
    }
  }

  #value(path: string, depth: number): unknown {
    this.#positions.set(path, this.#position());
    const c = this.#text[this.#i];
    if (c === "{") return this.#object(path, depth + 1);
    if (c === "[") return this.#array(path, depth + 1);
    if (c === '"') return this.#string(path);
    if (c === "-" || (c >= "0" && c <= "9")) return this.#number(path);
    for (
      const [word, value] of [["true", true], ["false", false], [
        "null",
        null,
      ]] as const
    ) {
      if (this.#text.startsWith(word, this.#i)) {
        this.#i += word.length;
        return value;
      }
    }
    this.#fail(
      c === undefined ? J.ends : J.unexpected(c),
      path,
    );
  }

  #deep(depth: number, path: string): void {
    if (depth > MAX_DEPTH) {
      this.#fail(
        J.tooDeep(MAX_DEPTH),
        path,
      );
    }
  }

  #object(path: string, depth: number): Record<string, unknown> {
    this.#deep(depth, path);
    this.#i++;
    const out: Record<string, unknown> = Object.create(null);
    this.#space();
    if (this.#text[this.#i] === "}") {
      this.#i++;
      return { ...out };
    }
    for (;;) {
      this.#space();
      if (this.#text[this.#i] !== '"') {
        this.#fail(J.fieldName, path);
      }
      const keyAt = this.#position();
      const key = this.#string(path);
      const child = childPath(path, key);
      if (Object.hasOwn(out, key)) {
        throw new CourseError(J.twice(key), child, keyAt);
      }
      this.#space();
      if (this.#text[this.#i] !== ":") {
        this.#fail(J.colon, child);
      }
      this.#i++;
      this.#space();
      out[key] = this.#value(child, depth);
      this.#space();
      const c = this.#text[this.#i];
      if (c === ",") {
        this.#i++;
        continue;
      }
      if (c === "}") {
        this.#i++;
        // A plain object, as JSON.parse makes: "__proto__" stays an own key.
        return Object.fromEntries(Object.entries(out));
      }
      this.#fail(J.objectGoesOn, path);
    }
  }

  #array(path: string, depth: number): unknown[] {
    this.#deep(depth, path);
    this.#i++;
    const out: unknown[] = [];
    this.#space();
    if (this.#text[this.#i] === "]") {
      this.#i++;
      return out;
    }
    for (;;) {
      this.#space();
      out.push(this.#value(childPath(path, out.length), depth));
      this.#space();
      const c = this.#text[this.#i];
      if (c === ",") {
        this.#i++;
        continue;
      }
      if (c === "]") {
        this.#i++;
        return out;
      }
      this.#fail(J.listGoesOn, path);
    }
  }

  #string(path: string): string {
    const text = this.#text;
    const start = this.#i;
    this.#i++;
    for (;;) {
      const c = text[this.#i];
      if (c === undefined) {
        this.#fail(J.unclosed, path);
      }
      if (c === '"') break;
      if (c === "\\") {
        this.#i += 2;
        continue;
      }
      if (c < " ") {
        this.#fail(
          J.control,
          path,
        );
      }
      this.#i++;
    }
    this.#i++;
    try {
      return JSON.parse(text.slice(start, this.#i));
    } catch {
      this.#i = start;
      this.#fail(J.escape, path);
    }
  }

  #number(path: string): number {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(
      this.#text.slice(this.#i, this.#i + 400),
    );
    if (!m) this.#fail(J.number, path);
    this.#i += m[0].length;
    return Number(m[0]);
  }
}
