/**
 * Every demo, article and lesson scenario is defined once, as its steps
 * (lib/experiments/*_scenarios.ts), and run by one runner through the
 * `script` runner itself. These tests hold the definitions to the demos'
 * whole results (by the keys each step reports), replay each scenario's
 * `script` lines in a fresh session to the same outcomes, and check the
 * lines `explain` replays against lines written by hand.
 */
import assert from "node:assert/strict";
import expectedPolicy from "../../fixtures/expected-policy.json" with {
  type: "json",
};
import expectedArticle from "../../fixtures/expected-article.json" with {
  type: "json",
};
import expectedTiming from "../../fixtures/expected-timing.json" with {
  type: "json",
};
import {
  policyDemo,
  timingDemoWithAttempts,
} from "../../lib/experiments/demo.ts";
import { articleDemo } from "../../lib/experiments/article_demo.ts";
import { POLICY_SCENARIOS } from "../../lib/experiments/policy_scenarios.ts";
import { ARTICLE_SCENARIOS } from "../../lib/experiments/article_scenarios.ts";
import { TIMING_SCENARIOS } from "../../lib/experiments/timing_scenarios.ts";
import { LESSON_SCENARIOS } from "../../lib/experiments/lesson_scenarios.ts";
import {
  type ScenarioStep,
  scriptLines,
} from "../../lib/experiments/scenario.ts";
import type { PolicyScriptStep } from "../../lib/experiments/_steps.ts";
import { type Output, ScriptSession } from "../../lib/experiments/script.ts";
import { scenarioOf } from "../../lib/experiments/verify.ts";
import { SCENARIOS, stepsOf } from "../../lib/content/explain.ts";
import { LESSONS } from "../../lib/content/lessons.ts";
import { labFilesIn } from "../../lib/sandbox/sandbox.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** A `script` step's printed object read as the demo reports that step, written apart from the demo's own reading. */
function reported(step: PolicyScriptStep, output: Output): unknown {
  switch (step.op) {
    case "policy.precheck":
      return output.rejected ?? ("snapshot" in output ? "allowed" : output);
    case "policy.insert_checked":
      return step.fail_before_commit
        ? (output.raised === "injected" ? output.message : "none")
        : output.inserted;
    case "policy.insert_naive":
      return output.inserted;
    case "policy.rows":
      return output.rows;
    default:
      return output;
  }
}

/** A fresh `script` session in a folder of its own under `dir`. */
async function freshSession(dir: string, name: string): Promise<ScriptSession> {
  const place = await Deno.makeTempDir({ dir, prefix: name });
  return new ScriptSession({ ...labFilesIn(place), trusted: [dir] });
}

Deno.test("scenarios: the demo scenarios are the ones explain names, in demo order", () => {
  // Written by hand: the demo's order, timing lab, policy lab, the article.
  assert.deepEqual(SCENARIOS, [
    "input_rejected",
    "output_rejected",
    "retry_same_request",
    "cancelled_after_business",
    "naive_stale",
    "checked_stale",
    "restored_value_old_revision",
    "precommit_error",
    "naive_receipt",
    "checked_receipt",
    "parallel_input_guardrail",
    "sequential_input_guardrail",
    "compensation_confirmed",
    "compensation_failed",
  ]);
  assert.deepEqual(
    TIMING_SCENARIOS.map((s) => s.name),
    Object.keys(expectedTiming).filter((k) => k !== "draft_rows"),
  );
  assert.deepEqual(
    ARTICLE_SCENARIOS.map((s) => s.name),
    Object.keys(expectedArticle),
  );
  assert.deepEqual(LESSONS, LESSON_SCENARIOS.map((s) => s.name));
});

Deno.test("scenarios: explain replays the steps as the script lines written here by hand", () => {
  const run = '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}';
  assert.deepEqual(stepsOf("naive_receipt"), [
    '{"op":"fixture","receipt_fault":"ignore"}',
    `${run},"receipt":"naive"}`,
  ]);
  assert.deepEqual(stepsOf("compensation_failed"), [
    `${run},"faults":{"bad_output":true}}`,
    '{"op":"compensate","job":"JOB-001","faults":{"fail_at":"before_commit"}}',
    `${run}}`,
  ]);
  assert.deepEqual(stepsOf("parallel_input_guardrail"), [
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":4},' +
    '"input_guardrail":"parallel"}',
  ]);
  assert.deepEqual(stepsOf("key_conflict"), [
    `${run}}`,
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":3}}',
  ]);
  assert.deepEqual(stepsOf("naive_stale"), [
    '{"op":"policy.precheck","job":"JOB-001","copies":2,"as":"seen"}',
    '{"op":"policy.change","max_copies":1}',
    '{"op":"policy.insert_naive","job":"JOB-001","copies":2,"snapshot":"seen"}',
    '{"op":"policy.rows"}',
  ]);
  // A timing demo scenario stands on the ones before it: drawn from the
  // demo's run, never replayed alone; a prose-only lesson has no steps.
  for (const name of TIMING_SCENARIOS.map((s) => s.name)) {
    assert.deepEqual(stepsOf(name), [], name);
  }
  assert.deepEqual(stepsOf("killed_after_commit"), []);
  for (const scenario of [...POLICY_SCENARIOS, ...ARTICLE_SCENARIOS]) {
    assert.deepEqual(stepsOf(scenario.name), scriptLines(scenario));
  }
});

Deno.test("scenarios: the timing demo draws one attempt per scenario, in one ledger", async () => {
  await using dirFolder = await tempDir("guardlab-scenarios-");
  const dir = dirFolder.path;
  const { result, attempts } = await timingDemoWithAttempts(dir);
  assert.deepEqual(result, expectedTiming);
  assert.deepEqual(
    attempts.map((a) => a.scenario),
    TIMING_SCENARIOS.map((s) => s.name),
  );
  // The attempt drawn is the one reported: the retry's reuse, the cancel's stop.
  assert.ok(attempts[2].attempt.events.includes("effect_reused"));
  assert.equal(attempts[3].attempt.stoppedAt, "after_business");
  assert.equal(attempts[3].attempt.draftExists, true);
});

Deno.test("scenarios: the policy steps report the demo's whole result, and replay alike", async (t) => {
  await t.step(
    "every key of the demo's result is reported by exactly one step",
    () => {
      const keys = POLICY_SCENARIOS.flatMap((s) =>
        s.steps.flatMap((step) => [step.reports, step.rowsAfter])
      ).filter((key) => key !== undefined);
      assert.deepEqual(keys, Object.keys(expectedPolicy));
    },
  );

  await t.step(
    "a key's scenario is the one whose step reports it",
    () => {
      // Written by hand: the lesson each checked key belongs to.
      const owners: Record<string, string> = {
        naive_stale: "naive_stale",
        checked_stale: "checked_stale",
        after_stale: "checked_stale",
        fresh_check_same_request: "checked_stale",
        new_input_accepted: "checked_stale",
        after_recovery: "checked_stale",
        restored_value_old_revision: "restored_value_old_revision",
        after_restored_value: "restored_value_old_revision",
        precommit_error: "precommit_error",
        after_precommit_error: "precommit_error",
        draft_rows: "timing demo",
        output_rejected: "output_rejected",
        compensation_failed: "compensation_failed",
      };
      for (const [key, owner] of Object.entries(owners)) {
        assert.equal(scenarioOf(key), owner, key);
      }
    },
  );

  await t.step(
    "a fresh script session, read by hand, reports what the demo reports",
    async () => {
      await using dirFolder = await tempDir("guardlab-scenarios-");
      const dir = dirFolder.path;
      const demo: Record<string, unknown> = { ...await policyDemo(dir) };
      assert.deepEqual(demo, expectedPolicy);
      // The demo's JSON keeps the fixture's order of keys.
      assert.deepEqual(Object.keys(demo), Object.keys(expectedPolicy));
      for (const scenario of POLICY_SCENARIOS) {
        const lines = scriptLines(scenario);
        const session = await freshSession(dir, scenario.name);
        try {
          for (
            const [i, { step, reports, rowsAfter }] of scenario.steps
              .entries()
          ) {
            assert.equal(lines[i], JSON.stringify(step));
            const { output, policy } = await session.step(lines[i]);
            assert.ok(
              policy,
              `${scenario.name} step ${i + 1} is drawn in a lane`,
            );
            if (reports) {
              assert.deepEqual(
                reported(step as PolicyScriptStep, output),
                demo[reports],
                `${scenario.name} step ${i + 1} (${reports})`,
              );
            }
            if (rowsAfter) {
              const seen = await session.step('{"op":"policy.rows"}');
              assert.deepEqual(seen.output.rows, demo[rowsAfter], rowsAfter);
            }
          }
        } finally {
          session.close();
        }
      }
    },
  );
});

Deno.test("scenarios: the article's steps, replayed as script lines, do what the demo reports", async () => {
  await using dirFolder = await tempDir("guardlab-scenarios-");
  const dir = dirFolder.path;
  const { result, attempts } = await articleDemo(dir);
  assert.deepEqual(result, expectedArticle);
  // Only the four attempts are drawn as timelines; the compensations have a view of their own.
  assert.deepEqual(attempts.map((a) => a.scenario), [
    "naive_receipt",
    "checked_receipt",
    "parallel_input_guardrail",
    "sequential_input_guardrail",
  ]);
  for (const scenario of ARTICLE_SCENARIOS) {
    const expected: Record<string, unknown> = expectedArticle[scenario.name];
    const session = await freshSession(dir, scenario.name);
    try {
      const lines = stepsOf(scenario.name);
      const steps: readonly ScenarioStep[] = scenario.steps;
      for (const [i, { reports }] of steps.entries()) {
        const { output } = await session.step(lines[i]);
        if (reports === undefined) continue;
        assert.deepEqual(
          output,
          expected[reports],
          `${scenario.name} ${reports}`,
        );
      }
    } finally {
      session.close();
    }
  }
});
