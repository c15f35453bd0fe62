/**
 * A named agent host run in process, under the students' grant: the OpenAI
 * Agents SDK's core (`@openai/agents-core` 0.20.0, its `Runner`, `Agent`
 * and Streamable HTTP MCP client), against the same scripted model, tool,
 * ledger, faults and checker as `accept host` (`runHostCase`). No socket
 * and no process: the host's MCP client is handed a `fetch` that passes
 * each `Request` to the tool's own HTTP handler (the URL is never
 * resolved; the grant has no net, so anything that tried would fail), and
 * its model is an agents-core `Model` that turns each request's input
 * items into the chat body the scripted model reads, and its answer back
 * into output items. What the host told the model, whether it resent or
 * cancelled, and the ledger counted again from its file are judged by
 * `judgeHostCase`, as for a host guardlab starts.
 *
 * Every wait is bounded: the host's MCP timeout
 * ({@linkcode HOST_EXAMPLE_TIMEOUT_MS}), the whole run
 * ({@linkcode HOST_EXAMPLE_RUN_MS}, then its `AbortSignal`), the close; a
 * reply still withheld at the end is released. Tracing is off.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import { join } from "../base/path.ts";
import { scratchFolder } from "../sandbox/scratch.ts";
import { within } from "../wire/server_process.ts";
import type { HostCaseName, HostExampleName, HostVariant } from "./cases.ts";
import { cutText, HostLog } from "./_host_log.ts";
import { HostLedger, HostTool } from "./_host_tool.ts";
import { ScriptedModel } from "./_host_model.ts";
import { toolHttpHandler } from "./_host_serve.ts";
import { judgedCase, planFor } from "./host.ts";
import type { HostCaseResult } from "./host_report.ts";
import { HOST_EXAMPLE_RUN_MS, HOST_EXAMPLE_TIMEOUT_MS } from "./limits.ts";

/** The URL the host is told the tool is at: never resolved (its fetch is guardlab's). */
export const EXAMPLE_TOOL_URL = "http://guardlab.invalid/mcp";

/** How a host run in process is set up. */
export interface HostExampleOptions {
  /** The granted temp folder, where the case's private folder is made. */
  readonly base: string;
  /** The whole run's limit, in ms (default {@linkcode HOST_EXAMPLE_RUN_MS}). */
  readonly runMs?: number;
  /** Called with the ledger's path after the host is gone, before the folder is: a test reads the store itself. */
  readonly onLedger?: (path: string) => void;
}

/**
 * Run host `name` in process on one case of `accept host` against one
 * variant of the tool, and judge it: the row `accept host` prints. Its
 * timeline is `runHostCase`'s, with the host's process replaced by a run
 * in this one.
 */
export function runHostExample(
  name: HostExampleName,
  caseName: HostCaseName,
  variant: HostVariant,
  options: HostExampleOptions,
): Promise<HostCaseResult> {
  return HOST_RUNS[name](caseName, variant, options);
}

/** How each host is run in process. */
const HOST_RUNS: Readonly<
  Record<
    HostExampleName,
    (
      caseName: HostCaseName,
      variant: HostVariant,
      options: HostExampleOptions,
    ) => Promise<HostCaseResult>
  >
> = { "agents-core": runAgentsCore };

/**
 * `@openai/agents-core` 0.20.0 with its defaults but the MCP timeout: its
 * `Runner` (tracing off) runs an `Agent` whose model is the scripted one
 * and whose one MCP server is the tool, over Streamable HTTP in process.
 */
async function runAgentsCore(
  caseName: HostCaseName,
  variant: HostVariant,
  options: HostExampleOptions,
): Promise<HostCaseResult> {
  const started = performance.now();
  // Loaded here, only when a host runs: agents-core is no command's otherwise.
  const sdk = await import("./_agents_sdk.ts");
  await using folder = scratchFolder(options.base);
  const log = new HostLog();
  const plan = planFor(caseName, variant, "http");
  log.record(plan);
  const ledger = new HostLedger(join(folder.path, "ledger.jsonl"), variant);
  const tool = new HostTool(log, plan, ledger);
  const model = new ScriptedModel(log, plan, () => tool.giveUp("told"));
  const handler = toolHttpHandler(tool, new URL(EXAMPLE_TOOL_URL).pathname);
  const said: string[] = [];
  const server = new sdk.MCPServerStreamableHttp({
    logger: quietLogger(said),
    url: EXAMPLE_TOOL_URL,
    fetch: inProcessFetch(handler),
    timeout: HOST_EXAMPLE_TIMEOUT_MS,
    clientSessionTimeoutSeconds: HOST_EXAMPLE_TIMEOUT_MS / 1000 * 5,
    // agents-core's default: the tool list is asked again each turn, as
    // the host runners of chapter 10 do.
    cacheToolsList: false,
  });
  const stop = new AbortController();
  const limit = options.runMs ?? HOST_EXAMPLE_RUN_MS;
  log.record({ op: "process", who: "host", event: "start" });
  const run = (async () => {
    await server.connect();
    const agent = new sdk.Agent({
      name: "guardlab-exercise",
      instructions: "Write the row the user asks for with the tool.",
      model: scriptedModel(model, sdk.Usage),
      mcpServers: [server],
    });
    const runner = new sdk.Runner({ tracingDisabled: true });
    await runner.run(agent, "Write one row of 5 to the ledger.", {
      maxTurns: 6,
      signal: stop.signal,
    });
  })().then(() => 0, (error: unknown) => error);
  // The host's own end, or the limit: then its run is aborted, and waited
  // for once more (a host that ignores its signal is left, not awaited).
  let ended = await within(run, limit, "limit" as const);
  if (ended === "limit") {
    // Recorded before the abort: what the host sends in answer to it (its
    // MCP client cancels the call in flight with the abort's reason) comes
    // after guardlab's stop, and the checker does not count it as the
    // host's own.
    log.record({ op: "process", who: "host", event: "limit" });
    stop.abort();
    await within(run, HOST_EXAMPLE_TIMEOUT_MS, undefined);
  } else {
    log.record({
      op: "process",
      who: "host",
      event: "exit",
      code: ended === 0 ? 0 : 1,
    });
  }
  // Every answer still withheld is released, then the host's client closed.
  tool.close();
  await within(server.close().catch(() => {}), HOST_EXAMPLE_TIMEOUT_MS, null);
  const { history, judged, clients } = await judgedCase(
    log,
    plan,
    tool.ledger.path,
    folder.path,
    options.onLedger,
  );
  if (ended !== 0 && ended !== "limit") ended = thrownLine(ended);
  return {
    case: caseName,
    variant,
    transport: "http",
    ...judged,
    clients,
    key: plan.key,
    new_key: plan.new_key,
    ms: Math.round(performance.now() - started),
    host_output: typeof ended === "string" && ended !== "limit"
      ? [...said, ended]
      : said,
    history,
  };
}

/** The most lines kept of what a host run in process logged. */
const MAX_SAID_LINES = 20;

/**
 * A logger for the host's MCP client that writes nothing to guardlab's
 * screen: its warnings and errors are kept in `said` (the row's host
 * output), each one inert line, at most {@linkcode MAX_SAID_LINES}.
 */
function quietLogger(said: string[]) {
  const keep = (message: string, ...args: unknown[]) => {
    if (said.length >= MAX_SAID_LINES) return;
    // An error says what it is (its name and message, cut and made inert
    // below); any other value only its type: nothing the host holds is dumped.
    const rest = args.map((a) =>
      typeof a === "string"
        ? a
        : a instanceof Error
        ? `${a.name}: ${a.message}`
        : typeof a
    );
    said.push(cutText([message, ...rest].join(" ").split("\n")[0], 200));
  };
  return {
    namespace: "guardlab",
    debug: () => {},
    error: keep,
    warn: keep,
    dontLogModelData: true,
    dontLogToolData: true,
  };
}

/** What a host's run threw, as one inert line. */
function thrownLine(error: unknown): string {
  const text = error instanceof Error
    ? `${error.name}: ${error.message}`
    : String(error);
  return cutText(text.split("\n")[0], 200);
}

/**
 * A `fetch` that hands each request to `handler` in this process, as a
 * socket would: an aborted request (the host's timeout, its close) is
 * rejected at once with the signal's reason, whatever the handler still
 * holds.
 */
export function inProcessFetch(
  handler: (request: Request) => Promise<Response>,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const request = new Request(input, init);
    const signal = request.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      const aborted = () => reject(signal.reason);
      signal.addEventListener("abort", aborted, { once: true });
      handler(request).then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", aborted)
      );
    });
  };
}

/** One input item of agents-core's model request, as far as the chat body needs it. */
type Item = Record<string, unknown>;

/**
 * agents-core's model request as the chat-completions body the scripted
 * model reads: the messages (a `function_call` as the assistant's tool
 * call, a `function_call_result` as the tool's message) and the tools
 * offered, by name.
 */
export function chatBodyOf(
  request: { input: unknown; tools?: readonly unknown[] },
): Record<string, unknown> {
  const items: unknown[] = typeof request.input === "string"
    ? [{ type: "message", role: "user", content: request.input }]
    : Array.isArray(request.input)
    ? request.input
    : [];
  const messages = items.filter(isPlainRecord).map((item: Item) => {
    if (item.type === "function_call") {
      return {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: item.callId,
          type: "function",
          function: { name: item.name, arguments: item.arguments },
        }],
      };
    }
    if (item.type === "function_call_result") {
      return {
        role: "tool",
        tool_call_id: item.callId,
        content: outputText(item.output),
      };
    }
    return { role: item.role ?? "user", content: item.content ?? "" };
  });
  const tools = (request.tools ?? []).filter(isPlainRecord).map((t) => ({
    type: "function",
    function: { name: t.name },
  }));
  return { messages, tools };
}

/** A function call's output as text: a string, a text part, or a list of them. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  const parts = Array.isArray(output) ? output : [output];
  return parts.map((p) =>
    isPlainRecord(p) && typeof p.text === "string" ? p.text : JSON.stringify(p)
  ).join("\n");
}

/** The scripted model as an agents-core `Model`: its answer as one turn's output items. */
function scriptedModel(
  model: ScriptedModel,
  Usage: new () => unknown,
): import("./_agents_sdk.ts").Model {
  return {
    getResponse(request) {
      const answer = model.answer(chatBodyOf(request));
      const output = answer.call === undefined
        ? [{
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "done" }],
        }]
        : [{
          type: "function_call",
          callId: answer.call.id,
          name: answer.call.name,
          arguments: answer.call.arguments,
          status: "completed",
        }];
      return Promise.resolve(
        {
          usage: new Usage(),
          output,
        } as unknown as import("./_agents_sdk.ts").ModelResponse,
      );
    },
    getStreamedResponse() {
      throw new Error("the scripted model answers only non-streamed runs");
    },
  };
}
