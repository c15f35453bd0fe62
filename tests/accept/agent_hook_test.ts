/**
 * The agent hook as an engineer gets it: printed by
 * `guardlab proxy --print-agent-hook`, saved to a file, and run by an
 * `@openai/agents-core` agent under Deno and under Node; and the hook's own
 * promises: the record's bounds (lines, bytes, each line), a new private
 * file that never follows a link, in a folder no one else can change.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  AGENT_RECORD_LIMITS,
  guardlabAgentRecord,
} from "../../lib/accept/agent_hook.mjs";
import { agentStory, parseAgentRecord } from "../../lib/accept/agent_record.ts";
import {
  MAX_AGENT_TEXT_CHARS,
  MAX_RECORD_BYTES,
  MAX_RECORD_LINES,
  MAX_RECORDED_MESSAGE_BYTES,
} from "../../lib/accept/limits.ts";
import { privateDir } from "../_helpers/accept_helpers.ts";
import { nodeModules } from "../_helpers/agent_lane.ts";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import { IS_ROOT, OTHER_UID } from "../_helpers/sandbox_fixtures.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";
import { namespaceMissing } from "../_helpers/namespace.ts";
import { ROOT } from "../_helpers/root.ts";
import { loadAgentsCore } from "../_helpers/deps.ts";

const SOURCE = Deno.readTextFileSync(
  join(ROOT, "lib", "accept", "agent_hook.mjs"),
);
const CAN_ENV = Deno.permissions.querySync({ name: "env" }).state ===
  "granted";
const NEEDS = CAN_RUN && CAN_ENV
  ? ""
  : " [ignored: runs Deno and Node as child processes, which needs --allow-run and --allow-env; run `deno task test`]";

Deno.test("agent hook: printed byte for byte as it ships, plain ASCII, nothing else on the line", async () => {
  const r = await cli(["proxy", "--print-agent-hook"]);
  assert.equal(r.code, 0, r.err.join("\n"));
  assert.equal(r.out.join("\n") + "\n", SOURCE);
  assert.match(
    SOURCE,
    /^[\n -~]*$/,
    "ASCII only: any terminal, any editor",
  );
  for (
    const args of [
      ["proxy", "--print-agent-hook", "show", "x.jsonl"],
      ["proxy", "--print-agent-hook", "--json"],
      ["proxy", "--print-agent-hook", "--agent", "a.jsonl"],
    ]
  ) assertUsageError(await cli(args), /--print-agent-hook takes no other/);
});

Deno.test("agent hook: its bounds are the proxy record's", () => {
  assert.deepEqual({ ...AGENT_RECORD_LIMITS }, {
    lines: MAX_RECORD_LINES,
    bytes: MAX_RECORD_BYTES,
    lineBytes: MAX_RECORDED_MESSAGE_BYTES,
    text: MAX_AGENT_TEXT_CHARS,
  });
});

/**
 * The agent an engineer would write, with the hook in its two lines: a
 * function tool with a tool input guardrail (refuses a secret) and a tool
 * output guardrail (throws on note c), an agent-level input guardrail, a
 * scripted model. It prints what the tool stored and what ended the run.
 */
const DRIVER = `
const agents = await import(
  globalThis.Deno ? "npm:@openai/agents-core@0.20.0" : "@openai/agents-core"
);
const { guardlabAgentRecord } = await import("./guardlab-agent-hook.mjs");
const [path, mode] = globalThis.Deno ? Deno.args : process.argv.slice(2);
const hook = await guardlabAgentRecord(agents, path, {
  replaceProcessors: mode === "replace",
});
const F = agents.ToolGuardrailFunctionOutputFactory;
const stored = [];
const tool = hook.watchTool(agents.tool({
  name: "put_note",
  description: "Store a note.",
  strict: true,
  parameters: {
    type: "object",
    properties: { id: { type: "string" }, text: { type: "string" } },
    required: ["id", "text"],
    additionalProperties: false,
  },
  execute: async ({ id }) => {
    stored.push(id);
    return "stored " + id;
  },
  inputGuardrails: [agents.defineToolInputGuardrail({
    name: "no_secrets",
    run: async ({ toolCall }) =>
      JSON.parse(toolCall.arguments).text.includes("secret")
        ? F.rejectContent("refused: no secrets")
        : F.allow(),
  })],
  outputGuardrails: [agents.defineToolOutputGuardrail({
    name: "not_c",
    run: async ({ output }) =>
      String(output).includes("stored c") ? F.throwException() : F.allow(),
  })],
}));
const call = (id, text) => [{
  type: "function_call",
  callId: "call_" + id,
  name: "put_note",
  arguments: JSON.stringify({ id, text }),
  status: "completed",
}];
const turns = [call("a", "a secret"), call("b", "hello"), call("c", "hello")];
let n = 0;
const model = {
  async getResponse() {
    const output = turns[n++];
    return {
      usage: new agents.Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
      output,
      responseId: "r" + n,
    };
  },
  async *getStreamedResponse() {},
};
const agent = new agents.Agent({
  name: "clerk",
  instructions: "Store notes.",
  model,
  tools: [tool],
  inputGuardrails: [{
    name: "on_topic",
    execute: async () => ({ tripwireTriggered: false, outputInfo: null }),
  }],
});
let error = null;
try {
  await new agents.Runner().run(agent, "Store the notes.");
} catch (e) {
  error = e?.constructor?.name ?? String(e);
}
hook.close();
console.log(JSON.stringify({ stored, error, path: hook.path }));
`;

/** A folder with the printed hook and the driver; `using` removes it. */
async function printedHook() {
  const dir = privateDir("gl-hook-printed-");
  const printed = await cli(["proxy", "--print-agent-hook"]);
  Deno.writeTextFileSync(
    join(dir.path, "guardlab-agent-hook.mjs"),
    printed.out.join("\n") + "\n",
  );
  Deno.writeTextFileSync(join(dir.path, "driver.mjs"), DRIVER);
  Deno.mkdirSync(join(dir.path, "out"), { mode: 0o700 });
  return dir;
}

/** What the driver printed and the record it left, checked the same way for either runtime. */
function checkRun(
  runtime: "deno" | "node",
  stdout: string,
  began: number,
  ended: number,
) {
  const last = stdout.trim().split("\n").filter((l) => l.startsWith("{"))
    .at(-1)!;
  const report = JSON.parse(last);
  // Note c was stored: its output guardrail threw after the tool ran.
  assert.deepEqual(report.stored, ["b", "c"]);
  assert.equal(report.error, "ToolCallError");
  const text = Deno.readTextFileSync(report.path);
  assert.equal((Deno.statSync(report.path).mode ?? 0) & 0o777, 0o600);
  const raw = text.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(raw[0].kind, "start");
  assert.equal(raw[0].guardlab_agent, 1);
  assert.equal(raw[0].runtime, runtime);
  assert.ok(
    raw[0].epoch_ms >= began - 1 && raw[0].epoch_ms <= ended + 1,
    `the record's start (${
      raw[0].epoch_ms
    }) within the run (${began}..${ended})`,
  );
  const lines = parseAgentRecord(text);
  assert.ok(!("bad" in lines), JSON.stringify(lines));
  const story = agentStory(lines);
  assert.deepEqual(story.turns.map((t) => t.turn), [1, 2, 3]);
  assert.deepEqual(story.agentGuardrails.map((g) => [g.name, g.triggered]), [
    ["on_topic", false],
  ]);
  assert.deepEqual(
    story.calls.map((c) =>
      [
        c.callId,
        c.tool,
        ...c.guardrails.map((g) => `${g.stage} ${g.name} ${g.decision}`),
        c.told,
        c.error,
      ].join(" | ")
    ),
    [
      "call_a | put_note | input no_secrets rejectContent | refused: no secrets | ",
      "call_b | put_note | input no_secrets allow | output not_c allow | stored b | ",
      "call_c | put_note | input no_secrets allow | output not_c throwException |  | Error running tool",
    ],
  );
  // Each guardrail decided after it began, within its call's function span
  // (the span's start is noted when the SDK tells this processor, which,
  // behind another processor, is a moment after the guardrail began).
  for (const c of story.calls) {
    for (const g of c.guardrails) {
      assert.ok(c.start! <= g.t && g.began <= g.t && g.t <= c.end!);
    }
  }
  assert.equal(raw.at(-1).kind, "end");
}

Deno.test({
  name:
    "agent hook: as printed, under Deno (no --allow-sys, read and write its folder only), with agents-core's own console processor kept beside it" +
    NEEDS,
  ignore: !(CAN_RUN && CAN_ENV),
  async fn() {
    using dir = await printedHook();
    const began = Date.now();
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "--no-config",
        `--lock=${join(ROOT, "deno.lock")}`,
        "--frozen",
        "--cached-only",
        `--allow-read=${dir.path}`,
        `--allow-write=${dir.path}`,
        "--allow-env",
        "driver.mjs",
        join(dir.path, "out", "agent.jsonl"),
        "add",
      ],
      cwd: dir.path,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(r.stdout);
    assert.equal(r.code, 0, new TextDecoder().decode(r.stderr) + stdout);
    checkRun("deno", stdout, began, Date.now());
    // addTraceProcessor keeps the processor agents-core adds at import
    // (index.mjs: addTraceProcessor(defaultProcessor())), which prints.
    assert.match(stdout, /\[Exporter\] Export span/);
  },
});

Deno.test({
  name:
    "agent hook: as printed, under Node, agents-core from a node_modules laid out offline from Deno's cache, its processor alone" +
    NEEDS,
  ignore: !(CAN_RUN && CAN_ENV),
  async fn(t) {
    using dir = await printedHook();
    const missing = await nodeModules(dir.path);
    if (missing !== null) {
      await t.step({
        name: `run under Node [ignored: ${missing}]`,
        ignore: true,
        fn() {},
      });
      return;
    }
    const began = Date.now();
    const r = await new Deno.Command("node", {
      args: ["driver.mjs", join(dir.path, "out", "agent.jsonl"), "replace"],
      cwd: dir.path,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(r.stdout);
    assert.equal(r.code, 0, new TextDecoder().decode(r.stderr) + stdout);
    checkRun("node", stdout, began, Date.now());
    assert.doesNotMatch(
      stdout,
      /\[Exporter\]/,
      "setTraceProcessors replaced it",
    );
  },
});

/** The processor and wrappers of a hook on a stand-in SDK (no agents-core needed). */
async function hookOn(path: string) {
  let processor: {
    onSpanStart(s: unknown): Promise<void>;
    onSpanEnd(s: unknown): Promise<void>;
  } | undefined;
  const sdk = {
    addTraceProcessor(p: typeof processor) {
      processor = p;
    },
    setTraceProcessors() {},
    getCurrentSpan: () => ({ spanId: "span_1" }),
  };
  const hook = await guardlabAgentRecord(sdk, path);
  return { hook, processor: processor! };
}

const turnSpan = (turn: number) => ({
  spanId: `span_t${turn}`,
  spanData: { type: "turn", turn, agent_name: "clerk" },
});

Deno.test("agent hook: at most 100000 lines, the last one saying the record is full", async () => {
  using dir = privateDir("gl-hook-lines-");
  const { hook, processor } = await hookOn(join(dir.path, "a.jsonl"));
  for (let i = 0; i < MAX_RECORD_LINES + 10; i++) {
    await processor.onSpanStart(turnSpan(i));
  }
  hook.close();
  const lines = Deno.readTextFileSync(join(dir.path, "a.jsonl")).trimEnd()
    .split("\n");
  assert.ok(lines.length <= MAX_RECORD_LINES, `${lines.length} lines`);
  assert.equal(JSON.parse(lines.at(-1)!).kind, "full");
  assert.ok(!("bad" in parseAgentRecord(lines.join("\n"))));
});

Deno.test("agent hook: at most 64 MiB, every line within 64 KiB, long texts cut, a cycle written as text", async () => {
  using dir = privateDir("gl-hook-bytes-");
  const path = join(dir.path, "a.jsonl");
  const { hook, processor } = await hookOn(path);
  const huge = "x".repeat(200 * 1024);
  await processor.onSpanEnd({
    spanId: "span_f",
    spanData: { type: "function", name: "put_note", input: huge, output: huge },
    error: null,
  });
  const cyclic: Record<string, unknown> = { id: "a" };
  cyclic.self = cyclic;
  const server = hook.watch({
    name: "s",
    toolInputGuardrails: [],
    callToolResult: (_tool: string, _args: unknown) =>
      Promise.resolve({ content: [], isError: false }),
  });
  await server.callToolResult("put_note", cyclic);
  // Calls of 60 KiB each, until the record is full.
  const big = { text: "y".repeat(60 * 1024) };
  for (let i = 0; i < 1200; i++) await server.callToolResult("put_note", big);
  hook.close();
  const text = Deno.readTextFileSync(path);
  assert.ok(
    new TextEncoder().encode(text).length <= MAX_RECORD_BYTES,
    "within 64 MiB",
  );
  const lines = text.trimEnd().split("\n");
  for (const line of lines) {
    assert.ok(
      new TextEncoder().encode(line).length <= MAX_RECORDED_MESSAGE_BYTES,
    );
  }
  const fn = JSON.parse(lines[1]);
  assert.equal(fn.input.length, MAX_AGENT_TEXT_CHARS + 1);
  assert.ok(fn.input.endsWith("\u2026"));
  const cycle = JSON.parse(lines[2]);
  assert.equal(cycle.kind, "mcp_call");
  assert.equal(typeof cycle.arguments, "string", "the cycle, as text");
  assert.equal(JSON.parse(lines.at(-1)!).kind, "full");
  const parsed = parseAgentRecord(text);
  assert.ok(!("bad" in parsed), JSON.stringify(parsed));
});

Deno.test("agent hook: a guardrail that throws is noted as error and still throws; a wrapped guardrail is not wrapped twice", async () => {
  using dir = privateDir("gl-hook-throws-");
  const path = join(dir.path, "a.jsonl");
  const { hook } = await hookOn(path);
  const [wrapped] = hook.input([{
    type: "tool_input",
    name: "broken",
    run: () => Promise.reject(new Error("guardrail broke")),
  }]);
  assert.equal(hook.input([wrapped])[0], wrapped);
  await assert.rejects(
    () =>
      wrapped.run({
        toolCall: { name: "put_note", callId: "call_1", arguments: "{}" },
      }),
    /guardrail broke/,
  );
  hook.close();
  const line = JSON.parse(Deno.readTextFileSync(path).split("\n")[1]);
  assert.deepEqual(
    [line.kind, line.stage, line.name, line.decision, line.message, line.span],
    ["tool_guardrail", "input", "broken", "error", "guardrail broke", "span_1"],
  );
});

Deno.test("agent hook: a link at the name is never followed (the next free name is taken), the file is new and 0600", async () => {
  using dir = privateDir("gl-hook-link-");
  const victim = join(dir.path, "victim.txt");
  Deno.writeTextFileSync(victim, "keep me");
  Deno.symlinkSync(victim, join(dir.path, "a.jsonl"));
  const { hook } = await hookOn(join(dir.path, "a.jsonl"));
  hook.close();
  assert.equal(hook.path, join(dir.path, "a-2.jsonl"));
  assert.equal(Deno.readTextFileSync(victim), "keep me");
  assert.equal((Deno.statSync(hook.path).mode ?? 0) & 0o777, 0o600);
});

Deno.test({
  name:
    "agent hook: a folder others can change, a folder that is a link, or a folder above it that is not safe is refused, nothing created",
  ignore: Deno.build.os === "windows",
  async fn() {
    using dir = privateDir("gl-hook-folder-");
    const shared = join(dir.path, "shared");
    Deno.mkdirSync(shared);
    Deno.chmodSync(shared, 0o777);
    await assert.rejects(
      () => hookOn(join(shared, "a.jsonl")),
      /refused: others can change .*shared/,
    );
    assert.deepEqual([...Deno.readDirSync(shared)], []);
    const real = join(dir.path, "real");
    Deno.mkdirSync(real, { mode: 0o700 });
    Deno.symlinkSync(real, join(dir.path, "link"));
    await assert.rejects(
      () => hookOn(join(dir.path, "link", "a.jsonl")),
      /refused: .*link is a link/,
    );
    assert.deepEqual([...Deno.readDirSync(real)], []);
    // A private folder inside one others may change (not sticky).
    const inner = join(shared, "mine");
    Deno.mkdirSync(inner, { mode: 0o700 });
    await assert.rejects(
      () => hookOn(join(inner, "a.jsonl")),
      /refused: others can change .*shared/,
    );
  },
});

Deno.test({
  name:
    "agent hook: a folder of another user's is refused (acting as root, the folder given to uid 65534)" +
    (IS_ROOT ? "" : " [ignored: needs root, to hand a folder to another user]"),
  ignore: Deno.build.os === "windows" || !IS_ROOT,
  async fn() {
    using dir = privateDir("gl-hook-owner-");
    const theirs = join(dir.path, "theirs");
    Deno.mkdirSync(theirs, { mode: 0o700 });
    Deno.chownSync(theirs, OTHER_UID, OTHER_UID);
    await assert.rejects(
      () => hookOn(join(theirs, "a.jsonl")),
      /refused: .*theirs (belongs to someone else|is not a folder of yours)/,
    );
    assert.deepEqual([...Deno.readDirSync(theirs)], []);
  },
});

const noNamespace = CAN_RUN ? namespaceMissing() : "spawning needs --allow-run";

Deno.test({
  name:
    "agent hook: a disk that fills before close ends the record with a line on stderr, never the agent" +
    (noNamespace ? ` [ignored: ${noNamespace}]` : ""),
  ignore: noNamespace !== "",
  async fn() {
    using dir = privateDir("gl-hook-full-");
    const small = join(dir.path, "small");
    Deno.mkdirSync(small, { mode: 0o700 });
    const agent = join(dir.path, "agent.ts");
    // The agent starts its record, the disk fills (another user can fill a
    // shared /tmp), and the agent closes the record as it ends.
    Deno.writeTextFileSync(
      agent,
      `import { guardlabAgentRecord } from ${
        JSON.stringify(
          new URL("lib/accept/agent_hook.mjs", `file://${ROOT}`).href,
        )
      };
const [dir] = Deno.args;
let processor;
const hook = await guardlabAgentRecord(
  { addTraceProcessor(p) { processor = p; }, setTraceProcessors() {} },
  dir + "/agent.jsonl",
);
// Turns whose lines leave the record's last page short of room for the
// end line (a new page is what a full disk refuses).
const size = () => Deno.statSync(dir + "/agent.jsonl").size;
let name = "";
for (let turn = 1; turn < 20; turn++) {
  if (4096 - (size() % 4096) < 20) break;
  const before = size();
  await processor.onSpanStart({
    spanId: "t" + turn,
    spanData: { type: "turn", turn, agent_name: name },
  });
  const overhead = size() - before - name.length;
  const want = 4096 - (size() % 4096) - 10 - overhead;
  // A name is cut at 2,000 characters: longer gaps take two turns.
  name = "a".repeat(Math.min(want > 0 ? want : want + 4096, 1500));
}
try {
  using fill = Deno.openSync(dir + "/fill", { write: true, createNew: true });
  for (;;) fill.writeSync(new Uint8Array(4096));
} catch { /* full */ }
const room = 4096 - (size() % 4096);
hook.close();
console.log("the agent ended as it would", room < 20);
`,
    );
    const r = await new Deno.Command("unshare", {
      args: [
        "-m",
        "bash",
        "-c",
        'mount -t tmpfs -o size=64k,mode=700 tmpfs "$1" && shift && exec "$@"',
        "bash",
        small,
        Deno.execPath(),
        "run",
        "-q",
        "--no-lock",
        "--allow-read",
        "--allow-write",
        agent,
        small,
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(r.stderr);
    assert.equal(r.code, 0, err);
    assert.equal(
      new TextDecoder().decode(r.stdout),
      "the agent ended as it would true\n",
    );
    assert.match(
      err,
      /^guardlab agent hook: \S+\/agent\.jsonl: No space left on device \(os error 28\)\n$/,
    );
  },
});

const NEEDS_ENV = CAN_ENV
  ? ""
  : " [ignored: @openai/agents-core reads all of process.env when it loads, which needs --allow-env; run `deno task test`]";

Deno.test({
  name:
    "agent hook: an MCP call carries the agent's trace context in params._meta, from agents-core's own ids; one the caller gave is kept, and none is added when asked" +
    NEEDS_ENV,
  ignore: !CAN_ENV,
  async fn() {
    const api = await loadAgentsCore();
    api.setTracingDisabled(false);
    using dir = privateDir("gl-hook-traceparent-");
    const seen: unknown[][] = [];
    const fake = () => ({
      name: "s",
      toolInputGuardrails: [],
      callToolResult: (...args: unknown[]) => {
        seen.push(args);
        return Promise.resolve({ content: [], isError: false });
      },
    });
    const on = await guardlabAgentRecord(api, join(dir.path, "on.jsonl"), {
      replaceProcessors: true,
    });
    const off = await guardlabAgentRecord(api, join(dir.path, "off.jsonl"), {
      traceparent: false,
    });
    const server = on.watch(fake());
    const quiet = off.watch(fake());
    const ids: { trace: string; span: string }[] = [];
    const given = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    await api.withTrace(
      "guardlab hook",
      (trace) =>
        api.withFunctionSpan(async (span) => {
          ids.push({ trace: trace.traceId, span: span.spanId });
          await server.callToolResult("put_note", { id: "a" });
          await server.callToolResult("put_note", { id: "b" }, {
            traceparent: given,
            other: 1,
          });
          await quiet.callToolResult("put_note", { id: "c" });
        }, { data: { name: "put_note" } }),
    );
    on.close();
    off.close();
    // agents-core's own ids: trace_ and 32 hex, span_ and 24 hex.
    const [{ trace, span }] = ids;
    assert.match(trace, /^trace_[0-9a-f]{32}$/);
    assert.match(span, /^span_[0-9a-f]{24}$/);
    const made = `00-${trace.slice(6)}-${span.slice(5, 21)}-01`;
    assert.deepEqual(seen.map((a) => a[2] ?? null), [
      { traceparent: made },
      { traceparent: given, other: 1 },
      null,
    ]);
    const calls = (file: string) =>
      Deno.readTextFileSync(join(dir.path, file)).trimEnd().split("\n")
        .map((l) => JSON.parse(l)).filter((l) => l.kind === "mcp_call")
        .map((l) => l.traceparent);
    assert.deepEqual(calls("on.jsonl"), [made, given]);
    assert.deepEqual(calls("off.jsonl"), [null]);
    // The span's own lines name its trace and parent.
    const starts = Deno.readTextFileSync(join(dir.path, "on.jsonl")).trimEnd()
      .split("\n").map((l) => JSON.parse(l)).filter((l) =>
        l.kind === "span_start"
      );
    assert.deepEqual(
      starts.map((l) => [l.type, l.span, l.trace]),
      [["function", span, trace]],
    );
  },
});
