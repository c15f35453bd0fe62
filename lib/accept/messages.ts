/**
 * Every human-facing text of `accept` and `proxy`, in both languages: the
 * oracle's refusals, the verdicts and what each means, the words of the
 * matrix and the timeline, the one-line failures. The machine names
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
    en: '{where} must be {"text": S} or {"json": POINTER, "match": {…}}',
    zh: '{where} 必须是 {"text": S} 或 {"json": POINTER, "match": {…}}',
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
    en: "{where}: {what} does not point at a string or number in call",
    zh: "{where}：{what} 没有指向 call 中的字符串或数字",
  },
  setupList: {
    en: "{where} must be a list of at most {what} tool calls",
    zh: "{where} 必须是最多 {what} 个工具调用的列表",
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

/** What each verdict means for the engineer about to hand the tool to an agent. */
export const VERDICT_MEANING = {
  "ONCE": {
    en:
      "exactly one effect for the key: all the case's calls together left one",
    zh: "该业务键恰好一个效果：本用例的所有调用合起来只留下一个",
  },
  "NONE": {
    en: "no effect for the key, though the call was valid",
    zh: "该业务键没有任何效果，而调用本身是有效的",
  },
  "DUPLICATED": {
    en: "more than one effect for one key: a retry or a copy wrote again",
    zh: "同一业务键出现多个效果：重试或重复投递又写了一次",
  },
  "NO-EFFECT": {
    en: "the bad call left no effect",
    zh: "错误调用没有留下效果",
  },
  "EFFECT-DESPITE-REJECTION": {
    en:
      "the bad call was refused, but its effect is there: the check ran after the write",
    zh: "错误调用被拒绝，效果却已存在：检查在写入之后才运行",
  },
  "FALSE-FAILURE": {
    en: "the client was told the call failed, yet its effect exists",
    zh: "客户端被告知调用失败，而效果其实存在",
  },
  "EFFECT-DESPITE-CANCEL": {
    en:
      "the effect was there after the cancel: a cancel does not undo a committed write",
    zh: "取消之后效果仍在：取消撤销不了已提交的写入",
  },
  "ALL-KEPT": {
    en: "every one of the concurrent calls was kept",
    zh: "并发调用的效果全部保留",
  },
  "LOST": {
    en:
      "concurrent calls were each answered, but only some were kept: lost updates",
    zh: "并发调用都得到了应答，却只保留了一部分：更新丢失",
  },
  "CONFLICT-REPORTED": {
    en:
      "the same key with other arguments was refused, and the first effect stands",
    zh: "同一业务键换参数被拒绝，第一次的效果保持不变",
  },
  "SILENT-CONFLICT": {
    en:
      "the same key with other arguments was answered as a success, but the new arguments took no effect",
    zh: "同一业务键换参数得到成功应答，新参数却没有生效",
  },
  "OVERWRITTEN": {
    en:
      "the other arguments took effect under the same key (replaced or added beside the first)",
    zh: "其他参数在同一业务键下生效了（替换了第一次的结果，或与它并存）",
  },
  "NO-ANSWER": {
    en:
      "the server did not answer within the wait: nothing can be said about the effect",
    zh: "服务器在等待时限内没有应答：无法判断效果",
  },
  "SERVER-EXITED": {
    en:
      "the server exited during the case: nothing can be said about the effect",
    zh: "服务器在本用例中退出：无法判断效果",
  },
  "PROTOCOL-VIOLATION": {
    en:
      "the server broke JSON-RPC during the case (see its problems): a client cannot trust its answers",
    zh: "服务器在本用例中违反了 JSON-RPC（见问题列表）：客户端无法信任它的应答",
  },
  "READ-FAILED": {
    en:
      "the read tool failed or its result had nothing to count: the effect is unknown",
    zh: "读取工具失败，或结果中无从计数：效果不明",
  },
  "SETUP-FAILED": {
    en: "a setup call failed, so the case was not run",
    zh: "准备调用失败，本用例没有运行",
  },
  "NOT-RUN": {
    en: "not run: the oracle gives no arguments for this case",
    zh: "未运行：oracle 没有给出本用例所需的参数",
  },
} as const satisfies Record<string, Text>;

/** The sentence of the article each verdict tests (its Chinese is the article's own). */
export const VERDICT_ARTICLE = {
  "ONCE": {
    en: "same key, same arguments: the old draft is read back",
    zh: "同键、同参数会读回旧草稿",
  },
  "NONE": {
    en: "no exception does not mean a receipt was written",
    zh: "没有抛异常，也未必写入了回执",
  },
  "DUPLICATED": {
    en: "sending again on a timeout alone may duplicate the effect",
    zh: "仅凭一个超时异常就再次发送，可能造成重复效果",
  },
  "NO-EFFECT": {
    en: "a refusal returns before the business call",
    zh: "拒绝时返回，不进入正常业务调用",
  },
  "EFFECT-DESPITE-REJECTION": {
    en: "when the exception came, the function had already written",
    zh: "异常发生时，函数已经做完了写入",
  },
  "FALSE-FAILURE": {
    en: "the same error status: once with no row, once with a row",
    zh: "相同 error 状态，一次没有行，一次有行",
  },
  "EFFECT-DESPITE-CANCEL": {
    en: "wait for the commit, cancel, then check that the row is still there",
    zh: "等待业务提交后，在协程等待点真正发送取消，再检查行仍存在",
  },
  "ALL-KEPT": {
    en: "the guarantee covers serial calls only",
    zh: "保证只适用于保留这份数据库、沿用同一 job、串行调用本程序的范围",
  },
  "LOST": {
    en: "it did not prove throughput or recovery under concurrent requests",
    zh: "它也没有证明并发请求下的生产吞吐与故障恢复",
  },
  "CONFLICT-REPORTED": {
    en: "same key, other arguments: key_conflict",
    zh: "同键换参数则报 key_conflict",
  },
  "SILENT-CONFLICT": {
    en: "same key, other arguments: key_conflict",
    zh: "同键换参数则报 key_conflict",
  },
  "OVERWRITTEN": {
    en: "same key, other arguments: key_conflict",
    zh: "同键换参数则报 key_conflict",
  },
  "NO-ANSWER": {
    en: "after a timeout, query by the stable business key first",
    zh: "应先按稳定业务键查询、对账或使用对方的幂等能力",
  },
  "SERVER-EXITED": {
    en: "an unknown result: record the key to check and reconcile",
    zh: "正式系统遇到未知结果时，应记录待核对的业务键并对账",
  },
  "PROTOCOL-VIOLATION": {
    en: "a check that threw has reached no conclusion",
    zh: "检查函数抛异常，代表没有顺利得到结论",
  },
  "READ-FAILED": {
    en: "a missing receipt is no proof that nothing happened",
    zh: "不能把缺回执解释为没有发生",
  },
  "SETUP-FAILED": {
    en: "mark the commit point of every step first",
    zh: "先给每个步骤标出提交点",
  },
  "NOT-RUN": {
    en:
      "accept refusals, check errors, call errors, cancels and retries one by one",
    zh: "再分别验收拒绝、检查异常、调用异常、取消与重试",
  },
} as const satisfies Record<string, Text>;

/** What the client saw, per outcome. */
export const OUTCOME_WORD = {
  "success": { en: "success", zh: "成功" },
  "tool-error": { en: "error (isError)", zh: "错误（isError）" },
  "rpc-error": { en: "JSON-RPC error", zh: "JSON-RPC 错误" },
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
} as const satisfies Record<string, Text>;

/** The words of the matrix and the one-line outcomes of `accept`. */
export const ACCEPT_MESSAGES = {
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
  headCase: { en: "case", zh: "用例" },
  headSaw: { en: "client saw", zh: "客户端看到" },
  headEffect: { en: "effect", zh: "效果" },
  headVerdict: { en: "verdict", zh: "结论" },
  then: { en: ", then ", zh: "，然后" },
  times: { en: "{n}× {what}", zh: "{n} 次{what}" },
  effectOf: { en: "{kept} of {n}", zh: "保留 {kept}/{n}" },
  effectBefore: { en: "{n} ({before} before)", zh: "{n}（之前 {before}）" },
  effectOther: { en: "{n} (other {other})", zh: "{n}（其他 {other}）" },
  unknown: { en: "?", zh: "?" },
  article: { en: "article: {sentence}", zh: "文章：{sentence}" },
  info: { en: "also: {verdict}: {meaning}", zh: "另外：{verdict}：{meaning}" },
  problems: { en: "the server {problems}", zh: "服务器{problems}" },
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
  badOracle: { en: "{file}: {why}", zh: "{file}：{why}" },
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
  readFailed: {
    en: "asks the read tool: cannot count",
    zh: "询问读取工具：无从计数",
  },
  setup: { en: "setup call: {outcome}", zh: "准备调用：{outcome}" },
  exited: { en: "exits", zh: "退出" },
  visible: {
    en: "--- effect visible to the read tool by here: {count} ",
    zh: "--- 至此读取工具已能看到效果：{count} ",
  },
  none: { en: "(no steps)", zh: "（没有步骤）" },
} as const satisfies Record<string, Text>;
