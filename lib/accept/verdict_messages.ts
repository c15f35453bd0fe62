/**
 * The texts of every verdict, in both languages, stated once: what it
 * means for the engineer about to hand the tool to an agent, the sentence
 * of the article it tests (its Chinese is the article's own), why a case
 * tested nothing, and the facts a row shows beside its verdict. The names
 * and classes are in `cases.ts`; each table here is checked against them
 * by its type, so a verdict without its texts does not compile.
 *
 * @module
 */
import {
  HOST_VERDICT_ARTICLE,
  HOST_VERDICT_MEANING,
} from "./_host_verdict_messages.ts";
import type { Text } from "../base/i18n.ts";
import type { Verdict } from "./cases.ts";
import type { NotRunReason } from "./run.ts";
import type { NoticeKind } from "./session.ts";

/** What each verdict means for the engineer about to hand the tool to an agent. */
export const VERDICT_MEANING = {
  "ONCE": {
    en:
      "exactly one effect for the key: all the case's calls together left one",
    zh: "该业务键恰好一个效果：本用例的所有调用合起来只留下一个",
  },
  "ONCE-AFTER-CONFLICT": {
    en:
      "one effect: the copies sent while the first was in flight got the conflict the oracle declares retryable, and a retry after it got the result",
    zh:
      "只有一个效果：第一次仍在处理时发出的副本收到了 oracle 声明为可重试的冲突，之后的重试拿到了结果",
  },
  "REPLAYED": {
    en:
      "one effect, and the repeat got the first answer back as it was: the stored result",
    zh: "只有一个效果，重复的调用原样拿回了第一次的应答：保存下来的结果",
  },
  "NONE": {
    // In crash-after-commit the retry may have made one since: the row
    // says so, and this stays true.
    en: "a valid call left no effect under its key",
    zh: "有效的调用没有在它的业务键下留下效果",
  },
  "DUPLICATED": {
    en:
      "more than one effect for one key: a retry, a copy or other arguments wrote again beside the first",
    zh:
      "同一业务键出现多个效果：重试、重复投递或其他参数又写了一次，与第一次并存",
  },
  "NO-EFFECT": {
    en: "the bad call was refused and left no effect",
    zh: "错误调用被拒绝，也没有留下效果",
  },
  "EFFECT-DESPITE-REJECTION": {
    en:
      "the bad call was refused, but its effect is there: the check ran after the write",
    zh: "错误调用被拒绝，效果却已存在：检查在写入之后才运行",
  },
  "ACCEPTED-BAD-CALL": {
    en:
      "the bad call was answered as a success and took effect: the tool takes arguments it should refuse",
    zh: "错误调用得到成功应答并产生了效果：工具接受了本应拒绝的参数",
  },
  "REFUSAL-AS-SUCCESS": {
    en:
      "the bad call left no effect, but its answer has no isError: a host reads it as a success, whatever its words say (the server's words below)",
    zh:
      "错误调用没有留下效果，但它的应答没有 isError：无论文字怎么说，宿主都会把它当作成功（服务器原话见下）",
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
  "CANCEL-TOO-LATE": {
    en:
      "the answer came before the cancel could be sent: this run tested no cancel",
    zh: "应答在取消发出之前就到了：本次运行没有测到取消",
  },
  "ALL-KEPT": {
    en: "every one of the calls made at once was answered success and kept",
    zh: "同时发出的调用全部得到成功应答，效果全部保留",
  },
  "LOST": {
    en:
      "calls made at once were answered success, but not all were kept: lost updates",
    zh: "同时发出的调用得到了成功应答，效果却没有全部保留：更新丢失",
  },
  "SOME-REFUSED": {
    en:
      "some calls made at once were refused with an error and left no effect; every call answered success was kept: the client knows which to send again",
    zh:
      "部分同时发出的调用以错误被拒绝，也没有留下效果；得到成功应答的调用全部保留：客户端知道该重发哪些",
  },
  "LOST-ON-RESTART": {
    en:
      "the effect the read tool saw before the kill was gone after the restart: what the server showed was not yet stored",
    zh:
      "强制终止前读取工具看到的效果，重启后不见了：服务器展示的内容当时还没有保存下来",
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
      "the other arguments replaced the first effect under the same key: the old one is gone, the new one took its place",
    zh: "其他参数在同一业务键下替换了第一次的效果：旧的已不存在，新的取而代之",
  },
  "ERROR-REPLAYED": {
    en:
      "the call answered with an error was sent again: the same error came back, and the effect did not change",
    zh: "以错误应答的调用再发一次：拿回了同一个错误，效果没有变化",
  },
  "ERROR-RE-RUN": {
    en:
      "the call answered with an error was sent again: the same answer came back, yet the call ran again behind it (a second effect)",
    zh:
      "以错误应答的调用再发一次：拿回的应答相同，背后却又执行了一次（第二个效果）",
  },
  "ERROR-NOT-STORED": {
    en:
      "the call answered with an error after its write was sent again, and ran again as a new call: another answer, a second effect (the error was not stored)",
    zh:
      "写入之后以错误应答的调用再发一次，被当作新调用又执行了一次：应答不同，出现第二个效果（错误没有被保存）",
  },
  "ERROR-NOT-REPLAYED": {
    en:
      "the call answered with an error was sent again and got another answer, with no second effect: the error was not stored, and no harm came of it here",
    zh:
      "以错误应答的调用再发一次，得到了不同的应答，但没有第二个效果：错误没有被保存，这里也没有造成损害",
  },
  "KEY-REQUIRED": {
    en: "a call without its key was refused and left no effect",
    zh: "缺少业务键的调用被拒绝，也没有留下效果",
  },
  "KEY-NOT-REQUIRED": {
    en:
      "a call without its key was processed: a retry of such a call cannot be told from a new one",
    zh: "缺少业务键的调用被照常处理：这样的调用重试时无法与新调用区分",
  },
  "KEY-KEPT": {
    en: "a retry inside the key's stated lifetime was reused: one effect",
    zh: "在业务键声明的保留期内重试，被复用：只有一个效果",
  },
  "KEY-FORGOTTEN": {
    en:
      "a retry inside the key's stated lifetime wrote again: the key was forgotten before the lifetime the server states",
    zh:
      "在业务键声明的保留期内重试，又写入了一次：业务键在服务器声明的期限之前就被遗忘了",
  },
  "OTHER-STATUS": {
    en:
      "refused as the draft asks, but with another HTTP status than the draft's: a client written to the draft reads it otherwise",
    zh:
      "按草案的要求拒绝了，但 HTTP 状态码与草案规定的不同：按草案编写的客户端会作出不同的理解",
  },
  "ANNOTATION-CONTRADICTED": {
    en:
      "a hint the tool declares in tools/list is contradicted by what it did: a host that trusts the hint (and retries because the tool says it is idempotent) is misled",
    zh:
      "工具在 tools/list 中声明的提示与它的实际行为相矛盾：相信这个提示的宿主（因为工具声称幂等而重试）会被误导",
  },
  "HINTS-HOLD": {
    en: "no hint the tool declares is contradicted by what this run saw",
    zh: "本次运行看到的行为与工具声明的提示没有矛盾",
  },
  "NOTHING-PROMISED": {
    en:
      "the tool's hints promise nothing a host could rely on (no idempotentHint: true, readOnlyHint: true or destructiveHint: false): a host has to assume a retry may duplicate",
    zh:
      "工具的提示没有做出宿主可以依赖的承诺（没有 idempotentHint: true、readOnlyHint: true 或 destructiveHint: false）：宿主只能假定重试可能造成重复",
  },
  "READ-HINT-MISSING": {
    en:
      "the read tool does not declare readOnlyHint: true: a host cannot tell that it changes nothing",
    zh: "读取工具没有声明 readOnlyHint: true：宿主无从得知它不会改动任何东西",
  },
  "NO-ANSWER": {
    en:
      "the server did not answer within the wait, or its answer was past what guardlab reads: nothing can be said about the effect",
    zh:
      "服务器在等待时限内没有应答，或应答超出了 guardlab 读取的上限：无法判断效果",
  },
  "SERVER-EXITED": {
    en:
      "the server exited during the case, or one the case started did not get through initialize: nothing can be said about the effect",
    zh:
      "服务器在本用例中退出，或本用例启动的服务器没能完成 initialize：无法判断效果",
  },
  "PROTOCOL-VIOLATION": {
    en:
      "the server broke JSON-RPC during the case (see its problems): a client cannot trust its answers",
    zh: "服务器在本用例中违反了 JSON-RPC（见问题列表）：客户端无法信任它的应答",
  },
  "READ-FAILED": {
    en:
      "the read tool failed, its result had nothing to count, or the oracle's two counts contradict each other: the effect is unknown",
    zh: "读取工具失败、结果中无从计数，或 oracle 的两种计数互相矛盾：效果不明",
  },
  "NOT-JUDGED": {
    en:
      "before any call, the read already counted a key no call had used: its count cannot tell an effect, so nothing is judged",
    zh:
      "在任何调用之前，读取就已经数到了一个从未用过的业务键：这个计数分辨不出效果，因此不作判定",
  },
  "SETUP-FAILED": {
    en: "a setup call failed, so the case was not run",
    zh: "准备调用失败，本用例没有运行",
  },
  "NOT-RUN": {
    en: "not run: this case tested nothing",
    zh: "未运行：本用例什么也没有测",
  },
  ...HOST_VERDICT_MEANING,
} as const satisfies Record<Verdict, Text>;

/** The sentence of the article each verdict tests (its Chinese is the article's own). */
export const VERDICT_ARTICLE = {
  "ONCE": {
    en: "same key, same arguments: the old draft is read back",
    zh: "同键、同参数会读回旧草稿",
  },
  "ONCE-AFTER-CONFLICT": {
    en:
      "retried with the original job and arguments, it reuses the existing draft and checks the output again: in the end one draft and one receipt",
    zh:
      "以原 job 和原参数重试，复用已有草稿并重新检查输出，最终只有 1 条草稿和 1 条回执",
  },
  "REPLAYED": {
    en:
      "the third time, retried with the same arguments, it reuses the row and checks the output again",
    zh: "第三次用相同参数重试，复用原行并重新检查输出",
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
  "ACCEPTED-BAD-CALL": {
    en: "extra fields in the input, such as skip_checks, are refused outright",
    zh: "输入里的 skip_checks 等额外字段会直接被拒绝",
  },
  "REFUSAL-AS-SUCCESS": {
    en: "a receipt that says it succeeded without a row is a lie",
    zh: "没有那一行却写着“成功”的回执是在说谎",
  },
  "FALSE-FAILURE": {
    en: "the same error status: once with no row, once with a row",
    zh: "相同 error 状态，一次没有行，一次有行",
  },
  "EFFECT-DESPITE-CANCEL": {
    en: "wait for the commit, cancel, then check that the row is still there",
    zh: "等待业务提交后，在协程等待点真正发送取消，再检查行仍存在",
  },
  "CANCEL-TOO-LATE": {
    en:
      "it did not test how the SDK, a network request or a remote service cancels",
    zh: "它没有验证 SDK、网络请求或远端服务的取消行为",
  },
  "ALL-KEPT": {
    en: "the guarantee covers serial calls only",
    zh: "保证只适用于保留这份数据库、沿用同一 job、串行调用本程序的范围",
  },
  "LOST": {
    en: "it did not prove throughput or recovery under concurrent requests",
    zh: "它也没有证明并发请求下的生产吞吐与故障恢复",
  },
  "SOME-REFUSED": {
    en: "a check that plainly refuses has reached a negative conclusion",
    zh: "检查明确返回拒绝，代表拿到了否定结论",
  },
  "LOST-ON-RESTART": {
    en:
      "a killed process, a damaged disk, late remote effects and consistency across services were not tested",
    zh: "进程被强制终止、磁盘损坏、异步远端效果和跨服务一致性都未测试",
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
  "ERROR-REPLAYED": {
    en:
      "these errors go on to the caller: not folded into False, and not passed off as success",
    zh: "这些异常继续向调用方传播，不折叠成 False，也不假装成功",
  },
  "ERROR-RE-RUN": {
    en: "to judge this attempt, look at effect_committed or effect_reused too",
    zh: "判断本次行为，要同时看 effect_committed 或 effect_reused",
  },
  "ERROR-NOT-STORED": {
    en:
      "the effect and the idempotency record share one SQLite row, so a draft is never written without its dedup key",
    zh:
      "本地账本把效果和幂等记录放在同一个 SQLite 行里，避免在这份小实验中出现“草稿写了、去重键没写”的双写缺口",
  },
  "ERROR-NOT-REPLAYED": {
    en:
      "it does not mean this attempt wrote anew: a same-key reuse or a conflict may see the old row too",
    zh: "它不表示一定是当前尝试新写入：同键复用、参数冲突也可能看到旧行",
  },
  "KEY-REQUIRED": {
    en: "a refusal returns before the business call",
    zh: "拒绝时返回，不进入正常业务调用",
  },
  "KEY-NOT-REQUIRED": {
    en: "a caller that makes a new job on every retry gets a new draft",
    zh: "调用方若每次重试都生成新 job，就会得到新草稿",
  },
  "KEY-KEPT": {
    en: "same key, same arguments: the old draft is read back",
    zh: "同键、同参数会读回旧草稿",
  },
  "KEY-FORGOTTEN": {
    en:
      "deleting the database, changing the business key or moving to another store is outside this guarantee",
    zh: "删除数据库、换业务键、换到另一套存储，都不在这项保证之内",
  },
  "OTHER-STATUS": {
    en:
      "you cannot carry this example's catch branch over and claim the meaning is the same",
    zh: "不能把本例的 catch 分支搬过去就声称语义相同",
  },
  "ANNOTATION-CONTRADICTED": {
    en:
      "this order finds more gaps than feeling safe at the sight of a tripwire's name",
    zh: "这个顺序比看到一个 tripwire 名字就放心更容易发现遗漏",
  },
  "HINTS-HOLD": {
    en: "before connecting, confirm each tool's real kind one by one",
    zh: "接入前应逐个确认实际工具类型",
  },
  "NOTHING-PROMISED": {
    en: "nothing here lets you conclude that every capability is protected",
    zh: "不能从本文推导出所有能力已经受保护",
  },
  "READ-HINT-MISSING": {
    en: "calling every one of them a tool hides these differences",
    zh: "把“工具”都写成一个名字，会掩盖这些差别",
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
  "NOT-JUDGED": {
    en: "check the check first: a read must be able to say 0",
    zh: "先检验检查本身：读取必须能够给出 0",
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
  ...HOST_VERDICT_ARTICLE,
} as const satisfies Record<Verdict, Text>;

/** Why a case tested nothing, per reason (`not_run` in the JSON). */
export const NOT_RUN_WHY = {
  "no-arguments": {
    en: "the oracle gives no arguments for it",
    zh: "oracle 没有给出本用例所需的参数",
  },
  "not-started": {
    en:
      "guardlab did not start this server (--url), so it can neither start a second one nor restart it",
    zh:
      "这个服务器不是 guardlab 启动的（--url），所以既不能再启动一个，也不能重启它",
  },
  "nothing-to-check": {
    en: "no case that can check what the hints promise ran",
    zh: "能检查这些提示所作承诺的用例都没有运行",
  },
  "not-listed": {
    en:
      "guardlab did not see this tool in tools/list (the server does not list it, or its list could not be read), so its hints are unknown",
    zh:
      "guardlab 没有在 tools/list 中看到这个工具（服务器没有列出它，或它的列表无法读取），所以不知道它声明的提示",
  },
  "no-lifetime": {
    en: "the oracle states no key lifetime (key_lifetime_ms)",
    zh: "oracle 没有声明业务键的保留时长（key_lifetime_ms）",
  },
  "key-is-argument": {
    en:
      "the key is one of the call's arguments: a call without it is the rejected case's bad call",
    zh: "业务键是调用参数之一：缺少它的调用属于 rejected 用例的错误调用",
  },
  "read-needs-key": {
    en:
      "the read counts by the key itself, so an effect stored under no key could not be seen: count by a reference the call carries",
    zh:
      "读取按业务键本身计数，存放在没有业务键名下的效果无法被看到：请按调用携带的引用计数",
  },
  "not-an-error": {
    en:
      "the oracle's error_call was answered success: there was no error to replay",
    zh: "oracle 的 error_call 得到了成功应答：没有可以重放的错误",
  },
} as const satisfies Record<NotRunReason, Text>;

/** What a matrix row says beside its verdict: the facts the verdict rests on. */
export const DETAIL_WORDS = {
  toldFailed: {
    en: "{k} of {n} callers were told the call failed, yet its effect exists",
    zh: "{n} 个调用方中有 {k} 个被告知失败，而效果其实存在",
  },
  oldAndOther: {
    en:
      "the first arguments' effect: {old} left; the other arguments': {other}",
    zh: "第一次参数的效果：剩下 {old} 个；其他参数的效果：{other} 个",
  },
  beforeKill: {
    en: "the read saw {kill} before the kill, {restart} after the restart",
    zh: "强制终止前读取看到 {kill} 个，重启后看到 {restart} 个",
  },
  answeredBeforeKill: {
    en:
      "call 1 was answered success before the kill, yet the read after that answer found no effect",
    zh: "调用 1 在强制终止前已得到成功应答，而应答之后的读取没有找到效果",
  },
  badCallKey: {
    en:
      "the bad call carries no key of its own: its effect was counted under call's key",
    zh: "错误调用自身没有业务键：它的效果按 call 的业务键计数",
  },
  tooLate: {
    en:
      "no cancel was tested: the server answered call 1 in {ms} ms, before the cancel was due at {after} ms ({from}); --cancel-after-ms N sets the delay",
    zh:
      "没有测到取消：服务器 {ms} ms 就应答了调用 1，早于取消预定的 {after} ms（{from}）；--cancel-after-ms N 可以设定延迟",
  },
  fromFlag: { en: "--cancel-after-ms", zh: "--cancel-after-ms" },
  fromMeasured: {
    en: "half the median answer time measured before it, {median} ms",
    zh: "此前测得的应答时间中位数 {median} ms 的一半",
  },
  fromDefault: {
    en: "nothing was measured before it",
    zh: "此前没有测到应答时间",
  },
  contradicted: {
    en: "declares {hint}: {declared}, yet {case}: {verdict}",
    zh: "声明了 {hint}: {declared}，而 {case}：{verdict}",
  },
  answerText: {
    en: "call {call} was answered: “{text}”",
    zh: "调用 {call} 的应答：“{text}”",
  },
  conflicts: {
    en:
      "{k} of {n} copies were refused with the declared conflict, and the client retried once every copy had its answer",
    zh:
      "{n} 个副本中有 {k} 个收到了声明的冲突，所有副本都得到应答之后，客户端重试了一次",
  },
  declareConflict: {
    en:
      "if those errors are a conflict a client may retry after (the draft: HTTP 409 while the first is still in flight), declare it in the oracle, {example}, and accept retries after it and judges the retry",
    zh:
      "如果这些错误是客户端可以随后重试的冲突（草案：第一次仍在处理时回 HTTP 409），请在 oracle 中声明 {example}，accept 会随后重试并据此判定",
  },
  notReplayed: {
    en:
      "the repeat was answered otherwise than the first: not the stored result",
    zh: "重复调用得到的应答与第一次不同：不是保存下来的结果",
  },
  waited: {
    en:
      "retried {ms} ms after the first answer, inside the stated lifetime of {lifetime} ms",
    zh: "在第一次应答 {ms} ms 之后重试，处于声明的 {lifetime} ms 保留期之内",
  },
  otherStatus: {
    en: "answered HTTP {got}; the draft answers this with {want}",
    zh: "应答为 HTTP {got}；草案对此规定为 {want}",
  },
  statuses: {
    en: "HTTP statuses, call by call: {list}",
    zh: "逐个调用的 HTTP 状态码：{list}",
  },
  freshCounted: {
    en:
      "the read of key {key}, before any call, counted {n}: the read tool shows the key it was asked for (it answered: “{text}”)",
    zh:
      "在任何调用之前读取业务键 {key}，数到了 {n}：读取工具会显示它被问到的键（它的应答：“{text}”）",
  },
  hints: {
    en: "declared hints: {hints}",
    zh: "声明的提示：{hints}",
  },
  hintSep: { en: ", ", zh: "，" },
  noHints: {
    en: "declared hints: none",
    zh: "声明的提示：无",
  },
} as const satisfies Record<string, Text>;

/** What was noted and set aside, per notice (it decided no verdict). */
export const NOTICE_WORD = {
  "discarded-body": {
    en:
      "the server answered a notification with HTTP {status} and a body; discarded unread, as the MCP SDK's client does (it decides nothing)",
    zh:
      "服务器对一条通知回了 HTTP {status} 并带有正文；已不读丢弃，与 MCP SDK 的客户端一样（不影响结论）",
  },
  "too-deep": {
    en:
      "the server sent a message nested deeper than {max} levels; guardlab read it no further (an answer so deep counts as none: the case is not judged on it)",
    zh:
      "服务器发来一条嵌套超过 {max} 层的消息；guardlab 不再读取它（这样深的应答视为没有应答：该用例不据此判定）",
  },
} as const satisfies Record<NoticeKind, Text>;
