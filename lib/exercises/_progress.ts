/**
 * Where a student stands: which exercises are attempted or done, how many
 * hints each has shown, and the last answer checked (for `hand-in`). Kept in
 * the private guardlab folder as `exercises.json`, beside the settings, so a
 * ledger `reset` never touches it. Read with the same checks as any file.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import {
  readOrFallback,
  readPrivateJson,
  writePrivateJson,
} from "../sandbox/private_file.ts";
import type { Place } from "../sandbox/sandbox.ts";
import type { Course } from "./course.ts";
import type { Exercise } from "./_form.ts";
import { type Derivation, newVariantSeed, VARIANT_SEED } from "./student.ts";

/** One exercise's record. */
export interface ExerciseProgress {
  /** `attempted` after any check, `done` once a check passed. */
  state: "attempted" | "done";
  /** The last answer checked, for `hand-in` (once done: the passing one). */
  answer: string;
  /** When it was first checked (ISO 8601); absent in a record an older guardlab kept. */
  first?: string;
  /** When a check first passed (ISO 8601). */
  passed?: string;
  /** How many times it was checked. */
  checks?: number;
  /** Whether a prediction's outcome was revealed. */
  revealed?: boolean;
  /** For a prediction: the first well-formed guess, the only one that counts. */
  guess?: string;
  /** For a prediction: how many hints had been shown when that guess was kept. */
  guessHints?: number;
  /** The course code, name and variant seed the answer was checked under (its variant). */
  as?: CheckedAs;
}

/** Whose values an answer was checked with. */
export interface CheckedAs {
  /** The course code, or null (the fixed values). */
  course: string | null;
  /** The name. */
  name: string | null;
  /** The variant seed; null (or absent, in an older record) when the values came from the name. */
  variant?: string | null;
  /**
   * How the values were derived from those (`name+seed` now); absent in a
   * record an older guardlab kept, whose values came from the seed alone
   * (or from the name, without a seed).
   */
  derivation?: Derivation;
}

/** The whole record. */
export interface Progress {
  /** By exercise number. */
  exercises: Record<string, ExerciseProgress>;
  /** Hints shown, by exercise number. */
  hints: Record<string, number>;
  /**
   * The student's variant seed, made the first time a course code needs
   * one; `null` for a student whose earlier checks used values derived
   * from the name (an older guardlab), who keeps that derivation.
   */
  variant?: string | null;
}

const FILE = "exercises.json";
const MAX_BYTES = 4 << 20;

/** The stored progress in the private folder of `place`; empty when there is none or it is damaged. */
export function readProgress(place: string | Place): Progress {
  const data = readPrivateJson(place, FILE, MAX_BYTES) as
    | { exercises?: unknown; hints?: unknown; variant?: unknown }
    | undefined;
  const exercises: Progress["exercises"] = {};
  for (const [n, e] of Object.entries(data?.exercises ?? {})) {
    const x = e as ExerciseProgress;
    if (
      (x?.state === "attempted" || x?.state === "done") &&
      typeof x.answer === "string"
    ) {
      const record: ExerciseProgress = { state: x.state, answer: x.answer };
      if (isTime(x.first)) record.first = x.first;
      if (isTime(x.passed)) record.passed = x.passed;
      if (Number.isInteger(x.checks) && x.checks! >= 0) {
        record.checks = x.checks;
      }
      if (typeof x.revealed === "boolean") record.revealed = x.revealed;
      if (typeof x.guess === "string") record.guess = x.guess;
      if (Number.isInteger(x.guessHints) && x.guessHints! >= 0) {
        record.guessHints = x.guessHints;
      }
      const as = x.as as
        | {
          course?: unknown;
          name?: unknown;
          variant?: unknown;
          derivation?: unknown;
        }
        | undefined;
      if (
        as !== null && typeof as === "object" &&
        (as.course === null || typeof as.course === "string") &&
        (as.name === null || typeof as.name === "string")
      ) {
        record.as = {
          course: as.course as string | null,
          name: as.name as string | null,
          variant: seedOrNull(as.variant),
        };
        if (as.derivation === "name+seed" || as.derivation === "name") {
          record.as.derivation = as.derivation;
        }
      }
      exercises[n] = record;
    }
  }
  const hints: Progress["hints"] = {};
  for (const [n, h] of Object.entries(data?.hints ?? {})) {
    if (Number.isInteger(h)) hints[n] = h as number;
  }
  const progress: Progress = { exercises, hints };
  if (data?.variant === null || typeof data?.variant === "string") {
    progress.variant = seedOrNull(data.variant);
  }
  return progress;
}

/** A time as a record keeps it: what a hand-in may carry (ISO 8601, at most 40 characters). */
function isTime(v: unknown): v is string {
  return typeof v === "string" && v.length <= 40 &&
    !Number.isNaN(Date.parse(v));
}

function seedOrNull(v: unknown): string | null {
  return typeof v === "string" && VARIANT_SEED.test(v) ? v : null;
}

/**
 * The student's variant seed in `p`, and the progress that keeps it: made
 * now if there is none yet, or `null` (values from the name, as an older
 * guardlab made them) when earlier checks under a course code have no seed,
 * so the work already done keeps its values.
 */
export function variantOf(
  p: Progress,
): { variant: string | null; progress: Progress } {
  if (p.variant !== undefined) return { variant: p.variant, progress: p };
  const older = Object.values(p.exercises).some((e) =>
    e.as?.course != null && e.as.variant == null
  );
  const variant = older ? null : newVariantSeed();
  return { variant, progress: { ...p, variant } };
}

/** Store `progress`, replacing the file whole (written beside, then renamed). */
export function writeProgress(
  place: string | Place,
  progress: Progress,
): void {
  writePrivateJson(place, FILE, progress);
}

/**
 * The key of exercise `n` of course `courseId` in the progress record: the
 * number alone for the built-in course (as before), `ID/N` for another.
 */
export function progressKey(courseId: string, n: number): string {
  return courseId === "guardlab" ? String(n) : `${courseId}/${n}`;
}

/**
 * The progress of a command, kept when it can be: a private folder that is
 * not safe (another user's) costs the record, never the judgement. Once a
 * read or a write has failed, nothing more is written, and `problem` says
 * why.
 */
export class ProgressKeeper {
  #problem: Text | undefined;
  /** Keep the progress of the private folder of `place`. */
  constructor(readonly place: string | Place) {}

  /** Why the progress could not be kept, if it could not. */
  get problem(): Text | undefined {
    return this.#problem;
  }

  /** The stored progress; empty when it cannot be read. */
  read(): Progress {
    const read = readOrFallback(
      () => readProgress(this.place),
      { exercises: {}, hints: {} } as Progress,
    );
    this.#problem ??= read.problem;
    return read.value;
  }

  /** Store `next`, unless the progress could not be kept already. */
  keep(next: Progress): void {
    if (this.#problem !== undefined) return;
    this.#problem = readOrFallback(
      () => writeProgress(this.place, next),
      undefined,
    ).problem;
  }
}

/** Where one exercise of a course stands, as `list` and `progress` show it. */
export interface Standing {
  /** The exercise. */
  exercise: Exercise;
  /** `done`, `attempted`, or `not started`. */
  state: ExerciseProgress["state"] | "not started";
  /** Hints shown. */
  hints: number;
  /** Whether a prediction's outcome was revealed. */
  revealed: boolean;
}

/** Where each exercise of `course` stands in `progress`, in course order. */
export function standing(course: Course, progress: Progress): Standing[] {
  return course.exercises.map((exercise) => {
    const key = progressKey(course.id, exercise.n);
    const record = progress.exercises[key];
    return {
      exercise,
      state: record?.state ?? "not started",
      hints: progress.hints[key] ?? 0,
      revealed: record?.revealed === true,
    };
  });
}

/**
 * The hints to show of `total`, one more each time (up to all), and the
 * progress that counts them.
 */
export function nextHint(
  progress: Progress,
  key: string,
  total: number,
): { shown: number; progress: Progress } {
  const shown = Math.min((progress.hints[key] ?? 0) + 1, total);
  return {
    shown,
    progress: { ...progress, hints: { ...progress.hints, [key]: shown } },
  };
}

/**
 * The progress after one check of exercise `x`: a passing answer is kept
 * for hand-in until a newer one passes; a prediction keeps its first
 * well-formed guess (the one that counts), how many hints had been shown
 * when it was kept, and whether the outcome was `revealed` (shown by this
 * check: only ever after that first guess); every check is counted, and
 * the first check and the first pass are dated (`now`).
 */
export function recordCheck(
  p: Progress,
  key: string,
  x: Pick<Exercise, "kind">,
  answer: string,
  v: { readonly passed: boolean; readonly reason: unknown },
  revealed: boolean,
  as: CheckedAs,
  now: Date = new Date(),
): Progress {
  const before = p.exercises[key];
  const keep = before?.state === "done" && !v.passed;
  const record = keep ? { ...before } : {
    ...before,
    state: v.passed ? "done" as const : "attempted" as const,
    answer,
    as,
  };
  record.checks = (before?.checks ?? 0) + 1;
  // Only a record this check starts is dated: an older record's first
  // check happened before this one, at a time nobody kept.
  if (before === undefined) record.first = now.toISOString();
  if (v.passed && before?.passed === undefined) {
    record.passed = now.toISOString();
  }
  const guess = before?.guess ??
    (x.kind === "prediction" && v.reason === null ? answer.trim() : undefined);
  if (guess !== undefined) record.guess = guess;
  if (guess !== undefined && before?.guess === undefined) {
    // The hints a prediction was made with: the table marks them.
    record.guessHints = p.hints[key] ?? 0;
  }
  if (before?.revealed === true || revealed) record.revealed = true;
  return { ...p, exercises: { ...p.exercises, [key]: record } };
}
