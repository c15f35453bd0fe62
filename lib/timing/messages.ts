/**
 * The timing lab's own texts: each rule a refusal names, with what would
 * have been valid, and what the lab calls its ledger. The MCP server, the
 * `run` command and the timeline view all say a refusal with these.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { BATCH_LIMIT, COPIES_RANGE } from "./args.ts";

/**
 * Each refusal's rule and what would have been valid, by the reason the
 * lab records (`InputRejected`'s reason, or the refusing error's message).
 */
export const RULES: Readonly<Record<string, Text>> = {
  shape: {
    en: "shape: exactly job, topic, copies",
    zh: "形状：恰好 job、topic、copies 三个字段",
  },
  job: {
    en: "job: JOB- and three digits, e.g. JOB-001",
    zh: "job：JOB- 加三位数字，例如 JOB-001",
  },
  topic: { en: "topic: river or forest", zh: "topic：river 或 forest" },
  copies: {
    en: `copies: an integer from ${COPIES_RANGE[0]} to ${COPIES_RANGE[1]}`,
    zh: `copies：${COPIES_RANGE[0]} 到 ${COPIES_RANGE[1]} 的整数`,
  },
  batch_limit: {
    en: `batch_limit: at most ${BATCH_LIMIT} copies per call`,
    zh: `batch_limit：每次最多 ${BATCH_LIMIT} 份`,
  },
  output_contract: {
    en: "output contract: not the draft asked for",
    zh: "输出约定：不是参数要求的那份草稿",
  },
  key_voided: {
    en: "key voided by a compensation: not re-created",
    zh: "业务键已被补偿作废：不会重新创建",
  },
  same_key_different_arguments: {
    en: "key exists with other arguments: no write",
    zh: "业务键已以其他参数存在：什么也没写",
  },
};

/** The rule `reason` names, or `undefined` for a reason with no rule of its own. */
export function ruleOf(reason: string): Text | undefined {
  return Object.hasOwn(RULES, reason) ? RULES[reason] : undefined;
}

/** The lab's other texts. */
export const TIMING_MESSAGES = {
  /** What a refusal to open the ledger calls it. */
  ledger: { en: "ledger", zh: "账本" },
} as const satisfies Record<string, Text>;
