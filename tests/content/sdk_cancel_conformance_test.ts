/**
 * The SDK lens's cancel rows, run against the real `@openai/agents-core`:
 * what the model is told after a tool call times out or is cancelled, word
 * for word, and whether the run goes on; then whether a scripted model that
 * follows `create_draft`'s description (ask `ledger` by job before sending
 * again) avoids the duplicate that a blind resend with a new key makes. The
 * tool runs guardlab's lab on a scratch ledger, read through a second
 * connection; over MCP it is `guardlab mcp` itself.
 *
 * No verdict here depends on a clock: the tool's first call commits whatever
 * the timeout does (its lab run is not cancellable), and each check waits
 * for that run to end before it reads the ledger.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CANCEL_ROWS } from "../../lib/content/_sdk_cancel_rows.ts";
import { Lab } from "../../lib/mod.ts";
import {
  followsTheDescription,
  lastToolResult,
  resendsWithANewKey,
  type Script,
  ScriptedModel,
} from "../../examples/scripted_agent.ts";
import {
  runAgent,
  ScratchLedger,
  type Sdk,
  sdk,
  sdkUnavailable,
} from "../_helpers/sdk_harness.ts";
import { mcpCommand, ROOT } from "../_helpers/mcp_helpers.ts";
import { faultsFile } from "../_helpers/mcp_helpers.ts";

const unavailable = await sdkUnavailable();
const ignore = unavailable !== null;
const WHY = ignore ? ` [ignored: ${unavailable}]` : "";
const canSpawn = (await Deno.permissions.query({ name: "run" })).state ===
  "granted";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const PARAMETERS = {
  type: "object",
  properties: {
    job: { type: "string" },
    topic: { type: "string" },
    copies: { type: "integer" },
  },
  required: ["job", "topic", "copies"],
  additionalProperties: false,
} as const;
const TIMEOUT_MS = 50;

const row = (id: string) => CANCEL_ROWS.find((r) => r.id === id)!;

/** The row's text with its placeholders filled as this run fills them. */
function filled(text: string | null, fill: Record<string, string>) {
  return text === null
    ? null
    : text.replace(/\{(\w+)\}/g, (_, k: string) => fill[k] ?? `{${k}}`);
}

/** Resolves when `signal` aborts (at once if it has). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * An agent whose `create_draft` is guardlab's lab and whose first call never
 * answers: it commits (a lab run no timeout can cancel), then waits until
 * the SDK gives up on it. `ledger` reads the scratch ledger.
 */
async function timedOutRun(
  script: Script,
  timeoutBehavior: "error_as_result" | "raise_exception",
) {
  const api = await sdk();
  const scratch = await ScratchLedger.create();
  const runs: Promise<unknown>[] = [];
  const lab = Lab.open(scratch.path);
  try {
    const model = new ScriptedModel(api, script);
    let calls = 0;
    const createDraft = api.tool({
      name: "create_draft",
      description: "Create the draft for a print job in guardlab's ledger.",
      parameters: PARAMETERS,
      strict: true,
      timeoutMs: TIMEOUT_MS,
      timeoutBehavior,
      execute: async (
        args: unknown,
        _context: unknown,
        details?: { signal?: AbortSignal },
      ) => {
        const run = lab.run(args);
        runs.push(run);
        const result = await run;
        // The first answer is lost on the way back: the remote timeout.
        if (++calls === 1) await aborted(details?.signal);
        return `${result.status}: ${result.released?.text ?? "no draft"}`;
      },
      // deno-lint-ignore no-explicit-any
    } as any);
    const ledgerTool = api.tool({
      name: "ledger",
      description: "Read the ledger by job.",
      parameters: {
        type: "object",
        properties: { job: { type: "string" } },
        required: ["job"],
        additionalProperties: false,
      },
      strict: true,
      execute: () => JSON.stringify({ drafts: lab.ledger.drafts() }),
      // deno-lint-ignore no-explicit-any
    } as any);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job the user asks for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      tools: [createDraft, ledgerTool],
    });
    const end = await runAgent(api, agent, "Draft JOB-001.", false);
    await Promise.all(runs);
    return {
      end,
      model,
      told: model.requests.length > 1
        ? lastToolResult(model.requests[1])?.text ?? null
        : null,
      ledger: scratch.observe(),
    };
  } finally {
    lab.close();
    await scratch.remove();
  }
}

Deno.test({
  name: "sdk conformance: what the model is told after a timeout or a cancel" +
    WHY,
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("function_tool_timeout", async () => {
      const seen = await timedOutRun(
        followsTheDescription(ARGS),
        "error_as_result",
      );
      const js = row("function_tool_timeout").js;
      assert.equal(
        seen.told,
        filled(js.told, {
          tool: "create_draft",
          timeout: String(TIMEOUT_MS),
        }),
      );
      assert.equal(seen.end.error === undefined, js.continues);
      // The tool's work went on: the draft committed before the timeout is there.
      assert.deepEqual(seen.ledger.drafts, ["JOB-001"]);
    });
    await t.step("function_tool_timeout_raise", async () => {
      const seen = await timedOutRun(
        followsTheDescription(ARGS),
        "raise_exception",
      );
      const js = row("function_tool_timeout_raise").js;
      assert.equal(seen.model.requests.length, 1, "the model got no turn");
      assert.equal(seen.told, js.told);
      assert.equal(seen.end.error === undefined, js.continues);
      assert.equal((seen.end.error as Error)?.constructor.name, js.error);
      assert.deepEqual(seen.ledger.drafts, ["JOB-001"]);
    });
    await t.step("run_cancelled", async () => {
      const api = await sdk();
      const scratch = await ScratchLedger.create();
      const lab = Lab.open(scratch.path);
      try {
        const controller = new AbortController();
        const reason = new Error("the user pressed stop");
        const atCommit = Promise.withResolvers<void>();
        let run: Promise<unknown> = Promise.resolve();
        const model = new ScriptedModel(api, followsTheDescription(ARGS));
        const createDraft = api.tool({
          name: "create_draft",
          description: "Create the draft.",
          parameters: PARAMETERS,
          strict: true,
          execute: (
            args: unknown,
            _context: unknown,
            details?: { signal?: AbortSignal },
          ) => {
            // Held after the commit until the run's cancel reaches the tool.
            run = lab.run(args, {
              pause: (point) =>
                point === "after_commit"
                  ? (atCommit.resolve(), aborted(details?.signal))
                  : undefined,
            }, details?.signal);
            return run;
          },
          // deno-lint-ignore no-explicit-any
        } as any);
        const agent = new api.Agent({
          name: "clerk",
          instructions: "Draft the print job the user asks for.",
          // deno-lint-ignore no-explicit-any
          model: model as any,
          tools: [createDraft],
        });
        const running = new api.Runner({ tracingDisabled: true }).run(
          agent,
          "Draft JOB-001.",
          // deno-lint-ignore no-explicit-any
          { signal: controller.signal } as any,
        );
        await atCommit.promise;
        controller.abort(reason);
        const js = row("run_cancelled").js;
        await assert.rejects(running, (e) => e === reason);
        await run.catch(() => {});
        assert.equal(js.error, "signal.reason");
        assert.equal(js.continues, false);
        assert.equal(model.requests.length, 1, "the model is told nothing");
        assert.equal(js.told, null);
        assert.deepEqual(scratch.observe(), {
          drafts: ["JOB-001"],
          receipts: ["cancelled"],
        });
      } finally {
        lab.close();
        await scratch.remove();
      }
    });
    await t.step({
      name: "mcp_call_timeout: guardlab mcp held after the commit, the " +
        "client's timeout" +
        (canSpawn ? "" : " [ignored: needs --allow-run to start the server]"),
      ignore: !canSpawn,
      fn: async () => {
        const seen = await mcpTimedOut(followsTheDescription(ARGS));
        const js = row("mcp_call_timeout").js;
        assert.equal(seen.told, js.told);
        assert.equal(seen.end.error === undefined, js.continues);
        // Wherever the cancel landed, the model that asked first left one draft.
        assert.deepEqual(seen.ledger.drafts, ["JOB-001"]);
        assert.equal(seen.ledger.receipts[0], "cancelled");
      },
    });
    await t.step("every JS cancel row is run here", () => {
      for (const r of CANCEL_ROWS) assert.equal(r.js.verified.how, "run", r.id);
    });
  },
});

Deno.test({
  name: "sdk conformance: after a timeout, a model that follows " +
    "create_draft's description (ledger by job first) avoids the duplicate " +
    "a resend with a new key makes" + WHY,
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const blind = await timedOutRun(
      resendsWithANewKey(ARGS, "JOB-002"),
      "error_as_result",
    );
    assert.deepEqual(
      blind.ledger.drafts,
      ["JOB-001", "JOB-002"],
      "a second draft: the duplicate effect",
    );
    const careful = await timedOutRun(
      followsTheDescription(ARGS),
      "error_as_result",
    );
    assert.deepEqual(careful.ledger.drafts, ["JOB-001"], "one draft");
    // It asked the ledger, and sent create_draft only once.
    const asked = careful.model.requests.map((r) => lastToolResult(r)?.name);
    assert.deepEqual(asked, [undefined, "create_draft", "ledger"]);
    assert.match(String(careful.end.finalOutput), /not sent again/);
  },
});

/** The same over MCP: `guardlab mcp` holds call 1 after its commit; the client times out. */
async function mcpTimedOut(script: Script) {
  const api: Sdk = await sdk();
  const scratch = await ScratchLedger.create();
  using faults = faultsFile([{ call: 1, hold_at: "after_commit" }]);
  const { command, args } = mcpCommand([
    "--ledger-file",
    join(scratch.path),
    "--faults",
    faults.path,
  ]);
  const server = new api.MCPServerStdio({
    name: "guardlab",
    command,
    args,
    cwd: ROOT,
    timeout: 1500,
  });
  try {
    await server.connect();
    const model = new ScriptedModel(api, script);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job the user asks for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      mcpServers: [server],
    });
    const end = await runAgent(api, agent, "Draft JOB-001.", false);
    await server.close();
    return {
      end,
      told: lastToolResult(model.requests[1])?.text ?? null,
      ledger: scratch.observe(),
    };
  } finally {
    await server.close();
    await scratch.remove();
  }
}
