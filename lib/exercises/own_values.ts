/**
 * With a course code, an answer must use the student's own keys: a step that
 * names a business key of someone else's variant is the mark of a pasted
 * answer, and is reported as such, with the student's keys, before anything
 * runs. Topics are not looked at: there are only two, so a topic says nothing
 * about whose answer it is, and changing the topic on one's own key is how a
 * key conflict is made (exercise "key-conflict").
 *
 * @module
 */
import { JOB_PATTERN } from "../timing/args.ts";
import { isPlainRecord } from "../base/json.ts";
import { parseJsonLikePython } from "../base/json.ts";
import type { Text } from "../base/i18n.ts";
import { MAX_ANSWER_STEPS, MAX_STEP_BYTES } from "./limits.ts";
import type { ExerciseParams } from "./params.ts";

/** A value in an answer that is not this student's. */
export interface ForeignValue {
  /** The input line. */
  line: number;
  /** The field: a business key. */
  field: "job";
  /** The value written. */
  value: string;
}

/**
 * The first key in `answer` that is a valid key but not one of `params`'
 * keys, or null. Only the lines a judge would run are looked at (the
 * caps of {@linkcode MAX_ANSWER_STEPS} and {@linkcode MAX_STEP_BYTES}); a
 * line that is not a step is left for the judge to report.
 */
export function foreignValue(
  answer: string,
  params: ExerciseParams,
): ForeignValue | null {
  const keys = [params.job, params.otherJob];
  let steps = 0;
  let line = 0;
  for (let from = 0; from <= answer.length && steps < MAX_ANSWER_STEPS;) {
    const end = answer.indexOf("\n", from);
    const stop = end < 0 ? answer.length : end;
    line++;
    const text = answer.slice(from, Math.min(stop, from + MAX_STEP_BYTES + 1));
    from = stop + 1;
    if (text.trim() === "") continue;
    steps++;
    let step: unknown;
    try {
      step = parseJsonLikePython(text);
    } catch {
      continue;
    }
    if (!isPlainRecord(step)) continue;
    const args = isPlainRecord(step.args) ? step.args : {};
    for (const job of [step.job, args.job]) {
      if (
        typeof job === "string" && JOB_PATTERN.test(job) && !keys.includes(job)
      ) return { line, field: "job", value: job };
    }
  }
  return null;
}

/** The feedback for a foreign value: what was written, and what is this student's. */
export function foreignValueText(f: ForeignValue, p: ExerciseParams): Text {
  return {
    en: `not yet: line ${f.line} uses the key ${f.value}, which is not ` +
      `yours: your keys are ${p.job} and ${p.otherJob} ` +
      "(guardlab exercise show N)",
    zh: `还没有：第 ${f.line} 行用了业务键 ${f.value}，它不是你的：` +
      `你的业务键是 ${p.job} 和 ${p.otherJob}（guardlab exercise show N）`,
  };
}
