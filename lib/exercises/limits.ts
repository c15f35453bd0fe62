/**
 * The caps every answer is judged under, in one place: whatever a student
 * hands in, a check or a grade ends in bounded time and memory. The README
 * states them ("Bounds").
 *
 * @module
 */

/**
 * The most steps one answer may run: 200. Every exercise takes a handful; the
 * cap keeps a crafted answer (thousands of runs, then a `receipts` step
 * repeated) from holding the ledger's whole history once per step.
 */
export const MAX_ANSWER_STEPS = 200;

/**
 * The most bytes held for one step: 64 KiB for its line, and again for the
 * JSON it printed. With {@linkcode MAX_ANSWER_STEPS}, an answer's evidence is
 * at most about 25 MiB, whatever it asks for.
 */
export const MAX_STEP_BYTES = 64 << 10;

/**
 * The most candidate checks the engine makes for one answer: with the caps
 * above, a search over an answer's steps ends in well under a second.
 */
export const MAX_JUDGE_WORK = 500_000;
