/**
 * The acceptance test itself: for each write tool the oracle names, each
 * case on fresh keys, then the read tool asked by key. Each case reads top
 * to bottom as its own timeline: what the client sends, what guardlab does
 * with the answer, when the read tool is asked. A verdict comes from the
 * effect counted by key, never from a wall-clock margin: a delay is only
 * ever a delay, and a case whose server broke gets a verdict that says so.
 *
 * @module
 */
import {
  type CaseName,
  CONCURRENT_CASES,
  type Verdict,
  VERDICT_CLASS,
  type VerdictClass,
} from "./cases.ts";
import type { Channel } from "./channel.ts";
import {
  callFor,
  type Count,
  countIn,
  type Oracle,
  type Placeholders,
  substitute,
  type WriteTool,
} from "./oracle.ts";
import {
  type Answer,
  InitializeFailed,
  type Outcome,
  type Problem,
  Session,
  type TimelineEvent,
} from "./session.ts";

/** How one run of the acceptance test is set up. */
export interface AcceptOptions {
  /** The oracle. */
  readonly oracle: Oracle;
  /** The cases to run, in order. */
  readonly cases: readonly CaseName[];
  /** N for the concurrent cases. */
  readonly copies: number;
  /** The bound of every wait for an answer. */
  readonly timeoutMs: number;
  /** How long after sending `cancel-after-send` cancels. */
  readonly cancelAfterMs: number;
  /** Only the write tool of this name, when given. */
  readonly tool?: string;
}

/** One row of the matrix: a case run against one write tool. */
export interface CaseResult {
  /** The case. */
  readonly case: CaseName;
  /** The write tool. */
  readonly tool: string;
  /** Which entry of the oracle's tools it is, from 1 (an oracle may name a tool twice, with other calls). */
  readonly entry: number;
  /** What the client saw from each of its calls, in order (a withheld answer is `no-answer`). */
  readonly client_saw: readonly Outcome[];
  /** The effect counted by key at the end (concurrent-distinct: how many keys were kept), or null when it could not be counted. */
  readonly effect: number | null;
  /** N, for the concurrent cases. */
  readonly copies?: number;
  /** The effect guardlab counted before the retry (the read a careful client makes first). */
  readonly effect_before_retry?: number | null;
  /** The effect of `other_call`'s arguments, for same-key-other-arguments. */
  readonly effect_other?: number | null;
  /** The verdict. */
  readonly verdict: Verdict;
  /** Its class. */
  readonly class: VerdictClass;
  /** Verdicts reported as information beside it. */
  readonly info: readonly Verdict[];
  /** What the server did wrong during the case. */
  readonly problems: readonly Problem[];
  /** The `{run}` of the case, and the key it used. */
  readonly run: string;
  /** The business key of the case's first call. */
  readonly key: string;
  /** The case's steps, lane by lane. */
  readonly timeline: readonly TimelineEvent[];
}

/** What a whole run found. */
export interface AcceptReport {
  /** The server's name and version, as it said at initialize. */
  readonly server: { readonly name: string; readonly version: string };
  /** What the server did wrong before the first case. */
  readonly startup_problems: readonly Problem[];
  /** The oracle's write tools the server did not list. */
  readonly unlisted: readonly string[];
  /** One row per case and tool. */
  readonly results: readonly CaseResult[];
  /** How many rows are unsafe. */
  readonly unsafe: number;
  /** How many rows are inconclusive. */
  readonly inconclusive: number;
}

/** What a case observed, before the broken-server checks judge it. */
interface Observed {
  client_saw: Outcome[];
  effect: number | null;
  verdict: Verdict;
  info?: Verdict[];
  copies?: number;
  effect_before_retry?: number | null;
  effect_other?: number | null;
  /** Answers the case waited for and needed. */
  needed: Answer[];
}

/** What every case needs: the session, the tool, the case's placeholders. */
interface Ctx {
  readonly session: Session;
  readonly tool: WriteTool;
  readonly p: Placeholders & { key: string };
  readonly options: AcceptOptions;
  /** Whether a read in this case has seen the effect yet. */
  seen: boolean;
  /** Whether a read in this case failed. */
  readFailed: boolean;
}

/**
 * Run the acceptance test over `channel` (a started server) and close it.
 * Throws {@linkcode InitializeFailed} when the server does not get through
 * initialize.
 */
export async function runAccept(
  channel: Channel,
  options: AcceptOptions,
): Promise<AcceptReport> {
  const session = await Session.open(channel, options.timeoutMs).catch(
    async (error) => {
      await channel.close();
      if (error instanceof InitializeFailed) {
        error.tail = channel.stderrTail().at(-1);
      }
      throw error;
    },
  );
  // What the server did wrong before the first case (a banner on stdout).
  const startup = [...session.problems];
  const results: CaseResult[] = [];
  const nonce = crypto.randomUUID().replaceAll("-", "").slice(0, 6);
  const tools = options.oracle.tools.filter((t) =>
    options.tool === undefined || t.tool === options.tool
  );
  try {
    let index = 0;
    for (const tool of tools) {
      const entry = options.oracle.tools.indexOf(tool) + 1;
      for (const name of options.cases) {
        index++;
        results.push(
          await runCase(
            session,
            tool,
            name,
            { run: `${nonce}${index}`, case: index, entry },
            options,
          ),
        );
      }
    }
  } finally {
    await session.close();
  }
  return {
    server: session.serverInfo,
    startup_problems: startup,
    unlisted: session.tools.length === 0
      ? []
      : tools.map((t) => t.tool).filter((t) => !session.tools.includes(t)),
    results,
    unsafe: results.filter((r) => r.class === "unsafe").length,
    inconclusive: results.filter((r) => r.class === "inconclusive").length,
  };
}

async function runCase(
  session: Session,
  tool: WriteTool,
  name: CaseName,
  { run, case: number, entry }: { run: string; case: number; entry: number },
  options: AcceptOptions,
): Promise<CaseResult> {
  session.beginCase();
  const { key } = callFor(tool, tool.call, { run, n: 1, case: number });
  const ctx: Ctx = {
    session,
    tool,
    p: { run, n: 1, key, case: number },
    options,
    seen: false,
    readFailed: false,
  };
  let observed: Observed;
  if (session.closedBy !== null) {
    observed = {
      client_saw: [],
      effect: null,
      verdict: "SERVER-EXITED",
      needed: [],
    };
  } else {
    const setupFailed = await setup(ctx);
    observed = setupFailed
      ? { client_saw: [], effect: null, verdict: "SETUP-FAILED", needed: [] }
      : await CASES[name](ctx);
  }
  const verdict = brokenVerdict(ctx, observed) ?? observed.verdict;
  return {
    case: name,
    tool: tool.tool,
    entry,
    client_saw: observed.client_saw,
    effect: observed.effect,
    ...(observed.copies === undefined ? {} : { copies: observed.copies }),
    ...("effect_before_retry" in observed
      ? { effect_before_retry: observed.effect_before_retry }
      : {}),
    ...("effect_other" in observed
      ? { effect_other: observed.effect_other }
      : {}),
    verdict,
    class: VERDICT_CLASS[verdict],
    info: verdict === observed.verdict ? observed.info ?? [] : [],
    problems: [...session.problems],
    run,
    key,
    timeline: [...session.events],
  };
}

/**
 * The verdict of a case whose server broke, checked in this order: it
 * broke the protocol; it exited; an answer the case needed never came; the
 * read tool failed. Otherwise the effect's verdict stands.
 */
function brokenVerdict(ctx: Ctx, o: Observed): Verdict | undefined {
  if (o.verdict === "SETUP-FAILED" || o.verdict === "SERVER-EXITED") {
    return undefined;
  }
  if (ctx.session.problems.length > 0) return "PROTOCOL-VIOLATION";
  if (
    ctx.session.closedBy !== null ||
    o.needed.some((a) => a.outcome === "closed")
  ) {
    return "SERVER-EXITED";
  }
  if (o.needed.some((a) => a.outcome === "no-answer")) return "NO-ANSWER";
  if (ctx.readFailed) return "READ-FAILED";
  return undefined;
}

async function setup(ctx: Ctx): Promise<boolean> {
  for (const step of ctx.tool.setup ?? []) {
    const call = substitute(step, ctx.p);
    const answer = await ctx.session.own(call.tool, call.arguments, "setup");
    if (answer.outcome !== "success") return true;
  }
  return false;
}

/** Ask the read tool by key and count the effect; `null` when it cannot be counted. */
async function count(
  ctx: Ctx,
  p: Placeholders & { key: string } = ctx.p,
  how: Count = ctx.tool.count,
): Promise<number | null> {
  const read = substitute(ctx.tool.read, p);
  const answer = await ctx.session.own(read.tool, read.arguments, "read");
  const n = answer.outcome === "success" && answer.result
    ? countIn(how, answer.result, p)
    : null;
  if (n === null) ctx.readFailed = true;
  const visible = n !== null && n > 0 && !ctx.seen;
  if (visible) ctx.seen = true;
  ctx.session.note({
    lane: "guardlab",
    kind: "read",
    call: null,
    count: n,
    ...(visible ? { visible } : {}),
  });
  return n;
}

/**
 * What a careful client does after it lost an answer: it reads by key
 * first, then sends the same call again as call 2; the effect is counted
 * once more after the retry's answer. The read comes first because a
 * retry decided without it is the blind resend the article warns of.
 */
async function lookThenRetry(
  ctx: Ctx,
  args: ReturnType<typeof argsFor>["arguments"],
): Promise<{ before: number | null; retry: Answer; n: number | null }> {
  const before = await count(ctx);
  const retry = await ctx.session.call(ctx.tool.tool, args, {
    call: 2,
    retry: true,
  }).answer;
  return { before, retry, n: await count(ctx) };
}

/** The call's arguments for copy `n`, keyed. */
function argsFor(ctx: Ctx, args: WriteTool["call"], n = 1) {
  return callFor(ctx.tool, args, { ...ctx.p, n });
}

/** The verdict for "the call should have had exactly one effect". */
function onceVerdict(n: number | null, last: Answer): Verdict {
  if (n === null || n === 0) return "NONE";
  if (n >= 2) return "DUPLICATED";
  return last.outcome === "success" ? "ONCE" : "FALSE-FAILURE";
}

/** Each case, as the client, guardlab and the read tool act in it. */
const CASES: Readonly<Record<CaseName, (ctx: Ctx) => Promise<Observed>>> = {
  async once(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const answer = await ctx.session.call(ctx.tool.tool, args, { call: 1 })
      .answer;
    const n = await count(ctx);
    return {
      client_saw: [answer.outcome],
      effect: n,
      verdict: onceVerdict(n, answer),
      needed: [answer],
    };
  },

  async rejected(ctx) {
    if (ctx.tool.bad_call === undefined) {
      return { client_saw: [], effect: null, verdict: "NOT-RUN", needed: [] };
    }
    const { arguments: args } = argsFor(ctx, ctx.tool.bad_call);
    const answer = await ctx.session.call(ctx.tool.tool, args, { call: 1 })
      .answer;
    const n = await count(ctx);
    return {
      client_saw: [answer.outcome],
      effect: n,
      verdict: n === 0 ? "NO-EFFECT" : "EFFECT-DESPITE-REJECTION",
      needed: [answer],
    };
  },

  async "lost-reply-retry"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    // The server answers; guardlab keeps the answer from the client, as a
    // remote timeout after the send would.
    const first = await ctx.session.call(ctx.tool.tool, args, {
      call: 1,
      withhold: true,
    }).answer;
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
      effect_before_retry: before,
      verdict: onceVerdict(n, retry),
      needed: [first, retry],
    };
  },

  async "cancel-after-send"(ctx) {
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = ctx.session.call(ctx.tool.tool, args, {
      call: 1,
      withhold: true,
    });
    // A delay fault is a delay: what it changes is only where the cancel
    // falls; the verdict is judged on the effect counted afterwards.
    await delay(ctx.options.cancelAfterMs);
    ctx.session.cancel(first);
    const { before, retry, n } = await lookThenRetry(ctx, args);
    return {
      client_saw: ["no-answer", retry.outcome],
      effect: n,
      effect_before_retry: before,
      verdict: onceVerdict(n, retry),
      info: before !== null && before > 0 ? ["EFFECT-DESPITE-CANCEL"] : [],
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
      ctx.session.call(ctx.tool.tool, c.arguments, { call: i + 1 })
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    const counts: (number | null)[] = [];
    for (const [i, c] of calls.entries()) {
      counts.push(await count(ctx, { ...ctx.p, n: i + 1, key: c.key }));
    }
    const kept = counts.filter((n) => n !== null && n > 0).length;
    return {
      client_saw: answers.map((a) => a.outcome),
      effect: counts.includes(null) ? null : kept,
      copies,
      verdict: counts.some((n) => n !== null && n > 1)
        ? "DUPLICATED"
        : kept === copies
        ? "ALL-KEPT"
        : "LOST",
      needed: answers,
    };
  },

  async "concurrent-same"(ctx) {
    const copies = ctx.options.copies;
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const pending = Array.from(
      { length: copies },
      (_, i) => ctx.session.call(ctx.tool.tool, args, { call: i + 1 }),
    );
    const answers = await Promise.all(pending.map((p) => p.answer));
    const n = await count(ctx);
    return {
      client_saw: answers.map((a) => a.outcome),
      effect: n,
      copies,
      verdict: n === null || n === 0 ? "NONE" : n > 1 ? "DUPLICATED" : "ONCE",
      needed: answers,
    };
  },

  async "same-key-other-arguments"(ctx) {
    if (
      ctx.tool.other_call === undefined || ctx.tool.other_count === undefined
    ) {
      return { client_saw: [], effect: null, verdict: "NOT-RUN", needed: [] };
    }
    const { arguments: args } = argsFor(ctx, ctx.tool.call);
    const first = await ctx.session.call(ctx.tool.tool, args, { call: 1 })
      .answer;
    const other = argsFor(ctx, ctx.tool.other_call);
    const second = await ctx.session.call(ctx.tool.tool, other.arguments, {
      call: 2,
    }).answer;
    const n = await count(ctx);
    const n2 = await count(ctx, ctx.p, ctx.tool.other_count);
    return {
      client_saw: [first.outcome, second.outcome],
      effect: n,
      effect_other: n2,
      verdict: n2 !== null && n2 > 0
        ? "OVERWRITTEN"
        : second.outcome === "success"
        ? "SILENT-CONFLICT"
        : "CONFLICT-REPORTED",
      needed: [first, second],
    };
  },
};

/** Resolve after `ms` milliseconds. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether `name` runs N copies. */
export function isConcurrent(name: CaseName): boolean {
  return CONCURRENT_CASES.includes(name);
}
