/**
 * The values an exercise uses: its business keys, topic, copies and the
 * policy rule's limits. Without a course code every student gets
 * {@linkcode defaultParams}; a per-student variant is another
 * {@linkcode ExerciseParams} that {@linkcode paramsProblem} accepts. An
 * exercise's texts, setup and invariants name these values as `{job}`,
 * `{topic}`, ... and never spell them out.
 *
 * @module
 */
import {
  BATCH_LIMIT,
  COPIES_RANGE,
  JOB_PATTERN,
  TOPICS,
} from "../timing/args.ts";

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
 * import { defaultParams, paramsProblem } from "./params.ts";
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

/** The value named `name` in `p`, as text (for a `{name}` in a text or a step). */
export function paramText(p: ExerciseParams, name: string): string | undefined {
  return (PARAM_NAMES as readonly string[]).includes(name)
    ? String(p[name as keyof ExerciseParams])
    : undefined;
}
