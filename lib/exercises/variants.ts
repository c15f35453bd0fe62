/**
 * Per-student variants, the PrairieLearn way: each exercise's values (job
 * keys, topic, copies, the policy rule's limit) are derived from the course
 * code and the student's name by SHA-256, so a classmate's pasted answer names
 * the wrong keys and fails. The same code and name always give the same
 * values; without a course code every student gets the fixed values.
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
import { BATCH_LIMIT, COPIES_RANGE, TOPICS } from "../timing/args.ts";
import { defaultParams, type ExerciseParams } from "./params.ts";
import { nameKey } from "./student.ts";

/** How many keys the job pattern allows (`JOB-000` to `JOB-999`). */
const KEYS = 1000;

/**
 * The values of exercise `n` (its slug keeps them stable if a course is
 * reordered) for `name` in course `code`; {@linkcode defaultParams} when there
 * is no course code. Every value stays inside the ranges the labs allow
 * (`paramsProblem` accepts each), spread over all of them: 1,000 × 999 key
 * pairs, two topics, copies 1-3, over-limit copies 4-9, and a lowered limit
 * from 0 to copies - 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramsFor } from "./variants.ts";
 * import { defaultParams } from "./params.ts";
 * assert.deepEqual(paramsFor(null, "李雷", "retry-reuses"), defaultParams);
 * assert.deepEqual(
 *   paramsFor("NET-26", "李雷", "retry-reuses"),
 *   paramsFor("NET-26", "李雷", "retry-reuses"),
 * );
 * ```
 */
export function paramsFor(
  code: string | null | undefined,
  name: string,
  exercise: string,
): ExerciseParams {
  if (!code) return defaultParams;
  // NUL separates the parts: no code/name pair can run into another.
  const digest = createHash("sha256")
    .update(`guardlab-variant-1\0${code}\0${nameKey(name)}\0${exercise}`)
    .digest();
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
