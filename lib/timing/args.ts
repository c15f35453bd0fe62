/**
 * The tool's arguments: strict structural validation, then the separate
 * business input check. Both run before anything is written.
 *
 * @module
 */
import { InputRejected } from "./errors.ts";
import { isPlainRecord } from "../base/json.ts";

/** Topics the draft tool knows. */
export const TOPICS = ["river", "forest"] as const;

/** Validated tool arguments. */
export interface ToolArgs {
  /** Business key, `JOB-` and three digits; the draft's primary key. */
  readonly job: string;
  /** `river` or `forest`. */
  readonly topic: typeof TOPICS[number];
  /** An integer in {@linkcode COPIES_RANGE} (the business check narrows it to {@linkcode BATCH_LIMIT}). */
  readonly copies: number;
}

/** Copies that structural validation allows: an integer from the first to the second. */
export const COPIES_RANGE = [1, 9] as const;

/** The business input check's limit, deliberately narrower than validation's {@linkcode COPIES_RANGE}. */
export const BATCH_LIMIT = 3;

/** A business key: `JOB-` and three ASCII digits, nothing before or after. */
export const JOB_PATTERN = /^JOB-[0-9]{3}$/;

/** Whether `value` is an integer number (never a boolean, a boxed number or a string) in `min..max`. */
export function isIntegerIn(
  value: unknown,
  min: number,
  max: number,
): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min &&
    value <= max;
}
const KEYS = ["copies", "job", "topic"];

/** Whether `raw` owns exactly the three data properties, nothing else (no symbols, no accessors). */
function hasExactlyToolKeys(raw: Record<string, unknown>): boolean {
  const keys = Reflect.ownKeys(raw);
  if (keys.length !== KEYS.length) return false;
  return KEYS.every((key) => {
    const slot = Object.getOwnPropertyDescriptor(raw, key);
    return slot !== undefined && "value" in slot;
  });
}

/**
 * Validate raw tool arguments or throw {@linkcode InputRejected} with the
 * reason `shape`, `job`, `topic` or `copies`, checked in that order.
 *
 * @example
 * ```ts
 * checkedArgs({ job: "JOB-001", topic: "river", copies: 2 });
 * ```
 */
export function checkedArgs(raw: unknown): ToolArgs {
  if (!isPlainRecord(raw) || !hasExactlyToolKeys(raw)) {
    throw new InputRejected("shape");
  }
  const { job, topic, copies } = raw;
  if (typeof job !== "string" || !JOB_PATTERN.test(job)) {
    throw new InputRejected("job");
  }
  if (
    typeof topic !== "string" || !(TOPICS as readonly string[]).includes(topic)
  ) {
    throw new InputRejected("topic");
  }
  if (!isIntegerIn(copies, ...COPIES_RANGE)) {
    throw new InputRejected("copies");
  }
  return { job, topic: topic as ToolArgs["topic"], copies };
}

/**
 * The business rule, separate from structure: at most {@linkcode BATCH_LIMIT} copies per call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputCheck } from "../mod.ts";
 *
 * inputCheck({ job: "JOB-001", topic: "river", copies: 3 });
 * assert.throws(
 *   () => inputCheck({ job: "JOB-001", topic: "river", copies: 4 }),
 *   { reason: "batch_limit" },
 * );
 * ```
 */
export function inputCheck(args: ToolArgs): void {
  if (args.copies > BATCH_LIMIT) throw new InputRejected("batch_limit");
}
