/**
 * The checker: every verdict of `accept`, judged from a case's history
 * alone, one pure function per case. Nothing here talks to a server: the
 * code that drives one only records (`_case_runs.ts`), and this module
 * reads the record. So a saved report is judged again offline (`accept
 * judge`), and every verdict is reached from a history written by hand
 * (`tests/accept/checker_test.ts`). A verdict is never more confident than
 * what the history shows: a read that could not count, an answer that
 * never came, a server that broke or went, each says so.
 *
 * @module
 */
import {
  BROKEN_VERDICTS,
  type CaseName,
  type Verdict,
  VERDICT_CLASS,
  type VerdictClass,
} from "./cases.ts";
import {
  type CaseHistory,
  type HistoryAnswer,
  isConflictAnswer,
} from "./_history.ts";
import { Reading } from "./_reading.ts";
import type {
  AnswerSeen,
  CaseResult,
  Contradiction,
  NotRunReason,
} from "./_report.ts";

export type { Contradiction } from "./_report.ts";
import type { Outcome, ToolHints } from "./session.ts";

/** What the checker says of one case: its verdict, and what it rests on (the row's fields). */
export interface Judgement {
  /** What the client saw from each of its calls, in order. */
  readonly client_saw: readonly Outcome[];
  /** What the server answered each call, in call order. */
  readonly answers: readonly AnswerSeen[];
  /** The effect counted by key at the end, or null. */
  readonly effect: number | null;
  /** The fields the case adds (counts before a retry, the cancel's place, the hints, …), in the row's order. */
  readonly extra: Partial<CaseResult>;
  /** The verdict. */
  readonly verdict: Verdict;
  /** Its class. */
  readonly class: VerdictClass;
  /** Verdicts reported beside it as information. */
  readonly info: readonly Verdict[];
}

/**
 * A row of the matrix, in `--json`'s order: which case and tool, the
 * judgement's fields, then what the run kept beside them (the problems are
 * the history's).
 */
export function judgedRow(
  id: Pick<CaseResult, "case" | "tool" | "entry">,
  judged: Judgement,
  kept: Pick<CaseResult, "notices" | "run" | "key" | "timeline" | "history">,
): CaseResult {
  return {
    ...id,
    client_saw: judged.client_saw,
    answers: judged.answers,
    effect: judged.effect,
    ...judged.extra,
    verdict: judged.verdict,
    class: judged.class,
    info: judged.info,
    problems: kept.history.records.flatMap((r) =>
      r.op === "problem"
        ? [{ kind: r.problem, ...(r.id === undefined ? {} : { id: r.id }) }]
        : []
    ),
    notices: kept.notices,
    run: kept.run,
    key: kept.key,
    timeline: kept.timeline,
    history: kept.history,
  };
}

/** The part of an earlier row of the same oracle entry the annotations case reads. */
export interface JudgedRow {
  /** The case. */
  readonly case: CaseName;
  /** Its verdict. */
  readonly verdict: Verdict;
  /** The effect it counted. */
  readonly effect: number | null;
}

/** What one case's check found, before the broken-server rules judge it. */
interface Observed {
  client_saw: Outcome[];
  effect: number | null;
  verdict: Verdict;
  info?: Verdict[];
  extra?: Partial<CaseResult>;
  /** The call numbers whose answers the case needed. */
  needed: number[];
  /** Two counts contradict each other, or a read the case needed is not in the history. */
  readFailed?: boolean;
}

/**
 * Judge one case from its history; `earlier` holds the rows of the same
 * oracle entry judged before it (the annotations case checks the declared
 * hints against them). Pure: the same history gives the same judgement.
 */
export function judgeCase(
  name: CaseName,
  history: CaseHistory,
  earlier: readonly JudgedRow[] = [],
): Judgement {
  const h = new Reading(history.records, history.subject);
  const observed = name === "annotations"
    ? annotations(h, earlier)
    : h.gone()
    ? serverExited()
    : h.setupFailed()
    ? { ...nothingSeen(), verdict: "SETUP-FAILED" as const }
    : CHECKS[name](h);
  const verdict = brokenVerdict(h, observed) ?? observed.verdict;
  return {
    client_saw: observed.client_saw,
    answers: h.answers(),
    effect: observed.effect,
    extra: observed.extra ?? {},
    verdict,
    class: VERDICT_CLASS[verdict],
    info: verdict === observed.verdict ? observed.info ?? [] : [],
  };
}

/**
 * The verdict of a case whose server broke, checked in this order: it
 * broke the protocol; it exited (or had before the case); an answer the
 * case needed never came; a read failed. Otherwise the effect's verdict
 * stands. A case that was not run, whose setup failed, or whose own server
 * could not be started keeps that verdict.
 */
function brokenVerdict(h: Reading, o: Observed): Verdict | undefined {
  if (
    o.verdict === "SETUP-FAILED" || o.verdict === "SERVER-EXITED" ||
    o.verdict === "NOT-RUN"
  ) {
    return undefined;
  }
  const needed = o.needed.map((n) => h.answerOf(n));
  if (h.records.some((r) => r.op === "problem")) return "PROTOCOL-VIOLATION";
  if (h.gone() || h.exited() || needed.some((a) => a.outcome === "unknown")) {
    return "SERVER-EXITED";
  }
  if (
    needed.some((a) => a.outcome === "none" || a.outcome === "cancelled")
  ) return "NO-ANSWER";
  if (o.readFailed || h.readFailed()) return "READ-FAILED";
  return undefined;
}

const nothingSeen = () => ({
  client_saw: [] as Outcome[],
  effect: null,
  needed: [] as number[],
});

const serverExited = (): Observed => ({
  ...nothingSeen(),
  verdict: "SERVER-EXITED",
});

const notRun = (reason: NotRunReason): Observed => ({
  ...nothingSeen(),
  verdict: "NOT-RUN",
  extra: { not_run: reason },
});

/** Each case's check (annotations, which reads earlier rows, apart). */
const CHECKS: Readonly<
  Record<Exclude<CaseName, "annotations">, (h: Reading) => Observed>
> = {
  once(h) {
    const a = h.answerOf(1);
    const n = h.countAfter(h.callIndex(1));
    return {
      client_saw: [h.saw(1)],
      effect: n.count,
      verdict: onceVerdict(n.count, a),
      needed: [1],
      readFailed: n.missing,
    };
  },

  rejected(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    const a = h.answerOf(1);
    const n = h.countAfter(h.callIndex(1));
    return {
      client_saw: [h.saw(1)],
      effect: n.count,
      // Counted under the key the bad call itself carries, when it
      // carries one: its effect is there, not under call's.
      extra: {
        counted_under: (h.call(1)?.key ?? null) === null ? "call" : "bad_call",
      },
      // Answered success: the tool took what it should refuse, whatever
      // it wrote. Refused: the refusal came before the write, or after it.
      verdict: a.outcome === "ok"
        ? "ACCEPTED-BAD-CALL"
        : n.count === 0
        ? "NO-EFFECT"
        : "EFFECT-DESPITE-REJECTION",
      needed: [1],
      readFailed: n.missing,
    };
  },

  "lost-reply-retry"(h) {
    const { before, n } = h.retried();
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: { effect_before_retry: before.count },
      verdict: onceVerdict(n.count, h.answerOf(2)),
      needed: [1, 2],
      readFailed: before.missing || n.missing,
    };
  },

  "cancel-after-send"(h) {
    const cancel = h.records.find((r) =>
      r.op === "fault" && r.fault === "cancel"
    );
    const { before, n } = h.retried();
    const sent = cancel?.op === "fault" && cancel.fault === "cancel" &&
      cancel.sent;
    const plan = cancel?.op === "fault" && cancel.fault === "cancel"
      ? {
        after_ms: cancel.after_ms,
        from: cancel.from,
        ...(cancel.median_ms === undefined
          ? {}
          : { median_ms: cancel.median_ms }),
        sent: cancel.sent,
      }
      : undefined;
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: {
        effect_before_retry: before.count,
        ...(plan === undefined ? {} : { cancel: plan }),
      },
      verdict: onceVerdict(n.count, h.answerOf(2)),
      // A cancel that was never sent tested nothing; one that was, and
      // found the effect there, shows the article's point.
      info: !sent
        ? ["CANCEL-TOO-LATE"]
        : before.count !== null && before.count > 0
        ? ["EFFECT-DESPITE-CANCEL"]
        : [],
      needed: [2],
      readFailed: before.missing || n.missing,
    };
  },

  "concurrent-distinct": (h) => eachKept(h),

  "concurrent-same"(h) {
    const all = h.clientCalls();
    const calls = all.filter((c) => c.retry !== true);
    const retry = all.find((c) => c.retry === true);
    const mark = h.contract()?.conflict;
    const n = h.countAfter(h.lastCallIndex());
    const conflicts =
      calls.filter((c) => isConflictAnswer(mark, c.answer)).length;
    // A copy refused with the conflict the oracle declares retryable was
    // not told it failed: it was told to retry.
    const failed = n.count === 1
      ? calls.filter((c) =>
        c.answer.outcome === "error" && !isConflictAnswer(mark, c.answer)
      ).length
      : 0;
    const first = calls.find((c) => c.answer.outcome === "ok")?.answer;
    return {
      client_saw: all.map((c) => h.saw(c.call)),
      effect: n.count,
      extra: {
        copies: calls.length,
        told_failed: failed,
        ...(mark === undefined ? {} : { conflicts }),
        ...(retry === undefined || first === undefined
          ? {}
          : { replayed: sameAnswer(first, retry.answer) }),
      },
      // One effect is ONCE only when every caller was told so: a caller
      // told "already exists" for an effect that exists got a false
      // failure; one told the declared conflict, and whose retry got the
      // result, did not.
      verdict: n.count === null || n.count === 0
        ? "NONE"
        : n.count > 1
        ? "DUPLICATED"
        : failed > 0
        ? "FALSE-FAILURE"
        : conflicts === 0
        ? "ONCE"
        : retry?.answer.outcome === "ok"
        ? "ONCE-AFTER-CONFLICT"
        : "FALSE-FAILURE",
      needed: all.map((c) => c.call),
      readFailed: n.missing,
    };
  },

  "same-key-other-arguments"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    const first = h.answerOf(1);
    const n1 = h.countAfter(h.callIndex(1));
    const o1 = h.countAfter(h.callIndex(1), true);
    const firstVerdict = onceVerdict(n1.count, first);
    // The other count must not count the first arguments' effect, or the
    // two cannot be told apart. Only after one clean first effect does the
    // second call test anything.
    const counted = o1.count !== null && o1.count > 0;
    if (firstVerdict !== "ONCE" || o1.count === null || counted) {
      return {
        client_saw: [h.saw(1)],
        effect: n1.count,
        extra: { effect_other: o1.count },
        verdict: firstVerdict,
        needed: [1],
        readFailed: counted || n1.missing || o1.missing,
      };
    }
    // `count` counts every effect under the key, `other_count` the other
    // arguments' among them: what is left is the first arguments'.
    const n = h.countAfter(h.callIndex(2));
    const o = h.countAfter(h.callIndex(2), true);
    const old = n.count === null || o.count === null ? null : n.count - o.count;
    const verdict = otherVerdict(old ?? 0, o.count ?? 0, h.answerOf(2));
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: { effect_other: o.count, effect_old: old },
      verdict,
      // The draft answers other arguments under a used key with 422.
      info: h.otherStatus(2, 422, verdict, ["CONFLICT-REPORTED"]),
      needed: [1, 2],
      readFailed: (old !== null && old < 0) || n.missing || o.missing,
    };
  },

  "replay-after-completion"(h) {
    const { before, n } = h.retried();
    const first = h.answerOf(1);
    const again = h.answerOf(2);
    const replayed = sameAnswer(first, again);
    const once = onceVerdict(n.count, again);
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: { effect_before_retry: before.count, replayed },
      // One effect, and the first answer came back as it was: the stored
      // result, as the draft asks.
      verdict: once === "ONCE" && first.outcome === "ok" && replayed
        ? "REPLAYED"
        : once,
      needed: [1, 2],
      readFailed: before.missing || n.missing,
    };
  },

  "replay-error"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    const first = h.answerOf(1);
    if (first.outcome === "ok") {
      return { ...notRun("not-an-error"), client_saw: [h.saw(1)] };
    }
    const { before, n } = h.retried();
    const again = h.answerOf(2);
    const replayed = sameAnswer(first, again);
    const e1 = before.count ?? 0;
    const e2 = n.count ?? 0;
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: { effect_before_retry: before.count, replayed },
      verdict: errorVerdict(e1, e2, again, replayed),
      needed: [1, 2],
      readFailed: e2 < e1 || before.missing || n.missing,
    };
  },

  "missing-key"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    const a = h.answerOf(1);
    const n = h.countAfter(h.callIndex(1));
    // Answered success: the operation takes calls without a key (a retry
    // of one cannot be told from a new call). Refused: with no effect, as
    // the draft asks, or after the write.
    const verdict: Verdict = a.outcome === "ok"
      ? "KEY-NOT-REQUIRED"
      : (n.count ?? 0) > 0
      ? "EFFECT-DESPITE-REJECTION"
      : "KEY-REQUIRED";
    return {
      client_saw: [h.saw(1)],
      effect: n.count,
      verdict,
      // The draft refuses a missing key with 400.
      info: h.otherStatus(1, 400, verdict, ["KEY-REQUIRED"]),
      needed: [1],
      readFailed: n.missing,
    };
  },

  "key-lifetime"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    const { before, n } = h.retried();
    const again = h.answerOf(2);
    const wait = h.records.find((r) => r.op === "fault" && r.fault === "wait");
    const lifetime = h.contract()?.lifetime_ms;
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: {
        effect_before_retry: before.count,
        ...(wait?.op === "fault" && wait.fault === "wait"
          ? { waited_ms: wait.ms }
          : {}),
        ...(lifetime === undefined ? {} : { lifetime_ms: lifetime }),
      },
      verdict: n.count === null || n.count === 0
        ? "NONE"
        : n.count > 1
        ? "KEY-FORGOTTEN"
        : again.outcome === "ok"
        ? "KEY-KEPT"
        : "FALSE-FAILURE",
      needed: [1, 2],
      readFailed: before.missing || n.missing,
    };
  },

  "two-processes"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    if (h.startFailed() !== undefined) return serverExited();
    return eachKept(h);
  },

  "crash-after-commit"(h) {
    const skip = h.skipped();
    if (skip !== undefined) return notRun(skip);
    if (h.startFailed() === 1) return serverExited();
    // What the read saw before the kill: the last read before it.
    const kill = h.records.findIndex((r) =>
      r.op === "fault" && r.fault === "kill"
    );
    const seen = h.countBefore(kill < 0 ? h.records.length : kill);
    if (h.startFailed() !== undefined) {
      return { ...serverExited(), extra: { effect_before_kill: seen.count } };
    }
    // The restarted server's reads: after the kill.
    const { before, n } = h.retried(kill);
    const lost = seen.count !== null && seen.count > 0 && before.count === 0;
    // The read counts 0 only once the answer is in. A success with nothing
    // under the key then, nor after the restart (nothing of the killed
    // process can land later), was a call answered success that left no
    // effect: what the retry made next proves no retry safe.
    const answeredNothing = seen.count === 0 && before.count === 0 &&
      h.answerOf(1).outcome === "ok";
    return {
      client_saw: [h.saw(1), h.saw(2)],
      effect: n.count,
      extra: {
        effect_before_kill: seen.count,
        effect_before_retry: before.count,
      },
      verdict: lost
        ? "LOST-ON-RESTART"
        : answeredNothing
        ? "NONE"
        : onceVerdict(n.count, h.answerOf(2)),
      needed: [2],
      readFailed: seen.missing || before.missing || n.missing,
    };
  },
};

/**
 * N calls with distinct keys, judged: each key's read (in call order,
 * after the last call), each answer set beside its count (a success with
 * nothing kept is lost, an error with an effect a false failure, an error
 * with nothing an honest refusal).
 */
function eachKept(h: Reading): Observed {
  const calls = h.clientCalls();
  const reads = h.readsFrom(h.lastCallIndex() + 1).filter((r) => !r.other);
  const counts = calls.map((_, i) => reads[i]?.count ?? null);
  const per = calls.map((c, i) => ({ answer: c.answer, n: counts[i] }));
  return {
    client_saw: calls.map((c) => h.saw(c.call)),
    effect: counts.includes(null)
      ? null
      : counts.filter((n) => n !== null && n > 0).length,
    extra: { copies: calls.length, told_failed: toldFailed(per) },
    verdict: keptVerdict(per),
    needed: calls.map((c) => c.call),
    readFailed: reads.length < calls.length,
  };
}

/** The cases that call the tool again with the same arguments: what `idempotentHint: true` promises about. */
export const REPEAT_CASES: readonly CaseName[] = [
  "lost-reply-retry",
  "replay-after-completion",
  "cancel-after-send",
  "concurrent-same",
  "crash-after-commit",
];

/** What a repeat may not do under `idempotentHint: true`: write again, or answer an error for an effect it has. */
const NOT_IDEMPOTENT: readonly Verdict[] = ["DUPLICATED", "FALSE-FAILURE"];

/** The declared hints of the write tool, checked against the verdicts the run reached for it before. */
function annotations(h: Reading, earlier: readonly JudgedRow[]): Observed {
  // A tool guardlab did not see in tools/list (not listed, or the list
  // could not be read) has hints nobody knows: they promise nothing only
  // when they were read.
  const hints = h.hints("write");
  if (hints === undefined) return notRun("not-listed");
  const readHints = h.hints("read");
  const { found, checked } = contradictions(hints, earlier);
  const verdict: Verdict = found.length > 0
    ? "ANNOTATION-CONTRADICTED"
    : checked
    ? "HINTS-HOLD"
    : promises(hints)
    ? "NOT-RUN"
    : "NOTHING-PROMISED";
  const extra: Partial<CaseResult> = {
    hints,
    ...(readHints === undefined ? {} : { read_hints: readHints }),
    contradicted: found,
  };
  return {
    ...nothingSeen(),
    verdict,
    info: readHints !== undefined && readHints.readOnlyHint !== true
      ? ["READ-HINT-MISSING"]
      : [],
    extra: verdict === "NOT-RUN"
      ? { ...extra, not_run: "nothing-to-check" }
      : extra,
  };
}

/** Whether `hints` promise anything a case can check: idempotentHint or readOnlyHint true, destructiveHint false. */
export function promises(hints: ToolHints): boolean {
  return hints.idempotentHint === true || hints.readOnlyHint === true ||
    hints.destructiveHint === false;
}

/**
 * Each declared hint the rows contradict, and whether any declared hint
 * could be checked at all by the rows that ran (a row whose server broke,
 * or that tested nothing, says nothing about the effect):
 * - `idempotentHint: true`: a repeat (a retry, a copy) that duplicated, or
 *   that answered an error for an effect that exists;
 * - `readOnlyHint: true`: any effect counted;
 * - `destructiveHint: false`: other arguments that replaced the effect
 *   (OVERWRITTEN: the old effect is gone).
 */
export function contradictions(
  hints: ToolHints,
  rows: readonly JudgedRow[],
): { found: Contradiction[]; checked: boolean } {
  const found: Contradiction[] = [];
  let checked = false;
  const seen = rows.filter((row) =>
    row.verdict !== "NOT-RUN" && !BROKEN_VERDICTS.includes(row.verdict)
  );
  const against = (hint: keyof ToolHints, row: JudgedRow) =>
    found.push({
      hint,
      declared: hints[hint]!,
      case: row.case,
      verdict: row.verdict,
      effect: row.effect,
    });
  if (hints.idempotentHint === true) {
    for (const row of seen.filter((r) => REPEAT_CASES.includes(r.case))) {
      checked = true;
      if (NOT_IDEMPOTENT.includes(row.verdict)) against("idempotentHint", row);
    }
  }
  if (hints.readOnlyHint === true) {
    for (const row of seen.filter((r) => r.effect !== null)) {
      checked = true;
      if (row.effect! > 0) against("readOnlyHint", row);
    }
  }
  if (hints.destructiveHint === false) {
    for (
      const row of seen.filter((r) => r.case === "same-key-other-arguments")
    ) {
      checked = true;
      if (row.verdict === "OVERWRITTEN") against("destructiveHint", row);
    }
  }
  return { found, checked };
}

/** The verdict for "the call should have had exactly one effect": `n` counted, `last` the answer the client was told. */
export function onceVerdict(n: number | null, last: HistoryAnswer): Verdict {
  if (n === null || n === 0) return "NONE";
  if (n >= 2) return "DUPLICATED";
  return last.outcome === "ok" ? "ONCE" : "FALSE-FAILURE";
}

/**
 * The verdict for N calls with distinct keys, each answered and counted:
 * a key counted twice is a duplicate; a success with no effect, a lost
 * update; an answer that is not a success with an effect, a false
 * failure; an error with no effect, an honest refusal.
 */
export function keptVerdict(
  per: readonly { answer: HistoryAnswer; n: number | null }[],
): Verdict {
  if (per.some((p) => p.n !== null && p.n > 1)) return "DUPLICATED";
  if (per.some((p) => p.answer.outcome === "ok" && p.n === 0)) return "LOST";
  if (per.some((p) => p.answer.outcome !== "ok" && (p.n ?? 0) > 0)) {
    return "FALSE-FAILURE";
  }
  return per.every((p) => p.answer.outcome === "ok")
    ? "ALL-KEPT"
    : "SOME-REFUSED";
}

/** How many answers said error while their effect exists. */
export function toldFailed(
  per: readonly { answer: HistoryAnswer; n: number | null }[],
): number {
  return per.filter((p) => p.answer.outcome === "error" && (p.n ?? 0) > 0)
    .length;
}

/** same-key-other-arguments: `old` of the first arguments' effect left, `other` of the other's, after the `second` call. */
export function otherVerdict(
  old: number,
  other: number,
  second: HistoryAnswer,
): Verdict {
  if (old > 1 || other > 1 || (old >= 1 && other >= 1)) return "DUPLICATED";
  if (other === 1) {
    // The old effect is gone and the other took its place.
    return second.outcome === "ok" ? "OVERWRITTEN" : "FALSE-FAILURE";
  }
  if (old === 0) return "NONE";
  return second.outcome === "ok" ? "SILENT-CONFLICT" : "CONFLICT-REPORTED";
}

/** Whether two answers are the same answer: the same outcome and digest (an HTTP status and body; a result or an error as JSON). */
export function sameAnswer(a: HistoryAnswer, b: HistoryAnswer): boolean {
  return a.outcome === b.outcome && a.digest !== undefined &&
    a.digest === b.digest;
}

/**
 * replay-error: the effect `before` the retry and `after` it, the retry's
 * answer, and whether it was the first answer again. A retry that ran the
 * call again after an effect is unsafe whatever it said; one that ran
 * nothing is fine whatever it said, and best when it said the same.
 */
export function errorVerdict(
  before: number,
  after: number,
  again: HistoryAnswer,
  replayed: boolean,
): Verdict {
  if (after > before) {
    if (before > 0) return replayed ? "ERROR-RE-RUN" : "ERROR-NOT-STORED";
    // The error left nothing: the retry was a new try, and its own answer
    // says whether it did.
    return again.outcome === "ok" ? "ERROR-NOT-REPLAYED" : "FALSE-FAILURE";
  }
  return replayed ? "ERROR-REPLAYED" : "ERROR-NOT-REPLAYED";
}
