/**
 * What every case of the acceptance test does the same way: the case's
 * context, the client's call (its answer kept), the read by key, the read
 * a careful client makes before it retries, the servers a case starts of
 * its own and their bounded end.
 *
 * @module
 */
import type { Verdict } from "./cases.ts";
import type { Channel } from "./channel.ts";
import { POLL_READ_MS } from "./limits.ts";
import {
  callFor,
  type Count,
  countIn,
  type Json,
  type Placeholders,
  pointerGet,
  substitute,
  type WriteTool,
} from "./oracle.ts";
import type {
  AcceptOptions,
  AnswerSeen,
  CaseResult,
  NotRunReason,
} from "./_report.ts";
import { type Answer, type Outcome, type Pending, Session } from "./session.ts";
import { within } from "./_server_process.ts";

/** What a case observed, before the broken-server checks judge it. */
export interface Observed {
  client_saw: Outcome[];
  effect: number | null;
  verdict: Verdict;
  info?: Verdict[];
  extra?: Partial<CaseResult>;
  /** Answers the case waited for and needed. */
  needed: Answer[];
}

/** What every case needs: the session, the tool, the case's placeholders. */
export interface Ctx {
  readonly session: Session;
  readonly tool: WriteTool;
  readonly p: Placeholders & { key: string };
  readonly options: AcceptOptions;
  /** The rows already judged for this entry, for the annotations case. */
  readonly earlier: readonly CaseResult[];
  /** Latencies of this entry's first valid calls measured so far in the run. */
  readonly measured: number[];
  /** Every answer a client call of this case got, as it came. */
  readonly answers: AnswerSeen[];
  /** The sessions this case started, closed (bounded) when it ends. */
  readonly started: Session[];
  /** Whether a read in this case has seen the effect yet. */
  seen: boolean;
  /** Whether a read in this case failed, or two counts contradicted each other. */
  readFailed: boolean;
}

export const NOT_RUN = (
  reason: NotRunReason,
): Observed => ({
  client_saw: [],
  effect: null,
  verdict: "NOT-RUN",
  extra: { not_run: reason },
  needed: [],
});

/** A server the case started did not get through initialize: nothing can be said. */
export const STARTED_NOT: Observed = {
  client_saw: [],
  effect: null,
  verdict: "SERVER-EXITED",
  needed: [],
};

/** Ask the read tool by key (through `on`) and count the effect; `null` when it cannot be counted. */
export async function count(
  ctx: Ctx,
  p: Placeholders & { key: string } = ctx.p,
  how: Count = ctx.tool.count,
  on: Session = ctx.session,
  noted = true,
): Promise<number | null> {
  const n = await readCount(ctx, p, how, on);
  if (n === null) ctx.readFailed = true;
  if (noted) noteRead(ctx, on, n);
  return n;
}

/** One read by key through `on`, counted; `null` when it cannot be counted (nothing noted, nothing judged). */
async function readCount(
  ctx: Ctx,
  p: Placeholders & { key: string },
  how: Count,
  on: Session,
): Promise<number | null> {
  const read = substitute(ctx.tool.read, p);
  const answer = await on.own(read.tool, read.arguments, "read");
  return answer.outcome === "success" && answer.result
    ? countIn(how, answer.result, p)
    : null;
}

/** Put a read on the timeline; the first that sees the effect is marked. */
export function noteRead(
  ctx: Ctx,
  on: Session,
  n: number | null,
  polled = false,
) {
  const visible = n !== null && n > 0 && !ctx.seen;
  if (visible) ctx.seen = true;
  on.note({
    lane: "guardlab",
    kind: "read",
    call: null,
    count: n,
    ...(visible ? { visible } : {}),
    ...(polled ? { polled } : {}),
  });
}

/** The client sends a call on `on` (the case's session, or a process it started); its answer is kept. */
export function send(
  ctx: Ctx,
  args: Record<string, Json>,
  opts: { call: number; retry?: boolean; withhold?: boolean },
  on: Session = ctx.session,
  process?: number,
): Pending {
  const pending = on.call(ctx.tool.tool, args, opts);
  pending.answer.then((a) =>
    ctx.answers.push({
      call: opts.call,
      outcome: a.outcome,
      ...(a.text === undefined ? {} : { text: a.text }),
      ...(a.ms === undefined ? {} : { ms: a.ms }),
      ...(process === undefined ? {} : { process }),
    })
  );
  return pending;
}

/**
 * What a careful client does after it lost an answer: it reads by key
 * first, then sends the same call again as call 2; the effect is counted
 * once more after the retry's answer. The read comes first because a
 * retry decided without it is the blind resend the article warns of.
 */
export async function lookThenRetry(
  ctx: Ctx,
  args: Record<string, Json>,
  on: Session = ctx.session,
  process?: number,
): Promise<{ before: number | null; retry: Answer; n: number | null }> {
  const before = await count(ctx, ctx.p, ctx.tool.count, on);
  const retry = await send(ctx, args, { call: 2, retry: true }, on, process)
    .answer;
  return { before, retry, n: await count(ctx, ctx.p, ctx.tool.count, on) };
}

/** The call's arguments for copy `n`, keyed. */
export function argsFor(ctx: Ctx, args: WriteTool["call"], n = 1) {
  return callFor(ctx.tool, args, { ...ctx.p, n });
}

/** The key the bad call carries at the key pointer, when it carries one (a string or a number). */
export function badKey(ctx: Ctx): string | undefined {
  if (ctx.tool.bad_call === undefined) return undefined;
  const found = pointerGet(
    substitute(ctx.tool.bad_call, ctx.p),
    ctx.tool.key,
  );
  return found.found &&
      (typeof found.value === "string" || typeof found.value === "number")
    ? String(found.value)
    : undefined;
}

/** Keep the latency of a first valid call that was answered: cancel-after-send places its cancel from these. */
export function measure(ctx: Ctx, answer: Answer): void {
  if (
    answer.ms !== undefined &&
    (answer.outcome === "success" || answer.outcome === "tool-error" ||
      answer.outcome === "rpc-error")
  ) ctx.measured.push(answer.ms);
}

/** Open a session on a server this case starts (process `n`), on the case's timeline. */
export async function startProcess(
  ctx: Ctx,
  n: number,
): Promise<Session | null> {
  ctx.session.note({
    lane: "guardlab",
    kind: "started",
    call: null,
    process: n,
  });
  let channel: Channel | undefined;
  try {
    channel = await ctx.options.start!();
    const s = await Session.open(channel, ctx.options.timeoutMs, {
      process: n,
      startTimeoutMs: ctx.options.startTimeoutMs,
    });
    s.join(ctx.session.log);
    ctx.started.push(s);
    return s;
  } catch {
    // It could not be started, or did not get through initialize.
    await channel?.close();
    ctx.session.note({
      lane: "server",
      kind: "exited",
      call: null,
      process: n,
    });
    return null;
  }
}

/** Close process `n` of this case: its input ends, it gets a grace to exit, its group ends. */
export async function closeProcess(
  ctx: Ctx,
  s: Session,
  n: number,
): Promise<void> {
  ctx.session.note({
    lane: "guardlab",
    kind: "closed",
    call: null,
    process: n,
  });
  await s.close();
}

/**
 * Read by key through `on` until the effect shows or the call's answer is
 * in; each read waits for the one before, the whole wait is bounded by the
 * call's own bound. One step on the timeline: the last read.
 */
export async function readUntilSeen(
  ctx: Ctx,
  on: Session,
  call: Pending,
): Promise<number | null> {
  let answered = false;
  call.answer.then(() => (answered = true));
  for (;;) {
    if (answered) {
      // The answer is in: this read is the one that counts.
      const n = await count(ctx, ctx.p, ctx.tool.count, on, false);
      noteRead(ctx, on, n, true);
      return n;
    }
    // While the call is in flight a read may fail (a read tool that answers
    // an error for what does not exist yet): that is "not yet", not a fault.
    const n = await readCount(ctx, ctx.p, ctx.tool.count, on);
    if (n !== null && n > 0) {
      noteRead(ctx, on, n, true);
      return n;
    }
    await within(call.answer, POLL_READ_MS, undefined);
  }
}
