/**
 * The SDK lens and the corrections of issue 21, under the plain permissions
 * (the runs against the SDK itself are in sdk_conformance_test.ts). Each
 * step names the correction it keeps from coming back.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { behaviourText, sdkLensLines } from "../../lib/content/sdk_lens.ts";
import { SDK_ROWS } from "../../lib/content/_sdk_guardrail_rows.ts";
import {
  APPROVAL_ROWS,
  TOOL_TYPE_ROWS,
} from "../../lib/content/_sdk_tool_rows.ts";
import {
  SDK_JS_VERSION,
  SDK_PY_COMMIT,
} from "../../lib/content/sdk_sources.ts";
import { explanation, TOPICS } from "../../lib/content/explain.ts";
import { Lab } from "../../lib/mod.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { renderTimeline, timelineOf } from "../../lib/views/timeline.ts";
import { cli } from "../_helpers/helpers.ts";

const CJK = /[\u3400-\u9fff]/;
/** A file and line (or lines) in a source tree. */
const CITED = /^[\w@./-]+(\s[\w/.-]+)*:\d+(-\d+)?(, \d+)*( \([\w, ]+\))?$/;

Deno.test("sdk lens: every row says, per SDK, how it was verified", async (t) => {
  await t.step(
    "correction 1: Python is cited at the commit read, file:line",
    () => {
      assert.equal(SDK_PY_COMMIT, "7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7");
      const facts = [
        ...SDK_ROWS.map((r) => [r.id, r.python.verified] as const),
        ...TOOL_TYPE_ROWS.map((r) => [r.id, r.python.verified] as const),
        ...APPROVAL_ROWS.map((r) => [r.id, r.python.verified] as const),
      ];
      for (const [id, verified] of facts) {
        assert.equal(verified.how, "read", id);
        if (verified.how !== "read") continue;
        assert.ok(verified.at.length > 0, id);
        for (const at of verified.at) assert.match(at, CITED, `${id}: ${at}`);
      }
      const cites = (id: string) =>
        (SDK_ROWS.find((r) => r.id === id)!.python.verified as {
          at: readonly string[];
        })
          .at.join(" ");
      // Where each behaviour lives, as the source check found it.
      for (
        const id of [
          "tool_input_reject",
          "tool_input_raise",
          "tool_output_reject",
          "tool_output_raise",
        ]
      ) {
        assert.match(
          cites(id),
          /src\/agents\/run_internal\/tool_execution\.py:/,
          id,
        );
      }
      assert.match(cites("agent_input_parallel"), /src\/agents\/run\.py:/);
    },
  );
  await t.step("correction 1: the lens claims nothing for v0.23.1", () => {
    for (const lang of ["en", "zh"] as const) {
      const text = sdkLensLines("parallel_input_guardrail", lang).join("\n");
      assert.ok(text.includes(SDK_PY_COMMIT), lang);
      assert.doesNotMatch(
        text,
        /match the article's v0\.23\.1|与文章核对的 v0\.23\.1 一致/,
      );
    }
    const en = sdkLensLines("output_rejected", "en").join(" ").replace(
      /\s+/g,
      " ",
    );
    assert.match(en, /pyproject says 0\.22\.0/);
    assert.match(
      en,
      /not in the source read, so nothing here is claimed for v0\.23\.1/,
    );
    assert.match(
      en,
      new RegExp(
        `verified against @openai/agents-core ${
          SDK_JS_VERSION.replaceAll(".", "\\.")
        } by the conformance tests`,
      ),
    );
  });
  await t.step(
    "JS rows not run cite the package file they were read in",
    () => {
      for (const row of [...SDK_ROWS, ...TOOL_TYPE_ROWS]) {
        const v = row.js.verified;
        if (v.how === "read") {
          for (const at of v.at) {
            assert.match(
              at,
              /^@openai\/agents-core dist\/[\w.]+\.d\.ts:\d+/,
              row.id,
            );
          }
        }
      }
      // The ones that need a hosted service are cited, and say so.
      const hosted = TOOL_TYPE_ROWS.find((r) => r.id === "hosted_tool")!;
      assert.equal(hosted.js.verified.how, "read");
      assert.match(hosted.js.note!.en, /hosted service, so cited, not run/);
    },
  );
});

Deno.test("sdk lens: the prose comes from the fields", async (t) => {
  await t.step(
    "a changed field changes the sentence, in both languages",
    () => {
      for (const row of SDK_ROWS) {
        for (const lang of ["en", "zh"] as const) {
          const before = behaviourText("js", row.js, lang);
          const flipped = { ...row.js, continues: !row.js.continues };
          assert.notEqual(behaviourText("js", flipped, lang), before, row.id);
          const ran = {
            ...row.js,
            toolRan: row.js.toolRan === "no" ? "yes" as const : "no" as const,
          };
          assert.notEqual(behaviourText("js", ran, lang), before, row.id);
        }
      }
    },
  );
  await t.step("each field reads as its value", () => {
    const raise = SDK_ROWS.find((r) => r.id === "tool_input_raise")!;
    assert.equal(
      behaviourText("js", raise.js, "en"),
      "JS throwException: model called (tokens spent): yes; tool ran: no; " +
        "model is sent next: nothing; run continues: no; ends with: " +
        "ToolInputGuardrailTripwireTriggered (inside ToolCallError)",
    );
    assert.equal(
      behaviourText("python", raise.python, "zh"),
      "Python raise_exception：模型被调用（已耗 token）：是；工具执行：否；" +
        "模型接着收到：什么也没有；运行继续：否；结束于：" +
        "ToolInputGuardrailTripwireTriggered",
    );
  });
  await t.step(
    "every topic, both languages: 80 columns, full-width punctuation",
    () => {
      for (const topic of TOPICS) {
        for (const lang of ["en", "zh"] as const) {
          for (const line of sdkLensLines(topic, lang)) {
            assert.ok(displayWidth(line) <= 80, line);
            if (lang === "zh") {
              assert.doesNotMatch(line, /[\u3400-\u9fff][:,]/, line);
            } else {
              assert.doesNotMatch(line, CJK, line);
            }
          }
        }
      }
    },
  );
});

Deno.test("sdk lens: the corrections of the source check stay made", async (t) => {
  const row = (id: string) => SDK_ROWS.find((r) => r.id === id)!;
  await t.step(
    "correction 3: the agent output guardrail's wording, and tool_use_behavior",
    () => {
      const out = row("agent_output");
      for (const b of [out.python, out.js]) {
        assert.match(
          b.note!.en,
          /the guardrail function receives the final output/,
        );
        assert.match(b.note!.en, /the model receives nothing from it/);
      }
      const text = sdkLensLines("compensation_can_fail", "en").join(" ");
      assert.doesNotMatch(text, /its own answer/);
      const final = row("agent_output_tool_final");
      assert.match(final.what.en, /tool_use_behavior/);
      assert.match(final.js.note!.en, /does see the tool's output/);
    },
  );
  await t.step(
    "correction 4: runInParallel is named with its default, and the outputSchema edge case",
    () => {
      const parallel = row("agent_input_parallel");
      assert.match(
        parallel.what.en,
        /runInParallel: true \(the default in both\)/,
      );
      const edge = row("tool_input_reject_schema");
      assert.deepEqual(
        [edge.js.continues, edge.js.wrappedIn, edge.python.continues],
        [false, "ToolCallError", true],
      );
      assert.match(edge.js.note!.en, /still so at 0\.20\.0/);
    },
  );
  await t.step(
    "the parallel input guardrail, per SDK: tokens certain, tools depend",
    () => {
      const parallel = row("agent_input_parallel");
      assert.deepEqual(
        [parallel.python.modelCalled, parallel.python.toolRan],
        [true, "depends"],
      );
      assert.deepEqual([parallel.js.modelCalled, parallel.js.toolRan], [
        true,
        "no",
      ]);
      for (const lang of ["en", "zh"] as const) {
        const e = explanation("parallel_input_guardrail", lang);
        const text = `${e.happened} ${e.why}`;
        assert.ok(text.includes(SDK_PY_COMMIT.slice(0, 8)), lang);
        assert.ok(text.includes(`@openai/agents-core ${SDK_JS_VERSION}`), lang);
      }
      const en = explanation("parallel_input_guardrail", "en");
      assert.match(en.happened, /a model of the\s+Python SDK's scheduling/);
      assert.match(en.why, /sees the user's input, not the tool's arguments/);
      assert.match(en.why, /overlaps the first turn only/);
      assert.match(en.why, /tokens were spent/);
    },
  );
  await t.step(
    "correction 5: a key_conflict writes no draft but a key_conflict receipt",
    async () => {
      for (const lang of ["en", "zh"] as const) {
        assert.match(explanation("key_conflict", lang).why, /key_conflict/);
      }
      assert.doesNotMatch(
        explanation("key_conflict", "en").why,
        /nothing is written/,
      );
      // And the lab does what the lesson says, seen from a second connection.
      const dir = await Deno.makeTempDir({ prefix: "guardlab-lens-" });
      const lab = Lab.open(`${dir}/lab.sqlite`);
      try {
        await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
        const second = await lab.run({
          job: "JOB-001",
          topic: "river",
          copies: 3,
        });
        assert.equal(second.status, "key_conflict");
        const observer = new DatabaseSync(`${dir}/lab.sqlite`, {
          readOnly: true,
        });
        try {
          const drafts = observer.prepare("SELECT job FROM drafts").all();
          const receipts = observer.prepare(
            "SELECT status FROM receipts ORDER BY attempt",
          ).all()
            .map((r) => r.status);
          assert.equal(drafts.length, 1);
          assert.deepEqual(receipts, ["accepted", "key_conflict"]);
        } finally {
          observer.close();
        }
      } finally {
        lab.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
});

Deno.test("sdk lens: the article's Chinese terms (correction 6)", async (t) => {
  await t.step("the parallel timeline says Agent 输入护栏, not 前检", () => {
    const timeline = timelineOf({
      events: [
        "arguments_valid",
        "business_started",
        "effect_committed",
        "input_tripwire",
      ],
      outcome: { kind: "result", status: "input_rejected", released: null },
      draftExists: true,
      receiptAttempt: 1,
      receiptStatus: "input_rejected",
      refusal: "batch_limit",
      inputGuardrail: "parallel",
    });
    const zh = renderTimeline(timeline, undefined, "zh").join("\n");
    assert.match(zh, /Agent 输入护栏 +\[\.\.\] 并行中/);
    assert.match(zh, /Agent 护栏结论 +\[no\] 拒绝/);
    assert.doesNotMatch(zh, /前检/);
    const en = renderTimeline(timeline, undefined, "en").join("\n");
    assert.match(en, /a model of the Python SDK's scheduling/);
  });
  await t.step("the receipt before the fix is 修正前的回执", async () => {
    const r = await cli(["demo", "article", "--lang", "zh"]);
    const text = r.out.join("\n");
    assert.match(text, /修正前的回执声称 #1/);
    assert.doesNotMatch(text, /朴素/);
  });
  await t.step(
    "insert_naive is 对照实现 (the article's word), a Snapshot is a Snapshot, sequential is 阻塞",
    async () => {
      const policy = (await cli(["demo", "policy", "--lang", "zh"])).out.join(
        "\n",
      );
      assert.match(policy, /对照实现/);
      assert.doesNotMatch(policy, /错误对照/);
      assert.match(policy, /Snapshot/);
      assert.doesNotMatch(policy, /朴素|快照/);
      assert.match(explanation("naive_stale", "zh").happened, /对照实现/);
      assert.match(
        explanation("restored_value_old_revision", "zh").happened,
        /Snapshot/,
      );
      assert.match(
        explanation("sequential_input_guardrail", "zh").happened,
        /阻塞/,
      );
      assert.match(
        sdkLensLines("sequential_input_guardrail", "zh").join(""),
        /（阻塞）/,
      );
      // No screen outside the exercises (issue 19's) uses the old words.
      for (const topic of TOPICS) {
        const e = explanation(topic, "zh");
        assert.doesNotMatch(
          `${e.happened}${e.why}${e.next}`,
          /朴素|快照|前检结论|错误对照/,
          topic,
        );
      }
    },
  );
});

Deno.test("sdk lens: the compensations are guardlab's extension, and demo article shows them (correction 2)", async (t) => {
  await t.step(
    "labelled as the extension, with the article's sentence as origin",
    () => {
      for (
        const name of ["compensation_confirmed", "compensation_failed"] as const
      ) {
        assert.equal(explanation(name, "en").lab, "extension");
        assert.match(explanation(name, "en").happened, /guardlab's extension/);
        assert.match(explanation(name, "zh").happened, /“补偿本身也可能失败”/);
      }
    },
  );
  await t.step("the text shows both, with their own commit point", async () => {
    const en = (await cli(["demo", "article"])).out.join("\n");
    assert.match(en, /^compensation_confirmed$/m);
    assert.match(en, /^compensation_failed$/m);
    assert.match(en, /--- compensation's commit point: void committed/);
    assert.match(
      en,
      /--- compensation's commit point: not reached; the draft stands/,
    );
    assert.match(en, /ledger: compensation requested, never confirmed/);
    assert.match(en, /retry of the same request: key_voided/);
    const zh = (await cli(["demo", "article", "--lang", "zh"])).out.join("\n");
    assert.match(zh, /补偿的提交点：作废已提交/);
    assert.match(zh, /账本：补偿已请求、未确认/);
    assert.match(zh, /出处是文章的提醒“补偿本身也可能失败”/);
  });
  await t.step("the SVG shows them", async () => {
    const svg = (await cli(["demo", "article", "--format", "svg"])).out.join(
      "\n",
    );
    assert.match(svg, />compensation_failed</);
    assert.match(svg, /requested, never confirmed/);
    assert.match(
      svg,
      /compensation&apos;s commit point: void committed|compensation's commit point: void committed/,
    );
  });
  await t.step("demo --help names them", async () => {
    const en = (await cli(["demo", "--help"])).out.join(" ").replace(
      /\s+/g,
      " ",
    );
    assert.match(en, /guardlab's own extension: a compensation/);
    assert.match(en, /"requested, never confirmed"/);
    const zh = (await cli(["demo", "--help", "--lang", "zh"])).out.join("");
    assert.match(zh, /补偿本身也可能失败/);
  });
});

Deno.test("sdk lens: the program imports the agents SDK in one file only, the host run in process; the lens's facts come from tests", () => {
  const walk = (dir: URL): URL[] =>
    [...Deno.readDirSync(dir)].flatMap((e) =>
      e.isDirectory
        ? walk(new URL(`${e.name}/`, dir))
        : e.name.endsWith(".ts")
        ? [new URL(e.name, dir)]
        : []
    );
  const files = [
    new URL("../../main.ts", import.meta.url),
    ...walk(new URL("../../lib/", import.meta.url)),
  ];
  assert.ok(files.length > 20);
  for (const file of files) {
    // agents-core 0.20.0 as an agent host run in process (exercise 20,
    // accept host --example), reached only through a dynamic import.
    if (file.pathname.endsWith("/lib/accept/_agents_sdk.ts")) continue;
    assert.doesNotMatch(
      Deno.readTextFileSync(file),
      // An import of it, by the import map's name or an npm: specifier.
      /(?:\bfrom\s+|\bimport\(\s*)["'](?:npm:)?@openai\/agents/,
      file.pathname,
    );
  }
  // Tests load it by its import map name, which pins an exact version.
  const deps = Deno.readTextFileSync(
    new URL("../_helpers/deps.ts", import.meta.url),
  );
  assert.match(deps, /import\("@openai\/agents-core"\)/);
  const map = Deno.readTextFileSync(
    new URL("../../import_map.json", import.meta.url),
  );
  assert.match(
    map,
    /"@openai\/agents-core": "npm:@openai\/agents-core@\d+\.\d+\.\d+"/,
  );
});
