/**
 * What `guardlab run` says: its help (the flags name the lab's own stages,
 * modes and limits) and the line above the timeline.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";
import { SDK_JS_VERSION } from "../../../content/sdk_sources.ts";
import { BATCH_LIMIT, COPIES_RANGE } from "../../../timing/args.ts";
import {
  CHECKPOINTS,
  FAIL_POINTS,
  PAUSE_POINTS,
} from "../../../timing/stages.ts";

/** `run --help`: what it does, its flags, its exit codes. */
export const RUN_HELP = {
  about: {
    en: `One attempt of the draft tool. The arguments go through the lab's own
validation, so missing or malformed ones become status input_rejected.
Prints the stage timeline (before and after the commit point) and the result.
Without --ledger the attempt uses a scratch ledger that is deleted afterwards.
Faults are trusted harness switches, never tool arguments.`,
    zh: `调用一次草稿工具。参数经过实验自己的参数校验，缺失或格式不对会得到
input_rejected。输出各阶段时间线（提交点之前与之后）和结果。不给 --ledger 时
使用用完即删的临时账本。故障开关属于可信测试端，从来不是工具参数。`,
  },
  job: {
    en: "business key, JOB- and three digits",
    zh: "业务键：JOB- 加三位数字",
  },
  topic: { en: "river or forest", zh: "river 或 forest" },
  copies: {
    en: `an integer ${COPIES_RANGE[0]}-${COPIES_RANGE[1]} (the input ` +
      `check allows at most ${BATCH_LIMIT})`,
    zh: `整数 ${COPIES_RANGE[0]}-${
      COPIES_RANGE[1]
    }（前检最多允许 ${BATCH_LIMIT}）`,
  },
  args: {
    en: "the raw tool arguments as one JSON value, instead of the three above",
    zh: "以一个 JSON 值给出原始工具参数，代替上面三项",
  },
  cancelAt: {
    en: `fault: cancel at ${CHECKPOINTS.join(", ")}`,
    zh: `故障：在 ${CHECKPOINTS.join("、")} 处取消`,
  },
  failAt: {
    en: `fault: raise at ${FAIL_POINTS.join(", ")}`,
    zh: `故障：在 ${FAIL_POINTS.join("、")} 处抛出异常`,
  },
  badOutput: {
    en: "fault: corrupt the result handed to the output check",
    zh: "故障：污染交给后检的结果",
  },
  auditFailure: {
    en: "fault: make the receipt write fail",
    zh: "故障：让回执写入失败",
  },
  receipt: {
    en: "checked (default) or naive: the article's original receipt, " +
      "trusting the last row id (teaching switch, never a tool argument)",
    zh: "checked（默认）或 naive：修正前的回执，只信 lastrowid" +
      "（教学开关，从来不是工具参数）",
  },
  inputGuardrail: {
    en: "sequential (default) or parallel: a model of the Python SDK's " +
      "scheduling, where the Agent input guardrail runs beside the first " +
      "turn and its verdict lands after the business step (JS " +
      `@openai/agents-core ${SDK_JS_VERSION} waits for it before tools; explain ` +
      "parallel_input_guardrail --sdk)",
    zh:
      "sequential（默认）或 parallel：模拟 Python SDK 的调度，Agent 输入护栏" +
      `与第一轮并行，结论在业务写入之后才到（JS @openai/agents-core ${SDK_JS_VERSION} ` +
      "会在执行工具前等待它；见 explain parallel_input_guardrail --sdk）",
  },
  pauseAt: {
    en: `harness: print "paused POINT" on stderr and wait at ${
      PAUSE_POINTS.join(", ")
    } (to kill the process there)`,
    zh: `测试端：在 ${PAUSE_POINTS.join("、")} 处在标准错误输出 ` +
      `"paused POINT" 并等待（以便在那里杀掉进程）`,
  },
  exitOk: {
    en: "the attempt returned a result, whatever its status",
    zh: "这次调用返回了结果（无论状态是什么）",
  },
  exitFailed: {
    en: "it raised: cancelled, audit unavailable or a database error",
    zh: "调用抛出：取消、审计不可用或数据库错误",
  },
} as const satisfies Record<string, Text>;

/** What `run` tells a person beside the timeline. */
export const RUN_MESSAGES = {
  attempt: {
    en: "attempt with {args}; faults: {faults}",
    zh: "调用参数：{args}；故障：{faults}",
  },
  // The teaching switches (--receipt, --input-guardrail) are no faults.
  attemptSwitches: {
    en: "attempt with {args}; switches: {switches}; faults: {faults}",
    zh: "调用参数：{args}；开关：{switches}；故障：{faults}",
  },
  none: { en: "none", zh: "无" },
  listSeparator: { en: ", ", zh: "、" },
  argsReplaces: {
    en: "--args replaces --job, --topic and --copies; give one or the other",
    zh: "--args 取代 --job、--topic 和 --copies；二者只能选一种",
  },
  argsNotJson: {
    en: "--args must be one JSON value",
    zh: "--args 必须是一个 JSON 值",
  },
  svgTitle: { en: "guardlab run", zh: "guardlab 单次调用" },
  result: { en: "result:", zh: "结果：" },
} as const satisfies Record<string, Text>;

/**
 * The lab's own messages (the article's exception texts, shown as the lab
 * gave them), glossed after the quotes for a reader of another language.
 */
export const LAB_MESSAGE_GLOSS: Readonly<Record<string, Text>> = {
  "audit write unavailable": {
    en: " (the receipt could not be written)",
    zh: "（回执写入不可用）",
  },
  "audit insert did not create one row": {
    en: " (the receipt's INSERT did not add exactly one row)",
    zh: "（回执的 INSERT 没有新增恰好一行）",
  },
};
