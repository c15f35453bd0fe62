/**
 * The cases of the acceptance test and the verdicts they can reach, by the
 * exact names scripts and course files rely on (`--cases`, `--json`). Each
 * verdict has a class: `safe`, `unsafe` (a fault: `accept` exits non-zero),
 * `info` (true and worth knowing, not a fault: the article's point), or
 * `inconclusive` (the server broke the protocol or the oracle could not
 * count, so nothing can be said about the effect).
 *
 * @module
 */

/** The cases, in the order `accept` runs them. */
export const CASE_NAMES = [
  "once",
  "rejected",
  "lost-reply-retry",
  "cancel-after-send",
  "concurrent-distinct",
  "concurrent-same",
  "same-key-other-arguments",
] as const;

/** One case's name. */
export type CaseName = typeof CASE_NAMES[number];

/** The cases that run N copies at once (`--copies N`). */
export const CONCURRENT_CASES: readonly CaseName[] = [
  "concurrent-distinct",
  "concurrent-same",
];

/** Every verdict, by its exact name. */
export const VERDICTS = [
  "ONCE",
  "NONE",
  "DUPLICATED",
  "NO-EFFECT",
  "EFFECT-DESPITE-REJECTION",
  "FALSE-FAILURE",
  "EFFECT-DESPITE-CANCEL",
  "ALL-KEPT",
  "LOST",
  "CONFLICT-REPORTED",
  "SILENT-CONFLICT",
  "OVERWRITTEN",
  "NO-ANSWER",
  "SERVER-EXITED",
  "PROTOCOL-VIOLATION",
  "READ-FAILED",
  "SETUP-FAILED",
  "NOT-RUN",
] as const;

/** One verdict's name. */
export type Verdict = typeof VERDICTS[number];

/** What a verdict means for whoever ships the tool. */
export type VerdictClass = "safe" | "unsafe" | "info" | "inconclusive";

/** The class of each verdict. */
export const VERDICT_CLASS: Readonly<Record<Verdict, VerdictClass>> = {
  "ONCE": "safe",
  "NONE": "unsafe",
  "DUPLICATED": "unsafe",
  "NO-EFFECT": "safe",
  "EFFECT-DESPITE-REJECTION": "unsafe",
  "FALSE-FAILURE": "unsafe",
  "EFFECT-DESPITE-CANCEL": "info",
  "ALL-KEPT": "safe",
  "LOST": "unsafe",
  "CONFLICT-REPORTED": "safe",
  "SILENT-CONFLICT": "unsafe",
  "OVERWRITTEN": "info",
  "NO-ANSWER": "inconclusive",
  "SERVER-EXITED": "inconclusive",
  "PROTOCOL-VIOLATION": "unsafe",
  "READ-FAILED": "inconclusive",
  "SETUP-FAILED": "inconclusive",
  // A case the oracle gives no arguments for (no bad_call, no other_call).
  "NOT-RUN": "info",
};

/** The verdicts each case can reach, as issue 31's table lists them, plus the broken-server ones. */
export const CASE_VERDICTS: Readonly<Record<CaseName, readonly Verdict[]>> = {
  "once": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "rejected": ["NO-EFFECT", "EFFECT-DESPITE-REJECTION", "NOT-RUN"],
  "lost-reply-retry": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "cancel-after-send": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "concurrent-distinct": ["ALL-KEPT", "LOST", "DUPLICATED"],
  "concurrent-same": ["ONCE", "NONE", "DUPLICATED"],
  "same-key-other-arguments": [
    "CONFLICT-REPORTED",
    "SILENT-CONFLICT",
    "OVERWRITTEN",
    "NOT-RUN",
  ],
};

/** The verdicts any case can reach when the server or its read tool breaks. */
export const BROKEN_VERDICTS: readonly Verdict[] = [
  "NO-ANSWER",
  "SERVER-EXITED",
  "PROTOCOL-VIOLATION",
  "READ-FAILED",
  "SETUP-FAILED",
];

/** Whether `name` is a case name. */
export function isCaseName(name: string): name is CaseName {
  return (CASE_NAMES as readonly string[]).includes(name);
}

/** The example servers built into guardlab (`accept --example NAME`), by name. */
export const EXAMPLE_NAMES = [
  "idempotent",
  "duplicates-on-retry",
  "loses-updates",
  "false-failure",
] as const;

/** One example's name. */
export type ExampleName = typeof EXAMPLE_NAMES[number];
