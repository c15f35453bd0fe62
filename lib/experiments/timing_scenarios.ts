/**
 * The timing lab's demo scenarios, each defined once as its steps. They run
 * in one ledger, in this order, and each stands on the ones before it (the
 * retry finds the draft the rejected output left), so `explain` draws them
 * from the demo's own run instead of replaying one alone.
 *
 * @module
 */
import type { Scenario } from "./scenario.ts";
import { runStep, type ScriptStep } from "./_steps.ts";

/** What a timing scenario's steps report: the attempt's output, and whether its draft exists. */
export type TimingReport = "output" | "draft";

/** The timing lab's four demo scenarios, in demo order. */
export const TIMING_SCENARIOS = [
  {
    name: "input_rejected",
    steps: [{ step: runStep({ copies: 4 }), reports: "output" }],
  },
  {
    name: "output_rejected",
    steps: [{
      step: runStep({}, { faults: { bad_output: true } }),
      reports: "output",
    }],
  },
  {
    name: "retry_same_request",
    steps: [{ step: runStep(), reports: "output" }],
  },
  {
    name: "cancelled_after_business",
    steps: [
      {
        step: runStep({ job: "JOB-002" }, {
          faults: { cancel_at: "after_business" },
        }),
        reports: "output",
      },
      // Read through the second connection: the cancel did not undo the commit.
      { step: { op: "exists", job: "JOB-002" }, reports: "draft" },
    ],
  },
] as const satisfies readonly Scenario<string, TimingReport>[];

/** A timing scenario's name. */
export type TimingScenarioName = typeof TIMING_SCENARIOS[number]["name"];

/** The step after the scenarios: the drafts the whole demo left (`draft_rows`). */
export const TIMING_DEMO_COUNT: ScriptStep = { op: "count" };
