/**
 * Where the SDK lens's facts come from, and how each was verified. guardlab
 * itself runs no SDK. Each row of the lens says, per SDK:
 *
 * - JavaScript rows were **run**: `tests/content/sdk_conformance_test.ts`
 *   drives `@openai/agents-core` at {@linkcode SDK_JS_VERSION} with a
 *   scripted model and a tool that runs guardlab's lab, and compares what
 *   happened with the rows' machine fields. Changing a JS field makes that
 *   test fail.
 * - Python rows were **read** at one commit of openai/openai-agents-python
 *   ({@linkcode SDK_PY_COMMIT}), each with the file and lines where the
 *   behaviour lives (PyPI is not reachable here).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The `@openai/agents-core` version the conformance tests run. */
export const SDK_JS_VERSION = "0.20.0";

/** The openai-agents-python commit whose source the Python rows cite. */
export const SDK_PY_COMMIT = "7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7";

/** What that commit's pyproject.toml calls itself. */
export const SDK_PY_VERSION = "0.22.0";

/** How one SDK's fact was verified. */
export type Verified =
  | { readonly how: "run" }
  | { readonly how: "read"; readonly at: readonly string[] };

/** A fact that was run: the conformance tests drive the SDK and compare. */
export const RAN: Verified = { how: "run" };

/** A fact read in the source, at each `file:lines`. */
export function readAt(...at: string[]): Verified {
  return { how: "read", at };
}

/** The files whose lines the rows cite: openai-agents-python's at {@linkcode SDK_PY_COMMIT}, and `@openai/agents-core`'s. */
export const CITED = {
  /** The Python tool execution, where tool guardrails run. */
  toolExecution: "src/agents/run_internal/tool_execution.py",
  /** The Python runner. */
  run: "src/agents/run.py",
  /** The Python run loop. */
  runLoop: "src/agents/run_internal/run_loop.py",
  /** The Python SDK's guardrail documentation. */
  guardrailDocs: "docs/guardrails.md",
  /** The Python tools: the default error and timeout messages. */
  tool: "src/agents/tool.py",
  /** The Python MCP servers (their client session timeout). */
  mcpServer: "src/agents/mcp/server.py",
  /** The Python MCP tool wrapper (what becomes of an MCP error). */
  mcpUtil: "src/agents/mcp/util.py",
  /** The Python run results (a streamed run's cancel). */
  result: "src/agents/result.py",
  /** The JS SDK's tool types. */
  jsTools: "@openai/agents-core dist/tool.d.ts",
} as const;

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
