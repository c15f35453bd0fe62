/**
 * Hostile clients against `guardlab mcp`, spoken to line by line over the
 * process's own pipes: malformed and oversized messages, a flood of
 * requests, many concurrent calls on one key, a client that goes away in the
 * middle of a call. None crashes the server or duplicates a draft, and for
 * each the ledger (read through a second connection) says what happened.
 */
import assert from "node:assert/strict";
import { pendingKeys } from "../../lib/timing/reconcile.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { startGuardlab } from "../_helpers/spawn.ts";
import { RawClient } from "../_helpers/raw_client.ts";
import {
  CAN_SPAWN_CLIENT,
  faultsFile,
  ledgerFile,
  ledgerName,
  NEEDS_CLIENT,
  observed,
  removeLedger,
} from "../_helpers/mcp_helpers.ts";
import { initialize } from "../_helpers/mcp_wire.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };

function call(name: string, args: unknown) {
  return { name, arguments: args };
}

Deno.test({
  name:
    "mcp hostile: bad lines, a 10 MB message and a flood; the server answers each and stays up" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    const name = ledgerName("hostile");
    try {
      await using c = new RawClient(["--ledger", name]);
      await c.initialize();

      await t.step(
        "not JSON: -32700, then the next request is answered",
        async () => {
          await c.write("{this is not json\n");
          await c.until(
            () => c.replies.some((r) => r.error?.code === -32700),
            "-32700",
          );
          const id = await c.request("ping");
          assert.deepEqual((await c.reply(id)).result, {});
        },
      );

      await t.step(
        "JSON but not JSON-RPC: -32600 with the id it had",
        async () => {
          await c.write('{"id": 77, "hello": "world"}\n[1, 2, 3]\n');
          const r = await c.reply(77);
          assert.equal(r.error?.code, -32600);
          await c.until(
            () => c.replies.filter((x) => x.error?.code === -32600).length >= 2,
            "second -32600",
          );
        },
      );

      await t.step(
        "a 10 MB message: refused with -32600, never buffered, server up",
        async () => {
          const big = new Uint8Array(10 * 1024 * 1024).fill(0x61);
          await c.write(
            '{"jsonrpc":"2.0","id":88,"method":"ping","params":{"x":"',
          );
          await c.write(big);
          await c.write('"}}\n');
          await c.until(
            () =>
              c.replies.some((r) =>
                r.id === null && r.error?.code === -32600 &&
                /longer than/.test(r.error.message)
              ),
            "oversize refusal",
          );
          assert.ok(
            !c.replies.some((r) => r.id === 88),
            "the oversized request never ran",
          );
          const id = await c.request("tools/call", call("create_draft", ARGS));
          const r = await c.reply(id);
          assert.equal(
            (r.result?.structuredContent as { status: string }).status,
            "accepted",
          );
        },
      );

      await t.step(
        "arguments nested 300,000 deep (under 1 MiB): refused, server up",
        async () => {
          const depth = 300_000;
          await c.write(
            `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"create_draft","arguments":{"job":${
              "[".repeat(depth)
            }${"]".repeat(depth)},"topic":"river","copies":2}}}\n`,
          );
          const r = await c.reply(99);
          assert.equal(r.error?.code, -32600);
          const id = await c.request("ping");
          assert.deepEqual((await c.reply(id)).result, {});
        },
      );

      await t.step(
        "unknown method -32601, unknown tool and bad params -32602",
        async () => {
          const a = await c.request("no/such/method");
          assert.equal((await c.reply(a)).error?.code, -32601);
          const b = await c.request("tools/call", call("rm_rf", {}));
          assert.equal((await c.reply(b)).error?.code, -32602);
          const d = await c.request("tools/call", { name: 5 });
          assert.equal((await c.reply(d)).error?.code, -32602);
        },
      );

      await t.step(
        "a flood of 3,000 requests in one write: every one answered",
        async () => {
          const first = 100_000;
          const lines = [];
          for (let i = 0; i < 3000; i++) {
            lines.push(
              JSON.stringify({ jsonrpc: "2.0", id: first + i, method: "ping" }),
            );
          }
          await c.write(lines.join("\n") + "\n");
          await c.until(
            () =>
              c.replies.filter((r) => Number(r.id) >= first).length === 3000,
            "3,000 replies",
          );
        },
      );

      await t.step(
        "the ledger: one draft, and a receipt for each create_draft",
        () => {
          const seen = observed(name);
          assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
          assert.deepEqual(seen.receipts.map((r) => r.status), ["accepted"]);
        },
      );
      assert.equal(await c.end(), 0, c.stderr.join("\n"));
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp hostile: 40 concurrent calls on one key: one draft, every one answered (none refused), reconcile exact" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("race");
    try {
      await using c = new RawClient(["--ledger", name]);
      await c.initialize();
      const lines = [];
      for (let i = 1; i <= 40; i++) {
        lines.push(JSON.stringify({
          jsonrpc: "2.0",
          id: 1000 + i,
          method: "tools/call",
          params: call("create_draft", ARGS),
        }));
      }
      await c.write(lines.join("\n") + "\n");
      await c.until(
        () => c.replies.filter((r) => Number(r.id) > 1000).length === 40,
        "40 replies",
      );
      const replies = c.replies.filter((r) => Number(r.id) > 1000);
      assert.deepEqual(replies.filter((r) => r.error), [], "none refused");
      const statuses = replies.map((r) =>
        r.result!.structuredContent as { status: string; events: string[] }
      );
      assert.ok(statuses.every((s) => s.status === "accepted"));
      assert.equal(
        statuses.filter((s) => s.events.includes("effect_committed")).length,
        1,
        "exactly one call committed the draft",
      );
      assert.equal(await c.end(), 0);
      const seen = observed(name);
      assert.equal(seen.drafts.length, 1, "no duplicate draft");
      assert.equal(seen.receipts.length, 40, "one receipt per call");
      const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
      try {
        assert.deepEqual(pendingKeys(ledger), [], "nothing to reconcile");
      } finally {
        ledger.close();
      }
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp hostile: 200 calls pipelined on one key and 200 on 200 keys: 400 answers, one draft per key, an accepted receipt for each" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("pipelined");
    const key = (i: number) => `JOB-${String(i).padStart(3, "0")}`;
    try {
      await using c = new RawClient(["--ledger", name]);
      await c.initialize();
      const lines = [];
      for (let i = 1; i <= 200; i++) {
        // Interleaved: the one key (JOB-000) and key i, one after the other.
        for (const job of [key(0), key(i)]) {
          lines.push(JSON.stringify({
            jsonrpc: "2.0",
            id: `${job}#${i}`,
            method: "tools/call",
            params: call("create_draft", { ...ARGS, job }),
          }));
        }
      }
      // One write, no waiting: more than the server runs at once by far.
      await c.write(lines.join("\n") + "\n");
      await c.until(() => c.replies.length >= 401, "400 answers");
      const answers = c.replies.filter((r) => String(r.id).includes("#"));
      assert.equal(answers.length, 400);
      assert.equal(new Set(answers.map((r) => r.id)).size, 400);
      assert.deepEqual(answers.filter((r) => r.error), [], "none refused");
      assert.equal(await c.end(), 0, c.stderr.join("\n"));
      // A second connection: what was committed.
      const seen = observed(name);
      const jobs = Array.from({ length: 201 }, (_, i) => key(i));
      assert.deepEqual(seen.drafts.map((d) => d.job), jobs);
      assert.equal(seen.receipts.length, 400);
      for (const job of jobs) {
        const mine = seen.receipts.filter((r) => r.job === job);
        assert.equal(mine.length, job === key(0) ? 200 : 1, job);
        assert.ok(mine.every((r) => r.status === "accepted"), job);
        assert.equal(
          mine.filter((r) => r.events.includes("effect_committed")).length,
          1,
          `${job}: one commit, the rest reused`,
        );
      }
      const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
      try {
        assert.deepEqual(pendingKeys(ledger), [], "nothing to reconcile");
        assert.equal(ledger.calls().length, 400, "every call on record");
      } finally {
        ledger.close();
      }
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp hostile: deep nesting, task-augmented calls and a flood of notifications are bounded; the server answers and stays up" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    const name = ledgerName("bounds");
    try {
      await using c = new RawClient(["--ledger", name]);
      await c.initialize();
      await t.step(
        "a ping nested 65 deep (any method): -32600 with its id",
        async () => {
          await c.write(
            `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":${
              "[".repeat(65)
            }${"]".repeat(65)}}}\n`,
          );
          const r = await c.reply(7);
          assert.equal(r.error?.code, -32600);
          assert.match(r.error!.message, /nested deeper than 64/);
        },
      );
      await t.step("brackets inside strings do not count", async () => {
        const id = await c.request("ping", { a: "[".repeat(500) });
        assert.deepEqual((await c.reply(id)).result, {});
      });
      await t.step(
        "a task-augmented tools/call: -32602, nothing written",
        async () => {
          const id = await c.request("tools/call", {
            ...call("create_draft", ARGS),
            task: { ttl: 1000 },
          });
          assert.equal((await c.reply(id)).error?.code, -32602);
          assert.deepEqual(observed(name).receipts, []);
        },
      );
      await t.step(
        "20,000 notifications (cancels of unknown calls, progress, initialized) in one write: nothing kept, the next request answered",
        async () => {
          const lines = [];
          for (let i = 0; i < 20_000; i++) {
            lines.push(JSON.stringify(
              i % 3 === 0
                ? {
                  jsonrpc: "2.0",
                  method: "notifications/cancelled",
                  params: { requestId: 900_000 + i, reason: "x" },
                }
                : i % 3 === 1
                ? {
                  jsonrpc: "2.0",
                  method: "notifications/progress",
                  params: { progressToken: i, progress: 1 },
                }
                : { jsonrpc: "2.0", method: "notifications/initialized" },
            ));
          }
          await c.write(lines.join("\n") + "\n");
          const id = await c.request("tools/call", call("create_draft", ARGS));
          const r = await c.reply(id);
          assert.equal(
            (r.result?.structuredContent as { status: string }).status,
            "accepted",
          );
          // No reply to a notification.
          assert.ok(c.replies.every((x) => x.id !== undefined));
        },
      );
      assert.equal(await c.end(), 0, c.stderr.join("\n"));
    } finally {
      await removeLedger(name);
    }
  },
});

Deno.test({
  name:
    "mcp hostile: the client goes away in the middle of a call; the ledger says so" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    await t.step(
      "stdin closed while a call is held after the commit: cancelled receipt, draft stays, reconcile lists it",
      async () => {
        const name = ledgerName("gone");
        using faults = faultsFile([{ call: 1, hold_at: "after_commit" }]);
        try {
          await using c = new RawClient([
            "--ledger",
            name,
            "--faults",
            faults.path,
          ]);
          await c.initialize();
          await c.request("tools/call", call("create_draft", ARGS));
          await c.until(
            () => c.stderr.some((l) => /held at after_commit/.test(l)),
            "the hold",
          );
          assert.equal(await c.end(), 0, "the server ends cleanly");
          const seen = observed(name);
          assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
          assert.deepEqual(seen.receipts.map((r) => r.status), ["cancelled"]);
          const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
          try {
            assert.deepEqual(pendingKeys(ledger).map((p) => p.job), [
              "JOB-001",
            ]);
          } finally {
            ledger.close();
          }
        } finally {
          await removeLedger(name);
        }
      },
    );

    await t.step(
      "both pipes closed mid-call (the client died): the call still finishes and its receipt is written",
      async () => {
        const name = ledgerName("died");
        try {
          const child = startGuardlab(["mcp", "--ledger", name]);
          const lines = [JSON.stringify(initialize(1, "dies", "0"))];
          for (let i = 1; i <= 5; i++) {
            lines.push(JSON.stringify({
              jsonrpc: "2.0",
              id: i + 10,
              method: "tools/call",
              params: call("create_draft", { ...ARGS, job: `JOB-00${i}` }),
            }));
          }
          // The client writes, then dies: nobody reads a reply, both pipes close.
          await child.stdout.cancel();
          const writer = child.stdin.getWriter();
          await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
          await writer.close();
          const { code, stderr } = await child.output();
          assert.equal(code, 0, new TextDecoder().decode(stderr));
          const seen = observed(name);
          const jobs = seen.drafts.map((d) => d.job);
          // The input was read to its end before the server stopped: every
          // call ran, though nobody read a reply.
          assert.deepEqual(jobs, [
            "JOB-001",
            "JOB-002",
            "JOB-003",
            "JOB-004",
            "JOB-005",
          ]);
          assert.deepEqual(seen.receipts.map((r) => r.job), jobs);
          const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
          try {
            assert.deepEqual(pendingKeys(ledger), []);
          } finally {
            ledger.close();
          }
        } finally {
          await removeLedger(name);
        }
      },
    );
  },
});

Deno.test({
  name:
    "mcp hostile: 16 calls held by a fault lend their places: a 17th call and a ping are still answered; the held ones end cancelled when the client leaves" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const name = ledgerName("held");
    using faults = faultsFile(
      Array.from({ length: 16 }, (_, i) => ({
        call: i + 1,
        hold_at: "before_business",
        hold_ms: 600000,
      })),
    );
    try {
      await using c = new RawClient([
        "--ledger",
        name,
        "--faults",
        faults.path,
      ]);
      await c.initialize();
      for (let i = 1; i <= 16; i++) {
        await c.request(
          "tools/call",
          call("create_draft", {
            ...ARGS,
            job: `JOB-${String(i).padStart(3, "0")}`,
          }),
        );
      }
      await c.until(
        () =>
          c.stderr.filter((l) => /held at before_business/.test(l)).length ===
            16,
        "16 held calls",
      );
      const extra = await c.request("tools/call", call("create_draft", ARGS));
      const r = await c.reply(extra);
      assert.equal(
        (r.result?.structuredContent as { status: string }).status,
        "accepted",
      );
      const ping = await c.request("ping");
      assert.deepEqual((await c.reply(ping)).result, {});
      assert.equal(await c.end(), 0);
      const seen = observed(name);
      assert.deepEqual(
        seen.drafts.map((d) => d.job),
        ["JOB-001"],
        "held before business: nothing written by them",
      );
      assert.equal(seen.receipts.length, 17);
      assert.equal(
        seen.receipts.filter((x) => x.status === "cancelled").length,
        16,
      );
    } finally {
      await removeLedger(name);
    }
  },
});
