/**
 * Grading: handing the work in, and a whole class graded at once (the
 * hand-in file itself is `hand_in.ts`; reading and writing hand-in files,
 * `hand_in_files.ts`; what a graded class is, `class_grade.ts`; what is
 * flagged across the class, `_class_flags.ts`).
 *
 * A class: every hand-in read strictly, every answer re-run against its
 * owner's variant, and a students × exercises table with totals, flags for
 * what a teacher must look at, and every file that could not be graded
 * named with its reason. A hand-in under another course code is judged
 * again under that code, so the teacher sees what the student did there.
 * One hand-in is held at a time: after grading, a student keeps only a
 * verdict and a digest per answer, so forty students cost what one does.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { foldCourseCode } from "../base/fold.ts";
import { parseJsonLikePython } from "../base/json.ts";
import { currentUid } from "../sandbox/safe_fs.ts";
import type { Place } from "../sandbox/sandbox.ts";
import { trustedFolders } from "../sandbox/sandbox.ts";
import { scratchFolder } from "../sandbox/scratch.ts";
import type { ClassGrade, Flag, Row, Seen } from "./class_grade.ts";
import { byFlagOrder } from "./class_grade.ts";
import { flagClass } from "./_class_flags.ts";
import { BUILTIN_COURSE, BUILTIN_COURSE_ID, type Course } from "./course.ts";
import type { Exercise } from "./_form.ts";
import {
  canonical,
  HAND_IN_VERSION,
  type HandedExercise,
  type HandIn,
  type HandInVersion,
  makeHandIn,
  MalformedHandIn,
  MAX_HAND_IN_BYTES,
  OLDER_HAND_IN_VERSION,
  readHandIn,
  SEED_HAND_IN_VERSION,
} from "./hand_in.ts";
import type { Source, SourceText } from "./hand_in_files.ts";
import { judgeWithOwnValues } from "./_judge.ts";
import { GRADING_MESSAGES as M } from "./messages.ts";
import { progressKey, readProgress } from "./_progress.ts";
import {
  type Derivation,
  type ExerciseParams,
  ExerciseUsageError,
  paramsFor,
  type Student,
} from "./student.ts";

/** How the guardlab that wrote a hand-in of each format derived its values. */
const DERIVATION: Readonly<Record<HandInVersion, Derivation>> = {
  [HAND_IN_VERSION]: "name+seed",
  [SEED_HAND_IN_VERSION]: "seed",
  [OLDER_HAND_IN_VERSION]: "name",
};

/**
 * Whether two course codes are one: folded, "net-2026" is "NET-2026" (and
 * its values are NET-2026's); no code is only no code.
 */
function sameCode(a: string | null, b: string | null): boolean {
  return a === null || b === null
    ? a === b
    : foldCourseCode(a) === foldCourseCode(b);
}

/** What `handIn` made: the hand-in, and what the student should hear about it. */
export interface MadeHandIn {
  /** The hand-in. */
  handIn: HandIn;
  /** Exercises checked under another name, course code or variant than the student's now. */
  checkedAsOther: Exercise[];
  /** Exercises of this course passed only without `--course` (under the built-in course): not handed in. */
  passedWithoutCourse: Exercise[];
}

/**
 * The hand-in of the work kept at `place` in `course`, for `student` (who
 * must have a name), written by guardlab `version` as the account `uid`;
 * with the exercises checked under another name, course code or variant
 * than the student's now (their answers are handed in all the same: grade
 * judges them for this student), and, under a course file, the exercises
 * passed only under the built-in course (a check without `--course`).
 */
export function handIn(
  course: Course,
  student: Student,
  place: string | Place,
  version: string,
  uid: number | null,
): MadeHandIn {
  // A hand-in without the record would be empty: refused, not faked. The
  // record is read first, so a folder another user holds is named as the
  // cause (exit 4) before the name its settings could not give.
  const p = readProgress(place);
  const { name } = student;
  if (name === undefined) throw new ExerciseUsageError(M.nameFirst);
  const code = student.course ?? null;
  const variant = code === null ? null : student.variant ?? null;
  const checkedAsOther: Exercise[] = [];
  const passedWithoutCourse: Exercise[] = [];
  const exercises: Record<string, HandedExercise> = {};
  for (const x of course.exercises) {
    const key = progressKey(course.id, x.n);
    const e = p.exercises[key];
    if (e?.state !== "done" && course.id !== BUILTIN_COURSE_ID) {
      const builtin = BUILTIN_COURSE.exercises.find((b) => b.slug === x.slug);
      const there = builtin &&
        p.exercises[progressKey(BUILTIN_COURSE_ID, builtin.n)];
      if (there?.state === "done") passedWithoutCourse.push(x);
    }
    if (e === undefined) continue;
    const as = e.as ?? { course: null, name: null };
    // A check an older guardlab made (values from the seed alone) has no
    // derivation on record: this guardlab's values differ, so it is named.
    const derived = as.derivation ??
      ((as.variant ?? null) === null ? "name" : "seed");
    const sameValues = sameCode(as.course, code) && as.name === name &&
      (code === null ||
        ((as.variant ?? null) === variant &&
          derived === (variant === null ? "name" : "name+seed")));
    if (!sameValues) checkedAsOther.push(x);
    exercises[x.slug] = {
      answer: e.answer,
      passed: e.state === "done" ? e.passed ?? null : null,
      checks: e.checks ?? 0,
      hints: p.hints[key] ?? 0,
      revealed: e.revealed ?? false,
      first: e.first ?? null,
      hints_before_guess: x.kind === "prediction" && e.guess !== undefined
        ? e.guessHints ?? null
        : null,
    };
  }
  return {
    handIn: makeHandIn({
      name,
      guardlab: version,
      course: { id: course.id, code },
      student: { variant, uid },
      exercises,
    }),
    checkedAsOther,
    passedWithoutCourse,
  };
}

/** One answer's form for comparing: each line's JSON in one spelling, blank lines dropped. */
export function answerKey(answer: string): string {
  const lines = answer.split("\n").map((l) => l.trim()).filter((l) => l !== "")
    .map((line) => {
      try {
        return canonical(parseJsonLikePython(line));
      } catch {
        return line;
      }
    });
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** What grading a class needs besides the hand-ins. */
export interface GradeRequest {
  /** The course graded. */
  readonly course: Course;
  /** The teacher's course code (null: the fixed values). */
  readonly code: string | null;
  /** The guardlab version doing the grading. */
  readonly version: string;
  /** The granted temp folder: the scratch ledgers go in it, and paths are checked from it. */
  readonly base: string;
}

/**
 * Grade every source for `request.course`, one hand-in at a time, then
 * flag what is shared across the class (identical hand-ins, a variant seed
 * used twice, a name used twice, copies). Every answer is re-run (a ledger
 * copy re-judged) for its owner's own values: the file's claims count for
 * nothing.
 *
 * Long: one pass over the class, a hand-in read, judged and let go before
 * the next is read (only its row and digests are kept), then the flags
 * only the whole class shows; the row's fields are filled where the
 * hand-in that decides them is in hand.
 */
export async function grade(
  sources: Iterable<Source> | AsyncIterable<Source>,
  request: GradeRequest,
): Promise<ClassGrade> {
  const { course: { exercises }, code, base } = request;
  await using scratch = scratchFolder(base);
  const options = { scratch: scratch.path, trusted: trustedFolders(base) };
  const judge = (
    x: Exercise,
    answer: string,
    params: ExerciseParams,
    variants: boolean,
  ) => judgeWithOwnValues(x, answer, params, variants, options);
  const grader = currentUid(base);
  const rows: Row[] = [];
  const seen = new Map<Row, Seen>();
  // Per exercise: answer key → the rows that handed it in.
  const answers = new Map<number, Map<string, Row[]>>();
  const known = new Set(exercises.map((x) => x.slug));
  const predictions = new Set(
    exercises.filter((x) => x.kind === "prediction").map((x) => x.slug),
  );
  let builtinHandIns = 0;
  for await (const source of sources) {
    const row: Row = {
      file: source.file,
      name: null,
      cells: {},
      revealed: [],
      hinted: [],
      first: {},
      total: null,
      ownTotal: null,
      flags: [],
    };
    rows.push(row);
    const read = await handInOf(source, row, request, grader);
    if (read === null) continue;
    const { handIn, version } = read;
    const builtin = handIn.course.id === BUILTIN_COURSE_ID &&
      request.course.id !== BUILTIN_COURSE_ID;
    if (builtin) builtinHandIns++;
    const strangers = Object.keys(handIn.exercises).filter((n) =>
      !known.has(n)
    );
    // A hand-in for the built-in exercises is flagged once, as such.
    if (strangers.length > 0 && !builtin) {
      row.flags.push({
        kind: "not-in-course",
        exercises: strangers.slice(0, 5),
        more: Math.max(0, strangers.length - 5),
      });
    }
    const own = handIn.course.code;
    row.code = own;
    const { variant } = handIn.student;
    // Each hand-in is judged with the values the guardlab that wrote it gave.
    const values = (c: string | null, slug: string) =>
      paramsFor(c, handIn.name, slug, variant, DERIVATION[version]);
    let ownDone = 0;
    for (const x of exercises) {
      const entry = Object.hasOwn(handIn.exercises, x.slug)
        ? handIn.exercises[x.slug]
        : undefined;
      if (entry === undefined) {
        row.cells[x.n] = "missing";
        continue;
      }
      if (entry.revealed) row.revealed.push(x.n);
      if (x.kind === "prediction" && (entry.hints_before_guess ?? 0) > 0) {
        row.hinted.push(x.n);
      }
      row.first[x.n] = entry.first;
      const params = values(code, x.slug);
      const j = await judge(x, entry.answer, params, code !== null);
      row.cells[x.n] = j.overLimit
        ? "over-limit"
        : j.passed
        ? "done"
        : "not-yet";
      if (!sameCode(own, code)) {
        // What the student did under the code they used, for the teacher to weigh.
        const theirs = values(own, x.slug);
        if ((await judge(x, entry.answer, theirs, own !== null)).passed) {
          ownDone++;
        }
      }
      if (x.kind === "script" && !j.overLimit) {
        const byKey = answers.get(x.n) ?? new Map<string, Row[]>();
        answers.set(x.n, byKey);
        const key = answerKey(entry.answer);
        byKey.set(key, [...(byKey.get(key) ?? []), row]);
      }
    }
    if (!sameCode(own, code)) {
      row.ownTotal = ownDone;
      const flag = row.flags.find((f) => f.kind === "other-course");
      if (flag?.kind === "other-course") flag.done = ownDone;
    }
    if (row.revealed.length > 0) {
      row.flags.push({
        kind: "revealed",
        exercises: row.revealed,
        older: version === OLDER_HAND_IN_VERSION,
      });
    }
    // A prediction has one right answer: two students who both made it
    // share nothing but the answer (chapter 6), so only the other answers
    // make two hand-ins the same work.
    const handed = Object.entries(handIn.exercises).filter(([slug]) =>
      !predictions.has(slug)
    );
    seen.set(row, {
      digest: handIn.digest,
      // No answers at all (predictions aside) is nobody's work to copy.
      answers: handed.length === 0 ? null : createHash("sha256").update(
        canonical(Object.fromEntries(handed.map(([k, e]) => [k, e.answer]))),
      ).digest("hex"),
      variant,
    });
  }
  const numbers = exercises.map((x) => x.n);
  const { order, sameWork } = flagClass(rows, seen, answers, numbers);
  // Identical hand-ins are one piece of work: counted once per exercise.
  const perExercise: Record<number, number> = {};
  for (const n of numbers) {
    perExercise[n] = new Set(
      rows.filter((r) => r.cells[n] === "done").map((r) => sameWork.get(r)),
    ).size;
  }
  for (const row of rows) {
    if (row.name !== null) {
      row.total = Object.values(row.cells).filter((c) => c === "done").length;
    }
    row.flags.sort(byFlagOrder);
  }
  return {
    exercises: numbers,
    rows,
    perExercise,
    notRerun: exercises.filter((x) => x.judged === "ledger").map((x) => x.n),
    builtinHandIns,
    course: request.course.id,
    order,
    identicalCountedOnce: rows.some((r) =>
      r.flags.some((f) => f.kind === "identical")
    ),
  };
}

/**
 * The hand-in `source` holds, its row named and flagged for what a teacher
 * must look at; null (the row says why) when it is not one to grade.
 */
async function handInOf(
  source: Source,
  row: Row,
  request: GradeRequest,
  grader: number | null,
): Promise<{ handIn: HandIn; version: HandInVersion } | null> {
  if (source.problem !== undefined) {
    row.flags.push({ kind: "malformed", reason: source.problem });
    return null;
  }
  const read: SourceText = await source.read();
  if (read.text === null) {
    row.flags.push({
      kind: "malformed",
      reason: M.tooLarge(MAX_HAND_IN_BYTES),
    });
    return null;
  }
  let parsed;
  try {
    parsed = readHandIn(read.text);
  } catch (error) {
    if (!(error instanceof MalformedHandIn)) throw error;
    row.flags.push({ kind: "malformed", reason: error.text });
    return null;
  }
  const { handIn, intact, version, handMadeName } = parsed;
  row.name = handIn.name;
  if (handMadeName !== null) {
    row.flags.push({ kind: "hand-made-name", reason: handMadeName });
  }
  const ownerFlag = ownerOf(read, handIn.student.uid, grader);
  if (ownerFlag) row.flags.push(ownerFlag);
  if (!intact) row.flags.push({ kind: "edited" });
  if (version !== HAND_IN_VERSION) {
    row.flags.push({ kind: "older-format", version });
  }
  if (handIn.guardlab !== request.version) {
    row.flags.push({ kind: "other-version", version: handIn.guardlab });
  }
  if (
    handIn.course.id !== request.course.id ||
    !sameCode(handIn.course.code, request.code)
  ) {
    row.flags.push({ kind: "other-course", ...handIn.course, done: null });
  }
  return { handIn, version };
}

/** Group or other users may write. */
const OTHERS_WRITE = 0o022;

/**
 * What the file's owner says, when it says something: the file belongs to
 * another account than the one the hand-in names (a copy the teacher made
 * is the teacher's own and says nothing), or others can write it.
 */
function ownerOf(
  read: SourceText,
  uid: number | null,
  grader: number | null,
): Flag | null {
  const { owner, mode } = read;
  if (owner === null) return null;
  const writable = mode !== null && (mode & OTHERS_WRITE) !== 0;
  const foreign = owner !== grader && owner !== uid;
  if (!foreign && !writable) return null;
  return { kind: "owner", owner, uid, mode: writable ? mode : null };
}
