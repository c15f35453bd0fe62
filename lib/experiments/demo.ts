/**
 * The fixed demonstrations of both labs. They return what the labs did; the
 * expected answers live hand-written in `fixtures/`.
 *
 * @module
 */
import { join } from "node:path";
import { labFilesIn } from "../sandbox/sandbox.ts";
import { InjectedFailure, InputRejected } from "../timing/errors.ts";
import { type Faults, Lab } from "../timing/lab.ts";
import type { Attempt, RunOutput, RunResult } from "../timing/attempt.ts";
import {
  PolicyLab,
  type PolicyRequest,
  type Snapshot,
} from "../policy/policy.ts";
import {
  POLICY_SCENARIOS,
  type PolicyDemoResult,
  type PolicyScriptStep,
} from "./policy_scenarios.ts";

export type { PolicyDemoResult } from "./policy_scenarios.ts";

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

/** The demo request. */
export const DEMO_ARGS = { job: "JOB-001", topic: "river", copies: 2 } as const;

/** One demo attempt as the timeline view needs it. */
export interface DemoAttempt {
  /** Scenario key in {@linkcode TimingDemoResult}. */
  scenario: keyof TimingDemoResult;
  /** What the attempt produced. */
  attempt: Attempt;
}

/** Run the timing demo in a fresh ledger inside `folder`. */
export async function timingDemo(folder: string): Promise<TimingDemoResult> {
  return (await timingDemoWithAttempts(folder)).result;
}

/**
 * Run the timing demo and also return each attempt for the timeline view;
 * the cancelled attempt's events come from its receipt in the ledger.
 */
export async function timingDemoWithAttempts(
  folder: string,
): Promise<{ result: TimingDemoResult; attempts: DemoAttempt[] }> {
  const lab = Lab.open(labFilesIn(folder).lab);
  try {
    const attempts: DemoAttempt[] = [];
    const step = async (
      scenario: keyof TimingDemoResult,
      raw: unknown,
      faults?: Faults,
    ) => {
      const seen = await lab.observe(raw, faults);
      attempts.push({ scenario, attempt: seen.attempt });
      return seen.output;
    };
    // The first three scenarios return results; only the fourth is cancelled.
    const returned = async (...args: Parameters<typeof step>) =>
      resultOf(await step(...args));
    const input_rejected = await returned("input_rejected", {
      ...DEMO_ARGS,
      copies: 4,
    });
    const output_rejected = await returned("output_rejected", DEMO_ARGS, {
      badOutput: true,
    });
    const retry_same_request = await returned("retry_same_request", DEMO_ARGS);
    const cancelled = await step(
      "cancelled_after_business",
      { ...DEMO_ARGS, job: "JOB-002" },
      { cancelAt: "after_business" },
    );
    const result: TimingDemoResult = {
      input_rejected,
      output_rejected,
      retry_same_request,
      cancelled_after_business: {
        raised: "raised" in cancelled ? cancelled.raised : "nothing",
        effect_exists: lab.ledger.draftExists("JOB-002"),
      },
      draft_rows: lab.ledger.countDrafts(),
    };
    return { result, attempts };
  } finally {
    lab.close();
  }
}

/** Two real connections to one fresh database file in its own folder. */
async function withFixture<T>(
  folder: string,
  body: (reader: PolicyLab, editor: PolicyLab) => T,
): Promise<T> {
  const dir = await Deno.makeTempDir({ dir: folder, prefix: "policy-" });
  const path = join(dir, "fixture.sqlite");
  const reader = PolicyLab.open(path);
  const editor = PolicyLab.open(path);
  try {
    reader.initialize();
    return body(reader, editor);
  } finally {
    reader.close();
    editor.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function rejectionOf(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    if (error instanceof InputRejected) return error.reason;
    throw error;
  }
  return "allowed";
}

/**
 * Run the policy lab's scenarios inside `folder`, each in a fresh database
 * of its own, and report what their steps did. The steps, and which of them
 * report what, are defined once in {@linkcode POLICY_SCENARIOS}.
 */
export async function policyDemo(folder: string): Promise<PolicyDemoResult> {
  const result: Partial<Record<keyof PolicyDemoResult, unknown>> = {};
  for (const scenario of POLICY_SCENARIOS) {
    await withFixture(folder, (reader, editor) => {
      const snapshots = new Map<string, Snapshot>();
      for (const { step, reports, rowsAfter } of scenario.steps) {
        const outcome = runPolicyStep(step, { reader, editor, snapshots });
        if (reports) result[reports] = outcome;
        if (rowsAfter) result[rowsAfter] = editor.rows();
      }
    });
  }
  return result as PolicyDemoResult;
}

/** The connections and remembered snapshots of one scenario. */
interface PolicyActors {
  reader: PolicyLab;
  editor: PolicyLab;
  snapshots: Map<string, Snapshot>;
}

/** Run one step: the reader checks and writes, the editor changes the rule and reads. */
function runPolicyStep(
  step: PolicyScriptStep,
  { reader, editor, snapshots }: PolicyActors,
): unknown {
  const remembered = (name: string): Snapshot => {
    const snapshot = snapshots.get(name);
    if (snapshot === undefined) {
      throw new Error(`a policy scenario names an unknown snapshot ${name}`);
    }
    return snapshot;
  };
  switch (step.op) {
    case "policy.precheck": {
      const request: PolicyRequest = { job: step.job, copies: step.copies };
      return rejectionOf(() => {
        const seen = reader.precheck(request);
        if (step.as !== undefined) snapshots.set(step.as, seen);
      });
    }
    case "policy.change":
      editor.changePolicy(step.max_copies);
      return undefined;
    case "policy.insert_naive": {
      const request: PolicyRequest = { job: step.job, copies: step.copies };
      reader.insertNaive(request, remembered(step.snapshot));
      return true;
    }
    case "policy.insert_checked": {
      const request: PolicyRequest = { job: step.job, copies: step.copies };
      const seen = remembered(step.snapshot);
      if (!step.fail_before_commit) return reader.insertChecked(request, seen);
      try {
        reader.insertChecked(request, seen, { failBeforeCommit: true });
      } catch (error) {
        if (!(error instanceof InjectedFailure)) throw error;
        return error.message;
      }
      return "none";
    }
    case "policy.rows":
      return editor.rows();
  }
}

function resultOf(output: RunOutput): RunResult {
  if ("raised" in output) {
    throw new Error(`a demo step raised ${output.raised}: ${output.message}`);
  }
  return output;
}
