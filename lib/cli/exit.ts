/**
 * Exit codes: one meaning each, defined once. Every command declares which
 * of them it can return, and its `--help` lists exactly those.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** Exit codes, used everywhere by name. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  reconcile: 3,
  refused: 4,
  unsafe: 5,
  inconclusive: 6,
} as const;

/** One of the exit codes. */
export type ExitCode = typeof EXIT[keyof typeof EXIT];

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
