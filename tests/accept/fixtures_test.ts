/**
 * `accept` against fixture servers written for these tests, one per
 * verdict: each server gets the effect wrong in one way (or breaks the
 * protocol in one way), and the matrix must name exactly that. The
 * expected matrices are written by hand, from what each fixture does.
 */
import assert from "node:assert/strict";
import { CASE_NAMES, type CaseName } from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import type { Oracle } from "../../lib/accept/oracle.ts";
import { type AcceptReport, runAccept } from "../../lib/accept/run.ts";
import { InitializeFailed } from "../../lib/accept/session.ts";
import {
  CAN_START,
  fixtureChannel,
  matrixOf,
  NEEDS_START,
} from "../_helpers/accept_helpers.ts";

async function accept(
  mode: string,
  cases: readonly CaseName[] = CASE_NAMES,
  { oracle = EXAMPLE_ORACLE, timeoutMs = 10_000 }: {
    oracle?: Oracle;
    timeoutMs?: number;
  } = {},
): Promise<AcceptReport> {
  return await runAccept(fixtureChannel(mode), {
    oracle,
    cases,
    copies: 10,
    timeoutMs,
    cancelAfterMs: 20,
  });
}

const CORRECT = [
  "once: ONCE",
  "rejected: NO-EFFECT",
  "lost-reply-retry: ONCE",
  "cancel-after-send: ONCE +EFFECT-DESPITE-CANCEL",
  "concurrent-distinct: ALL-KEPT",
  "concurrent-same: ONCE",
  "same-key-other-arguments: CONFLICT-REPORTED",
];

const EXPECTED: Record<string, string[]> = {
  correct: CORRECT,
  none: [
    "once: NONE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: NONE",
    "cancel-after-send: NONE",
    "concurrent-distinct: LOST",
    "concurrent-same: NONE",
    "same-key-other-arguments: SILENT-CONFLICT",
  ],
  duplicates: [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: DUPLICATED",
    "cancel-after-send: DUPLICATED +EFFECT-DESPITE-CANCEL",
    "concurrent-distinct: ALL-KEPT",
    "concurrent-same: DUPLICATED",
    "same-key-other-arguments: OVERWRITTEN",
  ],
  "writes-then-rejects": [
    "once: ONCE",
    "rejected: EFFECT-DESPITE-REJECTION",
    ...CORRECT.slice(2),
  ],
  "false-failure": [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: FALSE-FAILURE",
    "cancel-after-send: FALSE-FAILURE +EFFECT-DESPITE-CANCEL",
    "concurrent-distinct: ALL-KEPT",
    "concurrent-same: ONCE",
    "same-key-other-arguments: CONFLICT-REPORTED",
  ],
  "loses-updates": [
    ...CORRECT.slice(0, 4),
    "concurrent-distinct: LOST",
    "concurrent-same: ONCE",
    // It keeps the first note and answers success: the other text is lost too.
    "same-key-other-arguments: SILENT-CONFLICT",
  ],
  "silent-conflict": [
    ...CORRECT.slice(0, 6),
    "same-key-other-arguments: SILENT-CONFLICT",
  ],
};

for (const [mode, expected] of Object.entries(EXPECTED)) {
  Deno.test({
    name: `accept fixtures: ${mode}: the matrix names its fault` + NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      const report = await accept(mode);
      assert.deepEqual(matrixOf(report), expected);
      assert.equal(report.server.name, `fixture-${mode}`);
      const unsafe = expected.filter((l) =>
        /NONE|DUPLICATED|EFFECT-DESPITE-REJECTION|FALSE-FAILURE|LOST|SILENT-CONFLICT/
          .test(l)
      ).length;
      assert.equal(report.unsafe, unsafe);
    },
  });
}

Deno.test({
  name:
    "accept fixtures: the effect is counted by key through the read tool, before and after the retry" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("duplicates", [
      "lost-reply-retry",
      "concurrent-distinct",
    ], {});
    const [lost, distinct] = report.results;
    assert.deepEqual(lost.client_saw, ["no-answer", "success"]);
    assert.equal(
      lost.effect_before_retry,
      1,
      "the withheld call had committed",
    );
    assert.equal(lost.effect, 2);
    assert.equal(distinct.effect, 10);
    assert.equal(distinct.copies, 10);
    // The timeline: the server answered call 1, guardlab withheld it, and the
    // read showed the effect before the client's retry.
    const steps = lost.timeline.map((e) =>
      `${e.lane} ${e.kind}${e.call ? ` ${e.call}` : ""}${
        e.visible ? " visible" : ""
      }`
    );
    assert.deepEqual(steps, [
      "client sent 1",
      "guardlab forwarded 1",
      "server answered 1",
      "guardlab withheld 1",
      "client gave-up 1",
      "guardlab read visible",
      "client retried 2",
      "guardlab forwarded 2",
      "server answered 2",
      "guardlab delivered 2",
      "guardlab read",
    ]);
  },
});

const HOSTILE: [string, string[], string][] = [
  ["never-answers", ["once: NO-ANSWER"], ""],
  ["answers-twice", ["once: PROTOCOL-VIOLATION"], "answered-twice"],
  ["unknown-ids", ["once: PROTOCOL-VIOLATION"], "unknown-id"],
  ["non-json", ["once: PROTOCOL-VIOLATION"], "not-json"],
  ["huge-message", ["once: PROTOCOL-VIOLATION"], "too-long"],
  ["read-fails", ["once: READ-FAILED"], ""],
  ["exits-mid-call", ["once: SERVER-EXITED", "rejected: SERVER-EXITED"], ""],
];

for (const [mode, expected, problem] of HOSTILE) {
  Deno.test({
    name:
      `accept fixtures: a hostile server (${mode}) gets a named verdict, and every wait ends` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      // The short bound only ends the wait of a server that never answers:
      // every other verdict here comes from what the server sent.
      const cases = expected.map((l) => l.split(":")[0]) as CaseName[];
      const report = await accept(mode, cases, {
        timeoutMs: mode === "never-answers" ? 400 : 10_000,
      });
      assert.deepEqual(matrixOf(report), expected);
      if (problem !== "") {
        assert.ok(
          report.results[0].problems.some((p) => p.kind === problem),
          JSON.stringify(report.results[0].problems),
        );
      }
    },
  });
}

Deno.test({
  name:
    "accept fixtures: a banner on stdout before initialize is noted, and the cases still run" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("banner", ["once"]);
    assert.deepEqual(matrixOf(report), ["once: ONCE"]);
    assert.deepEqual(report.startup_problems, [{ kind: "not-json" }]);
  },
});

Deno.test({
  name:
    "accept fixtures: a server that dies before initialize is one line with its last stderr line" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    await assert.rejects(() => accept("dies-at-start", ["once"]), (error) => {
      assert.ok(error instanceof InitializeFailed);
      assert.equal(error.why, "closed");
      assert.equal(error.tail, "fixture: cannot open its store");
      return true;
    });
  },
});

Deno.test({
  name:
    "accept fixtures: a failing setup call is SETUP-FAILED; a case the oracle has no arguments for is NOT-RUN" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const tool = EXAMPLE_ORACLE.tools[0];
    const withSetup = await accept("correct", ["once"], {
      oracle: {
        tools: [{ ...tool, setup: [{ tool: "no_such_tool", arguments: {} }] }],
      },
    });
    assert.deepEqual(matrixOf(withSetup), ["once: SETUP-FAILED"]);
    const { bad_call: _b, other_call: _o, other_count: _c, ...bare } = tool;
    const notRun = await accept("correct", [
      "rejected",
      "same-key-other-arguments",
    ], { oracle: { tools: [bare] } });
    assert.deepEqual(matrixOf(notRun), [
      "rejected: NOT-RUN",
      "same-key-other-arguments: NOT-RUN",
    ]);
  },
});
