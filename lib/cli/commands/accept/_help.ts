/**
 * `guardlab accept --help`, beside the command: what it does, each flag
 * (`init`'s, `judge`'s and CI's included), each exit code.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `guardlab accept --help`: what it does, each flag, each exit code. */
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
with a valid call from its schema; the key, read tool and counts it guesses,
and each value it made to fit a format, bound or plain pattern (never run),
are listed in each entry's "guesses", and accept refuses the oracle until
each is checked and deleted. Before it writes, init reads a key no call has
used: a read that counts it (it shows the key it was asked for) makes the
count a guess marked NOT CONFIRMED, in one line. --output writes a new file,
never over one.
For CI: --junit FILE writes the matrix as JUnit XML (a new file, or your own
report of an earlier run, replaced; never a link, a FIFO or another's file);
--baseline FILE takes a previous --json report of the same server (by name)
and oracle (by digest): the failing verdicts it holds no longer fail the run,
a new or worse one still does, and the screen lists what it excused and what
is fixed. Each case's history (every call with its arguments and key, every
answer, fault, read by key and process) is in --json: accept judge
REPORT.json [--json] judges a saved report again from the histories alone,
offline (nothing is started: the temp folder's grant is enough), and names
any verdict the report states that its history does not give.
accept host [--url URL] [--cases LIST] [--variant keyed|unkeyed] [--case-ms
N] [--json] [--junit FILE] [--otlp FILE] -- HOSTCOMMAND… accepts an agent
host instead:
guardlab plays the model (OPENAI_BASE_URL, with a dummy OPENAI_API_KEY) and a
write tool (GUARDLAB_MCP_CONFIG, an mcpServers file: stdio, or --url for
loopback HTTP), loses a reply after the tool's commit (late-reply, no-reply,
error-after-commit, killed-after-commit; over HTTP http-503-after-commit,
connection-reset-after-commit, session-expired-after-commit), and judges
whether the host sent the call again, cancelled it, and what it told the
model, the ledger counted by key.
The host runs with your own rights and needs the engineer grant; its process
group is ended at each case's limit (--case-ms, default 120000) and when
guardlab ends: docs/en/10-accept-your-agent-host.md. Its --otlp trace has a
span per case, per model request and per tools/call, the commit as an event
on the call that made it; never the host's command, its output or the dummy
key.
accept host --example agents-core [--cases LIST] [--variant V] [--json]
[--junit FILE] [--otlp FILE] runs @openai/agents-core 0.20.0 in guardlab's own
process instead, with no socket and no process (MCP timeout 1000 ms; a run
still going after 30 s is aborted). Exercise 20 predicts its row.
The oracle (JSON, at most 256 KiB) names, for each write tool: tool, call
(valid arguments), key (a JSON Pointer into call: the business key), read
(the read tool's call), count ({"text": S} or {"json": POINTER, "match":
{…}}), and optional setup, bad_call, other_call with other_count, and
guesses (accept init's). Placeholders in any string: {run} (unique per
case), {n} and {n:3} (the copy number), {key}, {case}, and {setup.NAME}: a
value a setup call took from its answer by "capture": {"NAME": POINTER} (an
id the server assigns). The format, with a full example for a real server:
docs/en/08-accept-your-own-tool.md.
The idempotency-key contract: an entry may say where the key goes (key_in:
arguments, _meta with meta, idempotencyKey with idempotency_key), the
conflict a client may retry after (conflict: {"code": N} or {"json":
POINTER, "value": V}), an error_call answered with an error after its
write, and key_lifetime_ms; such an entry also runs replay-after-completion,
replay-error, missing-key and key-lifetime. A copy refused with the
declared conflict is retried once every copy has its answer.
An HTTP API that takes an Idempotency-Key header: --http-oracle FILE
[--openapi FILE] with --url or -- COMMAND ARGS… (started on a free loopback
port, named in PORT and in {port}); each call is one request, the key in
its header, each read a GET. It runs every case but cancel-after-send and
annotations, and the four above (chapter 8 has its oracle's fields).`,
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
schema 给出有效的 call；它猜测的业务键、读取工具和计数方式，以及它为符合
format、数值上下限或简单 pattern（从不执行）编出的每个值，都列在每一项的
"guesses" 中，在逐项核对并删除之前，accept 拒绝使用这个 oracle。写出之前，
init 读取一个没有调用用过的业务键：读取数到它（读取工具会显示它被问到的
业务键）时，计数就成为标为「未能确认」的猜测，并用一行说明。--output 只写
新文件，从不覆盖。
用于 CI：--junit FILE 把矩阵写成 JUnit XML（新文件，或替换你自己上次运行的报告；
从不写入链接、FIFO 或他人的文件）；--baseline FILE 接受同一服务器（按名称）、
同一 oracle（按摘要）的一份旧 --json 报告：其中已有的失败结论
不再使运行失败，新增或变差的仍会失败，屏幕列出被豁免和已修复的结论。
--json 中含有每个用例的历史记录（每次调用及其参数和业务键、每个应答、故障、
按业务键的读取和进程）：accept judge REPORT.json [--json] 只依据这些历史记录，
离线重新判定一份保存的报告（不启动任何程序：临时目录权限即可），并指出报告中
写的、但其历史记录得不出的结论。
accept host [--url URL] [--cases LIST] [--variant keyed|unkeyed] [--case-ms
N] [--json] [--junit FILE] [--otlp FILE] -- HOSTCOMMAND… 改为验收 Agent
宿主：guardlab 扮演模型（OPENAI_BASE_URL，配一个假的 OPENAI_API_KEY）和写工具
（GUARDLAB_MCP_CONFIG，一个 mcpServers 文件：stdio，或用 --url 走回环 HTTP），
在工具提交之后丢掉应答（late-reply、no-reply、error-after-commit、
killed-after-commit；HTTP 下还有 http-503-after-commit、
connection-reset-after-commit、session-expired-after-commit），
再按业务键清点账本，判定宿主是否再次发送调用、
是否取消、告诉了模型什么。宿主以你自己的权限运行，需要工程师权限；每个用例到时
（--case-ms，默认 120000）以及 guardlab 结束时，都会结束宿主的进程组：见
docs/zh/10-accept-your-agent-host.md。它的 --otlp trace 为每个用例、每次模型请求
和每次 tools/call 各写一个 span，提交点是做出提交的那次调用上的事件；从不写入
宿主的命令、它的输出或假的 API 密钥。
guardlab accept host --example agents-core [--cases LIST] [--variant V]
[--json] [--junit FILE] [--otlp FILE] 则在 guardlab 自己的进程里
运行 @openai/agents-core 0.20.0，没有套接字也没有进程（MCP 超时 1000 毫秒，
运行超过 30 秒即被中止）。第 20 道练习预测的就是它的结果。
oracle（JSON，最大 256 KiB）为每个写入工具给出：tool、call（有效参数）、
key（指向 call 的 JSON Pointer，即业务键）、read（读取工具的调用）、
count（{"text": S} 或 {"json": POINTER, "match": {…}}），以及可选的 setup、
bad_call、other_call 与 other_count，以及 guesses（accept init 写的）。
任何字符串中的占位符：{run}（每个用例唯一）、{n} 与 {n:3}（副本序号）、{key}、
{case}，以及 {setup.NAME}：setup 调用用 "capture": {"NAME": POINTER}
从应答中取出的值（服务器分配的 id）。格式及一个真实服务器的完整
示例见 docs/zh/08-accept-your-own-tool.md。
幂等键契约：条目可以说明业务键放在哪里（key_in：arguments、配合 meta 的
_meta、配合 idempotency_key 的 idempotencyKey）、客户端可以随后重试的冲突
（conflict：{"code": N} 或 {"json": POINTER, "value": V}）、写入之后以错误
应答的 error_call，以及 key_lifetime_ms；这样的条目还会运行
replay-after-completion、replay-error、missing-key 和 key-lifetime。收到已
声明冲突而被拒绝的副本，会在所有副本都得到应答之后重试一次。
接受 Idempotency-Key 请求头的 HTTP API：--http-oracle FILE [--openapi FILE]
配合 --url 或 -- COMMAND ARGS…（在一个空闲的回环端口上启动，端口写在 PORT 和
{port} 中）；每次调用是一次请求，业务键在请求头中，每次读取是一次 GET。它运行
除 cancel-after-send 和 annotations 之外的所有用例，以及上面四个（其 oracle
的字段见第 8 章）。`,
  },
  oracle: { en: "the oracle file (see above)", zh: "oracle 文件（见上文）" },
  variant: {
    en: "host: run each case on this variant of the tool only (default: both)",
    zh: "host：每个用例只用这个工具变体运行（默认：两个都运行）",
  },
  caseMs: {
    en:
      "host: the limit of each case, after which the host's process group is ended (default 120000, 1000 to 1800000)",
    zh:
      "host：每个用例的时限，到时结束宿主的进程组（默认 120000，1000 到 1800000）",
  },
  httpOracle: {
    en:
      "an HTTP API's oracle (see above): its endpoints are called with the key in a header",
    zh: "HTTP API 的 oracle（见上文）：调用其端点时业务键放在请求头中",
  },
  openapi: {
    en:
      "with --http-oracle: the API's OpenAPI document (JSON); an endpoint may name its operation instead of its method and path",
    zh:
      "配合 --http-oracle：该 API 的 OpenAPI 文档（JSON）；端点可以引用其中的操作，代替方法与路径",
  },
  example: {
    en:
      "a server built into guardlab, run in process; with accept host, an agent host (agents-core), run in process",
    zh:
      "guardlab 内置的服务器，在进程内运行；配合 accept host 时是一个 Agent 宿主（agents-core），在进程内运行",
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
  output: {
    en:
      "init: write the draft oracle to this new file (never over an existing one; default: stdout)",
    zh:
      "init：把 oracle 草稿写入这个新文件（从不覆盖已有文件；默认：标准输出）",
  },
  junit: {
    en:
      "also write the matrix as JUnit XML to this file (new, or your own report of an earlier run, replaced): a failure per unsafe verdict, an error per case not judged, skipped for NOT-RUN and for what the baseline excused",
    zh:
      "同时把矩阵以 JUnit XML 写入这个文件（新文件，或替换你自己上次的报告）：不安全的结论记为 failure，无法判断的用例记为 error，NOT-RUN 和被基线豁免的记为 skipped",
  },
  otlp: {
    en:
      "also write the run as an OpenTelemetry trace to this new file (OTLP JSON, one line): a span per case with its verdict, a span per call, the first read that saw the effect as an event (host: a span per model request too, the commit on the call that made it); never the command, the oracle, a header's value, or the host's output or dummy key",
    zh:
      "同时把这次运行以 OpenTelemetry trace 写入这个新文件（OTLP JSON，一行）：每个用例一个 span，带它的结论；每次调用一个 span；第一次读到效果的读取是一个事件（host：每次模型请求也是一个 span，提交点在做出提交的调用上）；从不写入命令、oracle、任何请求头的值，也不写入宿主的输出或假的 API 密钥",
  },
  baseline: {
    en:
      "a previous --json report of the same server and oracle: the failing verdicts it holds no longer fail the run",
    zh:
      "同一服务器、同一 oracle 的一份旧 --json 报告：其中已有的失败结论不再使本次运行失败",
  },
  header: {
    en:
      "with --url: send this header with every request (may be given more than once)",
    zh: "配合 --url：每个请求都带上这个请求头（可以给多次）",
  },
  headerEnv: {
    en:
      "with --url: the header's value from this environment variable, never shown or recorded (the engineer grant reads GUARDLAB_HEADER_* only)",
    zh:
      "配合 --url：请求头的值取自这个环境变量，从不显示或记录（工程师权限只能读取 GUARDLAB_HEADER_* 变量）",
  },
  exit0: {
    en:
      "every verdict is safe or information (with --baseline: or a failing one it excused)",
    zh:
      "所有结论都安全或仅为提示（用 --baseline 时：也可以是它豁免的失败结论）",
  },
  exit5: {
    en: "an unsafe verdict (with --baseline: one it does not excuse)",
    zh: "有不安全的结论（用 --baseline 时：基线没有豁免的）",
  },
  exit6: {
    en:
      "no unsafe verdict, but a case could not be judged (with --baseline: one it does not excuse); or the server did not get through initialize (init: or its tools/list could not be read)",
    zh:
      "没有不安全的结论，但有用例无法判断（用 --baseline 时：基线没有豁免的）；或服务器没能完成 initialize（init：或无法读取它的 tools/list）",
  },
  exit2: {
    en:
      "usage error, a bad oracle, an oracle with unconfirmed guesses, a baseline of another server or oracle, or (judge) a report that cannot be judged",
    zh:
      "用法错误、oracle 有误、oracle 中还有未确认的猜测、基线来自其他服务器或 oracle，或（judge）无法判定的报告",
  },
  exit1: {
    en:
      "the server could not be started, a file could not be read, or (init) the server lists no tool to draft",
    zh: "无法启动服务器、读不了文件，或（init）服务器没有可起草的工具",
  },
  exit4: {
    en:
      "refused: a file outside the sandbox, a link, a file over its bound, a name that exists (--output, --otlp), a --junit file that is a link, a FIFO or another's, a variable or host the grant does not name, or a grant this guardlab lacks",
    zh:
      "拒绝：文件在沙箱之外、是链接、超过大小上限、名字已存在（--output、--otlp）、--junit 的文件是链接、FIFO 或他人的，权限没有写明的变量或主机，或当前 guardlab 缺少所需权限",
  },
} as const satisfies Record<string, Text>;
