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
 * pasting, not a proof of authorship.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { BATCH_LIMIT, COPIES_RANGE, TOPICS } from "../timing/args.ts";
import { nameKey } from "./student.ts";

/** One student's values for one exercise. */
export interface Variant {
  /** Three distinct business keys (`JOB-` and three digits), in the order an exercise uses them. */
  jobs: readonly [string, string, string];
  /** The topic of every request. */
  topic: typeof TOPICS[number];
  /** Copies within the business input check's limit (1..{@linkcode BATCH_LIMIT}). */
  copies: number;
  /** Copies over that limit but valid (BATCH_LIMIT+1..9), for a request the input check must refuse. */
  overCopies: number;
  /** A lower policy limit than the starting one (0..2): what `policy.change` sets. */
  limit: number;
}

/** The fixed values every student gets without a course code (the seed's). */
export const FIXED_VARIANT: Variant = {
  jobs: ["JOB-001", "JOB-002", "JOB-003"],
  topic: "river",
  copies: 2,
  overCopies: 4,
  limit: 1,
};

/** The policy rule's starting limit (the seed's `max_copies`). */
const STARTING_LIMIT = 3;

/**
 * The values of exercise `n` for `name` in course `code`; the fixed values
 * when there is no course code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { variantOf, FIXED_VARIANT } from "./variants.ts";
 * assert.deepEqual(variantOf(null, "李雷", 1), FIXED_VARIANT);
 * assert.deepEqual(variantOf("NET-26", "李雷", 1), variantOf("NET-26", "李雷", 1));
 * ```
 */
export function variantOf(
  code: string | null | undefined,
  name: string,
  n: number,
): Variant {
  if (!code) return FIXED_VARIANT;
  // NUL separates the parts: no code/name pair can run into another.
  const digest = createHash("sha256")
    .update(`guardlab-variant-1\0${code}\0${nameKey(name)}\0${n}`)
    .digest();
  const word = (i: number) => digest.readUInt32BE(i);
  // Three distinct keys out of 1,000: pick, then step over those taken.
  const keys: number[] = [];
  for (let i = 0; keys.length < 3; i++) {
    let k = word(4 * i) % (1000 - keys.length);
    for (const taken of [...keys].sort((a, b) => a - b)) if (k >= taken) k++;
    keys.push(k);
  }
  const jobs = keys.map((k) => `JOB-${String(k).padStart(3, "0")}`) as [
    string,
    string,
    string,
  ];
  const over = COPIES_RANGE[1] - BATCH_LIMIT;
  return {
    jobs,
    topic: TOPICS[word(12) % TOPICS.length],
    copies: 1 + word(16) % BATCH_LIMIT,
    overCopies: BATCH_LIMIT + 1 + word(20) % over,
    limit: word(24) % STARTING_LIMIT,
  };
}
