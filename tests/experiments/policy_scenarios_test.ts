/**
 * The policy scenarios are defined once (lib/experiments/policy_scenarios.ts)
 * and run twice: by the demo's own runner and, as `script` lines, by the
 * `script` runner that `explain` draws. These tests hold the two runs to the
 * same outcomes, and the definition to the demo's whole result.
 */
import assert from "node:assert/strict";
import expectedPolicy from "../../fixtures/expected-policy.json" with {
  type: "json",
};
import { policyDemo } from "../../lib/experiments/demo.ts";
import {
  POLICY_SCENARIOS,
  type PolicyScriptStep,
  scriptLines,
} from "../../lib/experiments/policy_scenarios.ts";
import { type Output, ScriptSession } from "../../lib/experiments/script.ts";
import { labFilesIn } from "../../lib/sandbox/sandbox.ts";

/** A `script` step's printed object read as the demo reports that step. */
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
    case "policy.change":
      return output;
  }
}

Deno.test("policy scenarios: defined once, run alike", async (t) => {
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
    "the script runner reports what the demo reports, step by step",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "guardlab-scenarios-" });
      try {
        const demo: Record<string, unknown> = { ...await policyDemo(dir) };
        assert.deepEqual(demo, expectedPolicy);
        for (const scenario of POLICY_SCENARIOS) {
          const place = await Deno.makeTempDir({ dir, prefix: scenario.name });
          const session = new ScriptSession({
            ...labFilesIn(place),
            trusted: [dir],
          });
          try {
            const lines = scriptLines(scenario);
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
                  reported(step, output),
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
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
});
