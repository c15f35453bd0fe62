/**
 * Overlapping calls drawn in the order they happened. A raw JSON-RPC client
 * (no SDK: the messages go in exactly this order) sends `create_draft`,
 * which is held after its commit; while it is held, the client asks
 * `ledger` by key and then resends the same call, which reuses the draft and
 * is answered first; then it cancels the first. Receipt numbers follow the
 * ends (#1 is the reuse, #2 the cancelled commit); `ledger --timeline` draws
 * the attempts in the order they started, each with its session and call
 * number and the calls it overlapped, the read between them. The expected
 * screens are written by hand.
 */
import assert from "node:assert/strict";
import { RawClient } from "../_helpers/raw_client.ts";
import {
  CAN_SPAWN_CLIENT,
  faultsFile,
  ledgerFile,
  ledgerName,
  NEEDS_CLIENT,
  removeLedger,
} from "../_helpers/mcp_helpers.ts";
import { spawnGuardlab } from "../_helpers/spawn.ts";
import { Ledger } from "../../lib/timing/ledger.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const call = (name: string, args: unknown) => ({ name, arguments: args });

const EN = [
  "2 attempts in order: 2 with a receipt, 0 without (a draft no receipt records)",
  "  | commit point  [ok] passed  [no] refused  [!!] failed  [xx] cancelled",
  "  [..] in parallel  [ ] not reached  [??] unknown",
  "  (session S, call N): the MCP call it was; drawn in the order the calls started",
  '  session 1: client "hostile 0"',
  "#2  JOB-001  cancelled  committed  (session 1, call 1)",
  "    args [ok] > input [ok] > business [ok] | after commit [xx] > output [ ] >",
  "        receipt [ok]",
  "      cancel arrived after commit: draft stays",
  "      overlapped: call 2 (ledger), call 3 (#1)",
  "read: ledger JOB-001  (session 1, call 2)",
  "      overlapped: call 1 (#2)",
  "#1  JOB-001  accepted  reused  (session 1, call 3)",
  "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
  "      overlapped: call 1 (#2)",
];

const ZH = [
  "按顺序共 2 次调用：2 次有回执，0 次没有（没有回执记录的草稿）",
  "  | 提交点  [ok] 通过  [no] 拒绝  [!!] 失败  [xx] 取消",
  "  [..] 并行中  [ ] 未到达  [??] 不明",
  "  （会话 S，第 N 次调用）：它是哪一次 MCP 调用；按调用开始的顺序画出",
  '  会话 1：客户端 "hostile 0"',
  "#2  JOB-001  cancelled  已提交  （会话 1，第 1 次调用）",
  "    参数 [ok] > 前检 [ok] > 业务写入 [ok] | 提交之后 [xx] > 后检 [ ] > 回执 [ok]",
  "      取消在提交之后才到达，草稿留下",
  "      与之重叠：第 2 次调用（ledger）、第 3 次调用（#1）",
  "读取：ledger JOB-001  （会话 1，第 2 次调用）",
  "      与之重叠：第 1 次调用（#2）",
  "#1  JOB-001  accepted  复用  （会话 1，第 3 次调用）",
  "    参数 [ok] > 前检 [ok] > 业务写入 [ok] | 后检 [ok] > 回执 [ok]",
  "      与之重叠：第 1 次调用（#2）",
];

Deno.test({
  name:
    "mcp: a resend while the first call is held after its commit: the timeline draws the commit first, the read between, and the overlap" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn(t) {
    const name = ledgerName("overlap");
    using faults = faultsFile([{ call: 1, hold_at: "after_commit" }]);
    try {
      {
        await using c = new RawClient([
          "--ledger",
          name,
          "--faults",
          faults.path,
        ]);
        await c.initialize();
        const first = await c.request("tools/call", call("create_draft", ARGS));
        await c.until(
          () => c.stderr.some((l) => /call 1: held at after_commit/.test(l)),
          "the hold",
        );
        // Did the agent look before it retried? It did: ledger by key.
        const look = await c.request(
          "tools/call",
          call("ledger", { job: ARGS.job }),
        );
        const seen = (await c.reply(look)).result?.structuredContent as {
          drafts: { job: string }[];
        };
        assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
        const again = await c.request("tools/call", call("create_draft", ARGS));
        const reused = (await c.reply(again)).result?.structuredContent as {
          call: number;
          session: number;
          receipt: number;
          events: string[];
        };
        assert.deepEqual(
          [reused.session, reused.call, reused.receipt],
          [1, 3, 1],
        );
        assert.ok(reused.events.includes("effect_reused"));
        await c.write(
          JSON.stringify({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: first, reason: "the user pressed stop" },
          }) + "\n",
        );
        await c.until(
          () => c.stderr.some((l) => /call 1 create_draft: cancelled/.test(l)),
          "the cancel",
        );
        assert.equal(await c.end(), 0, c.stderr.join("\n"));
        assert.ok(!c.replies.some((r) => r.id === first), "no reply to #1");
      }
      await t.step("beside the receipts: the calls and the session", () => {
        const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
        try {
          assert.deepEqual(
            ledger.receipts().map((r) => [r.attempt, r.status]),
            [[1, "accepted"], [2, "cancelled"]],
          );
          const calls = ledger.calls();
          assert.deepEqual(
            calls.map((c) => [c.session, c.call, c.tool, c.job, c.receipt]),
            [
              [1, 1, "create_draft", "JOB-001", 2],
              [1, 2, "ledger", "JOB-001", null],
              [1, 3, "create_draft", "JOB-001", 1],
            ],
          );
          // The first started first and ended last: the other two ran inside it.
          const [one, two, three] = calls;
          assert.ok(one.started_us <= two.started_us);
          assert.ok(three.ended_us <= one.ended_us);
          assert.deepEqual(
            ledger.sessions().map((s) => [s.session, s.client]),
            [[1, "hostile 0"]],
          );
        } finally {
          ledger.close();
        }
      });
      await t.step("ledger --timeline, in both languages", async () => {
        for (const [lang, expected] of [["en", EN], ["zh", ZH]] as const) {
          const r = await spawnGuardlab([
            "ledger",
            "--ledger",
            name,
            "--timeline",
            "--lang",
            lang,
          ]);
          assert.equal(r.code, 0, r.err.join("\n"));
          assert.deepEqual(r.out, expected);
        }
      });
      await t.step("ledger --timeline --format json", async () => {
        const r = await spawnGuardlab([
          "ledger",
          "--ledger",
          name,
          "--timeline",
          "--format",
          "json",
        ]);
        const json = JSON.parse(r.out.join("\n"));
        assert.deepEqual(
          json.attempts.map((a: { receipt: number; by: unknown }) => [
            a.receipt,
            a.by,
          ]),
          [
            [2, {
              session: 1,
              call: 1,
              overlaps: [
                { session: 1, call: 2, receipt: null, tool: "ledger" },
                { session: 1, call: 3, receipt: 1, tool: "create_draft" },
              ],
            }],
            [1, {
              session: 1,
              call: 3,
              overlaps: [
                { session: 1, call: 1, receipt: 2, tool: "create_draft" },
              ],
            }],
          ],
        );
        assert.deepEqual(json.reads, [{
          tool: "ledger",
          job: "JOB-001",
          by: {
            session: 1,
            call: 2,
            overlaps: [{
              session: 1,
              call: 1,
              receipt: 2,
              tool: "create_draft",
            }],
          },
          after: 1,
        }]);
        assert.deepEqual(json.sessions, [{ session: 1, client: "hostile 0" }]);
      });
    } finally {
      await removeLedger(name);
    }
  },
});
