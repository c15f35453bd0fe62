/**
 * A real agent host nobody here wrote, run in process under the students'
 * grant: `@openai/agents-core` 0.20.0 (its Runner, Agent and Streamable
 * HTTP MCP client, its fetch guardlab's own), against the scripted model
 * and the tool `accept host` plays (lib/accept/_host_example.ts). Each
 * verdict is checked against the ledger, counted here by the test itself
 * (its own parse of the file the tool appends to), and against the text
 * the host handed the model, written here by hand from what agents-core
 * 0.20.0 says after a failed MCP call.
 *
 * It needs no run and no net: only read and write (the temp folder) and an
 * environment that is readable or ignored, as agents-core reads
 * `process.env` as it loads. Under the plain `deno test --allow-read
 * --allow-write` every read of the environment throws, so the tests are
 * ignored there with the reason; `deno task test` runs them, and so does
 * the students' grant itself: `deno test --allow-read=/tmp --allow-write=/tmp
 * --ignore-env` (a reader of the checkout aside).
 */
import assert from "node:assert/strict";
import type { HostCaseName, HostVariant } from "../../lib/accept/cases.ts";
import {
  chatBodyOf,
  inProcessFetch,
  runHostExample,
} from "../../lib/accept/_host_example.ts";
import type { HostCaseResult } from "../../lib/accept/host_report.ts";
import { judgeHostCase } from "../../lib/accept/_host_checker.ts";
import { privateDir, rowsByKey } from "../_helpers/accept_helpers.ts";
import { ENV_READABLE, NEEDS_ENV } from "../_helpers/env.ts";

const NEEDS = NEEDS_ENV;

/** What agents-core 0.20.0 hands the model when an MCP call fails (its default error function). */
const AGENTS_CORE_FAILED =
  "An error occurred while running the tool. Please try again.";

/** The tool's own error after the commit (lib/accept/_host_history.ts's TOOL_ERROR_TEXT). */
const TOOL_ERROR = "error: the ledger failed after writing the row; try again";

/** One case run in process; the row, and the ledger as the test read it. */
async function exampleCase(
  name: HostCaseName,
  variant: HostVariant,
): Promise<{ row: HostCaseResult; ledger: Map<string, number> }> {
  using base = privateDir("gl-host-example-");
  let ledger = new Map<string, number>();
  const row = await runHostExample("agents-core", name, variant, {
    base: base.path,
    onLedger: (path) => ledger = rowsByKey(path),
  });
  // What the row says is what its history gives, judged again.
  assert.equal(judgeHostCase(row.history).verdict, row.verdict);
  return { row, ledger };
}

/** What a row says, beside the ledger as the test counted it. */
function seen(row: HostCaseResult, ledger: Map<string, number>) {
  return {
    verdict: row.verdict,
    info: row.info,
    resent: row.resent,
    cancelled: row.cancelled,
    told: row.told,
    told_text: row.told_text,
    rows_key: ledger.get(row.key) ?? 0,
    rows_new_key: ledger.get(row.new_key) ?? 0,
    rows: [...ledger.values()].reduce((a, b) => a + b, 0),
  };
}

/** When the held answer was released, as the history says: after the host's cancel, or never. */
function released(row: HostCaseResult): string[] {
  return row.history.records.flatMap((r) =>
    r.op === "fault" && r.fault === "release" ? [r.after] : []
  );
}

for (const variant of ["unkeyed", "keyed"] as const) {
  Deno.test({
    name:
      `host example: agents-core 0.20.0, late-reply, ${variant}: it cancels, tells the model the call failed, and the naive model's new key doubles the effect` +
      NEEDS,
    ignore: !ENV_READABLE,
    async fn() {
      const { row, ledger } = await exampleCase("late-reply", variant);
      assert.deepEqual(seen(row, ledger), {
        verdict: "TOLD-FAILED",
        info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
        resent: 0,
        cancelled: true,
        told: "failure",
        told_text: AGENTS_CORE_FAILED,
        rows_key: 1,
        rows_new_key: 1,
        rows: 2,
      });
      // The withheld answer went out after the host's cancel (too late).
      assert.deepEqual(released(row), ["cancel"]);
      assert.equal(row.transport, "http");
      assert.deepEqual(row.host_output, []);
    },
  });

  Deno.test({
    name:
      `host example: agents-core 0.20.0, no-reply, ${variant}: the same, and the answer never goes out` +
      NEEDS,
    ignore: !ENV_READABLE,
    async fn() {
      const { row, ledger } = await exampleCase("no-reply", variant);
      assert.deepEqual(seen(row, ledger), {
        verdict: "TOLD-FAILED",
        info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
        resent: 0,
        cancelled: true,
        told: "failure",
        told_text: AGENTS_CORE_FAILED,
        rows_key: 1,
        rows_new_key: 1,
        rows: 2,
      });
      assert.deepEqual(released(row), []);
    },
  });
}

Deno.test({
  name:
    "host example: agents-core 0.20.0, error-after-commit: it hands the tool's own error on, no cancel, the new key doubles" +
    NEEDS,
  ignore: !ENV_READABLE,
  async fn() {
    const { row, ledger } = await exampleCase("error-after-commit", "keyed");
    assert.deepEqual(seen(row, ledger), {
      verdict: "PASSED-ON-ERROR",
      info: ["NEW-KEY-DOUBLED"],
      resent: 0,
      cancelled: false,
      told: "tool-error",
      told_text: TOOL_ERROR,
      rows_key: 1,
      rows_new_key: 1,
      rows: 2,
    });
  },
});

Deno.test({
  name: "host example: agents-core 0.20.0, no fault: told success, one row" +
    NEEDS,
  ignore: !ENV_READABLE,
  async fn() {
    const { row, ledger } = await exampleCase("no-fault", "unkeyed");
    assert.deepEqual(seen(row, ledger), {
      verdict: "TOLD-SUCCESS",
      info: [],
      resent: 0,
      cancelled: false,
      told: "success",
      told_text: `ok: row for ${row.key} written`,
      rows_key: 1,
      rows_new_key: 0,
      rows: 1,
    });
  },
});

Deno.test("host example: the host's fetch is answered in process, and an aborted request is rejected at once", async () => {
  let held: ((r: Response) => void) | undefined;
  const fetchIn = inProcessFetch((request) => {
    assert.equal(request.url, "http://guardlab.invalid/mcp");
    return new Promise((resolve) => held = resolve);
  });
  const stop = new AbortController();
  const pending = fetchIn("http://guardlab.invalid/mcp", {
    method: "POST",
    body: "{}",
    signal: stop.signal,
  });
  stop.abort(new Error("the host's timeout"));
  await assert.rejects(pending, /the host's timeout/);
  held?.(new Response(null, { status: 202 }));
  const answered = await inProcessFetch(() =>
    Promise.resolve(new Response("yes"))
  )("http://guardlab.invalid/mcp");
  assert.equal(await answered.text(), "yes");
});

Deno.test("host example: agents-core's input items become the chat body the scripted model reads", () => {
  assert.deepEqual(
    chatBodyOf({
      input: [
        { type: "message", role: "user", content: "write" },
        {
          type: "function_call",
          callId: "call_guardlab_1",
          name: "write_row",
          arguments: '{"key":"k-1","amount":5}',
        },
        {
          type: "function_call_result",
          callId: "call_guardlab_1",
          output: { type: "text", text: "it failed" },
        },
        {
          type: "function_call_result",
          callId: "call_guardlab_2",
          output: "ok",
        },
      ],
      tools: [{ type: "function", name: "write_row" }],
    }),
    {
      messages: [
        { role: "user", content: "write" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "call_guardlab_1",
            type: "function",
            function: {
              name: "write_row",
              arguments: '{"key":"k-1","amount":5}',
            },
          }],
        },
        { role: "tool", tool_call_id: "call_guardlab_1", content: "it failed" },
        { role: "tool", tool_call_id: "call_guardlab_2", content: "ok" },
      ],
      tools: [{ type: "function", function: { name: "write_row" } }],
    },
  );
  assert.deepEqual(chatBodyOf({ input: "hi" }).messages, [
    { role: "user", content: "hi" },
  ]);
});
