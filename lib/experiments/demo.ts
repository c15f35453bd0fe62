/**
 * The fixed demonstrations of both labs. They return what the labs did; the
 * expected answers live hand-written in `fixtures/`.
 *
 * @module
 */
import { join } from "node:path";
import { labFilesIn } from "../sandbox/sandbox.ts";
import type { DatabaseSync } from "node:sqlite";
import { InjectedFailure, InputRejected } from "../errors.ts";
import { type Faults, Lab, type RunResult } from "../timing/lab.ts";
import { observeRun, type Raised } from "../timing/outcome.ts";
import type { Attempt } from "../timing/attempt.ts";
import {
  changePolicy,
  connect,
  initialize,
  insertChecked,
  insertNaive,
  type PolicyRequest,
  precheck,
  rows,
} from "../policy/policy.ts";

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
      const seen = await observeRun(lab, raw, faults);
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

/** What the policy demo did; keys are the reference's. */
export interface PolicyDemoResult {
  /** Stale rule, naive control: the draft is written anyway. */
  naive_stale: [string, number, number][];
  /** Stale rule, checked insert: refused. */
  checked_stale: boolean;
  /** Drafts after the refused insert. */
  after_stale: [string, number, number][];
  /** A fresh pre-check of the same request. */
  fresh_check_same_request: string;
  /** An explicitly new request checked against the current rule. */
  new_input_accepted: boolean;
  /** Drafts after the recovery. */
  after_recovery: [string, number, number][];
  /** Value restored (3→1→3) but the revision moved on: refused. */
  restored_value_old_revision: boolean;
  /** Drafts after it. */
  after_restored_value: [string, number, number][];
  /** The error injected between INSERT and COMMIT. */
  precommit_error: string;
  /** Drafts after the rollback. */
  after_precommit_error: [string, number, number][];
}

/** Two real connections to one fresh database file in its own folder. */
async function withFixture<T>(
  folder: string,
  body: (reader: DatabaseSync, editor: DatabaseSync) => T,
): Promise<T> {
  const dir = await Deno.makeTempDir({ dir: folder, prefix: "policy-" });
  const path = join(dir, "fixture.sqlite");
  const reader = connect(path);
  const editor = connect(path);
  try {
    initialize(reader);
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

/** Run the four fixed interleavings of the policy lab inside `folder`. */
export async function policyDemo(folder: string): Promise<PolicyDemoResult> {
  const request: PolicyRequest = { job: "JOB-001", copies: 2 };
  const naive_stale = await withFixture(folder, (reader, editor) => {
    const seen = precheck(reader, request);
    changePolicy(editor, 1);
    insertNaive(reader, request, seen);
    return rows(editor);
  });
  const stale = await withFixture(folder, (reader, editor) => {
    const seen = precheck(reader, request);
    changePolicy(editor, 1);
    const checked_stale = insertChecked(reader, request, seen);
    const after_stale = rows(editor);
    const fresh_check_same_request = rejectionOf(() =>
      precheck(reader, request)
    );
    // A deliberately new business input, chosen by the reader, not a silent rewrite.
    const smaller: PolicyRequest = { job: "JOB-002", copies: 1 };
    const fresh = precheck(reader, smaller);
    const new_input_accepted = insertChecked(reader, smaller, fresh);
    return {
      checked_stale,
      after_stale,
      fresh_check_same_request,
      new_input_accepted,
      after_recovery: rows(editor),
    };
  });
  const restored = await withFixture(folder, (reader, editor) => {
    const seen = precheck(reader, request);
    changePolicy(editor, 1);
    changePolicy(editor, 3);
    return {
      restored_value_old_revision: insertChecked(reader, request, seen),
      after_restored_value: rows(editor),
    };
  });
  const precommit = await withFixture(folder, (reader, editor) => {
    const seen = precheck(reader, request);
    let precommit_error = "none";
    try {
      insertChecked(reader, request, seen, { failBeforeCommit: true });
    } catch (error) {
      if (!(error instanceof InjectedFailure)) throw error;
      precommit_error = error.message;
    }
    return { precommit_error, after_precommit_error: rows(editor) };
  });
  return { naive_stale, ...stale, ...restored, ...precommit };
}

function resultOf(output: RunResult | Raised): RunResult {
  if ("raised" in output) {
    throw new Error(`a demo step raised ${output.raised}: ${output.message}`);
  }
  return output;
}
