/**
 * A proxy record as an OpenTelemetry trace (`guardlab proxy show RECORD
 * --otlp FILE`): the timeline the screen draws, as spans.
 *
 * - **The session** is a root span, `proxy session`, from the record's
 *   start to its end: the server's program (its first word only: the rest
 *   of a command line may hold a secret), whether the record reached its
 *   bound, and the steps that belong to no call (initialize, lists, the
 *   server's own messages, the reads at the session's end) as events.
 * - **A call** is the proxy's client span of it, `tools/call TOOL`, kind
 *   CLIENT, named and attributed by the MCP conventions (`mcp.method.name`,
 *   `gen_ai.tool.name`, `jsonrpc.request.id`, `error.type` `tool_error`
 *   for a result with `isError`, a JSON-RPC error's code otherwise). It
 *   lasts from the request to the answer the client got (or the error a
 *   fault gave it instead); each step of it on the screen is an event in
 *   the screen's words. Its parent is the client's `traceparent` (sent in
 *   `params._meta`, or given with `proxy --traceparent`), so the call is
 *   a child of the agent's span in the agent's trace; without one, the
 *   session.
 * - **The commit point**, as everywhere else, is the first read that saw
 *   a key's effect: `guardlab.effect_visible` with `guardlab.effect.count`
 *   on the call it was read for, when it was read while that call was
 *   open (`--read-before-delivery`), else on the session. Every other
 *   read is `guardlab.effect_read`.
 * - **What the client could not know** is said in attributes: a reply
 *   withheld (`guardlab.reply.withheld`), answers past the first
 *   (`guardlab.reply.duplicates`), copies of the request
 *   (`guardlab.copies`), and an outcome the record cannot tell
 *   (`guardlab.outcome.known` false: no answer reached the client, or it
 *   was too big to keep).
 * - **With an agent record**, the agent's function spans, model turns and
 *   guardrail spans are spans too, with the agent's own ids (agents-core's
 *   trace id without `trace_`, the first 16 of a span's 24 hex digits: the
 *   mapping the agent hook puts in `traceparent`), each tool guardrail's
 *   decision and each MCP call as events on its function span, at the
 *   times the merged screen draws them.
 *
 * Ids: a record made by this guardlab keeps the ids its proxy made
 * (random, once, as the call passed: the session's trace, each call's
 * span); an older record's are derived from its start line, so one record
 * is always the same trace.
 *
 * @module
 */
import { type Lang, say } from "../../base/i18n.ts";
import { isPlainRecord } from "../../base/json.ts";
import {
  derivedSpanId,
  derivedTraceId,
  isSpanId,
  isTraceId,
  parseTraceparent,
  type TraceContext,
} from "../../otlp/ids.ts";
import { GUARDLAB, OTEL, OTEL_VALUE } from "../../otlp/semconv.ts";
import {
  type Attributes,
  type Nanos,
  nanosOfMillis,
  type Span,
  type SpanEvent,
  type Trace,
} from "../../otlp/trace.ts";
import type { AgentLine } from "../agent_record.ts";
import { MAX_RECORDED_MESSAGE_BYTES } from "../limits.ts";
import type { Oracle } from "../oracle.ts";
import type { RecordLine } from "../record.ts";
import { mergedTimeline } from "./_agent_merge.ts";
import { type ProxyStep, proxySteps } from "./proxy_view.ts";

type MsgLine = Extract<RecordLine, { kind: "msg" }>;
type StartLine = Extract<RecordLine, { kind: "start" }>;

/** What a proxy record's trace is made of. */
export interface ProxyTraceInput {
  /** The record's lines. */
  readonly lines: readonly RecordLine[];
  /** The record's name, as given. */
  readonly file: string;
  /** The agent record's lines, when one is given. */
  readonly agent?: readonly AgentLine[];
  /** The oracle, for the keys of retries. */
  readonly oracle?: Oracle;
  /** The language of the notes. */
  readonly lang: Lang;
}

/** One call as the record tells it. */
interface CallFacts {
  /** The request's line. */
  sent: MsgLine;
  /** The answer that reached the client (or a fault's error instead). */
  toClient: MsgLine | null;
  /** Its steps on the screen. */
  steps: ProxyStep[];
  /** The reply was withheld (a fault dropped it). */
  withheld: boolean;
  /** Answers the server gave past the first (to copies, or late). */
  duplicates: number;
  /** Copies of the request guardlab sent. */
  copies: number;
}

/** The span id of call `n`: the one the proxy made, else derived. */
async function callSpanId(
  traceId: string,
  sent: MsgLine,
): Promise<string> {
  const kept = (sent as { span?: unknown }).span;
  return isSpanId(kept)
    ? kept
    : await derivedSpanId(traceId, ["call", String(sent.call)]);
}

/** The parent a call names: the client's traceparent, or the proxy's flag. */
function parentOf(sent: MsgLine): TraceContext | null {
  return parseTraceparent((sent as { traceparent?: unknown }).traceparent);
}

/** What the client got for a call, as OTLP says an error: `tool_error`, a JSON-RPC code, or none. */
function errorOf(answer: MsgLine | null): string | undefined {
  const msg = answer !== null && isPlainRecord(answer.msg)
    ? answer.msg
    : undefined;
  if (msg === undefined) return undefined;
  if (isPlainRecord(msg.error)) {
    return typeof msg.error.code === "number"
      ? String(msg.error.code)
      : OTEL_VALUE.other;
  }
  return isPlainRecord(msg.result) && msg.result.isError === true
    ? OTEL_VALUE.toolError
    : undefined;
}

/** Each call's facts, by number, from the record and the screen's steps. */
function callsOf(
  lines: readonly RecordLine[],
  steps: readonly ProxyStep[],
): { calls: Map<number, CallFacts>; onCalls: Set<ProxyStep> } {
  const calls = new Map<number, CallFacts>();
  for (const line of lines) {
    if (line.kind !== "msg" || typeof line.call !== "number") continue;
    let c = calls.get(line.call);
    if (c === undefined) {
      if (line.dir !== "client>server" || line.action !== "forwarded") {
        continue;
      }
      c = {
        sent: line,
        toClient: null,
        steps: [],
        withheld: false,
        duplicates: 0,
        copies: 0,
      };
      calls.set(line.call, c);
      continue;
    }
    const what = `${line.dir} ${line.action}`;
    if (
      c.toClient === null &&
      (what === "server>client forwarded" ||
        what === "guardlab>client delivered" ||
        what === "guardlab>client cancelled")
    ) c.toClient = line;
    if (what === "server>guardlab dropped") c.withheld = true;
    if (what === "server>guardlab copy" || what === "server>guardlab late") {
      c.duplicates++;
    }
    if (what === "guardlab>server copy") c.copies += line.copies ?? 1;
  }
  // A read is the call's when it was made before that call's answer went
  // on (--read-before-delivery); the reads at the session's end are the
  // session's. Each read step stands for the record's next effect line.
  const reads = lines.filter((l) => l.kind === "effect");
  let read = 0;
  const onCalls = new Set<ProxyStep>();
  for (const step of steps) {
    const effect = step.effect === undefined ? undefined : reads[read++];
    const owner = effect?.kind === "effect"
      ? effect.before_delivery
      : step.call;
    const call = typeof owner === "number" ? calls.get(owner) : undefined;
    if (call !== undefined) {
      call.steps.push(step);
      onCalls.add(step);
    }
  }
  return { calls, onCalls };
}

/**
 * The trace of a proxy record (see the module doc): the session first,
 * then each call, then the agent's spans.
 */
export async function proxyTrace(input: ProxyTraceInput): Promise<Trace> {
  const { lines, lang } = input;
  const start = lines[0] as StartLine;
  const epochMs = typeof start.epoch_ms === "number" ? start.epoch_ms : 0;
  const at = (t: number): Nanos => nanosOfMillis(epochMs + t);
  const kept = (start as { trace?: unknown }).trace;
  const sessionTrace = isTraceId(kept)
    ? kept
    : await derivedTraceId(["proxy", JSON.stringify(start)]);
  const rootId = await derivedSpanId(sessionTrace, ["session"]);
  const steps = proxySteps(lines, input.oracle);
  const { calls, onCalls } = callsOf(lines, steps);
  const end = lines.findLast((l) => l.kind === "end");
  const lastT = lines.reduce(
    (m, l) => ("t" in l && typeof l.t === "number" ? Math.max(m, l.t) : m),
    0,
  );
  const sessionEnd = end?.kind === "end" ? end.t : lastT;
  const spans: Span[] = [];
  const openAt = new Map<number, { start: number; end: number }>();
  for (const [n, c] of calls) {
    const startT = c.sent.t;
    const endT = c.toClient?.t ?? sessionEnd;
    openAt.set(n, { start: startT, end: endT });
    const parent = parentOf(c.sent);
    const traceId = parent?.traceId ?? sessionTrace;
    const error = errorOf(c.toClient);
    const answerKept = c.toClient !== null &&
      (c.toClient.msg !== undefined ||
        c.toClient.bytes <= MAX_RECORDED_MESSAGE_BYTES);
    const msg = isPlainRecord(c.sent.msg) ? c.sent.msg : undefined;
    spans.push({
      traceId,
      spanId: await callSpanId(traceId, c.sent),
      parentSpanId: parent?.parentId ?? rootId,
      name: `${OTEL_VALUE.toolsCall} ${c.sent.tool ?? ""}`.trimEnd(),
      kind: "client",
      start: at(startT),
      end: at(endT),
      attributes: {
        [OTEL.mcpMethodName]: OTEL_VALUE.toolsCall,
        [OTEL.genAiToolName]: c.sent.tool,
        [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
        [OTEL.jsonrpcRequestId]: msg?.id === undefined || msg.id === null
          ? undefined
          : String(msg.id),
        [OTEL.errorType]: error,
        [GUARDLAB.call]: n,
        [GUARDLAB.outcomeKnown]: answerKept,
        [GUARDLAB.replyWithheld]: c.withheld || undefined,
        [GUARDLAB.replyDuplicated]: c.duplicates > 0 ? c.duplicates : undefined,
        [GUARDLAB.copies]: c.copies > 0 ? c.copies : undefined,
        [GUARDLAB.traceparentFrom]: parent === null
          ? undefined
          : (c.sent as { traceparent_from?: unknown }).traceparent_from ===
              "flag"
          ? "proxy"
          : "client",
      },
      events: c.steps.map((s) => stepEvent(s, at, lang)),
      error: error === undefined ? undefined : error,
    });
  }
  const rootSteps = steps.filter((s) => !onCalls.has(s));
  const command = Array.isArray(start.command) &&
      typeof start.command[0] === "string"
    ? start.command[0].split("/").at(-1)
    : undefined;
  const truncated = end?.kind === "end" && end.truncated === true;
  const root: Span = {
    traceId: sessionTrace,
    spanId: rootId,
    name: "proxy session",
    kind: "internal",
    start: at(0),
    end: at(sessionEnd),
    attributes: {
      [GUARDLAB.source]: "proxy",
      [GUARDLAB.record]: input.file,
      [GUARDLAB.server]: command,
      [GUARDLAB.truncated]: truncated,
    },
    events: rootSteps.map((s) => stepEvent(s, at, lang)),
  };
  const agentSpans = input.agent === undefined
    ? []
    : await agentSpansOf(input, sessionTrace, rootId);
  return {
    resource: { [GUARDLAB.source]: "proxy" },
    spans: [root, ...spans, ...agentSpans],
  };
}

/** A step of the screen as an event, in its words. */
function stepEvent(
  step: ProxyStep,
  at: (t: number) => Nanos,
  lang: Lang,
): SpanEvent {
  const t = step.t ?? step.at_ms ?? 0;
  if (step.effect !== undefined) {
    return {
      name: step.visible !== undefined
        ? "guardlab.effect_visible"
        : "guardlab.effect_read",
      time: at(t),
      attributes: {
        [GUARDLAB.job]: step.effect.key,
        [GUARDLAB.effectCount]: step.effect.count ?? undefined,
        [GUARDLAB.calls]: step.effect.calls.map(String),
        [GUARDLAB.note]: say(step.text, lang),
      },
    };
  }
  return {
    name: `guardlab.${step.lane}.${step.kind}`,
    time: at(t),
    attributes: { [GUARDLAB.note]: say(step.text, lang) },
  };
}

/** An agents-core id as OTLP wants it: the hex after its prefix, a span's first 16 digits. */
function agentsId(value: unknown, prefix: "trace_" | "span_"): string | null {
  if (typeof value !== "string") return null;
  const m = prefix === "trace_"
    ? /^trace_([0-9a-f]{32})$/.exec(value)
    : /^span_([0-9a-f]{16})[0-9a-f]*$/.exec(value);
  const id = m?.[1] ?? null;
  return prefix === "trace_"
    ? (isTraceId(id) ? id : null)
    : isSpanId(id)
    ? id
    : null;
}

type SpanLine = Extract<AgentLine, { kind: "span_start" | "span_end" }>;

/**
 * The agent's spans (see the module doc): each function, turn and
 * guardrail span of the agent record, with the SDK's own ids where the
 * record has them (else ids derived under the session), each tool
 * guardrail and MCP call an event of its function span.
 */
async function agentSpansOf(
  input: ProxyTraceInput,
  sessionTrace: string,
  rootId: string,
): Promise<Span[]> {
  const agent = input.agent!;
  const merged = mergedTimeline(input.lines, agent, input.oracle);
  const proxyEpoch = (input.lines[0] as StartLine).epoch_ms ?? 0;
  const shift = merged.offsetMs + merged.shiftMs;
  const at = (t: number): Nanos => nanosOfMillis(proxyEpoch + t + shift);
  const { starts, ends, events, last } = agentLines(agent, at);
  const spans: Span[] = [];
  for (const [id, s] of starts) {
    const e = ends.get(id);
    const trace = agentsId(s.trace, "trace_");
    const own = agentsId(id, "span_");
    const traceId = trace ?? sessionTrace;
    const spanId = trace !== null && own !== null
      ? own
      : await derivedSpanId(sessionTrace, ["agent", id]);
    const parent = trace === null
      ? rootId
      : agentsId(s.parent, "span_") ?? undefined;
    const name = s.name ?? e?.name ?? "?";
    const attributes: Attributes = s.type === "function"
      ? {
        [OTEL.genAiOperationName]: OTEL_VALUE.executeTool,
        [OTEL.genAiToolName]: name,
        [GUARDLAB.told]: e?.output ?? undefined,
      }
      : s.type === "guardrail"
      ? {
        [GUARDLAB.guardrail]: name,
        [GUARDLAB.verdict]: e?.triggered === true
          ? "triggered"
          : e?.triggered === false
          ? "passed"
          : undefined,
      }
      : { [GUARDLAB.turn]: s.turn ?? undefined };
    spans.push({
      traceId,
      spanId,
      ...(parent === undefined ? {} : { parentSpanId: parent }),
      name: s.type === "function"
        ? `${OTEL_VALUE.executeTool} ${name}`
        : s.type === "guardrail"
        ? `guardrail ${name}`
        : `agent turn ${s.turn ?? "?"}`,
      kind: "internal",
      start: at(s.t),
      end: at(e?.t ?? last),
      attributes: {
        ...attributes,
        [OTEL.errorType]: e?.error ? OTEL_VALUE.other : undefined,
      },
      events: events.get(id) ?? [],
      error: e?.error ?? undefined,
    });
  }
  return spans;
}

/**
 * An agent record's lines gathered: each span's start and end line by its
 * id, the events of each span (its tool guardrails, its MCP calls and
 * their results), and the record's last moment.
 */
function agentLines(
  agent: readonly AgentLine[],
  at: (t: number) => Nanos,
): {
  starts: Map<string, SpanLine>;
  ends: Map<string, SpanLine>;
  events: Map<string, SpanEvent[]>;
  last: number;
} {
  const starts = new Map<string, SpanLine>();
  const ends = new Map<string, SpanLine>();
  const events = new Map<string, SpanEvent[]>();
  const results = new Map<number, Extract<AgentLine, { kind: "mcp_result" }>>();
  const event = (span: string | null, e: SpanEvent) => {
    if (span === null) return;
    const list = events.get(span);
    if (list === undefined) events.set(span, [e]);
    else list.push(e);
  };
  let last = 0;
  for (const line of agent) {
    if ("t" in line) last = Math.max(last, line.t);
    if (line.kind === "mcp_result") results.set(line.n, line);
  }
  for (const line of agent) {
    switch (line.kind) {
      case "span_start":
        if (!starts.has(line.span)) starts.set(line.span, line);
        break;
      case "span_end":
        if (!ends.has(line.span)) ends.set(line.span, line);
        break;
      case "tool_guardrail":
        event(line.span, {
          name: "guardlab.tool_guardrail",
          time: at(line.t),
          attributes: {
            [GUARDLAB.stage]: line.stage,
            [GUARDLAB.guardrail]: line.name,
            [GUARDLAB.verdict]: line.decision,
            [OTEL.genAiToolCallId]: line.call_id ?? undefined,
            [GUARDLAB.note]: line.message ?? undefined,
          },
        });
        break;
      case "mcp_call": {
        event(line.span, {
          name: "guardlab.mcp_call",
          time: at(line.t),
          attributes: {
            [OTEL.genAiToolName]: line.tool,
            [GUARDLAB.call]: line.n,
          },
        });
        const result = results.get(line.n);
        if (result !== undefined) {
          event(line.span, {
            name: "guardlab.mcp_result",
            time: at(result.t),
            attributes: {
              [GUARDLAB.call]: line.n,
              [GUARDLAB.outcome]: result.outcome,
              [GUARDLAB.note]: result.error ?? undefined,
            },
          });
        }
        break;
      }
    }
  }
  return { starts, ends, events, last };
}
