/**
 * demo and verify: the demos' JSON equals the hand-written fixtures, the
 * views show the same facts, and verify fails on any difference.
 */
import assert from "node:assert/strict";
import expectedPolicy from "../../fixtures/expected-policy.json" with {
  type: "json",
};
import expectedTiming from "../../fixtures/expected-timing.json" with {
  type: "json",
};
import expectedArticle from "../../fixtures/expected-article.json" with {
  type: "json",
};
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { runVerify } from "../../lib/cli/commands/verify/mod.ts";
import { EXPECTED, scenarioOf } from "../../lib/experiments/verify.ts";
import { cli, TEST_BASE } from "../_helpers/helpers.ts";

Deno.test("cli: demo", async (t) => {
  await t.step("--json equals the hand-written fixtures", async () => {
    const r = await cli(["demo", "--json"]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.out.join("\n")), {
      timing: expectedTiming,
      policy: expectedPolicy,
      article: expectedArticle,
    });
    assert.deepEqual(
      JSON.parse((await cli(["demo", "timing", "--json"])).out.join("\n")),
      expectedTiming,
    );
    assert.deepEqual(
      JSON.parse(
        (await cli(["demo", "policy", "--format", "json"])).out.join("\n"),
      ),
      expectedPolicy,
    );
  });

  await t.step("the timeline view shows the same facts", async () => {
    const r = await cli(["demo"]);
    assert.equal(r.code, 0);
    const text = r.out.join("\n");
    assert.match(
      text,
      /output_rejected\n(.*\n){2} {2}business +\[ok\] passed +new draft committed\n {2}--- commit point: draft committed/,
    );
    assert.match(text, /draft_rows=2/);
    assert.match(
      text,
      /checked insert with the old snapshot: refused, nothing written/,
    );
    assert.match(text, /drafts: JOB-002 copies=1 checked at rev 2/);
    for (const line of r.out) assert.ok(line.length <= 80, `too wide: ${line}`);
    assert.ok(!text.includes("\x1b["), "no colour when the Io says no");
  });

  await t.step("colour only when allowed", async () => {
    const io = memoryIo("", true, TEST_BASE);
    assert.equal(await main(["demo", "timing"], io), 0);
    assert.ok(io.stdout.join("\n").includes("\x1b[32m"));
  });
});

Deno.test("cli: verify", async (t) => {
  await t.step("passes and lists every scenario of both labs", async () => {
    const r = await cli(["verify"]);
    assert.equal(r.code, 0);
    // Each checked key is shown under the scenario it belongs to.
    const label = (lab: string, k: string) =>
      scenarioOf(k) === k ? `${lab}/${k}` : `${lab}/${scenarioOf(k)} · ${k}`;
    const scenarios = [
      ...Object.keys(expectedTiming).map((k) => `pass ${label("timing", k)}`),
      ...Object.keys(expectedPolicy).map((k) => `pass ${label("policy", k)}`),
      ...Object.keys(expectedArticle).map((k) => `pass ${label("article", k)}`),
    ];
    assert.ok(scenarios.includes("pass timing/timing demo · draft_rows"));
    assert.ok(scenarios.includes("pass policy/checked_stale · after_stale"));
    assert.deepEqual(r.out.slice(0, -1), scenarios);
    const json = JSON.parse((await cli(["verify", "--json"])).out[0]);
    assert.equal(json.ok, true);
    assert.equal(json.scenarios.length, scenarios.length);
  });

  await t.step(
    "a changed expected value fails with a readable diff",
    async () => {
      const copy = structuredClone(EXPECTED) as {
        timing: Record<string, unknown>;
        policy: Record<string, unknown>;
        article: Record<string, unknown>;
      };
      copy.timing.draft_rows = 3;
      (copy.policy as { after_recovery: unknown }).after_recovery = [[
        "JOB-002",
        1,
        1,
      ]];
      const io = memoryIo("", false, TEST_BASE);
      assert.equal(await runVerify(io, false, copy), 1);
      const text = io.stdout.join("\n");
      assert.match(
        text,
        /FAIL timing\/timing demo · draft_rows\n {2}expected: 3\n {2}actual: {3}2/,
      );
      assert.match(
        text,
        /FAIL policy\/checked_stale · after_recovery\n {2}expected: \[\["JOB-002",1,1\]\]\n {2}actual: {3}\[\["JOB-002",1,2\]\]/,
      );
      assert.match(text, /pass timing\/input_rejected/);
      assert.match(text, /2 of 21 checks differ/);
    },
  );

  await t.step("a missing scenario is a failure, not a pass", async () => {
    const copy = structuredClone(EXPECTED) as {
      timing: Record<string, unknown>;
      policy: Record<string, unknown>;
      article: Record<string, unknown>;
    };
    delete copy.timing.draft_rows;
    const io = memoryIo("", false, TEST_BASE);
    assert.equal(await runVerify(io, false, copy), 1);
    assert.match(
      io.stdout.join("\n"),
      /FAIL timing\/timing demo · draft_rows\n {2}expected: \(missing\)/,
    );
  });
});

Deno.test("cli: verify and explain mean the same scenarios", async () => {
  const { scenarioOf } = await import("../../lib/experiments/verify.ts");
  const { SCENARIOS } = await import("../../lib/content/explain.ts");
  const json = JSON.parse((await cli(["verify", "--json"])).out[0]);
  const scenarios = new Set(
    json.scenarios.map((c: { scenario: string }) => scenarioOf(c.scenario)),
  );
  scenarios.delete("timing demo");
  assert.deepEqual([...scenarios].sort(), [...SCENARIOS].sort());
});
