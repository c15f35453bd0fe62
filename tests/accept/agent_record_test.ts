/**
 * An agent record read as hostile input, matched with a proxy record, and
 * drawn as one timeline: hand-written records (a proxy record and an agent
 * record whose clock is 1.5 ms behind), the order and the shift written out
 * by hand; an agent record that lies or is malformed; the screens in both
 * languages within 80 columns, the SVG and the JSON; and the command's
 * refusals.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentStory, parseAgentRecord } from "../../lib/accept/agent_record.ts";
import { matchCalls, proxyCalls } from "../../lib/accept/agent_match.ts";
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
import { privateDir } from "../_helpers/accept_helpers.ts";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import { ORACLE } from "../../examples/guardrails_agent.ts";

const jsonl = (lines: unknown[]) =>
  lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

const FOREST = { job: "JOB-002", topic: "forest", copies: 2 };
const ANSWER = {
  jsonrpc: "2.0",
  id: 5,
  result: { content: [{ type: "text", text: "accepted" }] },
};

/** The proxy's record: one call, held while its effect is read, then delivered. */
const PROXY = [
  {
    kind: "start",
    guardlab_proxy: 1,
    command: ["srv"],
    epoch_ms: 1_000_000,
  },
  {
    kind: "msg",
    t: 10,
    dir: "client>server",
    action: "forwarded",
    call: 1,
    tool: "create_draft",
    bytes: 100,
    msg: {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "create_draft", arguments: FOREST },
    },
  },
  {
    kind: "msg",
    t: 20,
    dir: "server>guardlab",
    action: "held",
    call: 1,
    tool: "create_draft",
    bytes: 50,
    msg: ANSWER,
  },
  {
    kind: "effect",
    t: 25,
    tool: "create_draft",
    key: "JOB-002",
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
    tool: "create_draft",
    after_read: true,
    bytes: 50,
    msg: ANSWER,
  },
  {
    kind: "effect",
    t: 40,
    tool: "create_draft",
    key: "JOB-002",
    calls: [1],
    count: 1,
  },
  { kind: "end", t: 41, truncated: false },
];

/**
 * The agent's record: it started 5 ms before the proxy's, by its clock,
 * which runs 1.5 ms behind: the output guardrail reads 24.5 on the proxy's
 * time, the answer it checked left at 26.
 */
const AGENT = [
  { kind: "start", guardlab_agent: 1, epoch_ms: 999_995, runtime: "deno" },
  {
    kind: "span_start",
    t: 1,
    type: "turn",
    span: "t1",
    turn: 1,
    agent: "clerk",
  },
  {
    kind: "span_start",
    t: 2,
    type: "function",
    span: "f1",
    name: "create_draft",
  },
  {
    kind: "tool_guardrail",
    t: 3,
    began: 2.5,
    stage: "input",
    name: "batch_limit",
    tool: "create_draft",
    call_id: "c1",
    arguments: JSON.stringify({ job: "JOB-001", topic: "river", copies: 4 }),
    span: "f1",
    decision: "rejectContent",
    message: "refused",
  },
  {
    kind: "span_end",
    t: 4,
    type: "function",
    span: "f1",
    name: "create_draft",
    input: "{}",
    output: "refused",
    mcp_server: null,
    error: null,
  },
  {
    kind: "span_start",
    t: 6,
    type: "turn",
    span: "t2",
    turn: 2,
    agent: "clerk",
  },
  {
    kind: "span_start",
    t: 7,
    type: "function",
    span: "f2",
    name: "create_draft",
  },
  {
    kind: "tool_guardrail",
    t: 8,
    began: 7.5,
    stage: "input",
    name: "batch_limit",
    tool: "create_draft",
    call_id: "c2",
    arguments: JSON.stringify(FOREST),
    span: "f2",
    decision: "allow",
  },
  {
    kind: "mcp_call",
    t: 9,
    n: 1,
    server: "s",
    tool: "create_draft",
    arguments: FOREST,
    span: "f2",
  },
  { kind: "mcp_result", t: 29, n: 1, outcome: "success" },
  {
    kind: "tool_guardrail",
    t: 29.5,
    began: 29.2,
    stage: "output",
    name: "forest_review",
    tool: "create_draft",
    call_id: "c2",
    arguments: JSON.stringify(FOREST),
    span: "f2",
    decision: "rejectContent",
    message: "needs review",
    output: "accepted",
  },
  {
    kind: "span_end",
    t: 30,
    type: "function",
    span: "f2",
    name: "create_draft",
    input: JSON.stringify(FOREST),
    output: "needs review",
    mcp_server: "s",
    error: null,
  },
];

const proxyLines = (lines: unknown[] = PROXY) =>
  parseRecord(jsonl(lines)) as RecordLine[];
const agentLines = (lines: unknown[] = AGENT) => {
  const parsed = parseAgentRecord(jsonl(lines));
  assert.ok(!("bad" in parsed), JSON.stringify(parsed));
  return parsed;
};

Deno.test("agent record: merged with the proxy's, in the order things happened, the agent's clock moved by the least that keeps it", () => {
  const merged = mergedTimeline(proxyLines(), agentLines(), ORACLE);
  assert.equal(merged.offsetMs, -5);
  assert.equal(merged.shiftMs, 1.5);
  assert.equal(merged.contradictory, false);
  assert.deepEqual(
    merged.steps.map((s) =>
      `${s.visible ? "--- " : ""}${s.lane}: ${say(s.text, "en")}`
    ),
    [
      "agent: model turn 1",
      "agent: calls create_draft",
      "agent: tool input guardrail batch_limit: rejectContent",
      "agent: never sent; the model is told «refused»",
      "agent: model turn 2",
      "agent: calls create_draft: call 1",
      "agent: tool input guardrail batch_limit: allow",
      "client: sends call 1 create_draft",
      "server: answers call 1: success",
      "guardlab: holds the answer to call 1; reads first",
      "--- guardlab: reads create_draft JOB-002: effect 1",
      "guardlab: delivers call 1: success",
      "agent: tool output guardrail forest_review: rejectContent",
      "agent: the model is told «needs review»",
      "guardlab: reads create_draft JOB-002: effect 1",
    ],
  );
  // Times on the proxy's clock: the agent's 1 ms is the proxy's -4 ms,
  // moved 1.5 to -2.5, drawn rounded half up as -2.
  assert.deepEqual(
    merged.steps.filter((s) => s.lane === "agent").map((s) => s.at_ms),
    [-2, -1, 0, 1, 3, 4, 5, 26, 27],
  );
  const [refused, sent] = merged.story.calls;
  assert.equal(refused.proxyCall, null, "never reached the proxy");
  assert.equal(sent.proxyCall, 1);
});

Deno.test("agent record: clocks that no shift reconciles: the order follows what depends on what, and the screen says so", () => {
  // The agent's input guardrail after the call it let go (by 3 ms), its
  // output guardrail before the answer it checked.
  const agent = AGENT.map((l) =>
    l.kind === "tool_guardrail" && l.stage === "input" && l.call_id === "c2"
      ? { ...l, t: 18, began: 17 }
      : l
  );
  const merged = mergedTimeline(proxyLines(), agentLines(agent), ORACLE);
  assert.equal(merged.contradictory, true);
  assert.equal(merged.shiftMs, 0);
  const at = (text: string) =>
    merged.steps.findIndex((s) => say(s.text, "en") === text);
  assert.ok(
    at("agent: tool input guardrail batch_limit: allow".slice(7)) <
      at("client: sends call 1 create_draft".slice(8)),
  );
  assert.ok(
    at("delivers call 1: success") <
      at("tool output guardrail forest_review: rejectContent"),
  );
  const screen = mergedShowLines(
    proxyLines(),
    agentLines(agent),
    { record: "r.jsonl", agent: "a.jsonl" },
    "en",
    ORACLE,
  ).join(" ");
  assert.match(screen, /no one shift of the agent record's clock/);
});

Deno.test("agent record: a timeout, the cancel it sent, then what the agent did; a retry of the same arguments", () => {
  const proxy = [
    PROXY[0],
    PROXY[1],
    { ...PROXY[2], action: "held" },
    PROXY[3],
    {
      kind: "msg",
      t: 26,
      dir: "server>guardlab",
      action: "dropped",
      call: 1,
      tool: "create_draft",
      after_read: true,
      bytes: 50,
      msg: ANSWER,
    },
    {
      kind: "msg",
      t: 5009,
      dir: "client>server",
      action: "forwarded",
      call: 1,
      tool: "create_draft",
      bytes: 80,
      msg: {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 5 },
      },
    },
    {
      ...PROXY[1],
      t: 5020,
      call: 2,
      msg: { ...PROXY[1].msg, id: 6 },
    },
  ];
  const agent = [
    ...AGENT.slice(0, 9),
    // The hook notes the timeout once the SDK hears of it: after the
    // cancel left, 2 ms after the proxy saw it by these clocks.
    {
      kind: "mcp_result",
      t: 5016,
      n: 1,
      outcome: "timeout",
      error: "Request timed out",
    },
    {
      kind: "tool_guardrail",
      t: 5017,
      began: 5016.5,
      stage: "output",
      name: "forest_review",
      tool: "create_draft",
      call_id: "c2",
      arguments: JSON.stringify(FOREST),
      span: "f2",
      decision: "allow",
      output: "An error occurred while running the tool. Please try again.",
    },
    {
      kind: "span_end",
      t: 5018,
      type: "function",
      span: "f2",
      name: "create_draft",
      input: JSON.stringify(FOREST),
      output: "An error occurred while running the tool. Please try again.",
      mcp_server: "s",
      error: "Error running tool (non-fatal)",
    },
    {
      kind: "span_start",
      t: 5020,
      type: "function",
      span: "f3",
      name: "create_draft",
    },
    {
      kind: "mcp_call",
      t: 5021,
      n: 2,
      server: "s",
      tool: "create_draft",
      arguments: FOREST,
      span: "f3",
    },
  ];
  const merged = mergedTimeline(proxyLines(proxy), agentLines(agent), ORACLE);
  const lines = merged.steps.map((s) => `${s.lane}: ${say(s.text, "en")}`);
  const from = lines.indexOf("guardlab: drops the answer to call 1 (fault)");
  assert.deepEqual(lines.slice(from), [
    "guardlab: drops the answer to call 1 (fault)",
    "agent: no answer to call 1: timeout after 5007 ms",
    "client: cancels call 1",
    "agent: tool output guardrail forest_review: allow",
    "agent: the model is told «An error occurred while running the tool.…»",
    "agent: calls create_draft again, same arguments as call 1: call 2",
    "client: retries: call 2 create_draft, same key as call 1",
  ]);
  assert.equal(merged.story.calls[2].retryOf, 2);
  assert.equal(merged.story.calls[2].proxyCall, 2);
});

Deno.test("agent record: calls are matched by tool, arguments and order; without the hook's MCP lines, by the calls no input guardrail refused", () => {
  const proxy = proxyLines();
  const story = agentStory(agentLines());
  matchCalls(story, proxyCalls(proxy));
  assert.deepEqual(story.calls.map((c) => c.proxyCall), [null, 1]);
  // Other arguments: no match.
  const other = agentStory(
    agentLines(
      AGENT.map((l) =>
        l.kind === "mcp_call"
          ? { ...l, arguments: { ...FOREST, copies: 3 } }
          : l
      ),
    ),
  );
  matchCalls(other, proxyCalls(proxy));
  assert.deepEqual(other.calls.map((c) => c.proxyCall), [null, null]);
  // No MCP lines (a function tool, or an older hook): by the guardrails.
  const bare = agentStory(
    agentLines(AGENT.filter((l) => !l.kind.startsWith("mcp_"))),
  );
  matchCalls(bare, proxyCalls(proxy));
  assert.deepEqual(bare.calls.map((c) => c.proxyCall), [null, 1]);
});

Deno.test("agent record: hostile lines are refused by number, unknown kinds skipped, texts cut, times bounded", () => {
  const bad = (lines: unknown[] | string) =>
    parseAgentRecord(typeof lines === "string" ? lines : jsonl(lines));
  assert.deepEqual(bad("not json\n"), { bad: 1 });
  assert.deepEqual(bad([AGENT[1]]), { bad: 1 }, "the first line is the start");
  assert.deepEqual(bad([AGENT[0], AGENT[0]]), { bad: 2 }, "one start");
  assert.deepEqual(bad([AGENT[0], { ...AGENT[1], t: "1" }]), { bad: 2 });
  assert.deepEqual(bad([AGENT[0], { ...AGENT[1], t: 1e13 }]), { bad: 2 });
  assert.deepEqual(bad([{ ...AGENT[0], epoch_ms: -1 }]), { bad: 1 });
  assert.deepEqual(
    bad([AGENT[0], { ...AGENT[3], decision: "maybe" }]),
    { bad: 2 },
  );
  assert.deepEqual(bad([AGENT[0], [1, 2]]), { bad: 2 });
  assert.deepEqual(
    bad(
      jsonl([AGENT[0]]) +
        JSON.stringify({ kind: "end", t: 1, pad: "x".repeat(70_000) }),
    ),
    { bad: 2 },
    "a line over 64 KiB",
  );
  assert.deepEqual(
    bad(jsonl([AGENT[0]]) + "[".repeat(30_000) + "]".repeat(30_000) + "\n"),
    { bad: 2 },
    "nested deep: not an object",
  );
  const skipped = bad([AGENT[0], { kind: "later_kind", t: 1 }, AGENT[1]]);
  assert.ok(!("bad" in skipped));
  assert.equal(skipped.length, 2);
  const long = bad([AGENT[0], { ...AGENT[3], message: "m".repeat(5000) }]);
  assert.ok(!("bad" in long));
  const line = long[1];
  assert.ok(line.kind === "tool_guardrail" && line.message!.length === 2001);
});

Deno.test("agent record: screens in both languages within 80 columns, a hostile name cut, the SVG well formed with an agent lane, the JSON", () => {
  const agent = AGENT.map((l) =>
    l.kind === "tool_guardrail" && l.stage === "output"
      ? { ...l, name: "n".repeat(1500) }
      : l
  );
  const files = { record: "r.jsonl", agent: "a.jsonl" };
  for (const lang of ["en", "zh"] as const) {
    const screen = mergedShowLines(
      proxyLines(),
      agentLines(agent),
      files,
      lang,
      ORACLE,
    );
    for (const line of screen) {
      assert.ok(displayWidth(line) <= 80, `${lang}: ${line}`);
    }
    assert.ok(screen.length < 90, `${screen.length} lines: a name is cut`);
    const svg = mergedSvg(proxyLines(), agentLines(agent), files, lang, ORACLE);
    assert.equal(XMLValidator.validate(svg), true);
    assert.match(svg, /data-lane="agent" data-kind="output-guardrail"/);
    assert.match(svg, /class="effect-visible" data-count="1"/);
  }
  const zh = mergedShowLines(proxyLines(), agentLines(), files, "zh", ORACLE);
  assert.ok(zh.some((l) => l.includes("工具输出护栏 forest_review")));
  assert.match(
    zh.map((l) => l.trim()).join(""),
    /在效果已可见（1）之后才作出 rejectContent：效果留下/,
  );
  const json = mergedJson(proxyLines(), agentLines(), files, "en", ORACLE);
  assert.equal(json.shift_ms, 1.5);
  assert.deepEqual(
    json.calls.map((c) => [c.proxy_call, c.guardrails.map((g) => g.decision)]),
    [[null, ["rejectContent"]], [1, ["allow", "rejectContent"]]],
  );
  assert.deepEqual(json.calls[1].arguments, FOREST);
  assert.equal(
    json.steps.find((s) => s.effect_visible !== undefined)?.text,
    "reads create_draft JOB-002: effect 1",
  );
});

Deno.test("proxy show --agent: the screen, and each refusal in one line", async () => {
  using dir = privateDir("gl-agent-show-");
  const record = join(dir.path, "record.jsonl");
  const agent = join(dir.path, "agent.jsonl");
  const oracle = join(dir.path, "oracle.json");
  Deno.writeTextFileSync(record, jsonl(PROXY));
  Deno.writeTextFileSync(agent, jsonl(AGENT));
  Deno.writeTextFileSync(oracle, JSON.stringify(ORACLE));
  const show = await cli([
    "proxy",
    "show",
    record,
    "--agent",
    agent,
    "--oracle",
    oracle,
  ]);
  assert.equal(show.code, 0, show.err.join("\n"));
  assert.ok(
    show.out.includes(
      "  create_draft JOB-001 (not sent): tool input guardrail batch_limit decided",
    ),
    show.out.join("\n"),
  );
  const json = await cli(["proxy", "show", record, "--agent", agent, "--json"]);
  assert.equal(JSON.parse(json.out.join("\n")).calls.length, 2);

  assertUsageError(
    await cli(["proxy", "--agent", agent, "--", "srv"]),
    /--agent, --json and --otlp are for proxy show FILE/,
  );
  assertUsageError(
    await cli(["proxy", "show", record, "--json", "--format", "svg"]),
    /--json and --format svg/,
  );
  assertUsageError(
    await cli(["proxy", "--read-before-delivery", "--", "srv"]),
    /--read-before-delivery reads by the oracle's key/,
  );
  const bad = join(dir.path, "bad.jsonl");
  Deno.writeTextFileSync(bad, jsonl([AGENT[0], { kind: "span_start" }]));
  assertUsageError(
    await cli(["proxy", "show", record, "--agent", bad]),
    /bad\.jsonl" is not a guardlab agent record \(line 2\)/,
  );
  const old = join(dir.path, "old.jsonl");
  Deno.writeTextFileSync(
    old,
    jsonl([{ ...PROXY[0], epoch_ms: undefined }, ...PROXY.slice(1)]),
  );
  assertUsageError(
    await cli(["proxy", "show", old, "--agent", agent]),
    /has no start time on the wall clock/,
  );
  // A link where the agent record should be: refused, exit 4, the target untouched.
  const link = join(dir.path, "link.jsonl");
  Deno.symlinkSync(agent, link);
  const refused = await cli(["proxy", "show", record, "--agent", link]);
  assert.equal(refused.code, 4, refused.err.join("\n"));
  assert.equal(refused.err.length, 1);
  assert.deepEqual(refused.out, []);
  const missing = await cli([
    "proxy",
    "show",
    record,
    "--agent",
    join(dir.path, "none.jsonl"),
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.err[0], /none\.jsonl/);
});
