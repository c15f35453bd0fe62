/**
 * The exercises, in one home: a course of exercises written as data (the
 * built-in ones in `data/`, or a teacher's course file in the same form),
 * each judged by one engine over the evidence of the student's own run.
 *
 * The three acts:
 * - {@linkcode check}: judge a student's answer (or a ledger copy) with the
 *   student's own values, in a scratch folder; {@linkcode recordCheck} keeps
 *   it in the student's progress.
 * - {@linkcode handIn}: the hand-in of the work kept, with the student's name.
 * - {@linkcode grade}: a class graded at once, every answer re-run.
 *
 * And what `list`, `show`, `hint` and `progress` read: {@linkcode standing},
 * {@linkcode exerciseTexts}, {@linkcode describeInvariants},
 * {@linkcode nextHint}. Every text is in `messages.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BUILTIN_COURSE, defaultParams, exerciseTexts } from "./mod.ts";
 *
 * const first = BUILTIN_COURSE.exercises[0];
 * assert.match(exerciseTexts(first, defaultParams).task.en, /JOB-001/);
 * ```
 *
 * @module
 */
export * from "./class_grade.ts";
export * from "./course.ts";
export * from "./_describe.ts";
export * from "./_feedback_messages.ts";
export * from "./_evidence.ts";
export * from "./_ledger_copy.ts";
export * from "./_form.ts";
export * from "./_grading.ts";
export * from "./hand_in.ts";
export * from "./hand_in_files.ts";
export * from "./_judge.ts";
export * from "./messages.ts";
export * from "./_progress.ts";
export * from "./student.ts";
export {
  type Finding,
  type FindingStatus,
  inEveryLanguage,
} from "./_engine.ts";
export { FormError } from "./_schema.ts";
