/**
 * The words of `guardlab proxy` and `guardlab proxy show`, in both
 * languages, one table per concern: the faults file's refusals
 * (`FAULT_MESSAGES`), the proxy's log lines (`PROXY_LOG`), and a drawn
 * record's steps (`PROXY_WORDS`). The command's own lines are beside it,
 * in `lib/cli/commands/proxy/`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** Why a faults file cannot be used, naming its line and field. */
export const FAULT_MESSAGES = {
  tooManyFaults: {
    en: "the faults file has more than {max} lines",
    zh: "故障文件超过 {max} 行",
  },
  faultNotJson: {
    en: "faults line {line}: not JSON",
    zh: "故障文件第 {line} 行：不是 JSON",
  },
  faultNotObject: {
    en: "faults line {line}: not a JSON object",
    zh: "故障文件第 {line} 行：不是 JSON 对象",
  },
  faultTool: {
    en: "faults line {line}: tool must be a tool name",
    zh: "故障文件第 {line} 行：tool 必须是工具名",
  },
  faultCall: {
    en: "faults line {line}: call must be a call number from 1",
    zh: "故障文件第 {line} 行：call 必须是从 1 起的调用序号",
  },
  faultTrue: {
    en: "faults line {line}: {field} must be true",
    zh: "故障文件第 {line} 行：{field} 必须为 true",
  },
  faultMs: {
    en: "faults line {line}: {field} must be milliseconds from 0 to {max}",
    zh: "故障文件第 {line} 行：{field} 必须是 0 到 {max} 的毫秒数",
  },
  faultFanout: {
    en: "faults line {line}: fanout must be a number of copies from 2 to {max}",
    zh: "故障文件第 {line} 行：fanout 必须是 2 到 {max} 的份数",
  },
  faultField: {
    en: "faults line {line}: unknown field {field} (faults: {names})",
    zh: "故障文件第 {line} 行：未知字段 {field}（可用故障：{names}）",
  },
  faultNone: {
    en: "faults line {line}: names no fault (faults: {names})",
    zh: "故障文件第 {line} 行：没有给出任何故障（可用故障：{names}）",
  },
} as const satisfies Record<string, Text>;

/** The proxy's log lines (stderr): what it did not forward, a record that filled or failed, a fault that fired, the effects read. */
export const PROXY_LOG = {
  serverExited: {
    en: "guardlab proxy: the server exited ({code}); the session ends",
    zh: "guardlab proxy：服务器已退出（{code}）；会话结束",
  },
  serverNotJson: {
    en:
      "guardlab proxy: the server wrote a line that is not JSON-RPC to stdout; not forwarded",
    zh: "guardlab proxy：服务器向标准输出写了一行不是 JSON-RPC 的内容；未转发",
  },
  tooDeep: {
    en:
      "guardlab proxy: the server sent a message nested deeper than {max} levels; not read, not forwarded",
    zh: "guardlab proxy：服务器发来一条嵌套超过 {max} 层的消息；未读取，未转发",
  },
  tooLong: {
    en:
      "guardlab proxy: a message from the {side} over {max} bytes was discarded, not forwarded",
    zh: "guardlab proxy：来自{side}的一条消息超过 {max} 字节，已丢弃，未转发",
  },
  sideClient: { en: "client", zh: "客户端" },
  sideServer: { en: "server", zh: "服务器" },
  recordFull: {
    en:
      "guardlab proxy: the record is full ({max}); later messages are forwarded, not recorded",
    zh: "guardlab proxy：记录已满（{max}）；之后的消息照常转发，不再记录",
  },
  recordUnwritable: {
    en: "guardlab proxy: the record could not be written ({why}); later " +
      "messages are forwarded, not recorded",
    zh: "guardlab proxy：记录无法写入（{why}）；之后的消息照常转发，不再记录",
  },
  noSpace: {
    en: "no space left on its device; on a shared /tmp, another user may " +
      "have filled it",
    zh: "所在设备没有剩余空间；在共享的 /tmp 上，可能是别的用户把它占满了",
  },
  writeFailed: {
    en: "the system refused the write: {code}",
    zh: "系统拒绝了写入：{code}",
  },
  cancelledByFault: {
    en:
      "guardlab proxy: call {call} cancelled after {ms} ms (a fault of the faults file)",
    zh:
      "guardlab proxy：第 {call} 次调用在 {ms} 毫秒后被取消（故障文件安排的故障）",
  },
  oracleRead: {
    en:
      "guardlab proxy: read the effect by key from the server at the end of the session (keys: {n})",
    zh: "guardlab proxy：会话结束时从服务器读取了 {n} 个业务键的效果",
  },
} as const satisfies Record<string, Text>;

/** A drawn record's words: its title, its effects, each step in its lane. */
export const PROXY_WORDS = {
  showTitle: {
    en: "guardlab proxy show: {file}",
    zh: "guardlab proxy show：{file}",
  },
  showServer: { en: "server: {command}", zh: "服务器：{command}" },
  showTruncated: {
    en: "the record stopped at its bound; later messages were not recorded",
    zh: "记录达到上限后停止；之后的消息没有记录",
  },
  showMore: {
    en: "… {n} more steps not drawn",
    zh: "…… 另有 {n} 个步骤未画出",
  },
  effectsTitle: {
    en: "effects by key, read at the end of the session:",
    zh: "会话结束时按业务键读到的效果：",
  },
  effectLine: {
    en: "  {tool} {key}: calls {calls}; effect {count}",
    zh: "  {tool} {key}：调用 {calls}；效果 {count}",
  },
  noEffects: {
    en: "no effect was read (record the session with --oracle FILE)",
    zh: "没有读取效果（录制会话时加上 --oracle FILE）",
  },
  noEffectsAtEnd: {
    en:
      "no read at the end of the session is in this record (the reads made while it ran are on the timeline)",
    zh: "这份记录里没有会话结束时的读取（会话进行中的读取画在时间线上）",
  },
  noEffectsStopped: {
    en:
      "no read at the end of the session is in this record: the proxy was stopped before the session's end (the record has no end line)",
    zh:
      "这份记录里没有会话结束时的读取：proxy 在会话结束之前就被停止了（记录没有结束行）",
  },
  noEffectsNoKey: {
    en:
      "no read at the end of the session is in this record: no call had a key the oracle names, or the server had gone",
    zh:
      "这份记录里没有会话结束时的读取：没有哪次调用带着 oracle 指定的业务键，或者服务器已经退出",
  },
  noEffectsNoCall: {
    en: "no tools/call in this record: no effect to read",
    zh: "这份记录里没有 tools/call：没有可读取的效果",
  },
  probeOnly: {
    en:
      "this record holds only a client's discovery probe (server/discover), no session: a client that probes first (as agents-core 0.20.0's does) stops this guardlab proxy after the probe and starts another for the session, whose record took the next free name: {next}",
    zh:
      "这份记录里只有客户端的发现探测（server/discover），没有会话：先探测的客户端（例如 agents-core 0.20.0 的）探测完就停掉这个 guardlab proxy，再为会话另启动一个，它的记录用了下一个空闲的名字：{next}",
  },
  probeOnlyMissing: {
    en:
      "this record holds only a client's discovery probe (server/discover), no session: a client that probes first (as agents-core 0.20.0's does) starts another guardlab proxy for the session, whose record takes the next free name; {next} is not there, so look for a later number",
    zh:
      "这份记录里只有客户端的发现探测（server/discover），没有会话：先探测的客户端（例如 agents-core 0.20.0 的）会为会话另启动一个 guardlab proxy，它的记录用下一个空闲的名字；{next} 不存在，请找编号更大的记录",
  },
  probeOnlyNowhere: {
    en:
      "this record holds only a client's discovery probe (server/discover), no session: the session is in the record the next guardlab proxy wrote",
    zh:
      "这份记录里只有客户端的发现探测（server/discover），没有会话：会话在下一个 guardlab proxy 写下的记录里",
  },
  noEffectsCut: {
    en:
      "no read at the end of the session is in this record: it stopped at its bound",
    zh: "这份记录里没有会话结束时的读取：记录达到上限后停止了",
  },
  sends: { en: "sends {calls} {tool}", zh: "发送{calls} {tool}" },
  sendsNotKept: {
    en:
      "sends {calls} {tool} (a message of {bytes} bytes, not kept: its key is unknown)",
    zh: "发送{calls} {tool}（一条 {bytes} 字节的消息，未保留：业务键未知）",
  },
  notKept: {
    en: "a message of {bytes} bytes, not kept",
    zh: "一条 {bytes} 字节的消息，未保留",
  },
  retries: {
    en: "retries: {calls} {tool}, same key as call {first}",
    zh: "重试：{calls} {tool}，与调用 {first} 同一业务键",
  },
  cancels: { en: "cancels {calls}", zh: "取消{calls}" },
  clientOther: { en: "{method}", zh: "{method}" },
  forwards: { en: "forwards {calls}", zh: "转发{calls}" },
  copies: {
    en: "sends copies of {calls}: {n} more (fault)",
    zh: "额外发送{calls}的 {n} 份副本（故障）",
  },
  // No plural of its own: n may be 1.
  dropped: {
    en: "drops the answer to {calls} (fault)",
    zh: "丢弃{calls}的应答（故障）",
  },
  delayed: {
    en: "holds the answer to {calls} {ms} ms (fault)",
    zh: "把{calls}的应答扣留 {ms} 毫秒（故障）",
  },
  cancelledAt: {
    en:
      "cancels {calls} at the server, answers the client with an error (fault)",
    zh: "在服务器端取消{calls}，并以错误应答客户端（故障）",
  },
  delivers: { en: "delivers {calls}: {outcome}", zh: "交付{calls}：{outcome}" },
  answers: { en: "answers {calls}: {outcome}", zh: "应答{calls}：{outcome}" },
  answersCopy: {
    en: "answers a copy of {calls}: {outcome}",
    zh: "应答{calls}的副本：{outcome}",
  },
  late: {
    en: "answers {calls} late: {outcome} (not delivered)",
    zh: "迟到应答{calls}：{outcome}（未交付）",
  },
  visibleKey: {
    en: "--- effect of {key} visible to the read tool by here: {count} ",
    zh: "--- 至此读取工具已能看到 {key} 的效果：{count} ",
  },
  holdsToRead: {
    en: "holds the answer to {calls}; reads first",
    zh: "扣住{calls} 的应答，先读取",
  },
  lateAfterRead: {
    en: "does not deliver the late answer to {calls}: {outcome}",
    zh: "不交付{calls} 迟到的应答：{outcome}",
  },
  oracleReadStep: {
    en: "reads {tool} {key}: effect {count}",
    zh: "读取 {tool} {key}：效果 {count}",
  },
  oracleReadOnCancel: {
    en: "reads {tool} {key} as {calls} is cancelled: effect {count}",
    zh: "在{calls} 被取消时读取 {tool} {key}：效果 {count}",
  },
  serverGone: { en: "exits", zh: "退出" },
} as const satisfies Record<string, Text>;
