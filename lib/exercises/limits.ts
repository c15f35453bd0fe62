/**
 * The bounds on judging one answer, whatever a student hands in: steps run,
 * bytes held per step, and the engine's search work. Past any of them the
 * answer is "over the limit", never a crash.
 *
 * @module
 */

/** The most steps one answer may run; one more and judging stops. */
export const MAX_ANSWER_STEPS = 2000;

/** The most bytes one step's line may have (evidence keeps named fields of it only). */
export const MAX_STEP_BYTES = 64 << 10;

/** The most candidate checks the engine makes for one answer. */
export const MAX_JUDGE_WORK = 500_000;
