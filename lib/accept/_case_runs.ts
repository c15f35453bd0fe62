/**
 * Each case of the acceptance test, as the client, guardlab and the read
 * tool act in it, top to bottom: what the client sends, what guardlab does
 * with the answer, when the read tool is asked, and the verdict from what
 * was counted and what the client was told.
 *
 * @module
 */
import type { CaseName, Verdict } from "./cases.ts";
import { within } from "./_server_process.ts";
import type { CaseResult } from "./_report.ts";
import type { Answer, Session } from "./session.ts";
import { contradictions, promises } from "./_annotations.ts";
import {
  argsFor,
  badKey,
  closeProcess,
  count,
  type Ctx,
  lookThenRetry,
  measure,
  NOT_RUN,
  type Observed,
  readUntilSeen,
  send,
  STARTED_NOT,
  startProcess,
} from "./_steps.ts";
import {
  cancelPlan,
  keptVerdict,
  onceVerdict,
  otherVerdict,
  toldFailed,
} from "./_verdicts.ts";

/** Each case, as the client, guardlab and the read tool act in it. */
export const CASES: Readonly<
  Record<Exclude<CaseName, "annotations">, (ctx: Ctx) => Promise<Observed>>
> = {
  async once(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const answer = await send(ctx, args, { call: 1 }).answer;
    measure(ctx, answer);
    const n = await count(ctx);
    return {
      client_saw: [answer.outcome],
      effect: n,
      verdict: onceVerdict(n, answer),
      needed: [answer],
    };
  },

  async rejected(ctx) {
    if (ctx.tool.bad_call === undefined) return NOT_RUN("no-arguments");
    const { arguments: args } = argsFor(ctx, ctx.tool.bad_call);
    // Counted under the key the bad call itself carries: a bad call with a
    // key of its own leaves its effect there, not under call's.
    const own = badKey(ctx);
    const answer = await send(ctx, args, { call: 1 }).answer;
    const n = await count(ctx, { ...ctx.p, key: own ?? ctx.p.key });
    const accepted = answer.outcome === "success";
    return {
      client_saw: [answer.outcome],
      effect: n,
      extra: { counted_under: own === undefined ? "call" : "bad_call" },
      // Answered success: the tool took what it should refuse, whatever
      // it wrote. Refused: the refusal came before the write, or after it.
      verdict: accepted
        ? "ACCEPTED-BAD-CALL"
        : n === 0
        ? "NO-EFFECT"
        : "EFFECT-DESPITE-REJECTION",
      needed: [answer],
    };
  },

  async "lost-reply-retry"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    // The server answers; guardlab keeps the answer from the client, as a
    // remote timeout after the send would.
    const first = await send(ctx, args, { call: 1, withhold: true }).answer;
    measure(ctx, first);
    if (first.outcome !== "no-answer" && first.outcome !== "closed") {
      ctx.session.note({
        lane: "client",
        kind: "gave-up",
        call: 1,
        outcome: "no-answer",
      });
    }
    const { before, retry, n } = await lookThenRetry(ctx, args);
    return {
      client_saw: ["no-answer", retry.outcome],
      effect: n,
      extra: { effect_before_retry: before },
      verdict: onceVerdict(n, retry),
      needed: [first, retry],
    };
  },

  async "cancel-after-send"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const plan = cancelPlan(ctx.options.cancelAfterMs, ctx.measured);
    const first = send(ctx, args, { call: 1, withhold: true });
    let answered: Answer | undefined;
    first.answer.then((a) => {
      if (a.outcome !== "no-answer" && a.outcome !== "closed") answered = a;
    });
    if (plan.after_ms > 0) {
      // The wait ends at the delay, or sooner when the answer comes: a
      // cancel after the answer tests nothing, and is not sent.
      await within(first.answer, plan.after_ms, undefined);
    }
    // A delay of 0 sends the cancel in the same write as the call.
    const sent = answered === undefined;
    if (sent) ctx.session.cancel(first);
    else {
      ctx.session.note({ lane: "guardlab", kind: "too-late", call: 1 });
    }
    const { before, retry, n } = await lookThenRetry(ctx, args);
    return {
      client_saw: ["no-answer", retry.outcome],
      effect: n,
      extra: { effect_before_retry: before, cancel: { ...plan, sent } },
      verdict: onceVerdict(n, retry),
      info: !sent
        ? ["CANCEL-TOO-LATE"]
        : before !== null && before > 0
        ? ["EFFECT-DESPITE-CANCEL"]
        : [],
      needed: [retry],
    };
  },

  async "concurrent-distinct"(ctx) {
    const copies = ctx.options.copies;
    const calls = Array.from(
      { length: copies },
      (_, i) => argsFor(ctx, ctx.tool.call, i + 1),
    );
    const pending = calls.map((c, i) =>
      send(ctx, c.arguments, { call: i + 1 })
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    return await eachKept(ctx, calls, answers, ctx.session);
  },

  async "concurrent-same"(ctx) {
    const copies = ctx.options.copies;
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const pending = Array.from(
      { length: copies },
      (_, i) => send(ctx, args, { call: i + 1 }),
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    const n = await count(ctx);
    const failed = n === 1
      ? answers.filter((a) =>
        a.outcome === "tool-error" || a.outcome === "rpc-error"
      ).length
      : 0;
    return {
      client_saw: answers.map((a) => a.outcome),
      effect: n,
      extra: { copies, told_failed: failed },
      // One effect is ONCE only when every caller was told so: a caller
      // told "already exists" for an effect that exists got a false failure.
      verdict: n === null || n === 0
        ? "NONE"
        : n > 1
        ? "DUPLICATED"
        : failed > 0
        ? "FALSE-FAILURE"
        : "ONCE",
      needed: answers,
    };
  },

  async "same-key-other-arguments"(ctx) {
    if (
      ctx.tool.other_call === undefined || ctx.tool.other_count === undefined
    ) {
      return NOT_RUN("no-arguments");
    }
    const other = ctx.tool.other_count;
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = await send(ctx, args, { call: 1 }).answer;
    const n1 = await count(ctx);
    const o1 = await count(ctx, ctx.p, other);
    const firstVerdict = onceVerdict(n1, first);
    // The other count must not count the first arguments' effect, or the
    // two cannot be told apart.
    if (o1 !== null && o1 > 0) ctx.readFailed = true;
    if (firstVerdict !== "ONCE" || ctx.readFailed) {
      return {
        client_saw: [first.outcome],
        effect: n1,
        extra: { effect_other: o1 },
        verdict: firstVerdict,
        needed: [first],
      };
    }
    const second = await send(
      ctx,
      argsFor(ctx, ctx.tool.other_call).arguments,
      { call: 2 },
    ).answer;
    // `count` counts every effect under the key, `other_count` the other
    // arguments' among them: what is left is the first arguments'.
    const n = await count(ctx);
    const o = await count(ctx, ctx.p, other);
    const old = n === null || o === null ? null : n - o;
    if (old !== null && old < 0) ctx.readFailed = true;
    return {
      client_saw: [first.outcome, second.outcome],
      effect: n,
      extra: { effect_other: o, effect_old: old },
      verdict: otherVerdict(old ?? 0, o ?? 0, second),
      needed: [first, second],
    };
  },

  async "two-processes"(ctx) {
    if (ctx.options.start === undefined) return NOT_RUN("not-started");
    const copies = ctx.options.copies;
    const [a, b] = await Promise.all([
      startProcess(ctx, 1),
      startProcess(ctx, 2),
    ]);
    if (a === null || b === null) return STARTED_NOT;
    // Two agent sessions, each with a server of its own over one store:
    // the first half of the calls to process 1, the rest to process 2, all
    // sent at once.
    const calls = Array.from(
      { length: copies },
      (_, i) => argsFor(ctx, ctx.tool.call, i + 1),
    );
    const half = Math.ceil(copies / 2);
    const pending = calls.map((c, i) =>
      i < half
        ? send(ctx, c.arguments, { call: i + 1 }, a, 1)
        : send(ctx, c.arguments, { call: i + 1 }, b, 2)
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    // What the store kept is what a later session finds: both end (each
    // may write on its way out), and a third process reads every key.
    await closeProcess(ctx, a, 1);
    await closeProcess(ctx, b, 2);
    const c = await startProcess(ctx, 3);
    if (c === null) return STARTED_NOT;
    return await eachKept(ctx, calls, answers, c);
  },

  async "crash-after-commit"(ctx) {
    if (ctx.options.start === undefined) return NOT_RUN("not-started");
    const a = await startProcess(ctx, 1);
    if (a === null) return STARTED_NOT;
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = send(ctx, args, { call: 1, withhold: true }, a, 1);
    // The kill comes once the effect is committed as far as the read tool
    // can tell, or once the answer is in guardlab's hands: the answer is
    // withheld, the client never learns the outcome (Jepsen's
    // indeterminate operation).
    const seen = await readUntilSeen(ctx, a, first);
    ctx.session.note({
      lane: "guardlab",
      kind: "killed",
      call: null,
      process: 1,
    });
    await a.kill();
    const b = await startProcess(ctx, 2);
    if (b === null) {
      return { ...STARTED_NOT, extra: { effect_before_kill: seen } };
    }
    const { before, retry, n } = await lookThenRetry(ctx, args, b, 2);
    const lost = seen !== null && seen > 0 && before === 0;
    // The read counts 0 only once the answer is in. A success with nothing
    // under the key then, nor after the restart (nothing of the killed
    // process can land later), was a call answered success that left no
    // effect: what the retry made next proves no retry safe.
    const answeredNothing = seen === 0 && before === 0 &&
      (await first.answer).outcome === "success";
    return {
      client_saw: ["no-answer", retry.outcome],
      effect: n,
      extra: { effect_before_kill: seen, effect_before_retry: before },
      verdict: lost
        ? "LOST-ON-RESTART"
        : answeredNothing
        ? "NONE"
        : onceVerdict(n, retry),
      needed: [retry],
    };
  },
};

/**
 * N calls with distinct keys, judged: each key read through `on`, each
 * answer set beside its count (a success with nothing kept is lost, an
 * error with an effect a false failure, an error with nothing an honest
 * refusal).
 */
async function eachKept(
  ctx: Ctx,
  calls: readonly { key: string }[],
  answers: readonly Answer[],
  on: Session,
): Promise<Observed> {
  const counts: (number | null)[] = [];
  for (const [i, call] of calls.entries()) {
    counts.push(
      await count(
        ctx,
        { ...ctx.p, n: i + 1, key: call.key },
        ctx.tool.count,
        on,
      ),
    );
  }
  const per = answers.map((a, i) => ({ outcome: a.outcome, n: counts[i] }));
  return {
    client_saw: answers.map((a) => a.outcome),
    effect: counts.includes(null)
      ? null
      : counts.filter((n) => n !== null && n > 0).length,
    extra: { copies: calls.length, told_failed: toldFailed(per) },
    verdict: keptVerdict(per),
    needed: [...answers],
  };
}

/** The declared hints of the write tool, checked against the verdicts this run reached for it. */
export function annotations(ctx: Ctx): Observed {
  const listed = ctx.session.hints.get(ctx.tool.tool);
  // A tool guardlab did not see in tools/list (not listed, or the list
  // could not be read) has hints nobody knows: they promise nothing only
  // when they were read.
  if (listed === undefined) return NOT_RUN("not-listed");
  const hints = listed;
  const readHints = ctx.session.hints.get(ctx.tool.read.tool);
  const { found, checked } = contradictions(hints, ctx.earlier);
  const info: Verdict[] = readHints !== undefined &&
      readHints.readOnlyHint !== true
    ? ["READ-HINT-MISSING"]
    : [];
  const extra: Partial<CaseResult> = {
    hints,
    ...(readHints === undefined ? {} : { read_hints: readHints }),
    contradicted: found,
  };
  const verdict: Verdict = found.length > 0
    ? "ANNOTATION-CONTRADICTED"
    : checked
    ? "HINTS-HOLD"
    : promises(hints)
    ? "NOT-RUN"
    : "NOTHING-PROMISED";
  return {
    client_saw: [],
    effect: null,
    verdict,
    info,
    extra: verdict === "NOT-RUN"
      ? { ...extra, not_run: "nothing-to-check" }
      : extra,
    needed: [],
  };
}
