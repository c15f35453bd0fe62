/**
 * `accept` against fixture servers written for these tests, one per
 * verdict: each server gets the effect wrong in one way (or breaks the
 * protocol in one way), and the matrix must name exactly that. The
 * expected matrices are written by hand, from what each fixture does.
 */
import assert from "node:assert/strict";
import {
  CASE_INFO,
  CASE_VERDICTS,
  type CaseName,
  type Verdict,
  VERDICT_CLASS,
} from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { InitializeFailed } from "../../lib/accept/session.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import {
  acceptScreen,
  timelineLines,
} from "../../lib/accept/views/accept_view.ts";
import {
  acceptFixture as accept,
  CAN_START,
  matrixOf,
  NEEDS_START,
  storedUnder,
} from "../_helpers/accept_helpers.ts";

const CORRECT = [
  "once: ONCE",
  "rejected: NO-EFFECT",
  "lost-reply-retry: ONCE",
  "cancel-after-send: ONCE +EFFECT-DESPITE-CANCEL",
  "concurrent-distinct: ALL-KEPT",
  "concurrent-same: ONCE",
  "same-key-other-arguments: CONFLICT-REPORTED",
  "two-processes: ALL-KEPT",
  "crash-after-commit: ONCE",
  // It declares idempotentHint: true, destructiveHint: false, and keeps both.
  "annotations: HINTS-HOLD",
];

/**
 * CORRECT with the rows of `cases` replaced; the annotations row is that
 * of a server whose hints promise nothing (put_note says only
 * `readOnlyHint: false`) unless `rows` says otherwise.
 */
function correctBut(rows: Record<string, string>): string[] {
  const all: Record<string, string> = {
    "annotations": "NOTHING-PROMISED",
    ...rows,
  };
  return CORRECT.map((l) => {
    const name = l.split(":")[0];
    return name in all ? `${name}: ${all[name]}` : l;
  });
}

const EXPECTED: Record<string, string[]> = {
  correct: CORRECT,
  none: correctBut({
    "once": "NONE",
    "lost-reply-retry": "NONE",
    "cancel-after-send": "NONE",
    "concurrent-distinct": "LOST",
    "concurrent-same": "NONE",
    // The first call already left nothing: the case stops there.
    "same-key-other-arguments": "NONE",
    "two-processes": "LOST",
    "crash-after-commit": "NONE",
  }),
  duplicates: correctBut({
    "lost-reply-retry": "DUPLICATED",
    "cancel-after-send": "DUPLICATED +EFFECT-DESPITE-CANCEL",
    "concurrent-same": "DUPLICATED",
    // The other text is appended beside the first: two effects, one key.
    "same-key-other-arguments": "DUPLICATED",
    "crash-after-commit": "DUPLICATED",
    // It declares idempotentHint: true.
    "annotations": "ANNOTATION-CONTRADICTED",
  }),
  "writes-then-rejects": correctBut({
    "rejected": "EFFECT-DESPITE-REJECTION",
  }),
  // Answered success to the bad call, and wrote it: no refusal came at all.
  "accepts-bad": correctBut({ "rejected": "ACCEPTED-BAD-CALL" }),
  "false-failure": correctBut({
    "lost-reply-retry": "FALSE-FAILURE",
    "cancel-after-send": "FALSE-FAILURE +EFFECT-DESPITE-CANCEL",
    // 9 of 10 callers were told "already exists" for the note that exists.
    "concurrent-same": "FALSE-FAILURE",
    "crash-after-commit": "FALSE-FAILURE",
  }),
  "loses-updates": correctBut({
    // Its write comes a turn after the call; the read sent right after the
    // cancel (in the same write as the call and the cancel) comes first.
    "cancel-after-send": "ONCE",
    "concurrent-distinct": "LOST",
    // It keeps the first note and answers success: the other text is lost too.
    "same-key-other-arguments": "SILENT-CONFLICT",
    "two-processes": "LOST",
  }),
  "silent-conflict": correctBut({
    "same-key-other-arguments": "SILENT-CONFLICT",
  }),
  // The other text takes the first note's place: the old one is gone.
  overwrites: correctBut({
    "same-key-other-arguments": "OVERWRITTEN",
    // It declares destructiveHint: false.
    "annotations": "ANNOTATION-CONTRADICTED +READ-HINT-MISSING",
  }),
  // Correct, but it declares put_note read-only: every effect contradicts it.
  "claims-read-only": correctBut({ "annotations": "ANNOTATION-CONTRADICTED" }),
  // Reads its store once, at start, and writes all it holds at every call.
  cache: correctBut({ "two-processes": "LOST" }),
  // Writes its store only when its input ends.
  buffered: correctBut({
    "two-processes": "LOST",
    "crash-after-commit": "LOST-ON-RESTART",
  }),
  // As cache, but the first put of a process is undone when its first read
  // comes: once's put, and call 1 before the kill (answered success); the
  // retry, in a process whose load had landed, is kept. Before: ONCE, safe,
  // though the answered call had left nothing.
  "late-load": correctBut({
    "once": "NONE",
    "two-processes": "LOST",
    "crash-after-commit": "NONE",
  }),
};

for (const [mode, expected] of Object.entries(EXPECTED)) {
  Deno.test({
    name: `accept fixtures: ${mode}: the matrix names its fault` + NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      const report = await accept(mode);
      assert.deepEqual(matrixOf(report), expected);
      assert.equal(report.server.name, `fixture-${mode}`);
      // Every line of its screen, timelines too, within 80 columns.
      for (const lang of ["en", "zh"] as const) {
        const wide = acceptScreen(report, {
          source: { kind: "command" },
          timeline: true,
          exit: 0,
        }, lang).filter((l) => displayWidth(l) > 80);
        assert.deepEqual(wide, [], lang);
      }
      // Each verdict is one its case can reach, each information one its
      // case reports (cases.ts lists both).
      for (const r of report.results) {
        assert.ok(CASE_VERDICTS[r.case].includes(r.verdict), r.case);
        for (const i of r.info) {
          assert.ok(CASE_INFO[r.case]?.includes(i), `${r.case} ${i}`);
        }
      }
      assert.equal(
        report.unsafe,
        expected.filter((l) =>
          VERDICT_CLASS[l.split(": ")[1].split(" ")[0] as Verdict] === "unsafe"
        ).length,
      );
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

Deno.test({
  name:
    "accept fixtures: a tools/list that answers an error leaves the hints unknown: annotations is NOT-RUN (not-listed), never NOTHING-PROMISED, and the screen says why" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("list-fails", ["once", "annotations"]);
    // Before: NOTHING-PROMISED, "the hints promise nothing", of hints that
    // were never read (this server declares idempotentHint: true).
    assert.deepEqual(matrixOf(report), ["once: ONCE", "annotations: NOT-RUN"]);
    assert.equal(report.results[1].not_run, "not-listed");
    assert.equal(report.results[1].hints, undefined);
    assert.equal(report.list_failed, "error");
    // Nor does it say the server does not list the tool: that is not known.
    assert.deepEqual(report.unlisted, []);
    const screens = {
      en: [
        "note: tools/list could not be read to its end (it answered an error):",
        "guardlab did not see this tool in tools/list (the server does not list it",
      ],
      zh: [
        "注意：tools/list 没能读完（它应答了错误）：",
        "guardlab 没有在 tools/list 中看到这个工具",
      ],
    };
    for (const lang of ["en", "zh"] as const) {
      const screen = acceptScreen(report, {
        source: { kind: "command" },
        timeline: false,
        exit: 0,
      }, lang);
      const text = screen.map((l) => l.trim()).join(" ");
      for (const words of screens[lang]) {
        assert.ok(
          text.replaceAll(" ", "").includes(words.replaceAll(" ", "")),
          `${lang}: ${words}\n${screen.join("\n")}`,
        );
      }
      assert.deepEqual(screen.filter((l) => displayWidth(l) > 80), [], lang);
    }
  },
});

Deno.test({
  name:
    "accept fixtures: crash-after-commit whose call 1 was answered success and left nothing, before the kill and after the restart, is NONE, whatever the retry made; the row says so" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("late-load", ["crash-after-commit"]);
    const [crash] = report.results;
    assert.equal(crash.verdict, "NONE");
    assert.equal(VERDICT_CLASS[crash.verdict], "unsafe");
    assert.deepEqual(
      crash.answers.map((a) => [a.call, a.outcome, a.process]),
      [[1, "success", 1], [2, "success", 2]],
    );
    assert.equal(crash.effect_before_kill, 0);
    assert.equal(crash.effect_before_retry, 0);
    // The restarted process's load lands at its first read after a write:
    // the one after the retry, which it undoes too.
    assert.equal(crash.effect, 0);
    // The server's own store: nothing under the key.
    assert.equal(storedUnder(report, crash.key), 0);
    const said = {
      en:
        "call 1 was answered success before the kill, yet the read after that answer found no effect",
      zh: "调用 1 在强制终止前已得到成功应答，而应答之后的读取没有找到效果",
    };
    for (const lang of ["en", "zh"] as const) {
      const screen = acceptScreen(report, {
        source: { kind: "command" },
        timeline: false,
        exit: 5,
      }, lang);
      const text = screen.map((l) => l.trim()).join(" ").replaceAll(" ", "");
      assert.ok(
        text.includes(said[lang].replaceAll(" ", "")),
        `${lang}\n${screen.join("\n")}`,
      );
    }
    // The timeline's read before the kill says why it stopped at 0: the
    // answer was in (before: "reads until the effect shows: effect 0").
    const lanes = (lang: "en" | "zh") =>
      timelineLines(crash, lang).join(" ").replace(/[\s|]+/g, "");
    assert.ok(
      lanes("en").includes(
        "readsuntiltheeffectshowsortheanswerisin:effect0(process1)",
      ),
      timelineLines(crash, "en").join("\n"),
    );
    assert.ok(
      lanes("zh").includes("反复读取直到看到效果或应答到达：效果0"),
      timelineLines(crash, "zh").join("\n"),
    );
    // A kill after a commit the read saw says nothing of the kind.
    const kept = await accept("correct", ["crash-after-commit"]);
    const screen = acceptScreen(kept, {
      source: { kind: "command" },
      timeline: false,
      exit: 0,
    }, "en").join(" ");
    assert.equal(kept.results[0].effect_before_kill, 1);
    assert.ok(!screen.includes("answered success before the kill"), screen);
  },
});
