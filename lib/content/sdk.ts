/**
 * The SDK lens: what a real agent framework does with each guardrail
 * behaviour, beside what guardlab's ledger holds. guardlab runs no SDK; these
 * are documented facts, each from a cited source, and the lab's statuses are
 * not SDK status names (the article says so).
 *
 * @module
 */
import type { Lang, Text } from "../i18n.ts";
import { say } from "../i18n.ts";
import { wrap } from "../terminal.ts";

/** Where each fact below comes from. */
export const SDK_SOURCES: readonly Text[] = [
  {
    en: "the design article, pinned to OpenAI Agents SDK Python v0.23.1 " +
      "(commit c4a1d047b22488234b2ba81056e1b9b8db2127a5)",
    zh: "设计文章，固定核对 OpenAI Agents SDK Python v0.23.1" +
      "（提交 c4a1d047b22488234b2ba81056e1b9b8db2127a5）",
  },
  {
    en: "openai/openai-agents-python docs/guardrails.md, " +
      "src/agents/tool_guardrails.py, src/agents/guardrail.py and " +
      "src/agents/exceptions.py, read at commit 7f7a44f8 (its pyproject says " +
      "0.22.0; the names and defaults match the article's v0.23.1)",
    zh: "openai/openai-agents-python 的 docs/guardrails.md、" +
      "src/agents/tool_guardrails.py、src/agents/guardrail.py 与 " +
      "src/agents/exceptions.py，读取于提交 7f7a44f8（其 pyproject 为 0.22.0；" +
      "名称与默认值与文章核对的 v0.23.1 一致）",
  },
  {
    en: "@openai/agents-core 0.5.1 (JS): dist/toolGuardrail.d.ts and " +
      "dist/utils/toolGuardrails.mjs",
    zh: "@openai/agents-core 0.5.1（JS）：dist/toolGuardrail.d.ts 与 " +
      "dist/utils/toolGuardrails.mjs",
  },
];

/** One documented behaviour. */
export interface SdkRow {
  /** A short id, for the topic mapping. */
  id: string;
  /** Which guardrail, and which behaviour (Python name / JS name). */
  what: Text;
  /** Whether the tool's function runs. */
  toolRuns: Text;
  /** What the model is given. */
  modelReceives: Text;
  /** Whether the run goes on. */
  continues: Text;
  /** What guardlab's ledger holds in the matching lab scenario. */
  ledger: Text;
}

const YES = { en: "yes", zh: "是" };
const NO = { en: "no", zh: "否" };

/** The behaviours, as documented (see {@linkcode SDK_SOURCES}). */
export const SDK_ROWS: readonly SdkRow[] = [
  {
    id: "tool_input_allow",
    what: {
      en: "tool input guardrail · allow (Python) / allow (JS)",
      zh: "工具输入护栏 · allow（Python）/ allow（JS）",
    },
    toolRuns: YES,
    modelReceives: { en: "the tool's output", zh: "工具的输出" },
    continues: YES,
    ledger: { en: "the draft is committed", zh: "草稿已提交" },
  },
  {
    id: "tool_input_reject",
    what: {
      en: "tool input guardrail · reject_content / rejectContent",
      zh: "工具输入护栏 · reject_content / rejectContent",
    },
    toolRuns: NO,
    modelReceives: {
      en: "the reject message, as the tool's output",
      zh: "拒绝消息，作为工具的输出",
    },
    continues: YES,
    ledger: { en: "no draft from this call", zh: "这次调用没有草稿" },
  },
  {
    id: "tool_input_raise",
    what: {
      en: "tool input guardrail · raise_exception / throwException",
      zh: "工具输入护栏 · raise_exception / throwException",
    },
    toolRuns: NO,
    modelReceives: {
      en: "nothing: the run halts with ToolInputGuardrailTripwireTriggered",
      zh: "什么也没有：运行以 ToolInputGuardrailTripwireTriggered 中止",
    },
    continues: NO,
    ledger: { en: "no draft from this call", zh: "这次调用没有草稿" },
  },
  {
    id: "tool_output_allow",
    what: {
      en: "tool output guardrail · allow / allow",
      zh: "工具输出护栏 · allow / allow",
    },
    toolRuns: YES,
    modelReceives: { en: "the tool's output", zh: "工具的输出" },
    continues: YES,
    ledger: { en: "the draft is committed", zh: "草稿已提交" },
  },
  {
    id: "tool_output_reject",
    what: {
      en: "tool output guardrail · reject_content / rejectContent",
      zh: "工具输出护栏 · reject_content / rejectContent",
    },
    toolRuns: { en: "yes, before the check", zh: "是，在检查之前" },
    modelReceives: {
      en: "the reject message in place of the output",
      zh: "拒绝消息，替换原输出",
    },
    continues: YES,
    ledger: {
      en: "the draft stays: the side effect already happened",
      zh: "草稿留下：副作用已经发生",
    },
  },
  {
    id: "tool_output_raise",
    what: {
      en: "tool output guardrail · raise_exception / throwException",
      zh: "工具输出护栏 · raise_exception / throwException",
    },
    toolRuns: { en: "yes, before the check", zh: "是，在检查之前" },
    modelReceives: {
      en: "nothing: the run halts with ToolOutputGuardrailTripwireTriggered",
      zh: "什么也没有：运行以 ToolOutputGuardrailTripwireTriggered 中止",
    },
    continues: NO,
    ledger: {
      en: "the draft stays: the side effect already happened",
      zh: "草稿留下：副作用已经发生",
    },
  },
  {
    id: "agent_input_parallel",
    what: {
      en: "agent input guardrail · run_in_parallel=True (the default)",
      zh: "Agent 输入护栏 · run_in_parallel=True（默认）",
    },
    toolRuns: {
      en: "maybe: the agent runs beside the check",
      zh: "可能：Agent 与检查并行运行",
    },
    modelReceives: {
      en: "the input; tokens may be spent before the tripwire",
      zh: "输入；tripwire 之前可能已消耗 token",
    },
    continues: {
      en: "no, once the tripwire fires",
      zh: "否，一旦 tripwire 触发",
    },
    ledger: {
      en: "a draft may already be committed",
      zh: "可能已经提交了草稿",
    },
  },
  {
    id: "agent_input_sequential",
    what: {
      en: "agent input guardrail · run_in_parallel=False",
      zh: "Agent 输入护栏 · run_in_parallel=False",
    },
    toolRuns: {
      en: "no, if it trips: the agent never starts",
      zh: "若触发则否：Agent 根本不启动",
    },
    modelReceives: {
      en: "nothing until the check passes",
      zh: "检查通过之前什么也没有",
    },
    continues: { en: "no, if it trips", zh: "若触发则否" },
    ledger: { en: "no draft", zh: "没有草稿" },
  },
  {
    id: "agent_output",
    what: {
      en: "agent output guardrail · on the final answer only",
      zh: "Agent 输出护栏 · 只检查最终回答",
    },
    toolRuns: {
      en: "yes: every tool call before the answer has run",
      zh: "是：最终回答之前的工具调用都已执行",
    },
    modelReceives: {
      en: "its own answer; a tripwire halts the run",
      zh: "它自己的回答；tripwire 会中止运行",
    },
    continues: { en: "no, if it trips", zh: "若触发则否" },
    ledger: {
      en: "drafts from earlier tool calls stay",
      zh: "更早的工具调用写下的草稿都留下",
    },
  },
];

/**
 * Which documented behaviours a topic stands for. A topic that no guardrail
 * behaviour matches (a cancellation, a receipt, the policy lab's commit
 * condition) maps to none, and the lens says so.
 */
export const SDK_TOPICS: Readonly<Record<string, readonly string[]>> = {
  input_rejected: ["tool_input_reject", "tool_input_raise"],
  output_rejected: ["tool_output_reject", "tool_output_raise"],
  retry_same_request: ["tool_input_allow", "tool_output_allow"],
  parallel_input_guardrail: ["agent_input_parallel"],
  sequential_input_guardrail: ["agent_input_sequential"],
  new_key_second_draft: ["tool_input_allow", "tool_output_allow"],
  compensation_can_fail: ["tool_output_reject", "agent_output"],
};

/** The lens for `topic` in `lang`, within 80 columns. */
export function sdkLensLines(topic: string, lang: Lang): string[] {
  const zh = lang === "zh";
  const mapped = SDK_TOPICS[topic] ?? [];
  const lines = [
    zh
      ? `SDK 视角：${topic}（guardlab 不运行任何 SDK；以下为文档所述行为）`
      : `SDK lens: ${topic} (guardlab runs no SDK; behaviours as documented)`,
    mapped.length === 0
      ? (zh
        ? "  本课题不对应任何护栏行为（取消、回执和提交条件是应用自己的事）。"
        : "  No guardrail behaviour matches this topic (a cancel, a receipt or a commit condition is the application's own).")
      : (zh
        ? "  本课题对应标有 → 的行。"
        : "  This topic is the rows marked →."),
  ];
  for (const row of SDK_ROWS) {
    const mark = mapped.includes(row.id) ? "→ " : "  ";
    lines.push(`${mark}${say(row.what, lang)}`);
    const detail = zh
      ? `工具执行：${say(row.toolRuns, lang)}；模型收到：${
        say(row.modelReceives, lang)
      }；运行继续：${say(row.continues, lang)}；账本：${say(row.ledger, lang)}`
      : `tool runs: ${say(row.toolRuns, lang)}; model receives: ${
        say(row.modelReceives, lang)
      }; run continues: ${say(row.continues, lang)}; ledger: ${
        say(row.ledger, lang)
      }`;
    lines.push(...wrap(`    ${detail}`, 80));
  }
  lines.push(zh ? "来源：" : "Sources:");
  for (const source of SDK_SOURCES) {
    lines.push(...wrap(`  - ${say(source, lang)}`, 80));
  }
  lines.push(
    ...wrap(
      zh
        ? "  guardlab 的状态名（input_rejected、output_rejected 等）是本实验自己的回执字段，并非 SDK 状态名。"
        : "  guardlab's statuses (input_rejected, output_rejected, ...) are the lab's own receipt fields, not SDK status names.",
      80,
    ),
  );
  return lines.flatMap((l) => wrap(l, 80));
}
