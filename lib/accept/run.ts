/**
 * The acceptance test itself: for each write tool the oracle names, each
 * case on fresh keys, then the read tool asked by key. Each case reads top
 * to bottom as its own timeline: what the client sends, what guardlab does
 * with the answer, when the read tool is asked. A verdict comes from the
 * effect counted by key and the answers the client got, never from a
 * wall-clock margin: a delay is only ever a delay, and a case whose server
 * broke gets a verdict that says so. A verdict is never more confident
 * than what guardlab saw.
 *
 * @module
 */
import {
  type CaseName,
  CONCURRENT_CASES,
  type Verdict,
  VERDICT_CLASS,
} from "./cases.ts";
import type { Channel } from "./channel.ts";
import { callFor, substitute, type WriteTool } from "./oracle.ts";
import type { AcceptOptions, AcceptReport, CaseResult } from "./_report.ts";
import { InitializeFailed, Session, type ToolHints } from "./session.ts";
import { annotations, CASES } from "./_case_runs.ts";
import { badKey, type Ctx, type Observed } from "./_steps.ts";

export type {
  AcceptOptions,
  AcceptReport,
  AnswerSeen,
  CancelPlan,
  CaseResult,
  NotRunReason,
} from "./_report.ts";

/**
 * Run the acceptance test over `channel` (a started server) and close it.
 * Throws {@linkcode InitializeFailed} when the server does not get through
 * initialize.
 */
export async function runAccept(
  channel: Channel,
  options: AcceptOptions,
): Promise<AcceptReport> {
  const session = await Session.open(channel, options.timeoutMs, {
    startTimeoutMs: options.startTimeoutMs,
  }).catch(
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
      const measured: number[] = [];
      const rows: CaseResult[] = [];
      for (const name of options.cases) {
        index++;
        rows.push(
          await runCase(session, tool, name, {
            run: `${nonce}${index}`,
            case: index,
            entry,
            earlier: rows,
            measured,
          }, options),
        );
      }
      results.push(...rows);
    }
  } finally {
    await session.close();
  }
  const hints: Record<string, ToolHints> = {};
  for (const t of tools) {
    for (const name of [t.tool, t.read.tool]) {
      const h = session.hints.get(name);
      if (h !== undefined) hints[name] = h;
    }
  }
  return {
    server: session.serverInfo,
    startup_problems: startup,
    // Said only of a list read to its end: of one that could not be, it is
    // not known what the server lists.
    unlisted: session.tools.length === 0 || session.listFailed !== undefined
      ? []
      : tools.map((t) => t.tool).filter((t) => !session.tools.includes(t)),
    ...(session.listFailed === undefined
      ? {}
      : { list_failed: session.listFailed }),
    hints,
    results,
    unsafe: results.filter((r) => r.class === "unsafe").length,
    inconclusive: results.filter((r) => r.class === "inconclusive").length,
  };
}

async function runCase(
  session: Session,
  tool: WriteTool,
  name: CaseName,
  { run, case: number, entry, earlier, measured }: {
    run: string;
    case: number;
    entry: number;
    earlier: readonly CaseResult[];
    measured: number[];
  },
  options: AcceptOptions,
): Promise<CaseResult> {
  session.beginCase();
  const { key } = callFor(tool, tool.call, { run, n: 1, case: number });
  const ctx: Ctx = {
    session,
    tool,
    p: { run, n: 1, key, case: number },
    options,
    earlier,
    measured,
    answers: [],
    started: [],
    seen: false,
    readFailed: false,
  };
  let observed: Observed;
  if (name === "annotations") {
    // Judged on what the run saw: no call, no server state.
    observed = annotations(ctx);
  } else if (session.closedBy !== null) {
    observed = {
      client_saw: [],
      effect: null,
      verdict: "SERVER-EXITED",
      needed: [],
    };
  } else {
    const setupFailed = await setup(ctx);
    try {
      observed = setupFailed
        ? { client_saw: [], effect: null, verdict: "SETUP-FAILED", needed: [] }
        : await CASES[name](ctx);
    } finally {
      // Whatever the case started ends with it, each end bounded.
      for (const s of ctx.started) await s.close();
    }
  }
  const verdict = brokenVerdict(ctx, observed) ?? observed.verdict;
  return {
    case: name,
    tool: tool.tool,
    entry,
    client_saw: observed.client_saw,
    answers: [...ctx.answers].sort((a, b) => a.call - b.call),
    effect: observed.effect,
    ...observed.extra,
    verdict,
    class: VERDICT_CLASS[verdict],
    info: verdict === observed.verdict ? observed.info ?? [] : [],
    problems: [...session.log.problems],
    notices: [...session.log.notices],
    run,
    key: observed.extra?.counted_under === "bad_call"
      ? badKey(ctx) ?? key
      : key,
    timeline: [...session.log.events],
  };
}

/**
 * The verdict of a case whose server broke, checked in this order: it
 * broke the protocol; it exited (or a server the case started could not
 * be started); an answer the case needed never came; the read tool failed.
 * Otherwise the effect's verdict stands.
 */
function brokenVerdict(ctx: Ctx, o: Observed): Verdict | undefined {
  if (
    o.verdict === "SETUP-FAILED" || o.verdict === "SERVER-EXITED" ||
    o.verdict === "NOT-RUN"
  ) {
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

/** Whether `name` runs N copies. */
export function isConcurrent(name: CaseName): boolean {
  return CONCURRENT_CASES.includes(name);
}
