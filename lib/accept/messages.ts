/**
 * The accept wing's texts in both languages, one table per concern: the
 * oracle's refusals (`ORACLE_MESSAGES`), an answer's outcome and a
 * server's problems in words, the matrix (`MATRIX_WORDS`) and the
 * timeline (`TIMELINE_WORDS`), why a server was not started
 * (`START_MESSAGES`) and why a file was refused (`FILE_MESSAGES`). The
 * verdicts' texts are in `verdict_messages.ts`, the proxy's in
 * `proxy_messages.ts`, the agent's lane's in `agent_messages.ts`, CI's
 * (drafts, baselines, JUnit, judge) in `ci_messages.ts`; a command's own
 * lines and help are beside it, in `lib/cli/commands/`. The machine names
 * (cases, verdicts, outcomes) are the same in both languages and live in
 * `cases.ts` and `session.ts`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** Why an oracle file cannot be used. */
export const ORACLE_MESSAGES = {
  tooDeep: {
    en: "the oracle nests deeper than {max} levels",
    zh: "oracle 的嵌套超过 {max} 层",
  },
  notJson: {
    en: "the oracle is not JSON",
    zh: "oracle 不是 JSON",
  },
  noTools: {
    en: 'the oracle must be an object {"tools": [ … ]}',
    zh: 'oracle 必须是对象 {"tools": [ … ]}',
  },
  toolCount: {
    en: "the oracle must name from 1 to {max} write tools",
    zh: "oracle 必须列出 1 到 {max} 个写入工具",
  },
  unknownField: {
    en: "{where}: unknown field {what} (see guardlab accept --help)",
    zh: "{where}：未知字段 {what}（见 guardlab accept --help）",
  },
  notObject: {
    en: "{where} must be a JSON object",
    zh: "{where} 必须是 JSON 对象",
  },
  notName: {
    en: "{where} must be a tool name (a non-empty string)",
    zh: "{where} 必须是工具名（非空字符串）",
  },
  notToolCall: {
    en: '{where} must be {"tool": NAME, "arguments": {…}}',
    zh: '{where} 必须是 {"tool": NAME, "arguments": {…}}',
  },
  notCount: {
    en:
      '{where} must be {"text": S}, {"json": POINTER, "match": {…}} or {"number": POINTER}',
    zh:
      '{where} 必须是 {"text": S}、{"json": POINTER, "match": {…}} 或 {"number": POINTER}',
  },
  notKeyPlace: {
    en: '{where} must be "arguments", "_meta" or "idempotencyKey"',
    zh: '{where} 必须是 "arguments"、"_meta" 或 "idempotencyKey"',
  },
  placeField: {
    en: '{where} is read only with "key_in": "{what}"',
    zh: '只有 "key_in": "{what}" 时才读取 {where}',
  },
  notKeyTemplate: {
    en:
      "{where} must be the key to send: a non-empty string of at most 256 characters, without {key} (placeholders such as {run} and {n:3} are filled in)",
    zh:
      "{where} 必须是要发送的业务键：不超过 256 个字符的非空字符串，不含 {key}（其中的 {run}、{n:3} 等占位符会被填入）",
  },
  notConflict: {
    en:
      '{where} must be {"code": N} (a JSON-RPC error code) or {"json": POINTER, "value": V} (a value in the error or the tool result)',
    zh:
      '{where} 必须是 {"code": N}（JSON-RPC 错误码）或 {"json": POINTER, "value": V}（错误或工具结果中的一个值）',
  },
  notHttpConflict: {
    en: '{where} must be {"status": N}, an HTTP status from 400 to 599',
    zh: '{where} 必须是 {"status": N}，400 到 599 之间的 HTTP 状态码',
  },
  notLifetime: {
    en:
      "{where} must be the key's lifetime in ms: a whole number from 1 to a year",
    zh: "{where} 必须是业务键的保留时长（毫秒）：1 到一年之间的整数",
  },
  notPointer: {
    en: '{where} must be a JSON Pointer ("" or starting with /)',
    zh: '{where} 必须是 JSON Pointer（"" 或以 / 开头）',
  },
  keyInCall: {
    en: "{where} cannot hold {key}: the key is read from call",
    zh: "{where} 里不能出现 {key}：业务键正是从 call 中读出的",
  },
  keyNotInCall: {
    en:
      '{where}: {what} does not point at a string or number in call (in meta with key_in _meta; "" with key_in idempotencyKey)',
    zh:
      '{where}：{what} 没有指向 call 中的字符串或数字（key_in 为 _meta 时指向 meta；为 idempotencyKey 时为 ""）',
  },
  badCapture: {
    en:
      "{where} must name 1 to 8 values, each a JSON Pointer into the setup call's result, each name letters, digits or _ {what}",
    zh:
      "{where} 必须列出 1 到 8 个值，每个是指向该 setup 调用结果的 JSON Pointer，名字只含字母、数字或 _ {what}",
  },
  notCaptured: {
    en:
      "{where} uses {what}, which no setup call captures (give that setup call a capture)",
    zh:
      "{where} 用到了 {what}，但没有 setup 调用捕获它（请给那个 setup 调用加上 capture）",
  },
  setupList: {
    en: "{where} must be a list of at most {what} tool calls",
    zh: "{where} 必须是最多 {what} 个工具调用的列表",
  },
  notRefusal: {
    en:
      '{where} must be {"json": POINTER, "value": V}: the field of a result and the value it holds when the server refuses',
    zh:
      '{where} 必须是 {"json": POINTER, "value": V}：结果中的一个字段，以及服务器拒绝时它的取值',
  },
  otherCountNeeded: {
    en:
      "{where} is needed with other_call: it tells whether the other arguments took effect",
    zh: "给了 other_call 就必须给 {where}：用它判断其他参数是否生效",
  },
  otherCallNeeded: {
    en: "{where} is needed with other_count",
    zh: "给了 other_count 就必须给 {where}",
  },
  notGuesses: {
    en:
      '{where} must be {"FIELD": "why it was guessed", …} (a note of at most 1000 characters each)',
    zh: '{where} 必须是 {"FIELD": "为何这样猜", …}（每条说明最多 1000 个字符）',
  },
  unconfirmed: {
    en:
      "unconfirmed guesses of accept init: {list}; check each field, then delete its entry from guesses",
    zh:
      "还有 accept init 未确认的猜测：{list}；请逐项核对该字段，再从 guesses 中删除这一项",
  },
} as const satisfies Record<string, Text>;

/** Why an HTTP oracle, or the OpenAPI document beside it, cannot be used. */
export const HTTP_ORACLE_MESSAGES = {
  noEndpoints: {
    en: 'the HTTP oracle must be an object {"endpoints": [ … ]}',
    zh: 'HTTP oracle 必须是对象 {"endpoints": [ … ]}',
  },
  endpointCount: {
    en: "the HTTP oracle must name from 1 to {max} endpoints",
    zh: "HTTP oracle 必须列出 1 到 {max} 个端点",
  },
  notHeader: {
    en:
      "{where} must be a header name (letters, digits, -; at most 64) that guardlab does not send itself",
    zh:
      "{where} 必须是 guardlab 自己不发送的请求头名称（字母、数字、-；最多 64 个字符）",
  },
  methodOrOperation: {
    en:
      '{where} needs either "method" and "path", or "operation" (with --openapi)',
    zh: '{where} 需要 "method" 与 "path"，或者 "operation"（配合 --openapi）',
  },
  noOpenapi: {
    en:
      "{where} names an OpenAPI operation: give the document with --openapi FILE",
    zh: "{where} 引用了 OpenAPI 操作：请用 --openapi FILE 给出该文档",
  },
  unknownOperation: {
    en:
      '{where}: the OpenAPI document has no operation {what} (an operationId, or "METHOD /path")',
    zh:
      '{where}：OpenAPI 文档中没有操作 {what}（operationId，或 "METHOD /path"）',
  },
  pathParamsNeedOperation: {
    en: "{where} is read only with an OpenAPI operation",
    zh: "只有引用 OpenAPI 操作时才读取 {where}",
  },
  pathParamMissing: {
    en: "{where} must give the path parameter {what} (a string or a number)",
    zh: "{where} 必须给出路径参数 {what}（字符串或数字）",
  },
  notMethod: {
    en: "{where} must be POST, PUT, PATCH or DELETE",
    zh: "{where} 必须是 POST、PUT、PATCH 或 DELETE",
  },
  notPath: {
    en:
      "{where} must be a path on the API's own origin: it starts with one /, holds no space or backslash, at most 2048 characters",
    zh:
      "{where} 必须是 API 自身源上的路径：以一个 / 开头，不含空白或反斜杠，最多 2048 个字符",
  },
  notRead: {
    en: '{where} must be {"path": PATH, "count": COUNT}, a GET on the API',
    zh: '{where} 必须是 {"path": PATH, "count": COUNT}，即对 API 的一次 GET',
  },
  otherPair: {
    en: "{where} is needed too: other_body and other_count go together",
    zh: "还需要 {where}：other_body 与 other_count 必须同时给出",
  },
  notOpenapi: {
    en:
      'the OpenAPI document must be JSON with "paths", at most 4 MiB and 64 levels deep',
    zh: 'OpenAPI 文档必须是带有 "paths" 的 JSON，最多 4 MiB、64 层',
  },
  openapiNotJson: {
    en:
      "the OpenAPI document is not JSON (guardlab reads JSON only: convert a YAML document first)",
    zh:
      "OpenAPI 文档不是 JSON（guardlab 只读取 JSON：请先把 YAML 文档转换过来）",
  },
} as const satisfies Record<string, Text>;

/** What the client saw, per outcome. */
export const OUTCOME_WORD = {
  "success": { en: "success", zh: "成功" },
  "tool-error": { en: "error (isError)", zh: "错误（isError）" },
  "marked-refusal": {
    en: "refused (oracle's mark)",
    zh: "拒绝（oracle 的标记）",
  },
  "rpc-error": { en: "JSON-RPC error", zh: "JSON-RPC 错误" },
  "http-error": { en: "HTTP error", zh: "HTTP 错误" },
  "no-answer": { en: "no answer", zh: "无应答" },
  "closed": { en: "server gone", zh: "服务器已退出" },
} as const satisfies Record<string, Text>;

/** What the server did wrong, per problem. */
export const PROBLEM_WORD = {
  "answered-twice": {
    en: "answered id {id} twice",
    zh: "对 id {id} 应答了两次",
  },
  "unknown-id": {
    en: "answered id {id}, which was never sent",
    zh: "应答了从未发送过的 id {id}",
  },
  "not-json": {
    en: "wrote a line that is not JSON to stdout",
    zh: "向标准输出写了一行不是 JSON 的内容",
  },
  "too-long": {
    en: "sent a message over {max} bytes (discarded unread)",
    zh: "发送了超过 {max} 字节的消息（未读取即丢弃）",
  },
  "not-message": {
    en: "sent JSON that is not a JSON-RPC message",
    zh: "发送了不是 JSON-RPC 消息的 JSON",
  },
  "flood": {
    en:
      "sent more than {messages} lines or {mib} MiB while guardlab waited for one answer: read no further, and ended",
    zh:
      "在 guardlab 等待一个应答期间发送了超过 {messages} 行或 {mib} MiB：不再读取，并结束了它",
  },
} as const satisfies Record<string, Text>;

/** The words of the matrix: its title, notes, heads, cells, summary and exit lines. */
export const MATRIX_WORDS = {
  title: {
    en: "guardlab accept: {server} {version}",
    zh: "guardlab accept：{server} {version}",
  },
  grantNote: {
    en:
      "the server ran with your own rights: Deno's sandbox covers guardlab, not the server",
    zh: "服务器以你自己的权限运行：Deno 沙箱只约束 guardlab，不约束服务器",
  },
  exampleNote: {
    en: "example server {name}, run inside guardlab (nothing was started)",
    zh: "示例服务器 {name}，在 guardlab 进程内运行（没有启动任何程序）",
  },
  writeTool: { en: "write tool {tool}", zh: "写入工具 {tool}" },
  writeToolEntry: {
    en: "write tool {tool} (entry {entry} of the oracle)",
    zh: "写入工具 {tool}（oracle 第 {entry} 项）",
  },
  unlisted: {
    en: "note: the server does not list {tools}",
    zh: "注意：服务器的工具列表中没有 {tools}",
  },
  listFailed: {
    en:
      "note: tools/list could not be read to its end ({why}): the hints of a tool it did not name are unknown",
    zh: "注意：tools/list 没能读完（{why}）：它没有列出的工具，其提示未知",
  },
  listNoAnswer: {
    en: "no answer within the wait, or one past the message bound",
    zh: "等待时间内没有应答，或应答超出消息上限",
  },
  listError: { en: "it answered an error", zh: "它应答了错误" },
  listNotAList: {
    en: "its answer holds no list of tools",
    zh: "它的应答里没有工具列表",
  },
  headCase: { en: "case", zh: "用例" },
  headSaw: { en: "client saw", zh: "客户端看到" },
  headEffect: { en: "effect", zh: "效果" },
  headVerdict: { en: "verdict", zh: "结论" },
  then: { en: ", then ", zh: "，然后" },
  sawSep: { en: ", ", zh: "，" },
  times: { en: "{n}× {what}", zh: "{n} 次{what}" },
  effectOf: { en: "{kept} of {n}", zh: "保留 {kept}/{n}" },
  // No closing bracket in Chinese: the column after it is set off by spaces.
  effectBefore: { en: "{n} ({before} before)", zh: "{n}，之前 {before}" },
  effectOther: { en: "{n} (other {other})", zh: "{n}，其他 {other}" },
  unknown: { en: "?", zh: "?" },
  article: { en: "article: {sentence}", zh: "文章：{sentence}" },
  info: { en: "also: {verdict}: {meaning}", zh: "另外：{verdict}：{meaning}" },
  problems: { en: "the server {problems}", zh: "服务器{problems}" },
  problemSep: { en: "; ", zh: "；" },
  startup: {
    en: "note: before the first case, {problems} (ignored)",
    zh: "注意：在第一个用例之前，{problems}（已忽略）",
  },
  summary: {
    en:
      "cases run: {cases}; safe {safe}, unsafe {unsafe}, inconclusive {inconclusive}, information {info}",
    zh:
      "已运行用例 {cases} 个：安全 {safe}，不安全 {unsafe}，无法判断 {inconclusive}，提示 {info}",
  },

  exitUnsafe: {
    en: "exit 5: at least one verdict is unsafe",
    zh: "退出码 5：至少一个结论不安全",
  },
  exitInconclusive: {
    en: "exit 6: no unsafe verdict, but at least one case could not be judged",
    zh: "退出码 6：没有不安全的结论，但至少一个用例无法判断",
  },
  timelineOf: {
    en: "timeline of {case} ({tool}, key {key})",
    zh: "{case} 的时间线（{tool}，业务键 {key}）",
  },
} as const satisfies Record<string, Text>;

/** The words of a timeline, lane by lane. */
export const TIMELINE_WORDS = {
  laneAgent: { en: "agent", zh: "Agent" },
  laneClient: { en: "client", zh: "客户端" },
  laneGuardlab: { en: "guardlab", zh: "guardlab" },
  laneServer: { en: "server", zh: "服务器" },
  one: { en: "call {n}", zh: "调用 {n}" },
  many: { en: "calls {from}–{to}", zh: "调用 {from}–{to}" },
  sent: { en: "sends {calls}", zh: "发送{calls}" },
  retried: {
    en: "retries: {calls}, same arguments",
    zh: "重试：{calls}，参数相同",
  },
  forwarded: { en: "forwards {calls}", zh: "转发{calls}" },
  answered: { en: "answers {calls}: {outcome}", zh: "应答{calls}：{outcome}" },
  delivered: {
    en: "delivers {calls}: {outcome}",
    zh: "交付{calls}：{outcome}",
  },
  withheld: { en: "withholds the answer to {calls}", zh: "扣下{calls} 的应答" },
  gaveUp: {
    en: "no answer to {calls}: gives up",
    zh: "{calls} 没有应答：放弃等待",
  },
  cancelled: { en: "cancels {calls}", zh: "取消{calls}" },
  read: {
    en: "asks the read tool: effect {count}",
    zh: "询问读取工具：效果 {count}",
  },
  readMany: {
    en: "asks the read tool for {n} keys: effect {count} each",
    zh: "按 {n} 个业务键询问读取工具：各为 {count}",
  },
  waited: {
    en: "waits {ms} ms, inside the key's stated lifetime",
    zh: "等待 {ms} ms，仍在业务键声明的保留期内",
  },
  readFailed: {
    en: "asks the read tool: cannot count",
    zh: "询问读取工具：无从计数",
  },
  readPolled: {
    // It stops at the answer too: an effect of 0 here is what the read saw
    // once the answer was in, not an effect that showed.
    en: "reads until the effect shows or the answer is in: effect {count}",
    zh: "反复读取直到看到效果或应答到达：效果 {count}",
  },
  answeredText: {
    en: "answers {calls}: {outcome}: “{text}”",
    zh: "应答{calls}：{outcome}：“{text}”",
  },
  tooLate: {
    en: "the answer to {calls} came first: no cancel sent",
    zh: "{calls} 的应答先到：没有发送取消",
  },
  started: { en: "starts process {n}", zh: "启动进程 {n}" },
  killed: {
    en: "kills process {n} and its group (SIGKILL)",
    zh: "强制终止进程 {n} 及其进程组（SIGKILL）",
  },
  closed: { en: "closes process {n}", zh: "关闭进程 {n}" },
  onProcess: { en: "{text} (process {n})", zh: "{text}（进程 {n}）" },
  notice: {
    en: "a body on a notification's answer: discarded",
    zh: "通知的应答带有正文：已丢弃",
  },
  setup: { en: "setup call: {outcome}", zh: "准备调用：{outcome}" },
  exited: { en: "exits", zh: "退出" },
  visible: {
    en: "--- effect visible to the read tool by here: {count} ",
    zh: "--- 至此读取工具已能看到效果：{count} ",
  },
  none: { en: "(no steps)", zh: "（没有步骤）" },
} as const satisfies Record<string, Text>;

/** Why a server was not started, or an oracle not read: the grant, the program, the file. */
export const START_MESSAGES = {
  notFound: {
    en: "cannot start {command}: no such program",
    zh: "无法启动 {command}：没有这个程序",
  },
  cannotStart: {
    en: "cannot start {command}: {why}",
    zh: "无法启动 {command}：{why}",
  },
  needsGrant: {
    en:
      "{command} needs the engineer grant to start a server (-P=guardlab-engineer: run, loopback net, the child's env); this guardlab has the student grant (temp folder only). Try guardlab accept --example NAME",
    zh:
      "{command} 需要工程师权限才能启动服务器（-P=guardlab-engineer：run、仅回环网络、子进程所需环境变量）；当前 guardlab 只有学生权限（仅临时目录）。可以先试 guardlab accept --example NAME",
  },
  badOracle: { en: "{file}: {why}", zh: "{file}：{why}" },
  apiExited: {
    en: "the HTTP API {command} exited before its port took a connection{tail}",
    zh: "HTTP API {command} 在其端口接受连接之前就退出了{tail}",
  },
  apiNoPort: {
    en:
      "the HTTP API {command} took no connection on the port guardlab gave it (PORT, or {port} in its arguments) within {ms} ms{tail}",
    zh:
      "HTTP API {command} 在 {ms} ms 内没有在 guardlab 分配的端口（PORT 环境变量，或参数中的 {port}）上接受连接{tail}",
  },
  apiTail: { en: "; its last line: {line}", zh: "；它的最后一行输出：{line}" },
  hostNotGranted: {
    en:
      "{command} --url {host}: this guardlab's grant reaches this machine's loopback only (127.0.0.1, localhost, [::1]); to test another host on purpose, run guardlab with a grant that names it (see docs/en/08-accept-your-own-tool.md, a staging host)",
    zh:
      "{command} --url {host}：当前 guardlab 的权限只能访问本机回环地址（127.0.0.1、localhost、[::1]）；如果确实要测试其他主机，请用写明该主机的权限运行 guardlab（见 docs/zh/08-accept-your-own-tool.md 的预发布主机一节）",
  },
} as const satisfies Record<string, Text>;

/** Why a file accept or proxy reads or writes was refused: its size, its folder, its name (a new file's taken name: `sandbox/new_file.ts`). */
export const FILE_MESSAGES = {
  fileTooBig: {
    en: "{file} is larger than {max} bytes; not read",
    zh: "{file} 超过 {max} 字节；没有读取",
  },
  recordFolder: {
    en: "is in {folder}, which {problem}",
    zh: "所在目录 {folder} {problem}",
  },
  recordFolderRemedy: {
    en: "keep a record in a folder of your own (mkdir -m 700 DIR)",
    zh: "请把记录放在你自己的目录里（mkdir -m 700 DIR）",
  },
  recordExists: {
    en:
      "and its 99 numbered names exist already (a record is always a new file)",
    zh: "及其 99 个编号名称都已存在（记录总是写入新文件）",
  },
  recordExistsRemedy: { en: "give a new name", zh: "请换一个新名字" },
} as const satisfies Record<string, Text>;
