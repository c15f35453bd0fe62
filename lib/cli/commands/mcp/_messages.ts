/**
 * What `guardlab mcp` says: its help and its lines on stderr (the protocol
 * itself is the MCP server's).
 *
 * @module
 */
import { same, type Text } from "../../../base/i18n.ts";

/** `mcp --help`: what it does, its flags, its exit codes. */
export const MCP_HELP = {
  about: {
    en: `Runs an MCP server on stdin and stdout for an agent framework (Claude
Desktop, the OpenAI Agents SDK, the MCP Inspector). Tools: create_draft (one
full attempt of the timing lab), ledger and reconcile (read-only), compensate.
Every call lands on the ledger with its receipt, its session and its call
number; view it afterwards with guardlab ledger --ledger NAME --timeline.
Without --ledger a fresh scratch ledger is used while the server runs (its
path is printed on stderr). At most 16 calls run at once; the next waits in
the pipe. --print-config prints the mcpServers block a host needs.
--faults FILE (JSON Lines, a plain file of yours under the temp folder)
schedules faults for the create_draft calls each line picks: "call" (counted
from 1 over every tools/call, or "every"), "job", or both:
  {"call": 2, "bad_output": true}
  {"job": "JOB-002", "cancel_at": "after_business"}
  {"call": "every", "hold_at": "after_commit"}
Fields: cancel_at, fail_at, bad_output, audit_failure, hold_at
(before_business or after_commit: wait there until the client cancels, at
most hold_ms, default 300000). Faults are never tool arguments. The log goes
to stderr.`,
    zh: `在标准输入和标准输出上运行 MCP 服务器，供 Agent 框架（Claude Desktop、
OpenAI Agents SDK、MCP Inspector）连接。工具：
create_draft（时间线实验的一次完整调用）、ledger 和 reconcile（只读）、
compensate。每次调用都带着回执、会话编号和调用序号落在账本上；事后用
guardlab ledger --ledger NAME --timeline 查看。不给 --ledger 时在服务器运行期间
使用一个临时账本（路径输出在标准错误）。同时最多运行 16 个调用，其余的在管道里
等待。--print-config 打印宿主程序需要的 mcpServers 配置块。
--faults FILE（JSON Lines，临时目录下属于你的普通文件）为每行选中的
create_draft 调用安排故障：按 "call"（对每一次 tools/call 从 1 起计数，或
"every"）、按 "job"，或两者同时：
  {"call": 2, "bad_output": true}
  {"job": "JOB-002", "cancel_at": "after_business"}
  {"call": "every", "hold_at": "after_commit"}
字段：cancel_at、fail_at、bad_output、audit_failure、hold_at（before_business 或
after_commit：停在那里等客户端取消，最多 hold_ms 毫秒，默认 300000）。
故障从来不是工具参数。日志写到标准错误。`,
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
    en: "JSON Lines of faults by call number or job (see above)",
    zh: "按调用序号或 job 安排故障的 JSON Lines（见上文）",
  },
  printConfig: {
    en:
      "print the mcpServers block that starts this server (these flags) from any folder, and exit",
    zh:
      "打印从任何目录都能启动本服务器（带这些参数）的 mcpServers 配置块，然后退出",
  },
  exitOk: { en: "the client closed the connection", zh: "客户端关闭了连接" },
  exitFailed: { en: "FILE could not be read", zh: "读不了 FILE" },
  exitUsage: {
    en: "usage error, or a bad line in the faults file",
    zh: "用法错误，或故障文件中有错误的行",
  },
} as const satisfies Record<string, Text>;

/** What `mcp` says of its faults FILE when it cannot be read (`lib/cli/user_file.ts`). */
export const FAULTS_FILE = {
  refused: same("{refusal}"),
  what: { en: "faults", zh: "故障" },
} as const satisfies Record<string, Text>;

/** What `mcp` says on stderr. */
export const MCP_MESSAGES = {
  printConfigAbsolute: {
    en:
      "--print-config needs an absolute path for --{flag}: a host starts the server in a folder of its own",
    zh:
      "--print-config 要求 --{flag} 用绝对路径：宿主程序会在它自己的目录里启动服务器",
  },
  scratchLedger: {
    en:
      "guardlab mcp: scratch ledger {path} (removed when the server stops; --ledger NAME keeps one)",
    zh:
      "guardlab mcp：临时账本 {path}（服务器停止时删除；用 --ledger NAME 可保留）",
  },
  fromTerminal: {
    en:
      "guardlab mcp speaks JSON-RPC on stdin and stdout: start it from an MCP client (see docs/en/03-agents-and-mcp.md); Ctrl-D ends it",
    zh:
      "guardlab mcp 在标准输入输出上使用 JSON-RPC：请从 MCP 客户端启动它（见 docs/zh/03-agents-and-mcp.md）；按 Ctrl-D 结束",
  },
} as const satisfies Record<string, Text>;
