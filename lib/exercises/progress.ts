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
  /** The last answer checked, for `hand-in`. */
  answer: string;
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
    ) exercises[n] = { state: x.state, answer: x.answer };
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
