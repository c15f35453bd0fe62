/**
 * Every text of `guardlab exercise`, in both languages side by side: its
 * help, its flags, its exit codes, and the lines its actions print around
 * what `lib/exercises` says.
 *
 * @module
 */
import { same, type Text } from "../../../base/i18n.ts";
import {
  MAX_ANSWER_STEPS,
  MAX_HAND_IN_BYTES,
  MAX_STEP_BYTES,
} from "../../../exercises/mod.ts";
import type { ExerciseParams, ParamName } from "../../../exercises/mod.ts";

/** The command's help and its exit codes (its one line is the registry's, `lib/cli/messages/overview.ts`). */
export const EXERCISE_HELP = {
  about: {
    en: `Each exercise asks you to make something happen (or to predict it) and
names the article's claim it proves. Answers are script steps (JSON Lines),
read from stdin or from a FILE of yours under the temp folder; check runs them
in a fresh scratch ledger and judges the outcomes and the ledger they leave
(read through a second connection), invariant by invariant: a finding whose
premise failed is shown [--], not checked. A prediction is one JSON line; only
your first guess counts and is kept, a wrong guess shows only that it was
wrong, and --reveal shows what happened (and is recorded). hint shows one more
hint each time. show N --invariants prints what is checked, for a teacher, in
both languages (a prediction's once its first guess is kept, as its claim).
--course FILE reads a teacher's course file in the same form
(docs/en/06-course-and-grading.md); without it the built-in exercises are the
course.
Progress lives in your private folder (reset keeps it). hand-in prints your
work as JSON, with your name (guardlab config name) and course code
(guardlab config course).
grade re-runs every answer of each hand-in (files, the files of a FOLDER, or
stdin) and prints a students × exercises table: results in the files are never
trusted. An answer is stopped at ${MAX_ANSWER_STEPS} steps or ${MAX_STEP_BYTES} bytes held
per step ("over the limit"); a hand-in file is read up to ${MAX_HAND_IN_BYTES} bytes.
grade FILE --format gradescope|prairielearn|exercism grades one hand-in into
the results file that learning system reads (chapter 6), on stdout or in a new
--output FILE.
An exercise judged from a ledger (an agent's session over guardlab mcp) is
checked with --ledger NAME: a bounded copy of that ledger's rows and MCP calls
is judged and handed in; grade re-judges the copy and does not re-run the
session.`,
    zh:
      `每个练习要求你让某件事发生（或预测它），并说明它证明文章的哪个论断。答案是
script 步骤（JSON Lines），从标准输入或临时目录下你自己的 FILE 读取；check 在
新的临时账本里运行它们，逐条按不变式判定结果和留下的账本（通过另一条连接读取）：
前提不成立时，依赖它的结论显示 [--]，即未检查。预测只写一行 JSON；只有第一次
猜测算数并被保存，猜错时只显示猜错了，--reveal 会显示实际结果
（并被记录）。hint 每次多给一条提示。show N --invariants
用两种语言列出检查的内容，供老师查看（预测题的和它的论断一样，
在第一次预测保存之后）。
--course FILE 读取老师的课程文件（同样的格式，见
docs/zh/06-course-and-grading.md）；不给时，内置练习就是课程。
进度保存在你的私有目录里（reset 不会删除）。hand-in 以 JSON 输出你的作业，
带上你的名字（guardlab config name）和课程代码（guardlab config course）。
grade 重新运行每份作业（文件、FOLDER 里的文件或标准输入）的每个答案，
输出“学生 × 练习”表：文件里记录的结果从不被信任。一个答案最多运行 ${MAX_ANSWER_STEPS} 步，
每步最多保留 ${MAX_STEP_BYTES} 字节（否则记为“超出限制”）；作业文件最多读取
${MAX_HAND_IN_BYTES} 字节。grade FILE --format gradescope|prairielearn|exercism
把一份作业的评分写成那个学习平台读取的结果文件（第 6 章），输出到标准输出，
或写进新的 --output FILE。
按账本判定的练习（Agent 通过 guardlab mcp 进行的会话）用 --ledger NAME 检查：
判定并上交的是这个账本各行和 MCP 调用的有界副本；grade 重新判定副本，
不会重跑会话。`,
  },
  done: {
    en: "done (check: every invariant held; grade: every hand-in graded)",
    zh: "完成（check：每条不变式都成立；grade：每份作业都已评分）",
  },
  notYet: {
    en: "not yet (check), or a hand-in that could not be graded (grade)",
    zh: "未通过（check），或有作业无法评分（grade）",
  },
  usage: {
    en: "usage error, or a malformed course file (its line and field)",
    zh: "用法错误，或课程文件格式不对（给出行号和字段）",
  },
} as const;

/** What each flag of `exercise` does. */
export const EXERCISE_FLAGS = {
  json: {
    en: "list, progress and grade as JSON",
    zh: "以 JSON 输出 list、progress 和 grade",
  },
  course: {
    en: "a course file under the temp folder (default: the built-in exercises)",
    zh: "临时目录下的课程文件（默认：内置练习）",
  },
  invariants: {
    en: "show: print the invariants, for a teacher, in both languages (a " +
      "prediction's once its first guess is kept)",
    zh:
      "show：用两种语言列出不变式，供老师查看（预测题的在第一次预测保存之后）",
  },
  reveal: {
    en: "check a prediction: show what happened (recorded in your progress)",
    zh: "检查预测：显示实际结果（会记录在进度里）",
  },
  csv: {
    en: "grade as CSV, for a spreadsheet (UTF-8 with a BOM, LF line ends, " +
      "the same in every language)",
    zh:
      "以 CSV 输出 grade，便于电子表格（UTF-8 带 BOM，换行为 LF，各语言相同）",
  },
  output: {
    en: "hand-in, or grade with --format: write to FILE, a new file in a " +
      "folder of your own (made with mode 0600)",
    zh: "hand-in，或带 --format 的 grade：写进 FILE，它必须是你自己目录里的" +
      "新文件（权限 0600）",
  },
  format: {
    en: "grade one hand-in into the results file a learning system reads: " +
      "gradescope, prairielearn or exercism (chapter 6)",
    zh: "把一份作业的评分写成学习平台读取的结果文件：gradescope、" +
      "prairielearn 或 exercism（第 6 章）",
  },
  ledger: {
    en: "check an exercise judged from a ledger: the named ledger a " +
      "session left (read only, never changed)",
    zh: "检查按账本判定的练习：某次会话留下的命名账本（只读，从不修改）",
  },
} as const;

/** What is wrong with how `exercise` was called. */
export const EXERCISE_USAGE = {
  action: (actions: readonly string[]): Text => ({
    en: `exercise needs one of ${actions.join(", ")}`,
    zh: `exercise 需要 ${actions.join("、")} 之一`,
  }),
  extra: (shown: string): Text => ({
    en: `unexpected argument ${shown}`,
    zh: `多余的参数 ${shown}`,
  }),
  goesWith: (flag: string, actions: readonly string[]): Text => ({
    en: `--${flag} goes with ${actions.join(" or ")}`,
    zh: `--${flag} 只能用于 ${actions.join(" 或 ")}`,
  }),
  noExercise: (shown: string, last: number): Text => ({
    en: `no exercise ${shown}: choose 1-${last}`,
    zh: `没有练习 ${shown}：请选 1-${last}`,
  }),
  tooLarge: (max: number): Text => ({
    en: `the input is larger than ${max} bytes`,
    zh: `输入超过 ${max} 字节`,
  }),
  fromLedger: (command: string, n: number): Text => ({
    en: `exercise ${n} is judged from a ledger: ` +
      `${command} check ${n} --ledger NAME`,
    zh: `练习 ${n} 按账本判定：${command} check ${n} --ledger NAME`,
  }),
  notFromLedger: (n: number): Text => ({
    en: `--ledger is for an exercise judged from a ledger; ` +
      `exercise ${n} judges an answer (FILE or stdin)`,
    zh: `--ledger 用于按账本判定的练习；练习 ${n} 判定的是答案` +
      "（FILE 或标准输入）",
  }),
  jsonOrCsv: {
    en: "choose one of --json, --csv and --format",
    zh: "--json、--csv 和 --format 只能选一个",
  },
  oneHandIn: (count: number): Text => ({
    en: `--format writes one student's results file: give one hand-in, ` +
      `not ${count}`,
    zh: `--format 写的是一名学生的结果文件：请只给一份作业，而不是 ${count} 份`,
  }),
  outputNeedsFormat: {
    en: "--output with grade writes a results file: give --format too",
    zh: "grade 的 --output 用来写结果文件：请同时给出 --format",
  },
  noHandIn: {
    en: "no hand-in: give FILE or FOLDER, or pipe one on stdin",
    zh: "没有作业：请给出 FILE 或 FOLDER，或从标准输入传入一份",
  },
  noHandInAt: (shown: string): Text => ({
    en: `no hand-in at ${shown}`,
    zh: `${shown} 处没有作业文件`,
  }),
} as const;

/** The lines the actions print around what the exercises say. */
export const EXERCISE_LINES = {
  done: { en: "done", zh: "已完成" },
  attempted: { en: "attempted", zh: "尝试过" },
  "not started": { en: "not started", zh: "未开始" },
  aCourse: { en: "a course", zh: "课程" },
  anAnswer: { en: "an answer", zh: "答案" },
  courseRefused: (
    shown: string,
    line: number | undefined,
    field: string,
    why: Text,
  ): Text => ({
    en: `guardlab: course ${shown}: ${
      line ? `line ${line}, ` : ""
    }field ${field}: ${why.en}`,
    zh: `guardlab: 课程 ${shown}：${
      line ? `第 ${line} 行，` : ""
    }字段 ${field}：${why.zh}`,
  }),
  unkept: (problem: Text): Text => ({
    en: `note: your progress could not be kept: ${problem.en}`,
    zh: `注意：你的进度无法保存：${problem.zh}`,
  }),
  yourValues: (
    course: string,
    name: string,
    values: readonly Text[],
    n: number,
  ): Text => ({
    en: `Your values for exercise ${n} (course ${course}, ${name}): ` +
      `${values.map((v) => v.en).join(", ")}. check and grade require these.`,
    zh: `你在练习 ${n} 的取值（课程 ${course}，${name}）：` +
      `${
        values.map((v) => v.zh).join("，")
      }。check 和 grade 都按这些取值判定。`,
  }),
  /** One value as the values line names it. */
  value: (name: ParamName, p: ExerciseParams): Text => {
    const v = p[name];
    switch (name) {
      case "job":
        return same(`job ${v}`);
      case "otherJob":
        return { en: `other job ${v}`, zh: `另一个 job ${v}` };
      case "topic":
        return same(`topic ${v}`);
      case "copies":
        return same(`copies ${v}`);
      case "overCopies":
        return { en: `over-limit copies ${v}`, zh: `超限的 copies ${v}` };
      case "lowerLimit":
        return { en: `lowered limit ${v}`, zh: `降低后的上限 ${v}` };
    }
  },
  claim: { en: "Claim: ", zh: "论断：" },
  claimAfterGuess: {
    en: "shown once your first prediction is kept (it would give the " +
      "answer away)",
    zh: "在你的第一次预测保存之后显示（先显示就等于给出了答案）",
  },
  invariantsAfterGuess: (command: string, n: number): Text => ({
    en: `exercise ${n} is a prediction: its invariants say what happens, ` +
      "so they are shown once your first prediction is kept " +
      `(${command} check ${n} < guess.json)`,
    zh: `练习 ${n} 是预测题：它的不变式说出了会发生什么，` +
      `所以在你的第一次预测保存之后才显示（${command} check ${n} < guess.json）`,
  }),
  aStart: { en: "A start:", zh: "开头可以这样写：" },
  checkLedger: (command: string, n: number): Text => ({
    en: `Check: ${command} check ${n} --ledger NAME`,
    zh: `检查：${command} check ${n} --ledger NAME`,
  }),
  checkAnswer: (command: string, n: number): Text => ({
    en: `Check: ${command} check ${n} < answer.jsonl`,
    zh: `检查：${command} check ${n} < answer.jsonl`,
  }),
  everyHint: {
    en: "(that is every hint: the rest is yours)",
    zh: "（提示就这些：剩下的交给你）",
  },
  hintsRecorded: {
    en: "(your hand-in records how many hints you saw before your prediction)",
    zh: "（作业会记下你在预测之前看了几条提示）",
  },
  doneOf: (done: number, of: number): Text => ({
    en: `${done} of ${of} exercises done`,
    zh: `已完成 ${done} / ${of} 个练习`,
  }),
  checkedAsOther: (command: string, n: number): Text => ({
    en: `guardlab: exercise ${n} was checked under another name, course ` +
      `code or variant, or by an older guardlab whose values differ: check ` +
      `it again (${command} check ${n})`,
    zh: `guardlab: 练习 ${n} 是在另一个名字、课程代码或变体下检查的，` +
      `或是由取值不同的较旧 guardlab 检查的：请重新检查（${command} check ${n}）`,
  }),
  passedWithoutCourse: (command: string, n: number): Text => ({
    en: `guardlab: exercise ${n} was passed without --course, so it is not ` +
      `in this hand-in: check it again (${command} check ${n})`,
    zh: `guardlab: 练习 ${n} 是在没有 --course 时通过的，所以不在这份作业里：` +
      `请重新检查（${command} check ${n}）`,
  }),
  resultsWritten: (shown: string, format: string): Text => ({
    en: `${format} results written to ${shown} (mode 0600)`,
    zh: `${format} 结果文件已写入 ${shown}（权限 0600）`,
  }),
  handInWritten: (shown: string): Text => ({
    en: `hand-in written to ${shown} (mode 0600: only you can read it); ` +
      "give your teacher a copy",
    zh: `作业已写入 ${shown}（权限 0600：只有你能读）；请把一份副本交给老师`,
  }),
} as const;
