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
    en: "run the article's acceptance test against an MCP server's write tool",
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
The oracle (JSON, at most 256 KiB) names each write tool:
  {"tools": [{"tool": "put_note",
    "call": {"id": "note-{run}-{n:3}", "text": "hello {run}"}, "key": "/id",
    "read": {"tool": "get_notes", "arguments": {"id": "{key}"}},
    "count": {"json": "/notes", "match": {"id": "{key}"}},
    "bad_call": {...}, "other_call": {...}, "other_count": {...},
    "setup": [{"tool": NAME, "arguments": {...}}]}]}
count is {"text": S} (occurrences of S in the text content) or {"json":
POINTER, "match": {...}} (items of that array whose fields equal these).`,
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
oracle（JSON，最大 256 KiB）列出每个写入工具：
  {"tools": [{"tool": "put_note",
    "call": {"id": "note-{run}-{n:3}", "text": "hello {run}"}, "key": "/id",
    "read": {"tool": "get_notes", "arguments": {"id": "{key}"}},
    "count": {"json": "/notes", "match": {"id": "{key}"}},
    "bad_call": {...}, "other_call": {...}, "other_count": {...},
    "setup": [{"tool": NAME, "arguments": {...}}]}]}
count 为 {"text": S}（S 在文本内容中出现的次数）或 {"json": POINTER,
"match": {...}}（该数组中字段等于这些值的条目数）。`,
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
