/**
 * What the views say, in both languages: the policy lanes, the policy
 * demo's lines, the compensation's timeline and the SVG's words beside the
 * stage and mark labels (those live with the timeline, in `timeline.ts`).
 * `{…}` are filled from what the labs did.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

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
    zh: "错误对照 {job}：只凭旧检查就写入了",
  },
  naiveFailed: {
    en: "naive insert {job}: {outcome}",
    zh: "错误对照 {job}：{outcome}",
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
  voidedState: { en: "voided, on record", zh: "已作废，有记录" },
  requestedState: {
    en: "requested, never confirmed",
    zh: "已请求、未确认",
  },
  noneState: { en: "none", zh: "无" },
  ledger: {
    en: "  ledger: compensation {state}; drafts {drafts}, compensation " +
      "receipts {receipts}",
    zh: "  账本：补偿{state}；草稿 {drafts} 条，补偿回执 {receipts} 条",
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
    zh: "回执 {receipt} · 调用方得到：{caller}",
  },
} as const satisfies Record<string, Text>;

/** What the SVG writes under the commit point, by what it saw there. */
export const COMMIT_WORDS = {
  "committed": { en: "commit point: committed", zh: "提交点：已提交" },
  "reused": { en: "commit point: reused", zh: "提交点：复用" },
  "not reached": { en: "commit point: not reached", zh: "提交点：未到达" },
} as const satisfies Record<string, Text>;
