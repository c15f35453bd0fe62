/**
 * `guardlab exercise`: list, read, get hints on, check, hand in and grade
 * the exercises. Everything ships in the binary; answers come on stdin (or
 * a FILE under the temp folder), so a student's home is never read.
 *
 * @module
 */
import config from "../../../deno.json" with { type: "json" };
import {
  type Exercise,
  exerciseOf,
  EXERCISES,
} from "../../exercises/catalog.ts";
import { judge, type Judgement } from "../../exercises/judge.ts";
import { readProgress, writeProgress } from "../../exercises/progress.ts";
import { openPlainFile } from "../../sandbox/safe_fs.ts";
import { trustedFolders } from "../../sandbox/sandbox.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import { type Lang, say } from "../../i18n.ts";
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

function numberOf(word: string | undefined): Exercise {
  const n = word !== undefined && /^[0-9]{1,3}$/.test(word)
    ? Number(word)
    : NaN;
  const exercise = exerciseOf(n);
  if (exercise === undefined) {
    throw new UsageError({
      en: `no exercise ${printable(word ?? "")}: choose 1-${EXERCISES.length}`,
      zh: `没有练习 ${printable(word ?? "")}：请选 1-${EXERCISES.length}`,
    }, "exercise");
  }
  return exercise;
}

async function readAll(
  stream: ReadableStream<Uint8Array>,
): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      throw new UsageError({
        en: `the input is larger than ${MAX_ANSWER_BYTES} bytes`,
        zh: `输入超过 ${MAX_ANSWER_BYTES} 字节`,
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

function printJudgement(io: Io, j: Judgement, x: Exercise, lang: Lang): void {
  if (j.reason) {
    printWrapped(
      io,
      `${say({ en: "not yet: ", zh: "还没有：" }, lang)}${say(j.reason, lang)}`,
    );
    return;
  }
  for (const f of j.findings) {
    printWrapped(io, `${f.held ? "[ok]" : "[no]"} ${say(f.text, lang)}`);
  }
  io.out(
    j.done
      ? say({ en: `exercise ${x.n}: done`, zh: `练习 ${x.n}：完成` }, lang)
      : say(
        { en: `exercise ${x.n}: not yet`, zh: `练习 ${x.n}：还没有` },
        lang,
      ),
  );
  if (j.done) {
    printWrapped(
      io,
      `${say({ en: "Why: ", zh: "原因：" }, lang)}${say(x.why, lang)}`,
    );
  }
}

/** The `exercise` command. */
export const exercise = command({
  name: "exercise",
  summary: {
    en: "exercises: prove each claim, checked by the ledger you leave",
    zh: "练习：亲手证明每个论断，由你留下的账本来判定",
  },
  usage: `exercise list [--json] | show N | hint N | check N [FILE]
                    | progress | hand-in > answers.json | grade < answers.json`,
  about: {
    en: `Each exercise asks you to make something happen (or to predict it) and
names the article's claim it proves. Answers are script steps (JSON Lines),
read from stdin or from a FILE of yours under the temp folder; check runs them
in a fresh scratch ledger and judges the outcomes and the ledger they leave,
invariant by invariant. hint shows one more hint each time. Progress lives in
your private folder (reset keeps it). hand-in prints your last answers as JSON;
grade re-runs every answer of a hand-in: results in the file are never trusted.`,
    zh:
      `每个练习要求你让某件事发生（或预测它），并说明它证明文章的哪个论断。答案是
script 步骤（JSON Lines），从标准输入或临时目录下你自己的 FILE 读取；check 在
新的临时账本里运行它们，逐条按不变式判定结果和留下的账本。hint 每次多给一条提示。
进度保存在你的私有目录里（reset 不会删除）。hand-in 以 JSON 输出你最近的答案；
grade 重新运行交来的每个答案：文件里记录的结果从不被信任。`,
  },
  options: {
    json: {
      type: "boolean",
      help: {
        en: "list and grade as JSON",
        zh: "以 JSON 输出 list 和 grade",
      },
    },
  },
  maxPositionals: 3,
  exits: {
    0: {
      en: "done (check: every invariant held)",
      zh: "完成（check：每条不变式都成立）",
    },
    1: {
      en: "not yet (check), or a hand-in that cannot be read (grade)",
      zh: "还没有（check），或读不了交来的文件（grade）",
    },
    2: null,
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
    const progress = () => readProgress(io.base);
    switch (action) {
      case "list": {
        tooMany(1);
        const p = progress();
        if (values.json) {
          io.out(JSON.stringify(EXERCISES.map((x) => ({
            n: x.n,
            slug: x.slug,
            kind: x.kind,
            title: say(x.title, lang),
            state: p.exercises[x.n]?.state ?? "not started",
          }))));
          return EXIT.ok;
        }
        for (const x of EXERCISES) {
          const state = stateWord(p.exercises[x.n]?.state, lang);
          const head = `${String(x.n).padStart(2)}. ${say(x.title, lang)}`;
          io.out(
            head + " ".repeat(Math.max(1, 64 - displayWidth(head))) + state,
          );
        }
        return EXIT.ok;
      }
      case "show": {
        tooMany(2);
        const x = numberOf(arg);
        io.out(`${x.n}. ${say(x.title, lang)}`);
        io.out("");
        printWrapped(io, say(x.task, lang));
        io.out("");
        printWrapped(
          io,
          `${say({ en: "Claim: ", zh: "论断：" }, lang)}${say(x.claim, lang)}`,
        );
        if (x.skeleton) {
          io.out("");
          io.out(say({ en: "A start:", zh: "开头可以这样写：" }, lang));
          io.out(`  ${x.skeleton}`);
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
        const x = numberOf(arg);
        const p = progress();
        const shown = Math.min((p.hints[x.n] ?? 0) + 1, x.hints.length);
        for (let i = 0; i < shown; i++) {
          printWrapped(io, `${i + 1}. ${say(x.hints[i], lang)}`);
        }
        if (shown === x.hints.length) {
          io.out(say({
            en: "(that is every hint: the rest is yours)",
            zh: "（提示就这些：剩下的交给你）",
          }, lang));
        }
        writeProgress(io.base, { ...p, hints: { ...p.hints, [x.n]: shown } });
        return EXIT.ok;
      }
      case "check": {
        tooMany(3);
        const x = numberOf(arg);
        let source: ReadableStream<Uint8Array>;
        try {
          source = file === undefined
            ? io.stdin()
            : (await openPlainFile(file, trustedFolders(io.base))).readable;
        } catch (error) {
          if (
            !(error instanceof Deno.errors.NotFound) &&
            !(error instanceof Deno.errors.IsADirectory)
          ) throw error;
          io.err(say({
            en: `guardlab: cannot read an answer from ${
              printable(file!)
            }: not a readable file`,
            zh: `guardlab: 无法从 ${printable(file!)} 读取答案：不是可读的文件`,
          }, lang));
          return EXIT.failed;
        }
        const answer = await readAll(source);
        await using scratch = scratchFolder(io.base);
        const j = await judge(x, answer, scratch.path, trustedFolders(io.base));
        printJudgement(io, j, x, lang);
        const p = progress();
        const before = p.exercises[x.n];
        // A passing answer is kept for hand-in until a newer one passes.
        const keep = before?.state === "done" && !j.done;
        writeProgress(io.base, {
          ...p,
          exercises: {
            ...p.exercises,
            [x.n]: keep ? before : {
              state: j.done ? "done" : "attempted",
              answer,
            },
          },
        });
        return j.done ? EXIT.ok : EXIT.failed;
      }
      case "progress": {
        tooMany(1);
        const p = progress();
        const done = EXERCISES.filter((x) =>
          p.exercises[x.n]?.state === "done"
        );
        io.out(say({
          en: `${done.length} of ${EXERCISES.length} exercises done`,
          zh: `已完成 ${done.length} / ${EXERCISES.length} 个练习`,
        }, lang));
        for (const x of EXERCISES) {
          io.out(
            `  ${String(x.n).padStart(2)}  ${
              stateWord(p.exercises[x.n]?.state, lang)
            }`,
          );
        }
        return EXIT.ok;
      }
      case "hand-in": {
        tooMany(1);
        const p = progress();
        const answers = Object.fromEntries(
          EXERCISES.filter((x) => p.exercises[x.n] !== undefined)
            .map((x) => [String(x.n), p.exercises[x.n].answer]),
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
        for (const x of EXERCISES) {
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
          const j = await judge(
            x,
            answer,
            scratch.path,
            trustedFolders(io.base),
          );
          rows.push({
            n: x.n,
            slug: x.slug,
            result: j.done ? "done" : "not yet",
            held: j.findings.filter((f) => f.held).length,
            of: j.findings.length,
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
            en: `${done} of ${EXERCISES.length} done, each re-run here`,
            zh: `完成 ${done} / ${EXERCISES.length}，全部在此重新运行`,
          }, lang));
        }
        return EXIT.ok;
      }
    }
    return EXIT.usage;
  },
});
