/**
 * What the flags several commands share say: the output format, which
 * ledger a command works on, and why a ledger cannot be used.
 *
 * @module
 */
import type { Text } from "../../base/i18n.ts";

/**
 * Exit 4 for a command whose only files are scratch ledgers: it never needs
 * the private folder, so only an unsafe temp folder or scratch folder stops it.
 */
export const REFUSED_ROOT: Text = {
  en: "refused: the temp folder, or this command's scratch folder in it, " +
    "is a link, not yours or root's, or open to others",
  zh: "拒绝：临时目录或其中本命令的临时工作目录是链接、不属于你或 root，" +
    "或对他人开放",
};

/** The help of the shared flags. */
export const PLACE_FLAGS = {
  json: {
    en: "print JSON (same as --format json)",
    zh: "输出 JSON（同 --format json）",
  },
  format: {
    en: "text (the timeline, default), json or svg",
    zh: "text（时间线，默认）、json 或 svg",
  },
  ledger: {
    en: "a named ledger in your private folder (1-32 of a-z, 0-9, '-')",
    zh: "你私有目录中的命名账本（1-32 个 a-z、0-9、'-'）",
  },
  ledgerFile: {
    en: "a ledger file in a folder of your own (not the shared temp folder)",
    zh: "你自己目录中的账本文件（不能直接放在共享临时目录里）",
  },
} as const satisfies Record<string, Text>;

/** The usage errors and refusals of the shared flags. */
export const PLACE_MESSAGES = {
  contradict: {
    en: "--json and --format {format} contradict each other",
    zh: "--json 与 --format {format} 互相矛盾",
  },
  notBoth: {
    en: "give --ledger or --ledger-file, not both",
    zh: "--ledger 和 --ledger-file 只能给一个",
  },
  ledgerRequired: {
    en: "--ledger NAME or --ledger-file PATH is required",
    zh: "需要 --ledger NAME 或 --ledger-file PATH",
  },
  noLedgerNamed: {
    en: "no ledger named {name} (a run with --ledger {name} creates it)",
    zh: "没有名为 {name} 的账本（用 --ledger {name} 运行一次 run 会创建它）",
  },
  noLedgerFile: {
    en: "no ledger file at {path}",
    zh: "{path} 处没有账本文件",
  },
} as const satisfies Record<string, Text>;
