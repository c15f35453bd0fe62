/**
 * Issue 45's agent lane, with an agent nobody here wrote: an engineer's own
 * agents-core 0.20.0 agent (`agent_lane_driver.mjs`: its own scripted
 * model, its own tool input, tool output and agent guardrails, the hook as
 * `guardlab proxy --print-agent-hook` prints it) through `guardlab proxy`
 * to `guardlab mcp` and to the reference server-memory. Each fixture
 * really behaves so, and each screen is checked against the fixture's own
 * store (the ledger through a second connection, server-memory's graph
 * file) and the agent's own count of its model calls; the lines the
 * screens must show are written here by hand, in both languages.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";
import { parseRecord, type RecordLine } from "../../lib/accept/record.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
} from "../_helpers/accept_helpers.ts";
import {
  type LaneRun,
  type LaneScenario,
  nodeModules,
  runLane,
  stopLinesOf,
} from "../_helpers/agent_lane.ts";
import { cli } from "../_helpers/helpers.ts";

/** A merged screen in one language: the agent's and client's marks (from --json), the lines under the timeline. */
interface Seen {
  readonly agent: string[];
  readonly client: string[];
  readonly stops: string[];
  readonly text: string[];
}

/** A Chinese line is compared with no space at all: it wraps between characters. */
const unspaced = (line: string) => line.replace(/\s+/g, "");

/** `proxy show SESSION --agent AGENT --oracle FILE` in `lang`, read back. */
async function seen(run: LaneRun, lang: "en" | "zh"): Promise<Seen> {
  const base = [
    "proxy",
    "show",
    run.session,
    "--agent",
    run.agentRecord,
    "--oracle",
    run.oracle,
    "--lang",
    lang,
  ];
  const [text, json] = await Promise.all([
    cli(base),
    cli([...base, "--json"]),
  ]);
  assert.equal(text.code, 0, text.err.join("\n"));
  assert.equal(json.code, 0, json.err.join("\n"));
  const steps: { lane: string; text: string }[] = JSON.parse(
    json.out.join("\n"),
  ).steps;
  const title = lang === "en"
    ? "where each of the agent's calls stopped:"
    : "Agent 的每次调用停在了哪一步：";
  const stops = stopLinesOf(text.out, title);
  return {
    agent: steps.filter((s) => s.lane === "agent").map((s) => s.text),
    client: steps.filter((s) => s.lane === "client").map((s) => s.text),
    stops: lang === "en" ? stops : stops.map(unspaced),
    text: text.out,
  };
}

/** The proxy's record of the session, parsed. */
function sessionRecord(run: LaneRun): RecordLine[] {
  return parseRecord(Deno.readTextFileSync(run.session)) as RecordLine[];
}

/** Run `s` in a private folder of its own; `check` reads what it left. */
async function lane(
  prefix: string,
  s: LaneScenario,
  check: (run: LaneRun) => Promise<void>,
  dir?: string,
) {
  using own = privateDir(prefix);
  if (dir !== undefined) {
    Deno.symlinkSync(`${dir}/node_modules`, `${own.path}/node_modules`);
  }
  await check(await runLane(s, own.path));
}

/** An output guardrail that throws, after its call's commit. */
const THROWS: LaneScenario = {
  server: "guardlab",
  readBeforeDelivery: true,
  turns: [[["JOB-001"]], [["JOB-002"]], "never asked for"],
  output: [{ key: "JOB-002", decision: "throwException" }],
};

/** What the throw's screens must say, whatever runs the agent. */
async function checkThrows(run: LaneRun) {
  // The agent's own account: its run ended on the tripwire, after two
  // model calls; the ledger holds both drafts.
  assert.equal(run.agent.error, "ToolCallError");
  assert.equal(run.agent.modelCalls.length, 2);
  assert.deepEqual([...run.store], [["JOB-001", 1], ["JOB-002", 1]]);
  const en = await seen(run, "en");
  assert.equal(
    en.agent.filter((m) => m.startsWith("model turn")).length,
    run.agent.modelCalls.length,
    en.agent.join("\n"),
  );
  const thrown = en.agent.indexOf(
    "tool output guardrail release_check: throwException",
  );
  assert.ok(thrown > 0, en.agent.join("\n"));
  // Nothing invented after the throw: no «», no model turn.
  assert.deepEqual(en.agent.slice(thrown + 1), [
    "the run ends here (throwException): the model is not called again",
  ]);
  assert.deepEqual(en.stops, [
    "create_draft JOB-001 (call 1): every tool guardrail allowed it",
    "create_draft JOB-002 (call 2): tool output guardrail release_check decided throwException after the effect was visible (1): the effect stays; the run ended there",
  ]);
  const zh = await seen(run, "zh");
  assert.deepEqual(zh.agent.slice(thrown + 1), [
    "运行在此结束（throwException）：不再调用模型",
  ]);
  assert.deepEqual(
    zh.stops,
    [
      "create_draft JOB-001（调用 1）：每个工具护栏都放行了",
      "create_draft JOB-002（调用 2）：工具输出护栏 release_check 在效果已可见（1）之后才作出 throwException：效果留下；运行就此结束",
    ].map(unspaced),
  );
}

Deno.test({
  name:
    "agent lane: an output guardrail that throws ends the run: the screen says so, and invents no answer for the model" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn(t) {
    await t.step(
      "under Deno",
      () => lane("gl-lane-throw-", THROWS, checkThrows),
    );
    using modules = privateDir("gl-lane-node-");
    const missing = await nodeModules(modules.path);
    await t.step({
      name: `under Node${missing === null ? "" : ` [ignored: ${missing}]`}`,
      ignore: missing !== null,
      fn: () =>
        lane(
          "gl-lane-throw-node-",
          { ...THROWS, runtime: "node" },
          checkThrows,
          modules.path,
        ),
    });
  },
});

Deno.test({
  name:
    "agent lane: a blocking agent guardrail that trips is the SDK's turn, not a model call, and the screen asks for no --oracle it was given" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    await lane("gl-lane-trip-", {
      server: "memory",
      turns: [[["JOB-001"]], "never asked for"],
      agentGuardrail: { name: "on_topic", blocking: true, trips: true },
    }, async (run) => {
      assert.equal(run.agent.error, "InputGuardrailTripwireTriggered");
      assert.deepEqual(run.agent.modelCalls, []);
      assert.deepEqual([...run.store], []);
      const en = await seen(run, "en");
      assert.deepEqual(en.agent, [
        "the SDK's turn 1 (no model answer used)",
        "agent guardrail on_topic: tripwire triggered; the run ends",
      ]);
      assert.ok(
        en.text.includes("no tools/call in this record: no effect to read"),
        en.text.join("\n"),
      );
      assert.ok(!en.text.some((l) => l.includes("--oracle")));
      const zh = await seen(run, "zh");
      assert.deepEqual(zh.agent, [
        "SDK 的第 1 轮（没有用到模型的回答）",
        "Agent 护栏 on_topic：触发 tripwire；运行结束",
      ]);
      assert.ok(
        zh.text.includes("这份记录里没有 tools/call：没有可读取的效果"),
        zh.text.join("\n"),
      );
    });
  },
});

Deno.test({
  name:
    "agent lane: a call that times out after its commit: the proxy reads the effect as the client cancels, while the server is there, and the screen says what the read found" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    await lane("gl-lane-timeout-", {
      server: "guardlab",
      timeoutMs: 3000,
      turns: [[["JOB-001"]], "done"],
      serverFaults: [{ job: "JOB-001", hold_at: "after_commit" }],
    }, async (run) => {
      assert.deepEqual([...run.store], [["JOB-001", 1]]);
      const record = sessionRecord(run);
      const cancel = record.findIndex((l) =>
        l.kind === "msg" && l.dir === "client>server" &&
        (l.msg as { method?: string })?.method === "notifications/cancelled"
      );
      const read = record.findIndex((l) =>
        l.kind === "effect" && l.after_cancel === 1
      );
      assert.ok(cancel > 0 && read > cancel, run.session);
      assert.equal((record[read] as { count: number }).count, 1);
      const en = await seen(run, "en");
      assert.deepEqual(en.stops, [
        "create_draft JOB-001 (call 1): timed out; the read by key as it was cancelled found the effect (1): the effect stays; the agent saw only a failure",
      ]);
      // No advice: no answer is delivered to a timed-out call.
      assert.ok(!en.text.some((l) => l.includes("--read-before-delivery")));
      const zh = await seen(run, "zh");
      assert.deepEqual(
        zh.stops,
        [
          "create_draft JOB-001（调用 1）：超时；在它被取消时按业务键读取，发现了效果（1）：效果留下；Agent 只看到一次失败",
        ].map(unspaced),
      );
    });
  },
});

Deno.test({
  name:
    "agent lane: a call that times out with nothing committed (server-memory): the screen says the read found 0, as the graph file holds" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    await lane("gl-lane-nothing-", {
      server: "memory",
      timeoutMs: 3000,
      // server-memory refuses an entity with no type; its answer is dropped.
      turns: [[["JOB-001", "bad"]], "done"],
      proxyFaults: [{ tool: "create_entities", call: 1, drop_response: true }],
    }, async (run) => {
      assert.deepEqual([...run.store], []);
      const en = await seen(run, "en");
      assert.deepEqual(en.stops, [
        "create_entities JOB-001 (call 1): timed out; the read by key at the end of the session found no effect (0): nothing was written by then",
      ]);
      const zh = await seen(run, "zh");
      assert.deepEqual(
        zh.stops,
        [
          "create_entities JOB-001（调用 1）：超时；在会话结束时按业务键读取，没有发现效果（0）：那时还什么也没写",
        ].map(unspaced),
      );
    });
  },
});

Deno.test({
  name:
    "agent lane: a client that probes first: stderr names the session's record, the probe's screen points to it; a retry is one by chapter 9's rule on both lanes" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    await lane("gl-lane-probe-", {
      server: "guardlab",
      readBeforeDelivery: true,
      // Refused once by the input guardrail, asked again, then the same
      // job with other arguments (the server refuses it: key_conflict).
      turns: [[["JOB-001"]], [["JOB-001"]], [["JOB-001", "other"]], "done"],
      input: [{ key: "JOB-001", decision: "rejectContent", times: 1 }],
    }, async (run) => {
      assert.deepEqual([...run.store], [["JOB-001", 1]]);
      // agents-core's client probes on a proxy of its own, then starts
      // another for the session: the record asked for holds the probe.
      assert.deepEqual(run.records.map((r) => basename(r)), [
        "proxy.jsonl",
        "proxy-2.jsonl",
      ]);
      assert.equal(basename(run.session), "proxy-2.jsonl");
      const said = run.stderr.split("\n").filter((l) =>
        l.startsWith("guardlab proxy:")
      );
      assert.ok(
        said.includes(
          `guardlab proxy: ${run.asked} exists (an earlier record: a client that probes first, as agents-core 0.20.0's does, starts guardlab proxy once for the probe alone), so this session is recorded in ${run.session}; the server runs with your own rights`,
        ),
        said.join("\n"),
      );
      for (
        const [lang, line] of [
          [
            "en",
            `this record holds only a client's discovery probe (server/discover), no session: a client that probes first (as agents-core 0.20.0's does) stops this guardlab proxy after the probe and starts another for the session, whose record took the next free name: ${run.session}`,
          ],
          [
            "zh",
            `这份记录里只有客户端的发现探测（server/discover），没有会话：先探测的客户端（例如 agents-core 0.20.0 的）探测完就停掉这个 guardlab proxy，再为会话另启动一个，它的记录用了下一个空闲的名字：${run.session}`,
          ],
        ] as const
      ) {
        const probe = await cli(["proxy", "show", run.asked, "--lang", lang]);
        assert.equal(probe.code, 0);
        assert.ok(probe.out.includes(line), probe.out.join("\n"));
        assert.ok(!probe.out.some((l) => l.includes("--oracle")));
      }
      const json = await cli(["proxy", "show", run.asked, "--json"]);
      const probe = JSON.parse(json.out.join("\n"));
      assert.equal(probe.probe_only, true);
      assert.equal(probe.session_record, run.session);

      const en = await seen(run, "en");
      assert.deepEqual(
        en.agent.filter((m) => m.startsWith("calls ")),
        [
          "calls create_draft",
          "calls create_draft again, same arguments as the call its input guardrail refused: call 1",
          "calls create_draft again, same key as call 1, other arguments: call 2",
        ],
      );
      assert.deepEqual(
        en.client.filter((m) => /^(sends|retries)/.test(m)),
        [
          "sends call 1 create_draft",
          "retries: call 2 create_draft, same key as call 1",
        ],
      );
      assert.deepEqual(en.stops, [
        "create_draft JOB-001 (not sent): tool input guardrail approval decided rejectContent before any tools/call: this call wrote nothing",
        "create_draft JOB-001 (call 1): every tool guardrail allowed it; a retry of the call its input guardrail refused",
        "create_draft JOB-001 (call 2): every tool guardrail allowed it; a retry of call 1, same key, other arguments",
      ]);
      const zh = await seen(run, "zh");
      assert.deepEqual(
        zh.agent.filter((m) => m.startsWith("再次调用")),
        [
          "再次调用 create_draft，与被工具输入护栏拒绝的那次调用参数相同：调用 1",
          "再次调用 create_draft，与调用 1 业务键相同、参数不同：调用 2",
        ],
      );
      assert.deepEqual(
        zh.stops,
        [
          "create_draft JOB-001（未发出）：工具输入护栏 approval 在任何 tools/call 之前作出 rejectContent：这次调用什么也没写",
          "create_draft JOB-001（调用 1）：每个工具护栏都放行了；是被工具输入护栏拒绝的那次调用的重试",
          "create_draft JOB-001（调用 2）：每个工具护栏都放行了；是调用 1 的重试，业务键相同、参数不同",
        ].map(unspaced),
      );
    });
  },
});
