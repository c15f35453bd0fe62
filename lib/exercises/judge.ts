/**
 * Judging an answer: a script is run in a fresh scratch ledger (never a
 * student's named ledger) and its evidence checked by the exercise's
 * invariants; a prediction is compared with what its setup really does. An
 * empty or malformed answer, or one with an invalid step, is "not yet",
 * with the reason.
 *
 * @module
 */
import { join } from "node:path";
import { isPlainRecord } from "../timing/args.ts";
import { parseJsonLikePython } from "../store/wire.ts";
import type { Text } from "../i18n.ts";
import type { Exercise, Finding } from "./catalog.ts";
import { gather, LIMITS, type Limits, type OverLimit } from "./evidence.ts";
import { MAX_ANSWER_STEPS, MAX_STEP_BYTES } from "./limits.ts";
import type { ExerciseParams } from "./params.ts";
import { FINDING_MARK, type Verdict } from "./verdict.ts";

/** The verdict on one answer. */
export interface Judgement {
  /** Every invariant held. */
  done: boolean;
  /** Why nothing could be judged (empty, malformed, invalid steps), or null. */
  reason: Text | null;
  /** The invariants, each held or not. */
  findings: Finding[];
  /** The answer went over a cap and was stopped: "over the limit". */
  overLimit: boolean;
}

/** Why an answer is over the limit, naming the cap and the line. */
export function overLimitReason(over: OverLimit): Text {
  return over.cap === "steps"
    ? {
      en: `over the limit: more than ${MAX_ANSWER_STEPS} steps ` +
        `(stopped at line ${over.line})`,
      zh:
        `超出限制：步骤多于 ${MAX_ANSWER_STEPS} 个（在第 ${over.line} 行停止）`,
    }
    : {
      en: `over the limit: line ${over.line} or what it printed is longer ` +
        `than ${MAX_STEP_BYTES} bytes`,
      zh: `超出限制：第 ${over.line} 行或它的输出超过 ${MAX_STEP_BYTES} 字节`,
    };
}

const encoder = new TextEncoder();

function stream(text: string): ReadableStream<Uint8Array> {
  return new Blob([encoder.encode(text)]).stream();
}

/** Judge `answer` to `exercise`, working in a fresh folder inside `scratch`. */
export async function judge(
  exercise: Exercise,
  answer: string,
  scratch: string,
  trusted: readonly string[],
  limits: Limits = LIMITS,
): Promise<Judgement> {
  const folder = await Deno.makeTempDir({ dir: scratch, prefix: "judge-" });
  try {
    if (exercise.kind === "prediction") {
      const line = answer.split("\n").find((l) => l.trim() !== "");
      let prediction: unknown;
      try {
        prediction = line === undefined ? undefined : parseJsonLikePython(line);
      } catch {
        prediction = undefined;
      }
      if (!isPlainRecord(prediction)) {
        return notYet({
          en: "the answer must be one JSON object, e.g. " +
            '{"outcome":"accepted","draft":true,"receipts":1}',
          zh:
            '答案必须是一个 JSON 对象，例如 {"outcome":"accepted","draft":true,"receipts":1}',
        });
      }
      const e = await gather(
        stream(exercise.setup!.join("\n")),
        folder,
        trusted,
      );
      const findings = exercise.check(e, prediction);
      return {
        done: findings.every((f) => f.held),
        reason: null,
        findings,
        overLimit: false,
      };
    }
    if (answer.trim() === "") {
      return notYet({
        en: "the answer is empty: write script steps, one JSON object a line",
        zh: "答案是空的：请写 script 步骤，每行一个 JSON 对象",
      });
    }
    const e = await gather(stream(answer), folder, trusted, limits);
    if (e.overLimit) {
      return { ...notYet(overLimitReason(e.overLimit)), overLimit: true };
    }
    if (e.invalid.length > 0) {
      const { line, message } = e.invalid[0];
      return notYet({
        en: `line ${line} is not a step that can run (${message}); ` +
          "an answer with invalid steps proves nothing",
        zh:
          `第 ${line} 行不是能运行的步骤（${message}）；含无效步骤的答案什么也证明不了`,
      });
    }
    const findings = exercise.check(e);
    return {
      done: findings.every((f) => f.held),
      reason: null,
      findings,
      overLimit: false,
    };
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
}

function notYet(reason: Text): Judgement {
  return { done: false, reason, findings: [], overLimit: false };
}

/** A folder name inside `root` for this session's judging. */
export function judgeFolder(root: string): string {
  return join(root, ".exercises");
}

/** How {@linkcode judgeAnswer} works: where, and what it may show. */
export interface JudgeOptions {
  /** A private folder to make the fresh scratch ledgers in (removed after). */
  scratch: string;
  /** Folders paths are checked from (the sandbox grant and the base). */
  trusted: readonly string[];
  /** For a prediction: show what really happened even after a wrong guess. */
  reveal?: boolean;
  /** Steps an answer may run (default {@linkcode MAX_ANSWER_STEPS}). */
  maxSteps?: number;
  /** Bytes held per step (default {@linkcode MAX_STEP_BYTES}). */
  maxStepBytes?: number;
}

/**
 * The single entry for judging: `answer` to `exercise`, with this student's
 * `params`, run in a fresh scratch ledger inside `options.scratch`.
 */
export async function judgeAnswer(
  exercise: Exercise,
  answer: string,
  _params: ExerciseParams,
  options: JudgeOptions,
): Promise<Verdict> {
  const j = await judge(exercise, answer, options.scratch, options.trusted, {
    steps: options.maxSteps ?? MAX_ANSWER_STEPS,
    stepBytes: options.maxStepBytes ?? MAX_STEP_BYTES,
  });
  const findings = j.findings.map((f) => ({
    status: f.held ? "yes" as const : "no" as const,
    text: f.text,
  }));
  const passed = j.done;
  const feedback = j.reason
    ? [{ en: `not yet: ${j.reason.en}`, zh: `还没有：${j.reason.zh}` }]
    : findings.map((f) => ({
      en: `${FINDING_MARK[f.status].en} ${f.text.en}`,
      zh: `${FINDING_MARK[f.status].zh} ${f.text.zh}`,
    }));
  if (!j.reason) {
    feedback.push(
      passed
        ? { en: `exercise ${exercise.n}: done`, zh: `练习 ${exercise.n}：完成` }
        : {
          en: `exercise ${exercise.n}: not yet`,
          zh: `练习 ${exercise.n}：还没有`,
        },
    );
  }
  if (passed) {
    feedback.push({
      en: `Why: ${exercise.why.en}`,
      zh: `原因：${exercise.why.zh}`,
    });
  }
  return {
    passed,
    reason: j.reason,
    overLimit: j.overLimit,
    findings,
    why: passed ? exercise.why : null,
    revealed: null,
    feedback,
  };
}
