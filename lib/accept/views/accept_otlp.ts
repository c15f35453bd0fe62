/**
 * Recorded histories as an OpenTelemetry trace (`accept --otlp FILE`):
 * the run a root span, each case a span with its verdict, each of its
 * calls the client's span of it, named and attributed by the MCP
 * conventions, and what guardlab did and saw (a fault, a read by key, a
 * process started or killed, a problem) an event where it happened.
 *
 * - **The commit point** is the first read that saw the key's effect:
 *   `guardlab.effect_visible` with `guardlab.effect.count`, on the call
 *   that was in flight when it was read (a read made while the call was
 *   out), else on the case. The read of the case's key before any call
 *   (the proof that the count starts at 0) is `guardlab.fresh_read`;
 *   every other read is `guardlab.effect_read`.
 * - **What the client could not know:** a reply guardlab withheld
 *   (`guardlab.reply.withheld`), and whether the client got an answer that
 *   says how the call ended (`guardlab.outcome.known` false: no answer in
 *   time, the server gone, the call cancelled, or the reply withheld),
 *   beside the answer as guardlab got it (`guardlab.outcome`).
 * - **What is never written:** the server's command, the oracle, and the
 *   headers of `--header` and `--header-env`, whose values no history
 *   holds; names and texts are cut and made inert by the encoder.
 *
 * {@linkcode historyTrace} takes recorded histories and nothing else: the
 * seam for a command that records another subject's histories (an agent
 * host's) to write them the same way.
 *
 * @module
 */
import { GUARDLAB, OTEL, OTEL_VALUE } from "../../otlp/semconv.ts";
import { randomSpanId, randomTraceId } from "../../otlp/ids.ts";
import {
  type Attributes,
  type Nanos,
  nanosOfMillis,
  type Span,
  type SpanEvent,
  type Trace,
} from "../../otlp/trace.ts";
import type { CaseHistory, HistoryRecord } from "../mod.ts";
import type { AcceptReport } from "../run.ts";

/** A call of a history. */
type CallRecord = Extract<HistoryRecord, { op: "call" }>;

/** One case to write: its name, what was judged of it, and its history. */
export interface TracedCase {
  /** The case's name. */
  readonly name: string;
  /** The tool it tested. */
  readonly tool: string;
  /** Its verdict and the verdict's class, when judged. */
  readonly verdict?: string;
  /** `safe`, `unsafe`, `info` or `inconclusive`. */
  readonly class?: string;
  /** The business key it counted under. */
  readonly key?: string;
  /** What happened. */
  readonly history: CaseHistory;
}

/** How ids are made: random, once, for a run just made. */
export interface TraceIds {
  /** The trace. */
  readonly traceId: string;
  /** A new span id. */
  spanId(): string;
}

/** Random ids: a run is an event, traced once as it is written. */
export function randomIds(): TraceIds {
  return { traceId: randomTraceId(), spanId: randomSpanId };
}

/** The case's start on the wall clock (Unix ms), or the epoch when the history does not say. */
export function epochOf(h: { readonly epoch_ms?: unknown }): number {
  const e = h.epoch_ms;
  return typeof e === "number" && Number.isFinite(e) && e > 0 ? e : 0;
}

/** The last moment a record names, in ms since the case began. */
function endOf(records: readonly HistoryRecord[]): number {
  let end = 0;
  for (const r of records) {
    end = Math.max(end, r.at_ms);
    if (r.op === "call" && typeof r.answer.at_ms === "number") {
      end = Math.max(end, r.answer.at_ms);
    }
  }
  return end;
}

/** Whether the client got an answer that says how the call ended: one came, and guardlab did not withhold it. */
function known(c: CallRecord, withheld: boolean): boolean {
  return !withheld &&
    (c.answer.outcome === "ok" || c.answer.outcome === "error");
}

/**
 * The trace of `cases` (see the module doc), as `subject` recorded them:
 * the root (`what` names the run, `attributes` say more of it), a span
 * per case, and under it a span per call.
 */
export function historyTrace(
  what: string,
  attributes: Attributes,
  cases: readonly TracedCase[],
  ids: TraceIds,
): Trace {
  return runTrace(
    what,
    attributes,
    ids,
    cases.map((c) => ({
      epoch: epochOf(c.history),
      end: endOf(c.history.records),
      spans: (parent: string) => caseSpans(c, ids, parent),
    })),
  );
}

/** One case of a run, as {@linkcode runTrace} places it. */
export interface RunCase {
  /** When it began on the wall clock, Unix ms. */
  readonly epoch: number;
  /** Its last moment, ms after `epoch`. */
  readonly end: number;
  /** Its spans, the case's own first, under the root `parent`. */
  readonly spans: (parent: string) => Span[];
}

/**
 * A run's trace: the root (`what` names it, `attributes` say more of it)
 * from the first case's start to the last one's end, and each case's
 * spans under it, in order.
 */
export function runTrace(
  what: string,
  attributes: Attributes,
  ids: TraceIds,
  cases: readonly RunCase[],
): Trace {
  const rootId = ids.spanId();
  const spans: Span[] = [];
  let first = Infinity;
  let last = 0;
  for (const c of cases) {
    first = Math.min(first, c.epoch);
    last = Math.max(last, c.epoch + c.end);
    spans.push(...c.spans(rootId));
  }
  const start = first === Infinity ? 0 : first;
  const root: Span = {
    traceId: ids.traceId,
    spanId: rootId,
    name: what,
    kind: "internal",
    start: nanosOfMillis(start),
    end: nanosOfMillis(Math.max(last, start)),
    attributes,
  };
  return { resource: { [GUARDLAB.source]: what }, spans: [root, ...spans] };
}

/** One case's span, its calls' spans under it, each record an event where it happened. */
function caseSpans(c: TracedCase, ids: TraceIds, parent: string): Span[] {
  const epoch = epochOf(c.history);
  const at = (t: number): Nanos => nanosOfMillis(epoch + t);
  const records = c.history.records;
  const caseEnd = endOf(records);
  const caseId = ids.spanId();
  const calls = records.filter((r): r is CallRecord => r.op === "call");
  const callIds = new Map(calls.map((r) => [r.call, ids.spanId()]));
  const { onCase, onCall, withheld } = eventsOf(records, calls, at);
  const unsafe = c.class === "unsafe";
  return [
    {
      traceId: ids.traceId,
      spanId: caseId,
      parentSpanId: parent,
      name: `case ${c.name}`,
      kind: "internal",
      start: at(0),
      end: at(caseEnd),
      attributes: {
        [GUARDLAB.case]: c.name,
        [OTEL.genAiToolName]: c.tool,
        [GUARDLAB.verdict]: c.verdict,
        [GUARDLAB.verdictClass]: c.class,
        [GUARDLAB.job]: c.key,
      },
      events: onCase,
      error: unsafe ? c.verdict : undefined,
    },
    ...calls.map((r) =>
      callSpan(r, {
        traceId: ids.traceId,
        spanId: callIds.get(r.call)!,
        parentSpanId: caseId,
      }, {
        start: at(r.at_ms),
        end: at(r.answer.at_ms ?? caseEnd),
      }, {
        events: onCall.get(r.call) ?? [],
        withheld: withheld.has(r.call),
      })
    ),
  ];
}

/** A call of the client's: its span, as the MCP conventions name it. */
function callSpan(
  r: CallRecord,
  ids: { traceId: string; spanId: string; parentSpanId: string },
  time: { start: Nanos; end: Nanos },
  seen: { events: SpanEvent[]; withheld: boolean },
): Span {
  const error = r.answer.outcome === "error"
    ? r.answer.error === "tool" ? OTEL_VALUE.toolError : OTEL_VALUE.other
    : undefined;
  return {
    ...ids,
    name: `${OTEL_VALUE.toolsCall} ${r.tool}`,
    kind: "client",
    ...time,
    attributes: {
      [OTEL.mcpMethodName]: OTEL_VALUE.toolsCall,
      [OTEL.genAiToolName]: r.tool,
      [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
      [OTEL.errorType]: error,
      [GUARDLAB.call]: r.call,
      [GUARDLAB.job]: r.key ?? undefined,
      [GUARDLAB.retry]: r.retry,
      [GUARDLAB.process]: r.process,
      [GUARDLAB.outcome]: r.answer.outcome,
      [GUARDLAB.outcomeKnown]: known(r, seen.withheld),
      [GUARDLAB.replyWithheld]: seen.withheld || undefined,
    },
    events: seen.events,
    error: error === undefined ? undefined : r.answer.text ?? error,
  };
}

/**
 * Every record but a call as an event: a read on the call that was out
 * when it was made (a read in flight), else on the case; a fault on its
 * call; the rest on the case. And which calls' replies were withheld.
 */
function eventsOf(
  records: readonly HistoryRecord[],
  calls: readonly CallRecord[],
  at: (t: number) => Nanos,
): {
  onCase: SpanEvent[];
  onCall: Map<number, SpanEvent[]>;
  withheld: Set<number>;
} {
  const onCase: SpanEvent[] = [];
  const onCall = new Map<number, SpanEvent[]>();
  const withheld = new Set<number>();
  const seen = new Set<string>();
  const numbers = new Set(calls.map((c) => c.call));
  // The call out when `t` came: the last sent before it, not yet answered.
  const inFlight = (t: number) =>
    calls.findLast((r) =>
      r.at_ms <= t && (r.answer.at_ms === undefined || r.answer.at_ms >= t)
    )?.call;
  for (const r of records) {
    if (r.op === "fault" && r.fault === "withhold") withheld.add(r.call);
    const placed = recordEvent(r, at, seen, inFlight);
    if (placed === null) continue;
    const list = placed.call === undefined
      ? undefined
      : onCall.get(placed.call);
    if (placed.call === undefined || !numbers.has(placed.call)) {
      onCase.push(placed.event);
    } else if (list === undefined) onCall.set(placed.call, [placed.event]);
    else list.push(placed.event);
  }
  return { onCase, onCall, withheld };
}

/** One record as an event, and the call it belongs on (none: the case); null for a call or the contract. */
function recordEvent(
  r: HistoryRecord,
  at: (t: number) => Nanos,
  seen: Set<string>,
  inFlight: (t: number) => number | undefined,
): { call?: number; event: SpanEvent } | null {
  const event = (name: string, attributes: Attributes) => ({
    name,
    time: at(r.at_ms),
    attributes,
  });
  switch (r.op) {
    case "call":
      return null;
    case "read": {
      if (r.fresh === true) {
        // The read of a key no call used, before the first call: it proves
        // the count (0) or shows it unproven; it never saw an effect.
        return {
          event: event("guardlab.fresh_read", {
            [OTEL.genAiToolName]: r.tool,
            [GUARDLAB.job]: r.key,
            [GUARDLAB.effectCount]: r.count ?? undefined,
          }),
        };
      }
      const first = typeof r.count === "number" && r.count > 0 &&
        r.other !== true && !seen.has(r.key);
      if (first) seen.add(r.key);
      return {
        call: r.in_flight ? inFlight(r.at_ms) : undefined,
        event: event(
          first ? "guardlab.effect_visible" : "guardlab.effect_read",
          {
            [OTEL.genAiToolName]: r.tool,
            [GUARDLAB.job]: r.key,
            [GUARDLAB.effectCount]: r.count ?? undefined,
            [GUARDLAB.other]: r.other,
            [GUARDLAB.process]: r.process,
          },
        ),
      };
    }
    case "fault":
      if (r.fault === "wait") {
        // A wait inside the key's stated lifetime: on the case, with its length.
        return {
          event: event("guardlab.fault.wait", { [GUARDLAB.afterMs]: r.ms }),
        };
      }
      return r.fault === "kill"
        ? {
          event: event("guardlab.fault.kill", {
            [GUARDLAB.process]: r.process,
          }),
        }
        : {
          call: r.call,
          event: event(
            `guardlab.fault.${r.fault}`,
            r.fault === "cancel"
              ? {
                [GUARDLAB.sent]: r.sent,
                [GUARDLAB.afterMs]: r.after_ms,
                [GUARDLAB.from]: r.from,
              }
              : {},
          ),
        };
    case "setup":
      return {
        event: event("guardlab.setup", {
          [OTEL.genAiToolName]: r.tool,
          [GUARDLAB.outcome]: r.answer.outcome,
        }),
      };
    case "process":
      return {
        event: event(`guardlab.process.${r.event}`, {
          [GUARDLAB.process]: r.process,
        }),
      };
    case "problem":
      return {
        event: event("guardlab.problem", {
          [GUARDLAB.problem]: r.problem,
          [OTEL.jsonrpcRequestId]: r.id === undefined
            ? undefined
            : String(r.id),
        }),
      };
    case "skip":
      return {
        event: event("guardlab.not_run", { [GUARDLAB.note]: r.reason }),
      };
    case "contract":
      // What the oracle declared (the key's place, the conflict, the
      // lifetime) is the case's setting, not a moment on its timeline.
      return null;
    case "listed":
      return {
        event: event("guardlab.listed", {
          [OTEL.genAiToolName]: r.tool,
          [GUARDLAB.role]: r.role,
          ...Object.fromEntries(
            Object.entries(r.hints).map(([k, v]) => [`guardlab.${k}`, v]),
          ),
        }),
      };
  }
}

/** `accept`'s report as a trace: its cases' histories under one run, the server as it named itself. */
export function acceptTrace(report: AcceptReport, ids: TraceIds): Trace {
  return historyTrace(
    "accept",
    {
      [GUARDLAB.source]: "accept",
      [GUARDLAB.server]: `${report.server.name} ${report.server.version}`,
      [GUARDLAB.unsafe]: report.unsafe,
      [GUARDLAB.inconclusive]: report.inconclusive,
    },
    report.results.map((r) => ({
      name: r.case,
      tool: r.tool,
      verdict: r.verdict,
      class: r.class,
      key: r.key,
      history: r.history,
    })),
    ids,
  );
}
