/**
 * The help of `guardlab accept` and `guardlab proxy`: summary, what each
 * does, its flags, its exit codes, in both languages. Each line of an
 * `about` fits 80 columns as written.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** `guardlab accept --help`. */
export const ACCEPT_HELP = {
  summary: {
    en: "run the article's acceptance test on an MCP server's write tool",
    zh: "对 MCP 服务器的写入工具运行文章的验收测试",
  },
  about: {
    en:
      `Runs the acceptance test the article ends with against any MCP server: for
each write tool the oracle names, each case on fresh keys, then its read tool
asked by key. Cases: once, rejected, lost-reply-retry (the server answers,
guardlab withholds the answer, the client retries), cancel-after-send,
concurrent-distinct, concurrent-same, same-key-other-arguments. The matrix
shows what the client saw, the effect counted by key and the verdict; with
--timeline each case's steps in three lanes (client, guardlab, server).
The server: -- COMMAND ARGS… (stdio), --url http://127.0.0.1:PORT/mcp
(Streamable HTTP, this machine only), or --example NAME: a small server built
into guardlab, run in process (idempotent, duplicates-on-retry, loses-updates,
false-failure), which needs no grant beyond the temp folder.
A started server runs with your own rights: Deno's sandbox covers guardlab,
not the server. Starting one needs the engineer grant (-P=guardlab-engineer).
The oracle (JSON, at most 256 KiB) names, for each write tool: tool, call
(valid arguments), key (a JSON Pointer into call: the business key), read
(the read tool's call), count ({"text": S} or {"json": POINTER, "match":
{…}}), and optional setup, bad_call, other_call with other_count.
Placeholders in any string: {run} (unique per case), {n} and {n:3} (the copy
number), {key}, {case}. The format, with a full example for a real server:
docs/en/08-accept-your-own-tool.md.`,
    zh: `对任意 MCP 服务器运行文章结尾的验收测试：对 oracle 列出的每个写入工具，
每个用例使用新的业务键，然后按业务键询问读取工具。用例：once、rejected、
lost-reply-retry（服务器已应答，guardlab 扣下应答，客户端重试）、
cancel-after-send、concurrent-distinct、concurrent-same、
same-key-other-arguments。矩阵列出客户端看到了什么、按业务键数出的效果和结论；
加 --timeline 时再画出每个用例在三条泳道（客户端、guardlab、服务器）上的步骤。
服务器：-- COMMAND ARGS…（stdio）、--url http://127.0.0.1:PORT/mcp
（Streamable HTTP，仅限本机），或 --example NAME：guardlab 内置、在进程内运行的
小服务器（idempotent、duplicates-on-retry、loses-updates、false-failure），
除临时目录外不需要任何权限。
被启动的服务器以你自己的权限运行：Deno 沙箱只约束 guardlab，不约束服务器。
启动服务器需要工程师权限（-P=guardlab-engineer）。
oracle（JSON，最大 256 KiB）为每个写入工具给出：tool、call（有效参数）、
key（指向 call 的 JSON Pointer，即业务键）、read（读取工具的调用）、
count（{"text": S} 或 {"json": POINTER, "match": {…}}），以及可选的 setup、
bad_call、other_call 与 other_count。任何字符串中的占位符：{run}（每个用例
唯一）、{n} 与 {n:3}（副本序号）、{key}、{case}。格式及一个真实服务器的完整
示例见 docs/zh/08-accept-your-own-tool.md。`,
  },
  oracle: { en: "the oracle file (see above)", zh: "oracle 文件（见上文）" },
  example: {
    en: "a server built into guardlab, run in process",
    zh: "guardlab 内置的服务器，在进程内运行",
  },
  url: {
    en: "a Streamable HTTP server on this machine",
    zh: "本机上的 Streamable HTTP 服务器",
  },
  tool: {
    en: "only this write tool of the oracle",
    zh: "只测 oracle 中的这个写入工具",
  },
  cases: {
    en: "comma-separated case names (default: all)",
    zh: "逗号分隔的用例名（默认：全部）",
  },
  copies: {
    en: "N for the concurrent cases (default 10, at most 64)",
    zh: "并发用例的 N（默认 10，最多 64）",
  },
  timeout: {
    en: "the bound of every wait for an answer (default 10000)",
    zh: "每次等待应答的上限（默认 10000）",
  },
  cancelAfter: {
    en: "cancel-after-send cancels this long after sending (default 20)",
    zh: "cancel-after-send 在发送后多久取消（默认 20）",
  },
  timeline: {
    en: "also draw each case's timeline",
    zh: "同时画出每个用例的时间线",
  },
  json: {
    en: "the matrix and timelines as JSON",
    zh: "以 JSON 输出矩阵和时间线",
  },
  format: {
    en: "text (default) or svg (the timelines)",
    zh: "text（默认）或 svg（时间线）",
  },
  exit0: {
    en: "every verdict is safe or information",
    zh: "所有结论都安全或仅为提示",
  },
  exit1: {
    en: "the server could not be started, or a file could not be read",
    zh: "无法启动服务器，或读不了文件",
  },
  exit2: { en: "usage error, or a bad oracle", zh: "用法错误，或 oracle 有误" },
  exit4: {
    en:
      "refused: a file outside the sandbox, a link, a file over its bound, or a grant this guardlab lacks",
    zh:
      "拒绝：文件在沙箱之外、是链接、超过大小上限，或当前 guardlab 缺少所需权限",
  },
} as const satisfies Record<string, Text>;

/** `guardlab proxy --help`. */
export const PROXY_HELP = {
  summary: {
    en: "stand between an agent and its MCP server: record, inject faults",
    zh: "站在 Agent 与其 MCP 服务器之间：记录消息、注入故障",
  },
  about: {
    en:
      `A drop-in mcpServers entry: the agent's host starts guardlab proxy in place
of the real server, which guardlab starts as -- COMMAND ARGS…. Every message
is forwarded unchanged both ways, and recorded with its time, direction and
call number as JSON Lines (--record FILE: a new file in a folder of yours
under the temp folder; else one in your private folder, named on stderr).
A line from the server that is not JSON-RPC, or a message over 4 MiB, is not
forwarded; the log (stderr) says so.
--faults FILE (JSON Lines) applies faults by tool name and call number:
  {"tool": "create_entities", "call": 2, "drop_response": true}
  {"tool": "create_entities", "call": 3, "delay_response_ms": 1500}
  {"call": 5, "cancel_after_ms": 200}
  {"tool": "edit_file", "call": 1, "deliver_twice": true}
  {"tool": "add_observations", "call": 1, "fanout": 10}
With "tool", call counts that tool's calls, else every tools/call. A cancel
fault sends notifications/cancelled to the server and answers the client
with a JSON-RPC error (-32800). Copies of a call get ids of guardlab's own;
their answers are recorded, never delivered.
--oracle FILE (as for accept): once the client has gone, each write's effect
is read from the server by key and recorded (a read the agent never saw).
guardlab proxy show FILE [--format svg] [--oracle FILE] draws a record.
The server runs with your own rights: Deno's sandbox covers guardlab, not
the server. Starting it needs the engineer grant (-P=guardlab-engineer).`,
    zh: `可直接写进 mcpServers：Agent 宿主启动 guardlab proxy 来代替真实服务器，
真实服务器由 guardlab 以 -- COMMAND ARGS… 启动。每条消息双向原样转发，并以
JSON Lines 记录时间、方向和调用序号（--record FILE：在临时目录下你自己的目录中
新建的文件；不给时写入你的私有目录，文件名输出到标准错误）。
服务器发出的不是 JSON-RPC 的行，或超过 4 MiB 的消息，不会转发；日志（标准错误）
会说明。
--faults FILE（JSON Lines）按工具名和调用序号注入故障：
  {"tool": "create_entities", "call": 2, "drop_response": true}
  {"tool": "create_entities", "call": 3, "delay_response_ms": 1500}
  {"call": 5, "cancel_after_ms": 200}
  {"tool": "edit_file", "call": 1, "deliver_twice": true}
  {"tool": "add_observations", "call": 1, "fanout": 10}
给了 "tool" 时 call 只数该工具的调用，否则数每一次 tools/call。取消故障向服务器
发送 notifications/cancelled，并以 JSON-RPC 错误（-32800）应答客户端。调用的
副本使用 guardlab 自己的 id；副本的应答只记录，从不交付。
--oracle FILE（同 accept）：客户端离开后，按业务键从服务器读取每次写入的效果
并记录（这是 Agent 从未看到的读取）。
guardlab proxy show FILE [--format svg] [--oracle FILE] 画出一份记录。
服务器以你自己的权限运行：Deno 沙箱只约束 guardlab，不约束服务器。启动它需要
工程师权限（-P=guardlab-engineer）。`,
  },
  faults: {
    en: "JSON Lines of faults (see above)",
    zh: "故障的 JSON Lines（见上文）",
  },
  record: {
    en: "the record to write (a new file)",
    zh: "要写入的记录（新文件）",
  },
  oracle: {
    en: "read each write's effect by key at the end",
    zh: "结束时按业务键读取每次写入的效果",
  },
  format: { en: "show: text (default) or svg", zh: "show：text（默认）或 svg" },
  timeout: {
    en: "the bound of each end-of-session read (default 10000)",
    zh: "会话结束时每次读取的等待上限（默认 10000）",
  },
  exit0: { en: "the client closed the connection", zh: "客户端关闭了连接" },
  exit1: {
    en:
      "the server could not be started, exited first with an error, or FILE could not be read",
    zh: "无法启动服务器、服务器先以错误退出，或读不了 FILE",
  },
  exit2: {
    en: "usage error, or a bad line in the faults file",
    zh: "用法错误，或故障文件中有错误的行",
  },
} as const satisfies Record<string, Text>;
