/**
 * `accept host --otlp FILE`: the run as an OpenTelemetry trace, from the
 * cases' host histories alone (`_host_history.ts`). The run is the root;
 * each case and variant a span with its verdict; under it, in the order
 * they came, each request the host made of the model guardlab plays (a
 * `chat` span, named by the GenAI conventions) and each `tools/call` the
 * host made of the tool guardlab plays (a server span, named by the MCP
 * conventions). Guardlab served both, so both are `server` spans.
 *
 * - **The commit point:** the tool's append is its commit, so a call that
 *   wrote a row carries `guardlab.effect_visible` with the rows under its
 *   key then (`guardlab.effect.count`: 2 on a duplicate); a call the
 *   keyed tool answered from the key's row carries
 *   `guardlab.effect_reused`.
 * - **Which call is which:** `guardlab.model.call` says which of the
 *   model's calls a tools/call carries (1: the first key, 2: the naive
 *   model's new key); a call under the first key that the model did not
 *   ask for is the host's own resend (`guardlab.retry`, with
 *   `guardlab.arguments.same`), as the checker counts it.
 * - **What the host could not know:** the reply guardlab withheld, the
 *   process it killed, the HTTP 503, the connection it closed unanswered or
 *   the expired session
 *   (`guardlab.reply`, `guardlab.reply.withheld`,
 *   `guardlab.outcome.known` false), with the fault as an event at its
 *   time, and `notifications/cancelled` as an event on the call it names.
 * - **What the model was told:** each tool result, on the first model
 *   request that carried it (`guardlab.model.told`: the text as
 *   `gen_ai.tool.call.result`, and how guardlab reads it,
 *   `guardlab.told.as`).
 * - **What is never written:** the host's command line and its output (no
 *   history holds them), and the run's dummy API key, masked wherever a
 *   host said it back; every text is cut and made inert by the encoder.
 *
 * @module
 */
import { canonicalJson } from "../base/json.ts";
import { GUARDLAB, OTEL, OTEL_VALUE } from "../otlp/semconv.ts";
import {
  type Attributes,
  type Nanos,
  nanosOfMillis,
  type Span,
  type SpanEvent,
  type Trace,
} from "../otlp/trace.ts";
import {
  type HostCallRecord,
  type HostRecord,
  maskDummyKeys,
  type ModelRecord,
  type PlanRecord,
} from "./_host_history.ts";
import { planOf, toldOf } from "./_host_checker.ts";
import { responseIdOf } from "./_host_model.ts";
import type { HostCaseResult, HostReport } from "./host_report.ts";
import { epochOf, runTrace, type TraceIds } from "./views/accept_otlp.ts";

export { randomIds } from "./views/accept_otlp.ts";

/** `accept host`'s report as a trace: each row's history under one run. */
export function hostTrace(report: HostReport, ids: TraceIds): Trace {
  const trace = runTrace(
    "accept host",
    {
      [GUARDLAB.source]: "accept host",
      [GUARDLAB.transport]: report.transport,
      [GUARDLAB.caseMs]: report.case_ms,
      [GUARDLAB.unsafe]: report.unsafe,
      [GUARDLAB.inconclusive]: report.inconclusive,
    },
    ids,
    report.results.map((row) => ({
      epoch: epochOf(row.history),
      end: Math.max(0, ...row.history.records.map((r) => r.at_ms)),
      spans: (parent: string) =>
        caseSpans(row, ids, parent, report.in_process === true),
    })),
  );
  // Whatever a host sent may hold the run's dummy key (said back in a
  // result, an id, a key, a name): every text of the trace is masked.
  return { ...trace, spans: trace.spans.map(maskedSpan) };
}

/** `attrs` with every dummy API key in their texts masked. */
function masked(attrs: Attributes | undefined): Attributes | undefined {
  if (attrs === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(attrs).map(([k, v]) => [
      k,
      typeof v === "string"
        ? maskDummyKeys(v)
        : Array.isArray(v)
        ? v.map(maskDummyKeys)
        : v,
    ]),
  );
}

/** `span` with every dummy API key in its names and texts masked. */
function maskedSpan(span: Span): Span {
  return {
    ...span,
    name: maskDummyKeys(span.name),
    attributes: masked(span.attributes),
    events: span.events?.map((e) => ({
      ...e,
      name: maskDummyKeys(e.name),
      attributes: masked(e.attributes),
    })),
    error: span.error === undefined ? undefined : maskDummyKeys(span.error),
  };
}

/** The questions the spans ask of one history, answered once. */
interface Reading {
  readonly plan: PlanRecord;
  readonly at: (t: number) => Nanos;
  readonly end: number;
  readonly transport: Attributes;
  /** The host ran in guardlab's own process: no process exited, its run returned or threw. */
  readonly inProcess: boolean;
  /** The calls under the first key the host sent by itself. */
  readonly resends: ReadonlySet<number>;
  /** The arguments of the first call under the first key, as canonical JSON. */
  readonly firstArguments: string | undefined;
}

/** One row's case span, and its model and tool spans under it, in the order they came. */
function caseSpans(
  row: HostCaseResult,
  ids: TraceIds,
  parent: string,
  inProcess: boolean,
): Span[] {
  const h = row.history;
  const epoch = epochOf(h);
  const records = h.records;
  const plan = planOf(h);
  const r: Reading = {
    plan,
    at: (t) => nanosOfMillis(epoch + t),
    end: Math.max(0, ...records.map((x) => x.at_ms)),
    // A host run in guardlab's own process (`--example`) used no socket.
    transport: inProcess ? {} : plan.transport === "http"
      ? {
        [OTEL.networkTransport]: OTEL_VALUE.tcp,
        [OTEL.networkProtocolName]: OTEL_VALUE.http,
      }
      : { [OTEL.networkTransport]: OTEL_VALUE.pipe },
    inProcess,
    resends: resendsOf(records, plan),
    firstArguments: argumentsOfFirst(records, plan),
  };
  const caseId = ids.spanId();
  const onCall = new Map<number, SpanEvent[]>();
  const onCase: SpanEvent[] = [];
  for (const x of records) {
    const placed = eventOf(x, r);
    if (placed === null) continue;
    const list = placed.call === null ? undefined : onCall.get(placed.call);
    if (placed.call === null) onCase.push(placed.event);
    else if (list === undefined) onCall.set(placed.call, [placed.event]);
    else list.push(placed.event);
  }
  const told = new Set<string>();
  const children: Span[] = [];
  const rows = new Map<string, number>();
  for (const x of records) {
    const spanIds = { traceId: ids.traceId, parentSpanId: caseId };
    if (x.op === "model") {
      children.push(
        modelSpan(x, r, told, { ...spanIds, spanId: ids.spanId() }),
      );
    } else if (x.op === "call") {
      const events = commitEvents(x, r, rows);
      children.push(callSpan(x, r, [...events, ...(onCall.get(x.call) ?? [])], {
        ...spanIds,
        spanId: ids.spanId(),
      }));
    }
  }
  const info = row.info.length > 0 ? [...row.info] : undefined;
  return [
    {
      traceId: ids.traceId,
      spanId: caseId,
      parentSpanId: parent,
      name: `case ${row.case}/${row.variant}`,
      kind: "internal",
      start: r.at(0),
      end: r.at(r.end),
      attributes: {
        [GUARDLAB.case]: row.case,
        [GUARDLAB.variant]: row.variant,
        [GUARDLAB.transport]: plan.transport,
        [OTEL.genAiToolName]: plan.tool,
        [GUARDLAB.verdict]: row.verdict,
        [GUARDLAB.verdictClass]: row.class,
        [GUARDLAB.verdictInfo]: info,
        [GUARDLAB.job]: plan.key,
        [GUARDLAB.jobNew]: plan.new_key,
        [GUARDLAB.clients]: row.clients.length > 0
          ? [...row.clients]
          : undefined,
        [GUARDLAB.truncated]: (h.dropped ?? 0) > 0 || undefined,
      },
      events: onCase,
      error: row.class === "unsafe" ? row.verdict : undefined,
    },
    ...children,
  ];
}

/**
 * The calls under the first key beyond those the model asked for: the
 * host's own resends, as the checker counts them (the model's first call
 * is the first under its key).
 */
function resendsOf(
  records: readonly HostRecord[],
  plan: PlanRecord,
): Set<number> {
  const asked =
    records.filter((x) => x.op === "model" && x.reply === "call-1").length;
  return new Set(
    records.filter((x): x is HostCallRecord =>
      x.op === "call" && x.key === plan.key
    ).slice(Math.max(1, asked)).map((c) => c.call),
  );
}

/** The first call under the first key's arguments, as the checker compares them. */
function argumentsOfFirst(
  records: readonly HostRecord[],
  plan: PlanRecord,
): string | undefined {
  const first = records.find((x): x is HostCallRecord =>
    x.op === "call" && x.key === plan.key
  );
  return first?.arguments === undefined
    ? undefined
    : canonicalJson(first.arguments);
}

/**
 * Every record but the plan, a call or a model request as an event, and
 * the call it belongs on (null: the case): a cancel on the call it names,
 * a fault on its call, the rest on the case.
 */
function eventOf(
  x: HostRecord,
  r: Reading,
): { call: number | null; event: SpanEvent } | null {
  const on = (call: number | null, name: string, attributes: Attributes) => ({
    call,
    event: { name, time: r.at(x.at_ms), attributes },
  });
  switch (x.op) {
    case "plan":
    case "call":
    case "model":
      return null;
    case "cancel":
      return on(x.call, "guardlab.cancelled", {
        [OTEL.mcpMethodName]: OTEL_VALUE.notificationsCancelled,
        [OTEL.jsonrpcRequestId]: x.id === null ? undefined : String(x.id),
        [GUARDLAB.conn]: x.conn,
        [GUARDLAB.reason]: x.reason,
      });
    case "fault":
      return on(x.call, `guardlab.fault.${x.fault}`, {
        [GUARDLAB.after]: x.fault === "release" ? x.after : undefined,
      });
    case "process":
      if (x.who === "host" && r.inProcess && x.event === "exit") {
        // No process: the run returned, or threw (its line is the row's
        // host output, not the trace's: a host's words stay off it).
        return on(
          null,
          `guardlab.host.${x.code === 0 ? "returned" : "threw"}`,
          {},
        );
      }
      return x.who === "host"
        ? on(null, `guardlab.host.${x.event}`, {
          [OTEL.processExitCode]: typeof x.code === "number"
            ? x.code
            : undefined,
        })
        : on(null, `guardlab.tool.${x.event}`, {
          [GUARDLAB.conn]: x.conn,
          [GUARDLAB.client]: x.client,
        });
    case "read":
      return on(null, "guardlab.effect_read", {
        [GUARDLAB.job]: x.key,
        [GUARDLAB.effectCount]: x.count ?? undefined,
      });
    case "listed":
      return on(null, "guardlab.listed", { [GUARDLAB.conn]: x.conn });
    case "problem":
      return on(null, "guardlab.problem", {
        [GUARDLAB.problem]: x.problem,
        [GUARDLAB.problemWhere]: x.where,
      });
  }
}

/** Which of the model's calls `key` is: 1 (its first key), 2 (the new key), or neither. */
function modelCallOf(key: string | null, plan: PlanRecord): 1 | 2 | undefined {
  return key === plan.key ? 1 : key === plan.new_key ? 2 : undefined;
}

/** A request the host made of the model: its span, each tool result it carried first as an event. */
function modelSpan(
  m: ModelRecord,
  r: Reading,
  told: Set<string>,
  ids: { traceId: string; parentSpanId: string; spanId: string },
): Span {
  const asked = m.reply === "call-1" ? 1 : m.reply === "call-2" ? 2 : undefined;
  const events: SpanEvent[] = [];
  for (const result of m.results) {
    // A conversation carries every earlier result again: each is told once.
    const seen = `${result.call}\0${result.text}`;
    if (told.has(seen)) continue;
    told.add(seen);
    const key = result.call === 1
      ? r.plan.key
      : result.call === 2
      ? r.plan.new_key
      : undefined;
    events.push({
      name: "guardlab.model.told",
      time: r.at(m.at_ms),
      attributes: {
        [GUARDLAB.modelCall]: result.call ?? undefined,
        [OTEL.genAiToolCallResult]: result.text,
        [GUARDLAB.toldAs]: key === undefined
          ? undefined
          : toldOf(result.text, key),
      },
    });
  }
  return {
    ...ids,
    name: OTEL_VALUE.chat,
    kind: "server",
    start: r.at(m.at_ms),
    end: r.at(m.at_ms),
    attributes: {
      [OTEL.genAiOperationName]: OTEL_VALUE.chat,
      [OTEL.genAiRequestStream]: m.stream === true,
      [OTEL.genAiResponseId]: responseIdOf(m.request),
      [OTEL.genAiResponseFinishReasons]: [
        asked === undefined ? "stop" : "tool_calls",
      ],
      [GUARDLAB.modelReply]: m.reply,
      [GUARDLAB.modelCall]: asked,
      [GUARDLAB.toolOffered]: m.offered,
      [GUARDLAB.toolOfferedAs]: m.offered_as,
    },
    events,
  };
}

/** The commit point of a call, when the tool wrote or reused a row for it, with the rows under its key then. */
function commitEvents(
  c: HostCallRecord,
  r: Reading,
  rows: Map<string, number>,
): SpanEvent[] {
  if (c.key === null || c.effect === "refused") return [];
  if (c.effect === "written") rows.set(c.key, (rows.get(c.key) ?? 0) + 1);
  return [{
    name: c.effect === "written"
      ? "guardlab.effect_visible"
      : "guardlab.effect_reused",
    time: r.at(c.at_ms),
    attributes: {
      [GUARDLAB.job]: c.key,
      [GUARDLAB.effectCount]: rows.get(c.key) ?? 0,
    },
  }];
}

/** Whether the host got an answer that says how the call ended: the tool's own answer, sent when it was made. */
function outcomeKnown(c: HostCallRecord): boolean {
  return c.reply === "ok" || c.reply === "error";
}

/**
 * When guardlab's answer to `c` went, or the call ended without one: a
 * withheld answer at its release (the case's end when never released),
 * a faulted one at its fault, any other when it came.
 */
function endOfCall(c: HostCallRecord, r: Reading, events: SpanEvent[]): Nanos {
  const last = events.findLast((e) => e.name.startsWith("guardlab.fault."));
  return c.reply === "none" || c.reply === "late"
    ? (last?.name === "guardlab.fault.release" ? last.time : r.at(r.end))
    : last?.time ?? r.at(c.at_ms);
}

/** The error class of a call's end, as the host got it. */
function errorOf(c: HostCallRecord): string | undefined {
  switch (c.reply) {
    case "error":
      return OTEL_VALUE.toolError;
    case "http-503":
      return "503";
    case "expired":
      return "404";
    default:
      return undefined;
  }
}

/** A tools/call the host made: its span, as the MCP conventions name a server's. */
function callSpan(
  c: HostCallRecord,
  r: Reading,
  events: SpanEvent[],
  ids: { traceId: string; parentSpanId: string; spanId: string },
): Span {
  const resend = r.resends.has(c.call);
  const error = errorOf(c);
  return {
    ...ids,
    name: `${OTEL_VALUE.toolsCall} ${r.plan.tool}`,
    kind: "server",
    start: r.at(c.at_ms),
    end: endOfCall(c, r, events),
    attributes: {
      [OTEL.mcpMethodName]: OTEL_VALUE.toolsCall,
      [OTEL.genAiToolName]: r.plan.tool,
      [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
      [OTEL.jsonrpcRequestId]: String(c.id),
      ...r.transport,
      [OTEL.errorType]: error,
      [GUARDLAB.call]: c.call,
      [GUARDLAB.conn]: c.conn,
      [GUARDLAB.job]: c.key ?? undefined,
      [GUARDLAB.modelCall]: modelCallOf(c.key, r.plan),
      [GUARDLAB.retry]: resend || undefined,
      [GUARDLAB.argumentsSame]: resend
        ? c.arguments !== undefined && r.firstArguments !== undefined &&
          canonicalJson(c.arguments) === r.firstArguments
        : undefined,
      [GUARDLAB.effect]: c.effect,
      [GUARDLAB.reply]: c.reply,
      [GUARDLAB.replyWithheld]: c.reply === "none" || c.reply === "late" ||
        undefined,
      [GUARDLAB.outcomeKnown]: outcomeKnown(c),
    },
    events,
    error,
  };
}
