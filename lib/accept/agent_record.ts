/**
 * The agent record: what an `@openai/agents-core` agent did, written by
 * guardlab's agent hook (`lib/accept/agent_hook.mjs`, printed by
 * `guardlab proxy --print-agent-hook`): model turns, function calls,
 * agent-level guardrails (from the SDK's spans), each tool guardrail's
 * decision and each MCP call (from the hook's wrappers, since the SDK makes
 * no span for them). Read here as hostile input: bounded before it is read,
 * every field checked, every text cut, unknown lines skipped, and
 * gathered into turns, agent guardrails and calls (`agent_match.ts` then
 * matches the calls with the proxy's).
 *
 * @module
 */
import { canonicalJson } from "../base/json.ts";
import { jsonLinesIn } from "../base/jsonl.ts";
import type { Oracle } from "./oracle.ts";
import { retryKey } from "./retry_rule.ts";
import {
  MAX_AGENT_TEXT_CHARS,
  MAX_RECORD_LINES,
  MAX_RECORDED_MESSAGE_BYTES,
} from "./limits.ts";

/** A span kind the hook records. */
export type SpanKind = "function" | "guardrail" | "turn";

/** How an MCP call ended, as the hook saw it. */
export type McpOutcome =
  | "success"
  | "tool-error"
  | "timeout"
  | "aborted"
  | "error";

/** A tool guardrail's decision: the SDK's behavior names, or `error` when the guardrail itself threw. */
export type Decision = "allow" | "rejectContent" | "throwException" | "error";

/** One line of an agent record, checked. */
export type AgentLine =
  | {
    readonly kind: "start";
    readonly epoch_ms: number;
    readonly runtime: string | null;
  }
  | {
    readonly kind: "span_start" | "span_end";
    readonly t: number;
    readonly type: SpanKind;
    readonly span: string;
    /** The SDK's trace id (`trace_` and 32 hex) and its parent span's id, as the hook noted them. */
    readonly trace: string | null;
    readonly parent: string | null;
    readonly name: string | null;
    readonly turn: number | null;
    /** span_end of a function: its input, what the model is told, its MCP server. */
    readonly input: string | null;
    readonly output: string | null;
    readonly mcp_server: string | null;
    /** span_end of an agent guardrail. */
    readonly triggered: boolean | null;
    readonly error: string | null;
  }
  | {
    readonly kind: "tool_guardrail";
    readonly t: number;
    readonly began: number;
    readonly stage: "input" | "output";
    readonly name: string;
    readonly tool: string;
    readonly call_id: string | null;
    readonly arguments: string | null;
    readonly span: string | null;
    readonly decision: Decision;
    readonly message: string | null;
    readonly output: string | null;
  }
  | {
    readonly kind: "mcp_call";
    readonly t: number;
    readonly n: number;
    readonly server: string | null;
    readonly tool: string;
    /** The arguments' canonical JSON, or null when they were too long to keep. */
    readonly arguments: string | null;
    readonly span: string | null;
  }
  | {
    readonly kind: "mcp_result";
    readonly t: number;
    readonly n: number;
    readonly outcome: McpOutcome;
    readonly error: string | null;
  }
  | { readonly kind: "full" | "end"; readonly t: number };

/** The largest time from a record's start it may state: about 30 years in ms, either way. */
const MAX_T = 1e12;

/** The latest wall-clock start an agent record may state (Unix ms: the year 5138). */
const MAX_EPOCH_MS = 1e14;

/** A text field, cut at the hook's bound; null when absent or not a string. */
function str(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return value.length > MAX_AGENT_TEXT_CHARS
    ? value.slice(0, MAX_AGENT_TEXT_CHARS) + "…"
    : value;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) &&
      Math.abs(value) <= MAX_T
    ? value
    : null;
}

/** The most characters of a name (a tool's, a guardrail's) a screen shows: OpenAI's bound on a function name. */
export const MAX_SHOWN_NAME = 64;

/** A name as a screen shows it: at most {@linkcode MAX_SHOWN_NAME} characters. */
export function shownName(name: string): string {
  return name.length > MAX_SHOWN_NAME
    ? name.slice(0, MAX_SHOWN_NAME) + "…"
    : name;
}

/** Arguments as canonical JSON: from their JSON text, or the value itself. */
export function argumentsKey(value: unknown): string | null {
  try {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    return parsed === undefined ? null : canonicalJson(parsed);
  } catch {
    return null;
  }
}

const SPAN_KINDS: readonly string[] = ["function", "guardrail", "turn"];
const DECISIONS: readonly string[] = [
  "allow",
  "rejectContent",
  "throwException",
  "error",
];
const OUTCOMES: readonly string[] = [
  "success",
  "tool-error",
  "timeout",
  "aborted",
  "error",
];

/** One parsed line checked into its kind; null when it is not one, `skip` for a kind this guardlab does not know. */
function checked(value: Record<string, unknown>): AgentLine | null | "skip" {
  const t = num(value.t);
  switch (value.kind) {
    case "start": {
      const epoch = typeof value.epoch_ms === "number" &&
          value.epoch_ms > 0 && value.epoch_ms < MAX_EPOCH_MS
        ? value.epoch_ms
        : null;
      if (value.guardlab_agent !== 1 || epoch === null) return null;
      return { kind: "start", epoch_ms: epoch, runtime: str(value.runtime) };
    }
    case "span_start":
    case "span_end": {
      const span = str(value.span);
      if (
        t === null || span === null || !SPAN_KINDS.includes(String(value.type))
      ) return null;
      return {
        kind: value.kind,
        t,
        type: value.type as SpanKind,
        span,
        trace: str(value.trace),
        parent: str(value.parent),
        name: str(value.name),
        turn: num(value.turn),
        input: str(value.input),
        output: str(value.output),
        mcp_server: str(value.mcp_server),
        triggered: typeof value.triggered === "boolean"
          ? value.triggered
          : null,
        error: str(value.error),
      };
    }
    case "tool_guardrail": {
      const began = num(value.began);
      if (
        t === null || began === null ||
        (value.stage !== "input" && value.stage !== "output") ||
        !DECISIONS.includes(String(value.decision))
      ) return null;
      return {
        kind: "tool_guardrail",
        t,
        began,
        stage: value.stage,
        name: str(value.name) ?? "?",
        tool: str(value.tool) ?? "?",
        call_id: str(value.call_id),
        // Whole, not cut: the arguments are what calls are matched by.
        arguments: typeof value.arguments === "string"
          ? argumentsKey(value.arguments)
          : null,
        span: str(value.span),
        decision: value.decision as Decision,
        message: str(value.message),
        output: str(value.output),
      };
    }
    case "mcp_call": {
      const n = num(value.n);
      if (t === null || n === null || typeof value.tool !== "string") {
        return null;
      }
      return {
        kind: "mcp_call",
        t,
        n,
        server: str(value.server),
        tool: str(value.tool)!,
        arguments: "arguments" in value ? argumentsKey(value.arguments) : null,
        span: str(value.span),
      };
    }
    case "mcp_result": {
      const n = num(value.n);
      if (
        t === null || n === null || !OUTCOMES.includes(String(value.outcome))
      ) {
        return null;
      }
      return {
        kind: "mcp_result",
        t,
        n,
        outcome: value.outcome as McpOutcome,
        error: str(value.error),
      };
    }
    case "full":
    case "end":
      return t === null ? null : { kind: value.kind, t };
    default:
      return "skip";
  }
}

/**
 * The lines of an agent record's text (already bounded in bytes by the
 * reader), or the number of the first line that is not one: the first line
 * is the start line, each line is at most 64 KiB, at most 100000 lines.
 * Lines of a kind this guardlab does not know are skipped.
 */
export function parseAgentRecord(text: string): AgentLine[] | { bad: number } {
  const out: AgentLine[] = [];
  const bounds = {
    maxLineBytes: MAX_RECORDED_MESSAGE_BYTES,
    maxLines: MAX_RECORD_LINES,
  };
  for (const read of jsonLinesIn(text, bounds)) {
    const bad = { bad: read.number };
    if ("problem" in read) return bad;
    const line = checked(read.value);
    if (line === null) return bad;
    if (out.length === 0 && (line === "skip" || line.kind !== "start")) {
      return bad;
    }
    if (line === "skip") continue;
    if (line.kind === "start" && out.length > 0) return bad;
    out.push(line);
  }
  return out.length === 0 ? { bad: 1 } : out;
}

/** One tool guardrail's run on a call. */
export interface GuardrailRun {
  /** Input or output. */
  readonly stage: "input" | "output";
  /** The guardrail's name. */
  readonly name: string;
  /** What it decided. */
  readonly decision: Decision;
  /** The rejection message (rejectContent) or the error it threw. */
  readonly message: string | null;
  /** What an output guardrail was handed, as text. */
  readonly output: string | null;
  /** When it began and when it decided, in the agent record's ms. */
  readonly began: number;
  /** When it decided. */
  readonly t: number;
  /** Its line in the agent record (orders events with the same time). */
  readonly seq: number;
}

/** One function call the agent made, with everything the record says of it. */
export interface AgentCall {
  /** Its number in the agent record, from 1, in the order the calls began. */
  readonly n: number;
  /** The tool's name. */
  readonly tool: string;
  /** The model's call id, when a guardrail saw it. */
  callId: string | null;
  /** The arguments' canonical JSON, when known. */
  args: string | null;
  /** When its function span began. */
  start: number | null;
  /** When its function span ended. */
  end: number | null;
  /** The line of its span's start. */
  startSeq: number;
  /** The line of its span's end. */
  endSeq: number;
  /** What the model is told (the function span's output). */
  told: string | null;
  /** The function span's error message. */
  error: string | null;
  /** The tool guardrails that ran on it, in order. */
  readonly guardrails: GuardrailRun[];
  /** The MCP call it made, when the hook watched its server. */
  mcp:
    | {
      readonly n: number;
      readonly t: number;
      readonly seq: number;
      /** The server's name, as the hook noted it. */
      readonly server: string | null;
      readonly tool: string;
      readonly args: string | null;
      result:
        | { t: number; seq: number; outcome: McpOutcome; error: string | null }
        | null;
    }
    | null;
  /** The earlier call with the same tool and arguments, when this one repeats it after that one ended. */
  retryOf: number | null;
  /** The earlier call with the same tool and arguments, when this one began while that one was still open (the model asked for both at once): no retry. */
  sentWhileOpen: number | null;
  /** The call number guardlab proxy gave it, when it reached the proxy. */
  proxyCall: number | null;
}

/** What an agent record says, gathered: turns, agent guardrails, calls. */
export interface AgentStory {
  /** The wall-clock time of the record's t = 0 (Unix ms). */
  readonly epochMs: number;
  /** Model turns: their number, when each began, its line. */
  readonly turns: {
    readonly turn: number;
    readonly t: number;
    readonly seq: number;
  }[];
  /** Agent-level guardrails (spans): name, tripwire, when they ended, the line. */
  readonly agentGuardrails: {
    readonly name: string;
    readonly triggered: boolean | null;
    readonly t: number;
    readonly seq: number;
  }[];
  /** The function calls, in the order they began. */
  readonly calls: AgentCall[];
  /** Whether the hook stopped at its bound. */
  readonly full: boolean;
  /** Whether the record has spans at all (the SDK's tracing was on). */
  readonly traced: boolean;
}

/** Whether a tool input guardrail stopped the call before it could leave (it decided anything but allow). */
export function refusedBeforeSending(call: AgentCall): boolean {
  return call.guardrails.some((g) =>
    g.stage === "input" && g.decision !== "allow"
  );
}

/**
 * Whether a call left the agent for an MCP server: it made an MCP call of
 * a watched server, or (no server watched) no input guardrail refused it.
 * A call that did not may still have run: a function tool's.
 */
export function leftTheAgent(call: AgentCall, watched: boolean): boolean {
  if (watched) return call.mcp !== null;
  return !refusedBeforeSending(call);
}

/**
 * Gather an agent record's lines into its turns, agent guardrails and
 * calls; a call's retries are found by `oracle`'s keys (`retry_rule.ts`),
 * else by the same arguments.
 */
export function agentStory(
  lines: readonly AgentLine[],
  oracle?: Oracle,
): AgentStory {
  const start = lines[0];
  const story = new StoryBuilder({
    epochMs: start.kind === "start" ? start.epoch_ms : 0,
    turns: [],
    agentGuardrails: [],
    calls: [],
    full: lines.some((l) => l.kind === "full"),
    traced: lines.some((l) => l.kind === "span_start"),
  });
  for (const [seq, line] of lines.entries()) {
    switch (line.kind) {
      case "span_start":
        story.spanStarted(line, seq);
        break;
      case "span_end":
        story.spanEnded(line, seq);
        break;
      case "tool_guardrail":
        story.guardrailRan(line, seq);
        break;
      case "mcp_call":
        story.mcpCalled(line, seq);
        break;
      case "mcp_result":
        story.mcpAnswered(line, seq);
        break;
    }
  }
  markRetries(story.story, oracle);
  return story.story;
}

/** One kind of an agent record's line. */
type LineOf<K extends AgentLine["kind"]> = Extract<AgentLine, { kind: K }>;

/** A span's start or end line (the two share one shape). */
type SpanLine = Extract<AgentLine, { kind: "span_start" | "span_end" }>;

/** An agent story as its lines are read: each call found by its span, its call id or its MCP call. */
class StoryBuilder {
  readonly story: AgentStory;
  readonly #bySpan = new Map<string, AgentCall>();
  readonly #byCallId = new Map<string, AgentCall>();
  readonly #byMcp = new Map<number, NonNullable<AgentCall["mcp"]>>();
  /**
   * Per tool, the calls that may still go out, latest last (for MCP calls
   * without a span: the SDK's tracing was off).
   */
  readonly #outgoing = new Map<string, AgentCall[]>();

  constructor(story: AgentStory) {
    this.story = story;
  }

  /** A model turn begins, or a function tool's call does. */
  spanStarted(line: SpanLine, seq: number): void {
    if (line.type === "turn") {
      this.story.turns.push({
        turn: line.turn ?? this.story.turns.length + 1,
        t: line.t,
        seq,
      });
    } else if (line.type === "function" && !this.#bySpan.has(line.span)) {
      const call = this.#newCall(line.name ?? "?");
      call.start = line.t;
      call.startSeq = seq;
      this.#bySpan.set(line.span, call);
    }
  }

  /** An agent guardrail ran, or a function tool's call ended (with what the model is told). */
  spanEnded(line: SpanLine, seq: number): void {
    if (line.type === "guardrail") {
      this.story.agentGuardrails.push({
        name: line.name ?? "?",
        triggered: line.triggered,
        t: line.t,
        seq,
      });
    } else if (line.type === "function") {
      const call = this.#bySpan.get(line.span);
      if (call === undefined || call.end !== null) return;
      call.end = line.t;
      call.endSeq = seq;
      call.told = line.output;
      call.error = line.error;
      call.args ??= line.input === null ? null : argumentsKey(line.input);
    }
  }

  /** A tool guardrail decided on a call: found by its span or call id, else a call of its own. */
  guardrailRan(line: LineOf<"tool_guardrail">, seq: number): void {
    let call = (line.span !== null ? this.#bySpan.get(line.span) : undefined) ??
      (line.call_id !== null ? this.#byCallId.get(line.call_id) : undefined);
    if (call === undefined) {
      call = this.#newCall(line.tool);
      if (line.span !== null) this.#bySpan.set(line.span, call);
    }
    if (line.call_id !== null && call.callId === null) {
      call.callId = line.call_id;
      this.#byCallId.set(line.call_id, call);
    }
    call.args ??= line.arguments;
    call.guardrails.push({
      stage: line.stage,
      name: line.name,
      decision: line.decision,
      message: line.message,
      output: line.output,
      began: line.began,
      t: line.t,
      seq,
    });
  }

  /** An MCP call left the agent: the call of its span, else the latest of its tool that may still go out. */
  mcpCalled(line: LineOf<"mcp_call">, seq: number): void {
    let call = line.span !== null ? this.#bySpan.get(line.span) : undefined;
    if (call === undefined) {
      // Without a span: the latest call of that tool that may still go
      // out (one that cannot any more never can again).
      const stack = this.#outgoing.get(line.tool) ?? [];
      while (stack.length > 0 && !mayGoOut(stack.at(-1)!)) stack.pop();
      call = stack.at(-1);
    }
    if (call === undefined || call.mcp !== null) {
      call = this.#newCall(line.tool);
    }
    call.mcp = {
      n: line.n,
      t: line.t,
      seq,
      server: line.server,
      tool: line.tool,
      args: line.arguments,
      result: null,
    };
    call.args ??= line.arguments;
    this.#byMcp.set(line.n, call.mcp);
  }

  /** An MCP call's result came back to the agent (the first one counts). */
  mcpAnswered(line: LineOf<"mcp_result">, seq: number): void {
    const mcp = this.#byMcp.get(line.n);
    if (mcp !== undefined && mcp.result === null) {
      mcp.result = {
        t: line.t,
        seq,
        outcome: line.outcome,
        error: line.error,
      };
    }
  }

  #newCall(tool: string): AgentCall {
    const call: AgentCall = {
      n: this.story.calls.length + 1,
      tool,
      callId: null,
      args: null,
      start: null,
      end: null,
      startSeq: 0,
      endSeq: 0,
      told: null,
      error: null,
      guardrails: [],
      mcp: null,
      retryOf: null,
      sentWhileOpen: null,
      proxyCall: null,
    };
    this.story.calls.push(call);
    const stack = this.#outgoing.get(tool) ?? [];
    stack.push(call);
    this.#outgoing.set(tool, stack);
    return call;
  }
}

/** Whether a call may still go out: no MCP call yet, and no output guardrail or refusal seen. */
function mayGoOut(c: AgentCall): boolean {
  return c.mcp === null &&
    !c.guardrails.some((g) => g.stage === "output" || g.decision !== "allow");
}

/** A call's arguments as recorded (a JSON text); the text itself when it is not JSON (a hostile record's). */
function argumentsOf(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * Mark each call that repeats an earlier one, by the one rule of
 * `retry_rule.ts`: it repeats the last earlier call of the same tool and
 * key, which its input guardrail may have refused (the agent asked again
 * all the same).
 * A call that began before the earlier one ended went beside it (two
 * calls of one model turn): nothing had failed yet, so it retries nothing.
 */
function markRetries(story: AgentStory, oracle: Oracle | undefined): void {
  const last = new Map<string, AgentCall>();
  for (const call of story.calls) {
    const key = call.args === null
      ? null
      : retryKey(oracle, call.tool, argumentsOf(call.args));
    if (key === null) continue;
    const earlier = last.get(key);
    last.set(key, call);
    if (earlier === undefined) continue;
    if (stillOpen(earlier, call)) call.sentWhileOpen = earlier.n;
    else call.retryOf = earlier.n;
  }
}

/**
 * Whether `later` began while `earlier` was still open: before its
 * function span, else its MCP call, ended (or the record never saw it
 * end). Without such times (no spans, no MCP call), a retry, as before.
 */
function stillOpen(earlier: AgentCall, later: AgentCall): boolean {
  const began = later.start ?? later.mcp?.t ?? null;
  if (began === null || (earlier.start === null && earlier.mcp === null)) {
    return false;
  }
  const ended = earlier.end ?? earlier.mcp?.result?.t ?? null;
  return ended === null || began < ended;
}
