/**
 * `guardlab exercise`: list, read, get hints on, check, hand in and grade
 * the exercises. The built-in course ships in the binary; `--course FILE`
 * reads a teacher's course file (under the temp folder) in the same form.
 * Answers come on stdin (or a FILE under the temp folder), so a student's
 * home is never read.
 *
 * @module
 */
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
import { exerciseTexts, judgeAnswer } from "../../exercises/judge.ts";
import { defaultParams, type ExerciseParams } from "../../exercises/params.ts";
import {
  type Progress,
  progressKey,
  readProgress,
  writeProgress,
} from "../../exercises/progress.ts";
import type { Verdict } from "../../exercises/verdict.ts";
import { openPlainFile } from "../../sandbox/safe_fs.ts";
import { trustedFolders } from "../../sandbox/sandbox.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import { type Lang, say, type Text } from "../../i18n.ts";
import { displayWidth, wrap } from "../../terminal.ts";
import { EXIT } from "../exit.ts";
import type { Io } from "../io.ts";
import { command, printable, UsageError } from "../parser.ts";

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
const MAX_ANSWER_BYTES = 8 << 20;

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

/** This student's values for `x` (the per-student variants come in here). */
function paramsFor(_course: Course, _x: Exercise): ExerciseParams {
  return defaultParams;
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

/** The course `--course FILE` names, or the built-in one; a bad file is one line and exit 2. */
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
  let text: string;
  try {
    text = await readAll(input, MAX_COURSE_BYTES);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    text = "\u0000".repeat(MAX_COURSE_BYTES + 1);
  }
  try {
    return readCourse(text);
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
}

/** Text from a file, made safe for one line: control and format characters escaped, length capped. */
function oneLine(text: string): string {
  const short = text.length > 200 ? text.slice(0, 200) + "…" : text;
  return short.replace(
    /[\p{Cc}\p{Cf}\u2028\u2029]/gu,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

function printVerdict(io: Io, v: Verdict, lang: Lang): void {
  for (const line of v.feedback) printWrapped(io, say(line, lang));
}

/** The `exercise` command. */
export const exercise = command({
  name: "exercise",
  summary: {
    en: "exercises: prove each claim, checked by the ledger you leave",
    zh: "练习：亲手证明每个论断，由你留下的账本来判定",
  },
  usage: `exercise [--course FILE] list [--json] | show N [--invariants]
                    | hint N | check N [FILE] [--reveal] | progress [--json]
                    | hand-in > answers.json | grade < answers.json`,
  about: {
    en: `Each exercise asks you to make something happen (or to predict it) and
names the article's claim it proves. Answers are script steps (JSON Lines),
read from stdin or from a FILE of yours under the temp folder; check runs them
in a fresh scratch ledger and judges the outcomes and the ledger they leave
(read through a second connection), invariant by invariant: a finding whose
premise failed is shown [--], not checked. A prediction is one JSON line; only
your first guess counts and is kept, a wrong guess does not show what
happened, and --reveal shows it (and is recorded). hint shows one more hint
each time. Progress lives in your private folder (reset keeps it). show N
--invariants prints what is checked, for a teacher, in both languages.
--course FILE reads a teacher's course file in the same form (README: For a
course); without it, the built-in exercises are the course. hand-in prints
your last answers as JSON; grade re-runs every answer of a hand-in: results in
the file are never trusted.`,
    zh:
      `每个练习要求你让某件事发生（或预测它），并说明它证明文章的哪个论断。答案是
script 步骤（JSON Lines），从标准输入或临时目录下你自己的 FILE 读取；check 在
新的临时账本里运行它们，逐条按不变式判定结果和留下的账本（通过另一条连接读取）：
前提不成立时，依赖它的结论显示 [--]，即未检查。预测只写一行 JSON；只有第一次
猜测算数并被保存，猜错时不显示实际结果，--reveal 会显示它（并被记录）。hint
每次多给一条提示。进度保存在你的私有目录里（reset 不会删除）。show N --invariants
用两种语言列出检查的内容，供老师查看。--course FILE 读取老师的课程文件（同样的
格式，见 README 的“For a course”）；不给时，内置练习就是课程。hand-in 以 JSON
输出你最近的答案；grade 重新运行交来的每个答案：文件里记录的结果从不被信任。`,
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
  },
  maxPositionals: 3,
  exits: {
    0: {
      en: "done (check: every finding held)",
      zh: "完成（check：每条结论都成立）",
    },
    1: {
      en: "not yet (check), or a file that cannot be read",
      zh: "还没有（check），或读不了文件",
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
    const only = (flag: string, actions: readonly string[]) => {
      if (values[flag as "json"] && !actions.includes(action)) {
        throw new UsageError({
          en: `--${flag} goes with ${actions.join(" or ")}`,
          zh: `--${flag} 只能用于 ${actions.join(" 或 ")}`,
        }, "exercise");
      }
    };
    only("invariants", ["show"]);
    only("reveal", ["check"]);
    only("json", ["list", "progress", "grade"]);
    const loaded = await courseOf(io, values.course, lang);
    if (typeof loaded === "number") return loaded;
    const course = loaded;
    const key = (x: Exercise) => progressKey(course.id, x.n);
    const progress = () => readProgress(io.base);
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
          return EXIT.ok;
        }
        for (const x of course.exercises) {
          const state = stateWord(p.exercises[key(x)]?.state, lang);
          const head = `${String(x.n).padStart(2)}. ${say(x.title, lang)}`;
          io.out(
            head + " ".repeat(Math.max(1, 64 - displayWidth(head))) + state,
          );
        }
        return EXIT.ok;
      }
      case "show": {
        tooMany(2);
        const x = numberOf(course, arg);
        const params = paramsFor(course, x);
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
        const hints = exerciseTexts(x, paramsFor(course, x)).hints;
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
        writeProgress(io.base, {
          ...p,
          hints: { ...p.hints, [key(x)]: shown },
        });
        return EXIT.ok;
      }
      case "check": {
        tooMany(3);
        const x = numberOf(course, arg);
        const source = file === undefined
          ? io.stdin()
          : await openInput(io, file, { en: "an answer", zh: "答案" }, lang);
        if (source === null) return EXIT.failed;
        let answer = await readAll(source);
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
        const v = await judgeAnswer(x, answer, paramsFor(course, x), {
          scratch: scratch.path,
          trusted: trustedFolders(io.base),
          reveal,
        });
        printVerdict(io, v, lang);
        writeProgress(io.base, recordCheck(p, key(x), x, answer, v, reveal));
        return v.passed ? EXIT.ok : EXIT.failed;
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
          return EXIT.ok;
        }
        io.out(say({
          en: `${done} of ${rows.length} exercises done`,
          zh: `已完成 ${done} / ${rows.length} 个练习`,
        }, lang));
        for (const r of rows) {
          io.out(
            `  ${String(r.n).padStart(2)}  ${
              stateWord(
                p.exercises[key(course.exercises[r.n - 1])]?.state,
                lang,
              )
            }`,
          );
        }
        return EXIT.ok;
      }
      case "hand-in": {
        tooMany(1);
        const p = progress();
        const answers = Object.fromEntries(
          course.exercises.filter((x) => p.exercises[key(x)] !== undefined)
            .map((x) => [String(x.n), p.exercises[key(x)].answer]),
        );
        io.out(JSON.stringify({ guardlab: config.version, answers }));
        return EXIT.ok;
      }
      case "grade": {
        tooMany(1);
        const text = await readAll(io.stdin());
        let bundle: { answers?: Record<string, unknown> };
        try {
          bundle = JSON.parse(text);
        } catch {
          bundle = {};
        }
        const answers = bundle?.answers;
        if (
          typeof answers !== "object" || answers === null ||
          Array.isArray(answers)
        ) {
          io.err(say({
            en:
              'guardlab: a hand-in is one JSON object with an "answers" map (guardlab exercise hand-in)',
            zh:
              'guardlab: 交来的文件应是一个带 "answers" 的 JSON 对象（guardlab exercise hand-in）',
          }, lang));
          return EXIT.failed;
        }
        await using scratch = scratchFolder(io.base);
        const rows = [];
        for (const x of course.exercises) {
          const answer = (answers as Record<string, unknown>)[String(x.n)];
          if (typeof answer !== "string") {
            rows.push({
              n: x.n,
              slug: x.slug,
              result: "missing",
              held: 0,
              of: 0,
            });
            continue;
          }
          // Re-execution, never a recorded result: the same binary judges again.
          const v = await judgeAnswer(x, answer, paramsFor(course, x), {
            scratch: scratch.path,
            trusted: trustedFolders(io.base),
          });
          rows.push({
            n: x.n,
            slug: x.slug,
            result: v.overLimit
              ? "over the limit"
              : v.passed
              ? "done"
              : "not yet",
            held: v.findings.filter((f) => f.status === "yes").length,
            of: v.findings.length,
          });
        }
        if (values.json) io.out(JSON.stringify({ rows }));
        else {
          for (const r of rows) {
            io.out(
              `${String(r.n).padStart(2)}  ${r.slug.padEnd(32)} ${
                r.result.padEnd(8)
              } ${r.of > 0 ? `${r.held}/${r.of}` : ""}`.trimEnd(),
            );
          }
          const done = rows.filter((r) => r.result === "done").length;
          io.out(say({
            en: `${done} of ${rows.length} done, each re-run here`,
            zh: `完成 ${done} / ${rows.length}，全部在此重新运行`,
          }, lang));
        }
        return EXIT.ok;
      }
    }
    return EXIT.usage;
  },
});

/**
 * The progress after one check: a passing answer is kept for hand-in until
 * a newer one passes; a prediction keeps its first well-formed guess (the
 * one that counts) and whether the outcome was revealed.
 */
function recordCheck(
  p: Progress,
  key: string,
  x: Exercise,
  answer: string,
  v: Verdict,
  reveal: boolean,
): Progress {
  const before = p.exercises[key];
  const keep = before?.state === "done" && !v.passed;
  const base = keep ? before : {
    state: v.passed ? "done" as const : "attempted" as const,
    answer,
  };
  const guess = before?.guess ??
    (x.kind === "prediction" && v.reason === null ? answer.trim() : undefined);
  const revealed = before?.revealed === true || reveal;
  return {
    ...p,
    exercises: {
      ...p.exercises,
      [key]: {
        ...base,
        ...(guess !== undefined ? { guess } : {}),
        ...(revealed ? { revealed: true } : {}),
      },
    },
  };
}
