/**
 * Each case of the acceptance test, as the client, guardlab and the read
 * tool act in it, top to bottom: what the client sends, what guardlab does
 * with the answer, when the read tool is asked; then, below, what every
 * case does the same way (the client's call, the read by key, the read a
 * careful client makes before it retries, the servers a case starts of its
 * own and their bounded end). A case only acts and records (its history,
 * its timeline): the verdict is the checker's, from the history alone
 * (`_checker.ts`).
 *
 * @module
 */
import type { CaseName } from "./cases.ts";
import type { Channel } from "../wire/channel.ts";
import { within } from "../wire/server_process.ts";
import { createHash } from "node:crypto";
import { canonicalJson } from "../base/json.ts";
import {
  DEFAULT_CANCEL_AFTER_MS,
  MAX_LIFETIME_WAIT_MS,
  MAX_RECORDED_MESSAGE_BYTES,
  POLL_READ_MS,
} from "./limits.ts";
import {
  callFor,
  type ConflictMark,
  type Count,
  countIn,
  type Json,
  keyOf,
  keyParams,
  type Placeholders,
  pointerGet,
  substitute,
  type WriteTool,
} from "./oracle.ts";
import {
  type CallRecord,
  isConflictAnswer,
  type NotRunReason as Reason,
} from "./_history.ts";
import type { AcceptOptions, CancelPlan, NotRunReason } from "./_report.ts";
import { type Answer, type Pending, Session } from "./session.ts";
import type { RecordInProgress } from "./_case_log.ts";

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
      send(ctx, c.arguments, { call: i + 1, n: i + 1 })
    );
    await Promise.all(pending.map((p) => p.answer));
    await readEach(ctx, calls);
  },

  async "concurrent-same"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const copies = ctx.options.copies;
    const pending = Array.from(
      { length: copies },
      (_, i) => send(ctx, args, { call: i + 1 }),
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    // A client that follows the draft sends a copy refused with the
    // conflict the oracle declares retryable again, once every copy has
    // its answer: the retry should get the stored result.
    const mark = ctx.tool.conflict;
    if (
      answers.some((a) => isConflictAnswer(mark, answerRecord(a, 0, mark)))
    ) {
      await send(ctx, args, { call: copies + 1, retry: true }).answer;
    }
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

  async "replay-after-completion"(ctx) {
    // The client gets the first answer, then sends the same call again.
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    measure(ctx, await send(ctx, args, { call: 1 }).answer);
    await lookThenRetry(ctx, args);
  },

  async "replay-error"(ctx) {
    if (ctx.tool.error_call === undefined) return skip(ctx, "no-arguments");
    // A call the server answers with an error after its write, then the
    // same call again: the stored error should come back, and run nothing.
    const { arguments: args } = argsFor(ctx, ctx.tool.error_call);
    await send(ctx, args, { call: 1 }).answer;
    await lookThenRetry(ctx, args);
  },

  async "missing-key"(ctx) {
    const why = keylessSkip(ctx.tool);
    if (why !== undefined) return skip(ctx, why);
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    await send(ctx, args, { call: 1, keyless: true }).answer;
    await count(ctx);
  },

  async "key-lifetime"(ctx) {
    const lifetime = ctx.tool.key_lifetime_ms;
    if (lifetime === undefined) return skip(ctx, "no-lifetime");
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    await send(ctx, args, { call: 1 }).answer;
    // Well inside the stated lifetime: half of it, at most a minute. The
    // wait is the case's point, never a verdict's margin.
    const ms = Math.min(Math.floor(lifetime / 2), MAX_LIFETIME_WAIT_MS);
    ctx.session.record({ op: "fault", fault: "wait", ms });
    ctx.session.note({ lane: "guardlab", kind: "waited", call: null, ms });
    await new Promise((resolve) => setTimeout(resolve, ms));
    await lookThenRetry(ctx, args);
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
      send(ctx, c.arguments, { call: i + 1, n: i + 1 }, i < half ? a : b)
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

/**
 * Why a call cannot be tested without its key: the key is an argument
 * (that call is the rejected case's bad call), or the read counts by the
 * key itself (an effect stored under no key would not be seen); else
 * undefined.
 */
export function keylessSkip(tool: WriteTool): Reason | undefined {
  if ((tool.key_in ?? "arguments") === "arguments") return "key-is-argument";
  const uses = JSON.stringify([tool.read, tool.count]).includes("{key}");
  return uses ? "read-needs-key" : undefined;
}

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

/** What every case needs: the session, the tool, the case's placeholders. */
export interface Ctx {
  readonly session: Session;
  readonly tool: WriteTool;
  readonly p: Placeholders & { key: string };
  readonly options: AcceptOptions;
  /** Latencies of this entry's first valid calls measured so far in the run. */
  readonly measured: number[];
  /** The sessions this case started, closed (bounded) when it ends. */
  readonly started: Session[];
  /** Whether a read in this case has seen the effect yet (the timeline marks the first). */
  seen: boolean;
}

/** The case tests nothing: say why in its history, and do nothing more. */
export function skip(ctx: Ctx, reason: NotRunReason): void {
  ctx.session.record({ op: "skip", reason });
}

/** How a read counts: with the oracle's `count`, or its `other_count`. */
export interface ReadOptions {
  /** The key to count under (the case's by default). */
  readonly key?: string;
  /** The copy number `{n}` stands for in the read's arguments (1 by default). */
  readonly n?: number;
  /** Count with `other_count` (the other arguments' effect). */
  readonly other?: boolean;
  /** The session to ask (the case's by default, or a process it started). */
  readonly on?: Session;
}

/** Ask the read tool by key and count the effect, put on the history and the timeline; `null` when it cannot be counted. */
export async function count(
  ctx: Ctx,
  how: ReadOptions = {},
  polled = false,
): Promise<number | null> {
  const on = how.on ?? ctx.session;
  const key = how.key ?? ctx.p.key;
  const at = on.log.now();
  const n = await readCount(
    ctx,
    { key, n: how.n ?? 1 },
    how.other === true,
    on,
  );
  on.record({
    op: "read",
    at_ms: at,
    tool: ctx.tool.read.tool,
    key,
    count: n,
    ...(how.other ? { other: true } : {}),
  });
  noteRead(ctx, on, n, polled);
  return n;
}

/** One read by key through `on`, counted; `null` when it cannot be counted. */
async function readCount(
  ctx: Ctx,
  at: { key: string; n: number },
  other: boolean,
  on: Session,
): Promise<number | null> {
  const p = { ...ctx.p, ...at };
  const how: Count = other ? ctx.tool.other_count! : ctx.tool.count;
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

/**
 * The client sends a call on `on` (the case's session, or a process it
 * started), on the history: with `withhold`, guardlab keeps the answer
 * from the client (a fault, recorded as one).
 */
export function send(
  ctx: Ctx,
  args: Record<string, Json>,
  opts: {
    call: number;
    retry?: boolean;
    withhold?: boolean;
    /** The copy whose key goes beside the arguments (1 by default). */
    n?: number;
    /** Leave the key out (the missing-key case). */
    keyless?: boolean;
  },
  on: Session = ctx.session,
): Pending {
  if (opts.withhold) {
    on.record({ op: "fault", fault: "withhold", call: opts.call });
  }
  const p = { ...ctx.p, n: opts.n ?? 1 };
  const params = keyParams(ctx.tool, p, opts.keyless);
  const inArguments = (ctx.tool.key_in ?? "arguments") === "arguments";
  const found = inArguments ? pointerGet(args, ctx.tool.key) : undefined;
  const key = found === undefined ? keyOf(ctx.tool, p) : found.found &&
      (typeof found.value === "string" || typeof found.value === "number")
    ? String(found.value)
    : undefined;
  const size = new TextEncoder().encode(JSON.stringify(args)).length;
  const record = on.record({
    op: "call",
    call: opts.call,
    tool: ctx.tool.tool,
    ...(size > MAX_RECORDED_MESSAGE_BYTES
      ? { arguments_bytes: size }
      : { arguments: structuredClone(args) }),
    key: key ?? null,
    ...(opts.retry ? { retry: true } : {}),
    ...(opts.keyless ? { keyless: true } : {}),
    ...(params._meta === undefined ? {} : { meta: params._meta }),
  }) as Extract<RecordInProgress, { op: "call" }>;
  const pending = on.call(ctx.tool.tool, args, { ...opts, params });
  pending.answer.then((a) => {
    (record as { answer?: CallRecord["answer"] }).answer = answerRecord(
      a,
      on.log.now(),
      ctx.tool.conflict,
    );
  });
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
): Promise<void> {
  await count(ctx, { on });
  await send(ctx, args, { call: 2, retry: true }, on).answer;
  await count(ctx, { on });
}

/** The call's arguments for copy `n`, keyed. */
export function argsFor(ctx: Ctx, args: WriteTool["call"], n = 1) {
  return callFor(ctx.tool, args, { ...ctx.p, n });
}

/** The key the bad call carries at the key pointer, when it carries one (a string or a number): its effect is counted there. */
export function badKey(ctx: Ctx): string | undefined {
  if (ctx.tool.bad_call === undefined) return undefined;
  // A key beside the arguments: the bad call carries the case's.
  if ((ctx.tool.key_in ?? "arguments") !== "arguments") return ctx.p.key;
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
  ctx.session.record({ op: "process", event: "start", process: n });
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
    ctx.session.record({ op: "process", event: "start-failed", process: n });
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
  ctx.session.record({ op: "process", event: "close", process: n });
  ctx.session.note({
    lane: "guardlab",
    kind: "closed",
    call: null,
    process: n,
  });
  await s.close();
}

/** Kill process `n` of this case at once (SIGKILL to its group), as a crash would: a fault. */
export async function killProcess(
  ctx: Ctx,
  s: Session,
  n: number,
): Promise<void> {
  ctx.session.record({ op: "fault", fault: "kill", process: n });
  ctx.session.note({
    lane: "guardlab",
    kind: "killed",
    call: null,
    process: n,
  });
  await s.kill();
}

/**
 * Read by key through `on` until the effect shows or the call's answer is
 * in; each read waits for the one before, the whole wait is bounded by the
 * call's own bound. Each read is on the history (those made while the call
 * was in flight marked so: one that cannot count then means "not yet");
 * one step on the timeline: the last read.
 */
export async function readUntilSeen(
  ctx: Ctx,
  on: Session,
  call: Pending,
): Promise<void> {
  let answered = false;
  call.answer.then(() => (answered = true));
  for (;;) {
    // The answer is in: this read is the one that counts.
    if (answered) return void await count(ctx, { on }, true);
    const at = on.log.now();
    const n = await readCount(ctx, { key: ctx.p.key, n: 1 }, false, on);
    on.record({
      op: "read",
      at_ms: at,
      tool: ctx.tool.read.tool,
      key: ctx.p.key,
      count: n,
      in_flight: true,
    });
    if (n !== null && n > 0) return noteRead(ctx, on, n, true);
    await within(call.answer, POLL_READ_MS, undefined);
  }
}

/** Where cancel-after-send places its cancel: the flag; else half the median measured; else the default. */
export function cancelPlan(
  flag: number | undefined,
  measured: readonly number[],
): Omit<CancelPlan, "sent"> {
  if (flag !== undefined) return { after_ms: flag, from: "flag" };
  if (measured.length === 0) {
    return { after_ms: DEFAULT_CANCEL_AFTER_MS, from: "default" };
  }
  const sorted = [...measured].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
  return {
    after_ms: Math.floor(median / 2),
    from: "measured",
    median_ms: Math.round(median * 10) / 10,
  };
}

/**
 * An answer as a history keeps it: how it ended, what it said, when it
 * came (`at`); an HTTP status, a JSON-RPC code, the answer's digest, and
 * the value at the `conflict` mark's pointer when it declares one.
 */
export function answerRecord(
  a: Answer,
  at?: number,
  conflict?: ConflictMark,
): CallRecord["answer"] {
  const when = {
    ...(at === undefined ? {} : { at_ms: at }),
    ...(a.ms === undefined ? {} : { ms: a.ms }),
  };
  const doc = a.error ?? a.result;
  const seen = {
    ...(a.text === undefined ? {} : { text: a.text }),
    ...(a.status === undefined ? {} : { status: a.status }),
    ...(a.code === undefined ? {} : { code: a.code }),
    ...(doc === undefined ? {} : { digest: digestOf(doc) }),
    ...(conflict !== undefined && "json" in conflict && doc !== undefined
      ? pointedAt(doc, conflict.json)
      : {}),
  };
  switch (a.outcome) {
    case "success":
      return { outcome: "ok", ...seen, ...when };
    case "tool-error":
    case "rpc-error":
    case "http-error":
      return {
        outcome: "error",
        error: a.outcome === "tool-error"
          ? "tool"
          : a.outcome === "rpc-error"
          ? "rpc"
          : "http",
        ...seen,
        ...when,
      };
    case "closed":
      return { outcome: "unknown", ...when };
    default:
      return {
        outcome: "none",
        ...(a.text === undefined ? {} : { text: a.text }),
        ...(a.refused === undefined ? {} : { refused: a.refused }),
        ...when,
      };
  }
}

/** An answer's digest: SHA-256 of its canonical JSON (`sha256:` and hex); a value that cannot be put so, none. */
function digestOf(value: unknown): string {
  let text: string;
  try {
    text = canonicalJson(value);
  } catch {
    text = "";
  }
  return "sha256:" + createHash("sha256").update(text).digest("hex");
}

/** The scalar at `pointer` in an answer, as `pointed`; nothing when there is none. */
function pointedAt(
  doc: unknown,
  pointer: string,
): { pointed?: string | number | boolean | null } {
  const found = pointerGet(doc, pointer);
  if (!found.found) return {};
  const v = found.value;
  return v === null || typeof v === "number" || typeof v === "boolean" ||
      (typeof v === "string" && v.length <= 200)
    ? { pointed: v }
    : {};
}
