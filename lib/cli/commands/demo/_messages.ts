/**
 * What `guardlab demo` says around the labs' own screens: its help, the
 * titles of each lab and where to go next.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `demo --help`: what it does. */
export const DEMO_HELP = {
  about: {
    en:
      `Runs the fixed scenarios of the timing lab (input rejected, output rejected
with the draft already committed, same-request retry, cancel after commit) and
of the policy lab (stale rule with the naive and the checked insert, restored
value, failure before commit), and the article's other claims (the receipt
before the fix; the Agent input guardrail in parallel, as a model of the Python
SDK's scheduling, and blocking), then guardlab's own extension: a compensation
that voids a rejected draft at its own commit point, and one that fails before
it ("requested, never confirmed"), grown from the article's warning that a
compensation can itself fail. Each runs in a fresh scratch ledger.`,
    zh:
      `运行时间线实验的固定场景（前检拒绝；草稿已提交后的后检拒绝；同一请求重试；
提交后取消）和规则实验的固定场景（规则已变时的对照实现与条件写入、数值改回、
提交前失败），以及文章的其他论断（修正前的回执；Agent 输入护栏的并行——
按 Python SDK 的调度建模——与阻塞），然后是 guardlab 自己的扩展：在自己的
提交点作废被拒草稿的补偿，以及在提交前失败的补偿（“已请求、未确认”），
出处是文章的提醒“补偿本身也可能失败”。每个都用新的临时账本。`,
  },
} as const satisfies Record<string, Text>;

/** What `demo` tells a person. */
export const DEMO_MESSAGES = {
  secondConnection: {
    en: "  a second connection sees: drafts {drafts}, receipts {receipts}",
    zh: "  另一条连接看到：草稿 {drafts} 条，回执 {receipts} 条",
  },
  /**
   * Where to go after the demo, its last lines in the text view only (never
   * under `--json` or `--format svg`, whose output goes to files): read why,
   * then prove it.
   */
  nextSteps: {
    en:
      "Next: guardlab explain list    read why each check stops where it does\n" +
      "      guardlab exercise list   prove it yourself, judged by the ledger",
    zh: "下一步：guardlab explain list    读懂每个检查为什么拦在那一步\n" +
      "        guardlab exercise list   亲手证明，由账本判定",
  },
  svgTitle: {
    en: "guardlab demo: where each check stops the call",
    zh: "guardlab 演示：每个检查拦在哪一步",
  },
  timingTitle: {
    en: "Timing lab: one call, one timeline, one SQLite ledger",
    zh: "时间线实验：一次调用、一条时间线、一个 SQLite 账本",
  },
  draftRowsNote: { en: "(JOB-001 and JOB-002)", zh: "（JOB-001 和 JOB-002）" },
  policyTitle: {
    en: "Policy lab: commit only under the rule revision that was checked",
    zh: "规则实验：只有前检所见的修订号仍然有效时才提交",
  },
  articleTitle: {
    en: "The article's other claims, then guardlab's compensation extension",
    zh: "文章的其他论断，以及 guardlab 的补偿扩展",
  },
} as const satisfies Record<string, Text>;
