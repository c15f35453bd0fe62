/**
 * Judging an answer: a script is run in a fresh scratch ledger (never a
 * student's named ledger) and its evidence judged by the exercise's
 * invariants, by the one engine; a prediction is compared with what its
 * setup really does; a ledger copy is judged by the invariants over its
 * rows. An empty or malformed answer, or one with an invalid step, is "not
 * yet", with the reason. The verdict is data: whether it passed, each
 * finding with its status, and the feedback lines to print in both
 * languages. Renderers print `feedback` as it is; graders read `passed`.
 *
 * Whatever a student hands in, a check or a grade ends in bounded time and
 * memory: the caps are here, in one place, and the README states them
 * ("Bounds").
 *
 * @module
 */
import { LANGS, say, type Text } from "../base/i18n.ts";
import { plainValue } from "../base/plain.ts";
import { trustedFolders } from "../sandbox/sandbox.ts";
import { scratchFolder } from "../sandbox/scratch.ts";
import {
  type Bindings,
  fill,
  fillValues,
  type Finding,
  inEveryLanguage,
  judgeEvidence,
  sameValue,
  TooMuchWork,
  unboxed,
  valueOf,
  valueText,
} from "./_engine.ts";
import { type Evidence, gather, type GatherLimits } from "./_evidence.ts";
import { evidenceOfCopy, NOT_A_COPY } from "./_ledger_copy.ts";
import type { Exercise, ValueExpr } from "./_form.ts";
import { guessOf } from "./_guess.ts";
import { whatHappened } from "./_happened.ts";
import {
  LEGEND_MESSAGES as LEGEND,
  type ReasonKind,
} from "./_feedback_messages.ts";
import { acceptEvidence } from "./_accept_evidence.ts";
import {
  FINDING_MARK,
  JUDGE_MESSAGES as M,
  LEDGER_NOT_AGENT,
  VALUE_WORDS,
} from "./messages.ts";
import type { ExerciseProgress } from "./_progress.ts";
import {
  type ExerciseParams,
  foreignValue,
  foreignValueText,
  PARAM_NAMES,
  type ParamName,
} from "./student.ts";

/**
 * The most steps one answer may run: 200. Every exercise takes a handful; the
 * cap keeps a crafted answer (thousands of runs, then a `receipts` step
 * repeated) from holding the ledger's whole history once per step.
 */
export const MAX_ANSWER_STEPS = 200;

/**
 * The most bytes held for one step: 64 KiB for its line, and again for the
 * JSON it printed. With {@linkcode MAX_ANSWER_STEPS}, an answer's evidence is
 * at most about 25 MiB, whatever it asks for.
 */
export const MAX_STEP_BYTES = 64 << 10;

/**
 * The most candidate checks the engine makes for one answer: with the caps
 * above, a search over an answer's steps ends in well under a second.
 */
export const MAX_JUDGE_WORK = 500_000;

/** The caps on an answer's steps, as the evidence takes them. */
export const ANSWER_LIMITS: GatherLimits = {
  maxSteps: MAX_ANSWER_STEPS,
  maxStepBytes: MAX_STEP_BYTES,
};

/** The verdict on one answer to one exercise. */
export interface Verdict {
  /** Every finding is `yes` (and nothing stopped the judging). */
  passed: boolean;
  /** Why nothing could be judged (empty, malformed, invalid step, extra line), or null. */
  reason: Text | null;
  /** The answer went over a bound (steps, bytes per step, search work); `reason` says which. */
  overLimit: boolean;
  /** The findings, in the exercise's order. */
  findings: Finding[];
  /** After a pass: why it came out this way, about this answer's own run and values. */
  why: Text | null;
  /**
   * For a prediction: what really happened, one line per fact. Present only
   * after a correct guess or when the caller asked to reveal; a wrong guess
   * never shows it.
   */
  revealed: Text[] | null;
  /** The lines to print, in order: the reason or the findings, the verdict line, then the why or the reveal. */
  feedback: Text[];
}

/** How {@linkcode judgeAnswer} works: where, and what it may show. */
export interface JudgeOptions extends Partial<GatherLimits> {
  /** A private folder to make the fresh scratch ledgers in (each removed after). */
  scratch: string;
  /** Folders paths are checked from (the sandbox grant and the base). */
  trusted: readonly string[];
  /** For a prediction: show what really happened even after a wrong guess. */
  reveal?: boolean;
  /** The most candidate checks the engine makes; {@linkcode MAX_JUDGE_WORK} by default. */
  maxWork?: number;
  /** The command the student types (`guardlab exercise`, with `--course FILE` under a course), for lines that name one. */
  command?: string;
  /** For a host's prediction: the host run's limit in ms (accept's by default; a test sets a short one). */
  hostRunMs?: number;
}

/** The command lines name when the caller gives none. */
const COMMAND = "guardlab exercise";

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

/**
 * The student's values exercise `x` names anywhere (its texts, skeleton,
 * setup and invariants), in {@linkcode PARAM_NAMES} order: what `show`
 * states. An exercise about an example server or host names none.
 */
export function valuesUsed(x: Exercise): ParamName[] {
  const text = JSON.stringify(x);
  return PARAM_NAMES.filter((name) =>
    text.includes(`{${name}}`) || text.includes(`"param":"${name}"`)
  );
}

/**
 * The steps of a prediction's setup, with this student's values; for an
 * example server's matrix or a host run in process, the command that
 * shows it.
 */
export function setupSteps(x: Exercise, params: ExerciseParams): string[] {
  if (x.accept_example !== undefined) {
    return [`guardlab accept --example ${x.accept_example}`];
  }
  if (x.host_example !== undefined) {
    const h = x.host_example;
    return [
      `guardlab accept host --example ${h.host} --cases ${h.case} --variant ${h.variant}`,
    ];
  }
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

/**
 * Judge `answer` as this student's: with a course code in effect
 * (`variants`), an answer that names a key of another variant is "not yet"
 * with this student's keys, before anything runs.
 */
export async function judgeWithOwnValues(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  variants: boolean,
  options: JudgeOptions,
): Promise<Verdict> {
  const foreign = variants && x.kind === "script" && x.judged === undefined
    ? foreignValue(answer, params, ANSWER_LIMITS)
    : null;
  if (foreign === null) return await judgeAnswer(x, answer, params, options);
  return verdict(x, {
    kind: "answer",
    reason: foreignValueText(
      foreign,
      params,
      x.n,
      options.command ?? COMMAND,
    ),
  });
}

/** One check of an answer, as a student runs it. */
export interface CheckRequest {
  /** The exercise. */
  readonly exercise: Exercise;
  /** The answer given (for an exercise judged from a ledger: the copy). */
  readonly answer: string;
  /** This student's values. */
  readonly params: ExerciseParams;
  /** A course code is in effect: the answer must use the student's own keys. */
  readonly variants: boolean;
  /** The stored record of this exercise: a prediction's first guess is the one that counts. */
  readonly before: ExerciseProgress | undefined;
  /** For a prediction: show what happened, once a first guess is kept (the caller records it). */
  readonly reveal: boolean;
  /** The command the student types for this course (see {@linkcode JudgeOptions}). */
  readonly command: string;
  /** The granted temp folder: the scratch ledgers go in it, and paths are checked from it. */
  readonly base: string;
  /** Where each line goes, as soon as it is known. */
  readonly say: (line: Text) => void;
}

/**
 * Check one answer: a prediction already guessed is judged on its first
 * guess (a second try would always pass), and its outcome is revealed only
 * once that first guess is kept (given now, or before); the answer is
 * judged with this student's own values in a scratch folder removed
 * afterwards, and every feedback line is said. Returns the verdict, the
 * answer that counted, and whether a wrong guess's outcome was revealed
 * (for the record).
 */
export async function check(
  request: CheckRequest,
): Promise<{ verdict: Verdict; answer: string; revealed: boolean }> {
  const { exercise: x, before, say } = request;
  let answer = request.answer;
  if (x.kind === "prediction" && before?.guess !== undefined) {
    if (answer.trim() !== "" && answer.trim() !== before.guess) {
      say(M.firstGuess(before.guess));
    }
    answer = before.guess;
  }
  if (
    x.kind === "prediction" && request.reveal && before?.guess === undefined &&
    "reason" in guessOf(x, answer)
  ) {
    // Nothing to reveal against: a reveal before the first guess would
    // give the answer away, and the next guess would pass.
    const v = verdict(x, {
      reason: M.revealFirst(request.command, x.n),
      kind: "reveal",
    });
    for (const line of v.feedback) say(line);
    return { verdict: v, answer, revealed: false };
  }
  await using scratch = scratchFolder(request.base);
  const judged = await judgeWithOwnValues(
    x,
    answer,
    request.params,
    request.variants,
    {
      scratch: scratch.path,
      trusted: trustedFolders(request.base),
      reveal: request.reveal,
      command: request.command,
    },
  );
  for (const line of judged.feedback) say(line);
  const revealed = request.reveal && judged.revealed !== null &&
    !judged.passed;
  return { verdict: judged, answer, revealed };
}

/** The lines for a ledger that could not be copied: not yet, and why. */
export function copyRefused(x: Exercise, reason: Text): Text[] {
  return [M.notYet(reason, "judge"), M.notDone(x.n)];
}

function verdict(
  x: Exercise,
  parts: {
    reason?: Text;
    /** What kind of reason it is (an invalid answer by default). */
    kind?: ReasonKind;
    overLimit?: boolean;
    findings?: Finding[];
    why?: Text | null;
    revealed?: Text[] | null;
    /** A prediction's wrong guess: the command that can reveal it. */
    wrongGuess?: string;
  },
): Verdict {
  const findings = parts.findings ?? [];
  const reason = parts.reason ?? null;
  const passed = reason === null && findings.length > 0 &&
    findings.every((f) => f.status === "yes");
  const feedback: Text[] = [];
  if (reason) feedback.push(M.notYet(reason, parts.kind));
  else if (parts.wrongGuess !== undefined) {
    feedback.push(M.finding(FINDING_MARK.no, M.wrongGuess));
    feedback.push(M.notDone(x.n));
    feedback.push(M.wrongGuessKept);
    // The command on a line of its own: it is there to be copied.
    feedback.push(M.revealCommand(parts.wrongGuess, x.n));
  } else {
    for (const f of findings) {
      feedback.push(M.finding(FINDING_MARK[f.status], f.text));
      if (f.happened) feedback.push(f.happened);
    }
    const legend = legendOf(findings);
    if (legend) feedback.push(legend);
    feedback.push(passed ? M.done(x.n) : M.notDone(x.n));
  }
  const why = passed ? parts.why ?? null : null;
  if (why) feedback.push(M.why(why));
  const revealed = parts.revealed ?? null;
  if (revealed) {
    feedback.push(M.whatHappened);
    for (const line of revealed) feedback.push(M.happened(line));
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

/**
 * The legend of the marks `findings` use, when one is needed (a mark other
 * than `[ok]`, or a value never reached): each mark that appears, once.
 */
function legendOf(findings: Finding[]): Text | null {
  const used = new Set(findings.map((f) => f.status));
  const unbound = findings.some((f) =>
    LANGS.some((lang) =>
      say(f.text, lang).includes(say(VALUE_WORDS.unbound, lang))
    )
  );
  if (!used.has("no") && !used.has("not-checked") && !unbound) return null;
  const parts: Text[] = [];
  if (used.has("yes")) parts.push(LEGEND.yes);
  if (used.has("no")) {
    parts.push(findings.some((f) => f.happened) ? LEGEND.noDid : LEGEND.no);
  }
  if (used.has("not-checked")) parts.push(LEGEND.notChecked);
  if (unbound) parts.push(LEGEND.unbound);
  return LEGEND.marks(parts);
}

/** Judge `e` by `x`'s invariants, bounded in work: the verdict, or over the limit. */
function judged(
  x: Exercise,
  e: Evidence,
  params: ExerciseParams,
  options: Pick<JudgeOptions, "maxWork">,
): Verdict {
  const maxWork = options.maxWork ?? MAX_JUDGE_WORK;
  try {
    const ctx = { evidence: e, params, maxWork, work: { n: 0 } };
    const { findings, bindings, misses } = judgeEvidence(x, ctx);
    for (const miss of misses) {
      const happened = whatHappened(
        miss.clause,
        miss.bindings,
        ctx,
        miss.elsewhere,
      );
      if (happened) findings[miss.finding].happened = happened;
    }
    return verdict(x, { findings, why: fill(x.why, bindings, params) });
  } catch (error) {
    if (!(error instanceof TooMuchWork)) throw error;
    return verdict(x, {
      reason: M.overWork(maxWork),
      overLimit: true,
      kind: "limit",
    });
  }
}

async function judgeScript(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<Verdict> {
  if (answer.trim() === "") return verdict(x, { reason: M.emptyScript });
  const e = await gather(stream(answer), folder, options.trusted, {
    maxSteps: options.maxSteps ?? MAX_ANSWER_STEPS,
    maxStepBytes: options.maxStepBytes ?? MAX_STEP_BYTES,
  });
  if (e.overLimit) {
    return verdict(x, { reason: e.overLimit, overLimit: true, kind: "limit" });
  }
  if (e.invalid.length > 0) {
    return verdict(x, { reason: invalidReason(e) });
  }
  return judged(x, e, params, options);
}

/**
 * Why the first invalid step could not run; for a Snapshot that was never
 * taken, why not (its pre-check was refused, with the rule's reason).
 */
function invalidReason(e: Evidence): Text {
  const { line, message, snapshot } = e.invalid[0];
  const refused = snapshot === undefined
    ? undefined
    : e.steps.findLast((s) =>
      s.op === "policy.precheck" && s.as === snapshot &&
      (s.line as number) < line
    );
  if (refused !== undefined && refused.rejected !== undefined) {
    return M.snapshotNeverTaken(
      line,
      JSON.stringify(snapshot),
      refused.line as number,
      String(refused.rejected),
    );
  }
  return M.invalidStep(line, message);
}

/**
 * Judge a ledger copy (made by `check N --ledger NAME`, or carried in a
 * hand-in) by the exercise's invariants over its rows; nothing is run.
 */
export function judgeLedgerCopy(
  x: Exercise,
  copy: string,
  params: ExerciseParams,
  options: Pick<JudgeOptions, "maxWork" | "command"> = {},
): Verdict {
  const e = evidenceOfCopy(copy);
  const reason = "reason" in e && e.reason === NOT_A_COPY
    ? M.notACopy(options.command ?? COMMAND, x.n)
    : "reason" in e
    ? e.reason
    : null;
  const v = "reason" in e
    ? verdict(x, {
      reason: reason!,
      overLimit: e.overLimit,
      kind: e.overLimit ? "limit" : "answer",
    })
    : judged(x, e, params, options);
  return { ...v, feedback: [...v.feedback, LEDGER_NOT_AGENT] };
}

/** What a prediction's setup really did: one actual value per fact, or why it cannot tell. */
async function actualFacts(
  x: Exercise,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<{ actual: Map<string, unknown>; b: Bindings } | null> {
  const e = x.accept_example !== undefined
    ? await acceptEvidence(x.accept_example)
    : x.host_example !== undefined
    // Loaded only when a host's prediction is judged (exercise 20).
    ? await (await import("./_host_evidence.ts")).hostEvidence(
      x.host_example,
      folder,
      options.hostRunMs,
    )
    : await gather(
      stream(setupSteps(x, params).join("\n")),
      folder,
      options.trusted,
      ANSWER_LIMITS,
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
        ? e.ledger[v.count].length
        : valueOf(v as ValueExpr, b, params),
    );
  }
  return { actual, b };
}

async function judgePrediction(
  x: Exercise,
  answer: string,
  params: ExerciseParams,
  options: JudgeOptions,
  folder: string,
): Promise<Verdict> {
  // A malformed guess is no guess: nothing is revealed against it.
  const read = guessOf(x, answer);
  if ("reason" in read) {
    return verdict(x, { reason: read.reason, kind: "guess" });
  }
  const facts = await actualFacts(x, params, options, folder);
  if (facts === null) {
    return verdict(x, { reason: M.setupBroken, kind: "judge" });
  }
  const revealed: Text[] = (x.predict ?? []).map((f) =>
    M.fact(f.field, valueText(facts.actual.get(f.field)))
  );
  const g = read.guess;
  const findings: Finding[] = (x.predict ?? []).map((f) => ({
    status: sameValue(g[f.field], facts.actual.get(f.field)) ? "yes" : "no",
    text: M.predicted(
      f.field,
      f.says,
      inEveryLanguage((lang) => plainValue(unboxed(g[f.field]), lang)),
    ),
  }));
  const passed = findings.every((f) => f.status === "yes");
  if (!passed && !options.reveal) {
    // A wrong guess shows only that it was wrong: a mark per field would
    // tell which fields were right, and the next guess would pass.
    return verdict(x, {
      findings: [{ status: "no", text: M.wrongGuess }],
      wrongGuess: options.command ?? COMMAND,
    });
  }
  return verdict(x, {
    findings,
    why: fill(x.why, facts.b, params),
    // What happened is shown after a right guess, or when asked (and recorded).
    revealed,
  });
}
