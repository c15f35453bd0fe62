/**
 * What `@openai/agents-core` 0.20.0 gives the agent hook, confirmed by
 * running it (the files named are in the package's `dist/`):
 *
 * - tool input and output guardrails attach to an MCP server
 *   (`toolInputGuardrails` / `toolOutputGuardrails` in `mcp.d.ts`,
 *   `mcpShared.d.ts`; copied onto each tool in `mcp.mjs`) and run
 *   (`runner/toolExecution.mjs` through `utils/toolGuardrails.mjs`) inside
 *   the call's function span: the input guardrail before the server is
 *   called, the output guardrail after its commit, each seen in the
 *   ledger, read while the guardrail runs;
 * - they make no span: a run with them makes the same spans as a run
 *   without;
 * - agent-level guardrails make `guardrail` spans with `name` and
 *   `triggered` (`runner/guardrails.mjs`, `withGuardrailSpan`);
 * - function spans carry `name`, `input`, `output` (what the model is
 *   told, after the output guardrail), and `mcp_data` once an MCP call was
 *   made (`mcp.mjs`; a call an input guardrail refused has none);
 * - after an MCP call times out (an error with the code `REQUEST_TIMEOUT`),
 *   the tool output guardrail runs on the SDK's own error text, and the
 *   function span carries "Error running tool (non-fatal)";
 * - `addTraceProcessor` adds a processor beside the ones there,
 *   `setTraceProcessors` replaces them all (`tracing/index.mjs`).
 *
 * The ledger is read through a second connection, as everywhere else.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import {
  CAN_START,
  engineerCommand,
  NEEDS_START,
  privateDir,
} from "../_helpers/accept_helpers.ts";
import { persistedReceipts } from "../_helpers/helpers.ts";
import { loadAgentsCore } from "../_helpers/deps.ts";
import {
  functionCall,
  message,
  runAgent,
  ScriptedModel,
  sdkUnavailable,
} from "../_helpers/sdk_harness.ts";

const unavailable = await sdkUnavailable();
/** The name's note when the SDK cannot load here (it needs --allow-env). */
const WHY = unavailable === null ? "" : ` [ignored: ${unavailable}]`;

type Sdk = Awaited<ReturnType<typeof loadAgentsCore>>;

/** A tracing processor that keeps every span it is told of, as it ended. */
function recorder() {
  const ended: {
    type: string;
    data: Record<string, unknown>;
    error: unknown;
  }[] = [];
  let started = 0;
  return {
    ended,
    get started() {
      return started;
    },
    processor: {
      onTraceStart: () => Promise.resolve(),
      onTraceEnd: () => Promise.resolve(),
      onSpanStart: () => {
        started++;
        return Promise.resolve();
      },
      // deno-lint-ignore no-explicit-any
      onSpanEnd: (span: any) => {
        ended.push({
          type: span.spanData.type,
          data: JSON.parse(JSON.stringify(span.spanData)),
          error: span.error,
        });
        return Promise.resolve();
      },
      shutdown: () => Promise.resolve(),
      forceFlush: () => Promise.resolve(),
    },
  };
}

/** The SDK with tracing on (the harness's `sdk()` turns it off). */
async function tracedSdk(): Promise<Sdk> {
  const api = await loadAgentsCore();
  api.setTracingDisabled(false);
  return api;
}

const TURNS = [
  [functionCall(
    "create_draft",
    { job: "JOB-001", topic: "river", copies: 4 },
    "call_1",
  )],
  [functionCall(
    "create_draft",
    { job: "JOB-002", topic: "river", copies: 2 },
    "call_2",
  )],
  [message("done")],
];

/** The jobs of the drafts in `ledger`, read through a second connection, at this moment. */
function draftsIn(ledger: string): string {
  const observer = new DatabaseSync(ledger, { readOnly: true });
  try {
    return (observer.prepare("SELECT job FROM drafts ORDER BY job")
      .all() as { job: string }[]).map((r) => r.job).join(",");
  } finally {
    observer.close();
  }
}

/**
 * One run against guardlab mcp on `ledger`, with or without tool
 * guardrails; each guardrail notes the drafts the ledger holds as it runs.
 */
async function mcpRun(api: Sdk, ledger: string, guarded: boolean) {
  const seen: string[] = [];
  // The span the guardrail runs in: the call's function span.
  const spanNow = () => {
    const span = api.getCurrentSpan();
    return `${span?.spanData.type} span ${
      (span?.spanData as { name?: string } | undefined)?.name
    }`;
  };
  const { command, args } = launchCommand(thisInstall());
  const server = new api.MCPServerStdio({
    name: "guardlab",
    command,
    args: [...args, "mcp", "--ledger-file", ledger],
    timeout: 60_000,
    clientSessionTimeoutSeconds: 60,
    cacheToolsList: true,
    ...(guarded
      ? {
        toolInputGuardrails: [api.defineToolInputGuardrail({
          name: "batch_limit",
          run: ({ toolCall }) => {
            const copies = JSON.parse(toolCall.arguments).copies;
            seen.push(
              `input ${copies}; drafts: ${draftsIn(ledger)}; in ${spanNow()}`,
            );
            return Promise.resolve(
              copies > 3
                ? api.ToolGuardrailFunctionOutputFactory.rejectContent(
                  "refused: at most 3 copies",
                )
                : api.ToolGuardrailFunctionOutputFactory.allow(),
            );
          },
        })],
        toolOutputGuardrails: [api.defineToolOutputGuardrail({
          name: "review",
          run: ({ output }) => {
            seen.push(
              `output ${JSON.stringify(output)}; drafts: ${
                draftsIn(ledger)
              }; in ${spanNow()}`,
            );
            return Promise.resolve(
              api.ToolGuardrailFunctionOutputFactory.rejectContent(
                "held for review",
              ),
            );
          },
        })],
      }
      : {}),
  });
  const model = new ScriptedModel(api, TURNS);
  try {
    await server.connect();
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      mcpServers: [server],
    });
    const end = await runAgent(
      api,
      agent,
      "Draft.",
      false,
      new api.Runner(),
    );
    assert.equal(end.error, undefined, String(end.error));
  } finally {
    await server.close();
  }
  return { seen, model };
}

Deno.test({
  name:
    "SDK facts: tool guardrails attach to an MCP server and run (input before the server, output after its commit), and make no span" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const api = await tracedSdk();
    using dir = privateDir("gl-sdk-facts-");
    const spansOf = async (guarded: boolean) => {
      const rec = recorder();
      api.setTraceProcessors([rec.processor]);
      const ledger = join(dir.path, guarded ? "guarded.sqlite" : "bare.sqlite");
      const run = await mcpRun(api, ledger, guarded);
      api.setTraceProcessors([]);
      return { rec, ledger, ...run };
    };
    const guarded = await spansOf(true);
    // The input guardrail ran on both calls, each before the server was
    // called: the ledger, read through a second connection while it ran,
    // had no draft yet. The server saw only the second (only JOB-002).
    assert.deepEqual(guarded.seen.filter((s) => s.startsWith("input")), [
      "input 4; drafts: ; in function span create_draft",
      "input 2; drafts: ; in function span create_draft",
    ]);
    assert.deepEqual(
      persistedReceipts(guarded.ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-002 accepted"],
    );
    // The output guardrail ran once, on the server's answer, after the
    // commit: the ledger already held JOB-002 while it ran.
    const outputs = guarded.seen.filter((s) => s.startsWith("output"));
    assert.equal(outputs.length, 1);
    assert.match(
      outputs[0],
      /committed by this call.*; drafts: JOB-002; in function span create_draft$/,
    );

    const bare = await spansOf(false);
    assert.deepEqual(
      persistedReceipts(bare.ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-001 input_rejected", "JOB-002 accepted"],
      "without the tool guardrail the server's own input check refuses JOB-001",
    );
    // No span for a tool guardrail: the same kinds of span, as many, with
    // the guardrails and without.
    const kinds = (r: typeof guarded.rec) =>
      r.ended.map((s) => s.type).sort().join(" ");
    assert.equal(kinds(guarded.rec), kinds(bare.rec));
    assert.equal(guarded.rec.started, bare.rec.started);
    assert.ok(!guarded.rec.ended.some((s) => s.type === "guardrail"));
    const names = guarded.rec.ended.map((s) => String(s.data.name ?? ""));
    assert.ok(!names.includes("batch_limit") && !names.includes("review"));

    // Function spans: name, input, output; mcp_data once an MCP call was made.
    const fns = guarded.rec.ended.filter((s) => s.type === "function");
    assert.equal(fns.length, 2);
    const [refused, made] = fns.map((s) => s.data);
    assert.equal(refused.name, "create_draft");
    assert.deepEqual(JSON.parse(String(refused.input)), {
      job: "JOB-001",
      topic: "river",
      copies: 4,
    });
    assert.equal(refused.output, "refused: at most 3 copies");
    assert.equal(refused.mcp_data, undefined, "never sent: no MCP data");
    assert.equal(made.name, "create_draft");
    assert.deepEqual(made.mcp_data, { server: "guardlab" });
    // What the model is told: the output guardrail's rejection, not the
    // server's answer (the draft stays all the same).
    assert.equal(made.output, "held for review");
  },
});

Deno.test({
  name:
    "SDK facts: agent-level guardrails make guardrail spans with name and triggered" +
    WHY,
  ignore: unavailable !== null,
  async fn() {
    const api = await tracedSdk();
    const rec = recorder();
    api.setTraceProcessors([rec.processor]);
    const model = new ScriptedModel(api, [[message("a secret")]]);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Answer.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      inputGuardrails: [{
        name: "on_topic",
        execute: () =>
          Promise.resolve({ tripwireTriggered: false, outputInfo: null }),
      }],
      outputGuardrails: [{
        name: "no_secrets",
        execute: ({ agentOutput }) =>
          Promise.resolve({
            tripwireTriggered: String(agentOutput).includes("secret"),
            outputInfo: null,
          }),
      }],
    });
    const end = await runAgent(api, agent, "Hello.", false, new api.Runner());
    api.setTraceProcessors([]);
    assert.equal(
      (end.error as Error | undefined)?.constructor.name,
      "OutputGuardrailTripwireTriggered",
    );
    assert.deepEqual(
      rec.ended.filter((s) => s.type === "guardrail").map((s) => s.data),
      [
        { type: "guardrail", name: "on_topic", triggered: false },
        { type: "guardrail", name: "no_secrets", triggered: true },
      ],
    );
  },
});

Deno.test({
  name:
    "SDK facts: addTraceProcessor adds beside the processors there, setTraceProcessors replaces them" +
    WHY,
  ignore: unavailable !== null,
  async fn() {
    const api = await tracedSdk();
    const run = async () => {
      const model = new ScriptedModel(api, [[message("ok")]]);
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Answer.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
      });
      const end = await runAgent(api, agent, "Hi.", false, new api.Runner());
      assert.equal(end.error, undefined);
    };
    const first = recorder();
    const second = recorder();
    const third = recorder();
    api.setTraceProcessors([first.processor]);
    api.addTraceProcessor(second.processor);
    await run();
    assert.ok(first.started > 0 && first.started === second.started);
    const before = first.started;
    api.setTraceProcessors([third.processor]);
    await run();
    api.setTraceProcessors([]);
    assert.equal(first.started, before, "replaced: told of nothing more");
    assert.equal(second.started, before);
    assert.equal(third.started, before, "the same run, told to the new one");
  },
});

Deno.test({
  name:
    "SDK facts: an MCP call that times out fails with the code REQUEST_TIMEOUT; the output guardrail then runs on the SDK's own error text, and the function span carries the error" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const api = await tracedSdk();
    using dir = privateDir("gl-sdk-timeout-");
    const ledger = join(dir.path, "lab.sqlite");
    const faults = join(dir.path, "faults.jsonl");
    // The answer to the first create_draft is dropped: the server commits,
    // the client hears nothing.
    Deno.writeTextFileSync(
      faults,
      JSON.stringify({ tool: "create_draft", call: 1, drop_response: true }),
    );
    const server = launchCommand(thisInstall());
    const proxy = engineerCommand([
      "proxy",
      "--record",
      join(dir.path, "session.jsonl"),
      "--faults",
      faults,
      "--",
      server.command,
      ...server.args,
      "mcp",
      "--ledger-file",
      ledger,
    ]);
    const rec = recorder();
    api.setTraceProcessors([rec.processor]);
    const handed: unknown[] = [];
    const mcp = new api.MCPServerStdio({
      name: "guardlab",
      command: proxy.command,
      args: proxy.args,
      // Long enough for every answer on a loaded machine: only the dropped
      // one meets it.
      timeout: 5000,
      clientSessionTimeoutSeconds: 60,
      cacheToolsList: true,
      toolOutputGuardrails: [api.defineToolOutputGuardrail({
        name: "review",
        run: ({ output }) => {
          handed.push(output);
          return Promise.resolve(
            api.ToolGuardrailFunctionOutputFactory.allow(),
          );
        },
      })],
    });
    // What the SDK's client throws, seen where the agent hook sees it.
    const thrown: { code?: unknown; message?: unknown }[] = [];
    // deno-lint-ignore no-explicit-any
    const m = mcp as any;
    const method = typeof m.callToolResult === "function"
      ? "callToolResult"
      : "callTool";
    const original = m[method].bind(mcp);
    m[method] = async (...a: unknown[]) => {
      try {
        return await original(...a);
      } catch (error) {
        thrown.push(error as { code?: unknown });
        throw error;
      }
    };
    const model = new ScriptedModel(api, [
      [functionCall(
        "create_draft",
        { job: "JOB-001", topic: "river", copies: 2 },
        "call_1",
      )],
      [message("done")],
    ]);
    try {
      await mcp.connect();
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Draft.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
        mcpServers: [mcp],
      });
      const end = await runAgent(api, agent, "Draft.", false, new api.Runner());
      assert.equal(end.error, undefined, String(end.error));
    } finally {
      await mcp.close();
      api.setTraceProcessors([]);
    }
    assert.equal(thrown.length, 1);
    assert.equal(thrown[0].code, "REQUEST_TIMEOUT");
    assert.equal(thrown[0].message, "Request timed out");
    // The server's own store: the draft was committed all the same.
    assert.deepEqual(
      persistedReceipts(ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-001 accepted"],
    );
    assert.deepEqual(handed, [
      "An error occurred while running the tool. Please try again.",
    ]);
    const fn = rec.ended.filter((e) => e.type === "function");
    assert.equal(fn.length, 1);
    assert.equal(
      fn[0].data.output,
      "An error occurred while running the tool. Please try again.",
    );
    assert.equal(
      (fn[0].error as { message?: string } | null)?.message,
      "Error running tool (non-fatal)",
    );
  },
});
