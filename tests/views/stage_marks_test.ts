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
