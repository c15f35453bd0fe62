/**
 * Why a new file the exercises write (a hand-in, a results file) is not
 * written where the user asked, and what to do, in both languages.
 *
 * @module
 */

/** Why a hand-in file cannot be written where the student asked. */
export const HAND_IN_FILE_MESSAGES = {
  ownFolder: {
    en: "write the hand-in inside a folder of your own that no one else " +
      "can write (e.g. mkdir -m 700 /tmp/NAME, then --output " +
      "/tmp/NAME/NAME.json), never into the shared /tmp itself",
    zh: "请把作业写进只有你能写的自己的目录（例如 mkdir -m 700 /tmp/NAME，" +
      "再用 --output /tmp/NAME/NAME.json），不要直接写进共享的 /tmp",
  },
  exists: {
    en: "already exists; a hand-in is always a new file, never written " +
      "into one that is there (someone may have made it for you)",
    zh:
      "已经存在；作业总是写成新文件，从不写进已有的文件（可能是别人替你建的）",
  },
  newName: {
    en: "choose a new name, or remove the old file first",
    zh: "请换一个新名字，或先删除旧文件",
  },
} as const;

/** Why a results file (`grade --format --output`) is not written, and what to do. */
export const RESULTS_FILE_MESSAGES = {
  ownFolder: {
    en: "write the results file inside a folder of your own that no one " +
      "else can write (e.g. mkdir -m 700 /tmp/NAME), never into the shared " +
      "/tmp itself",
    zh:
      "请把结果文件写进只有你能写的自己的目录（例如 mkdir -m 700 /tmp/NAME），" +
      "不要直接写进共享的 /tmp",
  },
  exists: {
    en: "already exists; a results file is always a new file, never " +
      "written into one that is there (someone may have made it for you)",
    zh:
      "已经存在；结果文件总是写成新文件，从不写进已有的文件（可能是别人替你建的）",
  },
  newName: HAND_IN_FILE_MESSAGES.newName,
} as const;
