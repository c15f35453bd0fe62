/**
 * The report of `guardlab accept host`: one row per case and variant of
 * the tool, and what the whole run found, field for field as `--json`
 * prints it (fields are added, never renamed).
 *
 * @module
 */
import type {
  HostCaseName,
  HostTransport,
  HostVariant,
  Verdict,
  VerdictClass,
} from "./cases.ts";
import type { HostHistory } from "./_host_history.ts";
import type { HostJudgement } from "./_host_checker.ts";

/** One row: a case run against one variant of the tool, judged. */
export interface HostCaseResult
  extends Omit<HostJudgement, "verdict" | "class" | "info"> {
  /** The case. */
  readonly case: HostCaseName;
  /** The tool's variant. */
  readonly variant: HostVariant;
  /** How the tool was offered. */
  readonly transport: HostTransport;
  /** The verdict. */
  readonly verdict: Verdict;
  /** Its class. */
  readonly class: VerdictClass;
  /** Verdicts reported beside it, as information. */
  readonly info: readonly Verdict[];
  /** The clients the host named at initialize (name and version), one per connection that got that far. */
  readonly clients: readonly string[];
  /** The key of the model's first call, and of its call under a new key. */
  readonly key: string;
  /** The new key. */
  readonly new_key: string;
  /** How long the case took, in ms (a measure, never judged on). */
  readonly ms: number;
  /** The last lines the host wrote (stdout and stderr), cut and inert: what to read when it never reached the tool. */
  readonly host_output: readonly string[];
  /** What happened: the record the verdict is judged from (`accept judge` judges it again). */
  readonly history: HostHistory;
}

/** What a run of `accept host` found. */
export interface HostReport {
  /** What kind of report this is (`accept judge` tells the two apart by it). */
  readonly kind: "accept-host";
  /** The host's program (the first word of its command, its folder left out: the rest may hold what is not for a report). */
  readonly host: { readonly program: string };
  /** How the tool was offered. */
  readonly transport: HostTransport;
  /** Present when the host ran in guardlab's own process (`accept host --example`): no socket, no process of its own. */
  readonly in_process?: true;
  /** The limit of each case, in ms. */
  readonly case_ms: number;
  /** One row per case and variant. */
  readonly results: readonly HostCaseResult[];
  /** How many rows are unsafe. */
  readonly unsafe: number;
  /** How many rows are inconclusive. */
  readonly inconclusive: number;
}
