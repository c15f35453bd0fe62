/**
 * What `@openai/agents-core` 0.20.0 gives the agent hook, confirmed by
 * running it (the files named are in the package's `dist/`):
 *
 * - tool input and output guardrails attach to an MCP server
 *   (`toolInputGuardrails` / `toolOutputGuardrails` in `mcp.d.ts`,
 *   `mcpShared.d.ts`; copied onto each tool in `mcp.mjs`) and run
 *   (`runner/toolExecution.mjs` through `utils/toolGuardrails.mjs`): the
 *   input guardrail before the server is called, the output guardrail after
 *   its commit;
 * - they make no span: a run with them makes the same spans as a run
 *   without;
 * - agent-level guardrails make `guardrail` spans with `name` and
 *   `triggered` (`runner/guardrails.mjs`, `withGuardrailSpan`);
 * - function spans carry `name`, `input`, `output`, and `mcp_data` once an
 *   MCP call was made (`mcp.mjs`; a call an input guardrail refused has
 *   none);
 * - `addTraceProcessor` adds a processor beside the ones there,
 *   `setTraceProcessors` replaces them all (`tracing/index.mjs`).
 *
 * The ledger is read through a second connection, as everywhere else.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import {
  CAN_START,
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

/** One run against guardlab mcp on `ledger`, with or without tool guardrails. */
async function mcpRun(api: Sdk, ledger: string, guarded: boolean) {
  const seen: string[] = [];
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
            seen.push(`input ${copies}`);
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
            seen.push(`output ${JSON.stringify(output)}`);
            return Promise.resolve(
              api.ToolGuardrailFunctionOutputFactory.allow(),
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
    // The input guardrail ran on both calls; the server saw only the second
    // (its ledger, read through a second connection, has only JOB-002).
    assert.deepEqual(guarded.seen.filter((s) => s.startsWith("input")), [
      "input 4",
      "input 2",
    ]);
    assert.deepEqual(
      persistedReceipts(guarded.ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-002 accepted"],
    );
    // The output guardrail ran once, on the server's answer: after the commit.
    const outputs = guarded.seen.filter((s) => s.startsWith("output"));
    assert.equal(outputs.length, 1);
    assert.match(outputs[0], /committed by this call/);

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
    assert.match(String(made.output), /committed by this call/);
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
