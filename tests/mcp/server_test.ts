/**
 * `serveMcp` in process, under the plain `deno test --allow-read
 * --allow-write` (no subprocess, no environment): the SDK's server on
 * guardlab's transport, fed lines through a stream this test controls.
 * Each step is checked on the ledger through a second connection.
 */
import assert from "node:assert/strict";
import { FaultSchedule } from "../../lib/mcp/faults.ts";
import { startServer } from "../_helpers/mcp_inprocess.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const call = (name: string, args: unknown) => ({ name, arguments: args });

Deno.test("mcp in process: the lab judges every call; refusals are tool results", async (t) => {
  const s = await startServer();
  try {
    await t.step(
      "{job: 5}: input_rejected, and the lab wrote its receipt",
      async () => {
        const r = await s.reply(
          s.request("tools/call", call("create_draft", { job: 5 })),
        );
        assert.equal(r.result?.isError, true);
        const sc = r.result?.structuredContent as Record<string, unknown>;
        assert.equal(sc.status, "input_rejected");
        assert.deepEqual(s.observed().receipts.map((x) => x.status), [
          "input_rejected",
        ]);
      },
    );
    await t.step("no arguments at all: the lab refuses the shape", async () => {
      const r = await s.reply(
        s.request("tools/call", { name: "create_draft" }),
      );
      const sc = r.result?.structuredContent as { refusal: { rule: string } };
      assert.equal(sc.refusal.rule, "shape");
    });
    await t.step(
      "copies 2.0 is not an integer to the lab (as in run --args)",
      async () => {
        s.sendRaw(
          '{"jsonrpc":"2.0","id":500,"method":"tools/call","params":{"name":"create_draft","arguments":{"job":"JOB-009","topic":"river","copies":2.0}}}',
        );
        const r = await s.reply(500);
        const sc = r.result?.structuredContent as {
          status: string;
          refusal: { rule: string };
        };
        assert.equal(sc.status, "input_rejected");
        assert.equal(sc.refusal.rule, "copies");
      },
    );
    await t.step("accepted, then reused: one draft", async () => {
      await s.reply(s.request("tools/call", call("create_draft", ARGS)));
      const r = await s.reply(
        s.request("tools/call", call("create_draft", ARGS)),
      );
      const sc = r.result?.structuredContent as { events: string[] };
      assert.ok(sc.events.includes("effect_reused"));
      assert.equal(
        s.observed().drafts.filter((d) => d.job === "JOB-001").length,
        1,
      );
    });
  } finally {
    await s.stop();
  }
});

Deno.test("mcp in process: notifications/cancelled after the commit: cancelled receipt, draft stays, no reply", async () => {
  const s = await startServer(
    new FaultSchedule([{
      selector: { call: 1 },
      faults: { holdAt: "after_commit", holdMs: 60_000 },
      line: 1,
    }]),
  );
  try {
    const id = s.request("tools/call", call("create_draft", ARGS));
    await s.until(() => s.log.some((l) => /held at after_commit/.test(l)));
    assert.equal(s.observed().drafts.length, 1, "committed before the cancel");
    s.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: "user pressed stop" },
    });
    await s.until(() =>
      s.log.some((l) => /call 1 create_draft: cancelled/.test(l))
    );
    const seen = s.observed();
    assert.deepEqual(seen.receipts.map((r) => r.status), ["cancelled"]);
    assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
    const ping = await s.reply(s.request("ping"));
    assert.deepEqual(ping.result, {});
    assert.ok(
      !s.replies.some((r) => r.id === id),
      "a cancelled request gets no reply",
    );
  } finally {
    await s.stop();
  }
});
