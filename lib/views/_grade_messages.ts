/**
 * What the class grade table says, in both languages: its head, columns,
 * legend and flags (`grade_table.ts` draws them; the CSV and JSON carry
 * codes, not these words).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The class grade table's words: its head, columns, legend and flags. */
export const GRADE_MESSAGES = {
  head: (rows: number, copies: boolean): Text => ({
    en: `${rows} hand-in${rows === 1 ? "" : "s"}${
      copies
        ? ": every answer re-run here, a ledger copy only re-judged (see below)"
        : ", every answer re-run here"
    }`,
    zh: `${rows} 份作业${
      copies
        ? "：每个答案都在此重新运行，账本副本只重新判定（见下文）"
        : "，每个答案都在此重新运行"
    }`,
  }),
  variants: (code: string | null): Text =>
    code
      ? {
        en: `course ${code}: each answer judged with its student's own values`,
        zh: `课程 ${code}：每个答案都按其学生自己的取值判定`,
      }
      : {
        en: "no course code: every student has the fixed values",
        zh: "没有课程代码：所有学生用同一组固定取值",
      },
  student: { en: "student", zh: "学生" },
  total: { en: "total", zh: "合计" },
  perExercise: { en: "done per exercise", zh: "每题完成人数" },
  notGraded: { en: "not graded: see below", zh: "未评分：见下文" },
  file: (file: string): Text => ({
    en: `  file: ${file}`,
    zh: `  文件：${file}`,
  }),
  continued: (from: number, to: number): Text =>
    from === to
      ? { en: `exercise ${from} (continued):`, zh: `练习 ${from}（续）：` }
      : {
        en: `exercises ${from}-${to} (continued):`,
        zh: `练习 ${from}-${to}（续）：`,
      },
  done: { en: "done", zh: "完成" },
  notYet: { en: "not yet", zh: "未通过" },
  missing: { en: "not handed in", zh: "没有交" },
  overLimit: { en: "over the limit", zh: "超出限制" },
  copy: { en: "a copy (see flags)", zh: "与他人相同（见标记）" },
  revealedMark: {
    en: "r after a mark: the prediction's outcome was revealed (--reveal)",
    zh: "标记后的 r：这道预测题的结果被揭示过（--reveal）",
  },
  hintedMark: {
    en: "h after a mark: the prediction was made after hints were shown",
    zh: "标记后的 h：这道预测题是在看过提示之后才预测的",
  },
  countedOnce: {
    en: "done per exercise: identical hand-ins count once (see flags)",
    zh: "每题完成人数：完全相同的作业只算一次（见标记）",
  },
  codeUsed: (code: string | null): Text =>
    code === null
      ? { en: "  course code used: none", zh: "  所用课程代码：无" }
      : { en: `  course code used: ${code}`, zh: `  所用课程代码：${code}` },
  order: {
    en: "Order: when each hand-in of a flagged group first checked the " +
      "exercise (UTC, as each hand-in says; a hand-in can be edited), " +
      "earliest first:",
    zh: "先后：被标记的每组作业各自第一次检查这道练习的时间（UTC，" +
      "按各份作业自己的记录；作业可以被改动），最早的在前：",
  },
  orderExercise: (n: number): Text => ({
    en: `  exercise ${n}:`,
    zh: `  练习 ${n}：`,
  }),
  notRecorded: { en: "(not recorded)", zh: "（未记录）" },
  ownTotal: {
    en: "(n) after a total: done under the course code the student used " +
      "(see flags)",
    zh: "合计后的 (n)：按学生自己所用的课程代码判定的完成数（见标记）",
  },
  colon: { en: ": ", zh: "：" },
  flags: { en: "Flags:", zh: "标记：" },
  noFlags: { en: "Flags: none.", zh: "标记：无。" },
  builtinHandIns: (n: number, course: string): Text => ({
    en: `  ${n} hand-in${n === 1 ? " is" : "s are"} for the built-in ` +
      `exercises, not course ${course}: made without --course FILE? ` +
      "(guardlab exercise --course FILE hand-in)",
    zh: `  有 ${n} 份作业是为内置练习交的，不是课程 ${course}：` +
      "是不是忘了 --course FILE？（guardlab exercise --course FILE hand-in）",
  }),
  notRerun: (n: number, session: Text, agent: Text): Text => ({
    en: `exercise ${n}: ${session.en}. ${agent.en}`,
    zh: `练习 ${n}：${session.zh}。${agent.zh}`,
  }),
} as const;

/** One flag of the class grade, in words: what the teacher should look at. */
export const GRADE_FLAG_MESSAGES = {
  malformed: (reason: Text): Text => ({
    en: `not graded: ${reason.en}`,
    zh: `未评分：${reason.zh}`,
  }),
  identical: (files: string[]): Text => ({
    en: `identical to ${files.join(", ")}: the same digest, or the same ` +
      "answers byte for byte",
    zh: `与 ${files.join("、")} 完全相同：摘要相同，或答案逐字节相同`,
  }),
  sameVariant: (files: string[]): Text => ({
    en: `the same variant seed as ${files.join(", ")}: one hand-in was ` +
      "made from the other's progress, so their values are the same",
    zh: `与 ${files.join("、")} 的变体种子相同：一份作业出自另一份的进度，` +
      "所以两者取值相同",
  }),
  duplicateName: (files: string[]): Text => ({
    en: `the same name as ${files.join(", ")} (duplicate name; each ` +
      "hand-in has values of its own)",
    zh: `与 ${files.join("、")} 同名（重名；每份作业各有自己的取值）`,
  }),
  lookAlikeName: (files: string[], letters: string[]): Text => ({
    en: `a name that looks the same as ${files.join(", ")}'s: they differ ` +
      "only in case, width, invisible characters or look-alike letters" +
      (letters.length > 0 ? ` (${letters.join(", ")})` : "") +
      "; each hand-in has values of its own",
    zh: `名字与 ${files.join("、")} 的看起来一样：只差大小写、全角半角、` +
      "不可见字符或形近字母" +
      (letters.length > 0 ? `（${letters.join("、")}）` : "") +
      "；每份作业各有自己的取值",
  }),
  foreignOwner: (owner: number, uid: number | null): Text => ({
    en:
      `the file belongs to uid ${owner}, but the hand-in names ${
        uid === null ? "no uid" : `uid ${uid}`
      }: another account created this file (its owner is the account that ` +
      "created it; the uid inside is a claim anyone can edit)",
    zh:
      `文件属于 uid ${owner}，而作业里写的是${
        uid === null ? "空的 uid" : ` uid ${uid}`
      }：这个文件由另一个账户创建（所有者是创建文件的账户；` +
      "作业里的 uid 只是任何人都能改的声明）",
  }),
  writable: (mode: string): Text => ({
    en: `other users can write the file (mode ${mode}): anyone could have ` +
      "changed what it says",
    zh: `其他用户可以写这个文件（权限 ${mode}）：任何人都可能改过其中内容`,
  }),
  handMadeName: (reason: Text): Text => ({
    en: `the name is not one guardlab config name stores (${reason.en}): ` +
      "the hand-in was made or edited by hand; graded under the name as " +
      "written, shown with the characters made visible",
    zh: `这个名字不是 guardlab config name 会保存的（${reason.zh}）：` +
      "作业是手工做出或改过的；已按写着的名字评分，看不见的字符显示出来",
  }),
  edited: {
    en: "changed after hand-in: the digest does not match " +
      "(a digest shows accidents, it is not a signature)",
    zh: "交出后被改动过：摘要不符（摘要只能发现意外改动，不是签名）",
  },
  olderFormat: (version: number): Text =>
    version === 1
      ? {
        en: `hand-in format ${version}, from an older guardlab: its values ` +
          "come from the name (a namesake has the same ones) and it names no " +
          "uid",
        zh: `作业格式 ${version}，来自较旧的 guardlab：取值由名字算出` +
          "（同名者取值相同），也没有写明 uid",
      }
      : {
        en: `hand-in format ${version}, from an older guardlab: its values ` +
          "come from the seed alone (a copy renamed to another student keeps " +
          "passing) and it says neither when each exercise was first checked " +
          "nor the hints before a prediction",
        zh: `作业格式 ${version}，来自较旧的 guardlab：取值只由种子算出` +
          "（改成别的学生名字的副本照样通过），也没有记下每道练习第一次检查的时间" +
          "和预测之前看过的提示",
      },
  otherVersion: (version: string): Text => ({
    en: `made by guardlab ${version} (graded by this version)`,
    zh: `由 guardlab ${version} 生成（已用本版本评分）`,
  }),
  builtinCourse: {
    en: "handed in for the built-in exercises, not this course: " +
      "checked and handed in without --course FILE?",
    zh: "这是为内置练习交的作业，不是本课程：是不是检查和交作业时都没有加 " +
      "--course FILE？",
  },
  otherCourse: (id: string, code: string | null): Text => ({
    en: `from course ${id}, ${
      code === null ? "no code" : `code ${code}`
    } (graded with this course's values)`,
    zh: `来自课程 ${id}，${
      code === null ? "没有代码" : `代码 ${code}`
    }（已按本课程的取值评分）`,
  }),
  otherCode: (code: string | null, done: number, of: number): Text =>
    code === null
      ? {
        en: `made without a course code, not under this one: ${done} of ` +
          `${of} done with the fixed values, shown (${done}) beside the ` +
          "total (graded with this course's values)",
        zh: `在没有课程代码时完成，不是本课程的代码：按固定取值完成 ` +
          `${done} / ${of} 个，显示在合计后的 (${done}) 里` +
          "（已按本课程的取值评分）",
      }
      : {
        en: `made under course code ${code}, not this one: ${done} of ` +
          `${of} done under its own code, shown (${done}) beside the ` +
          "total (graded with this course's values)",
        zh: `在课程代码 ${code} 下完成，不是本课程的代码：按它自己的代码完成 ` +
          `${done} / ${of} 个，显示在合计后的 (${done}) 里` +
          "（已按本课程的取值评分）",
      },
  notInCourse: (exercises: string[], more: number): Text => ({
    en: `exercises not in this course, not graded: ${exercises.join(", ")}${
      more > 0 ? ` and ${more} more` : ""
    }`,
    zh: `不属于本课程的练习，未评分：${exercises.join("、")}${
      more > 0 ? `，另有 ${more} 个` : ""
    }`,
  }),
  revealed: (exercises: number[], older: boolean): Text => ({
    en: `exercise${exercises.length === 1 ? "" : "s"} ${
      exercises.join(", ")
    }: the outcome was revealed (--reveal)${
      older
        ? "; an older guardlab let that happen before the first guess"
        : ", after the first guess"
    }`,
    zh: `练习 ${exercises.join("、")}：结果被揭示过（--reveal）${
      older
        ? "；较旧的 guardlab 允许在第一次猜测之前揭示"
        : "，在第一次猜测之后"
    }`,
  }),
  copy: (n: number, files: string[]): Text => ({
    en: `exercise ${n}: identical to the passing answer in ` +
      `${files.join(", ")}; it fails here (a copy)`,
    zh: `练习 ${n}：与 ${files.join("、")} 中通过的答案相同，` +
      "在这里不通过（与他人相同）",
  }),
} as const;
