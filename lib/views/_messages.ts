/**
 * What the views say, in both languages: the timeline views' stage and
 * mark labels, what the commit point saw, the note each stage can carry, the
 * state lines under a timeline and the ledger view's headings and lines;
 * the policy lanes, the policy demo's lines, the compensation's timeline and
 * the SVG's words (the class grade table's are in `_grade_messages.ts`). `{…}` are filled from what the labs did. The rule a
 * refusal names is the lab's own text (`RULES` in `lib/timing/messages.ts`).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { CommitState, Mark, StageId } from "./_marks.ts";

/** The state lines under a timeline. */
export const TIMELINE_MESSAGES = {
  // The Chinese receipt reads "回执 #1 accepted" or "没有回执" (STATE_TEXTS).
  ledgerDraft: {
    en: "  ledger: draft present, receipt {receipt}",
    zh: "  账本：草稿存在，{receipt}",
  },
  ledgerNoDraft: {
    en: "  ledger: draft absent, receipt {receipt}",
    zh: "  账本：草稿不存在，{receipt}",
  },
  caller: {
    en: "  caller received: {caller}",
    zh: "  调用方得到：{caller}",
  },
} as const satisfies Record<string, Text>;

/** Stage labels. */
export const STAGE_LABEL: Readonly<Record<StageId, Text>> = {
  arguments: { en: "arguments valid", zh: "参数校验" },
  input: { en: "input check", zh: "前检" },
  before_business: { en: "before business", zh: "业务写入前" },
  business: { en: "business", zh: "业务写入" },
  input_verdict: { en: "agent verdict", zh: "Agent 护栏结论" },
  after_commit: { en: "after commit", zh: "提交之后" },
  output: { en: "output check", zh: "后检" },
  receipt: { en: "receipt", zh: "回执" },
};

/**
 * The input stage when the Agent input guardrail runs in parallel: the
 * article keeps 前检 for the tool's own check; the agent-level guardrail is
 * Agent 输入护栏.
 */
export const AGENT_INPUT_LABEL: Text = {
  en: "agent guardrail",
  zh: "Agent 输入护栏",
};

/** Mark words. */
export const MARK_LABEL: Readonly<Record<Mark, Text>> = {
  "passed": { en: "passed", zh: "通过" },
  "refused": { en: "refused", zh: "拒绝" },
  "failed": { en: "failed", zh: "失败" },
  "cancelled": { en: "cancelled", zh: "取消" },
  "in parallel": { en: "in parallel", zh: "并行中" },
  "not reached": { en: "not reached", zh: "未到达" },
  "unknown": { en: "unknown", zh: "不明" },
};

/** The commit divider's words: what the commit point saw. */
export const COMMIT_TEXT: Readonly<Record<CommitState, Text>> = {
  "committed": {
    en: "commit point: draft committed; no later check can undo it",
    zh: "提交点：草稿已提交，之后的检查都撤销不了",
  },
  "reused": {
    en: "commit point: draft already there, reused; this attempt wrote none",
    zh: "提交点：草稿早已存在，本次复用，没有新写入",
  },
  "not reached": {
    en: "commit point: not reached; this attempt wrote no draft",
    zh: "提交点：未到达，本次没有写入草稿",
  },
};

/** The note a stage of one attempt's timeline carries, by what happened there. */
export const STAGE_NOTES = {
  parallelInput: {
    en: "a model of the Python SDK's scheduling: runs beside the " +
      "call, which does not wait",
    zh: "模拟 Python SDK 的调度：与调用并行，调用不等它的结论",
  },
  cancelBeforeBusiness: {
    en: "cancel arrived before business: no write",
    zh: "取消在业务写入前到达：没有写入",
  },
  errorBeforeBusiness: {
    en: "an error before business: no write",
    zh: "业务写入前出错：没有写入",
  },
  committed: { en: "new draft committed", zh: "新草稿已提交" },
  reused: {
    en: "reused: same key, same arguments",
    zh: "复用：同一业务键、同样参数（幂等）",
  },
  rolledBack: {
    en: "failed in the transaction: rolled back",
    zh: "事务内失败：已回滚，没有写入",
  },
  tripwireAfterCommit: (rule: Text): Text => ({
    en: `tripwire after the commit: ${rule.en}`,
    zh: `提交之后才触发：${rule.zh}`,
  }),
  allowedAfterCommit: {
    en: "allowed, but only after the commit",
    zh: "允许，但结论在提交之后才到",
  },
  cancelAfterCommit: {
    en: "cancel arrived after commit: draft stays",
    zh: "取消在提交之后才到达，草稿留下",
  },
  errorAfterCommit: {
    en: "an error after commit: draft stays",
    zh: "提交之后出错，草稿留下",
  },
  cancelDuringCheck: {
    en: "cancel during the check: nothing released",
    zh: "取消在检查中到达：结果不放行",
  },
  checkFailed: {
    en: "the check itself failed: nothing released",
    zh: "检查本身出错：结果不放行",
  },
  claimedNoRows: (attempt: number | null): Text => ({
    en: `claimed #${attempt}; the INSERT added 0 rows`,
    zh: `声称 #${attempt}；INSERT 实际新增 0 行`,
  }),
  receiptFailedWhileCancelling: {
    en: "write failed while recording the cancel",
    zh: "记录取消时回执写入失败：没有回执",
  },
  receiptFailed: {
    en: "write failed: this attempt has no receipt",
    zh: "回执写入失败：本次尝试没有回执",
  },
  /** The receipt row's note: its number and status (the row is the receipt's). */
  written: (attempt: number, status: string | undefined): Text => ({
    en: `#${attempt} ${status}`,
    zh: `#${attempt} ${status}`,
  }),
} as const;

/** What the ledger and the caller hold after one attempt, for the state lines. */
export const STATE_TEXTS = {
  noReceipt: { en: "none", zh: "没有回执" },
  claimedReceipt: (attempt: number): Text => ({
    en: `none (the receipt before the fix claimed #${attempt})`,
    zh: `没有回执（修正前的回执声称 #${attempt}）`,
  }),
  receipt: (attempt: number, status: string | undefined): Text => ({
    en: `#${attempt} ${status}`,
    zh: `回执 #${attempt} ${status}`,
  }),
  raisedWhileCancelling: (raised: string): Text => ({
    en: `an exception (${raised}), raised while cancelling`,
    zh: `异常（${raised}），发生在取消过程中`,
  }),
  raised: (raised: string): Text => ({
    en: `an exception (${raised})`,
    zh: `异常（${raised}）`,
  }),
  noValue: (status: string): Text => ({
    en: `no value (status ${status})`,
    zh: `没有结果（状态 ${status}）`,
  }),
  checkedValue: { en: "the checked value", zh: "经过检查的结果" },
  unknownCaller: { en: "unknown", zh: "不明" },
} as const;

/** Short stage names, for the ledger view's one-line marks. */
export const SHORT_STAGE_LABEL: Readonly<Record<StageId, Text>> = {
  arguments: { en: "args", zh: "参数" },
  input: { en: "input", zh: "前检" },
  before_business: { en: "before business", zh: "业务写入前" },
  business: { en: "business", zh: "业务写入" },
  input_verdict: { en: "agent verdict", zh: "Agent 护栏结论" },
  after_commit: { en: "after commit", zh: "提交之后" },
  output: { en: "output", zh: "后检" },
  receipt: { en: "receipt", zh: "回执" },
};

/** What the commit point saw, in one word, for the ledger view's headings. */
export const COMMIT_SHORT: Readonly<Record<CommitState, Text>> = {
  "committed": { en: "committed", zh: "已提交" },
  "reused": { en: "reused", zh: "复用" },
  "not reached": { en: "not reached", zh: "未到达" },
};

/** The ledger view's headings and lines (`guardlab ledger --timeline`). */
export const LEDGER_TIMELINE_MESSAGES = {
  unknownInput: {
    en: "no receipt says how it was judged",
    zh: "没有回执说明它如何被判定",
  },
  validArguments: (job: string): Text => ({
    en: `the draft ${job} holds valid arguments`,
    zh: `草稿 ${job} 的参数有效`,
  }),
  draftRowExists: { en: "the draft row exists", zh: "草稿行存在" },
  receiptMissing: {
    en: "receipt missing: no receipt records this commit",
    zh: "回执缺失：没有回执记录这次提交",
  },
  noJob: { en: "(no job)", zh: "（无业务键）" },
  noReceiptTitle: (job: string, commit: Text): Text => ({
    en: `(no receipt)  ${job}  ${commit.en}, and no receipt records it`,
    zh: `（无回执）  ${job}  ${commit.zh}，却没有回执记录它`,
  }),
  note: (stage: Text, mark: Text, note: Text): Text => ({
    en: `      ${stage.en} ${mark.en}: ${note.en}`,
    zh: `      ${stage.zh}${mark.zh}：${note.zh}`,
  }),
  /** A note that names its stage and what happened there itself. */
  noteAlone: (note: Text): Text => ({
    en: `      ${note.en}`,
    zh: `      ${note.zh}`,
  }),
  attemptsInOrder: (all: number, receipts: number, without: number): Text => ({
    en: `${all} attempt${
      all === 1 ? "" : "s"
    } in order: ${receipts} with a receipt, ${without} without (a draft no receipt records)`,
    zh:
      `按顺序共 ${all} 次调用：${receipts} 次有回执，${without} 次没有（没有回执记录的草稿）`,
  }),
  commitPoint: { en: "commit point", zh: "提交点" },
  omitted: (count: number): Text => ({
    en: `(${count} earlier attempt${count === 1 ? "" : "s"} not drawn)`,
    zh: `（更早的 ${count} 次调用未画出）`,
  }),
  unordered: (calls: number, max: number): Text => ({
    en: `(drawn in receipt order: this ledger records ${calls} MCP ` +
      `call${calls === 1 ? "" : "s"}, and a timeline orders attempts by ` +
      `their calls' start only up to ${max} rows of receipts, calls and ` +
      "drafts together)",
    zh: `（按回执顺序画出：这个账本记录了 ${calls} 次 MCP 调用，而时间线` +
      `只在回执、调用和草稿合计不超过 ${max} 行时按调用开始的顺序排列调用）`,
  }),
  compensationVoided: (job: string, receiptWritten: boolean): Text => ({
    en: `compensation  ${job}  voided (${
      receiptWritten ? "its receipt written" : "its receipt missing"
    })`,
    zh: `补偿  ${job}  已作废（${
      receiptWritten ? "补偿回执已写" : "补偿回执缺失"
    }）`,
  }),
  compensationRequested: (job: string): Text => ({
    en: `compensation  ${job}  requested, never confirmed`,
    zh: `补偿  ${job}  已请求，从未确认`,
  }),
} as const;

/**
 * What the ledger's timeline says about MCP calls: which session and call an
 * attempt was, the calls it overlapped, and the calls that wrote no receipt
 * of the lab's (the read tools, compensate).
 */
export const LEDGER_CALL_MESSAGES = {
  place: (session: number, call: number): Text => ({
    en: `(session ${session}, call ${call})`,
    zh: `（会话 ${session}，第 ${call} 次调用）`,
  }),
  readTitle: (what: string, isRead: boolean, place: Text): Text => ({
    en: `${isRead ? "read" : "call"}: ${what}  ${place.en}`,
    zh: `${isRead ? "读取" : "调用"}：${what}  ${place.zh}`,
  }),
  overlapped: (session: number | null, call: number, what: string): Text => ({
    en: `${
      session === null ? "" : `session ${session} `
    }call ${call} (${what})`,
    zh: `${
      session === null ? "" : `会话 ${session} `
    }第 ${call} 次调用（${what}）`,
  }),
  /** `named` is the calls joined with {@linkcode LEDGER_CALL_MESSAGES.separator}. */
  overlaps: (named: Text, more: number): Text => ({
    en: `      overlapped: ${named.en}${more > 0 ? `, and ${more} more` : ""}`,
    zh: `      与之重叠：${named.zh}${more > 0 ? `，另有 ${more} 次` : ""}`,
  }),
  separator: { en: ", ", zh: "、" },
  legend: {
    en:
      "  (session S, call N): the MCP call it was; drawn in the order the calls started",
    zh: "  （会话 S，第 N 次调用）：它是哪一次 MCP 调用；按调用开始的顺序画出",
  },
  session: (session: number, client: string): Text => ({
    en: `  session ${session}: client "${client}"`,
    zh: `  会话 ${session}：客户端 "${client}"`,
  }),
} as const;

/** The policy lab's two lanes: a heading for the terminal, a name for the SVG. */
export const POLICY_LANES = {
  reader: {
    heading: { en: "reader (check, then write)", zh: "读者（先检查，再写入）" },
    name: { en: "reader", zh: "读者" },
  },
  editor: {
    heading: { en: "editor (changes the rule)", zh: "编辑者（修改规则）" },
    name: { en: "editor", zh: "编辑者" },
  },
} as const satisfies Record<string, Record<string, Text>>;

/** What each `policy.*` step did, as its lane says it; `{job}` is `JOB ×copies`. */
export const POLICY_STEP_MESSAGES = {
  precheckAllowed: {
    en: "pre-check {job}: saw revision {revision}, limit {limit}: allowed",
    zh: "前检 {job}：看到修订号 {revision}、上限 {limit}：允许",
  },
  precheckRefused: {
    en: "pre-check {job}: refused ({reason})",
    zh: "前检 {job}：拒绝（{reason}）",
  },
  ruleChanged: {
    en: "rule changed: revision {revision}, limit {limit}",
    zh: "规则已修改：修订号 {revision}，上限 {limit}",
  },
  ruleChangeRefused: {
    en: "rule change refused ({raised})",
    zh: "修改被拒绝（{raised}）",
  },
  ruleRowMissing: {
    en: "rule changed, but the rule row is missing",
    zh: "修改了规则，但规则行缺失",
  },
  sawRevision: {
    en: " (saw revision {revision})",
    zh: "（所见修订号 {revision}）",
  },
  insertMatched: {
    en: "conditional insert {job}{saw}: condition matched, committed",
    zh: "条件写入 {job}{saw}：条件匹配，已提交",
  },
  insertNotMatched: {
    en: "conditional insert {job}{saw}: condition did not match, " +
      "nothing written",
    zh: "条件写入 {job}{saw}：条件不匹配，什么也没写",
  },
  insertFailed: {
    en: "conditional insert {job}: {outcome}",
    zh: "条件写入 {job}：{outcome}",
  },
  naiveWritten: {
    en: "naive insert {job}: written on the old check alone",
    zh: "对照实现 {job}：只凭旧检查就写入了",
  },
  naiveFailed: {
    en: "naive insert {job}: {outcome}",
    zh: "对照实现 {job}：{outcome}",
  },
  lockFailed: { en: "lock: {raised}", zh: "加锁：{raised}" },
  locked: {
    en: "holds the write lock (BEGIN IMMEDIATE)",
    zh: "持有写锁（BEGIN IMMEDIATE）",
  },
  unlocked: {
    en: "releases the lock (ROLLBACK)",
    zh: "释放写锁（ROLLBACK）",
  },
  ruleDeleted: { en: "deletes the rule row", zh: "删除了规则行" },
  readFailed: { en: "reads drafts: {raised}", zh: "读取草稿：{raised}" },
} as const satisfies Record<string, Text>;

/** The policy lab's draft rows in words, in a lane and in the demo. */
export const DRAFT_ROW_MESSAGES = {
  drafts: { en: "drafts: {drafts}", zh: "草稿：{drafts}" },
  none: { en: "none", zh: "无" },
  row: {
    en: "{job} ×{copies} (revision {revision})",
    zh: "{job} ×{copies}（修订号 {revision}）",
  },
  separator: { en: ", ", zh: "、" },
} as const satisfies Record<string, Text>;

/** The policy demo's words for outcomes and drafts; `{…}` are filled from the demo's result. */
export const POLICY_DEMO_MESSAGES = {
  draft: {
    en: "{job} copies={copies} checked at rev {rev}",
    zh: "{job} copies={copies}，按修订号 {rev} 检查",
  },
  inserted: { en: "inserted", zh: "已写入" },
  refused: { en: "refused, nothing written", zh: "拒绝，什么也没写" },
  drafts: { en: "  drafts: {drafts}", zh: "  草稿：{drafts}" },
  /** A pre-check the current rule refuses: the verdict, then its reason. */
  currentLimit: {
    en: "refused (current_limit)",
    zh: "拒绝（current_limit：超过当前上限）",
  },
} as const satisfies Record<string, Text>;

/** The stages of a compensation's timeline. */
export const COMPENSATION_STAGES = {
  draft: { en: "rejected draft", zh: "被拒的草稿" },
  request: { en: "request", zh: "补偿请求" },
  void: { en: "void", zh: "作废" },
  receipt: { en: "receipt", zh: "补偿回执" },
} as const satisfies Record<string, Text>;

/** What a compensation's timeline says of each stage and of the ledger afterwards. */
export const COMPENSATION_MESSAGES = {
  origin: {
    en: "  guardlab's extension of the article, from its warning that a " +
      "compensation can itself fail",
    zh: "  guardlab 对文章的扩展，出处是文章的提醒“补偿本身也可能失败”",
  },
  draft: {
    en: "committed; its output was rejected",
    zh: "已提交；其结果被后检拒绝",
  },
  request: {
    en: "recorded in its own transaction",
    zh: "在自己的事务里记录",
  },
  voided: {
    en: "the draft row stays, marked void",
    zh: "草稿行保留，标记为作废",
  },
  voidFailed: {
    en: "failed before its commit: rolled back",
    zh: "提交前失败：已回滚",
  },
  committed: {
    en: "compensation's commit point: void committed",
    zh: "补偿的提交点：作废已提交",
  },
  notReached: {
    en: "compensation's commit point: not reached; the draft stands",
    zh: "补偿的提交点：未到达，草稿仍然有效",
  },
  receipt: { en: "compensation receipt #{n}", zh: "补偿回执 #{n}" },
  // The Chinese state names what was voided: "草稿已被补偿作废", not "补偿已作废".
  voidedState: { en: "voided, on record", zh: "草稿已被补偿作废，有记录" },
  requestedState: {
    en: "requested, never confirmed",
    zh: "补偿已请求、未确认",
  },
  noneState: { en: "none", zh: "没有补偿" },
  ledger: {
    en: "  ledger: compensation {state}; drafts {drafts}, compensation " +
      "receipts {receipts}",
    zh: "  账本：{state}；草稿 {drafts} 条，补偿回执 {receipts} 条",
  },
  retry: {
    en: "  retry of the same request: {outcome}",
    zh: "  重试同一请求：{outcome}",
  },
} as const satisfies Record<string, Text>;

/** The words of the SVG timeline beside the stage and mark labels. */
export const SVG_MESSAGES = {
  draftPresent: { en: "DRAFT PRESENT", zh: "草稿存在" },
  draftAbsent: { en: "draft absent", zh: "无草稿" },
  state: {
    en: "receipt {receipt} · caller: {caller}",
    zh: "{receipt} · 调用方得到：{caller}",
  },
} as const satisfies Record<string, Text>;

/** What the SVG writes under the commit point, by what it saw there. */
export const COMMIT_WORDS = {
  "committed": { en: "commit point: committed", zh: "提交点：已提交" },
  "reused": { en: "commit point: reused", zh: "提交点：复用" },
  "not reached": { en: "commit point: not reached", zh: "提交点：未到达" },
} as const satisfies Record<string, Text>;

/** What a view says when it left rows out (`view_bound.ts`). */
export const VIEW_BOUND_MESSAGES = {
  cut: {
    en: "(cut: a view shows at most {max} characters of stored text)",
    zh: "（已截断：一个视图最多显示 {max} 个字符的存储文本）",
  },
  notShown: { en: "(not shown: {list})", zh: "（未显示：{list}）" },
  separator: { en: ", ", zh: "，" },
} as const satisfies Record<string, Text>;

/** Each kind of row a view can leave out, counted: `{n}` of `{total}`. */
export const VIEW_ROW_KINDS = {
  drafts: (n: number, total: number): Text => ({
    en: `${n} of ${total} drafts`,
    zh: `${total} 条草稿中的 ${n} 条`,
  }),
  receipts: (n: number, total: number): Text => ({
    en: `${n} of ${total} receipts`,
    zh: `${total} 条回执中的 ${n} 条`,
  }),
  compensations: (n: number, total: number): Text => ({
    en: `${n} of ${total} compensations`,
    zh: `${total} 项补偿中的 ${n} 项`,
  }),
  policy_drafts: (n: number, total: number): Text => ({
    en: `${n} of ${total} policy drafts`,
    zh: `${total} 条规则实验草稿中的 ${n} 条`,
  }),
  attempts: (n: number, total: number): Text => ({
    en: `${n} of the ${total} latest attempts`,
    zh: `最近 ${total} 次调用中的 ${n} 次`,
  }),
  calls: (n: number, total: number): Text => ({
    en: `${n} of ${total} MCP calls`,
    zh: `${total} 次 MCP 调用中的 ${n} 次`,
  }),
  sessions: (n: number, total: number): Text => ({
    en: `${n} of ${total} MCP sessions`,
    zh: `${total} 个 MCP 会话中的 ${n} 个`,
  }),
  keys: (n: number, total: number): Text => ({
    en: `${n} of ${total} keys`,
    zh: `${total} 个业务键中的 ${n} 个`,
  }),
  steps: (n: number, total: number): Text => ({
    en:
      `${n} of ${total} steps (each was run; script without --view prints one JSON line a step)`,
    zh:
      `${total} 个步骤中的 ${n} 个（都已运行；不带 --view 的 script 每步输出一行 JSON）`,
  }),
} as const;
