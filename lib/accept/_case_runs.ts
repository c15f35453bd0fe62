/**
 * Each case of the acceptance test, as the client, guardlab and the read
 * tool act in it, top to bottom: what the client sends, what guardlab does
 * with the answer, when the read tool is asked. A case only acts and
 * records (its history, its timeline): the verdict is the checker's, from
 * the history alone (`checker.ts`).
 *
 * @module
 */
import type { CaseName } from "./cases.ts";
import { within } from "../wire/server_process.ts";
import type { Answer } from "./session.ts";
import {
  argsFor,
  badKey,
  cancelPlan,
  closeProcess,
  count,
  type Ctx,
  killProcess,
  lookThenRetry,
  measure,
  readUntilSeen,
  send,
  skip,
  startProcess,
} from "./_steps.ts";

/** Each case (but annotations, which makes no call), as the client, guardlab and the read tool act in it. */
export const CASES: Readonly<
  Record<Exclude<CaseName, "annotations">, (ctx: Ctx) => Promise<void>>
> = {
  async once(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    measure(ctx, await send(ctx, args, { call: 1 }).answer);
    await count(ctx);
  },

  async rejected(ctx) {
    if (ctx.tool.bad_call === undefined) return skip(ctx, "no-arguments");
    const { arguments: args } = argsFor(ctx, ctx.tool.bad_call);
    await send(ctx, args, { call: 1 }).answer;
    // Counted under the key the bad call itself carries: a bad call with a
    // key of its own leaves its effect there, not under call's.
    await count(ctx, { key: badKey(ctx) });
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
    await lookThenRetry(ctx, args);
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
    ctx.session.record({
      op: "fault",
      fault: "cancel",
      call: 1,
      sent,
      ...plan,
    });
    if (sent) ctx.session.cancel(first);
    else {
      ctx.session.note({ lane: "guardlab", kind: "too-late", call: 1 });
    }
    await lookThenRetry(ctx, args);
  },

  async "concurrent-distinct"(ctx) {
    const calls = Array.from(
      { length: ctx.options.copies },
      (_, i) => argsFor(ctx, ctx.tool.call, i + 1),
    );
    const pending = calls.map((c, i) =>
      send(ctx, c.arguments, { call: i + 1 })
    );
    await Promise.all(pending.map((p) => p.answer));
    await readEach(ctx, calls);
  },

  async "concurrent-same"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const pending = Array.from(
      { length: ctx.options.copies },
      (_, i) => send(ctx, args, { call: i + 1 }),
    );
    await Promise.all(pending.map((p) => p.answer));
    await count(ctx);
  },

  async "same-key-other-arguments"(ctx) {
    if (
      ctx.tool.other_call === undefined || ctx.tool.other_count === undefined
    ) {
      return skip(ctx, "no-arguments");
    }
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = await send(ctx, args, { call: 1 }).answer;
    const n1 = await count(ctx);
    const o1 = await count(ctx, { other: true });
    // The other arguments test something only after one clean first
    // effect: answered success, counted once, and not counted by the
    // other count (else the two cannot be told apart).
    if (first.outcome !== "success" || n1 !== 1 || o1 !== 0) return;
    await send(ctx, argsFor(ctx, ctx.tool.other_call).arguments, { call: 2 })
      .answer;
    await count(ctx);
    await count(ctx, { other: true });
  },

  async "two-processes"(ctx) {
    if (ctx.options.start === undefined) return skip(ctx, "not-started");
    const copies = ctx.options.copies;
    const [a, b] = await Promise.all([
      startProcess(ctx, 1),
      startProcess(ctx, 2),
    ]);
    if (a === null || b === null) return;
    // Two agent sessions, each with a server of its own over one store:
    // the first half of the calls to process 1, the rest to process 2, all
    // sent at once.
    const calls = Array.from(
      { length: copies },
      (_, i) => argsFor(ctx, ctx.tool.call, i + 1),
    );
    const half = Math.ceil(copies / 2);
    const pending = calls.map((c, i) =>
      send(ctx, c.arguments, { call: i + 1 }, i < half ? a : b)
    );
    await Promise.all(pending.map((p) => p.answer));
    // What the store kept is what a later session finds: both end (each
    // may write on its way out), and a third process reads every key.
    await closeProcess(ctx, a, 1);
    await closeProcess(ctx, b, 2);
    const c = await startProcess(ctx, 3);
    if (c === null) return;
    await readEach(ctx, calls, c);
  },

  async "crash-after-commit"(ctx) {
    if (ctx.options.start === undefined) return skip(ctx, "not-started");
    const a = await startProcess(ctx, 1);
    if (a === null) return;
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = send(ctx, args, { call: 1, withhold: true }, a);
    // The kill comes once the effect is committed as far as the read tool
    // can tell, or once the answer is in guardlab's hands: the answer is
    // withheld, the client never learns the outcome (Jepsen's
    // indeterminate operation).
    await readUntilSeen(ctx, a, first);
    await killProcess(ctx, a, 1);
    const b = await startProcess(ctx, 2);
    if (b === null) return;
    await lookThenRetry(ctx, args, b);
  },
};

/** Each call's key read through `on`, one read per call, in call order. */
async function readEach(
  ctx: Ctx,
  calls: readonly { key: string }[],
  on = ctx.session,
): Promise<void> {
  for (const [i, call] of calls.entries()) {
    await count(ctx, { key: call.key, n: i + 1, on });
  }
}
