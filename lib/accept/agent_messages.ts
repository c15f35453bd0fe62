/**
 * The words of an agent record drawn beside a proxy record
 * (`guardlab proxy show RECORD --agent AGENTRECORD`): the agent's lane, the
 * notes under the timeline and the line per call that says where each
 * call stopped relative to its effect, in both languages.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The words of `proxy show --agent`. */
export const AGENT_MESSAGES = {
  title: {
    en: "guardlab proxy show: {file}, with the agent record {agent}",
    zh: "guardlab proxy show：{file}，以及 Agent 记录 {agent}",
  },
  turn: { en: "model turn {turn}", zh: "模型第 {turn} 轮" },
  sdkTurn: {
    en: "the SDK's turn {turn} (no model answer used)",
    zh: "SDK 的第 {turn} 轮（没有用到模型的回答）",
  },
  agentGuardrailPassed: {
    en: "agent guardrail {name}: passed",
    zh: "Agent 护栏 {name}：通过",
  },
  agentGuardrailTripped: {
    en: "agent guardrail {name}: tripwire triggered; the run ends",
    zh: "Agent 护栏 {name}：触发 tripwire；运行结束",
  },
  calls: { en: "calls {tool}: {calls}", zh: "调用 {tool}：{calls}" },
  callsAgain: {
    en: "calls {tool} again, {like}{tail}",
    zh: "再次调用 {tool}，{like}{tail}",
  },
  likeArgs: {
    en: "same arguments as call {n}",
    zh: "与调用 {n} 参数相同",
  },
  likeKey: {
    en: "same key as call {n}, other arguments",
    zh: "与调用 {n} 业务键相同、参数不同",
  },
  likeArgsRefused: {
    en: "same arguments as the call its input guardrail refused",
    zh: "与被工具输入护栏拒绝的那次调用参数相同",
  },
  likeKeyRefused: {
    en: "same key as the call its input guardrail refused, other arguments",
    zh: "与被工具输入护栏拒绝的那次调用业务键相同、参数不同",
  },
  likeArgsUnrecorded: {
    en: "same arguments as an earlier call not in this record",
    zh: "与之前一次不在这份记录里的调用参数相同",
  },
  likeKeyUnrecorded: {
    en: "same key as an earlier call not in this record, other arguments",
    zh: "与之前一次不在这份记录里的调用业务键相同、参数不同",
  },
  tailCall: { en: ": {calls}", zh: "：{calls}" },
  tailElsewhere: {
    en: " (not in this proxy record)",
    zh: "（不在这份 proxy 记录里）",
  },
  callsBeside: {
    en: "calls {tool} again while call {n} is open, {same}{tail}",
    zh: "在调用 {n} 尚未结束时，以{same}再次调用 {tool}{tail}",
  },
  callsBesideOther: {
    en: "calls {tool} again while {first} is open, {same}{tail}",
    zh: "在{first}尚未结束时，以{same}再次调用 {tool}{tail}",
  },
  theRefusedCall: {
    en: "the call its input guardrail refused",
    zh: "被工具输入护栏拒绝的那次调用",
  },
  anUnrecordedCall: {
    en: "an earlier call not in this record",
    zh: "之前一次不在这份记录里的调用",
  },
  sameArgs: { en: "same arguments", zh: "相同参数" },
  sameKey: { en: "same key, other arguments", zh: "相同业务键、不同参数" },
  sendsBeside: {
    en:
      "sends {calls} {tool}, same key as call {first}, which the agent still had open",
    zh:
      "发送{calls} {tool}，与调用 {first} 同一业务键，而 Agent 的调用 {first} 尚未结束",
  },
  callsUnsent: { en: "calls {tool}", zh: "调用 {tool}" },
  callsElsewhere: {
    en: "calls {tool} (not in this proxy record)",
    zh: "调用 {tool}（不在这份 proxy 记录里）",
  },
  inputGuardrail: {
    en: "tool input guardrail {name}: {decision}",
    zh: "工具输入护栏 {name}：{decision}",
  },
  outputGuardrail: {
    en: "tool output guardrail {name}: {decision}",
    zh: "工具输出护栏 {name}：{decision}",
  },
  timeout: {
    en: "no answer to {calls}: timeout after {ms} ms",
    zh: "{calls} 没有应答：{ms} 毫秒后超时",
  },
  aborted: { en: "{calls} aborted", zh: "{calls} 被中止" },
  failed: { en: "{calls} failed: {error}", zh: "{calls} 失败：{error}" },
  told: { en: "the model is told {told}", zh: "模型收到 {told}" },
  toldUnsent: {
    en: "never sent; the model is told {told}",
    zh: "从未发出；模型收到 {told}",
  },
  runEnds: {
    en: "the run ends here ({decision}): the model is not called again",
    zh: "运行在此结束（{decision}）：不再调用模型",
  },
  runEndsUnsent: {
    en:
      "never sent; the run ends here ({decision}): the model is not called again",
    zh: "从未发出；运行在此结束（{decision}）：不再调用模型",
  },
  sdkTurnNote: {
    en:
      "the SDK's turn: a turn span the SDK began, in which an agent guardrail tripped and the run ended, so no answer of the model's was used in it (a blocking guardrail trips before any model call; one that runs in parallel, beside it)",
    zh:
      "SDK 的轮次：SDK 开始了这一轮的 span，但其中有 Agent 护栏触发了 tripwire，运行随即结束，所以这一轮没有用到模型的回答（阻塞式护栏在调用模型之前触发；并行护栏与模型调用同时进行）",
  },
  clocks: {
    en:
      "times: ms since the proxy record began; the agent record keeps the same clock (wall-clock time at its start, then its process's monotonic clock), its times moved by {ms} ms so that every mark follows what it depends on",
    zh:
      "时间：从 proxy 记录开始算起的毫秒数；Agent 记录用同一只时钟（开始时的挂钟时间，之后是所在进程的单调时钟），它的时间移动了 {ms} 毫秒，使每个标记都排在它所依赖的标记之后",
  },
  clocksAgree: {
    en:
      "times: ms since the proxy record began; the agent record keeps the same clock (wall-clock time at its start, then its process's monotonic clock), and every mark already follows what it depends on",
    zh:
      "时间：从 proxy 记录开始算起的毫秒数；Agent 记录用同一只时钟（开始时的挂钟时间，之后是所在进程的单调时钟），每个标记本来就排在它所依赖的标记之后",
  },
  contradictory: {
    en:
      "times: ms since the proxy record began; no one shift of the agent record's clock puts every mark after what it depends on, so the order follows the dependencies and the agent's times are as recorded",
    zh:
      "时间：从 proxy 记录开始算起的毫秒数；Agent 记录的时钟无论怎样整体移动，都无法让每个标记排在它所依赖的标记之后，所以顺序按依赖关系排，Agent 的时间保持原样",
  },
  untraced: {
    en:
      "the agent record has no spans (the SDK's tracing was off): no model turns, function calls or agent guardrails, only tool guardrails and MCP calls",
    zh:
      "Agent 记录里没有 span（SDK 的 tracing 关着）：没有模型轮次、函数调用和 Agent 护栏，只有工具护栏和 MCP 调用",
  },
  agentFull: {
    en: "the agent record stopped at its bound; later events were not recorded",
    zh: "Agent 记录达到上限后停止；之后的事件没有记录",
  },
  noClock: {
    en:
      "{file} has no start time on the wall clock (epoch_ms): record the session again with this guardlab",
    zh:
      "{file} 没有挂钟上的开始时间（epoch_ms）：请用这个版本的 guardlab 重新录制会话",
  },
  badAgentRecord: {
    en: "{file} is not a guardlab agent record (line {line})",
    zh: "{file} 不是 guardlab 的 Agent 记录（第 {line} 行）",
  },
  callsTitle: {
    en: "where each of the agent's calls stopped:",
    zh: "Agent 的每次调用停在了哪一步：",
  },
  notSent: { en: "not sent", zh: "未发出" },
  stoppedBefore: {
    en:
      "  {what} ({calls}): tool input guardrail {name} decided {decision} before any tools/call: this call wrote nothing",
    zh:
      "  {what}（{calls}）：工具输入护栏 {name} 在任何 tools/call 之前作出 {decision}：这次调用什么也没写",
  },
  rejectedAfterEffect: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the effect was visible ({count}): the effect stays",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在效果已可见（{count}）之后才作出 {decision}：效果留下",
  },
  rejectedAfterAnswer: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the server answered: whatever the server did stays (record with --oracle FILE --read-before-delivery to see it)",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在服务器应答之后才作出 {decision}：服务器做过的事都留下（录制时加上 --oracle FILE --read-before-delivery 即可看到）",
  },
  rejectedAfterAnswerUnread: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the server answered: whatever the server did stays ({why})",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在服务器应答之后才作出 {decision}：服务器做过的事都留下（{why}）",
  },
  rejectedNoEffect: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the server answered; the read by key {when} found no effect (0)",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在服务器应答之后才作出 {decision}；{when}按业务键读取，没有发现效果（0）",
  },
  noReadOfIt: {
    en: "no read by key of it is in this record",
    zh: "这份记录里没有按业务键读取它",
  },
  readFailed: {
    en: "the read by key {when} could not count it",
    zh: "{when}按业务键读取，但没能计数",
  },
  whenDelivery: {
    en: "before its answer went on",
    zh: "在应答转交之前",
  },
  whenCancel: { en: "as it was cancelled", zh: "在它被取消时" },
  whenEnd: { en: "at the end of the session", zh: "在会话结束时" },
  timedOut: {
    en:
      "  {what} ({calls}): timed out after the effect was visible ({count}): the effect stays; the agent saw only a failure",
    zh:
      "  {what}（{calls}）：超时发生在效果已可见（{count}）之后：效果留下；Agent 只看到一次失败",
  },
  timedOutReadLater: {
    en:
      "  {what} ({calls}): timed out; its effect ({count}) was read only at the end of the session, so this record cannot say whether it came before the timeout: the effect stays",
    zh:
      "  {what}（{calls}）：超时；它的效果（{count}）是会话结束时才读到的，所以这份记录说不出效果是否在超时之前：效果留下",
  },
  rejectedReadLater: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the server answered; its effect ({count}) was read only later (record with --oracle FILE --read-before-delivery to see where it falls): the effect stays",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在服务器应答之后才作出 {decision}；它的效果（{count}）是之后才读到的（录制时加上 --oracle FILE --read-before-delivery 即可看到它落在哪里）：效果留下",
  },
  rejectedReadLaterHeld: {
    en:
      "  {what} ({calls}): tool output guardrail {name} decided {decision} after the server answered; its effect ({count}) was read only {when}: the effect stays",
    zh:
      "  {what}（{calls}）：工具输出护栏 {name} 在服务器应答之后才作出 {decision}；它的效果（{count}）是{when}才读到的：效果留下",
  },
  timedOutUnread: {
    en:
      "  {what} ({calls}): timed out; whether it took effect, only a read by key can say",
    zh: "  {what}（{calls}）：超时；它是否生效，只有按业务键读取才能知道",
  },
  timedOutNoOracle: {
    en:
      "  {what} ({calls}): timed out; whether it took effect, only a read by key can say (record with --oracle FILE: the proxy then reads it as the call is cancelled)",
    zh:
      "  {what}（{calls}）：超时；它是否生效，只有按业务键读取才能知道（录制时加上 --oracle FILE：proxy 会在调用被取消时读取）",
  },
  timedOutFound: {
    en:
      "  {what} ({calls}): timed out; the read by key {when} found the effect ({count}): the effect stays; the agent saw only a failure",
    zh:
      "  {what}（{calls}）：超时；{when}按业务键读取，发现了效果（{count}）：效果留下；Agent 只看到一次失败",
  },
  timedOutFoundLater: {
    en:
      "  {what} ({calls}): timed out; the read by key {first} found no effect (0), the one {when} found it ({count}): the server wrote after the client gave up; the effect stays",
    zh:
      "  {what}（{calls}）：超时；{first}按业务键读取没有发现效果（0），{when}读取发现了（{count}）：服务器在客户端放弃之后才写入；效果留下",
  },
  timedOutNothing: {
    en:
      "  {what} ({calls}): timed out; the read by key {when} found no effect (0): nothing was written by then",
    zh:
      "  {what}（{calls}）：超时；{when}按业务键读取，没有发现效果（0）：那时还什么也没写",
  },
  timedOutReadFailed: {
    en:
      "  {what} ({calls}): timed out; the read by key {when} could not count it: whether it took effect is not known",
    zh:
      "  {what}（{calls}）：超时；{when}按业务键读取，但没能计数：不知道它是否生效",
  },
  runEnded: {
    en: "{what}; the run ended there",
    zh: "{what}；运行就此结束",
  },
  passed: {
    en: "  {what} ({calls}): every tool guardrail allowed it",
    zh: "  {what}（{calls}）：每个工具护栏都放行了",
  },
  unfinished: {
    en:
      "  {what} ({calls}): the agent record ends before this call did: what came of it is not in the record",
    zh:
      "  {what}（{calls}）：Agent 记录在这次调用结束之前就停了：它后来怎样，记录里没有",
  },
  passedButFailed: {
    en:
      "  {what} ({calls}): every tool guardrail allowed it; the call failed: {error}",
    zh: "  {what}（{calls}）：每个工具护栏都放行了；调用失败：{error}",
  },
  callsNotListed: {
    en: "… {n} more calls not listed",
    zh: "… 另有 {n} 次调用未列出",
  },
  retry: {
    en: "{what}; a retry of {calls}",
    zh: "{what}；是{calls} 的重试",
  },
  retryKeyOnly: {
    en: "{what}; a retry of {calls}, same key, other arguments",
    zh: "{what}；是{calls} 的重试，业务键相同、参数不同",
  },
  retryOfRefused: {
    en: "{what}; a retry of the call its input guardrail refused",
    zh: "{what}；是被工具输入护栏拒绝的那次调用的重试",
  },
  notInRecord: {
    en:
      "  {what}: not in this proxy record (a function tool, or a call to another server)",
    zh: "  {what}：不在这份 proxy 记录里（函数工具，或发给别的服务器的调用）",
  },
  notInRecordMcp: {
    en:
      "  {what}: an MCP call to the server {server}, not in this proxy record (another server, or another session's record)",
    zh:
      "  {what}：发给服务器 {server} 的 MCP 调用，不在这份 proxy 记录里（别的服务器，或另一次会话的记录）",
  },
  notInRecordCut: {
    en:
      "  {what}: an MCP call to the server {server}, not in this proxy record, which stopped at its bound",
    zh:
      "  {what}：发给服务器 {server} 的 MCP 调用，不在这份 proxy 记录里（记录达到上限后停止了）",
  },
  sentWhileOpen: {
    en: "{what}; sent while {calls} was still open, same arguments: no retry",
    zh: "{what}；在{calls} 尚未结束时以相同参数发出：不是重试",
  },
  sentWhileOpenUnrecorded: {
    en:
      "{what}; sent while an earlier call with the same arguments, not in this record, was still open: no retry",
    zh:
      "{what}；在之前一次参数相同、不在这份记录里的调用尚未结束时发出：不是重试",
  },
  sentWhileOpenKey: {
    en:
      "{what}; sent while {calls} was still open, same key, other arguments: no retry",
    zh: "{what}；在{calls} 尚未结束时以相同业务键、不同参数发出：不是重试",
  },
  sentWhileOpenKeyUnrecorded: {
    en:
      "{what}; sent while an earlier call with the same key, not in this record, was still open: no retry",
    zh:
      "{what}；在之前一次业务键相同、不在这份记录里的调用尚未结束时发出：不是重试",
  },
  retryOfUnrecorded: {
    en: "{what}; the same arguments as an earlier call not in this record",
    zh: "{what}；与之前一次不在这份记录里的调用参数相同",
  },
} as const satisfies Record<string, Text>;
