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
import { type CaseName, CONCURRENT_CASES } from "./cases.ts";
import type { Channel } from "../wire/channel.ts";
import {
  callFor,
  declaresContract,
  keyOf,
  pointerGet,
  type ReadResult,
  resultDoc,
  substitute,
  type WriteTool,
} from "./oracle.ts";
import type { AcceptOptions, AcceptReport, CaseResult } from "./_report.ts";
import { InitializeFailed, Session, type ToolHints } from "./session.ts";
import { judgeCase, judgedRow } from "./_checker.ts";
import {
  answerRecord,
  badKey,
  CASES,
  type Ctx,
  readFresh,
} from "./_case_runs.ts";

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

/**
 * One case: driven (the client's calls, guardlab's faults and reads, each
 * recorded on the case's history), then judged by the checker from that
 * history alone, and set in its row.
 */
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
  const { key: planned } = callFor(tool, tool.call, {
    run,
    n: 1,
    case: number,
  });
  let key = planned;
  let ctx: Ctx = {
    session,
    tool,
    p: { run, n: 1, key: planned, case: number },
    options,
    measured,
    started: [],
    seen: false,
  };
  if (session.closedBy !== null) {
    session.record({ op: "process", event: "gone" });
  }
  // What the oracle declares of the contract goes on the history: the
  // checker judges a history without its oracle.
  if (declaresContract(tool)) {
    session.record({
      op: "contract",
      key_in: tool.key_in ?? "arguments",
      ...(tool.conflict === undefined ? {} : { conflict: tool.conflict }),
      ...(tool.key_lifetime_ms === undefined
        ? {}
        : { lifetime_ms: tool.key_lifetime_ms }),
    });
  }
  if (name === "annotations") {
    // Judged on what the run saw: no call, no server state.
    listHints(ctx);
  } else if (session.closedBy === null) {
    // The setup's captures fill `{setup.NAME}` in every later string, the
    // key's own included.
    const ready = await setup(ctx);
    if (ready !== null) {
      ctx = ready;
      key = ctx.p.key;
      await driveCase(ctx, name, key);
    }
  }
  const history = session.log.history();
  const judged = judgeCase(name, history, earlier);
  return judgedRow({ case: name, tool: tool.tool, entry }, judged, {
    notices: [...session.log.notices],
    run,
    key: judged.extra.counted_under === "bad_call" ? badKey(ctx) ?? key : key,
    timeline: [...session.log.events],
    history,
  });
}

/** The write and read tools' declared hints, as tools/list gave them, on the annotations case's history. */
function listHints(ctx: Ctx): void {
  const roles = [["write", ctx.tool.tool], ["read", ctx.tool.read.tool]];
  for (const [role, tool] of roles as ["write" | "read", string][]) {
    const hints = ctx.session.hints.get(tool);
    if (hints !== undefined) {
      ctx.session.record({ op: "listed", role, tool, hints: { ...hints } });
    }
  }
}

/** Drive case `name` on `ctx`, whose key is `key`: the fresh read, then its calls. */
async function driveCase(
  ctx: Ctx,
  name: Exclude<CaseName, "annotations">,
  key: string,
) {
  const tool = ctx.tool;
  try {
    // The count is proved before it is trusted: the key the case counts
    // first, read before any call, counts 0 (a case with no bad_call
    // makes no call).
    if (name !== "rejected" || tool.bad_call !== undefined) {
      await readFresh(ctx, name === "rejected" ? badKey(ctx) ?? key : key);
    }
    await CASES[name](ctx);
  } finally {
    // Whatever the case started ends with it, each end bounded.
    for (const s of ctx.started) await s.close();
  }
}

/**
 * Run the oracle's setup calls, each capture taken from its answer; the
 * case's context with what they captured (and the key filled with it), or
 * null when one was not answered success or did not hold a capture (the
 * case then makes no call).
 */
async function setup(ctx: Ctx): Promise<Ctx | null> {
  const captured: Record<string, string> = {};
  for (const step of ctx.tool.setup ?? []) {
    const call = substitute(step, { ...ctx.p, setup: captured });
    const at = ctx.session.log.now();
    const answer = await ctx.session.own(call.tool, call.arguments, "setup");
    const doc = answer.result === undefined
      ? undefined
      : resultDoc(answer.result as ReadResult);
    const taken: Record<string, string> = {};
    let missing: string | undefined;
    for (const [name, at] of Object.entries(step.capture ?? {})) {
      const found = answer.outcome === "success" && doc !== undefined
        ? pointerGet(doc, at)
        : { found: false as const };
      const v = found.found ? found.value : undefined;
      if (
        (typeof v === "string" || typeof v === "number") &&
        String(v).length <= 4096
      ) {
        Object.defineProperty(taken, name, {
          value: String(v),
          enumerable: true,
        });
      } else missing ??= name;
    }
    ctx.session.record({
      op: "setup",
      at_ms: at,
      tool: call.tool,
      answer: answerRecord(answer),
      ...(Object.keys(taken).length > 0 ? { captured: { ...taken } } : {}),
      ...(missing === undefined ? {} : { missing }),
    });
    if (answer.outcome !== "success" || missing !== undefined) return null;
    Object.assign(captured, taken);
  }
  if (Object.keys(captured).length === 0) return ctx;
  const p = { ...ctx.p, setup: captured };
  return { ...ctx, p: { ...p, key: keyOf(ctx.tool, p) ?? "" } };
}

/** Whether `name` runs N copies. */
export function isConcurrent(name: CaseName): boolean {
  return CONCURRENT_CASES.includes(name);
}
