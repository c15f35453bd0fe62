/**
 * The one line a model reads first from create_draft says where the call
 * was stopped, and never "nothing written" over a committed draft: a
 * parallel input guardrail's verdict arrives after the commit point, and
 * argument validation is not the input check. Each call runs on a real
 * lab, the draft is read through a second connection, and the line is the
 * hand-written one, both languages side by side.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { say } from "../../lib/base/i18n.ts";
import { draftResult, summaryOf } from "../../lib/mcp/_results.ts";
import type { Faults } from "../../lib/timing/lab.ts";
import { tempLab } from "../_helpers/helpers.ts";

async function line(args: unknown, faults: Faults = {}) {
  await using s = await tempLab();
  const seen = await s.lab.observe(args, faults);
  const texts = (["en", "zh"] as const).map((lang) =>
    say(
      summaryOf(draftResult(s.lab, { session: 1, call: 1 }, args, seen, lang)),
      lang,
    )
  );
  const observer = new DatabaseSync(s.path, { readOnly: true });
  try {
    const draft = observer.prepare("SELECT 1 FROM drafts").get() !== undefined;
    return { en: texts[0], zh: texts[1], draft };
  } finally {
    observer.close();
  }
}

Deno.test("mcp summary: a parallel guardrail's late refusal says the draft was committed", async () => {
  assert.deepEqual(
    await line({ job: "JOB-001", topic: "river", copies: 4 }, {
      inputGuardrail: "parallel",
    }),
    {
      en: "the input guardrail, running in parallel, refused after the " +
        "commit point (batch_limit: at most 3 copies per call), but the " +
        "draft JOB-001 exists: it was committed before the verdict and " +
        "stays until it is compensated (the same request is refused again " +
        "on a retry); receipt #1",
      zh: "并行的输入护栏在提交点之后才拒绝（batch_limit：每次最多 3 份），" +
        "但草稿 JOB-001 存在：它在结论到达之前就已提交，在被补偿之前一直留着" +
        "（同一请求重试仍会被拒绝）；回执 #1",
      draft: true,
    },
  );
});

Deno.test("mcp summary: the argument check and the input check are named apart, the rule said once", async () => {
  assert.deepEqual(
    await line({ job: "JOB-001", topic: "river", copies: "x" }),
    {
      en: "refused by argument validation, nothing written: copies: an " +
        "integer from 1 to 9; receipt #1",
      zh: "参数校验拒绝，什么也没写：copies：1 到 9 的整数；回执 #1",
      draft: false,
    },
  );
  assert.deepEqual(await line({ job: "JOB-001", topic: "river", copies: 4 }), {
    en: "refused by the input check, nothing written: batch_limit: at most " +
      "3 copies per call; receipt #1",
    zh: "被前检拒绝，什么也没写：batch_limit：每次最多 3 份；回执 #1",
    draft: false,
  });
});

Deno.test("mcp summary: a key conflict names its rule once", async () => {
  await using s = await tempLab();
  await s.lab.observe({ job: "JOB-001", topic: "river", copies: 2 }, {});
  const args = { job: "JOB-001", topic: "river", copies: 3 };
  const seen = await s.lab.observe(args, {});
  const structured = draftResult(
    s.lab,
    { session: 1, call: 2 },
    args,
    seen,
    "en",
  );
  assert.deepEqual(summaryOf(structured), {
    en: "refused: JOB-001 exists with other arguments, nothing written " +
      "(same_key_different_arguments); receipt #2",
    zh: "拒绝：JOB-001 已以其他参数存在，什么也没写" +
      "（same_key_different_arguments）；回执 #2",
  });
});
