/**
 * What every action of `guardlab exercise` shares: its flags, the call it
 * runs in (the course, the student's progress), and the small steps of
 * reading a FILE or stdin, naming an exercise and printing a wrapped line.
 * The exercises themselves are `lib/exercises`.
 *
 * @module
 */
import { type Lang, say, type Text } from "../../../base/i18n.ts";
import { shellQuote, wrap } from "../../../base/terminal.ts";
import {
  BUILTIN_COURSE,
  type Course,
  CourseError,
  type Exercise,
  exerciseAt,
  ExerciseUsageError,
  inEveryLanguage,
  MAX_COURSE_BYTES,
  MAX_HAND_IN_BYTES,
  type ProgressKeeper,
  readCourse,
  type Student,
  variantOf,
  visibleText,
} from "../../../exercises/mod.ts";
import { openPlainFile } from "../../../sandbox/plain_file.ts";
import { readStreamText } from "../../../sandbox/read_bounded.ts";
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import type { Call, OptionSpecs } from "../../command.ts";
import { printable, UsageError } from "../../parser.ts";
import { LEDGER_OPTIONS } from "../../places.ts";
import { storedSettings } from "../../settings.ts";
import { orUnreadable } from "../../user_file.ts";
import {
  EXERCISE_FLAGS as F,
  EXERCISE_LINES as L,
  EXERCISE_USAGE as U,
} from "./_messages.ts";

/** The flags of `exercise`. */
export const OPTIONS = {
  json: { type: "boolean", help: F.json },
  course: { type: "string", value: "FILE", help: F.course },
  invariants: { type: "boolean", help: F.invariants },
  reveal: { type: "boolean", help: F.reveal },
  csv: { type: "boolean", help: F.csv },
  output: { type: "string", value: "FILE", help: F.output },
  format: { type: "string", value: "NAME", help: F.format },
  ledger: { ...LEDGER_OPTIONS.ledger, help: F.ledger },
} as const satisfies OptionSpecs;

/** The most an answer may be, read from stdin or a FILE: as much as a hand-in. */
const MAX_ANSWER_BYTES = MAX_HAND_IN_BYTES;

/** One run of an action: the parsed call, the course, and the student's progress. */
export interface ExerciseCall extends Call<typeof OPTIONS> {
  /** The course every action works through (its id goes in every hand-in). */
  readonly course: Course;
  /** The student's progress, kept when it can be. */
  readonly progress: ProgressKeeper;
}

/** An action of `exercise`: it returns the exit code. */
export type Action = (call: ExerciseCall) => number | Promise<number>;

/**
 * The command a student types for this call's course: `guardlab exercise`,
 * and `--course FILE` as it was given when the course is a file, so every
 * command printed under a course names it (a check without it is kept
 * under the built-in course, and the course's hand-in would miss it).
 */
export function commandOf(call: ExerciseCall): string {
  const file = call.values.course;
  return file === undefined
    ? "guardlab exercise"
    : `guardlab exercise --course ${shellQuote(file)}`;
}

/**
 * Who is asking: the stored name and course code, and under a course code
 * the variant seed, made and kept the first time one is needed.
 */
export function studentOf(call: ExerciseCall): Student {
  const settings = storedSettings(call.io).value;
  if (settings.course === undefined) return settings;
  const progress = call.progress.read();
  const { variant, progress: next } = variantOf(progress);
  if (next !== progress) call.progress.keep(next);
  return { ...settings, variant };
}

/** The usage error of `exercise`. */
export function usage(text: Text): UsageError {
  return new UsageError(text, "exercise");
}

/**
 * Run `action`; a request the exercises refuse as given (a name not set, a
 * hand-in that is not there) is a usage error of `exercise`.
 */
export async function asUsage(call: ExerciseCall, action: Action) {
  try {
    return await action(call);
  } catch (error) {
    if (error instanceof ExerciseUsageError) throw usage(error.text);
    throw error;
  }
}

/** Refuse positionals past the first `max` (the action counts as one). */
export function atMost(call: ExerciseCall, max: number): void {
  const extra = call.positionals[max];
  if (call.positionals.length > max) throw usage(U.extra(printable(extra)));
}

/** The exercise the action's argument names, by its number in the course. */
export function exerciseNamed(call: ExerciseCall): Exercise {
  const word = call.positionals[1];
  const n = word !== undefined && /^[0-9]{1,3}$/.test(word)
    ? Number(word)
    : NaN;
  const exercise = exerciseAt(call.course, n);
  if (exercise === undefined) {
    throw usage(
      U.noExercise(printable(word ?? ""), call.course.exercises.length),
    );
  }
  return exercise;
}

/** Print `text` wrapped at 80 columns, each of its lines on its own. */
export function print(io: Io, text: string): void {
  for (const paragraph of text.split("\n")) {
    for (const line of wrap(paragraph, 80)) io.out(line);
  }
}

/** Print a text in the call's language, wrapped. */
export function printText(call: ExerciseCall, text: Text): void {
  print(call.io, say(text, call.lang));
}

/** The exit `code`, after a note when the progress could not be kept. */
export function kept(call: ExerciseCall, code: number): number {
  const problem = call.progress.problem;
  if (problem !== undefined) {
    call.io.err(`guardlab: ${say(L.unkept(problem), call.lang)}`);
  }
  return code;
}

/** Open a FILE under the temp folder, or say in one line why it cannot be read (null). */
export function openInput(
  io: Io,
  file: string,
  what: Text,
  lang: Lang,
): Promise<ReadableStream<Uint8Array> | null> {
  return orUnreadable(
    async () => (await openPlainFile(file, trustedFolders(io.base))).readable,
    file,
    what,
    io,
    lang,
  );
}

/** All of `stream` as text; more than `max` bytes is a usage error. */
export async function readInput(
  stream: ReadableStream<Uint8Array>,
  max = MAX_ANSWER_BYTES,
): Promise<string> {
  const text = await readStreamText(stream, max);
  if (text === null) throw usage(U.tooLarge(max));
  return text;
}

/** Text from a file, made safe for one line: invisible characters shown, length capped. */
function oneLine(text: string): string {
  return visibleText(text.length > 200 ? text.slice(0, 200) + "…" : text);
}

/**
 * The course `--course FILE` names (read inside the sandbox), or the
 * built-in one. A malformed file is one line with its line and field, and
 * exit 2; a file that cannot be read, exit 1.
 */
export async function courseOf(
  io: Io,
  file: string | undefined,
  lang: Lang,
): Promise<Course | number> {
  if (file === undefined) return BUILTIN_COURSE;
  const input = await openInput(io, file, L.aCourse, lang);
  if (input === null) return EXIT.failed;
  // One byte over the cap is enough for the reader to refuse it by size.
  const text = await readStreamText(input, MAX_COURSE_BYTES) ??
    " ".repeat(MAX_COURSE_BYTES + 1);
  try {
    return readCourse(text);
  } catch (error) {
    if (!(error instanceof CourseError)) throw error;
    const field = oneLine(error.field === "" ? "(top)" : error.field);
    const why = inEveryLanguage((lang) => oneLine(say(error.text, lang)));
    io.err(say(
      L.courseRefused(printable(file), error.position?.line, field, why),
      lang,
    ));
    return EXIT.usage;
  }
}
