/**
 * What the sandbox says when it refuses a place, in both languages (the
 * older refusals are in `safe_fs.ts`'s `PROBLEM` table).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The sandbox's newer refusals. `{mode}` is an octal mode, `{file}` and `{folder}` paths. */
export const SANDBOX_MESSAGES = {
  openableByOthers: {
    en: "can be opened by other users (mode {mode}, in a folder they can " +
      "enter): a read lock of theirs on it could stall guardlab or leave " +
      "its -wal and -shm behind",
    zh: "其他用户可以打开它（权限 {mode}，所在目录他们可以进入）：" +
      "他们在上面加的读锁可能让 guardlab 卡住，或留下 -wal 和 -shm",
  },
  makeItYours: {
    en: "make it yours alone ({chmodFile}) or its folder ({chmodFolder})",
    zh:
      "请让它只属于你（{chmodFile}），或让它所在的目录只属于你（{chmodFolder}）",
  },
  makeItYoursNoCommand: {
    en: "make it and its folder yours alone; {why}",
    zh: "请让它和它所在的目录只属于你；{why}",
  },
  tooLarge: {
    en: "is too large to read ({size} bytes; guardlab reads at most " +
      "{limit} bytes of such a file)",
    zh:
      "太大，无法读取（{size} 字节；guardlab 最多读取这类文件的 {limit} 字节）",
  },
  fileExists: {
    en: "exists already; guardlab writes a new file and never replaces one",
    zh: "已经存在；guardlab 只写新文件，从不覆盖已有文件",
  },
  fileExistsRemedy: {
    en: "give a new name (or remove the old file first)",
    zh: "请换一个新名字（或先删除旧文件）",
  },
  nameTooLong: {
    en: "is too long a path for this system (a name or the whole path " +
      "is over its limit)",
    zh: "路径太长，超出了本系统的上限（某一级名字或整个路径太长）",
  },
  notUnderFolder: {
    en: "cannot be reached: a part of its path is a file, not a folder",
    zh: "无法到达：它路径中的某一级是文件，不是目录",
  },
  outOfDescriptors: {
    en: "cannot be opened: guardlab ran out of file descriptors (the " +
      "limit of open files, ulimit -n, is too low); raise the limit and " +
      "try again",
    zh:
      "无法打开：guardlab 用完了文件描述符（打开文件数上限 ulimit -n 太低）；" +
      "请调高上限后重试",
  },
} as const satisfies Record<string, Text>;
