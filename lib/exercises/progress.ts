/**
 * Where a student stands: which exercises are attempted or done, how many
 * hints each has shown, and the last answer checked (for `hand-in`). Kept in
 * the private guardlab folder as `exercises.json`, beside the settings, so a
 * ledger `reset` never touches it. Read with the same checks as any file.
 *
 * @module
 */
import { readPrivateJson, writePrivateJson } from "../sandbox/private_file.ts";
import type { Place } from "../sandbox/sandbox.ts";

/** One exercise's record. */
export interface ExerciseProgress {
  /** `attempted` after any check, `done` once a check passed. */
  state: "attempted" | "done";
  /** The last answer checked, for `hand-in` (once done: the passing one). */
  answer: string;
  /** When a check first passed (ISO 8601). */
  passed?: string;
  /** How many times it was checked. */
  checks?: number;
  /** Whether a prediction's outcome was revealed. */
  revealed?: boolean;
  /** For a prediction: the first well-formed guess, the only one that counts. */
  guess?: string;
  /** The course code and name the answer was checked under (its variant). */
  as?: { course: string | null; name: string | null };
}

/** The whole record. */
export interface Progress {
  /** By exercise number. */
  exercises: Record<string, ExerciseProgress>;
  /** Hints shown, by exercise number. */
  hints: Record<string, number>;
}

const FILE = "exercises.json";
const MAX_BYTES = 4 << 20;

/** The stored progress in the private folder of `place`; empty when there is none or it is damaged. */
export function readProgress(place: string | Place): Progress {
  const data = readPrivateJson(place, FILE, MAX_BYTES) as
    | { exercises?: unknown; hints?: unknown }
    | undefined;
  const exercises: Progress["exercises"] = {};
  for (const [n, e] of Object.entries(data?.exercises ?? {})) {
    const x = e as ExerciseProgress;
    if (
      (x?.state === "attempted" || x?.state === "done") &&
      typeof x.answer === "string"
    ) {
      const record: ExerciseProgress = { state: x.state, answer: x.answer };
      if (typeof x.passed === "string") record.passed = x.passed;
      if (Number.isInteger(x.checks) && x.checks! >= 0) {
        record.checks = x.checks;
      }
      if (typeof x.revealed === "boolean") record.revealed = x.revealed;
      if (typeof x.guess === "string") record.guess = x.guess;
      const as = x.as as { course?: unknown; name?: unknown } | undefined;
      if (
        as !== null && typeof as === "object" &&
        (as.course === null || typeof as.course === "string") &&
        (as.name === null || typeof as.name === "string")
      ) {
        record.as = {
          course: as.course as string | null,
          name: as.name as string | null,
        };
      }
      exercises[n] = record;
    }
  }
  const hints: Progress["hints"] = {};
  for (const [n, h] of Object.entries(data?.hints ?? {})) {
    if (Number.isInteger(h)) hints[n] = h as number;
  }
  return { exercises, hints };
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
