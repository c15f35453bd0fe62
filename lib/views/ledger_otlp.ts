/**
 * A ledger's timeline as an OpenTelemetry trace (`ledger --timeline
 * --otlp FILE`): the same attempts the timeline draws, within the same
 * bound, each a span with its stages and its commit point as events.
 *
 * - **The trace:** one per ledger. Its root span, `ledger timeline`, holds
 *   what the view left out and the compensations and MCP sessions as
 *   events.
 * - **An attempt:** a span named by the MCP conventions. Made over MCP
 *   (a call on record) it is the server's `tools/call create_draft`
 *   (kind SERVER, `mcp.method.name`); made by `run` or `script` it is
 *   `execute_tool create_draft` (kind INTERNAL). Its stages are events in
 *   order (`guardlab.stage.input` ... with `guardlab.mark`), and between
 *   them the commit point: `guardlab.effect_committed` or
 *   `guardlab.effect_reused` with `guardlab.effect.count`, or
 *   `guardlab.commit_not_reached`.
 * - **Its outcome:** a refusal, a failure or a cancel sets `error.type`
 *   to the receipt's status and the span's status to ERROR; an attempt
 *   whose end guardlab cannot know (no receipt, or a status guardlab never
 *   writes) sets `guardlab.outcome.known` false and no error, since that
 *   would claim more than the ledger says.
 * - **Times:** a call on record has its start and end (microseconds, this
 *   machine's clock). Receipts keep no time: an attempt without a call is
 *   1 ms long, right after the span before it (or ending where the first
 *   timed one starts, or from the Unix epoch in a ledger with no call at
 *   all), with `guardlab.time.source` `order`: its place is known, its
 *   time is not. The stage events share their span's time evenly: the
 *   ledger keeps their order, not their times.
 * - **Ids:** derived, never random: the trace from the ledger's path, its
 *   file's birth time and its first MCP session's start; each span from
 *   the trace and what it is (a receipt's number, a key, a call). The same
 *   ledger exported again gives the same ids, so a backend given both
 *   keeps one trace, and an attempt added later does not move the others.
 *
 * @module
 */
import { type Lang, say, type Text } from "../base/i18n.ts";
import { derivedSpanId, derivedTraceId } from "../otlp/ids.ts";
import { GUARDLAB, OTEL, OTEL_VALUE } from "../otlp/semconv.ts";
import {
  type Nanos,
  nanosOfMicros,
  type Span,
  type SpanEvent,
  type Trace,
} from "../otlp/trace.ts";
import type { CallRow } from "../timing/ledger.ts";
import { STATUSES } from "../timing/stages.ts";
import type {
  CallPlace,
  LedgerAttempt,
  LedgerHistory,
  LedgerRead,
} from "./ledger_timeline.ts";
import {
  LEDGER_TIMELINE_MESSAGES,
  MARK_LABEL,
  STAGE_LABEL,
} from "./_messages.ts";
import type { LeftOut } from "./view_bound.ts";
import type { StageRow } from "./timeline.ts";

/** The tool an attempt of the lab is: `guardlab mcp`'s write tool. */
const LAB_TOOL = "create_draft";

/** How long a span whose time the ledger does not keep is drawn. */
const ORDER_ONLY_NS = 1_000_000n;

/** A call's start and end, in microseconds since the epoch. */
export interface CallTimes {
  /** When it started. */
  started_us: number;
  /** When it ended. */
  ended_us: number;
}

/** The key of a call in {@linkcode LedgerTraceInput.times}. */
export function callKey(by: { session: number; call: number }): string {
  return `${by.session}:${by.call}`;
}

/**
 * The times of the calls `h` draws, read from `calls` (a ledger's
 * `eachCall()`, one row at a time): only the calls drawn are kept, so what
 * this holds does not grow with the ledger.
 */
export function callTimes(
  calls: Iterable<CallRow>,
  h: LedgerHistory,
): Map<string, CallTimes> {
  const wanted = new Set<string>();
  for (const a of h.attempts) if (a.by) wanted.add(callKey(a.by));
  for (const r of h.reads) wanted.add(callKey(r.by));
  const times = new Map<string, CallTimes>();
  if (wanted.size === 0) return times;
  for (const c of calls) {
    const key = callKey(c);
    if (wanted.has(key) && !times.has(key)) {
      times.set(key, { started_us: c.started_us, ended_us: c.ended_us });
    }
  }
  return times;
}

/** What a ledger's trace is made of. */
export interface LedgerTraceInput {
  /** The history the view draws (within its bound), stored strings as stored. */
  history: LedgerHistory;
  /** What the view's bound left out. */
  leftOut: readonly LeftOut[];
  /** The view's own lines about its order and what it left out, as shown. */
  notes: readonly Text[];
  /** The times of the calls drawn, by {@linkcode callKey}. */
  times: ReadonlyMap<string, CallTimes>;
  /** What the trace id is derived from (see the module doc). */
  seed: readonly string[];
  /** The ledger as the user named it. */
  ledger: string;
  /** The language of the notes. */
  lang: Lang;
}

/** The receipt statuses that end a call with an error, each its own class. */
const ERROR_STATUSES: ReadonlySet<string> = new Set([
  ...STATUSES.filter((s) => s !== "accepted"),
  "cancelled",
]);

/** One span of the trace before its ids and times: an attempt or a read. */
type Item =
  | { kind: "attempt"; a: LedgerAttempt }
  | { kind: "read"; r: LedgerRead };

/** The attempts and the reads in the order the timeline draws them. */
function itemsOf(h: LedgerHistory): Item[] {
  const items: Item[] = [];
  const readsAfter = (n: number) => {
    for (const r of h.reads) if (r.after === n) items.push({ kind: "read", r });
  };
  h.attempts.forEach((a, n) => {
    readsAfter(n);
    items.push({ kind: "attempt", a });
  });
  readsAfter(h.attempts.length);
  return items;
}

/**
 * The start and end of each item: its call's where one is on record,
 * else {@linkcode ORDER_ONLY_NS} long in its place (see the module doc).
 */
function timesOf(
  items: readonly Item[],
  times: ReadonlyMap<string, CallTimes>,
): { start: Nanos; end: Nanos; recorded: boolean }[] {
  const known = items.map((item) => {
    const by = item.kind === "read" ? item.r.by : item.a.by;
    const t = by && times.get(callKey(by));
    return t &&
      { start: nanosOfMicros(t.started_us), end: nanosOfMicros(t.ended_us) };
  });
  const first = known.findIndex((t) => t !== undefined);
  let at = first < 0 ? 0n : known[first]!.start - BigInt(first) * ORDER_ONLY_NS;
  return known.map((t) => {
    if (t !== undefined) {
      at = t.end;
      return { ...t, recorded: true };
    }
    const span = { start: at, end: at + ORDER_ONLY_NS, recorded: false };
    at = span.end;
    return span;
  });
}

/** The events of `n` moments spread evenly inside `[start, end]`. */
function evenly(start: Nanos, end: Nanos, n: number): Nanos[] {
  const step = (end - start) / BigInt(n + 1);
  return Array.from({ length: n }, (_, i) => start + step * BigInt(i + 1));
}

/** The attributes that say which MCP call something was. */
function callAttributes(by: CallPlace | undefined) {
  return by === undefined ? {} : {
    [OTEL.mcpMethodName]: OTEL_VALUE.toolsCall,
    [GUARDLAB.mcpSession]: by.session,
    [GUARDLAB.call]: by.call,
    [GUARDLAB.overlaps]: by.overlaps.length + (by.more ?? 0),
  };
}

/** A stage's event: its mark, and its note in `lang`. */
function stageEvent(row: StageRow, time: Nanos, lang: Lang): SpanEvent {
  return {
    name: `guardlab.stage.${row.stage}`,
    time,
    attributes: {
      [GUARDLAB.stage]: row.stage,
      [GUARDLAB.mark]: row.mark,
      [GUARDLAB.note]: row.note === null ? undefined : say(row.note, lang),
    },
  };
}

/** The commit point's event: what it saw, and how many drafts of the key there were. */
function commitEvent(a: LedgerAttempt, time: Nanos): SpanEvent {
  const commit = a.timeline.commit;
  return {
    name: commit === "committed"
      ? "guardlab.effect_committed"
      : commit === "reused"
      ? "guardlab.effect_reused"
      : "guardlab.commit_not_reached",
    time,
    attributes: {
      [GUARDLAB.commit]: commit,
      // The ledger holds at most one draft per key: whether it was there
      // when the receipt was written (for an attempt with no receipt, now).
      [GUARDLAB.effectCount]: a.attempt.draftExists ? 1 : 0,
    },
  };
}

/**
 * Why a span ended in an error, in `lang`: the note of the first stage that
 * did not pass, as the timeline's text view writes it, or the status.
 */
function errorOf(a: LedgerAttempt, lang: Lang): string | undefined {
  if (a.status === null || !ERROR_STATUSES.has(a.status)) return undefined;
  const row = [...a.timeline.before, ...a.timeline.after].find((r) =>
    r.note !== null && r.mark !== "passed" && r.mark !== "not reached" &&
    r.stage !== "receipt"
  );
  return row === undefined ? a.status : say(
    LEDGER_TIMELINE_MESSAGES.note(
      row.label ?? STAGE_LABEL[row.stage],
      MARK_LABEL[row.mark],
      row.note!,
    ),
    lang,
  ).trim();
}

/** An attempt's span, its stages and commit point as events. */
function attemptSpan(
  a: LedgerAttempt,
  ids: { traceId: string; spanId: string; parentSpanId: string },
  t: { start: Nanos; end: Nanos; recorded: boolean },
  lang: Lang,
): Span {
  const rows = a.timeline;
  const moments = evenly(
    t.start,
    t.end,
    rows.before.length + 1 + rows.after.length,
  );
  const events: SpanEvent[] = [
    ...rows.before.map((r, i) => stageEvent(r, moments[i], lang)),
    commitEvent(a, moments[rows.before.length]),
    ...rows.after.map((r, i) =>
      stageEvent(r, moments[rows.before.length + 1 + i], lang)
    ),
  ];
  const receiptRow = rows.after.find((r) => r.stage === "receipt");
  const known = a.receipt !== null && receiptRow?.mark === "passed";
  const error = errorOf(a, lang);
  return {
    ...ids,
    name: `${a.by ? OTEL_VALUE.toolsCall : OTEL_VALUE.executeTool} ${LAB_TOOL}`,
    kind: a.by ? "server" : "internal",
    start: t.start,
    end: t.end,
    attributes: {
      [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
      [OTEL.genAiToolName]: LAB_TOOL,
      ...callAttributes(a.by),
      [OTEL.errorType]: error === undefined ? undefined : a.status!,
      [GUARDLAB.receipt]: a.receipt ?? undefined,
      [GUARDLAB.job]: a.job ?? undefined,
      [GUARDLAB.status]: a.status ?? undefined,
      [GUARDLAB.commit]: rows.commit,
      [GUARDLAB.outcomeKnown]: known,
      [GUARDLAB.timeSource]: t.recorded ? "mcp_call" : "order",
    },
    events,
    error,
  };
}

/** A read tool's call (or `compensate`): a server span with no stages. */
function readSpan(
  r: LedgerRead,
  ids: { traceId: string; spanId: string; parentSpanId: string },
  t: { start: Nanos; end: Nanos; recorded: boolean },
): Span {
  return {
    ...ids,
    name: `${OTEL_VALUE.toolsCall} ${r.tool}`,
    kind: "server",
    start: t.start,
    end: t.end,
    attributes: {
      [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
      [OTEL.genAiToolName]: r.tool,
      ...callAttributes(r.by),
      [GUARDLAB.job]: r.job ?? undefined,
      [GUARDLAB.timeSource]: t.recorded ? "mcp_call" : "order",
    },
  };
}

/** What a span's id is derived from. */
function idParts(item: Item): string[] {
  if (item.kind === "read") {
    return ["call", String(item.r.by.session), String(item.r.by.call)];
  }
  return item.a.receipt !== null
    ? ["receipt", String(item.a.receipt)]
    : ["draft", item.a.job ?? ""];
}

/**
 * The trace of a ledger's history (see the module doc): the root first,
 * then every attempt and read in the order the timeline draws them.
 */
export async function ledgerTrace(input: LedgerTraceInput): Promise<Trace> {
  const { history: h, lang } = input;
  const traceId = await derivedTraceId(["ledger", ...input.seed]);
  const rootId = await derivedSpanId(traceId, ["root"]);
  const items = itemsOf(h);
  const times = timesOf(items, input.times);
  const spans: Span[] = [];
  for (const [i, item] of items.entries()) {
    const ids = {
      traceId,
      spanId: await derivedSpanId(traceId, idParts(item)),
      parentSpanId: rootId,
    };
    spans.push(
      item.kind === "attempt"
        ? attemptSpan(item.a, ids, times[i], lang)
        : readSpan(item.r, ids, times[i]),
    );
  }
  const start = times.length === 0 ? 0n : times[0].start;
  const end = times.reduce((e, t) => (t.end > e ? t.end : e), start);
  const notes = [
    ...(h.omitted > 0 ? [LEDGER_TIMELINE_MESSAGES.omitted(h.omitted)] : []),
    ...input.notes,
  ];
  const root: Span = {
    traceId,
    spanId: rootId,
    name: "ledger timeline",
    kind: "internal",
    start,
    end,
    attributes: {
      [GUARDLAB.source]: "ledger",
      [GUARDLAB.ledger]: input.ledger,
      [GUARDLAB.attemptsOmitted]: h.omitted,
      ...Object.fromEntries(
        input.leftOut.map((l) => [
          `${GUARDLAB.leftOut}.${l.kind}`,
          l.total - l.shown,
        ]),
      ),
      [GUARDLAB.note]: notes.length === 0
        ? undefined
        : notes.map((n) => say(n, lang)).join(" "),
    },
    events: [
      ...h.sessions.map((s): SpanEvent => ({
        name: "guardlab.mcp_session",
        time: start,
        attributes: {
          [GUARDLAB.mcpSession]: s.session,
          [GUARDLAB.client]: s.client,
        },
      })),
      ...h.compensations.map((c): SpanEvent => ({
        name: "guardlab.compensation",
        time: end,
        attributes: {
          [GUARDLAB.job]: c.job,
          [GUARDLAB.compensation]: c.state,
          [GUARDLAB.receipts]: c.receipts,
        },
      })),
    ],
  };
  return {
    resource: { [GUARDLAB.source]: "ledger" },
    spans: [root, ...spans],
  };
}
