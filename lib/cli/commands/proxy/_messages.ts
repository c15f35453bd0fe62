/**
 * What `guardlab proxy` says, beside the command: its help, and its own
 * lines on stderr (the faults file's refusals, the log of a session and the
 * drawn record are the accept wing's, in `lib/accept/proxy_messages.ts`).
 * Stdout is the client's protocol channel.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `guardlab proxy --help`. */
export const PROXY_HELP = {
  about: {
    en:
      `A drop-in mcpServers entry: the agent's host starts guardlab proxy in place
of the real server, which guardlab starts as -- COMMAND ARGS…. Every message
is forwarded unchanged both ways (but with --traceparent, below), and
recorded with its time, direction and
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
is read from the server by key and recorded (a read the agent never saw); a
call the client cancels (its timeout) is read as the cancel passes, while the
server is still there.
With --read-before-delivery, each write's answer waits while its effect is
read, so the record shows where the effect became visible before the
client knew anything.
guardlab proxy show FILE [--format svg | --json] [--oracle FILE] draws a
record; --agent AGENTFILE draws an agent record beside it, on the same
clock: the agent's model turns, tool guardrails and calls, as written by
the module guardlab proxy --print-agent-hook prints.
A client that probes first (agents-core 0.20.0's) starts guardlab proxy twice:
the record asked for then holds the probe alone, and the session takes the
next free name (record-2.jsonl), which stderr names at the start.
the module guardlab proxy --print-agent-hook prints. --otlp FILE also
writes it as an OpenTelemetry trace: a call whose request carried
params._meta.traceparent is that span's child; --traceparent VALUE gives
the parent of the calls that carry none, and adds the proxy's own span to
those requests as their traceparent.
The server runs with your own rights: Deno's sandbox covers guardlab, not
the server. Starting it needs the engineer grant (-P=guardlab-engineer).`,
    zh: `可直接写进 mcpServers：Agent 宿主启动 guardlab proxy 来代替真实服务器，
真实服务器由 guardlab 以 -- COMMAND ARGS… 启动。每条消息双向原样转发
（--traceparent 例外，见下文），并以 JSON Lines 记录时间、方向和调用序号
（--record FILE：在临时目录下你自己的目录中新建的文件；不给时写入你的私有
目录，文件名输出到标准错误）。
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
并记录（这是 Agent 从未看到的读取）；客户端取消的调用（它的超时）在取消经过时
就读取，那时服务器还在。
加上 --read-before-delivery 时，每次写入的应答先等它的效果读完再转交，记录里就能
看到：客户端知道任何事之前，效果已经可见。
guardlab proxy show FILE [--format svg | --json] [--oracle FILE] 画出一份记录；
--agent AGENTFILE 把一份 Agent 记录画在旁边，用同一只时钟：Agent 的模型轮次、
工具护栏和调用，由 guardlab proxy --print-agent-hook 打印的模块写下。
先探测的客户端（agents-core 0.20.0 的）会启动两次 guardlab proxy：指定的记录里
只有探测，会话用下一个空闲的名字（record-2.jsonl），启动时标准错误会说出它。
--otlp FILE 同时把它写成 OpenTelemetry trace：请求里带了
params._meta.traceparent 的调用是那个 span 的子 span；--traceparent VALUE
给出没有带的调用的父 span，并把 proxy 自己的 span 作为 traceparent 加进这些
请求。
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
  otlp: {
    en:
      "show: also write the timeline to this new file as an OpenTelemetry trace (OTLP JSON, one line; the student grant writes under /tmp only)",
    zh:
      "show：同时把时间线以 OpenTelemetry trace（OTLP JSON，一行）写入这个新文件（学生版权限只能写在 /tmp 下）",
  },
  traceparent: {
    en:
      "the parent of every tools/call that carries no params._meta.traceparent (your agent's run, as W3C trace context): the proxy adds its own span's traceparent to that request",
    zh:
      "没有带 params._meta.traceparent 的每次 tools/call 的父 span（你的 Agent 这次运行，W3C trace context 格式）：proxy 会把它自己的 span 的 traceparent 加进这次请求",
  },
  json: {
    en: "show: the steps, calls and effects as JSON",
    zh: "show：以 JSON 给出步骤、调用和效果",
  },
  agent: {
    en: "show: the agent record to draw beside it (--print-agent-hook)",
    zh: "show：画在旁边的 Agent 记录（见 --print-agent-hook）",
  },
  readBeforeDelivery: {
    en: "with --oracle: read each write's effect before its answer goes on",
    zh: "配合 --oracle：每次写入的应答转交之前，先读取它的效果",
  },
  printAgentHook: {
    en: "print the agent hook module (Node and Deno) and exit",
    zh: "打印 Agent 钩子模块（Node 与 Deno 通用）后退出",
  },
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
    en: "usage error, or a bad line in the faults file or in a record to show",
    zh: "用法错误，或故障文件、要显示的记录中有错误的行",
  },
  exit4: {
    en: "refused: a FILE outside the temp folder, a link, not yours, or in a " +
      "folder others can change; nothing was changed",
    zh:
      "拒绝：FILE 在临时目录之外、是链接、不属于你，或所在目录可被他人改动；" +
      "没有改动任何东西",
  },
} as const satisfies Record<string, Text>;

/** What `proxy` says on stderr. */
export const PROXY_MESSAGES = {
  needsServer: {
    en: "give the server to start: -- COMMAND ARGS…, or show FILE",
    zh: "请给出要启动的服务器：-- COMMAND ARGS…，或 show FILE",
  },
  faultsWord: { en: "faults", zh: "故障" },
  recordWord: { en: "a record", zh: "记录" },
  agentRecordWord: { en: "an agent record", zh: "Agent 记录" },
  hookAlone: {
    en: "--print-agent-hook takes no other argument",
    zh: "--print-agent-hook 不接受其他参数",
  },
  showOnly: {
    en: "--agent, --json and --otlp are for proxy show FILE",
    zh: "--agent、--json 与 --otlp 只用于 proxy show FILE",
  },
  sessionOnly: {
    en:
      "--traceparent is for a session: proxy --traceparent VALUE -- COMMAND ARGS…",
    zh:
      "--traceparent 用于一次会话：proxy --traceparent VALUE -- COMMAND ARGS…",
  },
  badTraceparent: {
    en:
      "--traceparent {got}: not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>, ids not all zero)",
    zh:
      "--traceparent {got}：不是 W3C traceparent（00-<32 位十六进制>-<16 位十六进制>-<2 位十六进制>，id 不能全为零）",
  },
  readNeedsOracle: {
    en:
      "--read-before-delivery reads by the oracle's key: give --oracle FILE, and a server to start",
    zh:
      "--read-before-delivery 按 oracle 的业务键读取：请给出 --oracle FILE 以及要启动的服务器",
  },
  recording: {
    en:
      "guardlab proxy: recording to {path}; the server runs with your own rights",
    zh: "guardlab proxy：记录写入 {path}；服务器以你自己的权限运行",
  },
  recordingNext: {
    en:
      "guardlab proxy: {taken} exists (an earlier record: a client that probes first, as agents-core 0.20.0's does, starts guardlab proxy once for the probe alone), so this session is recorded in {path}; the server runs with your own rights",
    zh:
      "guardlab proxy：{taken} 已存在（是之前的记录：先探测的客户端，例如 agents-core 0.20.0 的，会为探测单独启动一次 guardlab proxy），所以这次会话记录在 {path}；服务器以你自己的权限运行",
  },
  badRecord: {
    en: "{file} is not a guardlab proxy record (line {line})",
    zh: "{file} 不是 guardlab proxy 的记录（第 {line} 行）",
  },
} as const satisfies Record<string, Text>;
