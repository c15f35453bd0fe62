/**
 * The article's other claims as demo scenarios, each defined once as its
 * steps and run in a fresh ledger of its own: the receipt before the fix and
 * after it, the Agent input guardrail in parallel and blocking, and
 * guardlab's extension, a compensation that succeeds and one that fails. The
 * demo runs these steps (`articleDemo`), and `explain` replays them as
 * `script` lines and draws them.
 *
 * @module
 */
import type { Scenario } from "./scenario.ts";
import { DEMO_ARGS, runStep, type ScriptStep } from "./_steps.ts";

/**
 * What an article scenario's steps report: the attempt's output, or a
 * compensation's result and the retry after it.
 */
export type ArticleReport = "output" | "compensation" | "retry";

// Trusted fixtures on the scenario's own ledger, never tool input.
const RECEIPTS_IGNORED: ScriptStep = { op: "fixture", receipt_fault: "ignore" };
const OUTPUT_REJECTED = runStep({}, { faults: { bad_output: true } });

/** The article's scenarios, in demo order; the last two are guardlab's compensations. */
export const ARTICLE_SCENARIOS = [
  {
    name: "naive_receipt",
    steps: [
      { step: RECEIPTS_IGNORED },
      { step: runStep({}, { receipt: "naive" }), reports: "output" },
    ],
  },
  {
    name: "checked_receipt",
    steps: [
      { step: RECEIPTS_IGNORED },
      { step: runStep(), reports: "output" },
    ],
  },
  {
    name: "parallel_input_guardrail",
    steps: [{
      step: runStep({ copies: 4 }, { input_guardrail: "parallel" }),
      reports: "output",
    }],
  },
  {
    name: "sequential_input_guardrail",
    steps: [{
      step: runStep({ copies: 4 }, { input_guardrail: "sequential" }),
      reports: "output",
    }],
  },
  {
    name: "compensation_confirmed",
    steps: [
      { step: OUTPUT_REJECTED },
      {
        step: { op: "compensate", job: DEMO_ARGS.job },
        reports: "compensation",
      },
      { step: runStep(), reports: "retry" },
    ],
  },
  {
    name: "compensation_failed",
    steps: [
      { step: OUTPUT_REJECTED },
      {
        step: {
          op: "compensate",
          job: DEMO_ARGS.job,
          faults: { fail_at: "before_commit" },
        },
        reports: "compensation",
      },
      { step: runStep(), reports: "retry" },
    ],
  },
] as const satisfies readonly Scenario<string, ArticleReport>[];

/** An article scenario's name. */
export type ArticleScenarioName = typeof ARTICLE_SCENARIOS[number]["name"];
