/**
 * What the store says when it refuses a database file, in both languages.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import type { Problem } from "./_inspect.ts";

/** The longest name of a schema object a refusal shows; the rest is cut. */
const SHOWN_NAME = 64;

/** `name` from a file as a refusal shows it: inert, and cut when long. */
function shown(name: string): string {
  const chars = [...name];
  return inert(
    chars.length > SHOWN_NAME
      ? chars.slice(0, SHOWN_NAME).join("") + "…"
      : name,
  );
}

/** The store's refusals of a file: `{path}` is the file, `{what}` what it should be. */
export const STORE_MESSAGES = {
  notGuardlab: {
    en: "{path} is not a guardlab {what} ({why})",
    zh: "{path} 不是 guardlab 的{what}（{why}）",
  },
  // `{why}` is SQLite's own message (`sqliteWhy`), named as SQLite's.
  unusable: {
    en: "{path} is not a usable SQLite {what} ({why})",
    zh: "{path} 不是可用的 SQLite {what}（SQLite：{why}）",
  },
  notWritten: {
    en: "{path} could not be opened to write (SQLite: {why}); the device " +
      "that holds it may be full (on a shared /tmp, another user may have " +
      "filled it): free some space and run it again; the {what} is as it was",
    zh:
      "{path} 无法打开写入（SQLite：{why}）；它所在的设备可能已满（在共享的 " +
      "/tmp 上，可能是别的用户把它占满了）：请腾出空间后再运行；{what}保持原样",
  },
  empty: {
    en: "{path} is not a {what} (it is empty)",
    zh: "{path} 不是{what}（文件是空的）",
  },
  foreignTable: { en: "a foreign table {name}", zh: "有外来的表 {name}" },
  foreignIndex: { en: "a foreign index {name}", zh: "有外来的索引 {name}" },
  foreignObject: {
    en: "a {type} named {name}",
    zh: "有名为 {name} 的 {type}",
  },
  trigger: {
    en: "a trigger {name} guardlab did not install",
    zh: "有不是 guardlab 安装的触发器 {name}",
  },
  tableDiffers: {
    en: "table {name} is not defined as guardlab defines it",
    zh: "表 {name} 的定义与 guardlab 的不同",
  },
  indexDiffers: {
    en: "index {name} is not defined as guardlab defines it",
    zh: "索引 {name} 的定义与 guardlab 的不同",
  },
  noTable: { en: "no table {name}", zh: "缺少表 {name}" },
  noIndex: { en: "no index {name}", zh: "缺少索引 {name}" },
  damaged: { en: "damaged: {said}", zh: "已损坏：{said}" },
  inexact: {
    en: "it holds values guardlab cannot show exactly (a wrong kind, " +
      "or an integer beyond 2^53)",
    zh: "其中有 guardlab 无法准确显示的值（类型不对，或整数超过 2^53）",
  },
  checkStopped: {
    en: "guardlab stopped checking {path} after {seconds} s, before it " +
      "could tell whether it is a guardlab {what} (the check takes longer " +
      "on a busy machine); nothing was changed: run the command again when " +
      "the machine is less busy",
    zh: "guardlab 检查 {path} {seconds} 秒后停止了，还没能判断它是不是 " +
      "guardlab 的{what}（机器忙时检查会更慢）；没有改动任何东西：" +
      "请在机器不那么忙时再运行这条命令",
  },
} as const satisfies Record<string, Text>;

/** The words for a schema or value problem the inspection found. */
export function problemText(problem: Problem): Text {
  const m = STORE_MESSAGES;
  switch (problem.kind) {
    case "foreign":
      if (problem.type === "table") {
        return fill(m.foreignTable, { name: shown(problem.name) });
      }
      if (problem.type === "index") {
        return fill(m.foreignIndex, { name: shown(problem.name) });
      }
      return fill(m.foreignObject, {
        type: shown(problem.type),
        name: shown(problem.name),
      });
    case "trigger":
      return fill(m.trigger, { name: shown(problem.name) });
    case "differs":
      return fill(problem.type === "index" ? m.indexDiffers : m.tableDiffers, {
        name: shown(problem.name),
      });
    case "missing":
      return fill(problem.type === "index" ? m.noIndex : m.noTable, {
        name: shown(problem.name),
      });
    case "damaged":
      return fill(m.damaged, { said: problem.said });
    case "inexact":
      return m.inexact;
    case "unusable":
      return sqliteWhy(problem.message);
  }
}

/** SQLite's own messages a reader of Chinese meets most, in Chinese. */
const SQLITE_WHY: Readonly<Record<string, string>> = {
  "file is not a database": "文件不是数据库",
  "database disk image is malformed": "数据库文件已损坏",
  "database is locked": "数据库被锁住",
};

/** SQLite's message `why`, in each language: as SQLite said it, or its Chinese. */
export function sqliteWhy(why: string): Text {
  return {
    en: why,
    zh: Object.hasOwn(SQLITE_WHY, why) ? SQLITE_WHY[why] : why,
  };
}
