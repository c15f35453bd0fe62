/**
 * The SDK lens's tool rows as data: which kinds of tool the tool-guardrail
 * pipeline covers at all, and where a tool that needs approval has its
 * input guardrail run, in Python and in JS. How each fact was verified is
 * in `sdk_sources.ts`.
 *
 * @module
 */
import { same, type Text } from "../base/i18n.ts";
import { CITED, RAN, readAt, type Verified } from "./sdk_sources.ts";

const TE = CITED.toolExecution;
const DOCS = CITED.guardrailDocs;
const JS_TOOLS = CITED.jsTools;

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
  /** The Python SDK, read at `SDK_PY_COMMIT`. */
  readonly python: ToolTypeFact;
  /** The JS SDK at `SDK_JS_VERSION`. */
  readonly js: ToolTypeFact;
  /** What that means for the commit point. */
  readonly commit: Text;
}

/** The tool types (the article: "把'工具'都写成一个名字，会掩盖这些差别"). */
export const TOOL_TYPE_ROWS: readonly ToolTypeRow[] = [
  {
    id: "function_tool",
    what: { en: "function tool", zh: "函数工具（FunctionTool）" },
    python: {
      guarded: "yes",
      verified: readAt(`${TE}:2012-2020`, `${TE}:2106-2112`),
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
      zh: "本地 MCP 服务器暴露的工具",
    },
    python: {
      guarded: "no",
      verified: readAt("src/agents/mcp/util.py:509-585"),
      note: {
        en: "wrapped as a function tool, but nothing under src/agents/mcp/ " +
          "takes a guardrail list at this commit; the article says v0.23.1 " +
          "attaches the server's list",
        zh:
          "被包装成函数工具，但此提交的 src/agents/mcp/ 里没有任何护栏列表参数；" +
          "文章说 v0.23.1 会把服务器配置的列表附上",
      },
    },
    js: {
      guarded: "yes",
      verified: RAN,
      note: {
        en: "toolInputGuardrails and toolOutputGuardrails on the server " +
          "attach to every tool it lists",
        zh:
          "服务器上的 toolInputGuardrails 与 toolOutputGuardrails 附到它列出的每个工具",
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
      verified: readAt(`${DOCS}:65`),
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
      verified: readAt(`${DOCS}:65`),
    },
    js: {
      guarded: "no",
      verified: readAt(`${JS_TOOLS}:511 (HostedTool)`),
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
      verified: readAt(`${DOCS}:65`),
    },
    js: {
      guarded: "no",
      verified: readAt(
        `${JS_TOOLS}:320, 400, 419 (ComputerTool, ShellTool, ApplyPatchTool)`,
      ),
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
      verified: readAt("src/agents/agent.py:583-605", `${DOCS}:65`),
    },
    js: {
      guarded: "no",
      verified: readAt("@openai/agents-core dist/agent.d.ts:40-107"),
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
  /** Python, read at `SDK_PY_COMMIT`. */
  readonly python: {
    readonly checks: readonly ApprovalPhase[];
    readonly verified: Verified;
  };
  /** JS, run at `SDK_JS_VERSION`. */
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
      verified: readAt(`${TE}:2012-2020`, `${DOCS}:64`),
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
      verified: readAt(`${TE}:1908-1940`, `${TE}:2012-2020`, `${DOCS}:64`),
    },
    js: { checks: ["before_approval", "after_approval"], verified: RAN },
  },
];
