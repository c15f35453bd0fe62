/**
 * The SDK lens: what the OpenAI Agents SDK does with each guardrail
 * behaviour, beside what guardlab's ledger holds. guardlab itself runs no
 * SDK. Each row says, per SDK, how its facts were verified:
 *
 * - JavaScript rows were **run**: `tests/content/sdk_conformance_test.ts` drives
 *   `@openai/agents-core` at {@linkcode SDK_JS_VERSION} with a scripted model
 *   and a tool that runs guardlab's lab, and compares what happened with the
 *   machine fields below. Changing a JS field makes that test fail.
 * - Python rows were **read** at one commit of openai/openai-agents-python
 *   ({@linkcode SDK_PY_COMMIT}), each with the file and lines where the
 *   behaviour lives (PyPI is not reachable here).
 *
 * The prose of every row is derived from its fields, in both languages; only
 * the notes are written by hand. The lab's statuses are not SDK status names.
 *
 * @module
 */
import { type Lang, same, say, type Text } from "../base/i18n.ts";
import { wrap } from "../base/terminal.ts";

/** The `@openai/agents-core` version the conformance tests run. */
export const SDK_JS_VERSION = "0.20.0";

/** The openai-agents-python commit whose source the Python rows cite. */
export const SDK_PY_COMMIT = "7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7";

/** What that commit's pyproject.toml calls itself. */
export const SDK_PY_VERSION = "0.22.0";

/** Whether the tool's function ran: always, never, or depending on timing. */
export type ToolRan = "yes" | "no" | "depends";

/** What the model is sent after the tool step. */
export type Next = "tool_output" | "reject_message" | "nothing";

/** How one SDK's fact was verified. */
export type Verified =
  | { readonly how: "run" }
  | { readonly how: "read"; readonly at: readonly string[] };

/** One SDK's behaviour for one row, as machine fields. */
export interface Behaviour {
  /** The SDK's own name for the setting or behaviour. */
  readonly name: string;
  /** Whether the model was called (tokens spent) before the run ended. */
  readonly modelCalled: boolean;
  /** Whether the tool's function ran. */
  readonly toolRan: ToolRan;
  /** What the model is sent next. */
  readonly next: Next;
  /** Whether the run goes on. */
  readonly continues: boolean;
  /** The error class that ends the run, or `null`. */
  readonly error: string | null;
  /** The class the error arrives wrapped in, when it is wrapped. */
  readonly wrappedIn?: string;
  /** How this was verified. */
  readonly verified: Verified;
  /** What the fields cannot say. */
  readonly note?: Text;
}

/** One guardrail behaviour, in both SDKs. */
export interface SdkRow {
  /** A short id, for the topic mapping and the conformance test. */
  readonly id: string;
  /** Which guardrail and which behaviour. */
  readonly what: Text;
  /** The Python SDK, read at {@linkcode SDK_PY_COMMIT}. */
  readonly python: Behaviour;
  /** The JS SDK, run at {@linkcode SDK_JS_VERSION}. */
  readonly js: Behaviour;
  /** What guardlab's ledger holds in the matching lab scenario. */
  readonly ledger: Text;
}

const TE = "src/agents/run_internal/tool_execution.py";
const RUN = "src/agents/run.py";
const LOOP = "src/agents/run_internal/run_loop.py";
const DOCS = "docs/guardrails.md";
const RAN: Verified = { how: "run" };

const SAME_MESSAGE: Text = {
  en: "the model is sent the reject message as the tool's output",
  zh: "模型收到的是拒绝消息，作为工具的输出",
};

/** The guardrail behaviours. */
export const SDK_ROWS: readonly SdkRow[] = [
  {
    id: "tool_input_allow",
    what: {
      en: "tool input guardrail · allow",
      zh: "工具输入护栏 · allow",
    },
    python: {
      name: "allow",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: true,
      error: null,
      verified: { how: "read", at: [`${TE}:2012-2020`, `${TE}:2694-2725`] },
    },
    js: {
      name: "allow",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: true,
      error: null,
      verified: RAN,
    },
    ledger: { en: "the draft is committed", zh: "草稿已提交" },
  },
  {
    id: "tool_input_reject",
    what: {
      en: "tool input guardrail · reject_content / rejectContent",
      zh: "工具输入护栏 · reject_content / rejectContent",
    },
    python: {
      name: "reject_content",
      modelCalled: true,
      toolRan: "no",
      next: "reject_message",
      continues: true,
      error: null,
      verified: { how: "read", at: [`${TE}:2012-2020`, `${TE}:2722-2723`] },
      note: SAME_MESSAGE,
    },
    js: {
      name: "rejectContent",
      modelCalled: true,
      toolRan: "no",
      next: "reject_message",
      continues: true,
      error: null,
      verified: RAN,
      note: SAME_MESSAGE,
    },
    ledger: { en: "no draft from this call", zh: "这次调用没有草稿" },
  },
  {
    id: "tool_input_reject_schema",
    what: {
      en: "tool input guardrail · rejectContent, the tool has an output " +
        "schema and no error function",
      zh: "工具输入护栏 · rejectContent，工具带输出 schema 且没有错误函数",
    },
    python: {
      name: "reject_content",
      modelCalled: true,
      toolRan: "no",
      next: "reject_message",
      continues: true,
      error: null,
      verified: { how: "read", at: [`${TE}:2018-2020`] },
      note: {
        en: "the rejection bypasses the output schema",
        zh: "拒绝消息绕过输出 schema",
      },
    },
    js: {
      name: "rejectContent",
      modelCalled: true,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "Error",
      wrappedIn: "ToolCallError",
      verified: RAN,
      note: {
        en: "the reject message is thrown as an error, not sent to the " +
          "model (seen at 0.17.0, still so at 0.20.0); give the tool an " +
          "errorFunction to turn it into output",
        zh:
          "拒绝消息被当作错误抛出，而不是交给模型（0.17.0 已见，0.20.0 依旧）；" +
          "给工具配一个 errorFunction 才会变成输出",
      },
    },
    ledger: { en: "no draft from this call", zh: "这次调用没有草稿" },
  },
  {
    id: "tool_input_raise",
    what: {
      en: "tool input guardrail · raise_exception / throwException",
      zh: "工具输入护栏 · raise_exception / throwException",
    },
    python: {
      name: "raise_exception",
      modelCalled: true,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "ToolInputGuardrailTripwireTriggered",
      verified: { how: "read", at: [`${TE}:2720-2721`] },
    },
    js: {
      name: "throwException",
      modelCalled: true,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "ToolInputGuardrailTripwireTriggered",
      wrappedIn: "ToolCallError",
      verified: RAN,
    },
    ledger: { en: "no draft from this call", zh: "这次调用没有草稿" },
  },
  {
    id: "tool_output_allow",
    what: {
      en: "tool output guardrail · allow",
      zh: "工具输出护栏 · allow",
    },
    python: {
      name: "allow",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: true,
      error: null,
      verified: { how: "read", at: [`${TE}:2106-2112`, `${TE}:2728-2765`] },
    },
    js: {
      name: "allow",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: true,
      error: null,
      verified: RAN,
    },
    ledger: { en: "the draft is committed", zh: "草稿已提交" },
  },
  {
    id: "tool_output_reject",
    what: {
      en: "tool output guardrail · reject_content / rejectContent",
      zh: "工具输出护栏 · reject_content / rejectContent",
    },
    python: {
      name: "reject_content",
      modelCalled: true,
      toolRan: "yes",
      next: "reject_message",
      continues: true,
      error: null,
      verified: { how: "read", at: [`${TE}:2106-2112`, `${TE}:2759-2763`] },
    },
    js: {
      name: "rejectContent",
      modelCalled: true,
      toolRan: "yes",
      next: "reject_message",
      continues: true,
      error: null,
      verified: RAN,
    },
    ledger: {
      en: "the draft stays: the side effect already happened",
      zh: "草稿留下：副作用已经发生",
    },
  },
  {
    id: "tool_output_raise",
    what: {
      en: "tool output guardrail · raise_exception / throwException",
      zh: "工具输出护栏 · raise_exception / throwException",
    },
    python: {
      name: "raise_exception",
      modelCalled: true,
      toolRan: "yes",
      next: "nothing",
      continues: false,
      error: "ToolOutputGuardrailTripwireTriggered",
      verified: { how: "read", at: [`${TE}:2757-2758`] },
    },
    js: {
      name: "throwException",
      modelCalled: true,
      toolRan: "yes",
      next: "nothing",
      continues: false,
      error: "ToolOutputGuardrailTripwireTriggered",
      wrappedIn: "ToolCallError",
      verified: RAN,
    },
    ledger: {
      en: "the draft stays: the side effect already happened",
      zh: "草稿留下：副作用已经发生",
    },
  },
  {
    id: "agent_input_parallel",
    what: {
      en: "Agent input guardrail · run_in_parallel=True / runInParallel: " +
        "true (the default in both), slower than the model",
      zh: "Agent 输入护栏 · run_in_parallel=True / runInParallel: true" +
        "（两者的默认），比模型慢",
    },
    python: {
      name: "run_in_parallel=True",
      modelCalled: true,
      toolRan: "depends",
      next: "nothing",
      continues: false,
      error: "InputGuardrailTripwireTriggered",
      verified: {
        how: "read",
        at: [
          `${RUN}:1627-1676`,
          `${LOOP}:2471`,
          `${LOOP}:2035-2049`,
          `${LOOP}:2324-2342`,
          `${DOCS}:36`,
        ],
      },
      note: {
        en: "not streamed: the whole first turn, model and tools, runs " +
          "beside the guardrail and is cancelled when the tripwire fires, so " +
          "a tool that finished first has run; streamed: before the tools " +
          "the runner checks only a tripwire that has already fired, and " +
          "does not wait for a guardrail still running",
        zh:
          "非流式：整个第一轮（模型和工具）与护栏并行，tripwire 触发时才取消，" +
          "所以先跑完的工具已经执行；流式：执行工具前只检查已经触发的 tripwire，" +
          "不等待仍在运行的护栏",
      },
    },
    js: {
      name: "runInParallel: true",
      modelCalled: true,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "InputGuardrailTripwireTriggered",
      verified: RAN,
      note: {
        en: "streamed and not: the runner awaits the parallel guardrails " +
          "after the model's response and before the turn's tools " +
          "(dist/run.mjs:1095, 1922)",
        zh:
          "流式与非流式相同：运行器在模型响应之后、执行本轮工具之前等待并行护栏" +
          "（dist/run.mjs:1095、1922）",
      },
    },
    ledger: {
      en: "Python: a draft may already be committed; JS 0.20.0: none",
      zh: "Python：可能已经提交了草稿；JS 0.20.0：没有草稿",
    },
  },
  {
    id: "agent_input_sequential",
    what: {
      en: "Agent input guardrail · run_in_parallel=False / runInParallel: " +
        "false (blocking)",
      zh: "Agent 输入护栏 · run_in_parallel=False / runInParallel: false" +
        "（阻塞）",
    },
    python: {
      name: "run_in_parallel=False",
      modelCalled: false,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "InputGuardrailTripwireTriggered",
      verified: { how: "read", at: [`${RUN}:1603-1627`, `${DOCS}:38`] },
    },
    js: {
      name: "runInParallel: false",
      modelCalled: false,
      toolRan: "no",
      next: "nothing",
      continues: false,
      error: "InputGuardrailTripwireTriggered",
      verified: RAN,
    },
    ledger: { en: "no draft", zh: "没有草稿" },
  },
  {
    id: "agent_output",
    what: {
      en: "Agent output guardrail · on the final output only",
      zh: "Agent 输出护栏 · 只检查最终输出",
    },
    python: {
      name: "output_guardrails",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: false,
      error: "OutputGuardrailTripwireTriggered",
      verified: { how: "read", at: [`${LOOP}:744-748`, `${DOCS}:42-52`] },
      note: {
        en: "the guardrail function receives the final output; the model " +
          "receives nothing from it",
        zh: "护栏函数收到最终输出；模型从它那里什么也收不到",
      },
    },
    js: {
      name: "outputGuardrails",
      modelCalled: true,
      toolRan: "yes",
      next: "tool_output",
      continues: false,
      error: "OutputGuardrailTripwireTriggered",
      verified: RAN,
      note: {
        en: "the guardrail function receives the final output; the model " +
          "receives nothing from it",
        zh: "护栏函数收到最终输出；模型从它那里什么也收不到",
      },
    },
    ledger: {
      en: "drafts from earlier tool calls stay",
      zh: "更早的工具调用写下的草稿都留下",
    },
  },
  {
    id: "agent_output_tool_final",
    what: {
      en: "Agent output guardrail · tool_use_behavior / toolUseBehavior " +
        "makes a tool's result the final output",
      zh: "Agent 输出护栏 · tool_use_behavior / toolUseBehavior 把工具结果" +
        "当作最终输出",
    },
    python: {
      name: "tool_use_behavior",
      modelCalled: true,
      toolRan: "yes",
      next: "nothing",
      continues: false,
      error: "OutputGuardrailTripwireTriggered",
      verified: {
        how: "read",
        at: [
          "src/agents/run_internal/turn_resolution.py:229-233",
          `${DOCS}:56`,
        ],
      },
      note: {
        en: "here the output guardrail does see the tool's output, after " +
          "the tool ran",
        zh: "这时输出护栏确实看到工具的输出，而工具已经执行",
      },
    },
    js: {
      name: "toolUseBehavior: 'stop_on_first_tool'",
      modelCalled: true,
      toolRan: "yes",
      next: "nothing",
      continues: false,
      error: "OutputGuardrailTripwireTriggered",
      verified: RAN,
      note: {
        en: "here the output guardrail does see the tool's output, after " +
          "the tool ran",
        zh: "这时输出护栏确实看到工具的输出，而工具已经执行",
      },
    },
    ledger: {
      en: "the draft stays: the tool committed it before the check",
      zh: "草稿留下：工具在检查之前已经提交",
    },
  },
];

/** Whether a tool guardrail runs for a tool type. */
export type Guarded = "yes" | "no";

/** One SDK's answer for a tool type. */
export interface ToolTypeFact {
  /** Whether tool input and output guardrails run for it. */
  readonly guarded: Guarded;
  /** How it was verified: run, or read at file:line. */
  readonly verified: Verified;
  /** What the field cannot say. */
  readonly note?: Text;
}

/** One kind of tool, and whether the tool-guardrail pipeline covers it. */
export interface ToolTypeRow {
  /** A short id. */
  readonly id: string;
  /** The tool type. */
  readonly what: Text;
  /** The Python SDK, read at {@linkcode SDK_PY_COMMIT}. */
  readonly python: ToolTypeFact;
  /** The JS SDK at {@linkcode SDK_JS_VERSION}. */
  readonly js: ToolTypeFact;
  /** What that means for the commit point. */
  readonly commit: Text;
}

const JS_TOOL_DTS = "@openai/agents-core dist/tool.d.ts";

/** The tool types (the article: "把'工具'都写成一个名字，会掩盖这些差别"). */
export const TOOL_TYPE_ROWS: readonly ToolTypeRow[] = [
  {
    id: "function_tool",
    what: { en: "function tool", zh: "函数工具（FunctionTool）" },
    python: {
      guarded: "yes",
      verified: { how: "read", at: [`${TE}:2012-2020`, `${TE}:2106-2112`] },
    },
    js: { guarded: "yes", verified: RAN },
    commit: {
      en: "the input guardrail can stop the call before the commit; the " +
        "output guardrail only after it",
      zh: "输入护栏能在提交之前拦下调用；输出护栏只能在提交之后",
    },
  },
  {
    id: "mcp_tool",
    what: {
      en: "tool of a local MCP server",
      zh: "本地 MCP server 暴露的工具",
    },
    python: {
      guarded: "no",
      verified: { how: "read", at: ["src/agents/mcp/util.py:509-585"] },
      note: {
        en: "wrapped as a function tool, but nothing under src/agents/mcp/ " +
          "takes a guardrail list at this commit; the article says v0.23.1 " +
          "attaches the server's list",
        zh:
          "被包装成函数工具，但此提交的 src/agents/mcp/ 里没有任何护栏列表参数；" +
          "文章说 v0.23.1 会把 server 配置的列表附上",
      },
    },
    js: {
      guarded: "yes",
      verified: RAN,
      note: {
        en: "toolInputGuardrails and toolOutputGuardrails on the server " +
          "attach to every tool it lists",
        zh:
          "server 上的 toolInputGuardrails 与 toolOutputGuardrails 附到它列出的每个工具",
      },
    },
    commit: {
      en: "as a function tool, when the server carries the guardrails",
      zh: "server 配了护栏时，与函数工具相同",
    },
  },
  {
    id: "handoff",
    what: { en: "handoff", zh: "handoff（转交）" },
    python: {
      guarded: "no",
      verified: { how: "read", at: [`${DOCS}:65`] },
    },
    js: { guarded: "no", verified: RAN },
    commit: {
      en: "no tool guardrail sits between the call and the next agent",
      zh: "调用与下一个 Agent 之间没有工具护栏",
    },
  },
  {
    id: "hosted_tool",
    what: {
      en: "hosted tools (web search, file search, hosted MCP, code " +
        "interpreter, image generation)",
      zh: "托管工具（网页搜索、文件搜索、托管 MCP、代码解释器、图像生成）",
    },
    python: {
      guarded: "no",
      verified: { how: "read", at: [`${DOCS}:65`] },
    },
    js: {
      guarded: "no",
      verified: { how: "read", at: [`${JS_TOOL_DTS}:511 (HostedTool)`] },
      note: {
        en: "needs the hosted service, so cited, not run",
        zh: "需要托管服务，因此只引用、未运行",
      },
    },
    commit: {
      en: "the effect happens at the provider; no local check stands before it",
      zh: "效果发生在服务商那里；本地没有检查挡在它前面",
    },
  },
  {
    id: "builtin_execution_tool",
    what: {
      en:
        "built-in execution tools (computer, shell, apply patch, local shell)",
      zh: "内建执行工具（computer、shell、apply patch、local shell）",
    },
    python: {
      guarded: "no",
      verified: { how: "read", at: [`${DOCS}:65`] },
    },
    js: {
      guarded: "no",
      verified: {
        how: "read",
        at: [
          `${JS_TOOL_DTS}:320, 400, 419 (ComputerTool, ShellTool, ApplyPatchTool)`,
        ],
      },
      note: {
        en: "their options have no guardrail field; needsApproval is the " +
          "gate they offer",
        zh: "它们的选项没有护栏字段；能用的关卡是 needsApproval",
      },
    },
    commit: {
      en: "only an approval, or the executor itself, stands before the effect",
      zh: "挡在效果前面的只有审批或执行器本身",
    },
  },
  {
    id: "agent_as_tool",
    what: same("Agent.as_tool() / agent.asTool()"),
    python: {
      guarded: "no",
      verified: {
        how: "read",
        at: ["src/agents/agent.py:583-605", `${DOCS}:65`],
      },
    },
    js: {
      guarded: "no",
      verified: {
        how: "read",
        at: ["@openai/agents-core dist/agent.d.ts:40-107"],
      },
      note: {
        en: "its options expose no tool-guardrail field",
        zh: "它的选项没有工具护栏字段",
      },
    },
    commit: {
      en: "the inner agent's own guardrails are all that check it",
      zh: "检查它的只有内部 Agent 自己的护栏",
    },
  },
];

/** When a function tool needs approval: where its input guardrail runs. */
export type ApprovalPhase = "before_approval" | "after_approval";

/** One approval configuration. */
export interface ApprovalRow {
  /** A short id. */
  readonly id: string;
  /** The configuration. */
  readonly what: Text;
  /** Python, read at {@linkcode SDK_PY_COMMIT}. */
  readonly python: {
    readonly checks: readonly ApprovalPhase[];
    readonly verified: Verified;
  };
  /** JS, run at {@linkcode SDK_JS_VERSION}. */
  readonly js: {
    readonly checks: readonly ApprovalPhase[];
    readonly verified: Verified;
  };
}

/** The approval rows. */
export const APPROVAL_ROWS: readonly ApprovalRow[] = [
  {
    id: "approval_default",
    what: {
      en: "function tool needing approval · default",
      zh: "需要审批的函数工具 · 默认",
    },
    python: {
      checks: ["after_approval"],
      verified: { how: "read", at: [`${TE}:2012-2020`, `${DOCS}:64`] },
    },
    js: { checks: ["after_approval"], verified: RAN },
  },
  {
    id: "approval_pre_check",
    what: same(
      "· pre_approval_tool_input_guardrails=True / " +
        "preApprovalInputGuardrails: true",
    ),
    python: {
      checks: ["before_approval", "after_approval"],
      verified: {
        how: "read",
        at: [`${TE}:1908-1940`, `${TE}:2012-2020`, `${DOCS}:64`],
      },
    },
    js: { checks: ["before_approval", "after_approval"], verified: RAN },
  },
];

/**
 * Which rows a topic stands for. A topic no guardrail behaviour matches (a
 * cancellation, a receipt, the policy lab's commit condition) maps to none,
 * and the lens says so.
 */
export const SDK_TOPICS: Readonly<Record<string, readonly string[]>> = {
  input_rejected: [
    "tool_input_reject",
    "tool_input_reject_schema",
    "tool_input_raise",
  ],
  output_rejected: ["tool_output_reject", "tool_output_raise"],
  retry_same_request: ["tool_input_allow", "tool_output_allow"],
  parallel_input_guardrail: ["agent_input_parallel"],
  sequential_input_guardrail: ["agent_input_sequential"],
  new_key_second_draft: ["tool_input_allow", "tool_output_allow"],
  compensation_can_fail: [
    "tool_output_reject",
    "agent_output",
    "agent_output_tool_final",
  ],
  tool_types: TOOL_TYPE_ROWS.map((r) => r.id),
  approval_recheck: APPROVAL_ROWS.map((r) => r.id),
};

const WORDS = {
  yes: { en: "yes", zh: "是" },
  no: { en: "no", zh: "否" },
  depends: { en: "depends on timing", zh: "取决于时机" },
  tool_output: { en: "the tool's output", zh: "工具的输出" },
  reject_message: { en: "the reject message", zh: "拒绝消息" },
  nothing: { en: "nothing", zh: "什么也没有" },
  before_approval: { en: "before the approval interrupt", zh: "审批中断之前" },
  after_approval: {
    en: "after approval, right before execution",
    zh: "批准之后、执行之前",
  },
} as const satisfies Record<string, Text>;

const LABELS = {
  header: {
    en:
      "SDK lens: {topic} (guardlab runs no SDK; each row says how it was verified)",
    zh: "SDK 视角：{topic}（guardlab 不运行任何 SDK；每行注明核实方式）",
  },
  none: {
    en:
      "  No guardrail behaviour matches this topic (a cancel, a receipt or a commit condition is the application's own).",
    zh: "  本课题不对应任何护栏行为（取消、回执和提交条件是应用自己的事）。",
  },
  marked: {
    en: "  This topic is the rows marked →.",
    zh: "  本课题对应标有 → 的行。",
  },
  model: { en: "model called (tokens spent)", zh: "模型被调用（已耗 token）" },
  tool: { en: "tool ran", zh: "工具执行" },
  next: { en: "model is sent next", zh: "模型接着收到" },
  continues: { en: "run continues", zh: "运行继续" },
  error: { en: "ends with", zh: "结束于" },
  wrapped: {
    en: "{error} (inside {wrapper})",
    zh: "{error}（包在 {wrapper} 里）",
  },
  ledger: { en: "ledger", zh: "账本" },
  guarded: {
    en: "tool input and output guardrails run",
    zh: "工具输入与输出护栏运行",
  },
  checks: { en: "tool input guardrail runs", zh: "工具输入护栏运行于" },
  commit: { en: "commit point", zh: "提交点" },
  and: { en: " and ", zh: "，以及" },
  run: {
    en: "JS @openai/agents-core {js}: run, verified by the conformance tests",
    zh: "JS @openai/agents-core {js}：已运行，由一致性测试核实",
  },
  read: {
    en: "Python {py} (read at {commit}): {at}",
    zh: "Python {py}（读取于提交 {commit}）：{at}",
  },
  readJs: {
    en: "JS @openai/agents-core {js}: read, {at}",
    zh: "JS @openai/agents-core {js}：只读未运行，{at}",
  },
  sources: { en: "Sources:", zh: "来源：" },
  more: {
    en: "  Which tool types pass through tool guardrails at all: explain " +
      "tool_types --sdk; a tool that needs approval: explain " +
      "approval_recheck --sdk.",
    zh: "  哪些工具类型会经过工具护栏：explain tool_types --sdk；" +
      "需要审批的工具：explain approval_recheck --sdk。",
  },
  statuses: {
    en:
      "  guardlab's statuses (input_rejected, output_rejected, ...) are the lab's own receipt fields, not SDK status names.",
    zh:
      "  guardlab 的状态名（input_rejected、output_rejected 等）是本实验自己的回执字段，并非 SDK 状态名。",
  },
  separator: { en: "; ", zh: "；" },
  colon: { en: ": ", zh: "：" },
} as const satisfies Record<string, Text>;

/** Where each fact comes from, with the exact versions and commit. */
export const SDK_SOURCES: readonly Text[] = [
  {
    en: `JS: @openai/agents-core ${SDK_JS_VERSION}, verified against ` +
      `@openai/agents-core ${SDK_JS_VERSION} by the conformance tests ` +
      "(tests/content/sdk_conformance_test.ts: a scripted model, no network, a tool " +
      "that runs guardlab's lab)",
    zh: `JS：@openai/agents-core ${SDK_JS_VERSION}，由一致性测试对照 ` +
      `@openai/agents-core ${SDK_JS_VERSION} 核实（tests/content/sdk_conformance_test.ts：` +
      "脚本模型、不联网、工具运行 guardlab 的实验）",
  },
  {
    en: `Python: openai/openai-agents-python read at commit ${SDK_PY_COMMIT} ` +
      `(its pyproject says ${SDK_PY_VERSION}); each row names the file and ` +
      "lines",
    zh: `Python：openai/openai-agents-python，读取于提交 ${SDK_PY_COMMIT}` +
      `（其 pyproject 为 ${SDK_PY_VERSION}）；每行注明文件与行号`,
  },
  {
    en: "The design article pins Python v0.23.1 (commit " +
      "c4a1d047b22488234b2ba81056e1b9b8db2127a5); that tag and commit were " +
      "not in the source read, so nothing here is claimed for v0.23.1",
    zh: "设计文章固定核对 Python v0.23.1（提交 " +
      "c4a1d047b22488234b2ba81056e1b9b8db2127a5）；读取的源码里没有该标签和提交，" +
      "所以这里不对 v0.23.1 做任何断言",
  },
];

function fill(text: Text, lang: Lang, values: Record<string, string>): string {
  return say(text, lang).replace(/\{(\w+)\}/g, (_, k: string) => values[k]);
}

function bool(value: boolean): Text {
  return value ? WORDS.yes : WORDS.no;
}

/** How `verified` reads for `sdk`. */
function provenance(
  sdk: "python" | "js",
  verified: Verified,
  lang: Lang,
): string {
  const values = {
    js: SDK_JS_VERSION,
    py: SDK_PY_VERSION,
    commit: SDK_PY_COMMIT.slice(0, 8),
    at: verified.how === "read" ? verified.at.join(", ") : "",
  };
  if (verified.how === "run") return fill(LABELS.run, lang, values);
  return fill(sdk === "js" ? LABELS.readJs : LABELS.read, lang, values);
}

/** The prose of one behaviour, derived from its fields. */
export function behaviourText(
  sdk: "python" | "js",
  b: Behaviour,
  lang: Lang,
): string {
  const sep = say(LABELS.separator, lang);
  const colon = say(LABELS.colon, lang);
  const field = (label: Text, value: string) =>
    `${say(label, lang)}${colon}${value}`;
  const parts = [
    field(LABELS.model, say(bool(b.modelCalled), lang)),
    field(LABELS.tool, say(WORDS[b.toolRan], lang)),
    field(LABELS.next, say(WORDS[b.next], lang)),
    field(LABELS.continues, say(bool(b.continues), lang)),
  ];
  if (b.error !== null) {
    parts.push(
      field(
        LABELS.error,
        b.wrappedIn === undefined ? b.error : fill(LABELS.wrapped, lang, {
          error: b.error,
          wrapper: b.wrappedIn,
        }),
      ),
    );
  }
  if (b.note !== undefined) parts.push(say(b.note, lang));
  return `${sdk === "js" ? "JS" : "Python"} ${b.name}${colon}${
    parts.join(sep)
  }`;
}

function sdkLines(
  sdk: "python" | "js",
  body: string,
  verified: Verified,
  lang: Lang,
): string[] {
  return [
    ...wrap(`    ${body}`, 80),
    ...wrap(`      [${provenance(sdk, verified, lang)}]`, 80),
  ];
}

/** The lens for `topic` in `lang`, within 80 columns. */
export function sdkLensLines(topic: string, lang: Lang): string[] {
  const mapped = SDK_TOPICS[topic] ?? [];
  const colon = say(LABELS.colon, lang);
  const lines = [
    fill(LABELS.header, lang, { topic }),
    say(mapped.length === 0 ? LABELS.none : LABELS.marked, lang),
  ];
  const mark = (id: string) => mapped.includes(id) ? "→ " : "  ";
  const shows = (rows: readonly { id: string }[]) =>
    rows.some((r) => mapped.includes(r.id));
  // A topic about tool types or approvals shows its own table only.
  const guardrailRows = shows(TOOL_TYPE_ROWS) || shows(APPROVAL_ROWS)
    ? []
    : SDK_ROWS;
  for (const row of guardrailRows) {
    lines.push(`${mark(row.id)}${say(row.what, lang)}`);
    lines.push(
      ...sdkLines(
        "python",
        behaviourText("python", row.python, lang),
        row.python.verified,
        lang,
      ),
      ...sdkLines(
        "js",
        behaviourText("js", row.js, lang),
        row.js.verified,
        lang,
      ),
      ...wrap(
        `    ${say(LABELS.ledger, lang)}${colon}${say(row.ledger, lang)}`,
        80,
      ),
    );
  }
  if (!shows(TOOL_TYPE_ROWS) && !shows(APPROVAL_ROWS)) {
    lines.push(...wrap(say(LABELS.more, lang), 80));
  }
  for (const row of shows(TOOL_TYPE_ROWS) ? TOOL_TYPE_ROWS : []) {
    lines.push(`${mark(row.id)}${say(row.what, lang)}`);
    for (const sdk of ["python", "js"] as const) {
      const fact = row[sdk];
      const body = `${sdk === "js" ? "JS" : "Python"}${colon}${
        say(LABELS.guarded, lang)
      }${colon}${say(WORDS[fact.guarded], lang)}${
        fact.note === undefined
          ? ""
          : say(LABELS.separator, lang) + say(fact.note, lang)
      }`;
      lines.push(...sdkLines(sdk, body, fact.verified, lang));
    }
    lines.push(
      ...wrap(
        `    ${say(LABELS.commit, lang)}${colon}${say(row.commit, lang)}`,
        80,
      ),
    );
  }
  for (const row of shows(APPROVAL_ROWS) ? APPROVAL_ROWS : []) {
    lines.push(`${mark(row.id)}${say(row.what, lang)}`);
    for (const sdk of ["python", "js"] as const) {
      const fact = row[sdk];
      const body = `${sdk === "js" ? "JS" : "Python"}${colon}${
        say(LABELS.checks, lang)
      }${colon}${
        fact.checks.map((c) => say(WORDS[c], lang)).join(say(LABELS.and, lang))
      }`;
      lines.push(...sdkLines(sdk, body, fact.verified, lang));
    }
  }
  lines.push(say(LABELS.sources, lang));
  for (const source of SDK_SOURCES) {
    lines.push(...wrap(`  - ${say(source, lang)}`, 80));
  }
  lines.push(...wrap(say(LABELS.statuses, lang), 80));
  return lines.flatMap((l) => wrap(l, 80));
}
