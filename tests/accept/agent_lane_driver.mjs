// @ts-check
/**
 * An engineer's own agent, written as an engineer would, with nothing of
 * guardlab's but the agent hook as `guardlab proxy --print-agent-hook`
 * prints it: `@openai/agents-core` 0.20.0, a scripted model of its own (no
 * key, no network), its own tool input, tool output and agent-level
 * guardrails, and an `MCPServerStdio` whose command is `guardlab proxy` in
 * front of a server. It runs under Node (20 or later) and Deno alike:
 *
 *     node agent_lane_driver.mjs SPEC.json
 *     deno run --allow-read --allow-write=DIR --allow-env --allow-run \
 *       agent_lane_driver.mjs SPEC.json
 *
 * SPEC.json says what the agent does: the hook's file, the agent record's
 * path, the proxy's command line and folder, the MCP client's timeout, the model's
 * turns (each a list of output items), the pointer to each call's key in
 * its arguments, and the guardrails' rules by key: `input` and `output`
 * rules (`{key, decision, times?, message?}`: the first `times` calls of
 * that key get `decision`), and `agentGuardrail` (`{name, blocking,
 * trips}`). It prints one JSON line: how many times the model was called,
 * when (ms on the agent record's clock), and what ended the run.
 */
import { readFileSync } from "node:fs";
import process from "node:process";

const agents = await import(
  "Deno" in globalThis
    ? "npm:@openai/agents-core@0.20.0"
    : "@openai/agents-core"
);
const specPath = "Deno" in globalThis
  ? /** @type {any} */ (globalThis).Deno.args[0]
  : process.argv[2];
const spec = JSON.parse(readFileSync(specPath, "utf8"));
const { guardlabAgentRecord } = await import(spec.hook);
const hook = await guardlabAgentRecord(agents, spec.agentRecord, {
  replaceProcessors: true,
});
const began = performance.now();
const F = agents.ToolGuardrailFunctionOutputFactory;

/**
 * The value at a JSON Pointer, or undefined.
 *
 * @param {unknown} value
 * @param {string} pointer
 */
function at(value, pointer) {
  let v = /** @type {any} */ (value);
  for (const part of pointer.split("/").slice(1)) {
    v = v?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return v;
}

/**
 * A tool guardrail deciding by the call's key, as `rules` say.
 *
 * @param {"input" | "output"} stage
 * @param {{ key: string, decision: string, times?: number, message?: string }[]} rules
 */
function guardrail(stage, rules) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  const define = stage === "input"
    ? agents.defineToolInputGuardrail
    : agents.defineToolOutputGuardrail;
  return define({
    name: stage === "input" ? "approval" : "release_check",
    run: (/** @type {{ toolCall: { arguments: string } }} */ { toolCall }) => {
      const key = String(at(JSON.parse(toolCall.arguments || "{}"), spec.key));
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const rule = rules.find((r) =>
        r.key === key && (r.times === undefined || n <= r.times)
      );
      const decision = rule?.decision ?? "allow";
      return Promise.resolve(
        decision === "rejectContent"
          ? F.rejectContent(rule?.message ?? `refused: ${key} waits`)
          : decision === "throwException"
          ? F.throwException()
          : F.allow(),
      );
    },
  });
}

const [command, ...args] = spec.proxy;
const server = hook.watch(
  new agents.MCPServerStdio({
    name: "proxied",
    command,
    args,
    cwd: spec.cwd,
    timeout: spec.timeoutMs,
    clientSessionTimeoutSeconds: 60,
    cacheToolsList: true,
    toolInputGuardrails: [guardrail("input", spec.input ?? [])],
    toolOutputGuardrails: [guardrail("output", spec.output ?? [])],
  }),
);

/** @type {number[]} */
const modelCalls = [];
const model = {
  getResponse() {
    modelCalls.push(Math.round((performance.now() - began) * 10) / 10);
    const turn = spec.turns[Math.min(modelCalls.length, spec.turns.length) - 1];
    return Promise.resolve({
      usage: new agents.Usage({
        requests: 1,
        inputTokens: 1,
        outputTokens: 1,
        totalTokens: 2,
      }),
      output: structuredClone(turn),
      responseId: `r${modelCalls.length}`,
    });
  },
  async *getStreamedResponse() {},
};

const trip = spec.agentGuardrail;
let error = null;
try {
  await server.connect();
  const agent = new agents.Agent({
    name: "clerk",
    instructions: "Do the jobs you are asked for.",
    model,
    mcpServers: [server],
    inputGuardrails: trip === undefined ? [] : [{
      name: trip.name,
      runInParallel: !trip.blocking,
      execute: () =>
        Promise.resolve({ tripwireTriggered: trip.trips, outputInfo: null }),
    }],
  });
  await new agents.Runner().run(agent, "Do the jobs.");
} catch (e) {
  error = /** @type {any} */ (e)?.constructor?.name ?? String(e);
} finally {
  await server.close();
  hook.close();
}
console.log(JSON.stringify({ modelCalls, error, agentRecord: hook.path }));
