/**
 * What the experiments say to a person, in both languages: the words of
 * `verify` beside the scenario names. The scenarios' own headings and
 * narration live with their steps (`policy_scenarios.ts`).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** What `verify` reports, beside the scenario names. */
export const VERIFY_MESSAGES = {
  expected: { en: "  expected: {value}", zh: "  预期：{value}" },
  actual: { en: "  actual:   {value}", zh: "  实际：{value}" },
  allMatch: {
    en:
      "all {checks} checks of the {scenarios} scenarios match the expected answers",
    zh: "{scenarios} 个场景的 {checks} 项检查全部与预期答案一致",
  },
  differ: {
    en: "{failed} of {checks} checks differ from the expected answers",
    zh: "{checks} 项检查中有 {failed} 项与预期答案不一致",
  },
} as const satisfies Record<string, Text>;
