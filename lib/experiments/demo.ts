/**
 * The fixed demonstrations of both labs: they run the scenarios' steps
 * (`timing_scenarios.ts`, `policy_scenarios.ts`) and read what the labs did
 * from what the steps printed. The expected answers live hand-written in
 * `fixtures/`.
 *
 * @module
 */
import type { Attempt, RunResult } from "../timing/attempt.ts";
import {
  inFreshSession,
  inSession,
  type Reported,
  runScenario,
  type ScenarioRun,
} from "./scenario.ts";
import { scriptLine } from "./_steps.ts";
import {
  TIMING_DEMO_COUNT,
  TIMING_SCENARIOS,
  type TimingReport,
  type TimingScenarioName,
} from "./timing_scenarios.ts";
import { POLICY_SCENARIOS, type PolicyDemoResult } from "./policy_scenarios.ts";

/** What the timing demo did, scenario by scenario. */
export interface TimingDemoResult {
  /** copies=4: refused by the input check, nothing written. */
  input_rejected: RunResult;
  /** Bad output: the post-check refuses, the draft stays. */
  output_rejected: RunResult;
  /** Same key, same arguments: the draft is reused and checked again. */
  retry_same_request: RunResult;
  /** JOB-002 cancelled after commit: what was raised and whether the draft exists. */
  cancelled_after_business: { raised: string; effect_exists: boolean };
  /** Drafts in the ledger at the end. */
  draft_rows: number;
}

/** One demo attempt as the timeline view needs it. */
export interface DemoAttempt {
  /** Scenario key in {@linkcode TimingDemoResult}. */
  scenario: TimingScenarioName;
  /** What the attempt produced. */
  attempt: Attempt;
}

/** Run the timing demo in a fresh ledger inside `folder`. */
export async function timingDemo(folder: string): Promise<TimingDemoResult> {
  return (await timingDemoWithAttempts(folder)).result;
}

/**
 * Run the timing demo and also return each scenario's attempt for the
 * timeline view. The scenarios share one ledger, in demo order.
 */
export function timingDemoWithAttempts(
  folder: string,
): Promise<{ result: TimingDemoResult; attempts: DemoAttempt[] }> {
  return inSession(folder, async (session) => {
    const attempts: DemoAttempt[] = [];
    const ran = {} as Record<TimingScenarioName, ScenarioRun<TimingReport>>;
    for (const scenario of TIMING_SCENARIOS) {
      ran[scenario.name] = await runScenario(session, scenario);
      const { attempt } = ran[scenario.name];
      if (attempt) attempts.push({ scenario: scenario.name, attempt });
    }
    const count = await session.step(scriptLine(TIMING_DEMO_COUNT));
    const cancelled = ran.cancelled_after_business.reported;
    const result: TimingDemoResult = {
      input_rejected: returned(ran.input_rejected.reported.output),
      output_rejected: returned(ran.output_rejected.reported.output),
      retry_same_request: returned(ran.retry_same_request.reported.output),
      cancelled_after_business: {
        raised: String(cancelled.output?.printed.raised ?? "nothing"),
        effect_exists: cancelled.draft?.printed.exists === true,
      },
      draft_rows: Number(count.output.drafts),
    };
    return { result, attempts };
  });
}

/** A run step's result: a demo step that raised where it should return is a bug, said loudly. */
function returned(reported: Reported | undefined): RunResult {
  const printed = reported?.printed;
  if (printed === undefined || "raised" in printed) {
    throw new Error(`a demo step printed ${JSON.stringify(printed)}`);
  }
  return printed as unknown as RunResult;
}

/**
 * Run the policy lab's scenarios inside `folder`, each in a fresh database
 * of its own, and report what their steps did. The steps, and which of them
 * report what, are defined once in {@linkcode POLICY_SCENARIOS}.
 */
export async function policyDemo(folder: string): Promise<PolicyDemoResult> {
  const result: Partial<Record<keyof PolicyDemoResult, unknown>> = {};
  for (const scenario of POLICY_SCENARIOS) {
    const { reported } = await inFreshSession(
      folder,
      "policy-",
      (session) => runScenario(session, scenario),
    );
    for (const [key, step] of Object.entries(reported)) {
      result[key as keyof PolicyDemoResult] = policyOutcome(step!);
    }
  }
  return result as PolicyDemoResult;
}

/**
 * What a policy step's printed object reports: a pre-check's rejection
 * reason (or `allowed`), an insert's `inserted`, the error an injected
 * failure raised (`none` if nothing was raised), or the drafts read.
 */
function policyOutcome({ step, printed: output }: Reported): unknown {
  switch (step.op) {
    case "policy.precheck":
      if ("snapshot" in output) return "allowed";
      if (typeof output.rejected === "string") return output.rejected;
      break;
    case "policy.insert_checked":
    case "policy.insert_naive":
      if (step.op === "policy.insert_checked" && step.fail_before_commit) {
        if (output.raised === "injected") return output.message;
        if ("inserted" in output) return "none";
      } else if (typeof output.inserted === "boolean") return output.inserted;
      break;
    case "policy.rows":
      if (Array.isArray(output.rows)) return output.rows;
      break;
  }
  throw new Error(`a policy demo step printed ${JSON.stringify(output)}`);
}
