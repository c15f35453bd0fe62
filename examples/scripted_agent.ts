/**
 * An agent wired to `guardlab mcp` with a scripted model: `@openai/agents-core`
 * runs a real `Agent` and a real `MCPServerStdio`, and the model is a script
 * (no API key, no network, nothing sent anywhere). guardlab's conformance
 * tests use the same {@linkcode ScriptedModel}.
 *
 * Run it from the checkout (`deno task example:agent`):
 *
 *     deno run -q --lock=deno.lock --frozen --allow-env --allow-run \
 *       --allow-read --allow-write=/tmp examples/scripted_agent.ts [--ledger NAME]
 *
 * Its flags go to `guardlab mcp` (`--ledger NAME` keeps the session's ledger;
 * without it, a scratch one goes with the server).
 *
 * It plays the article's remote timeout. guardlab holds call 1 after its
 * commit (a fault); the MCP client gives up after 1.5 s and sends a cancel,
 * which lands after the commit; the Agents SDK tells the model what it tells
 * it; the scripted model then does what `create_draft`'s description asks
 * (ask `ledger` by job before sending again), finds the draft, and sends
 * nothing again. It prints what the model received at each turn.
 *
 * To script a model of your own: a `Model` has `getResponse(request)` (and
 * `getStreamedResponse` for streamed runs); answer each request with the
 * output items of one turn: a `function_call` to call a tool, a `message`
 * to end. {@linkcode ScriptedModel} takes the turns as a list, or as a
 * function of what the model has been sent so far ({@linkcode Script}).
 *
 * @module
 */
import type * as AgentsCore from "@openai/agents-core";

/** The `@openai/agents-core` module. */
export type AgentsSdk = typeof AgentsCore;

/** One model turn: the output items the model answers with. */
export type Turn = readonly Record<string, unknown>[];

/**
 * What the model answers: a list of turns, one per request (the last one
 * repeats), or a function of the request's input and its number (from 1).
 */
export type Script =
  | readonly Turn[]
  | ((input: unknown, request: number) => Turn);

/** A function call the model asks for. */
export function functionCall(
  name: string,
  args: Record<string, unknown>,
  callId = "call_1",
): Record<string, unknown> {
  return {
    type: "function_call",
    callId,
    name,
    arguments: JSON.stringify(args),
    status: "completed",
  };
}

/** A final assistant message. */
export function message(text: string): Record<string, unknown> {
  return {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text }],
  };
}

/**
 * A `Model` that answers from a script and records every request it
 * receives. Give it to an `Agent` as its `model`.
 */
export class ScriptedModel {
  /** Every request's input, as the model received it. */
  readonly requests: unknown[] = [];
  readonly #script: Script;
  readonly #log: string[];
  readonly #usage: AgentsSdk["Usage"];
  readonly #called = Promise.withResolvers<void>();

  /** Settles when the first request has arrived. */
  get called(): Promise<void> {
    return this.#called.promise;
  }

  /** `log` receives `model:N` when request N arrives. */
  constructor(sdk: AgentsSdk, script: Script, log: string[] = []) {
    this.#script = script;
    this.#log = log;
    this.#usage = sdk.Usage;
  }

  #next(request: { input: unknown }): Turn {
    this.requests.push(structuredClone(request.input));
    const n = this.requests.length;
    this.#log.push(`model:${n}`);
    this.#called.resolve();
    const script = this.#script;
    return typeof script === "function"
      ? script(request.input, n)
      : script[Math.min(n, script.length) - 1];
  }

  /** The non-streamed answer. */
  getResponse(request: { input: unknown }) {
    const output = this.#next(request);
    return Promise.resolve({
      usage: new this.#usage({
        requests: 1,
        inputTokens: 10,
        outputTokens: 5,
        totalTokens: 15,
      }),
      output: structuredClone(output),
      responseId: `resp_${this.requests.length}`,
    });
  }

  /** The streamed answer: started, then done with the same items. */
  async *getStreamedResponse(request: { input: unknown }) {
    const output = this.#next(request);
    yield { type: "response_started" };
    await Promise.resolve();
    yield {
      type: "response_done",
      response: {
        id: `resp_${this.requests.length}`,
        usage: {
          requests: 1,
          inputTokens: 10,
          outputTokens: 5,
          totalTokens: 15,
        },
        output: structuredClone(output),
      },
    };
  }
}

/**
 * The last tool result in a model request, as text, and the tool call it
 * answers; `null` when the request carries none.
 */
export function lastToolResult(
  input: unknown,
): { name: string; text: string } | null {
  if (!Array.isArray(input)) return null;
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i] as Record<string, unknown>;
    if (item?.type !== "function_call_result") continue;
    const output = item.output as unknown;
    const text = typeof output === "string" ? output : Array.isArray(output)
      // An MCP tool's content arrives as a list of text parts.
      ? output.map((part) => String(part?.text ?? "")).join("\n")
      : output && typeof output === "object" && "text" in output
      ? String((output as { text: unknown }).text)
      : JSON.stringify(output);
    return { name: String(item.name ?? ""), text };
  }
  return null;
}

/**
 * A model that does what `create_draft`'s description asks: send the call;
 * if it did not come back accepted, ask `ledger` by the same job before
 * anything else; send again (same job, same arguments) only if no draft is
 * there. `args` are the draft's arguments.
 */
export function followsTheDescription(
  args: { job: string; topic: string; copies: number },
): Script {
  return (input, n) => {
    if (n === 1) return [functionCall("create_draft", args, "call_1")];
    const last = lastToolResult(input);
    if (last?.name === "create_draft" && /^accepted/.test(last.text)) {
      return [message(`${args.job} is drafted.`)];
    }
    if (last?.name === "create_draft") {
      return [functionCall("ledger", { job: args.job }, `call_${n}`)];
    }
    if (last?.name === "ledger" && last.text.includes(`"job":"${args.job}"`)) {
      return [message(`${args.job} was already drafted; not sent again.`)];
    }
    return [functionCall("create_draft", args, `call_${n}`)];
  };
}

/**
 * A model that resends blindly after an error, with a new job each time:
 * what "please try again" invites when the caller picks a fresh key.
 */
export function resendsWithANewKey(
  args: { job: string; topic: string; copies: number },
  next: string,
): Script {
  return (input, n) => {
    if (n === 1) return [functionCall("create_draft", args, "call_1")];
    const last = lastToolResult(input);
    if (last?.name === "create_draft" && !/^accepted/.test(last.text)) {
      return [
        functionCall("create_draft", { ...args, job: next }, `call_${n}`),
      ];
    }
    return [message("Drafted.")];
  };
}

if (import.meta.main) {
  const api: AgentsSdk = await import("@openai/agents-core");
  api.setTracingDisabled(true);
  const { hostConfig } = await import("../lib/mcp/host_config.ts");
  // A folder of your own for the faults file (guardlab refuses a shared one).
  const folder = await Deno.makeTempDir({ prefix: "guardlab-example-" });
  await Deno.chmod(folder, 0o700);
  const faults = `${folder}/faults.jsonl`;
  await Deno.writeTextFile(faults, '{"call": 1, "hold_at": "after_commit"}\n');
  // The flags given here go to guardlab mcp (e.g. --ledger NAME).
  const { command, args } = hostConfig([...Deno.args, "--faults", faults])
    .mcpServers.guardlab;
  const guardlab = new api.MCPServerStdio({
    name: "guardlab",
    command,
    args,
    // The client gives up on a call after 1.5 s and cancels it.
    timeout: 1500,
  });
  const draft = { job: "JOB-001", topic: "river", copies: 2 };
  const model = new ScriptedModel(api, followsTheDescription(draft));
  try {
    await guardlab.connect();
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print jobs you are asked for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      mcpServers: [guardlab],
    });
    const result = await new api.Runner({ tracingDisabled: true }).run(
      agent,
      "Draft JOB-001: river, 2 copies.",
    );
    model.requests.slice(1).forEach((input, i) => {
      const last = lastToolResult(input);
      console.log(`model turn ${i + 2} was sent (${last?.name}):`);
      console.log(`  ${last?.text.split("\n")[0].slice(0, 160)}`);
    });
    console.log(`final output: ${result.finalOutput}`);
  } finally {
    await guardlab.close();
    await Deno.remove(folder, { recursive: true });
  }
}
