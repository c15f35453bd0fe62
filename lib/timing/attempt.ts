/**
 * The attempt record: what one run produced, in the shape both `run` and
 * `script` print and the timeline view reads. It lives with the lab that
 * fills it, so the lab never reaches up into the views.
 *
 * @module
 */
import type { StopPoint } from "./stages.ts";

/** How an attempt ended for the caller. */
export type Outcome =
  | { kind: "result"; status: string; released: unknown }
  | { kind: "raised"; raised: string; message: string; cause?: string };

/** What a run produced, in the shape both `run` and `script` print. */
export interface Attempt {
  /** Events the attempt reached (for a raised run, as far as they are known). */
  events: readonly string[];
  /** How it ended. */
  outcome: Outcome;
  /** Whether the draft exists after the attempt. */
  draftExists: boolean;
  /** Receipt attempt number, or null when none was written. */
  receiptAttempt: number | null;
  /** Receipt status, when one was written. */
  receiptStatus?: string;
  /** Where a cancellation or injected failure stopped it. */
  stoppedAt?: StopPoint;
  /** The rule that refused it. */
  refusal?: string;
  /** `parallel` when the input guardrail ran beside the call. */
  inputGuardrail?: "parallel";
  /** Rows the receipt INSERT really added, when not the 1 it claimed (a naive receipt). */
  receiptRowsInserted?: number;
}
