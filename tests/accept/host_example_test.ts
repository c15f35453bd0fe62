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
import { HOST_EXAMPLE_TIMEOUT_MS } from "../../lib/accept/limits.ts";
import { hostCaseWithLedger, hostSeen } from "../_helpers/accept_helpers.ts";
import { ENV_READABLE, NEEDS_ENV } from "../_helpers/env.ts";

const NEEDS = NEEDS_ENV;

/** What agents-core 0.20.0 hands the model when an MCP call fails (its default error function). */
const AGENTS_CORE_FAILED =
  "An error occurred while running the tool. Please try again.";

/** The tool's own error after the commit (lib/accept/_host_history.ts's TOOL_ERROR_TEXT). */
const TOOL_ERROR = "error: the ledger failed after writing the row; try again";

/** One case run in process; the row, and the ledger as the test read it. */
function exampleCase(name: HostCaseName, variant: HostVariant) {
  return hostCaseWithLedger((base, onLedger) =>
    runHostExample("agents-core", name, variant, { base, onLedger })
  );
}

/** When the held answer was released, as the history says: after the host's cancel, or never. */
function released(row: HostCaseResult): string[] {
  return row.history.records.flatMap((r) =>
    r.op === "fault" && r.fault === "release" ? [r.after] : []
  );
}

for (
  const [name, whenReleased] of [
    // The withheld answer went out after the host's cancel (too late).
    ["late-reply", ["cancel"]],
    // It never went out.
    ["no-reply", []],
  ] as const
) {
  for (const variant of ["unkeyed", "keyed"] as const) {
    Deno.test({
      name:
        `host example: agents-core 0.20.0, ${name}, ${variant}: it cancels, tells the model the call failed, and the naive model's new key doubles the effect` +
        NEEDS,
      ignore: !ENV_READABLE,
      async fn() {
        const { row, ledger } = await exampleCase(name, variant);
        assert.deepEqual(hostSeen(row, ledger), {
          verdict: "TOLD-FAILED",
          info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
          resent: 0,
          cancelled: true,
          told: AGENTS_CORE_FAILED,
          ledger: [1, 1],
          counted: [1, 1],
        });
        // What a model reads in that text: a failure (not "unknown").
        assert.equal(row.told, "failure");
        assert.deepEqual(released(row), whenReleased);
        assert.equal(row.transport, "http");
        assert.deepEqual(row.host_output, []);
      },
    });
  }
}

Deno.test({
  name:
    "host example: agents-core 0.20.0, error-after-commit: it hands the tool's own error on, no cancel, the new key doubles" +
    NEEDS,
  ignore: !ENV_READABLE,
  async fn() {
    const { row, ledger } = await exampleCase("error-after-commit", "keyed");
    assert.deepEqual(hostSeen(row, ledger), {
      verdict: "PASSED-ON-ERROR",
      info: ["NEW-KEY-DOUBLED"],
      resent: 0,
      cancelled: false,
      told: TOOL_ERROR,
      ledger: [1, 1],
      counted: [1, 1],
    });
    assert.equal(row.told, "tool-error");
  },
});

Deno.test({
  name: "host example: agents-core 0.20.0, no fault: told success, one row" +
    NEEDS,
  ignore: !ENV_READABLE,
  async fn() {
    const { row, ledger } = await exampleCase("no-fault", "unkeyed");
    assert.deepEqual(hostSeen(row, ledger), {
      verdict: "TOLD-SUCCESS",
      info: [],
      resent: 0,
      cancelled: false,
      told: `ok: row for ${row.key} written`,
      ledger: [1, 0],
      counted: [1, 0],
    });
    assert.equal(row.told, "success");
  },
});

Deno.test({
  name:
    "host example: agents-core 0.20.0 stopped at guardlab's limit: the cancel its client sends in answer to the abort is not counted as the host's, the row is STILL-WAITING" +
    NEEDS,
  ignore: !ENV_READABLE,
  async fn() {
    // A limit no longer than the host's own 1000 ms timeout, which starts
    // later (at its call): guardlab's limit always comes first.
    const { row, ledger } = await hostCaseWithLedger((base, onLedger) =>
      runHostExample("agents-core", "late-reply", "unkeyed", {
        base,
        onLedger,
        runMs: HOST_EXAMPLE_TIMEOUT_MS,
      })
    );
    const ops = row.history.records.map((r) =>
      r.op === "process" && r.who === "host" ? `host ${r.event}` : r.op
    );
    // The call reached the tool before the limit; the cancel came after it.
    assert.ok(ops.indexOf("call") < ops.indexOf("host limit"), ops.join());
    assert.ok(ops.indexOf("host limit") < ops.indexOf("cancel"), ops.join());
    assert.equal(ops.includes("host exit"), false, ops.join());
    const cancel = row.history.records.find((r) => r.op === "cancel");
    assert.equal(
      cancel?.op === "cancel" ? cancel.reason : undefined,
      "AbortError: The signal has been aborted",
    );
    assert.deepEqual(hostSeen(row, ledger), {
      verdict: "STILL-WAITING",
      info: [],
      resent: 0,
      cancelled: false,
      told: undefined,
      ledger: [1, 0],
      counted: [1, 0],
    });
    assert.deepEqual([row.host_end, row.told, row.class], [
      "limit",
      "nothing",
      "inconclusive",
    ]);
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
