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

/**
 * The cases an MCP oracle runs by default, in the order `accept` runs them
 * (an oracle that declares part of the idempotency-key contract runs
 * {@linkcode ALL_CASE_NAMES}).
 */
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

/**
 * The cases of the idempotency-key contract (draft-ietf-httpapi-idempotency-key-header
 * and Stripe's documented behaviour) beyond the ones above: the stored
 * result after completion, a stored error, a missing key, the key's stated
 * lifetime. They run for every HTTP API, and for an MCP oracle that
 * declares part of the contract (a key place, a conflict, an error call, a
 * lifetime).
 */
export const CONTRACT_CASES = [
  "replay-after-completion",
  "replay-error",
  "missing-key",
  "key-lifetime",
] as const;

/** One case's name. */
export type CaseName =
  | typeof CASE_NAMES[number]
  | typeof CONTRACT_CASES[number];

/** Every case, in the order `accept` runs them: the contract's before the cases that start servers of their own. */
export const ALL_CASE_NAMES: readonly CaseName[] = [
  ...CASE_NAMES.slice(0, CASE_NAMES.indexOf("two-processes")),
  ...CONTRACT_CASES,
  ...CASE_NAMES.slice(CASE_NAMES.indexOf("two-processes")),
];

/** The cases an HTTP API runs: every case but the ones MCP alone has (a cancel notification, tools/list's hints). */
export const HTTP_CASE_NAMES: readonly CaseName[] = ALL_CASE_NAMES.filter((
  c,
) => c !== "cancel-after-send" && c !== "annotations");

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
 * accept host's own verdicts: what an agent host did between the model and
 * the tool ({@linkcode HOST_VERDICTS} adds accept's READ-FAILED).
 */
const HOST_OWN_VERDICTS = [
  "TOLD-SUCCESS",
  "RESENT-REUSED",
  "RESENT-DUPLICATED",
  "TOLD-UNKNOWN",
  "TOLD-FAILED",
  "PASSED-ON-ERROR",
  "RUN-ABORTED",
  "STILL-WAITING",
  "HOST-NOT-REACHED",
] as const;

/** accept host's information, reported beside a verdict. */
const HOST_INFO_VERDICTS = [
  "CANCELLED-AFTER-COMMIT",
  "NEW-KEY-DOUBLED",
] as const;

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
  "ONCE-AFTER-CONFLICT",
  "REPLAYED",
  "ERROR-REPLAYED",
  "ERROR-RE-RUN",
  "ERROR-NOT-STORED",
  "ERROR-NOT-REPLAYED",
  "KEY-REQUIRED",
  "KEY-NOT-REQUIRED",
  "KEY-KEPT",
  "KEY-FORGOTTEN",
  "OTHER-STATUS",
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
  ...HOST_OWN_VERDICTS,
  ...HOST_INFO_VERDICTS,
] as const;

/** One verdict's name. */
export type Verdict = typeof VERDICTS[number];

/** What a verdict means for whoever ships the tool. */
export type VerdictClass = "safe" | "unsafe" | "info" | "inconclusive";

/** The class of each verdict: the one place it is stated (exit codes, the summary, reports are derived from it). */
export const VERDICT_CLASS: Readonly<Record<Verdict, VerdictClass>> = {
  "ONCE": "safe",
  // The copies sent while the first was in flight got the conflict the
  // oracle declares retryable, and a retry after it got the stored result.
  "ONCE-AFTER-CONFLICT": "safe",
  "REPLAYED": "safe",
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
  "ERROR-REPLAYED": "safe",
  "ERROR-RE-RUN": "unsafe",
  "ERROR-NOT-STORED": "unsafe",
  // The error was not stored, but the retry left no second effect.
  "ERROR-NOT-REPLAYED": "info",
  "KEY-REQUIRED": "safe",
  // A call without a key is processed: the draft lets an operation say so.
  "KEY-NOT-REQUIRED": "info",
  "KEY-KEPT": "safe",
  "KEY-FORGOTTEN": "unsafe",
  // Refused as the draft asks, with another status than the draft's.
  "OTHER-STATUS": "info",
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
  "TOLD-SUCCESS": "safe",
  "RESENT-REUSED": "safe",
  "RESENT-DUPLICATED": "unsafe",
  // The host said what it knew; what the model does next is the model's.
  "TOLD-UNKNOWN": "safe",
  "TOLD-FAILED": "unsafe",
  // The tool's own error, answered after its commit, handed on as it came:
  // the false failure is the tool's (accept's FALSE-FAILURE), not the host's.
  "PASSED-ON-ERROR": "info",
  "RUN-ABORTED": "info",
  "STILL-WAITING": "inconclusive",
  "HOST-NOT-REACHED": "inconclusive",
  "CANCELLED-AFTER-COMMIT": "info",
  "NEW-KEY-DOUBLED": "info",
};

/** The verdicts each case can reach, plus the broken-server ones. */
export const CASE_VERDICTS: Readonly<Record<CaseName, readonly Verdict[]>> = {
  "replay-after-completion": [
    "REPLAYED",
    "ONCE",
    "NONE",
    "DUPLICATED",
    "FALSE-FAILURE",
  ],
  "replay-error": [
    "ERROR-REPLAYED",
    "ERROR-RE-RUN",
    "ERROR-NOT-STORED",
    "ERROR-NOT-REPLAYED",
    "FALSE-FAILURE",
    "NOT-RUN",
  ],
  "missing-key": [
    "KEY-REQUIRED",
    "KEY-NOT-REQUIRED",
    "EFFECT-DESPITE-REJECTION",
    "NOT-RUN",
  ],
  "key-lifetime": [
    "KEY-KEPT",
    "KEY-FORGOTTEN",
    "NONE",
    "FALSE-FAILURE",
    "NOT-RUN",
  ],
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
  "concurrent-same": [
    "ONCE",
    "ONCE-AFTER-CONFLICT",
    "NONE",
    "DUPLICATED",
    "FALSE-FAILURE",
  ],
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
  "same-key-other-arguments": ["OTHER-STATUS"],
  "missing-key": ["OTHER-STATUS"],
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
  return (ALL_CASE_NAMES as readonly string[]).includes(name);
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

/**
 * The cases of `accept host`, in the order it runs them: a call without a
 * fault first (can the host reach the model and the tool at all?), then a
 * fault after the tool's commit each. `killed-after-commit` needs a
 * process to kill (stdio); the last three need HTTP (`--url`).
 */
export const HOST_CASE_NAMES = [
  "no-fault",
  "late-reply",
  "no-reply",
  "error-after-commit",
  "killed-after-commit",
  "http-503-after-commit",
  "connection-reset-after-commit",
  "session-expired-after-commit",
] as const;

/** One case of `accept host`. */
export type HostCaseName = typeof HOST_CASE_NAMES[number];

/** How `accept host` offers its tool: a command the host starts (stdio), or a loopback URL (Streamable HTTP). */
export type HostTransport = "stdio" | "http";

/** The cases each transport runs (all of them unless `--cases` picks). */
export const HOST_TRANSPORT_CASES: Readonly<
  Record<HostTransport, readonly HostCaseName[]>
> = {
  stdio: [
    "no-fault",
    "late-reply",
    "no-reply",
    "error-after-commit",
    "killed-after-commit",
  ],
  http: [
    "no-fault",
    "late-reply",
    "no-reply",
    "error-after-commit",
    "http-503-after-commit",
    "connection-reset-after-commit",
    "session-expired-after-commit",
  ],
};

/**
 * The two tools `accept host` offers, one per run of a case: `keyed`
 * declares `idempotentHint: true` and reuses by key; `unkeyed` declares
 * `idempotentHint: false`, and every call is a new effect.
 */
export const HOST_VARIANTS = ["keyed", "unkeyed"] as const;

/** One variant of the tool. */
export type HostVariant = typeof HOST_VARIANTS[number];

/**
 * The agent hosts guardlab runs in process, with no socket and no process
 * of their own (`accept host --example NAME`, exercise 20): a real host
 * nobody here wrote, under the students' grant.
 */
export const HOST_EXAMPLE_NAMES = ["agents-core"] as const;

/** One host run in process. */
export type HostExampleName = typeof HOST_EXAMPLE_NAMES[number];

/**
 * The cases a host run in process can meet: those over HTTP (its fetch is
 * guardlab's, in process; there is no process of the tool's to kill), but
 * a connection reset, whose outcome is the fetch's own (Deno's resends the
 * request) and so not the host's when the fetch is guardlab's.
 */
export const HOST_EXAMPLE_CASES: readonly HostCaseName[] = HOST_TRANSPORT_CASES
  .http.filter((c) => c !== "connection-reset-after-commit");

/** Whether `name` is a case of `accept host`. */
export function isHostCaseName(name: string): name is HostCaseName {
  return (HOST_CASE_NAMES as readonly string[]).includes(name);
}

/** The verdicts a case of `accept host` can reach (every case: the host decides which). */
export const HOST_VERDICTS: readonly Verdict[] = [
  ...HOST_OWN_VERDICTS,
  "READ-FAILED",
];

/** The verdicts `accept host` reports beside a verdict, as information. */
export const HOST_INFO: readonly Verdict[] = HOST_INFO_VERDICTS;
