/**
 * What `guardlab accept` says, beside the command: its one-line refusals,
 * and the screen of `accept init` (its help is `_help.ts`). The matrix, the timelines and the verdicts are
 * the accept wing's own words, in `lib/accept/` (`MATRIX_WORDS`,
 * `verdict_messages.ts`); what `accept` and `proxy` both say is in
 * `lib/cli/messages/common.ts`.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** What `accept` says on stderr: a bad call, a server that did not get through initialize, a header, a variable, a report `judge` cannot read. */
export const ACCEPT_MESSAGES = {
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
  httpOracleOrOracle: {
    en:
      "give one oracle: --oracle FILE (an MCP server) or --http-oracle FILE (an HTTP API), with -- COMMAND or --url, never with --example",
    zh:
      "只能给一个 oracle：--oracle FILE（MCP 服务器）或 --http-oracle FILE（HTTP API），配合 -- COMMAND 或 --url，不能配合 --example",
  },
  openapiNeedsHttp: {
    en: "--openapi FILE goes with --http-oracle FILE",
    zh: "--openapi FILE 只能配合 --http-oracle FILE 使用",
  },
  notHttpCase: {
    en: "--cases: {got} is a case of MCP alone (an HTTP API runs: {names})",
    zh: "--cases：{got} 是 MCP 独有的用例（HTTP API 运行：{names}）",
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
  initFlags: {
    en:
      "accept init takes only --output, --timeout-ms and the server (-- COMMAND ARGS… or --url with its headers); got {flag}",
    zh:
      "accept init 只接受 --output、--timeout-ms 和服务器（-- COMMAND ARGS… 或 --url 及其请求头）；收到了 {flag}",
  },
  initNeedsServer: {
    en: "accept init needs a server: -- COMMAND ARGS… or --url URL",
    zh: "accept init 需要一个服务器：-- COMMAND ARGS… 或 --url URL",
  },
  headerNeedsUrl: {
    en:
      "--header and --header-env go with --url (a started server gets no headers)",
    zh:
      "--header 与 --header-env 只能配合 --url 使用（启动的服务器没有请求头）",
  },
  badHeader: {
    en:
      "{flag} {got}: not NAME=VALUE, with NAME a header name (letters, digits, -) and a value of one line of visible ASCII characters and spaces (a --header's value is never shown)",
    zh:
      "{flag} {got}：不是 NAME=VALUE 的形式（NAME 为请求头名：字母、数字、-；值只能是一行可见 ASCII 字符和空格）（--header 的值从不显示）",
  },
  protocolHeader: {
    en: "{flag}: {name} is a header accept sets itself",
    zh: "{flag}：{name} 是 accept 自己设置的请求头",
  },
  tooManyHeaders: {
    en: "at most {max} --header and --header-env flags",
    zh: "--header 与 --header-env 合计最多 {max} 个",
  },
  envNotGranted: {
    en:
      "--header-env {variable}: this guardlab's grant does not name that variable (the engineer grant reads GUARDLAB_HEADER_* only): name it GUARDLAB_HEADER_…, or run guardlab with a grant that names it",
    zh:
      "--header-env {variable}：当前 guardlab 的权限没有写明这个变量（工程师权限只能读取 GUARDLAB_HEADER_*）：请改名为 GUARDLAB_HEADER_…，或用写明它的权限运行 guardlab",
  },
  envUnset: {
    en: "--header-env {variable}: the variable is not set",
    zh: "--header-env {variable}：这个环境变量没有设置",
  },
  envBadValue: {
    en:
      "--header-env {variable}: its value is not one line of at most {max} visible ASCII characters and spaces, which a request can carry (the value is not shown)",
    zh:
      "--header-env {variable}：它的值不是最多 {max} 个可见 ASCII 字符和空格组成的一行，请求无法携带（不显示该值）",
  },
  baselineWord: { en: "the baseline", zh: "该基线文件" },
  judgeFlags: {
    en: "accept judge takes only REPORT.json and --json; got {flag}",
    zh: "accept judge 只接受 REPORT.json 和 --json；收到了 {flag}",
  },
  judgeNeedsReport: {
    en: "accept judge needs one report: accept judge REPORT.json",
    zh: "accept judge 需要一份报告：accept judge REPORT.json",
  },
  reportWord: {
    en: "an accept --json report",
    zh: "一份 accept --json 报告",
  },
  hostFlags: {
    en:
      "accept host takes only --url, --cases, --variant, --case-ms, --json, --junit and --otlp before -- HOSTCOMMAND…; got {flag}",
    zh:
      "accept host 在 -- HOSTCOMMAND… 之前只接受 --url、--cases、--variant、--case-ms、--json、--junit 和 --otlp；收到了 {flag}",
  },
  hostNeedsCommand: {
    en:
      "accept host needs the host's command: accept host [flags] -- HOSTCOMMAND ARGS…",
    zh: "accept host 需要宿主的命令：accept host [选项] -- HOSTCOMMAND ARGS…",
  },
  hostNeedsGrant: {
    en:
      "guardlab accept host starts the host and listens on loopback: it needs the engineer grant (-P=guardlab-engineer, or the engineer build)",
    zh:
      "guardlab accept host 要启动宿主并在回环地址上监听：需要工程师权限（-P=guardlab-engineer，或工程师版程序）",
  },
  hostUrl: {
    en:
      "accept host --url: the URL the tool listens at, http://127.0.0.1:PORT/PATH (PORT 0: one the system picks); got {got}",
    zh:
      "accept host --url：工具监听的地址，http://127.0.0.1:PORT/PATH（PORT 为 0 时由系统选择）；收到 {got}",
  },
  hostUnknownCase: {
    en:
      "--cases: {got} is not a case of accept host over {transport} (cases: {names})",
    zh:
      "--cases：{got} 不是 accept host 经由 {transport} 的用例（可用用例：{names}）",
  },
  exampleIsHost: {
    en:
      "--example {name} is an agent host, not a server: guardlab accept host --example {name}",
    zh:
      "--example {name} 是 Agent 宿主，不是服务器：请用 guardlab accept host --example {name}",
  },
  hostExampleFlags: {
    en:
      "accept host --example takes only --cases, --variant, --json, --junit and --otlp (the host runs in process: no command, no --url, no --case-ms); got {flag}",
    zh:
      "accept host --example 只接受 --cases、--variant、--json、--junit 和 --otlp（宿主在进程内运行：没有命令，也没有 --url、--case-ms）；收到了 {flag}",
  },
  inProcessTransport: { en: "http, in process", zh: "http（在进程内）" },
  hostExampleNoCommand: {
    en:
      "accept host --example runs the host in process and takes no command or other argument; got {arg}",
    zh:
      "accept host --example 在进程内运行宿主，不接受命令或其他参数；收到了 {arg}",
  },
  hostToolArgs: {
    en:
      "accept host-tool takes one folder (the one accept host writes in the host's GUARDLAB_MCP_CONFIG); it is not for use by hand",
    zh:
      "accept host-tool 只接受一个目录（accept host 写在宿主的 GUARDLAB_MCP_CONFIG 里的那个）；不供手工使用",
  },
  hostToolFailed: {
    en: "accept host-tool: cannot reach the accept host run of {dir} ({why})",
    zh: "accept host-tool：无法连接 {dir} 所属的 accept host 运行（{why}）",
  },
  hostCannotListen: {
    en: "accept host --url {url}: that port is in use; name another, or port 0",
    zh: "accept host --url {url}：该端口已被占用；请换一个，或使用端口 0",
  },
  hostCannotStart: {
    en: "the host command {command} cannot be started: {why}",
    zh: "无法启动宿主命令 {command}：{why}",
  },
} as const satisfies Record<string, Text>;

/** The screen of `accept init`: what was drafted, what was not, and what to confirm. */
export const INIT_MESSAGES = {
  initTitle: {
    en: "guardlab accept init: {server} {version}, {n} tools listed",
    zh: "guardlab accept init：{server} {version}，列出了 {n} 个工具",
  },
  initWritten: {
    en: "draft oracle written to {file} (write tools: {n})",
    zh: "oracle 草稿已写入 {file}（写入工具：{n} 个）",
  },
  initStdout: {
    en: "draft oracle on stdout (write tools: {n})",
    zh: "oracle 草稿已输出到标准输出（写入工具：{n} 个）",
  },
  initReadOnly: {
    en: "read-only (readOnlyHint: true), not drafted: {tools}",
    zh: "只读（readOnlyHint: true），未起草：{tools}",
  },
  initCountUnconfirmed: {
    en:
      "{tool}: its count is a guess init could not confirm: a read of {key}, a key no call had used, counted {n} (the read shows the key it was asked for); see guesses.count",
    zh:
      "{tool}：它的计数是 init 无法确认的猜测：读取从未用过的业务键 {key}，计数却为 {n}（读取工具会显示它被问到的业务键）；见 guesses.count",
  },
  initNoAnnotations: {
    en:
      "the server marks no tool readOnlyHint: true, so every tool was drafted as a write tool",
    zh:
      "服务器没有把任何工具标为 readOnlyHint: true，所以每个工具都按写入工具起草",
  },
  initSkipped: {
    en: "not drafted: {tool}: {why}",
    zh: "未起草：{tool}：{why}",
  },
  initGuesses: {
    en:
      "guesses to confirm (accept refuses the oracle until each is deleted from its guesses):",
    zh:
      "待确认的猜测（在 guesses 中逐项删除之前，accept 拒绝使用这个 oracle）：",
  },
  initGuess: { en: "{tool}: {fields}", zh: "{tool}：{fields}" },
  initNext: {
    en:
      "next: check each guess in the file, delete it from guesses, then run guardlab accept --oracle FILE with the same server",
    zh:
      "下一步：逐项核对文件中的猜测并从 guesses 中删除，然后对同一服务器运行 guardlab accept --oracle FILE",
  },
  initNothing: {
    en:
      "the server lists {n} tools and none could be drafted as a write tool{why}",
    zh: "服务器列出了 {n} 个工具，没有一个能起草为写入工具{why}",
  },
  initNothingWhy: { en: " ({tool}: {why})", zh: "（{tool}：{why}）" },
  initListFailed: {
    en:
      "the server's tools/list could not be read ({why}); nothing was drafted",
    zh: "无法读取服务器的 tools/list（{why}）；没有起草任何内容",
  },
  initListPartial: {
    en:
      "note: tools/list could not be read to its end ({why}): the draft holds only the tools of the pages read",
    zh: "注意：tools/list 没能读完（{why}）：草稿只含已读到的那几页中的工具",
  },
} as const;
