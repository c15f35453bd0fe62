/**
 * What `guardlab reconcile` says: its help, each pending key and the safe
 * next step for it.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `reconcile --help`: what it does, its flag, its exit code. */
export const RECONCILE_HELP = {
  about: {
    en:
      `Lists every business key whose draft exists but for which no receipt says
accepted, including drafts with no receipt at all (the effect is there, the
receipt is missing), with the safe next step: retry the same key and
arguments; the draft is reused and the output check runs again. The retry
arguments are the ones whose digest equals the stored digest. It also lists
every compensation requested but never confirmed (next step: compensate
again), and each key a compensation voided. Read-only.`,
    zh:
      `列出每个“草稿存在、却没有任何回执写着 accepted”的业务键，包括完全没有回执
的草稿（效果已发生，回执缺失），并给出安全的下一步：用同一业务键和同样参数
重试——草稿被复用（幂等），后检重新运行。重试参数是摘要与已存摘要一致的那一组。
还列出请求过但从未确认的补偿（下一步：再补偿一次），以及每个已被补偿作废的
业务键。只读。`,
  },
  json: { en: 'print {"pending": [...]}', zh: '输出 {"pending": [...]}' },
  exitOk: { en: "nothing needs reconciling", zh: "没有需要对账的业务键" },
  exitPending: {
    en: "keys need handling: a retry, or a compensation done again",
    zh: "对账发现需要处理的业务键（重试或再补偿）",
  },
} as const satisfies Record<string, Text>;

/** What `reconcile` tells a person. */
export const RECONCILE_MESSAGES = {
  next: { en: "  next: ", zh: "  下一步：" },
  noReceipt: {
    en: "no receipt at all (effect present, receipt missing)",
    zh: "没有任何回执（效果已发生，回执缺失）",
  },
  receipts: { en: "receipts {list}", zh: "已有回执 {list}" },
  receiptWritten: { en: "its receipt written", zh: "补偿回执已写" },
  receiptMissing: { en: "its receipt missing", zh: "补偿回执缺失" },
  voided: {
    en: "{job}: voided by a compensation (draft row kept; {receipt})",
    zh: "{job}：已被补偿作废（草稿行保留；{receipt}）",
  },
  keyClosed: {
    en: "        (the key is closed: a retry is refused as key_voided)",
    zh: "        （该业务键已关闭：重试会被拒绝，状态 key_voided）",
  },
  requested: {
    en:
      "{job}: compensation requested, never confirmed; the draft still stands",
    zh: "{job}：补偿已请求，但从未确认；草稿仍有效",
  },
  compensateAgain: {
    en: "        (a compensation can fail too: run it again, then check)",
    zh: "          （补偿本身也可能失败：重做补偿，再核对账本）",
  },
  neverAccepted: {
    en: "{job}: draft present, never accepted; {seen}",
    zh: "{job}：草稿存在，但从未得到 accepted 回执；{seen}",
  },
  retryOriginal: {
    en: "retry {job} with the arguments that created it",
    zh: "用当初创建 {job} 的那组参数重试",
  },
  sameKey: {
    en:
      "        (same key, same arguments: the draft is reused, checked again)",
    zh: "          （同一业务键、同样参数：草稿被复用，后检重新运行）",
  },
  nothing: {
    en: "nothing to reconcile: every live draft has an accepted receipt",
    zh: "无需对账：每份有效草稿都有 accepted 回执",
  },
  foreignKey: {
    en: "(none: this key is not one guardlab would write)",
    zh: "（无：这个业务键不是 guardlab 会写下的）",
  },
} as const satisfies Record<string, Text>;
