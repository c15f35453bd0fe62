/**
 * `guardlab run`: one attempt of the draft tool, drawn as its timeline.
 *
 * @module
 */
import { SDK_JS_VERSION } from "../../content/sdk_sources.ts";
import { BATCH_LIMIT, COPIES_RANGE } from "../../timing/args.ts";
import {
  type Faults,
  INPUT_GUARDRAIL_MODES,
  Lab,
  RECEIPT_MODES,
} from "../../timing/lab.ts";
import { labFilesIn, trustedFolders } from "../../sandbox/sandbox.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import {
  CHECKPOINTS,
  FAIL_POINTS,
  PAUSE_POINTS,
  type PausePoint,
} from "../../timing/stages.ts";
import { timelineSvg } from "../../views/svg.ts";
import { ruleOf } from "../../timing/messages.ts";
import { renderTimeline, timelineOf } from "../../views/timeline.ts";
import { parseJsonLikePython } from "../../base/json.ts";
import { fill, type Lang, say, type Text } from "../../base/i18n.ts";
import { plainFields, plainValue } from "../../base/plain.ts";
import { wrap } from "../../base/terminal.ts";
import { EXIT } from "../exit.ts";
import { type Io, styleFor } from "../io.ts";
import {
  FORMAT_OPTIONS,
  formatOf,
  LEDGER_OPTIONS,
  ledgerFileOf,
} from "../places.ts";
import { command, UsageError } from "../parser.ts";

const OPTIONS = {
  ...LEDGER_OPTIONS,
  job: {
    type: "string",
    value: "JOB",
    help: {
      en: "business key, JOB- and three digits",
      zh: "业务键：JOB- 加三位数字",
    },
  },
  topic: {
    type: "string",
    value: "TOPIC",
    help: { en: "river or forest", zh: "river 或 forest" },
  },
  copies: {
    type: "string",
    value: "N",
    help: {
      en: `an integer ${COPIES_RANGE[0]}-${COPIES_RANGE[1]} (the input ` +
        `check allows at most ${BATCH_LIMIT})`,
      zh: `整数 ${COPIES_RANGE[0]}-${
        COPIES_RANGE[1]
      }（前检最多允许 ${BATCH_LIMIT}）`,
    },
  },
  args: {
    type: "string",
    value: "JSON",
    help: {
      en:
        "the raw tool arguments as one JSON value, instead of the three above",
      zh: "以一个 JSON 值给出原始工具参数，代替上面三项",
    },
  },
  "cancel-at": {
    type: "string",
    value: "STAGE",
    choices: CHECKPOINTS,
    help: {
      en: `fault: cancel at ${CHECKPOINTS.join(", ")}`,
      zh: `故障：在 ${CHECKPOINTS.join("、")} 处取消`,
    },
  },
  "fail-at": {
    type: "string",
    value: "STAGE",
    choices: FAIL_POINTS,
    help: {
      en: `fault: raise at ${FAIL_POINTS.join(", ")}`,
      zh: `故障：在 ${FAIL_POINTS.join("、")} 处抛出异常`,
    },
  },
  "bad-output": {
    type: "boolean",
    help: {
      en: "fault: corrupt the result handed to the output check",
      zh: "故障：污染交给后检的结果",
    },
  },
  "audit-failure": {
    type: "boolean",
    help: {
      en: "fault: make the receipt write fail",
      zh: "故障：让回执写入失败",
    },
  },
  receipt: {
    type: "string",
    value: "MODE",
    choices: RECEIPT_MODES,
    help: {
      en: "checked (default) or naive: the article's original receipt, " +
        "trusting the last row id (teaching switch, never a tool argument)",
      zh: "checked（默认）或 naive：文章原始的回执写法，只信 lastrowid" +
        "（教学开关，从来不是工具参数）",
    },
  },
  "input-guardrail": {
    type: "string",
    value: "MODE",
    choices: INPUT_GUARDRAIL_MODES,
    help: {
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
  },
  "pause-at": {
    type: "string",
    value: "POINT",
    choices: PAUSE_POINTS,
    help: {
      en: `harness: print "paused POINT" on stderr and wait at ${
        PAUSE_POINTS.join(", ")
      } (to kill the process there)`,
      zh: `测试端：在 ${PAUSE_POINTS.join("、")} 处在标准错误输出 ` +
        `"paused POINT" 并等待（以便在那里杀掉进程）`,
    },
  },
  ...FORMAT_OPTIONS,
} as const;

/** The raw tool arguments from flags: unchecked on purpose, the lab validates them. */
function rawToolArgs(values: {
  job?: string;
  topic?: string;
  copies?: string;
  args?: string;
}): unknown {
  if (values.args !== undefined) {
    if (
      [values.job, values.topic, values.copies].some((v) => v !== undefined)
    ) {
      throw new UsageError({
        en:
          "--args replaces --job, --topic and --copies; give one or the other",
        zh: "--args 取代 --job、--topic 和 --copies；二者只能选一种",
      }, "run");
    }
    try {
      return parseJsonLikePython(values.args);
    } catch {
      throw new UsageError({
        en: "--args must be one JSON value",
        zh: "--args 必须是一个 JSON 值",
      }, "run");
    }
  }
  const raw: Record<string, unknown> = {};
  if (values.job !== undefined) raw.job = values.job;
  if (values.topic !== undefined) raw.topic = values.topic;
  if (values.copies !== undefined) {
    // Only plain digits become a number; "2.0" or "two" reach validation as text.
    raw.copies = /^[0-9]{1,15}$/.test(values.copies)
      ? Number(values.copies)
      : values.copies;
  }
  return raw;
}

/** One line naming what was asked: the raw arguments and the faults. */
function headerOf(raw: unknown, faults: Faults, lang: Lang): string {
  const set = [
    faults.cancelAt && `cancel_at=${faults.cancelAt}`,
    faults.failAt && `fail_at=${faults.failAt}`,
    faults.badOutput && "bad_output",
    faults.auditFailure && "audit_failure",
    faults.receipt === "naive" && "receipt=naive",
    faults.inputGuardrail === "parallel" && "input_guardrail=parallel",
  ].filter(Boolean);
  const m = RUN_MESSAGES;
  return say(
    fill(m.attempt, {
      args: plainValue(raw, lang),
      faults: set.join(say(m.listSeparator, lang)) || say(m.none, lang),
    }),
    lang,
  );
}

function holdForever(io: Io, point: PausePoint): Promise<void> {
  io.err(`paused ${point}`);
  // An interval keeps the process alive while it waits to be killed.
  return new Promise(() => setInterval(() => {}, 1 << 30));
}

/** What `run` tells a person beside the timeline. */
export const RUN_MESSAGES = {
  attempt: {
    en: "attempt with {args}; faults: {faults}",
    zh: "调用参数：{args}；故障：{faults}",
  },
  none: { en: "none", zh: "无" },
  listSeparator: { en: ", ", zh: "、" },
} as const satisfies Record<string, Text>;

/** The `run` command. */
export const run = command({
  name: "run",
  summary: {
    en: "one attempt of the draft tool, drawn as its timeline",
    zh: "调用一次草稿工具，并画出它的时间线",
  },
  usage: `run [--ledger NAME | --ledger-file PATH]
                    (--job JOB --topic TOPIC --copies N | --args JSON)
                    [--cancel-at STAGE] [--fail-at STAGE] [--bad-output]
                    [--audit-failure] [--receipt ${RECEIPT_MODES.join("|")}]
                    [--input-guardrail ${INPUT_GUARDRAIL_MODES.join("|")}]
                    [--pause-at POINT] [--json]
                    [--format text|json|svg]`,
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
  options: OPTIONS,
  maxPositionals: 0,
  exits: {
    0: {
      en: "the attempt returned a result, whatever its status",
      zh: "这次调用返回了结果（无论状态是什么）",
    },
    1: {
      en: "it raised: cancelled, audit unavailable or a database error",
      zh: "调用抛出：取消、审计不可用或数据库错误",
    },
    2: null,
    4: null,
  },
  async run({ values, io, lang }) {
    const format = formatOf("run", values);
    const pauseAt = values["pause-at"];
    const faults: Faults = {
      cancelAt: values["cancel-at"],
      failAt: values["fail-at"],
      badOutput: values["bad-output"] ?? false,
      auditFailure: values["audit-failure"] ?? false,
      receipt: values.receipt,
      inputGuardrail: values["input-guardrail"],
      pause: pauseAt
        ? (point) => point === pauseAt ? holdForever(io, point) : undefined
        : undefined,
    };
    const raw = rawToolArgs(values);
    const named = ledgerFileOf("run", io, values, true);
    await using scratch = named === undefined
      ? scratchFolder(io.base)
      : undefined;
    const path = named ?? labFilesIn(scratch!.path).lab;
    const lab = Lab.open(path, { trusted: trustedFolders(io.base) });
    try {
      const { output, attempt } = await lab.observe(raw, faults);
      const rule = attempt.refusal && ruleOf(attempt.refusal);
      const refusal = attempt.refusal === undefined ? null : {
        rule: attempt.refusal,
        valid: rule ? say(rule, lang) : "",
      };
      if (format === "json") {
        io.out(JSON.stringify({ result: output, refusal }));
      } else if (format === "svg") {
        io.out(timelineSvg(
          say({ en: "guardlab run", zh: "guardlab 单次调用" }, lang),
          [{ title: headerOf(raw, faults, lang), attempt }],
          [],
          lang,
        ));
      } else {
        for (const line of wrap(headerOf(raw, faults, lang), 80)) io.out(line);
        const rows = renderTimeline(timelineOf(attempt), styleFor(io), lang);
        for (const line of rows) io.out(line);
        io.out(say({ en: "result:", zh: "结果：" }, lang));
        for (const line of plainFields(output, lang)) {
          for (const part of wrap(`  ${line}`, 80)) io.out(part);
        }
      }
      return "raised" in output ? EXIT.failed : EXIT.ok;
    } finally {
      lab.close();
    }
  },
});
