/**
 * The SDK lens's cancel rows as data: what each SDK tells the model after a
 * tool call times out or is cancelled, word for word, and whether the run
 * goes on. The article: "仅凭一个超时异常就再次发送，可能造成重复效果"; the
 * message is what the model decides on, and none of these says whether the
 * call took effect. How each fact was verified is in `sdk_sources.ts`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { CITED, RAN, readAt, type Verified } from "./sdk_sources.ts";

const TOOL = CITED.tool;
const MCP_SERVER = CITED.mcpServer;
const MCP_UTIL = CITED.mcpUtil;
const RESULT = CITED.result;

/** What one SDK tells the model in one case. */
export interface ToldFact {
  /** The SDK's own name for the setting. */
  readonly name: string;
  /**
   * The text the model is sent in place of the tool's result, word for
   * word (`{tool}`, `{timeout}` and `{error}` stand for the tool's name, the
   * timeout and the error's text), or `null` when it is sent nothing.
   */
  readonly told: string | null;
  /** Whether the run goes on (the model gets another turn). */
  readonly continues: boolean;
  /** What ends the run, or `null`. */
  readonly error: string | null;
  /** How this was verified. */
  readonly verified: Verified;
  /** What the fields cannot say. */
  readonly note?: Text;
}

/** One way a tool call can time out or be cancelled, in both SDKs. */
export interface CancelRow {
  /** A short id, for the topic mapping and the conformance test. */
  readonly id: string;
  /** The case. */
  readonly what: Text;
  /** The Python SDK, read at `SDK_PY_COMMIT`. */
  readonly python: ToldFact;
  /** The JS SDK, run at `SDK_JS_VERSION`. */
  readonly js: ToldFact;
  /** What guardlab's ledger holds, and what that asks of the model. */
  readonly ledger: Text;
}

const SAYS_NOTHING_OF_EFFECT: Text = {
  en: "nothing in it says whether the call took effect",
  zh: "其中没有一个字说明这次调用是否已经生效",
};

/** The cancel rows. */
export const CANCEL_ROWS: readonly CancelRow[] = [
  {
    id: "mcp_call_timeout",
    what: {
      en: "a call to an MCP server's tool times out (the client's request " +
        "timeout)",
      zh: "对 MCP 服务器工具的调用超时（客户端的请求超时）",
    },
    python: {
      name: "MCPServerStdio client_session_timeout_seconds (default 5)",
      told:
        "An error occurred while running the tool. Please try again. Error: {error}",
      continues: true,
      error: null,
      verified: readAt(
        `${MCP_SERVER}:1875-1880`,
        `${MCP_UTIL}:733-751`,
        `${TOOL}:1863-1872`,
      ),
      note: SAYS_NOTHING_OF_EFFECT,
    },
    js: {
      name: "MCPServerStdio timeout (default 60000 ms)",
      told: "An error occurred while running the tool. Please try again.",
      continues: true,
      error: null,
      verified: RAN,
      note: {
        en: "the MCP client sends notifications/cancelled as it gives up; " +
          "nothing in the message says whether the call took effect",
        zh: "MCP 客户端放弃时发出 notifications/cancelled；" +
          "消息里没有一个字说明这次调用是否已经生效",
      },
    },
    ledger: {
      en: "a cancel that lands after the commit leaves the draft (receipt " +
        "cancelled); the same job again reuses it, a new job makes a second " +
        "draft: ask ledger by job first, as create_draft's description says",
      zh:
        "提交之后才到达的取消会留下草稿（回执 cancelled）；同一 job 重试会复用它，" +
        "换一个新 job 就会多出第二份草稿：先按 job 调用 ledger，正如 create_draft " +
        "的说明所写",
    },
  },
  {
    id: "function_tool_timeout",
    what: {
      en: "a function tool's own timeout, as a result (the default)",
      zh: "函数工具自己的超时，作为结果返回（默认）",
    },
    python: {
      name: "function_tool(timeout=…), timeout_behavior error_as_result",
      told: "Tool '{tool}' timed out after {timeout} seconds.",
      continues: true,
      error: null,
      verified: readAt(`${TOOL}:1881-1883`, `${TOOL}:2127-2168`),
      note: SAYS_NOTHING_OF_EFFECT,
    },
    js: {
      name: "tool({ timeoutMs }), timeoutBehavior error_as_result",
      told: "Tool '{tool}' timed out after {timeout}ms.",
      continues: true,
      error: null,
      verified: RAN,
      note: SAYS_NOTHING_OF_EFFECT,
    },
    ledger: {
      en: "the message does not stop the tool's own work: a draft committed " +
        "before the timeout stays",
      zh: "这条消息停不下工具自己的工作：超时之前已提交的草稿留下",
    },
  },
  {
    id: "function_tool_timeout_raise",
    what: {
      en: "a function tool's own timeout, raised",
      zh: "函数工具自己的超时，作为异常抛出",
    },
    python: {
      name: "timeout_behavior raise_exception",
      told: null,
      continues: false,
      error: "ToolTimeoutError",
      verified: readAt(`${TOOL}:2150-2156`),
    },
    js: {
      name: "timeoutBehavior raise_exception",
      told: null,
      continues: false,
      error: "ToolTimeoutError",
      verified: RAN,
    },
    ledger: {
      en: "the run ends, the draft committed before the timeout stays: " +
        "the application, not the model, must look it up by key",
      zh:
        "运行结束，超时之前已提交的草稿留下：要由应用（而不是模型）按业务键查明",
    },
  },
  {
    id: "run_cancelled",
    what: {
      en: "the run is cancelled while a tool call runs",
      zh: "工具调用进行中时整个运行被取消",
    },
    python: {
      name: "RunResultStreaming.cancel() (immediate)",
      told: null,
      continues: false,
      error: null,
      verified: readAt(`${RESULT}:818-843`),
      note: {
        en: "the stream stops; mode after_turn lets the pending tool calls " +
          "finish first",
        zh: "事件流停止；after_turn 模式会先让待执行的工具调用做完",
      },
    },
    js: {
      name: "run(agent, input, { signal }), signal aborted",
      told: null,
      continues: false,
      error: "signal.reason",
      verified: RAN,
      note: {
        en: "run() rejects with the abort's reason, as it was given",
        zh: "run() 以中止时给出的 reason 原样拒绝",
      },
    },
    ledger: {
      en: "the model is told nothing; the tool sees the abort at its next " +
        "await: after the commit, the draft stays",
      zh:
        "模型什么也收不到；工具在下一个 await 处收到中止：若已过提交点，草稿留下",
    },
  },
];
