/**
 * `guardlab exercise`: list, read, get hints on, check, hand in and grade
 * the exercises. The built-in course ships in the binary; `--course FILE`
 * reads a teacher's course file (under the temp folder) in the same form.
 * Answers come on stdin (or a FILE under the temp folder), so a student's
 * home is never read.
 *
 * @module
 */
import { join } from "node:path";
import config from "../../../deno.json" with { type: "json" };
import {
  BUILTIN_COURSE,
  type Course,
  exerciseAt,
  readCourse,
} from "../../exercises/course.ts";
import { describeInvariants } from "../../exercises/describe.ts";
import type { Exercise } from "../../exercises/form.ts";
import {
  CourseError,
  MAX_COURSE_BYTES,
} from "../../exercises/json_positions.ts";
import {
  exerciseTexts,
  judgeAnswer,
  type JudgeOptions,
} from "../../exercises/judge.ts";
import type { Verdict } from "../../exercises/verdict.ts";
import { foreignValue, foreignValueText } from "../../exercises/own_values.ts";
import type { ExerciseParams } from "../../exercises/params.ts";
import { paramsFor } from "../../exercises/variants.ts";
import {
  copyOfLedger,
  type CopyRefusal,
  LEDGER_NOT_AGENT,
  ledgerTooLarge,
  MAX_LEDGER_FILE_BYTES,
} from "../../exercises/ledger_copy.ts";
import { existingLedgerPath, LEDGER_OPTIONS, openExisting } from "../places.ts";
import { MAX_ANSWER_STEPS, MAX_STEP_BYTES } from "../../exercises/limits.ts";
import {
  type Progress,
  progressKey,
  readProgress,
  writeProgress,
} from "../../exercises/progress.ts";
import { readOrFallback } from "../../sandbox/private_file.ts";
import { gradeClass, type Source } from "../../exercises/class_grade.ts";
import {
  makeHandIn,
  MAX_HAND_IN_BYTES,
  readBounded,
} from "../../exercises/handin.ts";
import {
  assertFolderChain,
  currentUid,
  openPlainFile,
} from "../../sandbox/safe_fs.ts";
import { trustedFolders } from "../../sandbox/sandbox.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import { gradeCsv, gradeJson, gradeTable } from "../../views/grade_table.ts";
import { type Lang, say, type Text } from "../../base/i18n.ts";
import { displayWidth, wrap } from "../../base/terminal.ts";
import { EXIT } from "../exit.ts";
import type { Io } from "../io.ts";
import { command, printable, UsageError } from "../parser.ts";
import { readSettings, type Settings, storedSettings } from "../settings.ts";

const ACTIONS = [
  "list",
  "show",
  "hint",
  "check",
  "progress",
  "hand-in",
  "grade",
] as const;

/** The most an answer or a hand-in may be, read from stdin or a FILE. */
const MAX_ANSWER_BYTES = MAX_HAND_IN_BYTES;

/** The most hand-ins one `grade` reads: a class, with room to spare. */
const MAX_HAND_INS = 500;

function numberOf(course: Course, word: string | undefined): Exercise {
  const n = word !== undefined && /^[0-9]{1,3}$/.test(word)
    ? Number(word)
    : NaN;
  const exercise = exerciseAt(course, n);
  if (exercise === undefined) {
    const last = course.exercises.length;
    throw new UsageError({
      en: `no exercise ${printable(word ?? "")}: choose 1-${last}`,
      zh: `没有练习 ${printable(word ?? "")}：请选 1-${last}`,
    }, "exercise");
  }
  return exercise;
}

async function readAll(
  stream: ReadableStream<Uint8Array>,
  max = MAX_ANSWER_BYTES,
): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) {
      throw new UsageError({
        en: `the input is larger than ${max} bytes`,
        zh: `输入超过 ${max} 字节`,
      }, "exercise");
    }
    parts.push(chunk.slice());
  }
  return new TextDecoder().decode(
    await new Blob(parts as BlobPart[]).arrayBuffer(),
  );
}

function printWrapped(io: Io, text: string, indent = ""): void {
  for (const paragraph of text.split("\n")) {
    for (const line of wrap(indent + paragraph, 80)) io.out(line);
  }
}

function stateWord(
  state: "done" | "attempted" | undefined,
  lang: Lang,
): string {
  return say(
    state === "done"
      ? { en: "done", zh: "已完成" }
      : state === "attempted"
      ? { en: "attempted", zh: "尝试过" }
      : { en: "not started", zh: "未开始" },
    lang,
  );
}

/**
 * The hand-ins named on the command line: each FILE, and each entry of each
 * FOLDER (sorted; named by the entry alone when one folder is graded), opened
 * one at a time when graded. Every path passes the
 * sandbox's file rule (no link, this user's own file), else the grade is
 * refused; a sub-folder is named, not graded.
 */
function handInSources(paths: string[], base: string): Source[] {
  const tops = trustedFolders(base);
  const sources: Source[] = [];
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new UsageError({
        en: `no hand-in at ${printable(path)}`,
        zh: `${printable(path)} 处没有作业文件`,
      }, "exercise");
    }
    if (info.isDirectory) {
      assertFolderChain(path, currentUid(base), tops);
      const entries = [...Deno.readDirSync(path)].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0
      );
      for (const entry of entries) {
        const file = join(path, entry.name);
        // One folder: its files by name, as the teacher knows them.
        const shown = shownPath(paths.length === 1 ? entry.name : file);
        sources.push(
          entry.isDirectory
            ? {
              file: shown,
              read: () => Promise.resolve(""),
              problem: {
                en: "a folder, not a hand-in",
                zh: "是目录，不是作业文件",
              },
            }
            : fileSource(file, tops, shown),
        );
      }
    } else sources.push(fileSource(path, tops));
    if (sources.length > MAX_HAND_INS) {
      throw new UsageError({
        en: `more than ${MAX_HAND_INS} hand-ins: grade them in parts`,
        zh: `作业多于 ${MAX_HAND_INS} 份：请分批评分`,
      }, "exercise");
    }
  }
  return sources;
}

/** A path as a table shows it: any control or invisible character escaped. */
function shownPath(path: string): string {
  return path.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => "\\u" + c.codePointAt(0)!.toString(16).padStart(4, "0"),
  );
}

function fileSource(
  path: string,
  tops: readonly string[],
  shown: string = shownPath(path),
): Source {
  return {
    file: shown,
    async read() {
      const file = await openPlainFile(path, tops);
      return await readBounded(file.readable);
    },
  };
}

/** Open a FILE under the temp folder, or say in one line why it cannot be read (null). */
async function openInput(
  io: Io,
  file: string,
  what: Text,
  lang: Lang,
): Promise<ReadableStream<Uint8Array> | null> {
  try {
    return (await openPlainFile(file, trustedFolders(io.base))).readable;
  } catch (error) {
    if (
      !(error instanceof Deno.errors.NotFound) &&
      !(error instanceof Deno.errors.IsADirectory)
    ) throw error;
    io.err(say({
      en: `guardlab: cannot read ${what.en} from ${
        printable(file)
      }: not a readable file`,
      zh: `guardlab: 无法从 ${printable(file)} 读取${what.zh}：不是可读的文件`,
    }, lang));
    return null;
  }
}

/** Text from a file, made safe for one line: control and format characters escaped, length capped. */
function oneLine(text: string): string {
  const short = text.length > 200 ? text.slice(0, 200) + "…" : text;
  return short.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => "\\u" + c.codePointAt(0)!.toString(16).padStart(4, "0"),
  );
}

/**
 * The course `--course FILE` names (read inside the sandbox), or the
 * built-in one. A malformed file is one line with its line and field, and
 * exit 2; a file that cannot be read, exit 1.
 */
async function courseOf(
  io: Io,
  file: string | undefined,
  lang: Lang,
): Promise<Course | number> {
  if (file === undefined) return BUILTIN_COURSE;
  const input = await openInput(
    io,
    file,
    { en: "a course", zh: "课程" },
    lang,
  );
  if (input === null) return EXIT.failed;
  let course: Course;
  try {
    // One byte over the cap is enough for the reader to refuse it by size.
    let text: string;
    try {
      text = await readAll(input, MAX_COURSE_BYTES);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      text = " ".repeat(MAX_COURSE_BYTES + 1);
    }
    course = readCourse(text);
  } catch (error) {
    if (!(error instanceof CourseError)) throw error;
    const line = error.position?.line;
    const field = oneLine(error.field === "" ? "(top)" : error.field);
    io.err(say({
      en: `guardlab: course ${printable(file)}: ${
        line ? `line ${line}, ` : ""
      }field ${field}: ${oneLine(error.text.en)}`,
      zh: `guardlab: 课程 ${printable(file)}：${
        line ? `第 ${line} 行，` : ""
      }字段 ${field}：${oneLine(error.text.zh)}`,
    }, lang));
    return EXIT.usage;
  }
  return course;
}

/**
 * The progress after one check: a passing answer is kept for hand-in until
 * a newer one passes; a prediction keeps its first well-formed guess (the
 * one that counts) and whether the outcome was revealed; every check is
 * counted, and the first pass is dated.
 */
function recordCheck(
  p: Progress,
  key: string,
  x: Exercise,
  answer: string,
  v: Pick<Verdict, "passed" | "reason">,
  reveal: boolean,
  as: { course: string | null; name: string | null },
): Progress {
  const before = p.exercises[key];
  const keep = before?.state === "done" && !v.passed;
  const record = keep ? { ...before } : {
    ...before,
    state: v.passed ? "done" as const : "attempted" as const,
    answer,
    as,
  };
  record.checks = (before?.checks ?? 0) + 1;
  if (v.passed && before?.passed === undefined) {
    record.passed = new Date().toISOString();
  }
  const guess = before?.guess ??
    (x.kind === "prediction" && v.reason === null ? answer.trim() : undefined);
  if (guess !== undefined) record.guess = guess;
  if (before?.revealed === true || reveal) record.revealed = true;
  return { ...p, exercises: { ...p.exercises, [key]: record } };
}

/**
 * This student's values for exercise `x`: from the course code and the name
 * when the teacher gave a code (a code without a name is a usage error: the
 * values derive from both), else the fixed ones.
 */
function studentParams(settings: Settings, x: Exercise): ExerciseParams {
  if (settings.course !== undefined && settings.name === undefined) {
    throw new UsageError({
      en: "with a course code, your exercise values derive from your name: " +
        'set it first (guardlab config name "YOUR NAME")',
      zh: "设置了课程代码后，练习的取值由你的名字算出：请先设置名字" +
        '（guardlab config name "你的名字"）',
    }, "exercise");
  }
  return paramsFor(settings.course, settings.name ?? "", x.slug);
}

/**
 * Judge `answer` with `params`; with a course code in effect, an answer that
 * names a key or topic of another variant is "not yet" with this student's
 * values, before anything runs.
 */
async function judgeOwn(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  variants: boolean,
  options: JudgeOptions,
): Promise<Pick<Verdict, "passed" | "overLimit" | "feedback" | "reason">> {
  const foreign = variants && x.kind === "script" && x.judged === undefined
    ? foreignValue(answer, params)
    : null;
  if (foreign !== null) {
    const text = foreignValueText(foreign, params);
    return {
      passed: false,
      overLimit: false,
      reason: text,
      feedback: [text],
    };
  }
  return await judgeAnswer(x, answer, params, options);
}

/**
 * The bounded copy of the named ledger's rows, read through a read-only
 * snapshot that creates nothing; a file over the cap is refused before it
 * is read.
 */
function ledgerCopy(
  io: Io,
  name: string,
): { text: string } | CopyRefusal {
  const path = existingLedgerPath("exercise", io, { ledger: name });
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += Deno.lstatSync(file).size;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  if (bytes > MAX_LEDGER_FILE_BYTES) return ledgerTooLarge(bytes);
  const ledger = openExisting("exercise", io, { ledger: name });
  try {
    return copyOfLedger(ledger);
  } finally {
    ledger.close();
  }
}

const EMPTY_PROGRESS: Progress = { exercises: {}, hints: {} };

/** The `exercise` command. */
export const exercise = command({
  name: "exercise",
  summary: {
    en: "exercises: prove each claim, checked by the ledger you leave",
    zh: "练习：亲手证明每个论断，由你留下的账本来判定",
  },
  usage: `exercise [--course FILE] list [--json] | show N [--invariants]
                    | hint N | check N [FILE] [--reveal]
                    | check N --ledger NAME | progress [--json]
                    | hand-in > answers.json
                    | grade [FILE|FOLDER…] [--json|--csv]`,
  about: {
    en: `Each exercise asks you to make something happen (or to predict it) and
names the article's claim it proves. Answers are script steps (JSON Lines),
read from stdin or from a FILE of yours under the temp folder; check runs them
in a fresh scratch ledger and judges the outcomes and the ledger they leave
(read through a second connection), invariant by invariant: a finding whose
premise failed is shown [--], not checked. A prediction is one JSON line; only
your first guess counts and is kept, a wrong guess does not show what
happened, and --reveal shows it (and is recorded). hint shows one more hint
each time. show N --invariants prints what is checked, for a teacher, in both
languages. --course FILE reads a teacher's course file in the same form
(README: For a course); without it the built-in exercises are the course.
Progress lives in your private folder (reset keeps it). hand-in prints your
work as JSON, with your name (guardlab config name) and course code
(guardlab config course).
grade re-runs every answer of each hand-in (files, the files of a FOLDER, or
stdin) and prints a students × exercises table: results in the files are never
trusted. An answer is stopped at ${MAX_ANSWER_STEPS} steps or ${MAX_STEP_BYTES} bytes held
per step ("over the limit"); a hand-in file is read up to ${MAX_HAND_IN_BYTES} bytes.
An exercise judged from a ledger (an agent's session over guardlab mcp) is
checked with --ledger NAME: a bounded copy of that ledger's rows is judged and
handed in; grade re-judges the copy and does not re-run the session.`,
    zh:
      `每个练习要求你让某件事发生（或预测它），并说明它证明文章的哪个论断。答案是
script 步骤（JSON Lines），从标准输入或临时目录下你自己的 FILE 读取；check 在
新的临时账本里运行它们，逐条按不变式判定结果和留下的账本（通过另一条连接读取）：
前提不成立时，依赖它的结论显示 [--]，即未检查。预测只写一行 JSON；只有第一次
猜测算数并被保存，猜错时不显示实际结果，--reveal 会显示它（并被记录）。hint
每次多给一条提示。show N --invariants 用两种语言列出检查的内容，供老师查看。
--course FILE 读取老师的课程文件（同样的格式，见 README 的“For a course”）；
不给时，内置练习就是课程。进度保存在你的私有目录里（reset 不会删除）。hand-in
以 JSON 输出你的作业，带上
你的名字（guardlab config name）和课程代码（guardlab config course）。grade 重新
运行每份作业（文件、FOLDER 里的文件或标准输入）的每个答案，输出“学生 × 练习”表：
文件里记录的结果从不被信任。一个答案最多运行 ${MAX_ANSWER_STEPS} 步，每步最多保留
${MAX_STEP_BYTES} 字节（否则记为“超出限制”）；作业文件最多读取 ${MAX_HAND_IN_BYTES} 字节。
按账本判定的练习（agent 通过 guardlab mcp 进行的会话）用 --ledger NAME 检查：
判定并上交的是这个账本各行的有界副本；grade 重新判定副本，不会重跑会话。`,
  },
  options: {
    json: {
      type: "boolean",
      help: {
        en: "list, progress and grade as JSON",
        zh: "以 JSON 输出 list、progress 和 grade",
      },
    },
    course: {
      type: "string",
      value: "FILE",
      help: {
        en:
          "a course file under the temp folder (default: the built-in exercises)",
        zh: "临时目录下的课程文件（默认：内置练习）",
      },
    },
    invariants: {
      type: "boolean",
      help: {
        en: "show: print the invariants, for a teacher, in both languages",
        zh: "show：用两种语言列出不变式，供老师查看",
      },
    },
    reveal: {
      type: "boolean",
      help: {
        en:
          "check a prediction: show what happened (recorded in your progress)",
        zh: "检查预测：显示实际结果（会记录在进度里）",
      },
    },
    csv: {
      type: "boolean",
      help: {
        en: "grade as CSV, for a spreadsheet",
        zh: "以 CSV 输出 grade，便于电子表格",
      },
    },
    ledger: {
      ...LEDGER_OPTIONS.ledger,
      help: {
        en: "check an exercise judged from a ledger: the named ledger a " +
          "session left (read only, never changed)",
        zh: "检查按账本判定的练习：某次会话留下的命名账本（只读，从不修改）",
      },
    },
  },
  maxPositionals: 1 + MAX_HAND_INS,
  exits: {
    0: {
      en: "done (check: every invariant held; grade: every hand-in graded)",
      zh: "完成（check：每条不变式都成立；grade：每份作业都已评分）",
    },
    1: {
      en: "not yet (check), or a hand-in that could not be graded (grade)",
      zh: "还没有（check），或有作业无法评分（grade）",
    },
    2: {
      en: "usage error, or a malformed course file (its line and field)",
      zh: "用法错误，或课程文件格式不对（给出行号和字段）",
    },
    4: null,
  },
  async run({ values, positionals, io, lang }) {
    const [action, arg, file] = positionals;
    if (
      action === undefined || !(ACTIONS as readonly string[]).includes(action)
    ) {
      throw new UsageError({
        en: `exercise needs one of ${ACTIONS.join(", ")}`,
        zh: `exercise 需要 ${ACTIONS.join("、")} 之一`,
      }, "exercise");
    }
    const tooMany = (max: number) => {
      if (positionals.length > max) {
        throw new UsageError({
          en: `unexpected argument ${printable(positionals[max])}`,
          zh: `多余的参数 ${printable(positionals[max])}`,
        }, "exercise");
      }
    };
    const only = (
      flag: "json" | "csv" | "invariants" | "reveal",
      actions: readonly string[],
    ) => {
      if (values[flag] && !actions.includes(action)) {
        throw new UsageError({
          en: `--${flag} goes with ${actions.join(" or ")}`,
          zh: `--${flag} 只能用于 ${actions.join(" 或 ")}`,
        }, "exercise");
      }
    };
    only("invariants", ["show"]);
    only("reveal", ["check"]);
    only("json", ["list", "progress", "grade"]);
    only("csv", ["grade"]);
    if (values.ledger !== undefined && action !== "check") {
      throw new UsageError({
        en: "--ledger goes with check",
        zh: "--ledger 只能用于 check",
      }, "exercise");
    }
    // Progress is kept when it can be: a private folder that is not safe
    // (another user's) costs the record, never the judgement.
    let problem: Text | undefined;
    const progress = () => {
      const read = readOrFallback(() => readProgress(io), EMPTY_PROGRESS);
      problem ??= read.problem;
      return read.value;
    };
    const keepProgress = (next: Progress) => {
      if (problem !== undefined) return;
      problem = readOrFallback(() => writeProgress(io, next), undefined)
        .problem;
    };
    const unkept = (io: Io, lang: Lang, code: number) => {
      if (problem !== undefined) {
        io.err(`guardlab: ${
          say({
            en: `note: your progress could not be kept: ${problem.en}`,
            zh: `注意：你的进度无法保存：${problem.zh}`,
          }, lang)
        }`);
      }
      return code;
    };
    // The course every action works through (its id goes in every hand-in).
    const loaded = await courseOf(io, values.course, lang);
    if (typeof loaded === "number") return loaded;
    const course = loaded;
    const key = (x: Exercise) => progressKey(course.id, x.n);
    switch (action) {
      case "list": {
        tooMany(1);
        const p = progress();
        if (values.json) {
          io.out(JSON.stringify(course.exercises.map((x) => ({
            n: x.n,
            slug: x.slug,
            kind: x.kind,
            title: say(x.title, lang),
            state: p.exercises[key(x)]?.state ?? "not started",
          }))));
          return unkept(io, lang, EXIT.ok);
        }
        for (const x of course.exercises) {
          const state = stateWord(p.exercises[key(x)]?.state, lang);
          const head = `${String(x.n).padStart(2)}. ${say(x.title, lang)}`;
          io.out(
            head + " ".repeat(Math.max(1, 64 - displayWidth(head))) + state,
          );
        }
        return unkept(io, lang, EXIT.ok);
      }
      case "show": {
        tooMany(2);
        const x = numberOf(course, arg);
        const settings = storedSettings(io).value;
        const params = studentParams(settings, x);
        if (values.invariants) {
          for (const line of describeInvariants(x, params)) {
            io.out(say(line, lang));
          }
          return EXIT.ok;
        }
        const t = exerciseTexts(x, params);
        io.out(`${x.n}. ${say(t.title, lang)}`);
        io.out("");
        printWrapped(io, say(t.task, lang));
        io.out("");
        if (settings.course !== undefined) {
          const p = params;
          printWrapped(
            io,
            say({
              en: `Your values (course ${settings.course}, ` +
                `${settings.name}): job ${p.job}, other job ${p.otherJob}, ` +
                `topic ${p.topic}, copies ${p.copies}, over-limit copies ` +
                `${p.overCopies}, lowered limit ${p.lowerLimit}. ` +
                "check and grade require these.",
              zh: `你的取值（课程 ${settings.course}，${settings.name}）：` +
                `业务键 ${p.job}，另一个业务键 ${p.otherJob}，topic ${p.topic}，` +
                `份数 ${p.copies}，超限份数 ${p.overCopies}，降低后的上限 ` +
                `${p.lowerLimit}。check 和 grade 都按这些取值判定。`,
            }, lang),
          );
          io.out("");
        }
        printWrapped(
          io,
          `${say({ en: "Claim: ", zh: "论断：" }, lang)}${say(t.claim, lang)}`,
        );
        if (t.skeleton) {
          io.out("");
          io.out(say({ en: "A start:", zh: "开头可以这样写：" }, lang));
          io.out(`  ${t.skeleton}`);
        }
        io.out("");
        if (x.judged === "ledger") {
          printWrapped(io, say(LEDGER_NOT_AGENT, lang));
          io.out("");
          io.out(say({
            en: `Check: guardlab exercise check ${x.n} --ledger NAME`,
            zh: `检查：guardlab exercise check ${x.n} --ledger NAME`,
          }, lang));
          return EXIT.ok;
        }
        io.out(
          say({
            en: `Check: guardlab exercise check ${x.n} < answer.jsonl`,
            zh: `检查：guardlab exercise check ${x.n} < answer.jsonl`,
          }, lang),
        );
        return EXIT.ok;
      }
      case "hint": {
        tooMany(2);
        const x = numberOf(course, arg);
        const hints =
          exerciseTexts(x, studentParams(storedSettings(io).value, x)).hints;
        const p = progress();
        const shown = Math.min((p.hints[key(x)] ?? 0) + 1, hints.length);
        for (let i = 0; i < shown; i++) {
          printWrapped(io, `${i + 1}. ${say(hints[i], lang)}`);
        }
        if (shown === hints.length) {
          io.out(say({
            en: "(that is every hint: the rest is yours)",
            zh: "（提示就这些：剩下的交给你）",
          }, lang));
        }
        keepProgress({ ...p, hints: { ...p.hints, [key(x)]: shown } });
        return unkept(io, lang, EXIT.ok);
      }
      case "check": {
        tooMany(3);
        const x = numberOf(course, arg);
        if ((x.judged === "ledger") !== (values.ledger !== undefined)) {
          throw new UsageError(
            x.judged === "ledger"
              ? {
                en: `exercise ${x.n} is judged from a ledger: ` +
                  `guardlab exercise check ${x.n} --ledger NAME`,
                zh: `练习 ${x.n} 按账本判定：` +
                  `guardlab exercise check ${x.n} --ledger NAME`,
              }
              : {
                en: `--ledger is for an exercise judged from a ledger; ` +
                  `exercise ${x.n} judges an answer (FILE or stdin)`,
                zh: `--ledger 用于按账本判定的练习；练习 ${x.n} 判定的是答案` +
                  "（FILE 或标准输入）",
              },
            "exercise",
          );
        }
        if (values.ledger !== undefined) tooMany(2);
        let answer: string;
        if (values.ledger !== undefined) {
          const copied = ledgerCopy(io, values.ledger);
          if ("reason" in copied) {
            printWrapped(
              io,
              say({
                en: `not yet: ${copied.reason.en}`,
                zh: `还没有：${copied.reason.zh}`,
              }, lang),
            );
            io.out(say({
              en: `exercise ${x.n}: not yet`,
              zh: `练习 ${x.n}：还没有`,
            }, lang));
            return EXIT.failed;
          }
          answer = copied.text;
        } else {
          const source = file === undefined
            ? io.stdin()
            : await openInput(io, file, { en: "an answer", zh: "答案" }, lang);
          if (source === null) return EXIT.failed;
          answer = await readAll(source);
        }
        const settings = storedSettings(io).value;
        const params = studentParams(settings, x);
        const p = progress();
        const before = p.exercises[key(x)];
        const reveal = values.reveal === true;
        if (x.kind === "prediction" && before?.guess !== undefined) {
          // Only the first guess counts: a second try would always pass.
          if (answer.trim() !== "" && answer.trim() !== before.guess) {
            printWrapped(
              io,
              say({
                en: `only your first prediction counts: ${before.guess}`,
                zh: `只有你的第一次预测算数：${before.guess}`,
              }, lang),
            );
          }
          answer = before.guess;
        }
        await using scratch = scratchFolder(io.base);
        const v = await judgeOwn(
          x,
          answer,
          params,
          settings.course !== undefined,
          {
            scratch: scratch.path,
            trusted: trustedFolders(io.base),
            reveal,
          },
        );
        for (const line of v.feedback) printWrapped(io, say(line, lang));
        keepProgress(
          recordCheck(p, key(x), x, answer, v, reveal, {
            course: settings.course ?? null,
            name: settings.name ?? null,
          }),
        );
        return unkept(io, lang, v.passed ? EXIT.ok : EXIT.failed);
      }
      case "progress": {
        tooMany(1);
        const p = progress();
        const rows = course.exercises.map((x) => ({
          n: x.n,
          slug: x.slug,
          state: p.exercises[key(x)]?.state ?? "not started",
          hints: p.hints[key(x)] ?? 0,
          ...(p.exercises[key(x)]?.revealed ? { revealed: true } : {}),
        }));
        const done = rows.filter((r) => r.state === "done").length;
        if (values.json) {
          io.out(JSON.stringify({
            course: course.id,
            done,
            of: rows.length,
            exercises: rows,
          }));
          return unkept(io, lang, EXIT.ok);
        }
        io.out(say({
          en: `${done} of ${rows.length} exercises done`,
          zh: `已完成 ${done} / ${rows.length} 个练习`,
        }, lang));
        for (const x of course.exercises) {
          io.out(
            `  ${String(x.n).padStart(2)}  ${
              stateWord(p.exercises[key(x)]?.state, lang)
            }`,
          );
        }
        return unkept(io, lang, EXIT.ok);
      }
      case "hand-in": {
        tooMany(1);
        const settings = readSettings(io);
        if (settings.name === undefined) {
          throw new UsageError({
            en: "a hand-in says whose work it is: set your name first " +
              '(guardlab config name "YOUR NAME")',
            zh: "作业要写明是谁的：请先设置名字" +
              '（guardlab config name "你的名字"）',
          }, "exercise");
        }
        // A hand-in without the record would be empty: refused, not faked.
        const p = readProgress(io);
        const code = settings.course ?? null;
        const exercises = Object.fromEntries(
          course.exercises.filter((x) => p.exercises[key(x)] !== undefined)
            .map((x) => {
              const e = p.exercises[key(x)];
              const as = e.as ?? { course: null, name: null };
              if (as.course !== code || as.name !== settings.name) {
                io.err(say({
                  en: `guardlab: exercise ${x.n} was checked under another ` +
                    `name or course code: check it again (exercise check ${x.n})`,
                  zh:
                    `guardlab: 练习 ${x.n} 是在另一个名字或课程代码下检查的：` +
                    `请重新检查（exercise check ${x.n}）`,
                }, lang));
              }
              return [x.slug, {
                answer: e.answer,
                passed: e.state === "done" ? e.passed ?? null : null,
                checks: e.checks ?? 0,
                hints: p.hints[key(x)] ?? 0,
                revealed: e.revealed ?? false,
              }];
            }),
        );
        io.out(JSON.stringify(makeHandIn({
          name: settings.name,
          guardlab: config.version,
          course: { id: course.id, code },
          exercises,
        })));
        return EXIT.ok;
      }
      case "grade": {
        if (values.json && values.csv) {
          throw new UsageError({
            en: "choose one of --json and --csv",
            zh: "--json 和 --csv 只能选一个",
          }, "exercise");
        }
        const files = positionals.slice(1);
        const fromStdin = files.length === 0 ||
          (files.length === 1 && files[0] === "-");
        // An empty stdin is a command given no hand-in, not a student's
        // malformed one: say so before a table names a student "-".
        const piped = fromStdin ? await readBounded(io.stdin()) : null;
        if (fromStdin && piped !== null && piped.trim() === "") {
          throw new UsageError({
            en: "no hand-in: give FILE or FOLDER, or pipe one on stdin",
            zh: "没有作业：请给出 FILE 或 FOLDER，或从标准输入传入一份",
          }, "exercise");
        }
        const sources = fromStdin
          ? [{ file: "-", read: () => Promise.resolve(piped) }]
          : handInSources(files, io.base);
        const code = storedSettings(io).value.course ?? null;
        await using scratch = scratchFolder(io.base);
        const grade = await gradeClass(
          sources,
          course.exercises,
          async (x, answer, params) => {
            // Re-execution, never a recorded result: the same binary judges again.
            const v = await judgeOwn(x, answer, params, code !== null, {
              scratch: scratch.path,
              trusted: trustedFolders(io.base),
            });
            return { done: v.passed, overLimit: v.overLimit };
          },
          {
            version: config.version,
            courseId: course.id,
            code,
            maxBytes: MAX_HAND_IN_BYTES,
          },
        );
        if (values.json) io.out(JSON.stringify(gradeJson(grade, lang)));
        else if (values.csv) {
          for (const l of gradeCsv(grade, lang)) io.out(l);
        } else for (const l of gradeTable(grade, lang, code)) io.out(l);
        return grade.rows.some((r) => r.total === null) ? EXIT.failed : EXIT.ok;
      }
    }
    return EXIT.usage;
  },
});
