/**
 * A course: an id and its exercises in order. An exercise's number is its
 * place in the course (from 1), never written in its data. The built-in
 * exercises are the default course.
 *
 * @module
 */
import { type Exercise, EXERCISES } from "./catalog.ts";

/** A course: what `check`, `hand-in` and `grade` work through. */
export interface Course {
  /** The course's id, carried by a hand-in (`guardlab` for the built-in one). */
  readonly id: string;
  /** The exercises, in order; `exercises[i].n` is `i + 1`. */
  readonly exercises: readonly Exercise[];
}

/** The built-in exercises, shipped inside the program. */
export const BUILTIN_COURSE: Course = {
  id: "guardlab",
  exercises: EXERCISES,
};

/** The exercise numbered `n` in `course`, if there is one. */
export function exerciseAt(course: Course, n: number): Exercise | undefined {
  return Number.isInteger(n) ? course.exercises[n - 1] : undefined;
}

/** The exercise called `slug` in `course`, if there is one. */
export function exerciseNamed(
  course: Course,
  slug: string,
): Exercise | undefined {
  return course.exercises.find((x) => x.slug === slug);
}
