/**
 * What a learning system's results file says to the student, in both
 * languages (`lms_results.ts` writes it; the keys are the format's).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { Cell } from "../exercises/class_grade.ts";

/** The words of a results file: the summary, and each exercise's outcome. */
export const LMS_MESSAGES = {
  summary: (
    done: number,
    of: number,
    course: string,
    code: string | null,
  ): Text => ({
    en: `${done} of ${of} exercises done (course ${course}${
      code === null ? "" : `, code ${code}`
    }): each answer re-run by guardlab with your own values`,
    zh: `完成 ${done} / ${of} 道练习（课程 ${course}${
      code === null ? "" : `，代码 ${code}`
    }）：每个答案都由 guardlab 按你自己的取值重新运行`,
  }),
  cell: (cell: Cell, n: number): Text => {
    switch (cell) {
      case "done":
        return { en: "done", zh: "完成" };
      case "not-yet":
        return {
          en: `not passed: see why with guardlab exercise check ${n}`,
          zh: `未通过：用 guardlab exercise check ${n} 查看原因`,
        };
      case "missing":
        return { en: "not handed in", zh: "没有交" };
      case "over-limit":
        return {
          en: "over the limit: the answer runs too many steps or bytes",
          zh: "超出限制：答案运行的步骤或字节太多",
        };
      case "copy":
        return {
          en: "identical to another student's passing answer, and it fails " +
            "with your values (a copy)",
          zh: "与另一名学生通过的答案相同，按你的取值不通过（与他人相同）",
        };
    }
  },
  notGraded: (reason: Text): Text => ({
    en: `not graded: ${reason.en}`,
    zh: `未评分：${reason.zh}`,
  }),
  unknown: {
    en: "not graded: the hand-in could not be read",
    zh: "未评分：无法读取这份作业",
  },
} as const;
