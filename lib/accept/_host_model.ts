/**
 * The model `accept host` plays: an OpenAI chat-completions endpoint on
 * loopback, scripted. Like a real model it keeps no state: each answer is a
 * function of the request.
 * - The write tool is offered (by its name, or a host's prefix of it:
 *   `mcp__guardlab__write_row`) and no result for the first call is in the
 *   conversation: ask for the first call, `{key, amount: 5}`.
 * - The first call's result is there and is not the tool's success: a
 *   naive model reads any other text as a failure and asks again under a
 *   new key.
 * - Otherwise (a success, the second call's result, a request that does
 *   not offer the tool): answer "done".
 * Every request is recorded with the tool results it carried: what the
 * host told the model. JSON, or server-sent events for `stream: true`
 * (qwen-code streams every request). Only requests that carry the run's
 * API key are answered; every body is bounded, and so is every wait.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import { parseJson } from "../wire/message.ts";
import { readStreamUpTo } from "../sandbox/read_bounded.ts";
import {
  type ModelReply,
  type ModelResult,
  type PlanRecord,
  WRITE_TOOL,
} from "./_host_history.ts";
import { cutText, type HostLog } from "./_host_log.ts";
import { toldOf } from "./_host_checker.ts";
import { MAX_MODEL_BODY_BYTES, MAX_TOLD_TEXT } from "./limits.ts";

/** The ids the model gives its two calls. */
export const CALL_IDS = ["call_guardlab_1", "call_guardlab_2"] as const;

/** The id of the model's answer to its request `n` (a trace's `gen_ai.response.id`). */
export function responseIdOf(n: number): string {
  return `chatcmpl-guardlab-${n}`;
}

/** The amount every call carries. */
export const AMOUNT = 5;

/** What the model answered, as a chat completion's message. */
export interface ModelAnswer {
  /** The request's number, as recorded. */
  readonly request: number;
  /** The record's reply. */
  readonly reply: ModelReply;
  /** The tool call asked for (with the name the host offered the tool under). */
  readonly call?: {
    readonly id: string;
    readonly name: string;
    readonly arguments: string;
  };
}

/** Whether a tool name offered to the model is the write tool, as is or behind a host's prefix. */
export function isWriteTool(name: unknown): name is string {
  return typeof name === "string" &&
    (name === WRITE_TOOL ||
      (name.endsWith(WRITE_TOOL) &&
        !/[A-Za-z0-9]/.test(name[name.length - WRITE_TOOL.length - 1])));
}

/** The scripted model of one case. */
export class ScriptedModel {
  #requests = 0;
  #toldFirst = false;

  /** The model of `plan`'s case; `told` is called the first time a result for the first call arrives. */
  constructor(
    readonly log: HostLog,
    readonly plan: PlanRecord,
    readonly told: () => void,
  ) {}

  /** Answer one chat-completions request `body`, and record it. */
  answer(body: Record<string, unknown>): ModelAnswer {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const offered = tools.map(toolName).find(isWriteTool);
    const results = resultsOf(body.messages, this.plan);
    const first = results.find((r) => r.call === 1);
    const reply: ModelReply = results.some((r) => r.call === 2)
      ? "done"
      : first !== undefined
      ? (toldOf(first.text, this.plan.key) === "success" ||
          offered === undefined
        ? "done"
        : "call-2")
      : offered === undefined
      ? "done"
      : "call-1";
    const request = ++this.#requests;
    this.log.record({
      op: "model",
      request,
      ...(body.stream === true ? { stream: true as const } : {}),
      offered: offered !== undefined,
      ...(offered !== undefined && offered !== WRITE_TOOL
        ? { offered_as: cutText(offered, 128) }
        : {}),
      results,
      reply,
    });
    if (first !== undefined && !this.#toldFirst) {
      this.#toldFirst = true;
      this.told();
    }
    if (reply !== "call-1" && reply !== "call-2") return { request, reply };
    const n = reply === "call-1" ? 0 : 1;
    return {
      request,
      reply,
      call: {
        id: CALL_IDS[n],
        name: offered!,
        arguments: JSON.stringify({
          key: n === 0 ? this.plan.key : this.plan.new_key,
          amount: AMOUNT,
        }),
      },
    };
  }

  /** Record a request turned down (not the run's key, a body past the bound, not JSON). */
  refused(
    problem: "unauthorized" | "too-long" | "not-json" | "too-deep",
  ): void {
    this.log.record({ op: "problem", where: "model", problem });
  }
}

/** A tool's name in a request's `tools` (chat completions: `function.name`). */
function toolName(tool: unknown): unknown {
  if (!isPlainRecord(tool)) return undefined;
  return isPlainRecord(tool.function) ? tool.function.name : tool.name;
}

/** A message's text: a string, or the text parts of an array. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    return content === undefined ? "" : JSON.stringify(content);
  }
  return content.map((p) =>
    isPlainRecord(p) && typeof p.text === "string" ? p.text : JSON.stringify(p)
  ).join("\n");
}

/**
 * The tool results in `messages`, in order, each matched to the model's
 * call it answers: by the call's id, or (a host that gives calls ids of its
 * own) by the key in the arguments of the assistant call with that id.
 */
function resultsOf(messages: unknown, plan: PlanRecord): ModelResult[] {
  if (!Array.isArray(messages)) return [];
  const keyOf = new Map<string, 1 | 2>();
  for (const m of messages) {
    if (!isPlainRecord(m) || !Array.isArray(m.tool_calls)) continue;
    for (const c of m.tool_calls) {
      if (!isPlainRecord(c) || typeof c.id !== "string") continue;
      const args = isPlainRecord(c.function) ? c.function.arguments : undefined;
      const text = typeof args === "string" ? args : JSON.stringify(args ?? "");
      if (text.includes(plan.new_key)) keyOf.set(c.id, 2);
      else if (text.includes(plan.key)) keyOf.set(c.id, 1);
    }
  }
  const results: ModelResult[] = [];
  for (const m of messages) {
    if (!isPlainRecord(m) || m.role !== "tool") continue;
    const id = typeof m.tool_call_id === "string" ? m.tool_call_id : "";
    const call = id === CALL_IDS[0]
      ? 1
      : id === CALL_IDS[1]
      ? 2
      : keyOf.get(id) ?? null;
    results.push({ call, text: cutText(textOf(m.content), MAX_TOLD_TEXT) });
  }
  return results;
}

/** A chat completion of `answer`, for a request that asked for `model`. */
export function completionOf(answer: ModelAnswer, model: string, n: number) {
  const message = answer.call === undefined
    ? { role: "assistant", content: "done" }
    : {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: answer.call.id,
        type: "function",
        function: { name: answer.call.name, arguments: answer.call.arguments },
      }],
    };
  return {
    id: responseIdOf(n),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{
      index: 0,
      message,
      logprobs: null,
      finish_reason: answer.call === undefined ? "stop" : "tool_calls",
    }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** The same answer as server-sent events (`stream: true`), with a usage chunk when asked. */
export function streamOf(
  answer: ModelAnswer,
  model: string,
  n: number,
  usage: boolean,
): string {
  const head = {
    id: responseIdOf(n),
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const chunk = (delta: unknown, finish: string | null) => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" }, null)];
  if (answer.call === undefined) {
    chunks.push(chunk({ content: "done" }, null), chunk({}, "stop"));
  } else {
    chunks.push(
      chunk({
        tool_calls: [{
          index: 0,
          id: answer.call.id,
          type: "function",
          function: {
            name: answer.call.name,
            arguments: answer.call.arguments,
          },
        }],
      }, null),
      chunk({}, "tool_calls"),
    );
  }
  if (usage) {
    chunks.push({
      ...head,
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") +
    "data: [DONE]\n\n";
}

/** The model on loopback, serving one case: its base URL (for `OPENAI_BASE_URL`) and its end. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** Stop listening; bounded. */
  close(): Promise<void>;
}

/** A JSON response. */
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });

/** An OpenAI-shaped error. */
const apiError = (status: number, message: string) =>
  json({ error: { message, type: "invalid_request_error" } }, status);

/**
 * Serve `model` on 127.0.0.1 (a port the system picks), answering only
 * requests that carry `apiKey` as their bearer token.
 */
export function serveModel(
  model: ScriptedModel,
  apiKey: string,
  serve: (handler: (r: Request) => Promise<Response>) => {
    url: string;
    close(): Promise<void>;
  },
): ModelServer {
  const handler = async (request: Request): Promise<Response> => {
    if (request.headers.get("authorization") !== `Bearer ${apiKey}`) {
      await request.body?.cancel().catch(() => {});
      model.refused("unauthorized");
      return apiError(401, "not this run's key");
    }
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path.endsWith("/models")) {
      return json({
        object: "list",
        data: [{ id: "guardlab-model", object: "model", owned_by: "guardlab" }],
      });
    }
    if (request.method !== "POST" || !path.endsWith("/chat/completions")) {
      await request.body?.cancel().catch(() => {});
      return apiError(404, "not served here");
    }
    const { bytes, more } = await readStreamUpTo(
      request.body ?? new Blob([]).stream(),
      MAX_MODEL_BODY_BYTES,
    );
    if (more) {
      model.refused("too-long");
      return apiError(413, "request too large");
    }
    const parsed = parseJson(new TextDecoder().decode(bytes));
    if ("refused" in parsed || !isPlainRecord(parsed.value)) {
      model.refused(
        "refused" in parsed && parsed.refused === "too-deep"
          ? "too-deep"
          : "not-json",
      );
      return apiError(400, "not a chat request");
    }
    const body = parsed.value;
    const answer = model.answer(body);
    const name = typeof body.model === "string"
      ? body.model.slice(0, 128)
      : "guardlab-model";
    const n = answer.request;
    if (body.stream === true) {
      const usage = isPlainRecord(body.stream_options) &&
        body.stream_options.include_usage === true;
      return new Response(streamOf(answer, name, n, usage), {
        headers: {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
        },
      });
    }
    return json(completionOf(answer, name, n));
  };
  const server = serve(handler);
  return { baseUrl: `${server.url}/v1`, close: () => server.close() };
}
