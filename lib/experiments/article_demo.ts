/**
 * The article's other claims as fixed scenarios, each in a fresh ledger of
 * its own: the receipt before the fix and after it, and the agent-level
 * input guardrail run in parallel and in sequence, and a compensation that
 * succeeds and one that fails. They return what the lab
 * did and what a second connection sees; the expected answers are
 * hand-written in `fixtures/expected-article.json`.
 *
 * @module
 */
import { join } from "node:path";
import { InjectedFailure } from "../timing/errors.ts";
import { countRows, openObserver } from "../store/db.ts";
import { compensate, type CompensationFault } from "../timing/compensation.ts";
import { type Faults, Lab } from "../timing/lab.ts";
import type { Attempt, RunOutput } from "../timing/attempt.ts";
import { DEMO_ARGS } from "./demo.ts";

/** One scenario: what the call returned (or raised), and the ledger's rows. */
export interface ArticleOutcome {
  /** The result object, or the raised object. */
  output: RunOutput;
  /** Rows a second connection counts afterwards. */
  rows: { drafts: number; receipts: number };
}

/** What the article demo did, scenario by scenario. */
export interface ArticleDemoResult {
  /** The original receipt code under RAISE(IGNORE): accepted, with no receipt. */
  naive_receipt: ArticleOutcome;
  /** The checked receipt on the same fixture: audit_unavailable. */
  checked_receipt: ArticleOutcome;
  /** copies=4 with the input guardrail in parallel: the draft is committed first. */
  parallel_input_guardrail: ArticleOutcome;
  /** The same request with the guardrail in sequence: nothing written. */
  sequential_input_guardrail: ArticleOutcome;
  /** A compensation that voids a rejected draft; the key's retry is refused. */
  compensation_confirmed: CompensationOutcome;
  /** A compensation that fails before its commit: requested, never confirmed. */
  compensation_failed: CompensationOutcome;
}

/** A compensation scenario: what it returned, a retry, and the ledger's facts. */
export interface CompensationOutcome {
  /** The compensation's result, or what it raised. */
  compensation: Record<string, unknown>;
  /** A retry of the same request afterwards. */
  retry: RunOutput;
  /** What a second connection sees. */
  rows: {
    drafts: number;
    receipts: number;
    compensation: string | null;
    compensation_receipts: number;
  };
}

/** One article scenario as the timeline view needs it. */
export interface ArticleAttempt {
  /** Scenario key in {@linkcode ArticleDemoResult}. */
  scenario: keyof ArticleDemoResult;
  /** What the attempt produced. */
  attempt: Attempt;
}

/**
 * A rejected draft, then its compensation (failing at `failAt`, if given),
 * then a retry of the same request, in a ledger of its own.
 */
async function compensation(
  folder: string,
  failAt: CompensationFault | undefined,
): Promise<CompensationOutcome> {
  const path = join(
    folder,
    `article-compensation-${failAt ?? "confirmed"}.sqlite`,
  );
  const lab = Lab.open(path);
  try {
    await lab.run(DEMO_ARGS, { badOutput: true });
    let result: Record<string, unknown>;
    try {
      result = { ...compensate(lab.ledger, DEMO_ARGS.job, failAt) };
    } catch (error) {
      if (!(error instanceof InjectedFailure)) throw error;
      result = { raised: "injected", message: error.message };
    }
    const retry = (await lab.observe(DEMO_ARGS)).output;
    const observer = openObserver(path);
    try {
      const state = observer.prepare(
        "SELECT state FROM compensations WHERE job=?",
      ).get(DEMO_ARGS.job) as { state: string } | undefined;
      return {
        compensation: result,
        retry,
        rows: {
          drafts: countRows(observer, "drafts"),
          receipts: countRows(observer, "receipts"),
          compensation: state?.state ?? null,
          compensation_receipts: countRows(observer, "compensation_receipts"),
        },
      };
    } finally {
      observer.close();
    }
  } finally {
    lab.close();
  }
}

function counted(path: string): { drafts: number; receipts: number } {
  // A second connection: what was committed, not what the writer holds.
  const observer = openObserver(path);
  try {
    return {
      drafts: countRows(observer, "drafts"),
      receipts: countRows(observer, "receipts"),
    };
  } finally {
    observer.close();
  }
}

/** Run the article demo; every scenario gets its own ledger inside `folder`. */
export async function articleDemo(
  folder: string,
): Promise<{ result: ArticleDemoResult; attempts: ArticleAttempt[] }> {
  const attempts: ArticleAttempt[] = [];
  const scenario = async (
    name: keyof ArticleDemoResult,
    raw: unknown,
    faults: Faults,
    ignoreReceipts = false,
  ): Promise<ArticleOutcome> => {
    const path = join(folder, `article-${name}.sqlite`);
    const lab = Lab.open(path);
    try {
      // Trusted fixture on this scenario's own ledger, never tool input.
      if (ignoreReceipts) lab.ledger.setReceiptFault("ignore");
      const seen = await lab.observe(raw, faults);
      attempts.push({ scenario: name, attempt: seen.attempt });
      return { output: seen.output, rows: counted(path) };
    } finally {
      lab.close();
    }
  };
  const result: ArticleDemoResult = {
    naive_receipt: await scenario(
      "naive_receipt",
      DEMO_ARGS,
      { receipt: "naive" },
      true,
    ),
    checked_receipt: await scenario("checked_receipt", DEMO_ARGS, {}, true),
    parallel_input_guardrail: await scenario(
      "parallel_input_guardrail",
      { ...DEMO_ARGS, copies: 4 },
      { inputGuardrail: "parallel" },
    ),
    sequential_input_guardrail: await scenario(
      "sequential_input_guardrail",
      { ...DEMO_ARGS, copies: 4 },
      { inputGuardrail: "sequential" },
    ),
    compensation_confirmed: await compensation(folder, undefined),
    compensation_failed: await compensation(folder, "before_commit"),
  };
  return { result, attempts };
}
