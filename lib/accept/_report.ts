/**
 * The report of `guardlab accept`: one row per case and write tool, and
 * what the whole run found. These are the shapes `--json` prints, field for
 * field: scripts rely on their names, so a field is added, never renamed
 * (chapter 8 lists them).
 *
 * @module
 */
import type { CaseName, Verdict, VerdictClass } from "./cases.ts";
import type { Channel } from "../wire/channel.ts";
import type { Oracle } from "./oracle.ts";
import type {
  Notice,
  Outcome,
  Problem,
  TimelineEvent,
  ToolHints,
} from "./session.ts";
import type { CaseHistory, NotRunReason } from "./_history.ts";

export type { NotRunReason } from "./_history.ts";

/** How one run of the acceptance test is set up. */
export interface AcceptOptions {
  /** The oracle. */
  readonly oracle: Oracle;
  /** The cases to run, in order. */
  readonly cases: readonly CaseName[];
  /** N for the concurrent cases. */
  readonly copies: number;
  /** The bound of every wait for an answer. */
  readonly timeoutMs: number;
  /**
   * How long after sending `cancel-after-send` cancels (`--cancel-after-ms`);
   * when absent, half the median latency measured before it in this run.
   */
  readonly cancelAfterMs?: number;
  /** Only the write tool of this name, when given. */
  readonly tool?: string;
  /**
   * Start another server of the same kind, over the same store (a second
   * process, a restart); absent when guardlab did not start the server
   * (`--url`), and the cases that need it are not run.
   */
  readonly start?: () => Promise<Channel>;
  /** The bound of each initialize (default: the answer bound, at least 30 s). */
  readonly startTimeoutMs?: number;
}

/** One declared hint a verdict of this run contradicts. */
export interface Contradiction {
  /** The hint, by its name in `annotations`. */
  readonly hint: keyof ToolHints;
  /** What the tool declared. */
  readonly declared: boolean;
  /** The case whose verdict contradicts it. */
  readonly case: CaseName;
  /** That verdict. */
  readonly verdict: Verdict;
  /** The effect that case counted. */
  readonly effect: number | null;
}

/** One answer the client's calls got from a server, whether or not the client was shown it. */
export interface AnswerSeen {
  /** The case's call number. */
  readonly call: number;
  /** How it ended. */
  readonly outcome: Outcome;
  /** What it said, cut and inert (absent when nothing came). */
  readonly text?: string;
  /** Milliseconds from send to answer (a measure, never judged on). */
  readonly ms?: number;
  /** Which server process answered, in a case that starts its own. */
  readonly process?: number;
  /** An HTTP API's status. */
  readonly status?: number;
  /** A JSON-RPC error's code. */
  readonly code?: number;
}

/** Where `cancel-after-send` placed its cancel, and why there. */
export interface CancelPlan {
  /** The delay after the send, in ms. */
  readonly after_ms: number;
  /** `flag`: --cancel-after-ms; `measured`: half the median latency measured before; `default`: nothing measured. */
  readonly from: "flag" | "measured" | "default";
  /** The median latency it was chosen from, when measured. */
  readonly median_ms?: number;
  /** Whether the cancel was sent: false when the answer came first. */
  readonly sent: boolean;
}

/** One row of the matrix: a case run against one write tool. */
export interface CaseResult {
  /** The case. */
  readonly case: CaseName;
  /** The write tool. */
  readonly tool: string;
  /** Which entry of the oracle's tools it is, from 1 (an oracle may name a tool twice, with other calls). */
  readonly entry: number;
  /** What the client saw from each of its calls, in order (a withheld answer is `no-answer`). */
  readonly client_saw: readonly Outcome[];
  /** What the server answered each call, with its text, in call order. */
  readonly answers: readonly AnswerSeen[];
  /**
   * The effect counted by key at the end (concurrent-distinct, two-processes:
   * how many keys were kept), or null when it could not be counted.
   */
  readonly effect: number | null;
  /** N, for the concurrent cases. */
  readonly copies?: number;
  /** The effect guardlab counted before the retry (the read a careful client makes first). */
  readonly effect_before_retry?: number | null;
  /** crash-after-commit: the effect the read saw before the kill. */
  readonly effect_before_kill?: number | null;
  /** The effect of `other_call`'s arguments, for same-key-other-arguments. */
  readonly effect_other?: number | null;
  /** same-key-other-arguments: how much of the first arguments' effect is left (`effect` less `effect_other`). */
  readonly effect_old?: number | null;
  /** Concurrent cases: how many calls answered an error while their effect exists. */
  readonly told_failed?: number;
  /** rejected: whether the effect was counted under the bad call's own key or (it carries none) call's. */
  readonly counted_under?: "bad_call" | "call";
  /** cancel-after-send: where the cancel was placed. */
  readonly cancel?: CancelPlan;
  /** annotations: the write tool's declared hints. */
  readonly hints?: ToolHints;
  /** annotations: the read tool's declared hints. */
  readonly read_hints?: ToolHints;
  /** annotations: each declared hint a verdict of this run contradicts. */
  readonly contradicted?: readonly Contradiction[];
  /** concurrent-same, with a conflict the oracle declares: how many copies got it. */
  readonly conflicts?: number;
  /** Whether the repeat got the first answer back, the same (its digest): the stored result. */
  readonly replayed?: boolean;
  /** key-lifetime: how long guardlab waited before the retry, and the lifetime the oracle states. */
  readonly waited_ms?: number;
  /** key-lifetime: the lifetime the oracle states, in ms. */
  readonly lifetime_ms?: number;
  /** NOT-RUN: why the case tested nothing. */
  readonly not_run?: NotRunReason;
  /** The verdict. */
  readonly verdict: Verdict;
  /** Its class. */
  readonly class: VerdictClass;
  /** Verdicts reported as information beside it. */
  readonly info: readonly Verdict[];
  /** What the server did wrong during the case. */
  readonly problems: readonly Problem[];
  /** What was noted and set aside (it decided nothing). */
  readonly notices: readonly Notice[];
  /** The `{run}` of the case, and the key it used. */
  readonly run: string;
  /** The business key the case counted under. */
  readonly key: string;
  /** The case's steps, lane by lane (drawn, never judged). */
  readonly timeline: readonly TimelineEvent[];
  /** What happened, as data: the record the verdict is judged from (`accept judge` judges it again). */
  readonly history: CaseHistory;
}

/** What a whole run found. */
export interface AcceptReport {
  /** The server's name and version, as it said at initialize. */
  readonly server: { readonly name: string; readonly version: string };
  /** What the server did wrong before the first case. */
  readonly startup_problems: readonly Problem[];
  /** The oracle's write tools the server did not list. */
  readonly unlisted: readonly string[];
  /** Why tools/list could not be read to its end, when it could not: its answer never came (or was past the message bound), was an error, or held no list. */
  readonly list_failed?: "no-answer" | "error" | "not-a-list";
  /** The hints each tool the oracle names declares (write and read tools the server lists). */
  readonly hints: Readonly<Record<string, ToolHints>>;
  /** One row per case and tool. */
  readonly results: readonly CaseResult[];
  /** How many rows are unsafe. */
  readonly unsafe: number;
  /** How many rows are inconclusive. */
  readonly inconclusive: number;
}
