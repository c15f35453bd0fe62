/**
 * Judging an answer: a script is run in a fresh scratch ledger (never a
 * student's named ledger) and its evidence judged by the exercise's
 * invariants, by the one engine; a prediction is compared with what its
 * setup really does. An empty or malformed answer, or one with an invalid
 * step, is "not yet", with the reason.
 *
 * @module
 */
import type { Lang, Text } from "../base/i18n.ts";
import { plainValue } from "../base/plain.ts";
import { parseJsonLikePython } from "../base/json.ts";
import { isPlainRecord } from "../base/json.ts";
import {
  type Bindings,
  fill,
  fillValues,
  judgeEvidence,
  sameValue,
  TooMuchWork,
  valueOf,
} from "./engine.ts";
import {
  type Evidence,
  gather,
  type GatherLimits,
  type Value,
} from "./evidence.ts";
import type { Exercise, ValueExpr } from "./form.ts";
import { evidenceOfCopy, LEDGER_NOT_AGENT } from "./ledger_copy.ts";
import { MAX_JUDGE_WORK } from "./limits.ts";
import type { ExerciseParams } from "./params.ts";
import { type Finding, FINDING_MARK, type Verdict } from "./verdict.ts";

/** How {@linkcode judgeAnswer} works: where, and what it may show. */
export interface JudgeOptions extends GatherLimits {
  /** A private folder to make the fresh scratch ledgers in (each removed after). */
  scratch: string;
  /** Folders paths are checked from (the sandbox grant and the base). */
  trusted: readonly string[];
  /** For a prediction: show what really happened even after a wrong guess. */
  reveal?: boolean;
  /** The most candidate checks the engine makes; limits.ts has the default. */
  maxWork?: number;
}

const encoder = new TextEncoder();

function stream(text: string): ReadableStream<Uint8Array> {
  return new Blob([encoder.encode(text)]).stream();
}

/** The texts of `x` for this student: every `{job}`, `{topic}`, ... filled in. */
export function exerciseTexts(x: Exercise, params: ExerciseParams): {
  title: Text;
  task: Text;
  claim: Text;
  hints: Text[];
  skeleton?: string;
} {
  const f = (t: Text) => fill(t, new Map(), params);
  return {
    title: f(x.title),
    task: f(x.task),
    claim: f(x.claim),
    hints: x.hints.map(f),
    ...(x.skeleton ? { skeleton: fillValues(x.skeleton, params) } : {}),
  };
}

/** The steps of a prediction's setup, with this student's values. */
export function setupSteps(x: Exercise, params: ExerciseParams): string[] {
  return (x.setup ?? []).map((s) => fillValues(s, params));
}

/**
 * The single entry for judging: `answer` to `exercise`, with this student's
 * `params`, run in a fresh sub-folder of `options.scratch` that is removed
 * on every path.
 */
export async function judgeAnswer(
  exercise: Exercise,
  answer: string,
  params: ExerciseParams,
  options: JudgeOptions,
): Promise<Verdict> {
  if (exercise.judged === "ledger") {
    return judgeLedgerCopy(exercise, answer, params, options);
  }
  const folder = await Deno.makeTempDir({
    dir: options.scratch,
    prefix: "judge-",
  });
  try {
    return exercise.kind === "prediction"
      ? await judgePrediction(exercise, answer, params, options, folder)
      : await judgeScript(exercise, answer, params, options, folder);
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
}

function verdict(
  x: Exercise,
  parts: {
    reason?: Text;
    overLimit?: boolean;
    findings?: Finding[];
    why?: Text | null;
    revealed?: Text[] | null;
  },
): Verdict {
  const findings = parts.findings ?? [];
  const reason = parts.reason ?? null;
  const passed = reason === null && findings.length > 0 &&
    findings.every((f) => f.status === "yes");
  const feedback: Text[] = [];
  if (reason) {
    feedback.push({ en: `not yet: ${reason.en}`, zh: `还没有：${reason.zh}` });
  } else {
    for (const f of findings) {
      feedback.push({
        en: `${FINDING_MARK[f.status].en} ${f.text.en}`,
        zh: `${FINDING_MARK[f.status].zh} ${f.text.zh}`,
      });
    }
    feedback.push(
      passed
        ? { en: `exercise ${x.n}: done`, zh: `练习 ${x.n}：完成` }
        : { en: `exercise ${x.n}: not yet`, zh: `练习 ${x.n}：还没有` },
    );
  }
  const why = passed ? parts.why ?? null : null;
  if (why) feedback.push({ en: `Why: ${why.en}`, zh: `原因：${why.zh}` });
  const revealed = parts.revealed ?? null;
  if (revealed) {
    feedback.push({ en: "What happened:", zh: "实际发生的是：" });
    for (const line of revealed) {
      feedback.push({ en: `  ${line.en}`, zh: `  ${line.zh}` });
    }
  }
  return {
    passed,
    reason,
    overLimit: parts.overLimit ?? false,
    findings,
    why,
    revealed,
    feedback,
  };
}

function overWork(limit: number): Text {
  return {
    en: `over the limit: judging this answer needs more than ${limit} ` +
      "checks; write fewer steps",
    zh: `超出限制：判定这个答案需要超过 ${limit} 次检查；请减少步骤`,
  };
}

async function judgeScript(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<Verdict> {
  if (answer.trim() === "") {
    return verdict(x, {
      reason: {
        en: "the answer is empty: write script steps, one JSON object a line",
        zh: "答案是空的：请写 script 步骤，每行一个 JSON 对象",
      },
    });
  }
  const e = await gather(stream(answer), folder, options.trusted, options);
  if (e.overLimit) {
    return verdict(x, { reason: e.overLimit, overLimit: true });
  }
  if (e.invalid.length > 0) {
    const { line, message } = e.invalid[0];
    return verdict(x, {
      reason: {
        en: `line ${line} is not a step that can run (${message}); ` +
          "an answer with invalid steps proves nothing",
        zh:
          `第 ${line} 行不是能运行的步骤（${message}）；含无效步骤的答案什么也证明不了`,
      },
    });
  }
  const maxWork = options.maxWork ?? MAX_JUDGE_WORK;
  try {
    const { findings, bindings } = judgeEvidence(x, {
      evidence: e,
      params,
      maxWork,
      work: { n: 0 },
    });
    return verdict(x, { findings, why: fill(x.why, bindings, params) });
  } catch (error) {
    if (!(error instanceof TooMuchWork)) throw error;
    return verdict(x, { reason: overWork(maxWork), overLimit: true });
  }
}

/**
 * Judge a ledger copy (made by `check N --ledger NAME`, or carried in a
 * hand-in) by the exercise's invariants over its rows; nothing is run.
 */
export function judgeLedgerCopy(
  x: Exercise,
  copy: string,
  params: ExerciseParams,
  options: Pick<JudgeOptions, "maxWork"> = {},
): Verdict {
  const e = evidenceOfCopy(copy);
  let v: Verdict;
  if ("reason" in e) {
    v = verdict(x, { reason: e.reason, overLimit: e.overLimit });
  } else {
    const maxWork = options.maxWork ?? MAX_JUDGE_WORK;
    try {
      const { findings, bindings } = judgeEvidence(x, {
        evidence: e,
        params,
        maxWork,
        work: { n: 0 },
      });
      v = verdict(x, { findings, why: fill(x.why, bindings, params) });
    } catch (error) {
      if (!(error instanceof TooMuchWork)) throw error;
      v = verdict(x, { reason: overWork(maxWork), overLimit: true });
    }
  }
  return { ...v, feedback: [...v.feedback, LEDGER_NOT_AGENT] };
}

/** The one line of a prediction, or why there is not exactly one. */
function predictionLine(answer: string): string | Text {
  const lines = answer.split("\n").map((l, i) => ({ n: i + 1, text: l }))
    .filter((l) => l.text.trim() !== "");
  if (lines.length === 0) {
    return {
      en: "the answer is empty: write one JSON line",
      zh: "答案是空的：请写一行 JSON",
    };
  }
  if (lines.length > 1) {
    return {
      en: `a prediction is one line; line ${lines[1].n} is one too many`,
      zh: `预测只能写一行；第 ${lines[1].n} 行是多出来的`,
    };
  }
  return lines[0].text;
}

function countOf(e: Evidence, table: keyof Evidence["ledger"]): number {
  return e.ledger[table].length;
}

/** What a prediction's setup really did: one actual value per fact, or why it cannot tell. */
async function actualFacts(
  x: Exercise,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<{ actual: Map<string, unknown>; b: Bindings } | null> {
  const e = await gather(
    stream(setupSteps(x, params).join("\n")),
    folder,
    options.trusted,
  );
  const given = judgeEvidence(x, {
    evidence: e,
    params,
    maxWork: options.maxWork ?? MAX_JUDGE_WORK,
    work: { n: 0 },
  });
  if (
    e.invalid.length > 0 || e.overLimit ||
    given.findings.some((f) => f.status !== "yes")
  ) return null;
  const b = given.bindings;
  const actual = new Map<string, unknown>();
  for (const f of x.predict ?? []) {
    const v = f.value;
    actual.set(
      f.field,
      typeof v === "object" && v !== null && "count" in v
        ? countOf(e, v.count)
        : valueOf(v as ValueExpr, b, params),
    );
  }
  return { actual, b };
}

/** A prediction's guess, or why its answer cannot be judged. */
type Guess = { guess: Record<string, unknown> } | { reason: Text };

function guessOf(x: Exercise, answer: string): Guess {
  const facts = x.predict ?? [];
  const example = "{" +
    facts.map((f) => `"${f.field}": ...`).join(", ") + "}";
  const line = predictionLine(answer);
  if (typeof line !== "string") return { reason: line };
  let guess: unknown;
  try {
    guess = parseJsonLikePython(line);
  } catch {
    guess = undefined;
  }
  if (!isPlainRecord(guess)) {
    return {
      reason: {
        en: `the answer must be one JSON object: ${example}`,
        zh: `答案必须是一个 JSON 对象：${example}`,
      },
    };
  }
  const unknown = Object.keys(guess).find((k) =>
    !facts.some((f) => f.field === k)
  );
  if (unknown !== undefined) {
    return {
      reason: {
        en: `unknown field ${JSON.stringify(unknown)}: the fields are ${
          facts.map((f) => f.field).join(", ")
        }`,
        zh: `未知字段 ${JSON.stringify(unknown)}：字段是 ${
          facts.map((f) => f.field).join("、")
        }`,
      },
    };
  }
  return { guess };
}

async function judgePrediction(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<Verdict> {
  const read = guessOf(x, answer);
  if ("reason" in read && !options.reveal) {
    return verdict(x, { reason: read.reason });
  }
  const facts = await actualFacts(x, params, options, folder);
  if (facts === null) {
    return verdict(x, {
      reason: {
        en: "this exercise's setup did not run as its course says; " +
          "tell your teacher",
        zh: "这个练习的预设步骤没有按课程所写运行；请告诉老师",
      },
    });
  }
  const revealed: Text[] = (x.predict ?? []).map((f) => {
    const it = fill(
      { en: "{v}", zh: "{v}" },
      new Map([["v", facts.actual.get(f.field) as Value]]),
      params,
    );
    return { en: `${f.field}: ${it.en}`, zh: `${f.field}：${it.zh}` };
  });
  if ("reason" in read) return verdict(x, { reason: read.reason, revealed });
  const g = read.guess;
  const findings: Finding[] = (x.predict ?? []).map((f) => {
    const has = Object.hasOwn(g, f.field);
    const said = (lang: Lang) =>
      has ? plainValue(unboxed(g[f.field]), lang) : undefined;
    return {
      status: has && sameValue(g[f.field], facts.actual.get(f.field))
        ? "yes"
        : "no",
      text: {
        en: `${f.field} (${f.says.en}): you predicted ${
          said("en") ?? "missing"
        }`,
        zh: `${f.field}（${f.says.zh}）：你预测 ${said("zh") ?? "缺失"}`,
      },
    };
  });
  const passed = findings.every((f) => f.status === "yes");
  return verdict(x, {
    findings,
    why: fill(x.why, facts.b, params),
    // A wrong guess never shows what happened, unless asked (and recorded).
    revealed: passed || options.reveal ? revealed : null,
  });
}

/** A number the Python-like parser boxed, as the number it is. */
function unboxed(v: unknown): unknown {
  return v instanceof Number ? v.valueOf() : v;
}
