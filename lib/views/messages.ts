/**
 * The texts of the timeline views, in both languages: stage and mark
 * labels, what the commit point saw, the note each stage can carry, the
 * state lines under a timeline, and the ledger view's headings and lines.
 * The rule a refusal names is the lab's own text (`RULES` in
 * `lib/timing/messages.ts`).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { CommitState, Mark, StageId } from "./marks.ts";

/** The state lines under a timeline. */
export const TIMELINE_MESSAGES = {
  ledgerDraft: {
    en: "  ledger: draft present, receipt {receipt}",
    zh: "  账本：草稿存在，回执 {receipt}",
  },
  ledgerNoDraft: {
    en: "  ledger: draft absent, receipt {receipt}",
    zh: "  账本：草稿不存在，回执 {receipt}",
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
    zh: "取消在提交之后到达：草稿留下",
  },
  errorAfterCommit: {
    en: "an error after commit: draft stays",
    zh: "提交之后出错：草稿留下",
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
} as const;

/** What the ledger and the caller hold after one attempt, for the state lines. */
export const STATE_TEXTS = {
  noReceipt: { en: "none", zh: "无" },
  claimedReceipt: (attempt: number): Text => ({
    en: `none (the receipt before the fix claimed #${attempt})`,
    zh: `无（修正前的回执声称 #${attempt}）`,
  }),
  receipt: (attempt: number, status: string | undefined): Text => ({
    en: `#${attempt} ${status}`,
    zh: `#${attempt} ${status}`,
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
  input_verdict: { en: "input verdict", zh: "前检结论" },
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
    en: "missing: no receipt records this commit",
    zh: "缺失：没有回执记录这次提交",
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
  attemptsInOrder: (all: number, receipts: number, without: number): Text => ({
    en:
      `${all} attempts in order: ${receipts} with a receipt, ${without} without (a draft no receipt records)`,
    zh:
      `按顺序共 ${all} 次调用：${receipts} 次有回执，${without} 次没有（没有回执记录的草稿）`,
  }),
  commitPoint: { en: "commit point", zh: "提交点" },
  omitted: (count: number): Text => ({
    en: `(${count} earlier attempts not drawn)`,
    zh: `（更早的 ${count} 次调用未画出）`,
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
