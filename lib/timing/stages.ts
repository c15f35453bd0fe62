/**
 * The names of the timeline: the events a run appends, the checkpoints where a
 * fault or a real cancellation can land, and the statuses a receipt records.
 *
 * These strings are stored in the ledger and compared with the reference lab,
 * so they are defined here once and nowhere else.
 *
 * @module
 */

/** Events in the order a fully accepted run appends them. */
export const EVENT_ORDER = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "effect_reused",
  "output_started",
  "output_allowed",
  // Only with a parallel input guardrail that rejects, after the commit.
  "input_tripwire",
] as const;

/** One event of a run's timeline. */
export type EventName = typeof EVENT_ORDER[number];

/**
 * Awaited points of a run where a cancellation can be delivered.
 * `after_business` is the first await after the business step has returned:
 * the draft is committed (or reused) and the output check has not started.
 */
export const CHECKPOINTS = [
  "before_business",
  "after_business",
  "output_check",
] as const;

/** A checkpoint name. */
export type Checkpoint = typeof CHECKPOINTS[number];

/**
 * Places an injected failure can be raised: the checkpoints plus the two
 * around the commit. `after_commit` and `after_business` both lie past the
 * commit point, and both are faults in the reference, so both stay:
 * `after_commit` fails inside the business step right after its COMMIT
 * returned, and only when this attempt committed a new draft (a reused draft
 * has no commit of its own); `after_business` fails at the checkpoint after
 * the business step returned, on every attempt that got there, reused or
 * not, and is also where a cancellation lands.
 */
export const FAIL_POINTS = [
  ...CHECKPOINTS,
  "inside_transaction",
  "after_commit",
] as const;

/** A failure injection point. */
export type FailPoint = typeof FAIL_POINTS[number];

/** Where a cancellation or an injected failure can stop an attempt. */
export type StopPoint = Checkpoint | FailPoint;

/** Statuses a returned result can carry. */
export const STATUSES = [
  "accepted",
  "input_rejected",
  "output_rejected",
  "key_conflict",
  "key_voided",
  "error",
] as const;

/** A returned status. */
export type Status = typeof STATUSES[number];

/** Statuses a receipt row can carry: a cancelled run writes a receipt but returns none. */
export type ReceiptStatus = Status | "cancelled";

/**
 * Harness pause points, used to stop a process at a precise place on the
 * timeline (for example to kill it there).
 */
export const PAUSE_POINTS = [
  "before_business",
  "after_commit",
  "after_output_check",
  "before_receipt",
] as const;

/** A harness pause point. */
export type PausePoint = typeof PAUSE_POINTS[number];

/**
 * The pause point a checkpoint holds at. The checkpoint after the business
 * step is where a harness kills a process "after commit", so its pause point
 * keeps that name, the one `--pause-at` and the README use.
 */
export const PAUSE_AT_CHECKPOINT: Readonly<
  Partial<Record<Checkpoint, PausePoint>>
> = {
  before_business: "before_business",
  after_business: "after_commit",
};

/** Whether `value` is one of `names`. */
export function isOneOf<T extends string>(
  names: readonly T[],
  value: unknown,
): value is T {
  return typeof value === "string" &&
    (names as readonly string[]).includes(value);
}
