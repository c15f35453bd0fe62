/**
 * What `guardlab mcp` says: its help and its lines on stderr (the protocol
 * itself is the MCP server's).
 *
 * @module
 */
import { same, type Text } from "../../base/i18n.ts";

/** `mcp --help`: what it does, its flags, its exit codes. */
export const MCP_HELP = {
  about: {
    en: `Runs an MCP server on stdin and stdout for an agent framework (Claude
Desktop, the OpenAI Agents SDK, the MCP Inspector). Tools: create_draft (one
full attempt of the timing lab), ledger and reconcile (read-only), compensate.
Every call lands on the ledger with its receipt; view it afterwards with
guardlab ledger --ledger NAME --timeline. Without --ledger a fresh scratch
ledger is used while the server runs (its path is printed on stderr).
--faults FILE (JSON Lines, a plain file of yours under the temp folder)
schedules faults by call number, counted from 1 over every tools/call:
  {"call": 2, "bad_output": true}
  {"call": 3, "cancel_at": "after_business"}
  {"call": 4, "hold_at": "after_commit", "hold_ms": 60000}
Fields: cancel_at, fail_at, bad_output, audit_failure, hold_at
(before_business or after_commit: wait there until the client cancels, at
most hold_ms). Faults are never tool arguments. The log goes to stderr.`,
    zh: `在标准输入和标准输出上运行 MCP 服务器，供 Agent 框架（Claude Desktop、
OpenAI Agents SDK、MCP Inspector）连接。工具：
create_draft（时序实验的一次完整调用）、ledger 和 reconcile（只读）、
compensate。每次调用都带着回执落在账本上；事后用
guardlab ledger --ledger NAME --timeline 查看。不给 --ledger 时在服务器运行期间
使用一个临时账本（路径输出在标准错误）。
--faults FILE（JSON Lines，临时目录下属于你的普通文件）按调用序号安排故障，
序号从 1 起，对每一次 tools/call 计数：
  {"call": 2, "bad_output": true}
  {"call": 3, "cancel_at": "after_business"}
  {"call": 4, "hold_at": "after_commit", "hold_ms": 60000}
字段：cancel_at、fail_at、bad_output、audit_failure、hold_at（before_business 或
after_commit：停在那里等客户端取消，最多 hold_ms 毫秒）。故障从来不是工具参数。
日志写到标准错误。`,
  },
  inputGuardrail: {
    en: "sequential (default) or parallel, as in run",
    zh: "sequential（默认）或 parallel，同 run",
  },
  receipt: {
    en: "checked (default) or naive, as in run (teaching switch)",
    zh: "checked（默认）或 naive，同 run（教学开关）",
  },
  faults: {
    en: "JSON Lines of faults by call number (see above)",
    zh: "按调用序号安排故障的 JSON Lines（见上文）",
  },
  exitOk: { en: "the client closed the connection", zh: "客户端关闭了连接" },
  exitFailed: { en: "FILE could not be read", zh: "读不了 FILE" },
  exitUsage: {
    en: "usage error, or a bad line in the faults file",
    zh: "用法错误，或故障文件中有错误的行",
  },
} as const satisfies Record<string, Text>;

/** What `mcp` says on stderr. */
export const MCP_MESSAGES = {
  refused: same("guardlab: {refusal}"),
  unreadable: {
    en: "guardlab: cannot read faults from {file}: not a readable file",
    zh: "guardlab: 无法从 {file} 读取故障：不是可读的文件",
  },
  scratchLedger: {
    en:
      "guardlab mcp: scratch ledger {path} (removed when the server stops; --ledger NAME keeps one)",
    zh:
      "guardlab mcp：临时账本 {path}（服务器停止时删除；用 --ledger NAME 可保留）",
  },
  fromTerminal: {
    en:
      "guardlab mcp speaks JSON-RPC on stdin and stdout: start it from an MCP client (see the README); Ctrl-D ends it",
    zh:
      "guardlab mcp 在标准输入输出上使用 JSON-RPC：请从 MCP 客户端启动它（见 README）；按 Ctrl-D 结束",
  },
} as const satisfies Record<string, Text>;
