/**
 * The student: who a hand-in belongs to (a name and the course code a
 * teacher told the class), the values each exercise uses for this student,
 * and the rule that an answer uses the student's own values.
 *
 * Names and course codes are checked the same way wherever they come from
 * (the `config` command, a hand-in file), bounded, and free of control
 * characters, so a name can never break a grade table, a CSV cell or a
 * terminal.
 *
 * Per-student variants, the PrairieLearn way: each exercise's values (job
 * keys, topic, copies, the policy rule's limit) are derived by SHA-256 from
 * the course code, the student's name (as stored, so any other spelling,
 * an invisible character included, gives other values) and the student's
 * variant seed: 16 random hex digits made once per student, kept in their
 * progress and carried by every hand-in. Two students with the same name
 * have different seeds, so they get different values and cannot copy each
 * other unseen; a hand-in renamed to another student gets that name's
 * values, so its answers fail. (Older guardlabs derived the values from the
 * name alone, seed `null`, or from the seed alone, hand-in format 2; such
 * work keeps its derivation, and grade says so.) The same code, name and
 * seed always give the same values; without a course code every student
 * gets {@linkcode defaultParams}. An exercise's texts, setup and invariants
 * name these values as `{job}`, `{topic}`, ... and never spell them out.
 *
 * What variants do not stop: a student who reads a classmate's answer and
 * rewrites it with their own values. The space is small by the rules
 * (1,000 keys, two topics, copies 1-3), so this is a speed bump against
 * pasting, not a proof of authorship. The code is no secret either: anyone
 * who knows it and a name can compute that name's values.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Text } from "../base/i18n.ts";
import { isPlainRecord, parseJsonLikePython } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import {
  BATCH_LIMIT,
  COPIES_RANGE,
  JOB_PATTERN,
  TOPICS,
} from "../timing/args.ts";
import { STUDENT_MESSAGES as M } from "./messages.ts";
import { foldCourseCode, foldForms } from "../base/fold.ts";

/**
 * A request the exercises cannot carry out as given (a name not set yet, a
 * hand-in that is not there): the command line shows it as a usage error.
 */
export class ExerciseUsageError extends TextError {}

/** The longest name kept: 40 characters (code points) after trimming. */
export const MAX_NAME_CHARS = 40;

/** A course code: 1 to 32 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
export const COURSE_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

// Control, format (bidi overrides, zero-width), line and paragraph separators,
// private use and unpaired surrogates: none of them belongs in a name.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/u;

/**
 * `raw` as a name (NFC, trimmed, inner spaces as one), or the reason it is
 * not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkName } from "./student.ts";
 * assert.deepEqual(checkName("  李雷 "), { name: "李雷" });
 * assert.ok("problem" in checkName("a\u0007b"));
 * ```
 */
export function checkName(raw: string): { name: string } | { problem: Text } {
  // Refuse the absurd before any work proportional to it.
  if (raw.length > 8 * MAX_NAME_CHARS) {
    return { problem: M.longName(MAX_NAME_CHARS) };
  }
  if (FORBIDDEN.test(raw)) return { problem: M.invisible };
  const name = raw.normalize("NFC").trim().replace(/\s+/gu, " ");
  // A name of invisible code points alone would show as blank.
  if (nameKey(name) === "") return { problem: M.emptyName };
  if ([...name].length > MAX_NAME_CHARS) {
    return { problem: M.longName(MAX_NAME_CHARS) };
  }
  return { name };
}

/**
 * A name as a hand-in carries it: the stored form, or one made or edited by
 * hand (`handMade` says why `config name` would not have stored it: an
 * invisible or control character, spacing), graded all the same; or the
 * reason it is no name at all (empty, or longer than
 * {@linkcode MAX_NAME_CHARS}, so a table or a flag line stays bounded).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { handedName } from "./student.ts";
 * assert.deepEqual(handedName("李雷"), { name: "李雷", handMade: null });
 * assert.ok(handedName("李\u2060雷").handMade !== null);
 * assert.ok("problem" in handedName(" "));
 * ```
 */
export function handedName(
  raw: string,
): { name: string; handMade: Text | null; problem?: undefined } | {
  problem: Text;
  handMade?: undefined;
} {
  if (raw.length > 8 * MAX_NAME_CHARS || [...raw].length > MAX_NAME_CHARS) {
    return { problem: M.longName(MAX_NAME_CHARS) };
  }
  if (raw.trim() === "") return { problem: M.emptyName };
  const stored = checkName(raw);
  if ("name" in stored && stored.name === raw) {
    return { name: raw, handMade: null };
  }
  return {
    name: raw,
    handMade: "problem" in stored ? stored.problem : M.spacing,
  };
}

/**
 * `raw` as a course code, or the reason it is not one. The code kept is
 * folded ({@linkcode foldCourseCode}: width and case), so "net-2026" and
 * "ＮＥＴ－２０２６" are the course NET-2026, with its values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCourseCode } from "./student.ts";
 * assert.deepEqual(checkCourseCode("net-2026"), { code: "NET-2026" });
 * ```
 */
export function checkCourseCode(
  raw: string,
): { code: string } | { problem: Text } {
  const code = foldCourseCode(raw);
  return COURSE_CODE.test(code) ? { code } : { problem: M.courseCode };
}

/**
 * A name with its forms folded ({@linkcode foldForms}: width, compatibility
 * forms, invisible code points), case folded and spaces made one: what a
 * name was empty by, and what the values of a hand-in of format 1 derived
 * from. Names are compared by eye with `lookAlikeKey` (look-alike letters
 * folded too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nameKey } from "./student.ts";
 * assert.equal(nameKey("李\u034f雷"), nameKey("李雷"));
 * assert.equal(nameKey("Ｌｉ\u200b Lei\u{e0041}"), nameKey("li lei"));
 * ```
 */
export function nameKey(name: string): string {
  return foldForms(name).toLowerCase().trim().replace(/\s+/gu, " ");
}

/** A variant seed: 16 hex digits (64 random bits). */
export const VARIANT_SEED = /^[0-9a-f]{16}$/;

/** A new variant seed, from the system's random source. */
export function newVariantSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The values one exercise uses, for one student. */
export interface ExerciseParams {
  /** The business key the exercise is about, `JOB-` and three digits. */
  readonly job: string;
  /** A second key, for an exercise that needs two (never equal to `job`). */
  readonly otherJob: string;
  /** The topic of every request. */
  readonly topic: typeof TOPICS[number];
  /** Copies of an allowed request: 1 to the batch limit (3). */
  readonly copies: number;
  /** Copies of an over-limit request: the batch limit + 1 to 9. */
  readonly overCopies: number;
  /** The policy rule's lowered limit: 0 to `copies` - 1 (the rule starts at 3). */
  readonly lowerLimit: number;
}

/** The names of the values, as texts and invariants write them: `{job}`, `{otherJob}`, ... */
export const PARAM_NAMES = [
  "job",
  "otherJob",
  "topic",
  "copies",
  "overCopies",
  "lowerLimit",
] as const;

/** One of the values' names. */
export type ParamName = typeof PARAM_NAMES[number];

/** The fixed values every student gets without a course code. */
export const defaultParams: ExerciseParams = Object.freeze({
  job: "JOB-001",
  otherJob: "JOB-002",
  topic: "river",
  copies: 2,
  overCopies: 4,
  lowerLimit: 1,
});

/** The largest copies the tool's validation allows. */
const MOST_COPIES = COPIES_RANGE[1];

/**
 * Why `p` is not a usable set of values, or `null` when it is. The ranges
 * are the ones the labs allow: a variant outside them would make an
 * exercise impossible.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultParams, paramsProblem } from "./student.ts";
 * assert.equal(paramsProblem(defaultParams), null);
 * assert.equal(paramsProblem({ ...defaultParams, copies: 4 }), "copies");
 * ```
 */
export function paramsProblem(p: ExerciseParams): string | null {
  const int = (v: unknown, lo: number, hi: number) =>
    typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;
  if (typeof p.job !== "string" || !JOB_PATTERN.test(p.job)) return "job";
  if (
    typeof p.otherJob !== "string" || !JOB_PATTERN.test(p.otherJob) ||
    p.otherJob === p.job
  ) return "otherJob";
  if (!(TOPICS as readonly unknown[]).includes(p.topic)) return "topic";
  if (!int(p.copies, COPIES_RANGE[0], BATCH_LIMIT)) return "copies";
  if (!int(p.overCopies, BATCH_LIMIT + 1, MOST_COPIES)) return "overCopies";
  if (!int(p.lowerLimit, 0, p.copies - 1)) return "lowerLimit";
  return null;
}

/** How many keys the job pattern allows (`JOB-000` to `JOB-999`). */
const KEYS = 1000;

/**
 * How a student's values were derived: `name+seed` (this guardlab), `seed`
 * (hand-in format 2: a renamed copy kept the original's values) or `name`
 * (hand-in format 1, no seed: namesakes shared their values).
 */
export type Derivation = "name+seed" | "seed" | "name";

/**
 * The values of exercise `exercise` (its slug keeps them stable if a course
 * is reordered) in course `code` (folded: "net-2026" is "NET-2026"; older
 * derivations take it as written, as their guardlab did) for the student
 * named `name` whose variant
 * seed is `variant`; {@linkcode defaultParams} when there is no course code.
 * With seed `null` (a student of an older guardlab), from the name alone, as
 * that guardlab did: two students of one name then share their values; with
 * `derivation` "seed" (hand-in format 2), from the seed alone. Every value
 * stays inside the ranges the labs allow (`paramsProblem` accepts each),
 * spread over all of them: 1,000 × 999 key pairs, two topics, copies 1-3,
 * over-limit copies 4-9, and a lowered limit from 0 to copies - 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultParams, paramsFor } from "./student.ts";
 * assert.deepEqual(paramsFor(null, "李雷", "retry-reuses"), defaultParams);
 * const seed = "0123456789abcdef";
 * // Namesakes differ by their seeds; one seed under another name differs too.
 * assert.notDeepEqual(
 *   paramsFor("NET-26", "王伟", "retry-reuses", seed),
 *   paramsFor("NET-26", "王伟", "retry-reuses", "fedcba9876543210"),
 * );
 * assert.notDeepEqual(
 *   paramsFor("NET-26", "王伟", "retry-reuses", seed),
 *   paramsFor("NET-26", "李雷", "retry-reuses", seed),
 * );
 * ```
 */
export function paramsFor(
  code: string | null | undefined,
  name: string,
  exercise: string,
  variant: string | null = null,
  derivation: Derivation = "name+seed",
): ExerciseParams {
  if (!code) return defaultParams;
  // NUL separates the parts: no code, name or seed can run into another.
  const seed = variant === null || derivation === "name"
    ? `guardlab-variant-1\0${code}\0${nameKey(name)}\0${exercise}`
    : derivation === "seed"
    ? `guardlab-variant-2\0${code}\0${variant}\0${exercise}`
    : `guardlab-variant-3\0${
      foldCourseCode(code)
    }\0${name}\0${variant}\0${exercise}`;
  const digest = createHash("sha256").update(seed).digest();
  const word = (i: number) => digest.readUInt32BE(i);
  const job = word(0) % KEYS;
  // The second key: any of the other 999, evenly.
  const otherJob = (job + 1 + word(4) % (KEYS - 1)) % KEYS;
  const copies = 1 + word(12) % BATCH_LIMIT;
  return {
    job: key(job),
    otherJob: key(otherJob),
    topic: TOPICS[word(8) % TOPICS.length],
    copies,
    overCopies: BATCH_LIMIT + 1 + word(16) % (COPIES_RANGE[1] - BATCH_LIMIT),
    lowerLimit: word(20) % copies,
  };
}

function key(k: number): string {
  return `JOB-${String(k).padStart(3, "0")}`;
}

/** Who is asking: the stored name and course code, when set, and the variant seed. */
export interface Student {
  /** The name (`guardlab config name`). */
  readonly name?: string;
  /** The course code (`guardlab config course`). */
  readonly course?: string;
  /** The variant seed (kept in the progress); `null`: derived from the name, as before. */
  readonly variant?: string | null;
}

/**
 * This student's values for exercise `x`: from the course code and the
 * variant seed when the teacher gave a code (a code without a name is
 * refused with {@linkcode ExerciseUsageError}: a hand-in must say whose
 * values they are), else the fixed ones.
 */
export function studentParams(
  student: Student,
  x: { readonly slug: string },
): ExerciseParams {
  if (student.course !== undefined && student.name === undefined) {
    throw new ExerciseUsageError(M.nameFirst);
  }
  return paramsFor(
    student.course,
    student.name ?? "",
    x.slug,
    student.variant ?? null,
  );
}

/** A value in an answer that is not this student's. */
export interface ForeignValue {
  /** The input line. */
  line: number;
  /** The field: a business key. */
  field: "job";
  /** The value written. */
  value: string;
}

/**
 * With a course code, an answer must use the student's own keys: the first
 * key in `answer` that is a valid key but not one of `params`' keys (the
 * mark of a pasted answer), or null. Only the lines a judge would run are
 * looked at (the judge's `limits` on steps and bytes per step); a line that
 * is not a step is left for the judge to report. Topics are not looked at:
 * there are only two, so a topic says nothing about whose answer it is,
 * and changing the topic on one's own key is how a key conflict is made
 * (exercise "key-conflict").
 */
export function foreignValue(
  answer: string,
  params: ExerciseParams,
  limits: { readonly maxSteps: number; readonly maxStepBytes: number },
): ForeignValue | null {
  const keys = [params.job, params.otherJob];
  let steps = 0;
  let line = 0;
  for (let from = 0; from <= answer.length && steps < limits.maxSteps;) {
    const end = answer.indexOf("\n", from);
    const stop = end < 0 ? answer.length : end;
    line++;
    const text = answer.slice(
      from,
      Math.min(stop, from + limits.maxStepBytes + 1),
    );
    from = stop + 1;
    if (text.trim() === "") continue;
    steps++;
    let step: unknown;
    try {
      step = parseJsonLikePython(text);
    } catch {
      continue;
    }
    if (!isPlainRecord(step)) continue;
    const args = isPlainRecord(step.args) ? step.args : {};
    for (const job of [step.job, args.job]) {
      if (
        typeof job === "string" && JOB_PATTERN.test(job) && !keys.includes(job)
      ) return { line, field: "job", value: job };
    }
  }
  return null;
}

/** The feedback for a foreign value of exercise `n`: what was written, what is this student's, and the `command` (naming the course, under one) that shows it. */
export function foreignValueText(
  f: ForeignValue,
  p: ExerciseParams,
  n: number,
  command = "guardlab exercise",
): Text {
  return M.foreignKey(f.line, f.value, p.job, p.otherJob, n, command);
}
