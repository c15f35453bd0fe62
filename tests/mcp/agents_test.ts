/**
 * `guardlab mcp` under the OpenAI Agents SDK for JavaScript
 * (`@openai/agents-core` 0.20.0, pinned in tests/_helpers/deps.ts, with its own MCP
 * client, `@modelcontextprotocol/client` 2.4.0, pinned by deno.lock): an
 * `Agent` with a scripted model calls `create_draft` through
 * `MCPServerStdio`, which spawns the real server under the sandbox flags. A
 * tool output guardrail rejects the first result: the draft stays, the
 * model receives the rejection, and its scripted retry reuses the draft.
 */
import assert from "node:assert/strict";
import {
  functionCall,
  lastToolResult,
  message,
  runAgent,
  ScriptedModel,
  sdk,
} from "../_helpers/sdk_harness.ts";
import {
  CAN_SPAWN_CLIENT,
  ledgerName,
  mcpCommand,
  NEEDS_CLIENT,
  observed,
  removeLedger,
  ROOT,
} from "../_helpers/mcp_helpers.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const REJECTION = "the clerk's output guardrail refused this draft";

Deno.test({
  name:
    "mcp: an Agents SDK agent over MCPServerStdio: output guardrail rejects, the draft stays, the retry reuses it" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const api = await sdk();
    const name = ledgerName("agent");
    const { command, args } = mcpCommand(["--ledger", name]);
    let verdicts = 0;
    const server = new api.MCPServerStdio({
      name: "guardlab",
      command,
      args,
      cwd: ROOT,
      toolOutputGuardrails: [api.defineToolOutputGuardrail({
        name: "clerk_review",
        run: () => {
          // The first result is refused, the second allowed.
          verdicts++;
          return Promise.resolve(
            verdicts === 1
              ? api.ToolGuardrailFunctionOutputFactory.rejectContent(REJECTION)
              : api.ToolGuardrailFunctionOutputFactory.allow(),
          );
        },
      })],
    });
    try {
      await server.connect();
      const tools = await server.listTools();
      assert.deepEqual(tools.map((t: { name: string }) => t.name), [
        "create_draft",
        "ledger",
        "reconcile",
        "compensate",
      ]);
      const log: string[] = [];
      const model = new ScriptedModel(api, [
        [functionCall("create_draft", ARGS, "call_1")],
        [functionCall("create_draft", ARGS, "call_2")],
        [message("JOB-001 is drafted.")],
      ], log);
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Draft the print job the user asks for.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
        mcpServers: [server],
      });
      const end = await runAgent(api, agent, "Draft JOB-001.", false);
      assert.equal(end.error, undefined);
      assert.equal(end.finalOutput, "JOB-001 is drafted.");
      // The model received the rejection in place of the tool's result...
      const first = lastToolResult(model.requests[1]);
      assert.ok(first?.includes(REJECTION), String(first));
      assert.ok(!first?.includes("committed by this call"));
      // ...and the retry's real result: reused.
      const second = lastToolResult(model.requests[2]);
      assert.match(String(second), /already existed and was reused/);
      // The ledger: one draft, committed by the rejected call, reused by the retry.
      const seen = observed(name);
      assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
      assert.deepEqual(
        seen.receipts.map((r) => [
          r.status,
          r.events.includes("effect_committed")
            ? "committed"
            : r.events.includes("effect_reused")
            ? "reused"
            : "-",
        ]),
        [["accepted", "committed"], ["accepted", "reused"]],
      );
    } finally {
      await server.close();
      await removeLedger(name);
    }
  },
});
