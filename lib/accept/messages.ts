/**
 * Every human-facing text of `accept` and `proxy`, in both languages: the
 * oracle's refusals, the verdicts and what each means, the words of the
 * matrix and the timeline, the one-line failures. The machine names
 * (cases, verdicts, outcomes) are the same in both languages and live in
 * `cases.ts` and `session.ts`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** Why an oracle file cannot be used. */
export const ORACLE_MESSAGES = {
  tooDeep: {
    en: "the oracle nests deeper than {max} levels",
    zh: "oracle 的嵌套超过 {max} 层",
  },
  notJson: {
    en: "the oracle is not JSON",
    zh: "oracle 不是 JSON",
  },
  noTools: {
    en: 'the oracle must be an object {"tools": [ … ]}',
    zh: 'oracle 必须是对象 {"tools": [ … ]}',
  },
  toolCount: {
    en: "the oracle must name from 1 to {max} write tools",
    zh: "oracle 必须列出 1 到 {max} 个写入工具",
  },
  unknownField: {
    en: "{where}: unknown field {what} (see guardlab accept --help)",
    zh: "{where}：未知字段 {what}（见 guardlab accept --help）",
  },
  notObject: {
    en: "{where} must be a JSON object",
    zh: "{where} 必须是 JSON 对象",
  },
  notName: {
    en: "{where} must be a tool name (a non-empty string)",
    zh: "{where} 必须是工具名（非空字符串）",
  },
  notToolCall: {
    en: '{where} must be {"tool": NAME, "arguments": {…}}',
    zh: '{where} 必须是 {"tool": NAME, "arguments": {…}}',
  },
  notCount: {
    en: '{where} must be {"text": S} or {"json": POINTER, "match": {…}}',
    zh: '{where} 必须是 {"text": S} 或 {"json": POINTER, "match": {…}}',
  },
  notPointer: {
    en: '{where} must be a JSON Pointer ("" or starting with /)',
    zh: '{where} 必须是 JSON Pointer（"" 或以 / 开头）',
  },
  keyInCall: {
    en: "{where} cannot hold {key}: the key is read from call",
    zh: "{where} 里不能出现 {key}：业务键正是从 call 中读出的",
  },
  keyNotInCall: {
    en: "{where}: {what} does not point at a string or number in call",
    zh: "{where}：{what} 没有指向 call 中的字符串或数字",
  },
  setupList: {
    en: "{where} must be a list of at most {what} tool calls",
    zh: "{where} 必须是最多 {what} 个工具调用的列表",
  },
  otherCountNeeded: {
    en:
      "{where} is needed with other_call: it tells whether the other arguments took effect",
    zh: "给了 other_call 就必须给 {where}：用它判断其他参数是否生效",
  },
  otherCallNeeded: {
    en: "{where} is needed with other_count",
    zh: "给了 other_count 就必须给 {where}",
  },
} as const satisfies Record<string, Text>;
