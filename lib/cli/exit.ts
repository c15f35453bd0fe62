/**
 * Exit codes: one meaning each, defined once (what each means is in
 * `messages/common.ts`). Every command declares which of them it can
 * return, and its `--help` lists exactly those.
 *
 * @module
 */

/** Exit codes, used everywhere by name. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  reconcile: 3,
  refused: 4,
  unsafe: 5,
  inconclusive: 6,
} as const;

/** One of the exit codes. */
export type ExitCode = typeof EXIT[keyof typeof EXIT];
