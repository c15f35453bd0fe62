/**
 * The words a timeline is made of, as keys: the stages it can show, the
 * mark a stage gets, and what the commit point saw. Their labels are in
 * `./_messages.ts`, their drawing in `./timeline.ts`.
 *
 * @module
 */

/** The stages a timeline can show, in order. */
export const STAGE_IDS = [
  "arguments",
  "input",
  "before_business",
  "business",
  "input_verdict",
  "after_commit",
  "output",
  "receipt",
] as const;

/** One stage of the timeline. */
export type StageId = typeof STAGE_IDS[number];

/** The mark of one stage. */
export type Mark =
  | "passed"
  | "refused"
  | "failed"
  | "cancelled"
  | "in parallel"
  | "not reached"
  // Drawn from the ledger alone, where no receipt says what happened.
  | "unknown";

/** What the commit point saw. */
export type CommitState = "committed" | "reused" | "not reached";
