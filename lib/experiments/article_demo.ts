/**
 * The article's other claims, run: each scenario of `article_scenarios.ts`
 * in a fresh ledger of its own, then what a second connection sees there.
 * The expected answers are hand-written in `fixtures/expected-article.json`.
 *
 * @module
 */
import type { Attempt, Raised, RunResult } from "../timing/attempt.ts";
import { Ledger } from "../timing/ledger.ts";
import { inFreshSession, type Reported, runScenario } from "./scenario.ts";
import {
  ARTICLE_SCENARIOS,
  type ArticleScenarioName,
} from "./article_scenarios.ts";
import { DEMO_ARGS } from "./_steps.ts";

/** One scenario: what the call returned (or raised), and the ledger's rows. */
export interface ArticleOutcome {
  /** The result object, or the raised object. */
  output: RunResult | Raised;
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
  retry: RunResult | Raised;
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
  scenario: ArticleScenarioName;
  /** What the attempt produced. */
  attempt: Attempt;
}

/** Run the article demo; every scenario gets its own ledger inside `folder`. */
export async function articleDemo(
  folder: string,
): Promise<{ result: ArticleDemoResult; attempts: ArticleAttempt[] }> {
  const attempts: ArticleAttempt[] = [];
  const result: Partial<
    Record<ArticleScenarioName, ArticleOutcome | CompensationOutcome>
  > = {};
  for (const scenario of ARTICLE_SCENARIOS) {
    result[scenario.name] = await inFreshSession(
      folder,
      `article-${scenario.name}-`,
      async (session, files) => {
        const { reported, attempt } = await runScenario(session, scenario);
        if (attempt) attempts.push({ scenario: scenario.name, attempt });
        const seen = secondConnection(files.lab);
        const { output, compensation, retry } = reported;
        if (compensation === undefined) {
          return {
            output: runOutput(output),
            rows: { drafts: seen.drafts, receipts: seen.receipts },
          };
        }
        return {
          compensation: compensation.printed,
          retry: runOutput(retry),
          rows: seen,
        };
      },
    );
  }
  return { result: result as ArticleDemoResult, attempts };
}

/** What a run step printed: its result object, or what it raised. */
function runOutput(reported: Reported | undefined): RunResult | Raised {
  if (reported === undefined) throw new Error("a demo run step is missing");
  return reported.printed as unknown as RunResult | Raised;
}

/** What a second connection sees: what was committed, not what the writer holds. */
function secondConnection(path: string): CompensationOutcome["rows"] {
  const observer = Ledger.open(path, { mode: "observe" });
  try {
    const compensation = observer.compensations()
      .find((c) => c.job === DEMO_ARGS.job);
    return {
      drafts: observer.countDrafts(),
      receipts: observer.countReceipts(),
      compensation: compensation?.state ?? null,
      compensation_receipts: compensation?.receipts ?? 0,
    };
  } finally {
    observer.close();
  }
}
