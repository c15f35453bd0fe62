/**
 * What `explain` says around the texts it explains, in both languages: the
 * labels of an explanation, and the SDK lens's words and labels. The
 * explanations themselves are content tables of their own (`_scenarios.ts`,
 * `lessons.ts`), as are the SDK rows (`_sdk_guardrail_rows.ts`,
 * `_sdk_tool_rows.ts`).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The labels before an explanation's three texts. */
export const EXPLAIN_LABELS = {
  happened: { en: "What happened: ", zh: "发生了什么：" },
  why: { en: "Why: ", zh: "原因：" },
  next: { en: "Safe next step: ", zh: "安全的下一步：" },
} as const satisfies Record<string, Text>;

/** The group a topic belongs to, as a reader names it. */
export const LAB_LABELS = {
  timing: { en: "timing", zh: "时间线实验" },
  policy: { en: "policy", zh: "规则实验" },
  article: { en: "article", zh: "文章" },
  extension: { en: "extension", zh: "guardlab 扩展" },
} as const satisfies Record<string, Text>;

/** A topic with its group: in a list (indented), and as a heading. */
export const TOPIC_LINES = {
  listed: (topic: string, group: Text): Text => ({
    en: `  ${topic}  (${group.en})`,
    zh: `  ${topic}（${group.zh}）`,
  }),
  heading: (topic: string, group: Text): Text => ({
    en: `${topic} (${group.en})`,
    zh: `${topic}（${group.zh}）`,
  }),
} as const;

/** The SDK lens's words for the rows' field values. */
export const SDK_LENS_WORDS = {
  yes: { en: "yes", zh: "是" },
  no: { en: "no", zh: "否" },
  depends: { en: "depends on timing", zh: "取决于时机" },
  tool_output: { en: "the tool's output", zh: "工具的输出" },
  reject_message: { en: "the reject message", zh: "拒绝消息" },
  nothing: { en: "nothing", zh: "什么也没有" },
  before_approval: { en: "before the approval interrupt", zh: "审批中断之前" },
  after_approval: {
    en: "after approval, right before execution",
    zh: "批准之后、执行之前",
  },
} as const satisfies Record<string, Text>;

/** The SDK lens's labels, headings and notes; `{…}` are filled from the rows and sources. */
export const SDK_LENS_MESSAGES = {
  header: {
    en:
      "SDK lens: {topic} (guardlab runs no SDK; each row says how it was verified)",
    zh: "SDK 视角：{topic}（guardlab 不运行任何 SDK；每行注明核实方式）",
  },
  none: {
    en:
      "  No guardrail behaviour matches this topic (a cancel, a receipt or a commit condition is the application's own).",
    zh: "  本课题不对应任何护栏行为（取消、回执和提交条件是应用自己的事）。",
  },
  marked: {
    en: "  This topic is the rows marked →.",
    zh: "  本课题对应标有 → 的行。",
  },
  model: { en: "model called (tokens spent)", zh: "模型被调用（已耗 token）" },
  tool: { en: "tool ran", zh: "工具执行" },
  next: { en: "model is sent next", zh: "模型接着收到" },
  continues: { en: "run continues", zh: "运行继续" },
  error: { en: "ends with", zh: "结束于" },
  wrapped: {
    en: "{error} (inside {wrapper})",
    zh: "{error}（包在 {wrapper} 里）",
  },
  ledger: { en: "ledger", zh: "账本" },
  guarded: {
    en: "tool input and output guardrails run",
    zh: "工具输入与输出护栏运行",
  },
  checks: { en: "tool input guardrail runs", zh: "工具输入护栏运行于" },
  commit: { en: "commit point", zh: "提交点" },
  and: { en: " and ", zh: "，以及" },
  run: {
    en: "JS @openai/agents-core {js}: run, verified by the conformance tests",
    zh: "JS @openai/agents-core {js}：已运行，由一致性测试核实",
  },
  read: {
    en: "Python {py} (read at {commit}): {at}",
    zh: "Python {py}（读取于提交 {commit}）：{at}",
  },
  readJs: {
    en: "JS @openai/agents-core {js}: read, {at}",
    zh: "JS @openai/agents-core {js}：只读未运行，{at}",
  },
  sources: { en: "Sources:", zh: "来源：" },
  more: {
    en: "  Which tool types pass through tool guardrails at all: explain " +
      "tool_types --sdk; a tool that needs approval: explain " +
      "approval_recheck --sdk.",
    zh: "  哪些工具类型会经过工具护栏：explain tool_types --sdk；" +
      "需要审批的工具：explain approval_recheck --sdk。",
  },
  statuses: {
    en:
      "  guardlab's statuses (input_rejected, output_rejected, ...) are the lab's own receipt fields, not SDK status names.",
    zh:
      "  guardlab 的状态名（input_rejected、output_rejected 等）是本实验自己的回执字段，并非 SDK 状态名。",
  },
  separator: { en: "; ", zh: "；" },
  labelled: { en: "{label}: {value}", zh: "{label}：{value}" },
} as const satisfies Record<string, Text>;
