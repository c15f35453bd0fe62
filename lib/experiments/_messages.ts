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
  /** Each check's mark: the same shape in both languages, words of its own in each. */
  pass: { en: "pass", zh: "一致" },
  fail: { en: "FAIL", zh: "不一致" },
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

/**
 * Why a script step cannot run, in both languages (the script's own JSON
 * line carries the English; an exercise's feedback shows the student's
 * language). A misspelt name gets the nearest allowed one.
 */
export const STEP_MESSAGES = {
  notJson: { en: "not JSON", zh: "不是 JSON" },
  notObject: {
    en: "a step must be a JSON object",
    zh: "一个步骤必须是 JSON 对象",
  },
  missingField: (name: string): Text => ({
    en: `missing field ${name}`,
    zh: `缺少字段 ${name}`,
  }),
  notString: (name: string): Text => ({
    en: `${name} must be a string`,
    zh: `${name} 必须是字符串`,
  }),
  notBoolean: (name: string): Text => ({
    en: `${name} must be true or false`,
    zh: `${name} 必须是 true 或 false`,
  }),
  unknownOp: (shown: string, near: string | null): Text => ({
    en: `unknown op ${shown}${near ? ` (did you mean ${near}?)` : ""}`,
    zh: `未知的 op ${shown}${near ? `（是不是想写 ${near}？）` : ""}`,
  }),
  unknownField: (shown: string, op: string, near: string | null): Text => ({
    en: `unknown field ${shown} for ${op}${
      near ? ` (did you mean ${near}?)` : ""
    }`,
    zh: `${op} 没有字段 ${shown}${near ? `（是不是想写 ${near}？）` : ""}`,
  }),
  unknownFault: (key: string, near: string | null): Text => ({
    en: `unknown fault ${key}${near ? ` (did you mean ${near}?)` : ""}`,
    zh: `未知的故障开关 ${key}${near ? `（是不是想写 ${near}？）` : ""}`,
  }),
  faultsNotObject: {
    en: "faults must be an object",
    zh: "faults 必须是对象",
  },
  /** Two values quoted ("a" or "b"); more as a list, the way a sentence names them. */
  oneOf: (name: string, allowed: readonly string[]): Text =>
    allowed.length > 2
      ? {
        en: `${name} must be one of ${allowed.join(", ")}`,
        zh: `${name} 必须是 ${allowed.join("、")} 之一`,
      }
      : {
        en: `${name} must be ${
          allowed.map((a) => JSON.stringify(a)).join(" or ")
        }`,
        zh: `${name} 必须是 ${
          allowed.map((a) => JSON.stringify(a)).join(" 或 ")
        }`,
      },
  emptyOrOneOf: (name: string, allowed: readonly string[]): Text => ({
    en: `${name} must be "" or one of ${allowed.join(", ")}`,
    zh: `${name} 必须是 "" 或 ${allowed.join("、")} 之一`,
  }),
  unknownSnapshot: (shown: string): Text => ({
    en: `unknown snapshot ${shown}`,
    zh: `未知的 Snapshot ${shown}`,
  }),
  snapshotNameTooLong: (field: string, max: number): Text => ({
    en: `${field} longer than ${max} characters`,
    zh: `${field} 超过 ${max} 个字符`,
  }),
  tooManySnapshots: (max: number): Text => ({
    en: `more than ${max} snapshot names; reuse one`,
    zh: `Snapshot 名称超过 ${max} 个；请复用已有的名称`,
  }),
  longLine: (max: number): Text => ({
    en: `longer than ${max} bytes`,
    zh: `超过 ${max} 字节`,
  }),
} as const;
