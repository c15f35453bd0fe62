/**
 * The merged timeline and the line per call against what really happened,
 * in the cases an engineer meets beside chapter 9's example, each record
 * written by hand: a JSON-RPC error answer (the failure after the answer
 * that brought it); a server the hook did not watch, whose late answer came
 * after the client had cancelled (no false contradiction, nothing of the
 * agent's held behind it); a function tool beside the MCP server (it ran:
 * not "never sent"); a call refused, then the same call allowed (no retry
 * of a call that never left); an effect read only at the end of the
 * session (no claim that it was visible before the agent's mark); the SVG,
 * which loses no word and says what the text screen says under the
 * timeline; and a record of more calls than a screen lists.
 */
import assert from "node:assert/strict";
import { parseAgentRecord } from "../../lib/accept/agent_record.ts";
import { parseRecord, type RecordLine } from "../../lib/accept/record.ts";
import { say } from "../../lib/base/i18n.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { mergedTimeline } from "../../lib/accept/views/_agent_merge.ts";
import {
  mergedJson,
  mergedShowLines,
  mergedSvg,
} from "../../lib/accept/views/agent_view.ts";
import { XMLValidator } from "../_helpers/deps.ts";
import { cli } from "../_helpers/helpers.ts";
import { ORACLE } from "../../examples/guardrails_agent.ts";

const jsonl = (lines: unknown[]) =>
  lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

const FOREST = { job: "JOB-002", topic: "forest", copies: 2 };
const RIVER = { job: "JOB-003", topic: "river", copies: 2 };
const TOLD_ERROR =
  "An error occurred while running the tool. Please try again.";

// The proxy's lines.
const proxyStart = {
  kind: "start",
  guardlab_proxy: 1,
  command: ["srv"],
  epoch_ms: 1_000_000,
};
const sent = (t: number, call: number, id: number, args: unknown) => ({
  kind: "msg",
  t,
  dir: "client>server",
  action: "forwarded",
  call,
  tool: "create_draft",
  bytes: 100,
  msg: {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "create_draft", arguments: args },
  },
});
const answer = (
  t: number,
  call: number,
  id: number,
  how: { dir: string; action: string; ms?: number },
  body: Record<string, unknown> = {
    result: { content: [{ type: "text", text: "accepted" }] },
  },
) => ({
  kind: "msg",
  t,
  ...how,
  call,
  tool: "create_draft",
  bytes: 50,
  msg: { jsonrpc: "2.0", id, ...body },
});
const FORWARDED = { dir: "server>client", action: "forwarded" };
const cancelled = (t: number, call: number, id: number) => ({
  kind: "msg",
  t,
  dir: "client>server",
  action: "forwarded",
  call,
  tool: "create_draft",
  bytes: 80,
  msg: {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: id },
  },
});
const effect = (t: number, key: string, calls: number[]) => ({
  kind: "effect",
  t,
  tool: "create_draft",
  key,
  calls,
  count: 1,
});
const proxyEnd = (t: number) => ({ kind: "end", t, truncated: false });

// The agent's lines (its record starts when the proxy's does).
const agentStart = {
  kind: "start",
  guardlab_agent: 1,
  epoch_ms: 1_000_000,
  runtime: "deno",
};
const turn = (t: number, n: number) => ({
  kind: "span_start",
  t,
  type: "turn",
  span: `t${n}`,
  turn: n,
  agent: "clerk",
});
const fnStart = (t: number, span: string, name = "create_draft") => ({
  kind: "span_start",
  t,
  type: "function",
  span,
  name,
});
const fnEnd = (
  t: number,
  span: string,
  output: string,
  more: { error?: string; name?: string; mcp?: boolean } = {},
) => ({
  kind: "span_end",
  t,
  type: "function",
  span,
  name: more.name ?? "create_draft",
  input: "{}",
  output,
  mcp_server: more.mcp === false ? null : "s",
  error: more.error ?? null,
});
const guard = (
  t: number,
  stage: "input" | "output",
  span: string,
  args: unknown,
  decision: string,
  more: { name?: string; tool?: string; message?: string } = {},
) => ({
  kind: "tool_guardrail",
  t,
  began: t - 0.2,
  stage,
  name: more.name ?? (stage === "input" ? "batch_limit" : "forest_review"),
  tool: more.tool ?? "create_draft",
  call_id: `c_${span}`,
  arguments: JSON.stringify(args),
  span,
  decision,
  ...(more.message !== undefined ? { message: more.message } : {}),
});
const mcpCall = (t: number, n: number, span: string, args: unknown) => ({
  kind: "mcp_call",
  t,
  n,
  server: "s",
  tool: "create_draft",
  arguments: args,
  span,
});
const mcpResult = (t: number, n: number, outcome: string, error?: string) => ({
  kind: "mcp_result",
  t,
  n,
  outcome,
  ...(error !== undefined ? { error } : {}),
});

function merge(proxy: unknown[], agent: unknown[]) {
  const lines = parseRecord(jsonl(proxy)) as RecordLine[];
  const parsed = parseAgentRecord(jsonl(agent));
  assert.ok(!("bad" in parsed), JSON.stringify(parsed));
  return { lines, agent: parsed };
}

function order(proxy: unknown[], agent: unknown[]) {
  const { lines, agent: a } = merge(proxy, agent);
  const merged = mergedTimeline(lines, a, ORACLE);
  return {
    merged,
    steps: merged.steps.map((s) => `${s.lane}: ${say(s.text, "en")}`),
  };
}

/**
 * The lines under the timeline that say where each call stopped, each
 * wrapped line joined; in Chinese, with no space at all (a Chinese line
 * breaks between characters, with no space to join).
 */
function stops(
  proxy: unknown[],
  agent: unknown[],
  lang: "en" | "zh" = "en",
): string[] {
  const { lines, agent: a } = merge(proxy, agent);
  const screen = mergedShowLines(
    lines,
    a,
    { record: "r.jsonl", agent: "a.jsonl" },
    lang,
    ORACLE,
  );
  const from = screen.indexOf(
    lang === "en"
      ? "where each of the agent's calls stopped:"
      : "Agent 的每次调用停在了哪一步：",
  );
  assert.ok(from >= 0, screen.join("\n"));
  const out: string[] = [];
  for (const line of screen.slice(from + 1)) {
    if (line === "") break;
    if (line.startsWith("    ")) out[out.length - 1] += " " + line.trim();
    else out.push(line.trim());
  }
  return lang === "en" ? out : out.map(unspaced);
}

/** A line with no space: how a Chinese line is compared. */
const unspaced = (line: string) => line.replace(/\s+/g, "");

Deno.test("agent truth: a failure a JSON-RPC error brought comes after the answer that brought it, the agent's clock moved to keep it", () => {
  // The agent's clock runs 1 ms behind: its failure reads 19, the error
  // answer left the proxy at 20.
  const proxy = [
    proxyStart,
    sent(10, 1, 5, FOREST),
    answer(20, 1, 5, FORWARDED, {
      error: { code: -32602, message: "bad params" },
    }),
    proxyEnd(30),
  ];
  const agent = [
    agentStart,
    fnStart(2, "f1"),
    guard(8, "input", "f1", FOREST, "allow"),
    mcpCall(9, 1, "f1", FOREST),
    mcpResult(19, 1, "error", "MCP error -32602: bad params"),
    guard(19.3, "output", "f1", FOREST, "allow"),
    fnEnd(19.6, "f1", TOLD_ERROR, { error: "Error running tool (non-fatal)" }),
  ];
  const { merged, steps } = order(proxy, agent);
  assert.deepEqual(steps, [
    "agent: calls create_draft: call 1",
    "agent: tool input guardrail batch_limit: allow",
    "client: sends call 1 create_draft",
    "server: answers call 1: JSON-RPC error",
    "agent: call 1 failed: «MCP error -32602: bad params»",
    "agent: tool output guardrail forest_review: allow",
    "agent: the model is told «An error occurred while running the tool.…»",
  ]);
  assert.equal(merged.shiftMs, 1);
  assert.equal(merged.contradictory, false);
  assert.deepEqual(stops(proxy, agent), [
    "create_draft JOB-002 (call 1): every tool guardrail allowed it; the call failed: «MCP error -32602: bad params»",
  ]);
});

Deno.test("agent truth: a server the hook did not watch, its answer delivered after the client cancelled: no contradiction, the agent's marks where they happened", () => {
  // The hook wrapped the guardrails (hook.input, hook.output) but not the
  // server: no MCP lines. The proxy held the answer 4500 ms (a fault); the
  // client timed out at 3 s and cancelled; the answer went out after.
  const proxy = [
    proxyStart,
    sent(10, 1, 5, FOREST),
    answer(12, 1, 5, { dir: "server>guardlab", action: "delayed", ms: 4500 }),
    cancelled(3010, 1, 5),
    answer(4512, 1, 5, { dir: "guardlab>client", action: "delivered" }),
    proxyEnd(4520),
  ];
  const agent = [
    agentStart,
    turn(1, 1),
    fnStart(2, "f1"),
    guard(8, "input", "f1", FOREST, "allow"),
    guard(3011, "output", "f1", FOREST, "allow"),
    fnEnd(3012, "f1", TOLD_ERROR, { error: "Error running tool (non-fatal)" }),
    turn(3013, 2),
  ];
  const { merged, steps } = order(proxy, agent);
  assert.equal(merged.contradictory, false, "the records agree");
  assert.equal(merged.shiftMs, 0);
  assert.deepEqual(steps, [
    "agent: model turn 1",
    "agent: calls create_draft: call 1",
    "agent: tool input guardrail batch_limit: allow",
    "client: sends call 1 create_draft",
    "server: answers call 1: success",
    "guardlab: holds the answer to call 1 4500 ms (fault)",
    "client: cancels call 1",
    "agent: tool output guardrail forest_review: allow",
    "agent: the model is told «An error occurred while running the tool.…»",
    "agent: model turn 2",
    "guardlab: delivers call 1: success",
  ]);
  assert.deepEqual(stops(proxy, agent), [
    "create_draft JOB-002 (call 1): every tool guardrail allowed it; the call failed: «Error running tool (non-fatal)»",
  ]);
  // With the SDK's tracing off too: only the guardrails' lines, no span.
  const bare = order(proxy, [
    agentStart,
    { ...guard(8, "input", "f1", FOREST, "allow"), span: null },
    { ...guard(3011, "output", "f1", FOREST, "allow"), span: null },
  ]);
  assert.equal(bare.merged.contradictory, false);
  assert.deepEqual(bare.steps, [
    "agent: tool input guardrail batch_limit: allow",
    "client: sends call 1 create_draft",
    "server: answers call 1: success",
    "guardlab: holds the answer to call 1 4500 ms (fault)",
    "client: cancels call 1",
    "agent: tool output guardrail forest_review: allow",
    "guardlab: delivers call 1: success",
  ]);
});

/** A proxy record of one call of JOB-002, answered. */
const ONE_CALL = [
  proxyStart,
  sent(10, 1, 5, FOREST),
  answer(20, 1, 5, FORWARDED),
  proxyEnd(30),
];

/** The agent's lines of that call, its input guardrail `name` allowing it. */
const sentCall = (name: string) => [
  fnStart(3, "f1"),
  guard(8, "input", "f1", FOREST, "allow", { name }),
  mcpCall(9, 1, "f1", FOREST),
  mcpResult(21, 1, "success"),
  fnEnd(22, "f1", "accepted"),
];

Deno.test("agent truth: a function tool's call ran: it is not drawn as refused, nor said to have written nothing", () => {
  const proxy = ONE_CALL;
  const agent = [
    agentStart,
    fnStart(1, "f0", "note_local"),
    guard(1.5, "input", "f0", { text: "hi" }, "allow", {
      name: "local_ok",
      tool: "note_local",
    }),
    fnEnd(2, "f0", "noted hi", { name: "note_local", mcp: false }),
    ...sentCall("batch_limit"),
  ];
  const { steps } = order(proxy, agent);
  assert.deepEqual(steps.slice(0, 3), [
    "agent: calls note_local (not in this proxy record)",
    "agent: tool input guardrail local_ok: allow",
    "agent: the model is told «noted hi»",
  ]);
  assert.deepEqual(stops(proxy, agent), [
    "note_local: not in this proxy record (a function tool, or a call to another server)",
    "create_draft JOB-002 (call 1): every tool guardrail allowed it",
  ]);
});

Deno.test("agent truth: a call refused, then the same call allowed: on the agent's lane the second is a retry of the refused call, on the client's the first call", () => {
  const proxy = ONE_CALL;
  const agent = [
    agentStart,
    fnStart(1, "f0"),
    guard(1.5, "input", "f0", FOREST, "rejectContent", {
      name: "approval",
      message: "waits for approval",
    }),
    fnEnd(2, "f0", "waits for approval", { mcp: false }),
    ...sentCall("approval"),
  ];
  const { merged, steps } = order(proxy, agent);
  // Chapter 9's rule (retry_rule.ts): the agent asked again for the same
  // job; the client's lane saw no earlier call of it.
  assert.equal(merged.story.calls[1].retryOf, merged.story.calls[0].n);
  assert.ok(
    steps.includes(
      "agent: calls create_draft again, same arguments as the call its input guardrail refused: call 1",
    ),
    steps.join("\n"),
  );
  assert.ok(steps.includes("client: sends call 1 create_draft"), steps.join());
  assert.deepEqual(stops(proxy, agent), [
    "create_draft JOB-002 (not sent): tool input guardrail approval decided rejectContent before any tools/call: this call wrote nothing",
    "create_draft JOB-002 (call 1): every tool guardrail allowed it; a retry of the call its input guardrail refused",
  ]);
  assert.deepEqual(
    stops(proxy, agent, "zh"),
    [
      "create_draft JOB-002（未发出）：工具输入护栏 approval 在任何 tools/call 之前作出 rejectContent：这次调用什么也没写",
      "create_draft JOB-002（调用 1）：每个工具护栏都放行了；是被工具输入护栏拒绝的那次调用的重试",
    ].map(unspaced),
  );
});

/**
 * A session recorded with --oracle but without --read-before-delivery:
 * JOB-002 refused by the output guardrail, JOB-003's answer dropped (a
 * timeout), then retried; every effect read only at the session's end.
 */
const LATE_PROXY = [
  proxyStart,
  sent(10, 1, 5, FOREST),
  answer(20, 1, 5, FORWARDED),
  sent(30, 2, 6, RIVER),
  answer(40, 2, 6, { dir: "server>guardlab", action: "dropped" }),
  cancelled(5030, 2, 6),
  sent(5040, 3, 7, RIVER),
  answer(5050, 3, 7, FORWARDED),
  effect(5100, "JOB-002", [1]),
  effect(5101, "JOB-003", [2, 3]),
  proxyEnd(5102),
];
const LATE_AGENT = [
  agentStart,
  fnStart(2, "f1"),
  guard(8, "input", "f1", FOREST, "allow"),
  mcpCall(9, 1, "f1", FOREST),
  mcpResult(21, 1, "success"),
  guard(22, "output", "f1", FOREST, "rejectContent", {
    message: "needs review",
  }),
  fnEnd(23, "f1", "needs review"),
  fnStart(25, "f2"),
  guard(28, "input", "f2", RIVER, "allow"),
  mcpCall(29, 2, "f2", RIVER),
  mcpResult(5031, 2, "timeout", "Request timed out"),
  guard(5032, "output", "f2", RIVER, "allow"),
  fnEnd(5033, "f2", TOLD_ERROR, { error: "Error running tool (non-fatal)" }),
  fnStart(5035, "f3"),
  guard(5038, "input", "f3", RIVER, "allow"),
  mcpCall(5039, 3, "f3", RIVER),
  mcpResult(5051, 3, "success"),
  guard(5052, "output", "f3", RIVER, "allow"),
  fnEnd(5053, "f3", "accepted"),
];

Deno.test("agent truth: an effect read only at the end of the session is not said to have been visible before the agent's mark", () => {
  assert.deepEqual(stops(LATE_PROXY, LATE_AGENT), [
    "create_draft JOB-002 (call 1): tool output guardrail forest_review decided rejectContent after the server answered; its effect (1) was read only later (record with --oracle FILE --read-before-delivery to see where it falls): the effect stays",
    "create_draft JOB-003 (call 2): timed out; its effect (1) was read only at the end of the session, so this record cannot say whether it came before the timeout: the effect stays",
    "create_draft JOB-003 (call 3): every tool guardrail allowed it; a retry of call 2",
  ]);
});

/** Each step box of an SVG: its words, its lines joined by a space. */
function svgBoxes(svg: string): string[] {
  return [...svg.matchAll(/<g class="step"[^>]*>([\s\S]*?)<\/g>/g)].map((
    [, box],
  ) =>
    [...box.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(([, t]) =>
      t.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll(
        "&apos;",
        "'",
      ).replaceAll(
        "&quot;",
        '"',
      ).replaceAll("&amp;", "&")
    ).join(" ")
  );
}

Deno.test("agent truth: the SVG loses no word of a step, labels each effect line, and says under the lanes where each call stopped", () => {
  const { lines, agent } = merge(LATE_PROXY, LATE_AGENT);
  const files = { record: "r.jsonl", agent: "a.jsonl" };
  for (const lang of ["en", "zh"] as const) {
    const svg = mergedSvg(lines, agent, files, lang, ORACLE);
    assert.equal(XMLValidator.validate(svg), true);
    const steps = mergedTimeline(lines, agent, ORACLE).steps;
    // A Chinese line breaks between characters, with no space to join.
    const same = (s: string) => lang === "zh" ? s.replace(/\s+/g, "") : s;
    assert.deepEqual(
      svgBoxes(svg).map(same),
      steps.map((s, i) => same(`${i + 1}. +${s.at_ms}ms ${say(s.text, lang)}`)),
      lang,
    );
  }
  const svg = mergedSvg(lines, agent, files, "en", ORACLE);
  const boxes = svgBoxes(svg);
  assert.ok(
    boxes.includes(
      "16. +5035ms calls create_draft again, same arguments as call 2: call 3",
    ),
    boxes.join("\n"),
  );
  assert.match(
    svg,
    /<g class="effect-visible" data-count="1">\n<line [^>]*\/>\n<text [^>]*>effect of JOB-002 visible to the<\/text>\n<text [^>]*>read tool by here: 1<\/text>/,
  );
  assert.match(svg, />where each of the agent&apos;s calls stopped:</);
  assert.match(
    svg,
    />\x20\x20create_draft JOB-003 \(call 3\): every tool guardrail allowed it; a retry of</,
  );
});

Deno.test("agent truth: more calls than a screen lists: the screen and the JSON say how many more", () => {
  // 2003 calls an input guardrail refused: nothing reached the proxy.
  const agent: unknown[] = [agentStart];
  for (let i = 1; i <= 2003; i++) {
    agent.push(
      guard(i, "input", `f${i}`, { job: `J${i}` }, "rejectContent"),
    );
  }
  const { lines, agent: a } = merge(
    [proxyStart, proxyEnd(1)],
    agent,
  );
  const files = { record: "r.jsonl", agent: "a.jsonl" };
  const screen = mergedShowLines(lines, a, files, "en", ORACLE);
  assert.ok(screen.includes("… 3 more calls not listed"));
  const zh = mergedShowLines(lines, a, files, "zh", ORACLE);
  assert.ok(zh.includes("… 另有 3 次调用未列出"));
  const json = mergedJson(lines, a, files, "en", ORACLE);
  assert.equal(json.calls.length, 2000);
  assert.equal(json.calls_not_shown, 3);
});

Deno.test("agent truth: proxy --help says what exit 2 means for show: a bad line in a record, as a bad agent record gets", async () => {
  const help = await cli(["proxy", "--help"]);
  assert.match(
    help.out.join(" ").replace(/\s+/g, " "),
    / 2 usage error, or a bad line in the faults file or in a record to show /,
  );
});

Deno.test("agent truth: escapes and invisible characters in a hostile record's names are shown inert, and each screen line still within 80 columns", () => {
  const evil = "no_\u202esecrets\u200b\x1b[31mRED\x1b[0m\x07";
  const agent = [
    agentStart,
    fnStart(2, "f1"),
    guard(8, "input", "f1", FOREST, "allow", { name: evil }),
    mcpCall(9, 1, "f1", FOREST),
    mcpResult(21, 1, "success"),
    guard(22, "output", "f1", FOREST, "rejectContent", {
      name: evil,
      message: "\x1b[2J\x1b[Hcleared",
    }),
    fnEnd(23, "f1", "\x1b[2J\x1b[Hcleared"),
  ];
  const { lines, agent: a } = merge(ONE_CALL, agent);
  for (const lang of ["en", "zh"] as const) {
    const screen = mergedShowLines(
      lines,
      a,
      { record: "r.jsonl", agent: "a.jsonl" },
      lang,
      ORACLE,
    );
    for (const line of screen) {
      assert.ok(displayWidth(line) <= 80, `${lang}: ${line}`);
      // deno-lint-ignore no-control-regex -- the controls are what must not be there
      assert.doesNotMatch(line, /[\x00-\x1f\x7f\u200b\u202e]/, line);
    }
    assert.match(screen.join(""), /\\u202esecrets/);
  }
});

/** The agent's lines of JOB-002 (proxy call 1), then JOB-003 twice, each an MCP call of the watched server. */
const THREE_MCP_CALLS = [
  agentStart,
  ...sentCall("batch_limit"),
  fnStart(30, "f2"),
  guard(31, "input", "f2", RIVER, "allow"),
  mcpCall(32, 2, "f2", RIVER),
  mcpResult(3032, 2, "timeout", "Request timed out"),
  fnEnd(3033, "f2", TOLD_ERROR, { error: "Error running tool (non-fatal)" }),
  fnStart(3040, "f3"),
  guard(3041, "input", "f3", RIVER, "allow"),
  mcpCall(3042, 3, "f3", RIVER),
  mcpResult(3050, 3, "success"),
  fnEnd(3051, "f3", "accepted"),
];

Deno.test("agent truth: an MCP call the hook saw leave for its server but the proxy record does not hold is not called a function tool's", () => {
  // Another session's record (the SDK's first probe writes one) holds
  // only call 1; a record cut at its bound says it stopped.
  assert.deepEqual(stops(ONE_CALL, THREE_MCP_CALLS), [
    "create_draft JOB-002 (call 1): every tool guardrail allowed it",
    "create_draft JOB-003: an MCP call to the server s, not in this proxy record (another server, or another session's record)",
    "create_draft JOB-003: an MCP call to the server s, not in this proxy record (another server, or another session's record); the same arguments as an earlier call not in this record",
  ]);
  const cut = [...ONE_CALL.slice(0, -1), {
    kind: "end",
    t: 30,
    truncated: true,
  }];
  assert.deepEqual(stops(cut, THREE_MCP_CALLS).slice(1), [
    "create_draft JOB-003: an MCP call to the server s, not in this proxy record, which stopped at its bound",
    "create_draft JOB-003: an MCP call to the server s, not in this proxy record, which stopped at its bound; the same arguments as an earlier call not in this record",
  ]);
});

Deno.test("agent truth: a record with --oracle that holds no read of the session's end says why, never to record with --oracle", () => {
  const held = [
    proxyStart,
    sent(10, 1, 5, FOREST),
    answer(20, 1, 5, { dir: "server>guardlab", action: "held" }),
    { ...effect(25, "JOB-002", [1]), before_delivery: 1 },
    answer(26, 1, 5, { dir: "guardlab>client", action: "delivered" }),
  ];
  const screen = (proxy: unknown[], lang: "en" | "zh") => {
    const { lines, agent } = merge(proxy, [agentStart, ...sentCall("b")]);
    return mergedShowLines(
      lines,
      agent,
      { record: "r.jsonl", agent: "a.jsonl" },
      lang,
      ORACLE,
    );
  };
  const ended = [...held, proxyEnd(40)];
  assert.ok(
    screen(ended, "en").includes(
      "no read at the end of the session is in this record (the reads made while it ran are on the timeline)",
    ),
    screen(ended, "en").join("\n"),
  );
  const cut = [...held, { kind: "end", t: 40, truncated: true }];
  assert.ok(
    screen(cut, "en").includes(
      "no read at the end of the session is in this record: it stopped at its bound",
    ),
  );
  assert.ok(
    screen(cut, "zh").includes(
      "这份记录里没有会话结束时的读取：记录达到上限后停止了",
    ),
  );
  assert.ok(
    screen(ONE_CALL, "en").includes(
      "no effect was read (record the session with --oracle FILE)",
    ),
  );
});

Deno.test("agent truth: two calls with the same arguments in one model turn: the second went while the first was open, so it retries nothing", () => {
  // The model asks for JOB-003 twice at once; the proxy drops the answer
  // to the second (a fault); the agent's client times out and cancels it.
  const proxy = [
    proxyStart,
    sent(10, 1, 5, RIVER),
    sent(11, 2, 6, RIVER),
    answer(20, 1, 5, FORWARDED),
    answer(21, 2, 6, { dir: "server>guardlab", action: "dropped" }),
    cancelled(3012, 2, 6),
    effect(3100, "JOB-003", [1, 2]),
    proxyEnd(3101),
  ];
  const agent = [
    agentStart,
    turn(1, 1),
    fnStart(2, "f1"),
    fnStart(2, "f2"),
    guard(3, "input", "f1", RIVER, "allow"),
    guard(3, "input", "f2", RIVER, "allow"),
    mcpCall(4, 1, "f1", RIVER),
    mcpCall(5, 2, "f2", RIVER),
    mcpResult(21, 1, "success"),
    fnEnd(22, "f1", "accepted"),
    mcpResult(3011, 2, "timeout", "Request timed out"),
    fnEnd(3013, "f2", TOLD_ERROR, { error: "Error running tool (non-fatal)" }),
    turn(3014, 2),
  ];
  const { merged, steps } = order(proxy, agent);
  assert.deepEqual(steps, [
    "agent: model turn 1",
    "agent: calls create_draft: call 1",
    "agent: calls create_draft again while call 1 is open, same arguments: call 2",
    "agent: tool input guardrail batch_limit: allow",
    "agent: tool input guardrail batch_limit: allow",
    "client: sends call 1 create_draft",
    "client: sends call 2 create_draft, same key as call 1, which the agent still had open",
    "server: answers call 1: success",
    "server: answers call 2: success",
    "guardlab: drops the answer to call 2 (fault)",
    "agent: the model is told «accepted»",
    "agent: no answer to call 2: timeout after 3006 ms",
    "client: cancels call 2",
    "agent: the model is told «An error occurred while running the tool.…»",
    "agent: model turn 2",
    "guardlab: reads create_draft JOB-003: effect 1",
  ]);
  assert.equal(merged.story.calls[1].retryOf, null);
  assert.equal(merged.story.calls[1].sentWhileOpen, 1);
  assert.deepEqual(stops(proxy, agent), [
    "create_draft JOB-003 (call 1): every tool guardrail allowed it",
    "create_draft JOB-003 (call 2): timed out; its effect (1) was read only at the end of the session, so this record cannot say whether it came before the timeout: the effect stays; sent while call 1 was still open, same arguments: no retry",
  ]);
  const { lines, agent: a } = merge(proxy, agent);
  const json = mergedJson(
    lines,
    a,
    { record: "r.jsonl", agent: "a.jsonl" },
    "en",
    ORACLE,
  );
  assert.deepEqual(
    json.calls.map((c) => [c.retry_of, c.sent_while_open]),
    [[null, null], [null, 1]],
  );
  // The same call once the first had ended is a retry, as before.
  const later = agent.map((l) =>
    l === agent[3]
      ? fnStart(23, "f2")
      : l === agent[5]
      ? guard(24, "input", "f2", RIVER, "allow")
      : l
  );
  assert.equal(order(proxy, later).merged.story.calls[1].retryOf, 1);
});

Deno.test("agent truth: a session of more than 1000 s keeps every lane in its column and every line within 80 columns", () => {
  // The agent's call 20 minutes into the session: +1200010ms is wider
  // than the merged table's time column.
  const late = 1_200_000;
  const proxy = [
    proxyStart,
    sent(late + 10, 1, 5, FOREST),
    answer(late + 20, 1, 5, FORWARDED),
    proxyEnd(late + 30),
  ];
  const agent = [
    agentStart,
    fnStart(late + 3, "f1"),
    guard(late + 8, "input", "f1", FOREST, "allow"),
    mcpCall(late + 9, 1, "f1", FOREST),
    mcpResult(late + 21, 1, "success"),
    fnEnd(late + 22, "f1", "accepted"),
  ];
  const { lines, agent: a } = merge(proxy, agent);
  const screen = mergedShowLines(
    lines,
    a,
    { record: "r.jsonl", agent: "a.jsonl" },
    "en",
    ORACLE,
  );
  const table = screen.slice(
    screen.findIndex((l) => l.includes("--------+")) + 1,
    screen.indexOf("", 4),
  );
  assert.deepEqual(table, [
    "  +1200003ms",
    "           calls create_draft: |               |               |",
    "           call 1              |               |               |",
    "  +1200008ms",
    "           tool input          |               |               |",
    "           guardrail           |               |               |",
    "           batch_limit: allow  |               |               |",
    "  +1200010ms",
    "                               | sends call 1  |               |",
    "                               | create_draft  |               |",
    "  +1200020ms",
    "                               |               |               | answers call",
    "                               |               |               | 1: success",
    "  +1200022ms",
    "           the model is told   |               |               |",
    "           «accepted»          |               |               |",
  ]);
});

Deno.test("agent truth: an agent record that stops before a call ended says so, never that every tool guardrail allowed it", () => {
  // The hook's record reached its bound after the call left: its output
  // guardrail, its result and what the model was told are not in it.
  const cutAfterSend = [
    agentStart,
    fnStart(3, "f1"),
    guard(8, "input", "f1", FOREST, "allow"),
    mcpCall(9, 1, "f1", FOREST),
    { kind: "full", t: 9.5 },
  ];
  assert.deepEqual(stops(ONE_CALL, cutAfterSend), [
    "create_draft JOB-002 (call 1): the agent record ends before this call did: what came of it is not in the record",
  ]);
  // With the SDK's tracing off: no span, an MCP call with no result.
  const untraced = [
    agentStart,
    { ...guard(8, "input", "f1", FOREST, "allow"), span: null },
    { ...mcpCall(9, 1, "f1", FOREST), span: null },
  ];
  assert.deepEqual(stops(ONE_CALL, untraced), [
    "create_draft JOB-002 (call 1): the agent record ends before this call did: what came of it is not in the record",
  ]);
  // The whole call in the record: as before.
  assert.deepEqual(stops(ONE_CALL, [agentStart, ...sentCall("b")]), [
    "create_draft JOB-002 (call 1): every tool guardrail allowed it",
  ]);
});

Deno.test("agent truth: advice to record with --oracle FILE --read-before-delivery is given only where it applies", () => {
  // JOB-002 refused by the output guardrail, JOB-003 timed out, recorded
  // with --read-before-delivery; the only reads this record holds are at
  // the end of the session. Advice to record so would be no help.
  const held = { ...proxyStart, oracle: true, read_before_delivery: true };
  const proxy = [
    held,
    ...LATE_PROXY.slice(1, -3),
    effect(5100, "JOB-002", [1]),
    effect(5101, "JOB-003", [2, 3]),
    proxyEnd(5102),
  ];
  assert.deepEqual(stops(proxy, LATE_AGENT), [
    "create_draft JOB-002 (call 1): tool output guardrail forest_review decided rejectContent after the server answered; its effect (1) was read only at the end of the session: the effect stays",
    "create_draft JOB-003 (call 2): timed out; its effect (1) was read only at the end of the session, so this record cannot say whether it came before the timeout: the effect stays",
    "create_draft JOB-003 (call 3): every tool guardrail allowed it; a retry of call 2",
  ]);
  assert.deepEqual(
    stops(proxy, LATE_AGENT, "zh").slice(0, 1),
    [
      "create_draft JOB-002（调用 1）：工具输出护栏 forest_review 在服务器应答之后才作出 rejectContent；它的效果（1）是在会话结束时才读到的：效果留下",
    ].map(unspaced),
  );
  // Recorded with --oracle alone: the advice applies to the refusal, not
  // to the timeout (no answer is delivered to a timed-out call).
  const plain = [{ ...held, read_before_delivery: false }, ...proxy.slice(1)];
  assert.deepEqual(stops(plain, LATE_AGENT).slice(0, 2), [
    "create_draft JOB-002 (call 1): tool output guardrail forest_review decided rejectContent after the server answered; its effect (1) was read only later (record with --oracle FILE --read-before-delivery to see where it falls): the effect stays",
    "create_draft JOB-003 (call 2): timed out; its effect (1) was read only at the end of the session, so this record cannot say whether it came before the timeout: the effect stays",
  ]);
  // Recorded without an oracle: no read; the timeout's advice is --oracle.
  const none = [
    { ...held, oracle: false, read_before_delivery: false },
    ...LATE_PROXY.slice(1, -3),
    proxyEnd(5102),
  ];
  assert.deepEqual(stops(none, LATE_AGENT).slice(0, 2), [
    "create_draft JOB-002 (call 1): tool output guardrail forest_review decided rejectContent after the server answered: whatever the server did stays (record with --oracle FILE --read-before-delivery to see it)",
    "create_draft JOB-003 (call 2): timed out; whether it took effect, only a read by key can say (record with --oracle FILE: the proxy then reads it as the call is cancelled)",
  ]);
  assert.deepEqual(
    stops(none, LATE_AGENT, "zh").slice(1, 2),
    [
      "create_draft JOB-003（调用 2）：超时；它是否生效，只有按业务键读取才能知道（录制时加上 --oracle FILE：proxy 会在调用被取消时读取）",
    ].map(unspaced),
  );
});

Deno.test("agent truth: a timed-out call read as it was cancelled: the screen says what each read found, and when", () => {
  const held = { ...proxyStart, oracle: true, read_before_delivery: false };
  const onCancel = (t: number, count: number) => ({
    ...effect(t, "JOB-003", [2]),
    count,
    after_cancel: 2,
  });
  const late = (cancelCount: number, endCount: number) => [
    held,
    ...LATE_PROXY.slice(1, 6),
    onCancel(5031, cancelCount),
    ...LATE_PROXY.slice(6, 8),
    effect(5100, "JOB-002", [1]),
    { ...effect(5101, "JOB-003", [2, 3]), count: endCount },
    proxyEnd(5102),
  ];
  // The server wrote after the client gave up.
  assert.equal(
    stops(late(0, 1), LATE_AGENT)[1],
    "create_draft JOB-003 (call 2): timed out; the read by key as it was cancelled found no effect (0), the one at the end of the session found it (1): the server wrote after the client gave up; the effect stays",
  );
  assert.equal(
    stops(late(0, 1), LATE_AGENT, "zh")[1],
    unspaced(
      "create_draft JOB-003（调用 2）：超时；在它被取消时按业务键读取没有发现效果（0），在会话结束时读取发现了（1）：服务器在客户端放弃之后才写入；效果留下",
    ),
  );
  // Nothing, ever.
  assert.equal(
    stops(late(0, 0), LATE_AGENT)[1],
    "create_draft JOB-003 (call 2): timed out; the read by key at the end of the session found no effect (0): nothing was written by then",
  );
  // On the timeline, the read is the proxy's, as the cancel passed.
  const { steps } = order(late(1, 1), LATE_AGENT);
  assert.ok(
    steps.includes(
      "guardlab: reads create_draft JOB-003 as call 2 is cancelled: effect 1",
    ),
    steps.join("\n"),
  );
});

Deno.test("agent truth: a record with --oracle and no read says why: stopped before its end, or no call", () => {
  const withOracle = {
    ...proxyStart,
    oracle: true,
    read_before_delivery: false,
  };
  const screen = (proxy: unknown[], agent: unknown[], lang: "en" | "zh") => {
    const { lines, agent: a } = merge(proxy, agent);
    return mergedShowLines(
      lines,
      a,
      { record: "r.jsonl", agent: "a.jsonl" },
      lang,
      ORACLE,
    );
  };
  const stopped = [withOracle, ...ONE_CALL.slice(1, -1)];
  assert.ok(
    screen(stopped, [agentStart, ...sentCall("b")], "en").includes(
      "no read at the end of the session is in this record: the proxy was stopped before the session's end (the record has no end line)",
    ),
  );
  assert.ok(
    screen(stopped, [agentStart, ...sentCall("b")], "zh").includes(
      "这份记录里没有会话结束时的读取：proxy 在会话结束之前就被停止了（记录没有结束行）",
    ),
  );
  const noCall = [withOracle, proxyEnd(5)];
  assert.ok(
    screen(noCall, [agentStart], "en").includes(
      "no tools/call in this record: no effect to read",
    ),
  );
});

Deno.test("agent truth: a record whose effect or start line lies about its fields' types is refused, never drawn", () => {
  const ok = [proxyStart, ...LATE_PROXY.slice(1)];
  assert.ok(Array.isArray(parseRecord(jsonl(ok))));
  for (
    const [line, bad] of [
      [9, { ...effect(5101, "JOB-003", [2, 3]), calls: 5 }],
      [9, { ...effect(5101, "JOB-003", [2, 3]), calls: ["2"] }],
      [9, { ...effect(5101, "JOB-003", [2, 3]), count: "1" }],
      [9, { ...effect(5101, "JOB-003", [2, 3]), after_cancel: "2" }],
      [9, { ...effect(5101, "JOB-003", [2, 3]), key: 3 }],
      [0, { ...proxyStart, oracle: "yes" }],
    ] as const
  ) {
    const lines: unknown[] = [...ok];
    lines[line] = bad;
    assert.deepEqual(parseRecord(jsonl(lines)), { bad: line + 1 });
  }
});
