/**
 * The SDK lens's JavaScript rows, run against the real `@openai/agents-core`
 * (pinned in tests/_helpers/deps.ts). Each case drives an `Agent` with a scripted
 * model (turn 1 a function call, turn 2 a final message; no network, no key)
 * and a tool whose `execute` runs guardlab's `Lab` on a scratch ledger. It
 * observes what the ledger holds (second connection), what the model was sent
 * next, and whether the run continued or which error ended it, and compares
 * those with the row's machine fields: a change to a JS row fails here.
 *
 * The package reads all of `process.env` when imported, so without
 * `--allow-env` every test here is reported as ignored, with the reason.
 */
import assert from "node:assert/strict";
import {
  type Behaviour,
  SDK_ROWS,
  type SdkRow,
} from "../../lib/content/_sdk_guardrail_rows.ts";
import {
  APPROVAL_ROWS,
  type ApprovalPhase,
  TOOL_TYPE_ROWS,
} from "../../lib/content/_sdk_tool_rows.ts";
import { SDK_JS_VERSION } from "../../lib/content/sdk_sources.ts";
import { InputRejected, PolicyLab, type Snapshot } from "../../lib/mod.ts";
import {
  delay,
  errorClass,
  functionCall,
  lastToolResult,
  message,
  runAgent,
  runLab,
  ScratchLedger,
  ScriptedModel,
  type Sdk,
  sdk,
  sdkUnavailable,
} from "../_helpers/sdk_harness.ts";

const unavailable = await sdkUnavailable();
const ignore = unavailable !== null;
/** Each test's name says why it is ignored, where `deno test` prints it. */
const WHY = ignore ? ` [ignored: ${unavailable}]` : "";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const PARAMETERS = {
  type: "object",
  properties: {
    job: { type: "string" },
    topic: { type: "string" },
    copies: { type: "integer" },
  },
  required: ["job", "topic", "copies"],
  additionalProperties: false,
} as const;
const REJECT = "REJECTED BY THE TOOL GUARDRAIL";
/**
 * How long the agent input guardrail takes after it may answer: a parallel
 * one first waits until the model has been called, so it is slower than the
 * model by construction, not by a race.
 */
const GUARDRAIL_DELAY_MS = 30;

type Fields = Pick<
  Behaviour,
  "modelCalled" | "toolRan" | "next" | "continues" | "error" | "wrappedIn"
>;

/** The fields of a lens behaviour that a run can observe. */
function fieldsOf(b: Behaviour): Fields {
  return {
    modelCalled: b.modelCalled,
    toolRan: b.toolRan,
    next: b.next,
    continues: b.continues,
    error: b.error,
    ...(b.wrappedIn === undefined ? {} : { wrappedIn: b.wrappedIn }),
  };
}

/** One run as observed: the lens fields, the ledger and the log. */
interface Observation {
  fields: Fields;
  ledger: { drafts: string[]; receipts: string[] };
  log: string[];
  /** What the agent output guardrail was given, when it ran. */
  outputGuardrailSaw?: unknown;
}

/** What a scenario configures on the tool and the agent. */
interface Setup {
  toolInput?: "allow" | "rejectContent" | "throwException";
  toolOutput?: "allow" | "rejectContent" | "throwException";
  outputSchema?: boolean;
  /** An errorFunction on the tool, which turns a failure into output. */
  errorFunction?: boolean;
  agentInput?: "parallel" | "blocking";
  agentOutput?: boolean;
  toolFinal?: boolean;
}

function behaviour(api: Sdk, kind: Setup["toolInput"]) {
  const f = api.ToolGuardrailFunctionOutputFactory;
  return kind === "rejectContent"
    ? f.rejectContent(REJECT)
    : kind === "throwException"
    ? f.throwException()
    : f.allow();
}

/** Run one scenario and observe it in the lens's terms. */
async function observe(setup: Setup, stream: boolean): Promise<Observation> {
  const api = await sdk();
  const log: string[] = [];
  const ledger = await ScratchLedger.create();
  try {
    const model = new ScriptedModel(api, [
      [functionCall("create_draft", ARGS)],
      [message("JOB-001 is drafted.")],
    ], log);
    let outputGuardrailSaw: unknown;
    const createDraft = api.tool({
      name: "create_draft",
      description: "Create the draft for a print job in guardlab's ledger.",
      parameters: PARAMETERS,
      strict: true,
      ...(setup.outputSchema
        ? {
          outputSchema: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
            additionalProperties: false,
          },
        }
        : {}),
      execute: async (args: unknown) => {
        const text = await runLab(ledger, args, log);
        return setup.outputSchema ? { text } : text;
      },
      ...(setup.errorFunction
        ? {
          errorFunction: (_context: unknown, error: unknown) => {
            log.push("error_function");
            return { text: String((error as Error)?.message ?? error) };
          },
        }
        : {}),
      inputGuardrails: setup.toolInput === undefined ? [] : [
        api.defineToolInputGuardrail({
          name: "tool_input",
          run: () => {
            log.push("tool_input_guardrail");
            return Promise.resolve(behaviour(api, setup.toolInput));
          },
        }),
      ],
      outputGuardrails: setup.toolOutput === undefined ? [] : [
        api.defineToolOutputGuardrail({
          name: "tool_output",
          run: () => {
            log.push("tool_output_guardrail");
            return Promise.resolve(behaviour(api, setup.toolOutput));
          },
        }),
      ],
      // deno-lint-ignore no-explicit-any
    } as any);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job the user asks for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      tools: [createDraft],
      ...(setup.toolFinal ? { toolUseBehavior: "stop_on_first_tool" } : {}),
      inputGuardrails: setup.agentInput === undefined ? [] : [{
        name: "agent_input",
        runInParallel: setup.agentInput === "parallel",
        execute: async () => {
          log.push("agent_input_guardrail:start");
          if (setup.agentInput === "parallel") await model.called;
          await delay(GUARDRAIL_DELAY_MS);
          log.push("agent_input_guardrail:tripwire");
          return { tripwireTriggered: true, outputInfo: "over the limit" };
        },
      }],
      outputGuardrails: setup.agentOutput
        ? [{
          name: "agent_output",
          execute: ({ agentOutput }: { agentOutput: unknown }) => {
            outputGuardrailSaw = agentOutput;
            log.push("agent_output_guardrail");
            return Promise.resolve({
              tripwireTriggered: true,
              outputInfo: null,
            });
          },
        }]
        : [],
      // deno-lint-ignore no-explicit-any
    } as any);
    const run = await runAgent(
      api,
      agent,
      "Draft JOB-001, river, 2 copies.",
      stream,
    );
    const toolRan = log.includes("tool:start");
    const second = model.requests[1];
    const sent = second === undefined ? null : lastToolResult(second);
    const ended = run.error as { error?: unknown } | undefined;
    const wrapped = ended instanceof api.ToolCallError;
    return {
      fields: {
        modelCalled: model.requests.length > 0,
        toolRan: toolRan ? "yes" : "no",
        next: sent === null
          ? "nothing"
          : sent.includes(REJECT)
          ? "reject_message"
          : "tool_output",
        continues: run.error === undefined,
        error: errorClass(wrapped ? ended.error : run.error),
        ...(wrapped ? { wrappedIn: "ToolCallError" } : {}),
      },
      ledger: ledger.observe(),
      log,
      ...(setup.agentOutput ? { outputGuardrailSaw } : {}),
    };
  } finally {
    await ledger.remove();
  }
}

/** How each JS row of the lens is produced. */
const SETUPS: Readonly<Record<string, Setup>> = {
  tool_input_allow: { toolInput: "allow" },
  tool_input_reject: { toolInput: "rejectContent" },
  tool_input_reject_schema: { toolInput: "rejectContent", outputSchema: true },
  tool_input_raise: { toolInput: "throwException" },
  tool_output_allow: { toolOutput: "allow" },
  tool_output_reject: { toolOutput: "rejectContent" },
  tool_output_raise: { toolOutput: "throwException" },
  agent_input_parallel: { agentInput: "parallel" },
  agent_input_sequential: { agentInput: "blocking" },
  agent_output: { agentOutput: true },
  agent_output_tool_final: { agentOutput: true, toolFinal: true },
};

/** What a second connection must see for each row. */
const LEDGER: Readonly<
  Record<string, { drafts: string[]; receipts: string[] }>
> = {
  tool_input_allow: { drafts: ["JOB-001"], receipts: ["accepted"] },
  tool_input_reject: { drafts: [], receipts: [] },
  tool_input_reject_schema: { drafts: [], receipts: [] },
  tool_input_raise: { drafts: [], receipts: [] },
  tool_output_allow: { drafts: ["JOB-001"], receipts: ["accepted"] },
  tool_output_reject: { drafts: ["JOB-001"], receipts: ["accepted"] },
  tool_output_raise: { drafts: ["JOB-001"], receipts: ["accepted"] },
  agent_input_parallel: { drafts: [], receipts: [] },
  agent_input_sequential: { drafts: [], receipts: [] },
  agent_output: { drafts: ["JOB-001"], receipts: ["accepted"] },
  agent_output_tool_final: { drafts: ["JOB-001"], receipts: ["accepted"] },
};

const jsRunRows = (): SdkRow[] =>
  SDK_ROWS.filter((row) => row.js.verified.how === "run");

Deno.test({
  name: "sdk conformance: the pinned package is the version the lens names" +
    WHY,
  ignore,
  fn() {
    // The import map pins the package tests load (tests/_helpers/deps.ts).
    const map = Deno.readTextFileSync(
      new URL("../../import_map.json", import.meta.url),
    );
    assert.match(
      map,
      new RegExp(
        `"npm:@openai/agents-core@${SDK_JS_VERSION.replaceAll(".", "\\.")}"`,
      ),
    );
    const lock = Deno.readTextFileSync(
      new URL("../../deno.lock", import.meta.url),
    );
    assert.ok(lock.includes(`"@openai/agents-core@${SDK_JS_VERSION}"`));
  },
});

Deno.test({
  name: "sdk conformance: every JS row marked as run has a run here" + WHY,
  ignore,
  fn() {
    for (const row of jsRunRows()) {
      assert.ok(Object.hasOwn(SETUPS, row.id), `no run for ${row.id}`);
    }
    // Every row the lens shows for JS says how it was verified.
    for (const row of SDK_ROWS) {
      assert.ok(row.js.verified.how === "run" || row.js.verified.at.length > 0);
    }
  },
});

for (const stream of [false, true]) {
  Deno.test({
    name: `sdk conformance: each guardrail row's JS fields are what ` +
      `@openai/agents-core ${SDK_JS_VERSION} does (${
        stream ? "streamed" : "not streamed"
      })` + WHY,
    ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      for (const row of jsRunRows()) {
        await t.step(row.id, async () => {
          const seen = await observe(SETUPS[row.id], stream);
          assert.deepEqual(seen.fields, fieldsOf(row.js), seen.log.join(" "));
          assert.deepEqual(seen.ledger, LEDGER[row.id]);
        });
      }
    },
  });
}

Deno.test({
  name: "sdk conformance: what each guardrail was given, and when" + WHY,
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step(
      "a parallel agent input guardrail: the model was called, the tool was not",
      async () => {
        for (const stream of [false, true]) {
          const seen = await observe(SETUPS.agent_input_parallel, stream);
          assert.deepEqual(seen.log, [
            "agent_input_guardrail:start",
            "model:1",
            "agent_input_guardrail:tripwire",
          ]);
        }
      },
    );
    await t.step(
      "a blocking agent input guardrail: the model was never called",
      async () => {
        const seen = await observe(SETUPS.agent_input_sequential, false);
        assert.deepEqual(seen.log, [
          "agent_input_guardrail:start",
          "agent_input_guardrail:tripwire",
        ]);
      },
    );
    await t.step(
      "the agent output guardrail gets the final answer, after the commit",
      async () => {
        const seen = await observe(SETUPS.agent_output, false);
        assert.equal(seen.outputGuardrailSaw, "JOB-001 is drafted.");
        assert.ok(
          seen.log.indexOf("tool:accepted") <
            seen.log.indexOf("agent_output_guardrail"),
        );
      },
    );
    await t.step(
      "with stop_on_first_tool it gets the tool's output",
      async () => {
        const seen = await observe(SETUPS.agent_output_tool_final, false);
        assert.equal(seen.outputGuardrailSaw, "accepted: river / copies=2");
        assert.deepEqual(seen.log, [
          "model:1",
          "tool:start",
          "tool:accepted",
          "agent_output_guardrail",
        ]);
      },
    );
    await t.step(
      "rejectContent with an outputSchema: an errorFunction turns the " +
        "thrown message into output",
      async () => {
        const seen = await observe({
          toolInput: "rejectContent",
          outputSchema: true,
          errorFunction: true,
        }, false);
        assert.ok(seen.log.includes("error_function"), seen.log.join(" "));
        assert.deepEqual(
          [seen.fields.toolRan, seen.fields.next, seen.fields.continues],
          ["no", "reject_message", true],
        );
        assert.deepEqual(seen.ledger, { drafts: [], receipts: [] });
      },
    );
    await t.step(
      "the tool output guardrail runs after the lab committed",
      async () => {
        const seen = await observe(SETUPS.tool_output_reject, false);
        assert.deepEqual(seen.log.slice(0, 4), [
          "model:1",
          "tool:start",
          "tool:accepted",
          "tool_output_guardrail",
        ]);
      },
    );
  },
});

/** Which approval phases the tool input guardrail ran in, from the log. */
function phasesOf(log: readonly string[]): ApprovalPhase[] {
  const interrupted = log.indexOf("interrupted");
  const approved = log.indexOf("approved");
  return log.flatMap((entry, i): ApprovalPhase[] =>
    entry !== "tool_input_guardrail"
      ? []
      : i < interrupted
      ? ["before_approval"]
      : i > approved
      ? ["after_approval"]
      : []
  );
}

/**
 * A function tool that needs approval, on the policy lab: its input
 * guardrail is the pre-check (a Snapshot of the rule), its execute the
 * revision-conditioned insert. The run stops for approval; `duringWait`
 * runs while it waits (a rule change); then it is approved and resumed.
 */
async function approvalRun(
  preApproval: boolean,
  stream: boolean,
  duringWait: (editor: PolicyLab) => void = () => {},
) {
  const api = await sdk();
  const log: string[] = [];
  const scratch = await ScratchLedger.create();
  const path = `${scratch.folder}/policy.sqlite`;
  const reader = PolicyLab.open(path);
  const editor = PolicyLab.open(path);
  reader.initialize();
  const request = { job: "JOB-001", copies: 2 };
  const snapshots: Snapshot[] = [];
  try {
    const model = new ScriptedModel(api, [
      [functionCall("create_draft", request)],
      [message("JOB-001 is drafted.")],
    ], log);
    const createDraft = api.tool({
      name: "create_draft",
      description: "Create the draft under the current rule.",
      parameters: {
        type: "object",
        properties: { job: { type: "string" }, copies: { type: "integer" } },
        required: ["job", "copies"],
        additionalProperties: false,
      },
      strict: true,
      needsApproval: true,
      execute: () => {
        log.push("tool:start");
        const inserted = reader.insertChecked(request, snapshots.at(-1)!);
        log.push(inserted ? "tool:committed" : "tool:not_inserted");
        return inserted ? "inserted" : "not inserted";
      },
      inputGuardrails: [api.defineToolInputGuardrail({
        name: "precheck",
        run: () => {
          log.push("tool_input_guardrail");
          try {
            snapshots.push(reader.precheck(request));
            return Promise.resolve(
              api.ToolGuardrailFunctionOutputFactory.allow(),
            );
          } catch (error) {
            if (!(error instanceof InputRejected)) throw error;
            return Promise.resolve(
              api.ToolGuardrailFunctionOutputFactory.rejectContent(REJECT),
            );
          }
        },
      })],
      // deno-lint-ignore no-explicit-any
    } as any);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job the user asks for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      tools: [createDraft],
    });
    const runner = new api.Runner({
      tracingDisabled: true,
      ...(preApproval
        ? { toolExecution: { preApprovalInputGuardrails: true } }
        : {}),
    });
    const first = await runAgent(api, agent, "Draft JOB-001.", stream, runner);
    assert.equal(first.error, undefined);
    assert.equal(first.interruptions.length, 1);
    log.push("interrupted");
    duringWait(editor);
    // deno-lint-ignore no-explicit-any
    const state = first.state as any;
    state.approve(first.interruptions[0]);
    log.push("approved");
    const second = await runAgent(api, agent, state, stream, runner);
    return {
      log,
      end: second,
      // A second connection: what was committed.
      drafts: editor.rows(),
      sent: lastToolResult(model.requests.at(-1)),
      snapshots,
      reader,
    };
  } finally {
    reader.close();
    editor.close();
    await scratch.remove();
  }
}

Deno.test({
  name: "sdk conformance: a tool that needs approval, and when its input " +
    "guardrail runs" + WHY,
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    for (const stream of [false, true]) {
      const mode = stream ? "streamed" : "not streamed";
      for (const row of APPROVAL_ROWS) {
        await t.step(`${row.id} (${mode}): the lens's phases`, async () => {
          const seen = await approvalRun(
            row.id === "approval_pre_check",
            stream,
          );
          assert.deepEqual(
            phasesOf(seen.log),
            row.js.checks,
            seen.log.join(" "),
          );
          // The draft commits after the last check, and only then.
          assert.equal(seen.log.at(-2), "tool:committed", seen.log.join(" "));
          assert.equal(
            seen.log.lastIndexOf("tool_input_guardrail"),
            seen.log.indexOf("tool:start") - 1,
          );
          assert.deepEqual(seen.drafts, [["JOB-001", 2, 1]]);
          assert.equal(seen.end.error, undefined);
        });
      }
      await t.step(
        `the rule changes while the call waits for approval (${mode})`,
        async () => {
          const seen = await approvalRun(true, stream, (editor) => {
            editor.changePolicy(1);
          });
          // Checked before the wait (revision 1 allowed 2 copies), then again
          // after approval (revision 2 allows 1): rejected, nothing written.
          assert.deepEqual(seen.snapshots.map((s) => s.revision), [1]);
          assert.deepEqual(phasesOf(seen.log), [
            "before_approval",
            "after_approval",
          ]);
          assert.ok(!seen.log.includes("tool:start"), seen.log.join(" "));
          assert.equal(seen.sent, REJECT);
          assert.deepEqual(seen.drafts, []);
        },
      );
    }
  },
});

Deno.test({
  name: "sdk conformance: the pre-approval verdict is no licence at commit " +
    "time; the revision-conditioned insert refuses it" + WHY,
  ignore,
  fn() {
    // Had the SDK not checked again after approval, the execute would have
    // inserted with the snapshot taken before the wait.
    const folder = Deno.makeTempDirSync({ prefix: "guardlab-sdk-" });
    const reader = PolicyLab.open(`${folder}/policy.sqlite`);
    const editor = PolicyLab.open(`${folder}/policy.sqlite`);
    try {
      reader.initialize();
      const request = { job: "JOB-001", copies: 2 };
      const beforeWait = reader.precheck(request);
      editor.changePolicy(1);
      assert.equal(reader.insertChecked(request, beforeWait), false);
      assert.deepEqual(editor.rows(), []);
    } finally {
      reader.close();
      editor.close();
      Deno.removeSync(folder, { recursive: true });
    }
  },
});

/** Whether a tool guardrail ran for a call of the given tool type. */
async function guardedRun(kind: "function_tool" | "handoff") {
  const api = await sdk();
  const log: string[] = [];
  const ledger = await ScratchLedger.create();
  try {
    const guard = {
      inputGuardrails: [api.defineToolInputGuardrail({
        name: "tool_input",
        run: () => {
          log.push("tool_input_guardrail");
          return Promise.resolve(
            api.ToolGuardrailFunctionOutputFactory.allow(),
          );
        },
      })],
      outputGuardrails: [api.defineToolOutputGuardrail({
        name: "tool_output",
        run: () => {
          log.push("tool_output_guardrail");
          return Promise.resolve(
            api.ToolGuardrailFunctionOutputFactory.allow(),
          );
        },
      })],
    };
    const reviewerModel = new ScriptedModel(api, [[message("Reviewed.")]], []);
    const reviewer = new api.Agent({
      name: "reviewer",
      instructions: "Review the job.",
      // deno-lint-ignore no-explicit-any
      model: reviewerModel as any,
    });
    const model = new ScriptedModel(api, [
      [
        kind === "handoff"
          ? functionCall("transfer_to_reviewer", {})
          : functionCall("create_draft", ARGS),
      ],
      [message("JOB-001 is drafted.")],
    ], log);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job, or hand it to the reviewer.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      tools: [api.tool({
        name: "create_draft",
        description: "Create the draft.",
        parameters: PARAMETERS,
        strict: true,
        execute: (args: unknown) => runLab(ledger, args, log),
        ...guard,
        // deno-lint-ignore no-explicit-any
      } as any)],
      handoffs: [reviewer],
    });
    const end = await runAgent(api, agent, "Draft JOB-001.", false);
    return { log, end, reviewerCalled: reviewerModel.requests.length > 0 };
  } finally {
    await ledger.remove();
  }
}

Deno.test({
  name: "sdk conformance: which tool types pass through tool guardrails" + WHY,
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const row = (id: string) => TOOL_TYPE_ROWS.find((r) => r.id === id)!;
    await t.step("a function tool: both guardrails ran", async () => {
      const seen = await guardedRun("function_tool");
      const guarded = seen.log.includes("tool_input_guardrail") &&
          seen.log.includes("tool_output_guardrail")
        ? "yes"
        : "no";
      assert.equal(guarded, row("function_tool").js.guarded);
    });
    await t.step(
      "a handoff: the next agent ran, no tool guardrail did",
      async () => {
        const seen = await guardedRun("handoff");
        assert.equal(seen.end.error, undefined);
        assert.equal(seen.end.finalOutput, "Reviewed.");
        assert.ok(seen.reviewerCalled);
        const guarded = seen.log.some((l) => l.endsWith("_guardrail"))
          ? "yes"
          : "no";
        assert.equal(guarded, row("handoff").js.guarded);
      },
    );
    await t.step({
      name: "a tool of guardlab mcp (a local stdio MCP server): the " +
        "server's guardrails ran" +
        (canSpawn ? "" : " [ignored: needs --allow-run to start the server]"),
      ignore: !canSpawn,
      fn: async () => {
        const seen = await mcpRun();
        assert.equal(seen.end.error, undefined, String(seen.end.error));
        assert.deepEqual(seen.ledger, {
          drafts: ["JOB-001"],
          receipts: ["accepted"],
        });
        // guardlab mcp answers with a line and the result object.
        assert.match(seen.sent ?? "", /"status":"accepted"/);
        assert.match(seen.sent ?? "", /"effect_exists":true/);
        assert.deepEqual(seen.log, [
          "model:1",
          "tool_input_guardrail",
          "tool_output_guardrail",
          "model:2",
        ]);
        const guarded = seen.log.includes("tool_input_guardrail") &&
            seen.log.includes("tool_output_guardrail")
          ? "yes"
          : "no";
        assert.equal(guarded, row("mcp_tool").js.guarded);
      },
    });
    await t.step("every JS tool-type row not run here is cited", () => {
      for (const r of TOOL_TYPE_ROWS) {
        if (["function_tool", "handoff", "mcp_tool"].includes(r.id)) {
          assert.equal(r.js.verified.how, "run", r.id);
          continue;
        }
        assert.equal(r.js.verified.how, "read", r.id);
      }
    });
  },
});

const canSpawn = (await Deno.permissions.query({ name: "run" })).state ===
  "granted";

/**
 * The same call through a local stdio MCP server: guardlab's own
 * `guardlab mcp`, under the program's grant, on the scratch ledger, with
 * tool guardrails set on the SDK's `MCPServerStdio`.
 */
async function mcpRun() {
  const api = await sdk();
  const log: string[] = [];
  const ledger = await ScratchLedger.create();
  const server = new api.MCPServerStdio({
    name: "guardlab-conformance",
    command: Deno.execPath(),
    args: [
      "run",
      "-q",
      "--lock=deno.lock",
      "--frozen",
      "--no-prompt",
      // The program's own grant, from deno.json: the temp folder only.
      "-P=guardlab",
      "main.ts",
      "mcp",
      "--ledger-file",
      ledger.path,
    ],
    cwd: new URL("../..", import.meta.url).pathname,
    toolInputGuardrails: [api.defineToolInputGuardrail({
      name: "tool_input",
      run: () => {
        log.push("tool_input_guardrail");
        return Promise.resolve(api.ToolGuardrailFunctionOutputFactory.allow());
      },
    })],
    toolOutputGuardrails: [api.defineToolOutputGuardrail({
      name: "tool_output",
      run: () => {
        log.push("tool_output_guardrail");
        return Promise.resolve(api.ToolGuardrailFunctionOutputFactory.allow());
      },
    })],
  });
  try {
    await server.connect();
    const model = new ScriptedModel(api, [
      [functionCall("create_draft", ARGS)],
      [message("JOB-001 is drafted.")],
    ], log);
    const agent = new api.Agent({
      name: "clerk",
      instructions: "Draft the print job the user asks for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      mcpServers: [server],
    });
    const end = await runAgent(api, agent, "Draft JOB-001.", false);
    return {
      log,
      end,
      sent: lastToolResult(model.requests[1]),
      ledger: ledger.observe(),
    };
  } finally {
    await server.close();
    await ledger.remove();
  }
}
