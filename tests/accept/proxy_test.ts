/**
 * `guardlab proxy` in front of `guardlab mcp`: every message forwarded
 * unchanged, recorded in a bounded JSON Lines file, faults applied by tool
 * name and call number; then driven by clients someone else wrote: the MCP
 * SDK's own `Client`, and `@openai/agents-core`'s `MCPServerStdio` with a
 * scripted agent whose timeout and retry land on the proxy's timeline.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sandboxCommand } from "../_helpers/spawn.ts";
import {
  CAN_START,
  engineerCommand,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  PUT_NOTE_SESSION,
  ROOT,
  runEngineer,
} from "../_helpers/accept_helpers.ts";
import { ledgerName, observed, removeLedger } from "../_helpers/mcp_helpers.ts";
import { mcpClientSdk } from "../_helpers/deps.ts";
import {
  functionCall,
  lastToolResult,
  message,
  runAgent,
  ScriptedModel,
  sdk,
} from "../_helpers/sdk_harness.ts";
import { cli } from "../_helpers/helpers.ts";
import { parseRecord, type RecordLine } from "../../lib/accept/record.ts";
import { proxySteps } from "../../lib/accept/views/proxy_view.ts";
import { say } from "../../lib/base/i18n.ts";
import { initialize, INITIALIZED } from "../_helpers/mcp_wire.ts";

/** The steps `proxy show` draws for `record`, one line each (unwrapped). */
function stepsOf(record: string): string[] {
  const lines = parseRecord(Deno.readTextFileSync(record)) as RecordLine[];
  return proxySteps(lines, ORACLE).map((s) =>
    `${s.lane}: ${say(s.text, "en")}`
  );
}

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const ORACLE = {
  tools: [{
    tool: "create_draft",
    call: { job: "JOB-{n:3}", topic: "river", copies: 2 },
    key: "/job",
    read: { tool: "ledger", arguments: { job: "{key}" } },
    count: { json: "/drafts", match: { job: "{key}" } },
  }],
};

const INPUT = [
  initialize(1, "t"),
  INITIALIZED,
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "create_draft", arguments: ARGS },
  },
  { jsonrpc: "2.0", id: "four", method: "prompts/list" },
  { jsonrpc: "2.0", id: 5, method: "resources/list" },
  {
    jsonrpc: "2.0",
    id: 6,
    method: "tools/call",
    params: { name: "ledger", arguments: { job: "JOB-001" } },
  },
].map((m) => JSON.stringify(m)).join("\n") + "\nnot json\n";

function mcpArgs(extra: string[] = []): string[] {
  const { program, args } = sandboxCommand();
  return [program, ...args, "mcp", ...extra];
}

function files(dir: string) {
  const record = join(dir, "record.jsonl");
  const faults = join(dir, "faults.jsonl");
  const oracle = join(dir, "oracle.json");
  Deno.writeTextFileSync(oracle, JSON.stringify(ORACLE));
  return { record, faults, oracle };
}

Deno.test({
  name:
    "proxy: every message goes through unchanged, both ways, and each is recorded with its direction" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-proxy-same-");
    const { record } = files(dir.path);
    const began = Date.now();
    const direct = await runEngineer(["mcp"], INPUT);
    const proxied = await runEngineer([
      "proxy",
      "--record",
      record,
      "--",
      ...mcpArgs(),
    ], INPUT);
    assert.equal(proxied.code, 0, proxied.err.join("\n"));
    // Byte for byte what the server wrote, in order.
    assert.equal(proxied.stdout, direct.stdout);
    assert.equal(
      proxied.out.length,
      7,
      "six answers and the parse error of the line that is not JSON",
    );
    const lines = Deno.readTextFileSync(record).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const { epoch_ms, trace, ...start } = lines[0];
    assert.deepEqual(start, {
      kind: "start",
      guardlab_proxy: 1,
      command: mcpArgs(),
      oracle: false,
      read_before_delivery: false,
    });
    // The session's own trace, for calls that name no parent: random hex.
    assert.match(trace, /^[0-9a-f]{32}$/);
    // t = 0 on the wall clock: between the test's start and now.
    assert.ok(
      epoch_ms > began - 1 && epoch_ms < Date.now() + 1,
      `${epoch_ms} within ${began}..${Date.now()}`,
    );
    assert.deepEqual(lines.at(-1).kind, "end");
    const dirs = lines.filter((l) => l.kind === "msg").map((l) =>
      `${l.dir} ${l.action}${l.call ? ` ${l.call}` : ""}`
    );
    assert.equal(
      dirs.filter((d) => d.startsWith("client>server forwarded")).length,
      8,
    );
    assert.equal(
      dirs.filter((d) => d.startsWith("server>client forwarded")).length,
      7,
    );
    assert.ok(
      dirs.includes("client>server forwarded 2"),
      "the second tools/call is call 2",
    );
    assert.equal((Deno.statSync(record).mode ?? 0) & 0o777, 0o600);
  },
});

Deno.test({
  name:
    "proxy: the MCP SDK's own Client: a dropped answer times out, the retry reuses, a copy and a delay are drawn" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-proxy-sdk-");
    const { record, faults, oracle } = files(dir.path);
    Deno.writeTextFileSync(
      faults,
      [
        { tool: "create_draft", call: 1, drop_response: true },
        { tool: "create_draft", call: 2, deliver_twice: true },
        { tool: "create_draft", call: 3, delay_response_ms: 200 },
      ].map((f) => JSON.stringify(f)).join("\n"),
    );
    const name = ledgerName("proxy");
    const { Client, StdioClientTransport } = await mcpClientSdk();
    const { command, args } = engineerCommand([
      "proxy",
      "--record",
      record,
      "--faults",
      faults,
      "--oracle",
      oracle,
      "--",
      ...mcpArgs(["--ledger", name]),
    ]);
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "guardlab-proxy-test", version: "1" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t: { name: string }) => t.name), [
        "create_draft",
        "ledger",
        "reconcile",
        "compensate",
      ]);
      // Call 1's answer is dropped: the client's own timeout ends its wait.
      await assert.rejects(
        () =>
          client.callTool(
            { name: "create_draft", arguments: ARGS },
            undefined,
            { timeout: 500 },
          ),
        /timed out/i,
      );
      const retry = await client.callTool({
        name: "create_draft",
        arguments: ARGS,
      });
      assert.match(
        JSON.stringify(retry.content),
        /already existed and was reused/,
      );
      const late = await client.callTool({
        name: "create_draft",
        arguments: ARGS,
      });
      assert.equal(late.isError, undefined);
    } finally {
      await client.close();
    }
    try {
      // One draft, committed by the call whose answer the client never saw.
      const seen = observed(name);
      assert.deepEqual(seen.drafts.map((d) => d.job), ["JOB-001"]);
      assert.deepEqual(
        seen.receipts.map((r) =>
          r.events.includes("effect_committed") ? "committed" : "reused"
        ),
        ["committed", "reused", "reused", "reused"],
        "call 2 reached the server twice",
      );
    } finally {
      await removeLedger(name);
    }
    const show = await cli(["proxy", "show", record, "--oracle", oracle]);
    assert.equal(show.code, 0, show.err.join("\n"));
    const steps = stepsOf(record).filter((l) =>
      !/initialize|tools\/list|notifications\/initialized/.test(l)
    );
    // The copy's answer may come before or after the client's next call,
    // and the read the proxy makes as the client cancels call 1 before or
    // after the retry: every step is there, and each comes after what
    // caused it.
    const expected = [
      "client: sends call 1 create_draft",
      "server: answers call 1: success",
      "guardlab: drops the answer to call 1 (fault)",
      "client: cancels call 1",
      "guardlab: reads create_draft JOB-001 as call 1 is cancelled: effect 1",
      "client: retries: call 2 create_draft, same key as call 1",
      "guardlab: sends copies of call 2: 1 more (fault)",
      "server: answers call 2: success",
      "server: answers a copy of call 2: success",
      "client: retries: call 3 create_draft, same key as call 2",
      "server: answers call 3: success",
      "guardlab: holds the answer to call 3 200 ms (fault)",
      "guardlab: delivers call 3: success",
      "guardlab: reads create_draft JOB-001: effect 1",
    ];
    assert.deepEqual([...steps].sort(), [...expected].sort());
    const copy = expected.indexOf("server: answers a copy of call 2: success");
    const onCancel = expected.indexOf(
      "guardlab: reads create_draft JOB-001 as call 1 is cancelled: effect 1",
    );
    const floating = [expected[copy], expected[onCancel]];
    assert.deepEqual(
      steps.filter((l) => !floating.includes(l)),
      expected.filter((l) => !floating.includes(l)),
    );
    assert.ok(steps.indexOf(expected[copy]) > steps.indexOf(expected[6]));
    assert.ok(steps.indexOf(expected[onCancel]) > steps.indexOf(expected[3]));
    assert.ok(
      show.out.includes("  create_draft JOB-001: calls 1, 2, 3; effect 1"),
      show.out.join("\n"),
    );
    const svg = await cli(["proxy", "show", record, "--format", "svg"]);
    assert.match(
      svg.out.join("\n"),
      /data-lane="guardlab" data-kind="withheld"/,
    );
  },
});

Deno.test({
  name:
    "proxy: an Agents SDK agent over MCPServerStdio: its timeout and retry on the proxy's timeline, one effect" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const api = await sdk();
    using dir = privateDir("gl-proxy-agent-");
    const { record, faults, oracle } = files(dir.path);
    Deno.writeTextFileSync(
      faults,
      JSON.stringify({ tool: "create_draft", call: 1, drop_response: true }) +
        "\n",
    );
    const name = ledgerName("proxy-agent");
    const { command, args } = engineerCommand([
      "proxy",
      "--record",
      record,
      "--faults",
      faults,
      "--oracle",
      oracle,
      "--",
      ...mcpArgs(["--ledger", name]),
    ]);
    // Starting two processes may take a while on a loaded machine: the
    // connection waits as long as it needs; then the agent's own tool-call
    // timeout is set short, and only the dropped answer ever meets it.
    const server = new api.MCPServerStdio({
      name: "guardlab-via-proxy",
      command,
      args,
      cwd: ROOT,
      timeout: 60_000,
    });
    const log: string[] = [];
    const model = new ScriptedModel(api, [
      [functionCall("create_draft", ARGS, "call_1")],
      [functionCall("create_draft", ARGS, "call_2")],
      [message("JOB-001 is drafted.")],
    ], log);
    try {
      await server.connect();
      // The facade hands calls to its underlying stdio server, which reads
      // its timeout at each call. Only the dropped answer meets it; 5 s
      // leaves the retry's real answer room on a loaded machine.
      (server as unknown as { underlying: { timeout: number } }).underlying
        .timeout = 5000;
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Draft the print job the user asks for.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
        mcpServers: [server],
      });
      const end = await runAgent(api, agent, "Draft JOB-001.", false);
      assert.equal(end.error, undefined, String(end.error));
      assert.equal(end.finalOutput, "JOB-001 is drafted.");
      // The model saw a failure for the first call, then the reuse.
      assert.doesNotMatch(
        String(lastToolResult(model.requests[1])),
        /committed by this call/,
      );
      assert.match(
        String(lastToolResult(model.requests[2])),
        /already existed and was reused/,
      );
    } finally {
      await server.close();
    }
    try {
      assert.deepEqual(observed(name).drafts.map((d) => d.job), ["JOB-001"]);
    } finally {
      await removeLedger(name);
    }
    // The SDK's client probes with server/discover, then starts the server
    // again: the second proxy wrote record-2.jsonl beside the first.
    const first = stepsOf(record);
    assert.ok(
      first.some((l) => l.includes("server/discover")),
      first.join("\n"),
    );
    const session = join(dir.path, "record-2.jsonl");
    const show = await cli(["proxy", "show", session, "--oracle", oracle]);
    const steps = stepsOf(session).filter((l) => /call|reads/.test(l));
    // The proxy reads the effect as the client cancels call 1, while the
    // server is still there; its answer may come before or after the retry.
    const onCancel =
      "guardlab: reads create_draft JOB-001 as call 1 is cancelled: effect 1";
    assert.ok(
      steps.indexOf(onCancel) > steps.indexOf("client: cancels call 1"),
      steps.join("\n"),
    );
    assert.deepEqual(steps.filter((l) => l !== onCancel), [
      "client: sends call 1 create_draft",
      "server: answers call 1: success",
      "guardlab: drops the answer to call 1 (fault)",
      "client: cancels call 1",
      "client: retries: call 2 create_draft, same key as call 1",
      "server: answers call 2: success",
      "guardlab: reads create_draft JOB-001: effect 1",
    ]);
    assert.ok(
      show.out.includes("  create_draft JOB-001: calls 1, 2; effect 1"),
      show.out.join("\n"),
    );
  },
});

const PUT = PUT_NOTE_SESSION;

Deno.test({
  name:
    "proxy: a hostile server: what is not JSON-RPC or is over 4 MiB never reaches the client; an exit ends the session in one line" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-proxy-hostile-");
    for (const mode of ["non-json", "huge-message"]) {
      const r = await runEngineer([
        "proxy",
        "--record",
        join(dir.path, `${mode}.jsonl`),
        "--",
        ...fixtureCommand(mode),
      ], PUT);
      assert.equal(r.code, 0, r.err.join("\n"));
      // Only the two answers: every line the client reads is a message.
      assert.deepEqual(r.out.map((l) => JSON.parse(l).id), [1, 2]);
      assert.equal(
        r.err.filter((l) =>
          l.includes(
            mode === "non-json"
              ? "not JSON-RPC"
              : "over 4194304 bytes was discarded",
          )
        ).length,
        1,
        r.err.join("\n"),
      );
    }
    const exits = await runEngineer([
      "proxy",
      "--record",
      join(dir.path, "exits.jsonl"),
      "--",
      ...fixtureCommand("exits-mid-call"),
    ], PUT);
    assert.equal(exits.code, 1);
    assert.deepEqual(exits.out.map((l) => JSON.parse(l).id), [1]);
    assert.ok(
      exits.err.includes(
        "guardlab proxy: the server exited (3); the session ends",
      ),
      exits.err.join("\n"),
    );
  },
});
