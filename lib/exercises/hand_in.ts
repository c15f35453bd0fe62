/**
 * The hand-in: one JSON object that says whose work it is (the name, the
 * course, the guardlab version, the student's variant seed and the uid of
 * the account that wrote it) and, per exercise, the answer with when it
 * first passed, how many checks were tried, how many hints were shown and
 * whether a prediction's outcome was revealed. Nothing in it is trusted by
 * `grade`, which re-runs every answer; the name and the uid are claims the
 * grade table is about, and grade compares the uid with the file's owner.
 *
 * Format version 2 added `student` (the variant seed and the uid); version
 * 3 added, per exercise, when it was first checked (`first`) and, for a
 * prediction, how many hints had been shown when the guess was made
 * (`hints_before_guess`), and derives the values from the name and the
 * seed together. Older hand-ins are still read, each graded with the values
 * the guardlab that wrote it gave (version 1: from the name; version 2:
 * from the seed alone), and grade flags them as older.
 *
 * The digest is SHA-256 over the rest of the object, so an accidental edit
 * (an editor that changed line endings, a half-pasted answer) shows. It is
 * NOT a signature: anyone can edit a hand-in and compute the digest again.
 *
 * A file is read strictly: an unknown format or version, an unknown key, an
 * answer that is not text, each is a named reason, never a silent "missing".
 *
 * @module
 */
import { createHash } from "node:crypto";
import { fill, same, type Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import { GRADING_MESSAGES as M } from "./messages.ts";
import { checkCourseCode, handedName, VARIANT_SEED } from "./student.ts";

/** The value of a hand-in's `format` field. */
export const HAND_IN_FORMAT = "guardlab-hand-in";

/** The version of the hand-in format this guardlab writes. */
export const HAND_IN_VERSION = 3;

/** The oldest version this guardlab still reads (no `student`; values from the name). */
export const OLDER_HAND_IN_VERSION = 1;

/** The version before this one (values from the seed alone; no times of first checks). */
export const SEED_HAND_IN_VERSION = 2;

/** A format version this guardlab reads. */
export type HandInVersion =
  | typeof HAND_IN_VERSION
  | typeof SEED_HAND_IN_VERSION
  | typeof OLDER_HAND_IN_VERSION;

/** The largest hand-in file read: 8 MiB. A larger file is refused unread past that. */
export const MAX_HAND_IN_BYTES = 8 << 20;

/** One exercise in a hand-in. */
export interface HandedExercise {
  /** The answer: the passing one, else the last one checked. */
  answer: string;
  /** When it first passed (ISO 8601), or null if it never did. */
  passed: string | null;
  /** How many times it was checked. */
  checks: number;
  /** How many hints were shown. */
  hints: number;
  /** Whether a prediction's outcome was revealed before it was guessed right. */
  revealed: boolean;
  /** When it was first checked (ISO 8601), or null when not known (an older record). */
  first: string | null;
  /** For a prediction: the hints shown when the guess was made; null for a script, or not known. */
  hints_before_guess: number | null;
}

/** A hand-in, as written by `exercise hand-in`. */
export interface HandIn {
  /** Always {@linkcode HAND_IN_FORMAT}. */
  format: typeof HAND_IN_FORMAT;
  /** Always {@linkcode HAND_IN_VERSION}. */
  version: typeof HAND_IN_VERSION;
  /** The student's name (`guardlab config name`). */
  name: string;
  /** The version of the guardlab that wrote it. */
  guardlab: string;
  /** The course: its id, and the course code (null without one). */
  course: { id: string; code: string | null };
  /**
   * The variant seed the values came from (null: from the name, as an
   * older guardlab did) and the uid of the account that ran `hand-in`
   * (null where there are no uids). Both are claims: anyone can edit them.
   */
  student: { variant: string | null; uid: number | null };
  /** By exercise slug (its stable name, whatever its place in the course). */
  exercises: Record<string, HandedExercise>;
  /** `sha256:` and the hex digest of everything else; not a signature. */
  digest: string;
}

/**
 * JSON with every object's keys in sorted order (UTF-16 order), strings as
 * `JSON.stringify` writes them and a boxed number as its number: one text
 * for one value. The hand-in digest and the comparison of answers both
 * rest on it; `canonicalJson` (the reference's draft digest) escapes
 * non-ASCII and would change every digest of a hand-in with a Chinese name.
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainRecord(value)) {
    return `{${
      Object.keys(value).sort().map((k) =>
        `${JSON.stringify(k)}:${canonical(value[k])}`
      ).join(",")
    }}`;
  }
  // 1.0 and 1 are one number.
  return JSON.stringify(value);
}

/** The digest of a hand-in without its `digest` field. */
export function digestOf(handIn: Omit<HandIn, "digest">): string {
  const { digest: _, ...rest } = handIn as HandIn;
  return "sha256:" +
    createHash("sha256").update(canonical(rest)).digest("hex");
}

/** A hand-in with its digest. */
export function makeHandIn(
  fields: Omit<HandIn, "format" | "version" | "digest">,
): HandIn {
  const body = {
    format: HAND_IN_FORMAT,
    version: HAND_IN_VERSION,
    ...fields,
  } as const;
  return { ...body, digest: digestOf(body) };
}

/** A hand-in that was read: the hand-in, and whether its digest still matches. */
export interface ReadHandIn {
  /**
   * The hand-in (an older one with `student` filled in as null, null, and
   * each exercise's `first` and `hints_before_guess` as null).
   */
  handIn: HandIn;
  /** False when the digest does not match: the file was changed after hand-in. */
  intact: boolean;
  /** The format version it was written in. */
  version: HandInVersion;
  /**
   * Why the name is not one `config name` stores (an invisible or control
   * character, spacing): made or edited by hand, graded all the same; null
   * for a stored name.
   */
  handMadeName: Text | null;
}

/** Why a file is not a hand-in this guardlab can grade. */
export class MalformedHandIn extends TextError {}

function malformed(text: Text): never {
  throw new MalformedHandIn(text);
}

function keysExactly(
  record: Record<string, unknown>,
  keys: readonly string[],
  where: Text,
): void {
  for (const key of Object.keys(record)) {
    if (!keys.includes(key)) {
      malformed(fill(M.unknownKey, { key: JSON.stringify(key), where }));
    }
  }
  for (const key of keys) {
    if (!Object.hasOwn(record, key)) {
      malformed(fill(M.missingKey, { key: JSON.stringify(key), where }));
    }
  }
}

const OLDER_KEYS = "format version name guardlab course exercises digest"
  .split(" ");
const TOP_KEYS = [...OLDER_KEYS, "student"];
const COURSE_KEYS = ["id", "code"];
const STUDENT_KEYS = ["variant", "uid"];
const MAX_UID = 2 ** 32 - 1;
const OLDER_EXERCISE_KEYS = ["answer", "passed", "checks", "hints", "revealed"];
const EXERCISE_KEYS = [...OLDER_EXERCISE_KEYS, "first", "hints_before_guess"];
const VERSION_TEXT = /^[0-9A-Za-z.+-]{1,32}$/;
const COURSE_ID = /^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$/;
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_COUNT = 1_000_000;

/** A value from the file, quoted and cut short for a reason line. */
const quoted = (v: unknown) => JSON.stringify(String(v).slice(0, 40));

/**
 * Read `text` as a hand-in, strictly. Throws {@linkcode MalformedHandIn}
 * with the reason for anything this guardlab cannot grade.
 */
export function readHandIn(text: string): ReadHandIn {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    malformed(M.notJson);
  }
  if (!isPlainRecord(data)) malformed(M.notObject);
  if (!Object.hasOwn(data, "format")) {
    malformed(Object.hasOwn(data, "answers") ? M.olderFormat : M.noFormat);
  }
  if (data.format !== HAND_IN_FORMAT) malformed(M.format(quoted(data.format)));
  if (!Object.hasOwn(data, "version")) {
    malformed(fill(M.missingKey, { key: '"version"', where: same("") }));
  }
  const version = data.version;
  if (
    version !== HAND_IN_VERSION && version !== SEED_HAND_IN_VERSION &&
    version !== OLDER_HAND_IN_VERSION
  ) {
    malformed(M.version(quoted(version), HAND_IN_VERSION));
  }
  // at the top: no "where"
  keysExactly(data, version === 1 ? OLDER_KEYS : TOP_KEYS, same(""));
  if (version !== OLDER_HAND_IN_VERSION) checkStudent(data.student);
  if (typeof data.name !== "string") malformed(M.nameNotText);
  // A name config would refuse is graded all the same, and flagged: only
  // one that is no name at all (empty, too long) stops the grading.
  const name = handedName(data.name);
  if (name.problem) malformed(fill(M.name, { problem: name.problem }));
  if (typeof data.guardlab !== "string" || !VERSION_TEXT.test(data.guardlab)) {
    malformed(M.notVersion);
  }
  const course = data.course;
  if (!isPlainRecord(course)) malformed(M.courseNotObject);
  keysExactly(course, COURSE_KEYS, M.inCourse);
  if (typeof course.id !== "string" || !COURSE_ID.test(course.id)) {
    malformed(M.notCourseId);
  }
  if (
    course.code !== null &&
    (typeof course.code !== "string" ||
      "problem" in checkCourseCode(course.code))
  ) malformed(M.notCourseCode);
  const exercises = data.exercises;
  if (!isPlainRecord(exercises)) malformed(M.exercisesNotObject);
  for (const [n, entry] of Object.entries(exercises)) {
    if (!SLUG.test(n)) malformed(M.notExerciseName(quoted(n)));
    if (!isPlainRecord(entry)) malformed(M.exerciseNotObject(n));
    keysExactly(
      entry,
      version === HAND_IN_VERSION ? EXERCISE_KEYS : OLDER_EXERCISE_KEYS,
      M.inExercise(quoted(n)),
    );
    if (typeof entry.answer !== "string") malformed(M.answerNotText(n));
    for (const key of ["passed", "first"]) {
      const v = entry[key];
      if (
        v !== null && v !== undefined &&
        (typeof v !== "string" || Number.isNaN(Date.parse(v)) || v.length > 40)
      ) malformed(M.passedNotTime(key, n));
    }
    for (const key of ["checks", "hints", "hints_before_guess"]) {
      const v = entry[key];
      if (v === undefined || (key === "hints_before_guess" && v === null)) {
        continue;
      }
      if (
        !Number.isInteger(v) || (v as number) < 0 || (v as number) > MAX_COUNT
      ) malformed(M.notCount(key, n));
    }
    if (typeof entry.revealed !== "boolean") malformed(M.revealedNotBool(n));
  }
  if (typeof data.digest !== "string") malformed(M.digestNotText);
  const intact = digestOf(data as unknown as HandIn) === data.digest;
  const handIn = version === HAND_IN_VERSION ? data as unknown as HandIn : {
    ...data,
    student: version === OLDER_HAND_IN_VERSION
      ? { variant: null, uid: null }
      : data.student,
    exercises: Object.fromEntries(
      Object.entries(exercises).map(([n, e]) => [
        n,
        { ...e as object, first: null, hints_before_guess: null },
      ]),
    ),
  } as unknown as HandIn;
  return { handIn, intact, version, handMadeName: name.handMade };
}

function checkStudent(student: unknown): void {
  if (!isPlainRecord(student)) malformed(M.studentNotObject);
  keysExactly(student, STUDENT_KEYS, M.inStudent);
  const { variant, uid } = student;
  if (
    variant !== null &&
    (typeof variant !== "string" || !VARIANT_SEED.test(variant))
  ) malformed(M.notVariant);
  if (
    uid !== null &&
    (!Number.isInteger(uid) || (uid as number) < 0 || (uid as number) > MAX_UID)
  ) malformed(M.notUid);
}
