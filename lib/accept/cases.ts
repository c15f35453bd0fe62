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
  "two-processes",
  "crash-after-commit",
  // Last: it checks the tool's declared hints against the verdicts above.
  "annotations",
] as const;

/** One case's name. */
export type CaseName = typeof CASE_NAMES[number];

/** The cases that run N copies at once (`--copies N`). */
export const CONCURRENT_CASES: readonly CaseName[] = [
  "concurrent-distinct",
  "concurrent-same",
  "two-processes",
];

/** The cases that start servers of their own (not run against a `--url` server, which guardlab did not start). */
export const STARTING_CASES: readonly CaseName[] = [
  "two-processes",
  "crash-after-commit",
];

/**
 * Every verdict, by its exact name. The names are stable: scripts and
 * course files match on them; a name is never reused for another meaning
 * (chapter 8 lists the meanings that changed).
 */
export const VERDICTS = [
  "ONCE",
  "NONE",
  "DUPLICATED",
  "NO-EFFECT",
  "EFFECT-DESPITE-REJECTION",
  "ACCEPTED-BAD-CALL",
  "REFUSAL-AS-SUCCESS",
  "FALSE-FAILURE",
  "EFFECT-DESPITE-CANCEL",
  "CANCEL-TOO-LATE",
  "ALL-KEPT",
  "LOST",
  "SOME-REFUSED",
  "LOST-ON-RESTART",
  "CONFLICT-REPORTED",
  "SILENT-CONFLICT",
  "OVERWRITTEN",
  "ANNOTATION-CONTRADICTED",
  "HINTS-HOLD",
  "NOTHING-PROMISED",
  "READ-HINT-MISSING",
  "NO-ANSWER",
  "SERVER-EXITED",
  "PROTOCOL-VIOLATION",
  "READ-FAILED",
  "NOT-JUDGED",
  "SETUP-FAILED",
  "NOT-RUN",
] as const;

/** One verdict's name. */
export type Verdict = typeof VERDICTS[number];

/** What a verdict means for whoever ships the tool. */
export type VerdictClass = "safe" | "unsafe" | "info" | "inconclusive";

/** The class of each verdict: the one place it is stated (exit codes, the summary, reports are derived from it). */
export const VERDICT_CLASS: Readonly<Record<Verdict, VerdictClass>> = {
  "ONCE": "safe",
  "NONE": "unsafe",
  "DUPLICATED": "unsafe",
  "NO-EFFECT": "safe",
  "EFFECT-DESPITE-REJECTION": "unsafe",
  "ACCEPTED-BAD-CALL": "unsafe",
  // Answered without isError, nothing written: a host reads the answer as
  // a success, whatever its words say.
  "REFUSAL-AS-SUCCESS": "unsafe",
  "FALSE-FAILURE": "unsafe",
  "EFFECT-DESPITE-CANCEL": "info",
  "CANCEL-TOO-LATE": "info",
  "ALL-KEPT": "safe",
  "LOST": "unsafe",
  // Every call answered success was kept, every call refused left nothing:
  // the client knows which to send again.
  "SOME-REFUSED": "safe",
  "LOST-ON-RESTART": "unsafe",
  "CONFLICT-REPORTED": "safe",
  "SILENT-CONFLICT": "unsafe",
  "OVERWRITTEN": "info",
  "ANNOTATION-CONTRADICTED": "unsafe",
  "HINTS-HOLD": "safe",
  "NOTHING-PROMISED": "info",
  "READ-HINT-MISSING": "info",
  "NO-ANSWER": "inconclusive",
  "SERVER-EXITED": "inconclusive",
  "PROTOCOL-VIOLATION": "unsafe",
  "READ-FAILED": "inconclusive",
  // The read already counted a key no call had used: its count proves nothing.
  "NOT-JUDGED": "inconclusive",
  "SETUP-FAILED": "inconclusive",
  // A case that tested nothing (see its reason).
  "NOT-RUN": "info",
};

/** The verdicts each case can reach, plus the broken-server ones. */
export const CASE_VERDICTS: Readonly<Record<CaseName, readonly Verdict[]>> = {
  "once": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "rejected": [
    "NO-EFFECT",
    "EFFECT-DESPITE-REJECTION",
    "ACCEPTED-BAD-CALL",
    "REFUSAL-AS-SUCCESS",
    "NOT-RUN",
  ],
  "lost-reply-retry": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "cancel-after-send": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "concurrent-distinct": [
    "ALL-KEPT",
    "LOST",
    "SOME-REFUSED",
    "DUPLICATED",
    "FALSE-FAILURE",
  ],
  "concurrent-same": ["ONCE", "NONE", "DUPLICATED", "FALSE-FAILURE"],
  "same-key-other-arguments": [
    "CONFLICT-REPORTED",
    "SILENT-CONFLICT",
    "OVERWRITTEN",
    "DUPLICATED",
    "FALSE-FAILURE",
    "NONE",
    "NOT-RUN",
  ],
  "two-processes": [
    "ALL-KEPT",
    "LOST",
    "SOME-REFUSED",
    "DUPLICATED",
    "FALSE-FAILURE",
    "NOT-RUN",
  ],
  "crash-after-commit": [
    "ONCE",
    "LOST-ON-RESTART",
    "NONE",
    "DUPLICATED",
    "FALSE-FAILURE",
    "NOT-RUN",
  ],
  "annotations": [
    "HINTS-HOLD",
    "ANNOTATION-CONTRADICTED",
    "NOTHING-PROMISED",
    "NOT-RUN",
  ],
};

/** The verdicts reported beside a verdict, as information, by the case that reports them. */
export const CASE_INFO: Readonly<
  Partial<Record<CaseName, readonly Verdict[]>>
> = {
  "cancel-after-send": ["EFFECT-DESPITE-CANCEL", "CANCEL-TOO-LATE"],
  "annotations": ["READ-HINT-MISSING"],
};

/** The verdicts any case can reach when the server or its read tool breaks. */
export const BROKEN_VERDICTS: readonly Verdict[] = [
  "NO-ANSWER",
  "SERVER-EXITED",
  "PROTOCOL-VIOLATION",
  "READ-FAILED",
  "NOT-JUDGED",
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
