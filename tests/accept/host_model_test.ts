/**
 * The model `accept host` plays, driven in process (its handler called with
 * requests built here, no socket): it answers only the run's key, asks for
 * the first call, plays the naive model after a result that is not the
 * tool's success, speaks server-sent events for `stream: true`, follows a
 * host's prefix of the tool's name, refuses a body past its bound, and
 * records what the host told it.
 */
import assert from "node:assert/strict";
import { HostLog } from "../../lib/accept/_host_log.ts";
import { ScriptedModel, serveModel } from "../../lib/accept/_host_model.ts";
import { planFor } from "../../lib/accept/host.ts";
import type { ModelRecord } from "../../lib/accept/_host_history.ts";

const KEY = "dummy-key";

/** The model of a fresh case, its handler, and its log. */
function model() {
  const log = new HostLog();
  const plan = planFor("no-reply", "unkeyed", "stdio");
  let told = 0;
  const scripted = new ScriptedModel(log, plan, () => told++);
  let handler: (r: Request) => Promise<Response> = () => {
    throw new Error("not served");
  };
  serveModel(scripted, KEY, (h) => {
    handler = h;
    return { url: "http://127.0.0.1:1", close: () => Promise.resolve() };
  });
  return { log, plan, handler, told: () => told };
}

const tool = (name: string) => ({
  type: "function",
  function: { name, parameters: { type: "object" } },
});

function post(body: unknown, key = KEY): Request {
  return new Request("http://127.0.0.1:1/v1/chat/completions", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const models = (log: HostLog) =>
  log.records.filter((r): r is ModelRecord => r.op === "model");

Deno.test("host model: another key is refused (401) and counted; nothing is answered", async () => {
  const m = model();
  const r = await m.handler(
    post({ messages: [], tools: [tool("write_row")] }, "other"),
  );
  assert.equal(r.status, 401);
  await r.body?.cancel();
  assert.deepEqual(m.log.records.map((x) => x.op), ["problem"]);
});

Deno.test("host model: the first request asks for the first call, under the plan's key, as JSON", async () => {
  const m = model();
  const r = await m.handler(
    post({
      model: "x",
      messages: [{ role: "user", content: "go" }],
      tools: [tool("write_row")],
    }),
  );
  const body = await r.json();
  const call = body.choices[0].message.tool_calls[0];
  assert.equal(call.function.name, "write_row");
  assert.deepEqual(JSON.parse(call.function.arguments), {
    key: m.plan.key,
    amount: 5,
  });
  assert.equal(body.choices[0].finish_reason, "tool_calls");
  assert.deepEqual(
    models(m.log).map(({ at_ms: _, ...r }) => r),
    [{ op: "model", request: 1, offered: true, results: [], reply: "call-1" }],
  );
});

Deno.test("host model: a result that is not the tool's success is read as a failure: the naive model asks again under a new key", async () => {
  const m = model();
  const asked = {
    role: "assistant",
    tool_calls: [{
      id: "h-1",
      type: "function",
      function: {
        name: "write_row",
        arguments: JSON.stringify({ key: m.plan.key, amount: 5 }),
      },
    }],
  };
  const r = await m.handler(post({
    messages: [asked, {
      role: "tool",
      tool_call_id: "h-1",
      content: "Request timed out",
    }],
    tools: [tool("write_row")],
  }));
  const call = (await r.json()).choices[0].message.tool_calls[0];
  assert.deepEqual(JSON.parse(call.function.arguments), {
    key: m.plan.new_key,
    amount: 5,
  });
  const [rec] = models(m.log);
  // The host's own call id is matched by the key in its arguments.
  assert.deepEqual(rec.results, [{ call: 1, text: "Request timed out" }]);
  assert.equal(rec.reply, "call-2");
  assert.equal(m.told(), 1);
  // The tool's success ends the conversation.
  const done = await m.handler(post({
    messages: [asked, {
      role: "tool",
      tool_call_id: "h-1",
      content: [{ type: "text", text: `ok: row for ${m.plan.key} written` }],
    }],
    tools: [tool("write_row")],
  }));
  assert.equal((await done.json()).choices[0].message.content, "done");
});

Deno.test("host model: stream: true is answered as server-sent events, with the usage chunk asked for, and a host's prefix of the tool's name is followed", async () => {
  const m = model();
  const r = await m.handler(post({
    messages: [],
    stream: true,
    stream_options: { include_usage: true },
    tools: [tool("read_file"), tool("mcp__guardlab__write_row")],
  }));
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  const events = (await r.text()).split("\n\n").filter((e) => e !== "");
  assert.equal(events.at(-1), "data: [DONE]");
  const chunks = events.slice(0, -1).map((e) =>
    JSON.parse(e.slice("data: ".length))
  );
  const call =
    chunks.flatMap((c) =>
      c.choices.flatMap((x: { delta: { tool_calls?: unknown[] } }) =>
        x.delta.tool_calls ?? []
      )
    )[0];
  assert.equal(call.function.name, "mcp__guardlab__write_row");
  assert.deepEqual(chunks.at(-1).usage, {
    prompt_tokens: 1,
    completion_tokens: 1,
    total_tokens: 2,
  });
  const [rec] = models(m.log);
  assert.equal(rec.stream, true);
  assert.equal(rec.offered_as, "mcp__guardlab__write_row");
});

Deno.test("host model: a request that does not offer the tool is answered done; a body past 4 MiB is refused (413)", async () => {
  const m = model();
  const r = await m.handler(
    post({ messages: [], tools: [tool("rewrite_rows")] }),
  );
  assert.equal((await r.json()).choices[0].message.content, "done");
  assert.equal(models(m.log)[0].offered, false);
  const big = await m.handler(post("x".repeat(4 * 1024 * 1024 + 1)));
  assert.equal(big.status, 413);
  await big.body?.cancel();
  assert.equal(m.log.records.at(-1)?.op, "problem");
});

Deno.test("host model: each answer's id names the request's record (what accept host --otlp writes as gen_ai.response.id); a refused request has neither", async () => {
  const m = model();
  const first = await m.handler(
    post({ messages: [], tools: [tool("write_row")] }),
  );
  assert.equal((await first.json()).id, "chatcmpl-guardlab-1");
  const refused = await m.handler(post({ messages: [] }, "other"));
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
  const streamed = await m.handler(
    post({ messages: [], tools: [tool("write_row")], stream: true }),
  );
  const ids = new Set(
    (await streamed.text()).split("\n").filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).id),
  );
  assert.deepEqual([...ids], ["chatcmpl-guardlab-2"]);
  assert.deepEqual(models(m.log).map((r) => r.request), [1, 2]);
});
