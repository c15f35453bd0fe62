/**
 * Every fault × checkpoint against the hand-written expectation of which
 * stage it marks (fixtures/views/stage-marks.json), then both languages of
 * the rendered view within 80 columns. The ledger is read through a second
 * connection.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Faults } from "../../lib/timing/lab.ts";
import { LANGS } from "../../lib/base/i18n.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { STAGE_IDS } from "../../lib/views/_marks.ts";
import { renderTimeline, timelineOf } from "../../lib/views/timeline.ts";
import { tempLab } from "../_helpers/helpers.ts";
import { DatabaseSync } from "node:sqlite";

interface Case {
  name: string;
  setup: ({ args: unknown; faults: Faults } | {
    receipt_fault: "ignore" | "abort";
  })[];
  args: unknown;
  faults: Faults;
  marks: Record<string, string | null>;
  commit: string;
  draft: boolean;
  caller: string;
  refusal: string | null;
}

const FIXTURE = JSON.parse(
  Deno.readTextFileSync(
    fileURLToPath(
      new URL("../../fixtures/views/stage-marks.json", import.meta.url),
    ),
  ),
) as { cases: Case[] };

function draftPresent(path: string, job: unknown): boolean {
  const observer = new DatabaseSync(path, { readOnly: true });
  try {
    return observer.prepare("SELECT 1 FROM drafts WHERE job=?").get(
      typeof job === "string" ? job : null,
    ) !== undefined;
  } finally {
    observer.close();
  }
}

Deno.test("stage marks: every fault is drawn on the stage where it happened", async (t) => {
  assert.ok(FIXTURE.cases.length >= 20);
  for (const c of FIXTURE.cases) {
    await t.step(c.name, async () => {
      await using s = await tempLab();
      for (const step of c.setup) {
        if ("receipt_fault" in step) {
          s.lab.ledger.setReceiptFault(step.receipt_fault);
        } else await s.lab.run(step.args, step.faults);
      }
      const { output, attempt } = await s.lab.observe(c.args, c.faults);
      const view = timelineOf(attempt);
      const marks = Object.fromEntries(
        STAGE_IDS.map((id) => [
          id,
          [...view.before, ...view.after].find((r) => r.stage === id)?.mark ??
            null,
        ]),
      );
      assert.deepEqual(marks, c.marks);
      assert.equal(view.commit, c.commit);
      assert.equal(view.state.draft, c.draft);
      assert.equal(
        draftPresent(s.path, (c.args as { job?: unknown }).job),
        c.draft,
        "second connection",
      );
      const caller = "raised" in output
        ? output.raised
        : output.released === null
        ? "no value"
        : "value";
      assert.equal(caller, c.caller);
      assert.equal(attempt.refusal ?? null, c.refusal);
      for (const lang of LANGS) {
        for (const line of renderTimeline(view, undefined, lang)) {
          assert.ok(displayWidth(line) <= 80, `${lang}: ${line}`);
        }
      }
    });
  }
});

Deno.test("stage marks: a refusal whose receipt then failed is drawn with its rule, in both languages", async () => {
  await using s = await tempLab();
  const { attempt } = await s.lab.observe(
    { job: "JOB-001", topic: "river", copies: 4 },
    { auditFailure: true },
  );
  const view = timelineOf(attempt);
  assert.deepEqual(renderTimeline(view, undefined, "en"), [
    "  arguments valid  [ok] passed",
    "  input check      [no] refused      batch_limit: at most 3 copies per call",
    "  business         [ ]  not reached",
    "  --- commit point: not reached; this attempt wrote no draft -----------------",
    "  output check     [ ]  not reached",
    "  receipt          [!!] failed       write failed: this attempt has no receipt",
    "  ledger: draft absent, receipt none",
    "  caller received: an exception (audit_unavailable)",
  ]);
  assert.deepEqual(renderTimeline(view, undefined, "zh"), [
    "  参数校验         [ok] 通过",
    "  前检             [no] 拒绝         batch_limit：每次最多 3 份",
    "  业务写入         [ ]  未到达",
    "  --- 提交点：未到达，本次没有写入草稿 ---------------------------------------",
    "  后检             [ ]  未到达",
    "  回执             [!!] 失败         回执写入失败：本次尝试没有回执",
    "  账本：草稿不存在，没有回执",
    "  调用方得到：异常（audit_unavailable）",
  ]);
});
