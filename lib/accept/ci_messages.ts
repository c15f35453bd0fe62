/**
 * The words of `accept` where engineers run it on every commit, in both
 * languages: the notes `accept init` writes beside each guess, a
 * baseline's refusals and what it excused, and the JUnit report's words.
 * Verdict names, case names and field names stay as `--json` spells them.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The notes `accept init` writes into `guesses`, and why a tool was not drafted. */
export const DRAFT_MESSAGES = {
  beyondMax: {
    en:
      "an oracle holds at most {max} write tools: draft the rest into a second one",
    zh: "一个 oracle 最多列出 {max} 个写入工具：其余的请放进第二个 oracle",
  },
  tooBig: {
    depth: {
      en: "its input schema nests deeper than guardlab reads (12 levels)",
      zh: "它的输入 schema 嵌套超过 guardlab 读取的层数（12 层）",
    },
    nodes: {
      en: "its input schema is larger than guardlab reads (5000 nodes)",
      zh: "它的输入 schema 超过 guardlab 读取的规模（5000 个节点）",
    },
    items: {
      en: "its input schema asks for more than 8 items in one array",
      zh: "它的输入 schema 要求一个数组里多于 8 项",
    },
  },
  noKeyString: {
    en: "its arguments hold no string that could carry a fresh key",
    zh: "它的参数里没有能承载新业务键的字符串",
  },
  notOracle: {
    en: "its schema gives no entry accept could read ({why})",
    zh: "由它的 schema 得不到 accept 能读取的条目（{why}）",
  },
  tooLarge: {
    en: "the oracle would pass its bound of {max} bytes",
    zh: "oracle 会超过 {max} 字节的上限",
  },
  toolReadLike: {
    en:
      "not marked readOnlyHint: true, but named like a read tool: delete this entry if the tool only reads",
    zh:
      "没有标注 readOnlyHint: true，名字却像读取工具：如果它只读，请删除这一项",
  },
  keyNamed: {
    en: "{pointer}: a required string named like an id, key, name or path",
    zh: "{pointer}：一个必填字符串，名字像 id、key、name 或 path",
  },
  keyOptional: {
    en:
      "{pointer}: every required field is an enum or a fixed value, so init added this optional string to carry a fresh key: check the tool keeps it and tells one call from another by it",
    zh:
      "{pointer}：每个必填字段都是枚举或固定值，所以 init 加上了这个可选字符串来承载新业务键：请核对工具会保存它，并凭它区分不同的调用",
  },
  keyFixedShape: {
    en:
      "; the schema asks this field for a shape ({what}) a fresh key does not keep: give a value that fits, fresh per case ({run}) and per copy ({n:3})",
    zh:
      "；schema 要求这个字段符合某种形式（{what}），新业务键不符合：请给出符合的值，每个用例（{run}）、每个副本（{n:3}）都不同",
  },
  callMade: {
    en:
      "guardlab made these values to fit the schema (a guess the server may still refuse): {what}",
    zh:
      "guardlab 为符合 schema 编出了这些值（是猜测，服务器仍可能拒绝）：{what}",
  },
  keyFirst: {
    en:
      "{pointer}: no required string is named like an id, key, name or path; this is the first one",
    zh:
      "{pointer}：没有名字像 id、key、name 或 path 的必填字符串；这是第一个必填字符串",
  },
  callUnchecked: {
    en:
      "guardlab did not check these constraints (it never evaluates a server's pattern): {what}",
    zh: "guardlab 没有核对这些约束（它从不执行服务器给的 pattern）：{what}",
  },
  readNone: {
    en:
      "no read tool found: name the tool whose result shows the effect, with its arguments",
    zh: "没有找到读取工具：请填写结果中能看到效果的工具及其参数",
  },
  readTakes: {
    en: "{tool}{unmarked} takes the key as {arg}{madeUp}",
    zh: "{tool} 以 {arg} 接收业务键{unmarked}{madeUp}",
  },
  readLists: {
    en: "{tool}{unmarked} lists without taking the key{madeUp}",
    zh: "{tool} 不接收业务键，直接列出{unmarked}{madeUp}",
  },
  readUnmarked: {
    en:
      " (the server marks no tool readOnlyHint: true; this one is named like a read tool)",
    zh:
      "（服务器没有把任何工具标为 readOnlyHint: true；这个工具的名字像读取工具）",
  },
  readMadeUp: {
    en: "; guardlab made up {args}: give the real values",
    zh: "；{args} 是 guardlab 编的：请填写真实的值",
  },
  countJson: {
    en:
      "the items of {pointer} in the read's result whose {field} is the key (from the read tool's output schema)",
    zh:
      "读取结果中 {pointer} 里 {field} 等于业务键的项（依据读取工具的输出 schema）",
  },
  countContent: {
    en:
      "occurrences of the value of {pointer} in the read's text: the read takes the key, so it shows what the call wrote",
    zh:
      "读取结果文本中 {pointer} 的值出现的次数：读取工具按业务键读取，结果里是调用写入的内容",
  },
  countKey: {
    en: "occurrences of the key in the read's text",
    zh: "读取结果文本中业务键出现的次数",
  },
  countUnconfirmed: {
    en:
      "NOT CONFIRMED: init read {key}, a key no call had used, and this count found it {n} time(s), so the read shows the key it was asked for ({words}) and would count an effect where there is none: count by a field of the read's result instead",
    zh:
      "未能确认：init 读取了从未用过的业务键 {key}，这个计数却找到 {n} 次，说明读取工具会显示它被问到的业务键（{words}），没有效果也会计数：请改为按读取结果中的字段计数",
  },
  otherJson: {
    en: "{pointer} changed; counts the items with the key and the other value",
    zh: "改了 {pointer}；统计业务键相同且为另一个值的项",
  },
  otherText: {
    en:
      "{pointer} changed; counts occurrences of the other value in the read's text",
    zh: "改了 {pointer}；统计读取结果文本中另一个值出现的次数",
  },
} as const;

/** Why a baseline cannot be used, and what it did to the run. */
export const BASELINE_MESSAGES = {
  notJson: {
    en: "{file} is not a guardlab accept --json report",
    zh: "{file} 不是 guardlab accept --json 的报告",
  },
  tooDeep: {
    en: "{file} nests deeper than {max} levels",
    zh: "{file} 的嵌套超过 {max} 层",
  },
  badEntry: {
    en: "{file}: results[{n}] is not a verdict of this guardlab ({why})",
    zh: "{file}：results[{n}] 不是本 guardlab 的结论（{why}）",
  },
  tooMany: {
    en: "{file} holds more than {max} results",
    zh: "{file} 的结果超过 {max} 条",
  },
  noDigest: {
    en:
      "{file} names no oracle (no oracle_digest: a report of a guardlab before baselines); run accept --json again",
    zh:
      "{file} 没有注明 oracle（缺 oracle_digest：是支持基线之前的 guardlab 写的报告）；请重新运行 accept --json",
  },
  otherServer: {
    en:
      "{file} is a baseline of server {was}, not of {now}: a baseline excuses the verdicts of the server it was made on",
    zh:
      "{file} 是服务器 {was} 的基线，不是 {now} 的：基线只能豁免它所来自的服务器的结论",
  },
  otherOracle: {
    en:
      "{file} was made with another oracle ({was}, this one is {now}): run accept --json with this oracle to make a new baseline",
    zh:
      "{file} 用的是另一个 oracle（{was}，当前为 {now}）：请用当前 oracle 运行 accept --json 生成新的基线",
  },
  heading: {
    en: "baseline {file} ({server} {version}, the same oracle):",
    zh: "基线 {file}（{server} {version}，同一个 oracle）：",
  },
  excused: {
    en: "excused (the same failing verdict is in the baseline): {rows}",
    zh: "已豁免（基线中是同一个失败结论）：{rows}",
  },
  fixed: {
    en: "fixed (failing in the baseline, not now): {rows}",
    zh: "已修复（基线中失败，现在不再失败）：{rows}",
  },
  worse: {
    en: "worse (another failing verdict than the baseline's): {rows}",
    zh: "变差（与基线中的失败结论不同）：{rows}",
  },
  fresh: {
    en: "new (not failing in the baseline): {rows}",
    zh: "新增（基线中没有失败）：{rows}",
  },
  none: { en: "none", zh: "无" },
  // Between two rows: a row itself may hold a comma ("…, was LOST").
  rowSep: { en: "; ", zh: "；" },
  was: {
    en: "{row} {verdict}, was {before}",
    zh: "{row} {verdict}，原为 {before}",
  },
  exitExcused: {
    en: "exit 0: every failing verdict is one the baseline excused",
    zh: "退出码 0：所有失败的结论都已被基线豁免",
  },
} as const satisfies Record<string, Text>;

/** The words of the JUnit report. */
export const JUNIT_WORDS = {
  saw: { en: "client saw: {saw}", zh: "客户端看到：{saw}" },
  effect: { en: "effect: {effect}", zh: "效果：{effect}" },
  verdict: {
    en: "verdict: {verdict}: {meaning}",
    zh: "结论：{verdict}：{meaning}",
  },
  article: { en: "article: {sentence}", zh: "文章：{sentence}" },
  info: { en: "also: {verdict}: {meaning}", zh: "另外：{verdict}：{meaning}" },
  excused: {
    en: "excused by the baseline: {verdict}",
    zh: "已被基线豁免：{verdict}",
  },
  notRun: { en: "NOT-RUN: {why}", zh: "NOT-RUN：{why}" },
} as const satisfies Record<string, Text>;

/** What `accept judge` says: its refusals of a report, and its screen's lines. */
export const JUDGE_MESSAGES = {
  badRow: {
    en: "{file}: results[{n}] cannot be judged: {why}",
    zh: "{file}：results[{n}] 无法判定：{why}",
  },
  noHistory: {
    en:
      "{file}: results[{n}] holds no history (a report of a guardlab before histories): run accept --json again",
    zh:
      "{file}：results[{n}] 没有历史记录（是引入历史记录之前的 guardlab 写的报告）：请重新运行 accept --json",
  },
  note: {
    en:
      "judged again from {file}: nothing was started; each verdict comes from its case's history alone",
    zh:
      "根据 {file} 重新判定：没有启动任何程序；每个结论只依据该用例的历史记录",
  },
  changedHead: {
    en: "the report states other verdicts than its histories give:",
    zh: "报告中写的结论与其历史记录得出的不同：",
  },
  changed: {
    en: "{row}: the report says {was}; its history gives {now}",
    zh: "{row}：报告写的是 {was}；其历史记录得出 {now}",
  },
} as const satisfies Record<string, Text>;
