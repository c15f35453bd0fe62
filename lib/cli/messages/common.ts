/**
 * What the command line says before, around and after any one command: the
 * flags every command takes, the parser's usage errors, the labels of
 * `--help`, the exit codes' meanings, and the lines the dispatcher prints
 * when a call goes wrong.
 *
 * @module
 */
import type { Text } from "../../base/i18n.ts";
import type { ExitCode } from "../exit.ts";

/** The help of the flags every command takes. */
export const COMMON_FLAGS = {
  home: {
    en: "keep ledgers, settings and progress in DIR, a folder of your own " +
      "(default: /tmp/guardlab-UID)",
    zh: "把账本、设置和进度保存在 DIR（你自己的目录；默认 /tmp/guardlab-UID）",
  },
  lang: {
    en: "language of this screen (default: `guardlab config lang`, else en)",
    zh: "本次输出的语言（默认：guardlab config lang 的设置，否则 en）",
  },
  help: { en: "show this help", zh: "显示本帮助" },
} as const satisfies Record<string, Text>;

/** What each exit code means in general (a command may add its own detail). */
export const EXIT_MEANING: Readonly<Record<ExitCode, Text>> = {
  0: { en: "done", zh: "完成" },
  1: { en: "failed", zh: "失败" },
  2: {
    en: "usage error: an unknown command, flag or value",
    zh: "用法错误：未知的命令、选项或取值",
  },
  3: {
    en: "reconcile found keys that need a retry",
    zh: "对账发现需要重试的业务键",
  },
  4: {
    en: "refused: outside the sandbox, a link, a folder others can change, " +
      "or a file that is not a ledger; nothing was changed",
    zh: "拒绝：在沙箱之外、是链接、目录可被他人改动，或文件不是账本；" +
      "没有改动任何内容",
  },
  5: {
    en: "accept found an unsafe verdict",
    zh: "accept 发现了不安全的结论",
  },
  6: {
    en:
      "accept could not judge a case (the server broke or its read tool failed), and found nothing unsafe",
    zh:
      "accept 有用例无法判断（服务器出错或读取工具失败），且没有发现不安全的结论",
  },
};

/** The parser's usage errors; `{hint}` is a {@linkcode PARSE_MESSAGES.didYouMean} or empty. */
export const PARSE_MESSAGES = {
  givenTwice: { en: "--{flag} is given twice", zh: "--{flag} 给了两次" },
  unexpectedArgument: {
    en: "unexpected argument {arg}{hint}",
    zh: "多余的参数 {arg}{hint}",
  },
  unknownOption: {
    en: "unknown option {option}{hint}",
    zh: "未知选项{option}{hint}",
  },
  unknownCommand: {
    en: "unknown command {command}{hint}",
    zh: "未知命令{command}{hint}",
  },
  needsValue: {
    en: "option {flag} needs a value",
    zh: "选项 {flag} 需要一个值",
  },
  didYouMean: {
    en: " (did you mean {what}?)",
    zh: "（是不是想输入 {what}？）",
  },
  required: { en: "{flag} is required", zh: "需要 {flag}" },
  listSeparator: { en: ", ", zh: "、" },
  /** User text quoted in each language's quotes. */
  quoted: { en: '"{text}"', zh: "“{text}”" },
  badNumber: {
    en: "{flag} must be a whole number from {min} to {max} (got {got})",
    zh: "{flag} 必须是 {min} 到 {max} 之间的整数（收到 {got}）",
  },
  mustBeOneOf: {
    en: "{flag} must be one of {allowed} (got {got})",
    zh: "{flag} 只能是 {allowed} 之一（收到 {got}）",
  },
} as const satisfies Record<string, Text>;

/** The labels of `--help` and of the usage after a usage error. */
export const HELP_LABELS = {
  usage: { en: "usage: ", zh: "用法：" },
  options: { en: "Options:", zh: "选项：" },
  exits: { en: "Exit codes:", zh: "退出码：" },
  commandList: { en: "commands: ", zh: "命令：" },
  synopsis: {
    en: "guardlab <command> [options]",
    zh: "guardlab <命令> [选项]",
  },
  moreHelp: {
    en: "guardlab <command> --help  |  guardlab --help",
    zh: "guardlab <命令> --help  |  guardlab --help",
  },
} as const satisfies Record<string, Text>;

/** What the dispatcher says around a command. */
export const DISPATCH_MESSAGES = {
  settingsNotRead: {
    en: "note: stored settings not read, so the default is used: {problem}",
    zh: "注意：未能读取保存的设置，因此使用默认值：{problem}",
  },
  homeNeedsFolder: { en: "--home needs a folder", zh: "--home 需要一个目录" },
  refused: { en: "refused: ", zh: "拒绝：" },
  internalError: { en: "internal error: ", zh: "内部错误：" },
  noSpace: {
    en: "failed: no space left on the device guardlab writes to (on a " +
      "shared /tmp, another user may have filled it); free some space and " +
      "run it again",
    zh: "失败：guardlab 写入的设备没有剩余空间（在共享的 /tmp 上，可能是别的" +
      "用户把它占满了）；请腾出空间后再运行",
  },
  sqliteNotWritten: {
    en: "failed: SQLite could not write ({why}); the device guardlab writes " +
      "to may be full (on a shared /tmp, another user may have filled it); " +
      "free some space and run it again",
    zh:
      "失败：SQLite 无法写入（{why}）；guardlab 写入的设备可能已满（在共享的 " +
      "/tmp 上，可能是别的用户把它占满了）；请腾出空间后再运行",
  },
} as const satisfies Record<string, Text>;

/** The one line for a FILE the user named that is missing, or a folder. */
export const USER_FILE_MESSAGES = {
  /** `{what}` it should have held, `{file}` its name, quoted. */
  notReadable: {
    en: "guardlab: cannot read {what} from {file}: not a readable file",
    zh: "guardlab: 无法从 {file} 读取{what}：不是可读的文件",
  },
} as const satisfies Record<string, Text>;

/** What `accept` and `proxy` both say: the oracle file named in a line, and one output at a time. */
export const ACCEPT_PROXY_MESSAGES = {
  oracleWord: { en: "the oracle", zh: "该 oracle 文件" },
  jsonOrSvg: {
    en: "--json and --format svg: give one",
    zh: "--json 与 --format svg 只能给一个",
  },
} as const satisfies Record<string, Text>;
