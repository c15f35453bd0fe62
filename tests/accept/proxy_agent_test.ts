/**
 * A scripted `@openai/agents-core` agent through `guardlab proxy` in front
 * of `guardlab mcp`, with both kinds of tool guardrail and the agent hook:
 * the merged timeline (`proxy show --agent`) is checked against what
 * happened, which the ledger, read through a second connection, and the
 * proxy's own record say. The input guardrail's refusal comes before any
 * `tools/call` and leaves nothing; each output guardrail comes after the
 * answer it checked and after the line where its effect became visible,
 * and the effect stays, whether the guardrail rejected the content or
 * threw.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { guardlabAgentRecord } from "../../lib/accept/agent_hook.mjs";
import { parseAgentRecord } from "../../lib/accept/agent_record.ts";
import { parseRecord, type RecordLine } from "../../lib/accept/record.ts";
import { say } from "../../lib/base/i18n.ts";
import { mergedTimeline } from "../../lib/accept/views/_agent_merge.ts";
import {
  CAN_START,
  labBehindProxy,
  NEEDS_START,
  privateDir,
} from "../_helpers/accept_helpers.ts";
import { cli, persistedReceipts } from "../_helpers/helpers.ts";
import {
  functionCall,
  message,
  runAgent,
  ScriptedModel,
} from "../_helpers/sdk_harness.ts";
import { loadAgentsCore } from "../_helpers/deps.ts";
import { ORACLE } from "../../examples/guardrails_agent.ts";

const draft = (
  job: string,
  topic: string,
  copies: number,
  id: string,
) => [functionCall("create_draft", { job, topic, copies }, id)];

Deno.test({
  name:
    "proxy and agent record: input guardrail before any tools/call, each output guardrail after the answer and after the effect line; the effect stays" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const api = await loadAgentsCore();
    api.setTracingDisabled(false);
    using dir = privateDir("gl-proxy-agent-guardrails-");
    const oracle = join(dir.path, "oracle.json");
    const ledger = join(dir.path, "lab.sqlite");
    Deno.writeTextFileSync(oracle, JSON.stringify(ORACLE));
    const hook = await guardlabAgentRecord(api, join(dir.path, "agent.jsonl"), {
      replaceProcessors: true,
    });
    const F = api.ToolGuardrailFunctionOutputFactory;
    const mcp = hook.watch(
      new api.MCPServerStdio({
        ...labBehindProxy(dir.path, oracle, ledger),
        toolInputGuardrails: [api.defineToolInputGuardrail({
          name: "batch_limit",
          run: ({ toolCall }) =>
            Promise.resolve(
              JSON.parse(toolCall.arguments).copies > 3
                ? F.rejectContent("refused: at most 3 copies per call")
                : F.allow(),
            ),
        })],
        toolOutputGuardrails: [api.defineToolOutputGuardrail({
          name: "release_check",
          run: ({ toolCall }) => {
            const { topic, job } = JSON.parse(toolCall.arguments);
            return Promise.resolve(
              topic === "forest"
                ? F.rejectContent("refused: a forest draft needs a review")
                : job === "JOB-003"
                ? F.throwException()
                : F.allow(),
            );
          },
        })],
      }),
    );
    const model = new ScriptedModel(api, [
      draft("JOB-001", "river", 4, "call_1"),
      draft("JOB-002", "forest", 2, "call_2"),
      draft("JOB-003", "river", 2, "call_3"),
      [message("not reached: the output guardrail threw")],
    ]);
    let end;
    try {
      await mcp.connect();
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Draft.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
        mcpServers: [mcp],
      });
      end = await runAgent(api, agent, "Draft.", false, new api.Runner());
    } finally {
      await mcp.close();
      hook.close();
    }
    // The output guardrail threw: the run ended there.
    assert.equal(
      (end.error as Error | undefined)?.constructor.name,
      "ToolCallError",
    );
    assert.equal(model.requests.length, 3);
    // What happened, by the ledger (a second connection): JOB-001 never
    // reached the server; JOB-002 and JOB-003 were committed and stay.
    assert.deepEqual(
      persistedReceipts(ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-002 accepted", "JOB-003 accepted"],
    );
    // The SDK's client probes, then starts the server again: the session
    // is the second record.
    const record = join(dir.path, "session-2.jsonl");
    const lines = parseRecord(Deno.readTextFileSync(record)) as RecordLine[];
    const calls = lines.filter((l) =>
      l.kind === "msg" && l.dir === "client>server" && l.call !== undefined &&
      (l.msg as { method?: string })?.method === "tools/call"
    );
    assert.equal(calls.length, 2, "two tools/call reached the proxy");
    const agent = parseAgentRecord(Deno.readTextFileSync(hook.path));
    assert.ok(!("bad" in agent));

    const merged = mergedTimeline(lines, agent, ORACLE);
    const steps = merged.steps.map((s) => ({
      ...s,
      words: say(s.text, "en"),
    }));
    const at = (test: (s: (typeof steps)[number]) => boolean, what: string) => {
      const i = steps.findIndex(test);
      assert.ok(i >= 0, `${what}:\n${steps.map((s) => s.words).join("\n")}`);
      return i;
    };
    const firstCall = at(
      (s) => s.lane === "client" && s.kind === "sent",
      "the first tools/call",
    );
    // The refused call: its guardrail and what the model was told, all
    // before the first tools/call; nothing of it on any other lane.
    const refused = merged.story.calls[0];
    assert.equal(refused.proxyCall, null);
    const refusedSteps = steps.filter((s) => s.agent_call === refused.n);
    assert.deepEqual(refusedSteps.map((s) => s.words), [
      "calls create_draft",
      "tool input guardrail batch_limit: rejectContent",
      "never sent; the model is told «refused: at most 3 copies per call»",
    ]);
    assert.ok(refusedSteps.every((s) => steps.indexOf(s) < firstCall));
    for (
      const [k, key, decision] of [[1, "JOB-002", "rejectContent"], [
        2,
        "JOB-003",
        "throwException",
      ]] as const
    ) {
      const allowed = at(
        (s) => s.call === k && s.kind === "input-guardrail",
        `input guardrail of call ${k}`,
      );
      const sent = at(
        (s) => s.call === k && s.lane === "client" && s.kind === "sent",
        `call ${k} sent`,
      );
      const visible = at(
        (s) => s.visible !== undefined && s.words.includes(key),
        `the effect line of ${key}`,
      );
      const delivered = at(
        (s) => s.call === k && s.kind === "delivered",
        `call ${k} delivered`,
      );
      const output = at(
        (s) => s.call === k && s.kind === "output-guardrail",
        `output guardrail of call ${k}`,
      );
      assert.ok(allowed < sent, `call ${k}: allowed, then sent`);
      assert.ok(sent < visible && visible < delivered && delivered < output);
      assert.equal(
        steps[output].words,
        `tool output guardrail release_check: ${decision}`,
      );
    }
    // The screen says where each call stopped.
    const show = await cli([
      "proxy",
      "show",
      record,
      "--agent",
      hook.path,
      "--oracle",
      oracle,
    ]);
    assert.equal(show.code, 0, show.err.join("\n"));
    const said = show.out.map((l) => l.trim()).join(" ");
    for (
      const line of [
        "create_draft JOB-001 (not sent): tool input guardrail batch_limit decided rejectContent before any tools/call: this call wrote nothing",
        "create_draft JOB-002 (call 1): tool output guardrail release_check decided rejectContent after the effect was visible (1): the effect stays",
        "create_draft JOB-003 (call 2): tool output guardrail release_check decided throwException after the effect was visible (1): the effect stays",
      ]
    ) assert.ok(said.includes(line), `${line}\n${show.out.join("\n")}`);
  },
});
