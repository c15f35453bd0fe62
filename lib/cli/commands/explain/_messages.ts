/**
 * What `guardlab explain` says about itself (the explanations are the
 * content layer's).
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `explain --help`: what it does and its flags. */
export const EXPLAIN_HELP = {
  about: {
    en:
      `Explains a demo scenario or a lesson: what happened, why the check could not
undo the effect (or why the conditional write refused), and the safe next
step. Without TOPIC, explains all of them; "list" lists their names.`,
    zh:
      `讲解一个演示场景或课题：发生了什么，为什么检查撤销不了效果（或者条件写入
为什么拒绝），以及安全的下一步。不给 TOPIC 时讲解全部；list 列出它们的名字。`,
  },
  sdk: {
    en: "also show what the OpenAI Agents SDK does with each guardrail " +
      "behaviour (each JS row run by conformance tests, each Python row " +
      "read from source at a commit)",
    zh: "同时显示 OpenAI Agents SDK 对每种护栏行为的处理（每个 JS 行都经" +
      "一致性测试实际运行，每个 Python 行都读自某次提交的源码）",
  },
  format: {
    en: "text (default) or svg (the scenario's timeline)",
    zh: "text（默认）或 svg（该场景的时间线）",
  },
} as const satisfies Record<string, Text>;

/** What `explain` tells a person beside the explanations. */
export const EXPLAIN_MESSAGES = {
  listTextOnly: {
    en: "explain list has only a text format",
    zh: "explain list 只有文本格式",
  },
  scenarios: {
    en: "Demo scenarios (guardlab demo; checked by guardlab verify):",
    zh: "演示场景（guardlab demo；由 guardlab verify 核对）：",
  },
  lessons: {
    en: "More lessons (reproduce them with guardlab script):",
    zh: "更多课题（可用 guardlab script 复现）：",
  },
} as const satisfies Record<string, Text>;
