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
(the server killed once its effect shows or its answer is in, started again,
the call retried), annotations (the hints the tool declares, checked against
those verdicts).
The matrix shows what the client saw, the effect counted by key and the
verdict; with --timeline each case's steps in three lanes (client, guardlab,
server).
The server: -- COMMAND ARGS… (stdio), --url http://127.0.0.1:PORT/mcp
(Streamable HTTP), or --example NAME: a small server built into guardlab, run
in process (idempotent, duplicates-on-retry, loses-updates, false-failure),
which needs no grant beyond the temp folder.
A started server runs with your own rights: Deno's sandbox covers guardlab,
not the server. Starting one needs the engineer grant (-P=guardlab-engineer).
The engineer grant reaches this machine's loopback only (127.0.0.1,
localhost, [::1]): a staging host is tested only on purpose, over https, by a
guardlab run with its own grant that names that host (chapter 8 shows how),
never by default. --header NAME=VALUE and --header-env NAME=VARIABLE go with
--url (a bearer token); a variable's value is never shown or recorded, and
the engineer grant reads only variables named GUARDLAB_HEADER_*.
accept init [--output FILE] -- COMMAND ARGS… (or --url) reads the server's
tools/list and drafts an oracle: every tool not marked readOnlyHint: true,
with a valid call from its schema; the key, read tool and counts it guesses
are listed in each entry's "guesses", and accept refuses the oracle until
each is checked and deleted. --output writes a new file, never over one.
For CI: --junit FILE writes the matrix as JUnit XML (a new file); --baseline
FILE takes a previous --json report of the same server (by name) and oracle
(by digest): the failing verdicts it holds no longer fail the run, a new or
worse one still does, and the screen lists what it excused and what is
fixed.
The oracle (JSON, at most 256 KiB) names, for each write tool: tool, call
(valid arguments), key (a JSON Pointer into call: the business key), read
(the read tool's call), count ({"text": S} or {"json": POINTER, "match":
{…}}), and optional setup, bad_call, other_call with other_count, and
guesses (accept init's). Placeholders in any string: {run} (unique per
case), {n} and {n:3} (the copy number), {key}, {case}. The format, with a
full example for a real server: docs/en/08-accept-your-own-tool.md.`,
    zh: `对任意 MCP 服务器运行文章结尾的验收测试：对 oracle 列出的每个写入工具，
每个用例使用新的业务键，然后按业务键询问读取工具。用例：once、rejected、
lost-reply-retry（服务器已应答，guardlab 扣下应答，客户端重试）、
cancel-after-send、concurrent-distinct、concurrent-same、
same-key-other-arguments、two-processes（同一存储上启动两次服务器）、
crash-after-commit（效果出现或应答到达后强制终止服务器，再启动，重试调用）、
annotations（工具声明的提示，与上述结论对照）。矩阵列出客户端看到了什么、
按业务键数出的效果和结论；加 --timeline 时再画出每个用例在三条泳道
（客户端、guardlab、服务器）上的步骤。
服务器：-- COMMAND ARGS…（stdio）、--url http://127.0.0.1:PORT/mcp
（Streamable HTTP），或 --example NAME：guardlab 内置、在进程内运行的
小服务器（idempotent、duplicates-on-retry、loses-updates、false-failure），
除临时目录外不需要任何权限。
被启动的服务器以你自己的权限运行：Deno 沙箱只约束 guardlab，不约束服务器。
启动服务器需要工程师权限（-P=guardlab-engineer）。
工程师权限只能访问本机回环地址（127.0.0.1、localhost、[::1]）：预发布主机只在
有意为之时测试，走 https，并用写明该主机的专用权限运行 guardlab
（做法见第 8 章），绝不是默认行为。--header NAME=VALUE 与
--header-env NAME=VARIABLE 配合 --url 使用（例如 bearer token）；变量的值
从不显示或记录，工程师权限只能读取名为 GUARDLAB_HEADER_* 的变量。
accept init [--output FILE] -- COMMAND ARGS…（或 --url）读取服务器的
tools/list 并起草 oracle：每个没有标注 readOnlyHint: true 的工具都列入，并按其
schema 给出有效的 call；它猜测的业务键、读取工具和计数方式列在每一项的
"guesses" 中，在逐项核对并删除之前，accept 拒绝使用这个 oracle。--output 只写
新文件，从不覆盖。
用于 CI：--junit FILE 把矩阵写成 JUnit XML（新文件）；--baseline FILE 接受同一
服务器（按名称）、同一 oracle（按摘要）的一份旧 --json 报告：其中已有的失败结论
不再使运行失败，新增或变差的仍会失败，屏幕列出被豁免和已修复的结论。
oracle（JSON，最大 256 KiB）为每个写入工具给出：tool、call（有效参数）、
key（指向 call 的 JSON Pointer，即业务键）、read（读取工具的调用）、
count（{"text": S} 或 {"json": POINTER, "match": {…}}），以及可选的 setup、
bad_call、other_call 与 other_count，以及 guesses（accept init 写的）。
任何字符串中的占位符：{run}（每个用例唯一）、{n} 与 {n:3}（副本序号）、{key}、
{case}。格式及一个真实服务器的完整
示例见 docs/zh/08-accept-your-own-tool.md。`,
  },
  oracle: { en: "the oracle file (see above)", zh: "oracle 文件（见上文）" },
  example: {
    en: "a server built into guardlab, run in process",
    zh: "guardlab 内置的服务器，在进程内运行",
  },
  url: {
    en:
      "a Streamable HTTP server: this machine's loopback under the engineer grant; another host only over https, under a grant that names it",
    zh:
      "Streamable HTTP 服务器：工程师权限下只能是本机回环地址；其他主机只能走 https，且需写明该主机的权限",
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
      "cancel-after-send cancels this long after sending (default: half the median answer time of the calls before it; 20 when none was)",
    zh:
      "cancel-after-send 在发送后多久取消（默认：此前调用应答时间中位数的一半；此前没有测到时为 20）",
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
      "--url must be http:// or https:// on this machine (127.0.0.1, localhost or [::1]), or https:// on a host your grant names, without a user or password (got {got})",
    zh:
      "--url 必须是本机（127.0.0.1、localhost 或 [::1]）的 http:// 或 https://，或你的权限写明的主机的 https://，且不含用户名和密码（收到 {got}）",
  },
  oracleWord: { en: "the oracle", zh: "该 oracle 文件" },
  jsonOrSvg: {
    en: "--json and --format svg: give one",
    zh: "--json 与 --format svg 只能给一个",
  },
} as const satisfies Record<string, Text>;
