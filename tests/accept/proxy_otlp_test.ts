/**
 * `guardlab proxy show RECORD --otlp FILE`: a record written by hand (a
 * call an instrumented client sent with its traceparent, held while its
 * effect was read; a call whose answer a fault dropped; a call sent twice
 * that the server answered with `isError`), decoded with OpenTelemetry's
 * own classes, each span, event and attribute checked against the
 * timeline below. And what the flags refuse.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import {
  CAN_START,
  labBehindProxy,
  NEEDS_START,
  privateDir,
  runEngineer,
} from "../_helpers/accept_helpers.ts";
import { guardlabAgentRecord } from "../../lib/accept/agent_hook.mjs";
import { persistedReceipts } from "../_helpers/helpers.ts";
import {
  functionCall,
  message,
  runAgent,
  ScriptedModel,
} from "../_helpers/sdk_harness.ts";
import { loadAgentsCore } from "../_helpers/deps.ts";
import { ORACLE } from "../../examples/guardrails_agent.ts";
import { callTool, initialize } from "../_helpers/mcp_wire.ts";
import { tempDir } from "../_helpers/tmp.ts";
import { MAX_OTLP_BYTES, MAX_SPANS } from "../../lib/otlp/trace.ts";
import {
  attributesOf,
  type DecodedSpan,
  decodeOtlpFile,
  spansOf,
} from "../_helpers/otlp.ts";

/** The session's start on the wall clock, Unix ms. */
const EPOCH = 1_765_000_000_000;
/** `t` ms into the record, as OTLP writes it. */
const at = (t: number) =>
  String(BigInt(Math.round((EPOCH + t) * 1000)) * 1000n);

const SESSION = "0af7651916cd43dd8448eb211c80319c";
const AGENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const AGENT_SPAN = "00f067aa0ba902b7";
const CLIENT_PARENT = `00-${AGENT_TRACE}-${AGENT_SPAN}-01`;
const [S1, S2, S3] = [
  "b7ad6b7169203331",
  "c8be7c827a314442",
  "d9cf8d938b425553",
];

const call = (id: number, key: string, meta?: Record<string, string>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "put_note",
    arguments: { id: key },
    ...(meta ? { _meta: meta } : {}),
  },
});
const result = (id: number | string, isError = false) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [], ...(isError ? { isError: true } : {}) },
});

/** The record, line by line: what the proxy wrote for this session. */
const RECORD = [
  {
    kind: "start",
    guardlab_proxy: 1,
    // A secret on the server's command line never leaves the record.
    command: ["/usr/local/bin/notes-server", "--token", "s3cret-token"],
    epoch_ms: EPOCH,
    trace: SESSION,
  },
  {
    kind: "msg",
    t: 1,
    dir: "client>server",
    action: "forwarded",
    bytes: 60,
    msg: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} },
  },
  {
    kind: "msg",
    t: 4,
    dir: "server>client",
    action: "forwarded",
    bytes: 40,
    msg: { jsonrpc: "2.0", id: 0, result: {} },
  },
  // Call 1: the client's own traceparent; held while its effect is read.
  {
    kind: "msg",
    t: 10,
    dir: "client>server",
    action: "forwarded",
    call: 1,
    tool: "put_note",
    span: S1,
    traceparent: CLIENT_PARENT,
    traceparent_from: "client",
    bytes: 120,
    msg: call(1, "n-1", { traceparent: CLIENT_PARENT }),
  },
  {
    kind: "msg",
    t: 20,
    dir: "server>guardlab",
    action: "held",
    call: 1,
    tool: "put_note",
    bytes: 50,
    msg: result(1),
  },
  {
    kind: "effect",
    t: 25,
    tool: "get_notes",
    key: "n-1",
    calls: [1],
    count: 1,
    before_delivery: 1,
  },
  {
    kind: "msg",
    t: 26,
    dir: "guardlab>client",
    action: "delivered",
    call: 1,
    tool: "put_note",
    after_read: true,
    bytes: 50,
    msg: result(1),
  },
  // Call 2: its answer dropped by a fault; the client never gets one.
  {
    kind: "msg",
    t: 30,
    dir: "client>server",
    action: "forwarded",
    call: 2,
    tool: "put_note",
    span: S2,
    bytes: 90,
    msg: call(2, "n-2"),
  },
  {
    kind: "msg",
    t: 40,
    dir: "server>guardlab",
    action: "dropped",
    call: 2,
    tool: "put_note",
    bytes: 50,
    msg: result(2),
  },
  // Call 3: sent twice (a fault); both answers say isError.
  {
    kind: "msg",
    t: 50,
    dir: "client>server",
    action: "forwarded",
    call: 3,
    tool: "put_note",
    span: S3,
    bytes: 90,
    msg: call(3, "n-3"),
  },
  {
    kind: "msg",
    t: 50.5,
    dir: "guardlab>server",
    action: "copy",
    call: 3,
    tool: "put_note",
    copies: 1,
    bytes: 0,
  },
  {
    kind: "msg",
    t: 55,
    dir: "server>client",
    action: "forwarded",
    call: 3,
    tool: "put_note",
    bytes: 60,
    msg: result(3, true),
  },
  {
    kind: "msg",
    t: 56,
    dir: "server>guardlab",
    action: "copy",
    call: 3,
    tool: "put_note",
    bytes: 60,
    msg: result("guardlab-copy-1", true),
  },
  // The reads at the session's end.
  {
    kind: "effect",
    t: 100,
    tool: "get_notes",
    key: "n-2",
    calls: [2],
    count: 1,
  },
  {
    kind: "effect",
    t: 101,
    tool: "get_notes",
    key: "n-3",
    calls: [3],
    count: 0,
  },
  { kind: "end", t: 110, truncated: false },
];

function eventsOf(s: DecodedSpan) {
  return s.events.map((
    e,
  ) => [e.name, e.timeUnixNano, attributesOf(e.attributes)]);
}

Deno.test("proxy show --otlp: each span, event and attribute of a record written by hand", async () => {
  await using dir = await tempDir();
  const record = `${dir.path}/session.jsonl`;
  Deno.writeTextFileSync(
    record,
    RECORD.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const file = `${dir.path}/trace.jsonl`;
  const shown = await cli(["proxy", "show", record, "--otlp", file]);
  assert.equal(shown.code, 0, shown.err.join("\n"));
  const plain = await cli(["proxy", "show", record]);
  assert.deepEqual(shown.out, plain.out, "the screen is the same");
  const text = Deno.readTextFileSync(file);
  assert.ok(!text.includes("s3cret"), "the command's arguments never leave");
  const [root, c1, c2, c3, ...rest] = spansOf(decodeOtlpFile(text));
  assert.deepEqual(rest, []);

  assert.deepEqual(
    [root.traceId, root.parentSpanId, root.name, root.kind],
    [SESSION, "", "proxy session", 1],
  );
  assert.deepEqual([root.startTimeUnixNano, root.endTimeUnixNano], [
    at(0),
    at(110),
  ]);
  assert.deepEqual(attributesOf(root.attributes), {
    "guardlab.source": "proxy",
    "guardlab.record": record,
    "guardlab.server": "notes-server",
    "guardlab.record.truncated": false,
  });
  assert.deepEqual(eventsOf(root), [
    ["guardlab.client.other", at(1), { "guardlab.note": "initialize" }],
    ["guardlab.server.other", at(4), {
      "guardlab.note": "answers initialize: success",
    }],
    ["guardlab.effect_visible", at(100), {
      "guardlab.job": "n-2",
      "guardlab.effect.count": 1,
      "guardlab.calls": ["2"],
      "guardlab.note": "reads get_notes n-2: effect 1",
    }],
    ["guardlab.effect_read", at(101), {
      "guardlab.job": "n-3",
      "guardlab.effect.count": 0,
      "guardlab.calls": ["3"],
      "guardlab.note": "reads get_notes n-3: effect 0",
    }],
  ]);

  // Call 1: in the agent's trace, the child of the span its traceparent named.
  assert.deepEqual(
    [c1.traceId, c1.spanId, c1.parentSpanId, c1.name, c1.kind],
    [AGENT_TRACE, S1, AGENT_SPAN, "tools/call put_note", 3],
  );
  assert.deepEqual([c1.startTimeUnixNano, c1.endTimeUnixNano], [
    at(10),
    at(26),
  ]);
  assert.deepEqual(attributesOf(c1.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "jsonrpc.request.id": "1",
    "guardlab.call": 1,
    "guardlab.outcome.known": true,
    "guardlab.traceparent.from": "client",
  });
  assert.deepEqual(eventsOf(c1), [
    ["guardlab.client.sent", at(10), {
      "guardlab.note": "sends call 1 put_note",
    }],
    ["guardlab.server.answered", at(20), {
      "guardlab.note": "answers call 1: success",
    }],
    ["guardlab.guardlab.held", at(20), {
      "guardlab.note": "holds the answer to call 1; reads first",
    }],
    // The commit point: the first read that saw the effect, before the
    // client knew anything.
    ["guardlab.effect_visible", at(25), {
      "guardlab.job": "n-1",
      "guardlab.effect.count": 1,
      "guardlab.calls": ["1"],
      "guardlab.note": "reads get_notes n-1: effect 1",
    }],
    ["guardlab.guardlab.delivered", at(26), {
      "guardlab.note": "delivers call 1: success",
    }],
  ]);
  assert.equal(c1.status ?? null, null);

  // Call 2: the reply withheld; the client never knew how it ended.
  assert.deepEqual(
    [c2.traceId, c2.spanId, c2.parentSpanId, c2.name],
    [SESSION, S2, root.spanId, "tools/call put_note"],
  );
  assert.deepEqual([c2.startTimeUnixNano, c2.endTimeUnixNano], [
    at(30),
    at(110),
  ]);
  assert.deepEqual(attributesOf(c2.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "jsonrpc.request.id": "2",
    "guardlab.call": 2,
    "guardlab.outcome.known": false,
    "guardlab.reply.withheld": true,
  });
  assert.deepEqual(eventsOf(c2).map(([name, t]) => [name, t]), [
    ["guardlab.client.sent", at(30)],
    ["guardlab.server.answered", at(40)],
    ["guardlab.guardlab.withheld", at(40)],
  ]);

  // Call 3: sent twice, answered twice, an error of the tool's.
  assert.deepEqual([c3.spanId, c3.parentSpanId], [S3, root.spanId]);
  assert.deepEqual([c3.startTimeUnixNano, c3.endTimeUnixNano], [
    at(50),
    at(55),
  ]);
  assert.deepEqual(attributesOf(c3.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "jsonrpc.request.id": "3",
    "error.type": "tool_error",
    "guardlab.call": 3,
    "guardlab.outcome.known": true,
    "guardlab.reply.duplicates": 1,
    "guardlab.copies": 1,
  });
  assert.deepEqual(c3.status, { code: 2, message: "tool_error" });
  assert.deepEqual(eventsOf(c3).map(([name, t]) => [name, t]), [
    ["guardlab.client.sent", at(50)],
    ["guardlab.guardlab.bad", at(50.5)],
    ["guardlab.server.answered", at(55)],
    ["guardlab.server.answered", at(56)],
  ]);

  // The same record again: the same file (the ids are the record's own).
  const again = `${dir.path}/again.jsonl`;
  assert.equal((await cli(["proxy", "show", record, "--otlp", again])).code, 0);
  assert.equal(Deno.readTextFileSync(again), text);
});

Deno.test("proxy: --otlp is show's, --traceparent a session's and a W3C value, and a taken FILE is refused before the record is read", async () => {
  await using dir = await tempDir();
  const record = `${dir.path}/session.jsonl`;
  Deno.writeTextFileSync(
    record,
    RECORD.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  assertUsageError(
    await cli(["proxy", "--otlp", `${dir.path}/t.jsonl`, "--", "true"]),
    /--otlp are for proxy show FILE/,
  );
  assertUsageError(
    await cli(["proxy", "show", record, "--traceparent", CLIENT_PARENT]),
    /--traceparent is for a session/,
  );
  assertUsageError(
    await cli(["proxy", "--traceparent", "00-zz-00-01", "--", "true"]),
    /not a W3C traceparent/,
  );
  const taken = `${dir.path}/taken.jsonl`;
  Deno.writeTextFileSync(taken, "mine\n");
  const r = await cli(["proxy", "show", record, "--otlp", taken]);
  assert.equal(r.code, 4);
  assert.deepEqual(r.out, []);
  assert.equal(r.err.length, 1);
  assert.match(r.err[0], /exists already/);
  assert.equal(Deno.readTextFileSync(taken), "mine\n");
});

/**
 * A server that answers every request with what the request's
 * `params._meta` held, as text: what the proxy sent it.
 */
const META_SERVER = `
const decoder = new TextDecoder();
let buffered = "";
for await (const chunk of Deno.stdin.readable) {
  buffered += decoder.decode(chunk, { stream: true });
  let at;
  while ((at = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    const text = JSON.stringify(m.params?._meta ?? null);
    const result = m.method === "initialize"
      ? { protocolVersion: "2025-06-18", capabilities: { tools: {} },
          serverInfo: { name: "meta", version: "1" } }
      : { content: [{ type: "text", text }] };
    Deno.stdout.writeSync(new TextEncoder().encode(
      JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n"));
  }
}
`;

Deno.test({
  name:
    "proxy --traceparent: a call with no traceparent reaches the server with the proxy's span as its parent, in the given trace; a client's own is forwarded untouched; the record keeps both" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-proxy-traceparent-");
    const server = join(dir.path, "meta_server.ts");
    Deno.writeTextFileSync(server, META_SERVER);
    const record = join(dir.path, "session.jsonl");
    const flag = `00-${AGENT_TRACE}-${AGENT_SPAN}-01`;
    const own = "00-11111111111111111111111111111111-2222222222222222-01";
    const r = await runEngineer(
      [
        "proxy",
        "--record",
        record,
        "--traceparent",
        flag,
        "--",
        Deno.execPath(),
        "run",
        "-q",
        "--no-prompt",
        server,
      ],
      [
        initialize(1, "t"),
        callTool(2, "put_note", { id: "a" }),
        {
          ...callTool(3, "put_note", { id: "b" }),
          params: {
            name: "put_note",
            arguments: { id: "b" },
            _meta: { traceparent: own, progressToken: 7 },
          },
        },
      ].map((m) => JSON.stringify(m)).join("\n") + "\n",
    );
    assert.equal(r.code, 0, r.stderr);
    const answers = new Map(
      r.out.map((l) => JSON.parse(l)).map((m) => [m.id, m.result]),
    );
    const lines = Deno.readTextFileSync(record).trimEnd().split("\n")
      .map((l) => JSON.parse(l));
    const start = lines[0];
    assert.match(start.trace, /^[0-9a-f]{32}$/);
    assert.equal(start.traceparent, flag);
    const sent = lines.filter((l) =>
      l.dir === "client>server" && l.call !== undefined
    );
    assert.equal(sent.length, 2);
    const [first, second] = sent;
    assert.match(first.span, /^[0-9a-f]{16}$/);
    assert.match(second.span, /^[0-9a-f]{16}$/);
    assert.notEqual(first.span, second.span);
    assert.deepEqual(
      [first.traceparent, first.traceparent_from],
      [flag, "flag"],
    );
    assert.deepEqual(
      [second.traceparent, second.traceparent_from],
      [own, "client"],
    );
    // What the server received: the proxy's own span as parent, in the
    // given trace; the client's _meta as it sent it.
    assert.deepEqual(JSON.parse(answers.get(2).content[0].text), {
      traceparent: `00-${AGENT_TRACE}-${first.span}-01`,
    });
    assert.deepEqual(JSON.parse(answers.get(3).content[0].text), {
      traceparent: own,
      progressToken: 7,
    });
    // The record keeps what the client sent, not what the proxy added.
    assert.equal(first.msg.params._meta, undefined);
  },
});

Deno.test({
  name:
    "proxy show --agent --otlp: an agents-core agent through the proxy lands in its own trace: the proxy's call is the child of the SDK's function span, by the SDK's own ids, with the tool guardrails on that span and the effect's first read on the call" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const api = await loadAgentsCore();
    api.setTracingDisabled(false);
    using dir = privateDir("gl-proxy-otlp-agent-");
    const oracle = join(dir.path, "oracle.json");
    const ledger = join(dir.path, "lab.sqlite");
    Deno.writeTextFileSync(oracle, JSON.stringify(ORACLE));
    const hook = await guardlabAgentRecord(api, join(dir.path, "agent.jsonl"), {
      replaceProcessors: true,
    });
    // agents-core's own ids, as its tracing reports them to a processor of
    // the test's own (beside the hook's).
    const seen: {
      trace: string;
      span: string;
      parent: string | null;
      type: string;
    }[] = [];
    api.addTraceProcessor({
      onTraceStart: () => Promise.resolve(),
      onTraceEnd: () => Promise.resolve(),
      onSpanStart: (
        s: {
          traceId: string;
          spanId: string;
          parentId: string | null;
          spanData: { type: string };
        },
      ) => {
        seen.push({
          trace: s.traceId,
          span: s.spanId,
          parent: s.parentId,
          type: s.spanData.type,
        });
        return Promise.resolve();
      },
      onSpanEnd: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
      forceFlush: () => Promise.resolve(),
      // deno-lint-ignore no-explicit-any
    } as any);
    const F = api.ToolGuardrailFunctionOutputFactory;
    const mcp = hook.watch(
      new api.MCPServerStdio({
        ...labBehindProxy(dir.path, oracle, ledger),
        toolInputGuardrails: [api.defineToolInputGuardrail({
          name: "batch_limit",
          run: () => Promise.resolve(F.allow()),
        })],
        toolOutputGuardrails: [api.defineToolOutputGuardrail({
          name: "release_check",
          run: () => Promise.resolve(F.rejectContent("refused: review first")),
        })],
      }),
    );
    const model = new ScriptedModel(api, [
      [functionCall("create_draft", {
        job: "JOB-002",
        topic: "forest",
        copies: 2,
      }, "call_2")],
      [message("done")],
    ]);
    try {
      await mcp.connect();
      const agent = new api.Agent({
        name: "clerk",
        instructions: "Draft.",
        // deno-lint-ignore no-explicit-any
        model: model as any,
        mcpServers: [mcp],
      });
      await runAgent(api, agent, "Draft.", false, new api.Runner());
    } finally {
      await mcp.close();
      hook.close();
      api.setTraceProcessors([]);
    }
    // The effect is there, by the ledger (a second connection).
    assert.deepEqual(
      persistedReceipts(ledger).map((r) => `${r.job} ${r.status}`),
      ["JOB-002 accepted"],
    );
    const file = join(dir.path, "trace.jsonl");
    const r = await cli(
      [
        "proxy",
        "show",
        // The SDK's client probes, then starts the server again: the session
        // is the second record.
        join(dir.path, "session-2.jsonl"),
        "--agent",
        hook.path,
        "--oracle",
        oracle,
        "--otlp",
        file,
      ],
      "",
      false,
      dir.path,
    );
    assert.equal(r.code, 0, r.err.join("\n"));
    const spans = spansOf(decodeOtlpFile(Deno.readTextFileSync(file)));
    // agents-core's ids: trace_ and 32 hex, span_ and 24 hex; OTLP's are
    // the trace's 32 and the span's first 16.
    const fn = seen.find((s) => s.type === "function")!;
    assert.match(fn.trace, /^trace_[0-9a-f]{32}$/);
    assert.match(fn.span, /^span_[0-9a-f]{24}$/);
    const trace = fn.trace.slice("trace_".length);
    const fnId = fn.span.slice("span_".length, "span_".length + 16);
    const call = spans.find((s) => s.name === "tools/call create_draft")!;
    assert.deepEqual(
      [call.traceId, call.parentSpanId],
      [trace, fnId],
      "the proxy's call is the child of the SDK's function span",
    );
    assert.equal(
      attributesOf(call.attributes)["guardlab.traceparent.from"],
      "client",
    );
    const names = call.events.map((e) => e.name);
    const visible = names.indexOf("guardlab.effect_visible");
    assert.ok(visible >= 0, names.join(", "));
    assert.equal(
      attributesOf(call.events[visible].attributes)["guardlab.effect.count"],
      1,
    );
    assert.ok(visible < names.indexOf("guardlab.guardlab.delivered"));
    // The SDK's function span, with its own ids, and the guardrails on it.
    const fnSpan = spans.find((s) => s.name === "execute_tool create_draft")!;
    assert.deepEqual([fnSpan.traceId, fnSpan.spanId], [trace, fnId]);
    const turn = seen.find((s) => s.type === "turn")!;
    assert.equal(fnSpan.parentSpanId, turn.span.slice(5, 21));
    const marks = fnSpan.events.filter((e) =>
      e.name === "guardlab.tool_guardrail"
    )
      .map((e) => attributesOf(e.attributes))
      .map((
        a,
      ) => [
        a["guardlab.stage"],
        a["guardlab.guardrail"],
        a["guardlab.verdict"],
      ]);
    assert.deepEqual(marks, [
      ["input", "batch_limit", "allow"],
      ["output", "release_check", "rejectContent"],
    ]);
    // The output guardrail decided after the effect was visible.
    const output = fnSpan.events.find((e) =>
      e.name === "guardlab.tool_guardrail" &&
      attributesOf(e.attributes)["guardlab.stage"] === "output"
    )!;
    assert.ok(
      BigInt(output.timeUnixNano) >= BigInt(call.events[visible].timeUnixNano),
    );
  },
});

Deno.test("proxy show --otlp: a record of more calls than a file holds keeps the first, and the root says how many it left out", async () => {
  await using dir = await tempDir();
  const record = `${dir.path}/big.jsonl`;
  const lines = [JSON.stringify(RECORD[0])];
  const n = 30_000;
  for (let i = 1; i <= n; i++) {
    lines.push(JSON.stringify({
      kind: "msg",
      t: i,
      dir: "client>server",
      action: "forwarded",
      call: i,
      tool: "put_note",
      bytes: 90,
      msg: call(i, `n-${i}`),
    }));
    lines.push(JSON.stringify({
      kind: "msg",
      t: i + 0.5,
      dir: "server>client",
      action: "forwarded",
      call: i,
      tool: "put_note",
      bytes: 50,
      msg: result(i),
    }));
  }
  lines.push(JSON.stringify({ kind: "end", t: n + 1, truncated: false }));
  Deno.writeTextFileSync(record, lines.join("\n") + "\n");
  const file = `${dir.path}/trace.jsonl`;
  const r = await cli(["proxy", "show", record, "--json", "--otlp", file]);
  assert.equal(r.code, 0, r.err.join("\n"));
  const text = Deno.readTextFileSync(file);
  assert.ok(new TextEncoder().encode(text).length <= MAX_OTLP_BYTES);
  const spans = spansOf(decodeOtlpFile(text));
  assert.equal(spans.length, MAX_SPANS);
  assert.equal(
    attributesOf(spans[0].attributes)["guardlab.otlp.spans_left_out"],
    n + 1 - MAX_SPANS,
  );
  assert.equal(
    attributesOf(spans.at(-1)!.attributes)["guardlab.call"],
    MAX_SPANS - 1,
  );
});
