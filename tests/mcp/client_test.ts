/**
 * `guardlab mcp` against a client someone else wrote: the official SDK's
 * `Client` with `StdioClientTransport`, spawning the server under the
 * sandbox flags. Each step is checked on the ledger through a second
 * connection, and again through a second MCP connection's `ledger` tool.
 */
import assert from "node:assert/strict";
import { Ledger } from "../../lib/timing/ledger.ts";
import { historyOf } from "../../lib/views/ledger_timeline.ts";
import { RawClient } from "../_helpers/raw_client.ts";
import {
  CAN_SPAWN_CLIENT,
  connect,
  faultsFile,
  ledgerName,
  NEEDS_CLIENT,
  observed,
  removeLedger,
} from "../_helpers/mcp_helpers.ts";

type Structured = Record<string, unknown>;
interface ToolInfo {
  name: string;
  description?: string;
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
}
const ARGS = { job: "JOB-001", topic: "river", copies: 2 };

/** What a second MCP connection's `ledger` tool says about `job`. */
async function ledgerSeenBySecondConnection(name: string, job: string) {
  await using other = await connect(["--ledger", name]);
  const r = await other.client.callTool({ name: "ledger", arguments: { job } });
  assert.equal(r.isError, undefined);
  return r.structuredContent as {
    drafts: { job: string }[];
    receipts: { attempt: number; status: string; events: string[] }[];
  };
}

Deno.test({
  name: "mcp: the SDK's own client, step by step on one ledger" + NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    const name = ledgerName("sdk");
    try {
      await using s = await connect(["--ledger", name]);
      const { client } = s;

      await t.step("tools/list: four tools, truthful annotations", async () => {
        const { tools } = await client.listTools() as { tools: ToolInfo[] };
        assert.deepEqual(tools.map((x) => x.name), [
          "create_draft",
          "ledger",
          "reconcile",
          "compensate",
        ]);
        const create = tools[0];
        assert.equal(create.annotations?.idempotentHint, true);
        assert.equal(create.annotations?.destructiveHint, false);
        assert.equal(create.annotations?.openWorldHint, false);
        assert.equal(create.annotations?.readOnlyHint, false);
        assert.ok(
          create.outputSchema,
          "create_draft publishes an outputSchema",
        );
        assert.match(create.description ?? "", /business key is job/);
        assert.match(create.description ?? "", /reuses the draft/);
        for (const readOnly of tools.slice(1, 3)) {
          assert.equal(readOnly.annotations?.readOnlyHint, true, readOnly.name);
        }
        assert.equal(tools[3].annotations?.destructiveHint, true);
        assert.equal(
          create.annotations?.title,
          "Create a print draft (guardlab lab)",
        );
        // Each text in one language: no {en, zh} pair leaks into a schema.
        assert.doesNotMatch(JSON.stringify(tools), /"zh":/);
      });

      await t.step("happy path: accepted, committed, receipt #1", async () => {
        const r = await client.callTool({
          name: "create_draft",
          arguments: ARGS,
        });
        const s = r.structuredContent as Structured;
        assert.equal(r.isError, undefined);
        assert.equal(s.status, "accepted");
        assert.equal(s.receipt, 1);
        assert.equal(s.effect_exists, true);
        assert.ok((s.events as string[]).includes("effect_committed"));
        const text = (r.content as { text: string }[])[0].text;
        assert.match(text, /committed by this call/);
        const seen = observed(name);
        assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
        assert.deepEqual(seen.receipts.map((x) => x.status), ["accepted"]);
        const other = await ledgerSeenBySecondConnection(name, "JOB-001");
        assert.deepEqual(other.drafts.map((d) => d.job), ["JOB-001"]);
      });

      await t.step(
        "retry, same key and arguments: reused, one draft",
        async () => {
          const r = await client.callTool({
            name: "create_draft",
            arguments: ARGS,
          });
          const s = r.structuredContent as Structured;
          assert.equal(s.status, "accepted");
          assert.ok((s.events as string[]).includes("effect_reused"));
          assert.ok(!(s.events as string[]).includes("effect_committed"));
          const seen = observed(name);
          assert.equal(seen.drafts.length, 1, "no second draft");
          assert.deepEqual(seen.receipts.map((x) => x.status), [
            "accepted",
            "accepted",
          ]);
          const other = await ledgerSeenBySecondConnection(name, "JOB-001");
          assert.equal(other.receipts.length, 2);
        },
      );

      await t.step(
        "key conflict: isError, rule, stored arguments, nothing written",
        async () => {
          const r = await client.callTool({
            name: "create_draft",
            arguments: { ...ARGS, copies: 3 },
          });
          const s = r.structuredContent as Structured;
          assert.equal(r.isError, true);
          assert.equal(s.status, "key_conflict");
          assert.deepEqual(s.refusal, {
            rule: "same_key_different_arguments",
            valid: "key exists with other arguments: no write",
          });
          assert.deepEqual(s.stored_arguments, ARGS);
          const seen = observed(name);
          assert.equal(seen.drafts.length, 1);
          assert.equal(
            (seen.drafts[0].body as { text: string }).text,
            "river / copies=2",
            "the first draft is unchanged",
          );
          assert.equal(seen.receipts.at(-1)!.status, "key_conflict");
        },
      );

      await t.step(
        "over the batch limit: isError with rule and valid values",
        async () => {
          const r = await client.callTool({
            name: "create_draft",
            arguments: { job: "JOB-002", topic: "river", copies: 4 },
          });
          const s = r.structuredContent as Structured;
          assert.equal(r.isError, true);
          assert.equal(s.status, "input_rejected");
          assert.deepEqual(s.refusal, {
            rule: "batch_limit",
            valid: "batch_limit: at most 3 copies per call",
          });
          const seen = observed(name);
          assert.ok(!seen.drafts.some((d) => d.job === "JOB-002"));
          assert.equal(seen.receipts.at(-1)!.status, "input_rejected");
          const other = await ledgerSeenBySecondConnection(name, "JOB-002");
          assert.deepEqual(other.drafts, []);
          assert.equal(other.receipts.length, 1);
        },
      );

      await t.step(
        "{job: 5} reaches the lab: input_rejected receipt, rule job",
        async () => {
          const before = observed(name).receipts.length;
          const r = await client.callTool({
            name: "create_draft",
            arguments: { job: 5 },
          });
          const s = r.structuredContent as Structured;
          assert.equal(r.isError, true);
          assert.equal(s.status, "input_rejected");
          assert.equal((s.refusal as { rule: string }).rule, "shape");
          const after = observed(name).receipts;
          assert.equal(after.length, before + 1, "the lab wrote a receipt");
          assert.deepEqual(after.at(-1)!.events, []);
        },
      );

      await t.step(
        "an unknown tool is a JSON-RPC error, and the server stays up",
        async () => {
          await assert.rejects(
            client.callTool({ name: "drop_table", arguments: {} }),
            /Unknown tool/,
          );
          const r = await client.callTool({ name: "reconcile", arguments: {} });
          assert.deepEqual((r.structuredContent as Structured).pending, []);
        },
      );
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name: "mcp: a cancel that arrives after the commit leaves the draft" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("cancel");
    using faults = faultsFile([
      { call: 1, hold_at: "after_commit" },
    ]);
    try {
      await using s = await connect([
        "--ledger",
        name,
        "--faults",
        faults.path,
      ]);
      const controller = new AbortController();
      const call = s.client.callTool(
        { name: "create_draft", arguments: ARGS },
        undefined,
        { signal: controller.signal },
      );
      await s.waitFor(/call 1: held at after_commit/);
      // Committed, not yet answered: the draft is already there.
      assert.equal(observed(name).drafts.length, 1);
      controller.abort("the user pressed stop");
      await assert.rejects(call);
      await s.waitFor(/call 1 create_draft: cancelled/);
      const seen = observed(name);
      assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
      assert.deepEqual(seen.receipts.map((r) => r.status), ["cancelled"]);
      assert.deepEqual(seen.receipts[0].events, [
        "arguments_valid",
        "input_allowed",
        "business_started",
        "effect_committed",
      ]);
      const r = await s.client.callTool({ name: "reconcile", arguments: {} });
      const pending = (r.structuredContent as {
        pending: { job: string; state: string }[];
      }).pending;
      assert.deepEqual(pending.map((p) => [p.job, p.state]), [
        ["JOB-001", "unaccepted"],
      ]);
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp: the remote timeout: the client gives up, asks by key, finds the draft, the retry reuses it" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("timeout");
    using faults = faultsFile([
      { call: 1, hold_at: "after_commit" },
    ]);
    try {
      await using s = await connect([
        "--ledger",
        name,
        "--faults",
        faults.path,
      ]);
      // The client gives up (as its timeout would, sending
      // notifications/cancelled) once the call is held after the commit:
      // an event, not a clock. It does not know whether the call took effect.
      const giveUp = new AbortController();
      const first = s.client.callTool(
        { name: "create_draft", arguments: ARGS },
        undefined,
        { signal: giveUp.signal },
      );
      await s.waitFor(/call 1: held at after_commit/);
      giveUp.abort("timed out");
      await assert.rejects(first);
      await s.waitFor(/call 1 create_draft: cancelled/);
      // First ask by business key.
      const asked = await s.client.callTool({
        name: "ledger",
        arguments: { job: "JOB-001" },
      });
      const view = asked.structuredContent as {
        drafts: { job: string }[];
        receipts: { status: string }[];
      };
      assert.deepEqual(view.drafts.map((d) => d.job), ["JOB-001"]);
      // Then retry with the same key and arguments: reused.
      const retry = await s.client.callTool({
        name: "create_draft",
        arguments: ARGS,
      });
      const r = retry.structuredContent as Structured;
      assert.equal(r.status, "accepted");
      assert.ok((r.events as string[]).includes("effect_reused"));
      const seen = observed(name);
      assert.equal(seen.drafts.length, 1, "one draft in total");
      assert.deepEqual(seen.receipts.map((x) => x.status), [
        "cancelled",
        "accepted",
      ]);
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp: faults by call number, an output rejection, compensate, a voided key" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    const name = ledgerName("faults");
    // Call 2 counts the ledger call before it: faults follow every tools/call.
    using faults = faultsFile([{ call: 2, bad_output: true }]);
    try {
      await using s = await connect([
        "--ledger",
        name,
        "--faults",
        faults.path,
      ]);
      const { client } = s;
      await t.step(
        "call 1 (ledger) takes no fault; call 2 gets bad_output",
        async () => {
          const first = await client.callTool({
            name: "ledger",
            arguments: {},
          });
          assert.deepEqual(
            (first.structuredContent as { drafts: unknown[] }).drafts,
            [],
          );
          const r = await client.callTool({
            name: "create_draft",
            arguments: ARGS,
          });
          const st = r.structuredContent as Structured;
          assert.equal(r.isError, true);
          assert.equal(st.call, 2);
          assert.equal(st.status, "output_rejected");
          assert.equal(
            st.effect_exists,
            true,
            "the draft was committed before the check",
          );
          assert.equal(st.released, null);
          assert.deepEqual(st.refusal, {
            rule: "output_contract",
            valid: "output contract: not the draft asked for",
          });
          assert.match(
            (r.content as { text: string }[])[0].text,
            /committed before the check/,
          );
          assert.deepEqual(observed(name).drafts.map((d) => d.job), [
            "JOB-001",
          ]);
        },
      );
      await t.step(
        "reconcile lists the key; compensate voids it; a retry is key_voided",
        async () => {
          const rec = await client.callTool({
            name: "reconcile",
            arguments: {},
          });
          assert.deepEqual(
            (rec.structuredContent as { pending: { job: string }[] }).pending
              .map((p) => p.job),
            ["JOB-001"],
          );
          const c = await client.callTool({
            name: "compensate",
            arguments: { job: "JOB-001" },
          });
          assert.equal((c.structuredContent as Structured).status, "voided");
          const again = await client.callTool({
            name: "compensate",
            arguments: { job: "JOB-001" },
          });
          assert.equal(
            (again.structuredContent as Structured).status,
            "already_voided",
          );
          const retry = await client.callTool({
            name: "create_draft",
            arguments: ARGS,
          });
          assert.equal(retry.isError, true);
          assert.equal(
            (retry.structuredContent as Structured).status,
            "key_voided",
          );
          assert.deepEqual(
            ((retry.structuredContent as Structured).refusal as {
              rule: string;
            })
              .rule,
            "key_voided",
          );
          const seen = observed(name);
          assert.equal(seen.drafts.length, 1, "the draft row stays, voided");
          assert.deepEqual(seen.receipts.map((r) => r.status), [
            "output_rejected",
            "key_voided",
          ]);
        },
      );
      await t.step(
        "bad arguments to ledger and compensate: isError with the rule",
        async () => {
          for (
            const [tool, args] of [
              ["ledger", { job: "job-1" }],
              ["ledger", { who: "JOB-001" }],
              ["compensate", {}],
              ["compensate", { job: 7 }],
            ] as const
          ) {
            const r = await client.callTool({ name: tool, arguments: args });
            assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
            assert.equal(
              ((r.structuredContent as Structured).refusal as { rule: string })
                .rule,
              "job",
            );
          }
        },
      );
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp: --input-guardrail parallel: the verdict lands after the commit, the draft stays" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("parallel");
    try {
      await using s = await connect([
        "--ledger",
        name,
        "--input-guardrail",
        "parallel",
      ]);
      const r = await s.client.callTool({
        name: "create_draft",
        arguments: { ...ARGS, copies: 4 },
      });
      const st = r.structuredContent as Structured;
      assert.equal(r.isError, true);
      assert.equal(st.status, "input_rejected");
      assert.equal(st.effect_exists, true);
      assert.ok((st.events as string[]).includes("input_tripwire"));
      assert.deepEqual(observed(name).drafts.map((d) => d.job), ["JOB-001"]);
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp: without --ledger a scratch ledger, named on stderr, gone when the server stops; --lang zh speaks Chinese" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    // Over the process's own pipes: the end of its input and its exit are
    // events to wait for, not a kill after a grace period.
    const c = new RawClient(["--lang", "zh"]);
    await c.initialize();
    await c.until(() => c.stderr.some((l) => /临时账本/.test(l)), "the path");
    const line = c.stderr.find((l) => /临时账本/.test(l))!;
    const path = /临时账本 (\S+lab\.sqlite)/.exec(line)![1];
    assert.match(path, /\/guardlab-scratch-[^/]+\//);
    const listed = await c.reply(await c.request("tools/list"));
    const tools = (listed.result as { tools: ToolInfo[] }).tools;
    assert.match(tools[0].description ?? "", /业务键是 job/);
    assert.equal(
      tools[0].annotations?.title,
      "创建打印草稿（guardlab 实验）",
    );
    assert.doesNotMatch(JSON.stringify(tools), /"en":/);
    const r = await c.reply(
      await c.request("tools/call", { name: "create_draft", arguments: ARGS }),
    );
    assert.match(
      (r.result?.content as { text: string }[])[0].text,
      /^accepted：本次调用提交了草稿 JOB-001/,
    );
    // The scratch ledger is a real ledger while the server runs.
    const seen = Ledger.open(path, { mode: "read" });
    try {
      assert.equal(seen.drafts().length, 1);
    } finally {
      seen.close();
    }
    // The client closed its end: the server stopped and took its scratch
    // folder along before it exited.
    assert.equal(await c.end(), 0, c.stderr.join("\n"));
    assert.equal(exists(path), false);
  },
});

Deno.test({
  name:
    "mcp: an audit failure leaves a draft no receipt records; the ledger timeline draws that attempt" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("audit");
    using faults = faultsFile([{ call: 1, audit_failure: true }]);
    try {
      await using s = await connect([
        "--ledger",
        name,
        "--faults",
        faults.path,
      ]);
      const r = await s.client.callTool({
        name: "create_draft",
        arguments: ARGS,
      });
      const st = r.structuredContent as Structured;
      assert.equal(r.isError, true);
      assert.equal(st.status, "audit_unavailable");
      assert.equal(st.receipt, null);
      assert.equal(st.effect_exists, true);
      const retry = await s.client.callTool({
        name: "create_draft",
        arguments: ARGS,
      });
      assert.equal((retry.structuredContent as Structured).status, "accepted");
      const seen = observed(name);
      const h = historyOf(
        seen.receipts,
        seen.drafts.map((d) => d.job),
        [],
      );
      assert.deepEqual(
        h.attempts.map((a) => [a.receipt, a.timeline.commit]),
        [[null, "committed"], [1, "reused"]],
      );
    } finally {
      await removeLedger(name);
    }
  },
});

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
