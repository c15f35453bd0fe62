/**
 * What `guardlab accept` says: its help, and its lines for a bad call or a
 * server that could not be started (the matrix and timelines are the
 * view's, in `lib/accept/messages.ts`). `proxy` shares the lines about the
 * server and the oracle file.
 *
 * @module
 */
import type { Text } from "../../base/i18n.ts";

/** `guardlab accept --help`. */
export const ACCEPT_HELP = {
  about: {
    en:
      `Runs the acceptance test the article ends with against any MCP server: for
each write tool the oracle names, each case on fresh keys, then its read tool
asked by key. Cases: once, rejected, lost-reply-retry (the server answers,
guardlab withholds the answer, the client retries), cancel-after-send,
concurrent-distinct, concurrent-same, same-key-other-arguments,
two-processes (the server started twice over one store), crash-after-commit
(the server killed once its effect shows, started again, the call retried),
annotations (the hints the tool declares, checked against those verdicts).
The matrix shows what the client saw, the effect counted by key and the
verdict; with --timeline each case's steps in three lanes (client, guardlab,
server).
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
same-key-other-arguments、two-processes（同一存储上启动两次服务器）、
crash-after-commit（效果出现后强制终止服务器，再启动，重试调用）、
annotations（工具声明的提示，与上述结论对照）。矩阵列出客户端看到了什么、
按业务键数出的效果和结论；加 --timeline 时再画出每个用例在三条泳道
（客户端、guardlab、服务器）上的步骤。
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
    en:
      "the bound of every wait for an answer (default 10000; initialize: at least 30000)",
    zh: "每次等待应答的上限（默认 10000；initialize 至少 30000）",
  },
  cancelAfter: {
    en:
      "cancel-after-send cancels this long after sending (default: half the median answer time of the calls before it)",
    zh:
      "cancel-after-send 在发送后多久取消（默认：此前调用应答时间中位数的一半）",
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

/** What `accept` (and `proxy`, for the server and the oracle) says on stderr. */
export const ACCEPT_CLI_MESSAGES = {
  initNoAnswer: {
    en:
      "the server did not answer initialize within {ms} ms; nothing was tested",
    zh: "服务器在 {ms} 毫秒内没有应答 initialize；没有进行任何测试",
  },
  initClosed: {
    en:
      "the server exited before initialize was answered; nothing was tested{tail}",
    zh: "服务器在应答 initialize 之前就退出了；没有进行任何测试{tail}",
  },
  initError: {
    en: "the server refused initialize ({detail}); nothing was tested",
    zh: "服务器拒绝了 initialize（{detail}）；没有进行任何测试",
  },
  stderrTail: {
    en: " (its last line on stderr: {line})",
    zh: "（它在标准错误上的最后一行：{line}）",
  },
  needsServer: {
    en:
      "give the server: -- COMMAND ARGS…, --url http://127.0.0.1:PORT/mcp, or --example NAME",
    zh:
      "请给出服务器：-- COMMAND ARGS…、--url http://127.0.0.1:PORT/mcp，或 --example NAME",
  },
  oneServer: {
    en: "give one server: -- COMMAND, --url or --example, not several",
    zh: "只能给一个服务器：-- COMMAND、--url 或 --example 三选一",
  },
  needsOracle: {
    en:
      "--oracle FILE is needed with -- COMMAND or --url (an --example brings its own)",
    zh:
      "使用 -- COMMAND 或 --url 时必须给出 --oracle FILE（--example 自带 oracle）",
  },
  unknownCase: {
    en: "--cases: unknown case {got} (cases: {names})",
    zh: "--cases：未知用例 {got}（可用用例：{names}）",
  },
  unknownTool: {
    en: "--tool: the oracle names no write tool {got}",
    zh: "--tool：oracle 中没有写入工具 {got}",
  },
  urlNotLoopback: {
    en:
      "--url must be http:// on this machine (127.0.0.1, localhost or [::1]) (got {got})",
    zh:
      "--url 必须是本机的 http://（127.0.0.1、localhost 或 [::1]）（收到 {got}）",
  },
  notReadable: {
    en: "cannot read {what} from {file}: not a readable file",
    zh: "无法从 {file} 读取{what}：不是可读的文件",
  },
  oracleWord: { en: "the oracle", zh: "该 oracle 文件" },
  jsonOrSvg: {
    en: "--json and --format svg: give one",
    zh: "--json 与 --format svg 只能给一个",
  },
} as const satisfies Record<string, Text>;
