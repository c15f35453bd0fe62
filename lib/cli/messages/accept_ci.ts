/**
 * What `guardlab accept` says where engineers run it on every commit: the
 * help of `accept init`, `--junit`, `--baseline`, `--header` and
 * `--header-env`, and their one-line refusals and notes.
 *
 * @module
 */
import type { Text } from "../../base/i18n.ts";

/** The help of the flags for CI, drafts and headers. */
export const ACCEPT_CI_HELP = {
  output: {
    en:
      "init: write the draft oracle to this new file (never over an existing one; default: stdout)",
    zh:
      "init：把 oracle 草稿写入这个新文件（从不覆盖已有文件；默认：标准输出）",
  },
  junit: {
    en:
      "also write the matrix as JUnit XML to this new file: a failure per unsafe verdict, an error per case not judged, skipped for NOT-RUN and for what the baseline excused",
    zh:
      "同时把矩阵以 JUnit XML 写入这个新文件：不安全的结论记为 failure，无法判断的用例记为 error，NOT-RUN 和被基线豁免的记为 skipped",
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
      "refused: a file outside the sandbox, a link, a file over its bound, a name that exists (--output, --junit), a variable or host the grant does not name, or a grant this guardlab lacks",
    zh:
      "拒绝：文件在沙箱之外、是链接、超过大小上限、名字已存在（--output、--junit），权限没有写明的变量或主机，或当前 guardlab 缺少所需权限",
  },
} as const satisfies Record<string, Text>;

/** The one-line refusals and the screen of `accept init`. */
export const ACCEPT_CI_MESSAGES = {
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
      "{flag} {got}: not NAME=VALUE, with NAME a header name (letters, digits, -) and a value of one line (a --header's value is never shown)",
    zh:
      "{flag} {got}：不是 NAME=VALUE 的形式（NAME 为请求头名：字母、数字、-；值只能一行）（--header 的值从不显示）",
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
      "--header-env {variable}: its value is not one line of at most {max} bytes (the value is not shown)",
    zh:
      "--header-env {variable}：它的值不是最多 {max} 字节的一行（不显示该值）",
  },
  baselineWord: { en: "the baseline", zh: "该基线文件" },
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
