/**
 * `guardlab ledger --timeline`: every attempt in order from the receipts,
 * each with its marks and what the commit point saw; a draft no receipt
 * records is drawn as an attempt. Expectations are written by hand.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertUsageError, cli, TEST_ROOT } from "../_helpers/helpers.ts";
import { XMLValidator } from "../_helpers/deps.ts";
import { historyOf } from "../../lib/views/ledger_timeline.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

async function session(name: string, runs: string[][]) {
  for (const args of runs) {
    await cli(["run", "--ledger", name, ...args]);
  }
}

Deno.test("ledger --timeline: an agent's session, attempt by attempt", async (t) => {
  const name = `t-tl-${crypto.randomUUID().slice(0, 6)}`;
  await session(name, [
    runFlags(),
    runFlags(),
    runFlags({ copies: 3 }),
    runFlags({ job: "JOB-002", copies: 4 }),
    [...runFlags({ job: "JOB-003" }), "--bad-output"],
    [...runFlags({ job: "JOB-004" }), "--cancel-at", "after_business"],
    [...runFlags({ job: "JOB-005" }), "--audit-failure"],
    runFlags({ job: "JOB-005" }),
  ]);
  const file = join(TEST_ROOT, name, "lab.sqlite");
  const before = Deno.readFileSync(file);

  await t.step("text, English", async () => {
    const r = await cli(["ledger", "--ledger", name, "--timeline"]);
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.deepEqual(r.out, [
      "8 attempts in order: 7 with a receipt, 1 without (a draft no receipt records)",
      "  | commit point  [ok] passed  [no] refused  [!!] failed  [xx] cancelled",
      "  [..] in parallel  [ ] not reached  [??] unknown",
      "#1  JOB-001  accepted  committed",
      "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
      "#2  JOB-001  accepted  reused",
      "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
      "#3  JOB-001  key_conflict  not reached",
      "    args [ok] > input [ok] > business [no] | output [ ] > receipt [ok]",
      "      business refused: key exists with other arguments: no write",
      "#4  JOB-002  input_rejected  not reached",
      "    args [ok] > input [no] > business [ ] | output [ ] > receipt [ok]",
      "#5  JOB-003  output_rejected  committed",
      "    args [ok] > input [ok] > business [ok] | output [no] > receipt [ok]",
      "      output check refused: output contract: not the draft asked for",
      "#6  JOB-004  cancelled  committed",
      "    args [ok] > input [ok] > business [ok] | after commit [xx] > output [ ] >",
      "        receipt [ok]",
      "      cancel arrived after commit: draft stays",
      // The audit failure left the draft and no receipt: drawn as an
      // attempt, before the retry that reused it.
      "(no receipt)  JOB-005  committed, and no receipt records it",
      "    args [ok] > input [??] > business [ok] | output [??] > receipt [!!]",
      "      input check unknown: no receipt says how it was judged",
      "      output check unknown: no receipt says how it was judged",
      "      receipt missing: no receipt records this commit",
      "#7  JOB-005  accepted  reused",
      "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
    ]);
  });

  await t.step(
    "text, Chinese: full-width punctuation after Chinese",
    async () => {
      const r = await cli([
        "ledger",
        "--ledger",
        name,
        "--timeline",
        "--lang",
        "zh",
      ]);
      assert.deepEqual(r.out.slice(0, 3), [
        "按顺序共 8 次调用：7 次有回执，1 次没有（没有回执记录的草稿）",
        "  | 提交点  [ok] 通过  [no] 拒绝  [!!] 失败  [xx] 取消",
        "  [..] 并行中  [ ] 未到达  [??] 不明",
      ]);
      assert.deepEqual(r.out.slice(-7, -2), [
        "（无回执）  JOB-005  已提交，却没有回执记录它",
        "    参数 [ok] > 前检 [??] > 业务写入 [ok] | 后检 [??] > 回执 [!!]",
        "      前检不明：没有回执说明它如何被判定",
        "      后检不明：没有回执说明它如何被判定",
        "      回执缺失：没有回执记录这次提交",
      ]);
      assert.ok(
        r.out.includes("      取消在提交之后才到达，草稿留下"),
      );
      for (const line of r.out) {
        assert.doesNotMatch(line, /[\u4e00-\u9fff][:,]/, line);
      }
    },
  );

  await t.step("json: the commit point of each attempt", async () => {
    const r = await cli(["ledger", "--ledger", name, "--timeline", "--json"]);
    const view = JSON.parse(r.out[0]) as {
      attempts: { receipt: number | null; commit: string }[];
    };
    assert.deepEqual(view.attempts.map((a) => [a.receipt, a.commit]), [
      [1, "committed"],
      [2, "reused"],
      [3, "not reached"],
      [4, "not reached"],
      [5, "committed"],
      [6, "committed"],
      [null, "committed"],
      [7, "reused"],
    ]);
  });

  await t.step(
    "svg: one lane per attempt, valid XML, both languages",
    async () => {
      for (const lang of ["en", "zh"]) {
        const r = await cli([
          "ledger",
          "--ledger",
          name,
          "--timeline",
          "--format",
          "svg",
          "--lang",
          lang,
        ]);
        const svg = r.out.join("\n");
        assert.equal(XMLValidator.validate(svg), true);
        assert.deepEqual(
          [...svg.matchAll(/data-commit="([^"]+)"/g)].map((m) => m[1]),
          [
            "committed",
            "reused",
            "not reached",
            "not reached",
            "committed",
            "committed",
            "committed",
            "reused",
          ],
        );
        assert.ok(svg.includes(lang === "zh" ? "（无回执）" : "(no receipt)"));
      }
    },
  );

  await t.step("the view changed no byte of the ledger", () => {
    assert.deepEqual(Deno.readFileSync(file), before);
  });

  await t.step("--format without --timeline is a usage error", async () => {
    assertUsageError(
      await cli(["ledger", "--ledger", name, "--format", "svg"]),
      /--format needs --timeline/,
    );
  });
  await cli(["reset", "--ledger", name]);
});

Deno.test("ledger --timeline: a draft with no receipt at all is drawn, last", () => {
  const h = historyOf([], ["JOB-009"], []);
  assert.deepEqual(h.attempts.map((a) => [a.receipt, a.job]), [[
    null,
    "JOB-009",
  ]]);
  assert.equal(h.attempts[0].timeline.commit, "committed");
});

Deno.test("ledger --timeline: a hostile ledger of many receipts draws the latest, counts the rest", () => {
  const receipts = Array.from({ length: 700 }, (_, i) => ({
    attempt: i + 1,
    job: "JOB-001",
    status: "input_rejected",
    effect_exists: false,
    events: ["arguments_valid"],
  }));
  const h = historyOf(receipts, [], []);
  assert.equal(h.attempts.length, 500);
  assert.equal(h.omitted, 200);
  assert.equal(h.attempts[0].receipt, 201);
});

Deno.test("ledger --timeline: a receipt status guardlab never writes is drawn as unknown, not passed", () => {
  const events = ["arguments_valid", "business_started", "effect_committed"];
  const h = historyOf(
    [
      {
        attempt: 1,
        job: "JOB-001",
        status: "output_rejected\x1b[31m",
        effect_exists: true,
        events,
      },
      {
        attempt: 2,
        job: "JOB-002",
        status: "passed",
        effect_exists: true,
        events,
      },
      {
        attempt: 3,
        job: "JOB-003",
        status: "output_rejected",
        effect_exists: true,
        events,
      },
    ],
    ["JOB-001", "JOB-002", "JOB-003"],
    [],
  );
  const marks = h.attempts.map((a) =>
    a.timeline.after.find((r) => r.stage === "receipt")!.mark
  );
  // The mark drives the text and the SVG alike, in both languages.
  assert.deepEqual(marks, ["unknown", "unknown", "passed"]);
});

Deno.test("ledger --timeline: one attempt is one attempt, in both languages", async () => {
  const name = `t-tl-${crypto.randomUUID().slice(0, 6)}`;
  await session(name, [runFlags()]);
  const [en, zh] = await Promise.all(
    ["en", "zh"].map((lang) =>
      cli(["ledger", "--ledger", name, "--timeline", "--lang", lang])
    ),
  );
  assert.equal(
    en.out[0],
    "1 attempt in order: 1 with a receipt, 0 without (a draft no receipt records)",
  );
  assert.equal(
    zh.out[0],
    "按顺序共 1 次调用：1 次有回执，0 次没有（没有回执记录的草稿）",
  );
});
