/**
 * The verdict on one answer, as data: whether it passed, each finding with
 * its status, and the feedback lines to print, in both languages. Renderers
 * print `feedback` as it is; graders read `passed` and `findings`.
 *
 * @module
 */
import { same, type Text } from "../base/i18n.ts";

/**
 * A finding's status: `yes` it holds, `no` it does not, `not-checked` when
 * a premise it depends on failed (it is then never reported as `no`).
 */
export type FindingStatus = "yes" | "no" | "not-checked";

/** One finding of an invariant, about the answer's own evidence. */
export interface Finding {
  /** Whether it held. */
  status: FindingStatus;
  /** What it says, with the answer's own values, in both languages. */
  text: Text;
}

/** The verdict on one answer to one exercise. */
export interface Verdict {
  /** Every finding is `yes` (and nothing stopped the judging). */
  passed: boolean;
  /** Why nothing could be judged (empty, malformed, invalid step, extra line), or null. */
  reason: Text | null;
  /** The answer went over a bound (steps, bytes per step, search work); `reason` says which. */
  overLimit: boolean;
  /** The findings, in the exercise's order. */
  findings: Finding[];
  /** After a pass: why it came out this way, about this answer's own run and values. */
  why: Text | null;
  /**
   * For a prediction: what really happened, one line per fact. Present only
   * after a correct guess or when the caller asked to reveal; a wrong guess
   * never shows it.
   */
  revealed: Text[] | null;
  /** The lines to print, in order: the reason or the findings, the verdict line, then the why or the reveal. */
  feedback: Text[];
}

/** The mark printed before a finding of each status. */
export const FINDING_MARK: Readonly<Record<FindingStatus, Text>> = {
  yes: same("[ok]"),
  no: same("[no]"),
  "not-checked": same("[--]"),
};
