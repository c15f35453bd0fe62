/**
 * What `guardlab script` says: its help, with the step reference a student
 * who has only the binary reads there, and its lines on stderr.
 *
 * @module
 */
import { fill, same, type Text } from "../../../base/i18n.ts";
import { MAX_LINE_BYTES } from "../../../base/lines.ts";
import {
  MAX_SNAPSHOT_NAME,
  MAX_SNAPSHOTS,
} from "../../../experiments/script.ts";

/**
 * The step reference, for `--help`: a student with only the binary has no
 * README. The steps are the same in both languages; `{…}` are the notes.
 */
const STEPS = `  {"op":"run","args":ARGS,"faults":{"cancel_at":"","fail_at":"",
      "bad_output":false,"audit_failure":false},"receipt":"checked"|"naive",
      "input_guardrail":"sequential"|"parallel"}     {attempt}
  {"op":"count"}  {"op":"exists","job":J}  {"op":"drafts"}  {"op":"receipts"}
                                  {second}
  {"op":"fixture","receipt_fault":"ignore"|"abort"|"none"}   {trigger}
  {"op":"restart"}                {restart}
  {"op":"compensate","job":J,"faults":{"fail_at":""}}   {compensate}
  {"op":"policy.precheck","job":J,"copies":C,"as":NAME}      {precheck}
  {"op":"policy.change","max_copies":N}    {change}
  {"op":"policy.insert_checked","job":J,"copies":C,"snapshot":NAME,
      "fail_before_commit":false}          {checked}
  {"op":"policy.insert_naive","job":J,"copies":C,"snapshot":NAME}
  {"op":"policy.lock"} {"op":"policy.unlock"} {"op":"policy.delete"}
  {"op":"policy.rows"}`;

/** The notes of the step reference. */
export const STEP_NOTES = {
  attempt: { en: "one attempt", zh: "一次调用" },
  second: {
    en: "read through a second connection",
    zh: "经第二条连接读取",
  },
  trigger: { en: "test trigger", zh: "测试触发器" },
  restart: { en: "close and reopen the ledger", zh: "关闭并重新打开账本" },
  compensate: { en: "void a draft", zh: "作废一份草稿" },
  precheck: { en: "read the rule", zh: "读取规则" },
  change: { en: "the editor changes the rule", zh: "编辑者修改规则" },
  checked: { en: "conditional insert", zh: "条件写入" },
} as const satisfies Record<string, Text>;

const STEPS_TEXT: Text = fill(same(STEPS), STEP_NOTES);

/** What `script` says of its FILE when it cannot be read (`lib/cli/user_file.ts`). */
export const STEPS_FILE = {
  refused: {
    en: "{refusal}; pipe it instead: guardlab script < FILE",
    zh: "{refusal}；请改用管道：guardlab script < FILE",
  },
  what: { en: "steps", zh: "步骤" },
} as const satisfies Record<string, Text>;

/** What `script` tells a person on stderr. */
export const SCRIPT_MESSAGES = {
  fromTerminal: {
    en: "guardlab script: reading JSON Lines steps from the terminal, one " +
      "per line; end with Ctrl-D (Ctrl-Z then Enter on Windows)",
    zh: "guardlab script：正在从终端读取 JSON Lines 步骤，每行一步；" +
      "按 Ctrl-D 结束（Windows 上按 Ctrl-Z 再回车）",
  },
  runLine: { en: "line {n}: run {job}", zh: "第 {n} 行：run {job}" },
  stepLine: { en: "line {n}: {what}", zh: "第 {n} 行：{what}" },
} as const satisfies Record<string, Text>;

/** `script --help`: what it does, its flags, its exit codes. */
export const SCRIPT_HELP = {
  about: {
    en: `Runs an experiment written as JSON Lines, one step per line, against a
scratch ledger (or the named one), printing one compact JSON line per step as
it goes. A FILE must be a plain file of yours under the temp folder; anywhere
else, pipe it on stdin. A bad line prints {"raised":"invalid_step",...} and
the script goes on; a line over ${MAX_LINE_BYTES} bytes is one invalid step, and
so is a snapshot name over ${MAX_SNAPSHOT_NAME} characters or past the first ${MAX_SNAPSHOTS} names.
Steps:
${STEPS_TEXT.en}`,
    zh:
      `运行以 JSON Lines 写成的实验，每行一步，针对一个临时账本（或命名账本），
每一步即时输出一行紧凑 JSON。FILE 必须是临时目录下属于你的普通文件；
其他位置请用标准输入管道传入。出错的行输出 {"raised":"invalid_step",...}，
脚本继续；超过 ${MAX_LINE_BYTES} 字节的行算一个无效步骤，
超过 ${MAX_SNAPSHOT_NAME} 个字符的 Snapshot 名、前 ${MAX_SNAPSHOTS} 个名字之外的新 Snapshot 名也是。
步骤：
${STEPS_TEXT.zh}`,
  },
  ledger: {
    en: "keep the state in a named ledger",
    zh: "把状态保存在命名账本里",
  },
  view: {
    en: "tell each step in words on stdout instead of JSON: a run as its " +
      "timeline, policy steps in two lanes (without --view, one JSON line " +
      "a step, for a program)",
    zh: "在标准输出用文字讲述每一步，不输出 JSON：run 画成时间线，policy " +
      "步骤画成两条泳道（不加 --view 时每步一行 JSON，供程序读取）",
  },
  exitOk: { en: "every step was valid", zh: "每一步都有效" },
  exitFailed: {
    en: "a step printed invalid_step, or FILE could not be read",
    zh: "有步骤输出 invalid_step，或读不了 FILE",
  },
} as const satisfies Record<string, Text>;
