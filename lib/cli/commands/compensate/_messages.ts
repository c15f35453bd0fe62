/**
 * What `guardlab compensate` says: its help and each outcome.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";
import { COMPENSATION_FAULTS } from "../../../timing/compensation.ts";

/** `compensate --help`: what it does, its flags, its exit codes. */
export const COMPENSATE_HELP = {
  about: {
    en:
      `No check undoes a commit; undoing a draft takes the business's own flow.
compensate records the request (one commit), voids the draft in its own
transaction (the draft row stays; the void is recorded beside it), then writes
the compensation's own receipt. A voided key is closed: a retry is refused as
key_voided, never re-created. --fail-at makes it fail before its commit (the
request stays unconfirmed) or after it (voided, no compensation receipt);
reconcile tells the three apart.`,
    zh:
      `检查撤销不了提交；撤销草稿要走业务自己的流程。compensate 先记录补偿请求（一次
提交），再在自己的事务里作废草稿（草稿行保留，作废记录在旁边），然后写下补偿自己
的回执。被作废的业务键就此关闭：重试会被拒绝（key_voided），不会重新创建。
--fail-at 让补偿在提交前失败（请求一直未确认）或提交后失败（已作废，没有补偿
回执）；reconcile 能区分这三种情况。`,
  },
  job: { en: "the business key to compensate", zh: "要补偿的业务键" },
  failAt: {
    en: `fault: fail at ${COMPENSATION_FAULTS.join(" or ")}`,
    zh: `故障：在 ${COMPENSATION_FAULTS.join(" 或 ")} 处失败`,
  },
  json: { en: "print the result as JSON", zh: "以 JSON 输出结果" },
  exitOk: {
    en: "voided, already voided, or there was no draft to undo",
    zh: "已作废、早已作废，或没有可撤销的草稿",
  },
  exitFailed: {
    en: "the compensation failed (see reconcile)",
    zh: "补偿失败（见 reconcile）",
  },
} as const satisfies Record<string, Text>;

/** What `compensate` tells a person. */
export const COMPENSATE_MESSAGES = {
  voided: {
    en: "{job}: voided (draft row kept), compensation receipt #{attempt}",
    zh: "{job}：已作废（草稿行保留），补偿回执 #{attempt}",
  },
  already_voided: {
    en: "{job}: already voided; nothing written",
    zh: "{job}：早已作废，什么也没写",
  },
  no_draft: {
    en: "{job}: no draft; nothing to compensate",
    zh: "{job}：没有草稿，无需补偿",
  },
  failed: {
    en:
      "{job}: the compensation failed ({message}); reconcile shows where it stopped",
    zh: "{job}：补偿失败（{message}）；用 reconcile 查看它停在哪一步",
  },
} as const satisfies Record<string, Text>;
