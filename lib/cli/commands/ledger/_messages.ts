/**
 * What `guardlab ledger` says: its help, and the words around a ledger's
 * drafts, receipts and policy rows.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `ledger --help`: what it does and its flags. */
export const LEDGER_HELP = {
  about: {
    en:
      `Shows the drafts (the business effect) and the receipts (the audit trail).
--timeline draws every attempt in order from the receipts instead, each with
its stage marks and whether it committed, reused or never reached the commit
point; a draft whose attempt left no receipt is drawn as an attempt too. Use it
after an agent's session over guardlab mcp to read what the agent did.
The file is opened read-only: not a byte of it changes.`,
    zh:
      `显示草稿（业务效果）和回执（审计记录）。--timeline 改为按回执顺序画出每次调用，
各带阶段标记，以及它是提交、复用还是没到提交点；调用没有留下回执的草稿也画成一次
调用。Agent 通过 guardlab mcp 会话之后，用它读懂 Agent 实际做了什么。
以只读方式打开，文件一个字节都不改。`,
  },
  json: {
    en: 'print {"drafts": [...], "receipts": [...]}',
    zh: '输出 {"drafts": [...], "receipts": [...]}',
  },
  timeline: {
    en: "every attempt in order, with its stage marks",
    zh: "按顺序列出每次调用及其阶段标记",
  },
  format: {
    en: "with --timeline: text (default), json or svg",
    zh: "与 --timeline 一起：text（默认）、json 或 svg",
  },
  refused: {
    en: "refused: outside the sandbox, a link, a folder others can change, " +
      "a file that is not a ledger, or an --otlp FILE that exists already; " +
      "nothing was changed",
    zh: "拒绝：在沙箱之外、是链接、目录可被他人改动、文件不是账本，" +
      "或 --otlp 的文件已经存在；没有改动任何内容",
  },
  otlp: {
    en:
      "with --timeline: also write the same timeline to this new file as an OpenTelemetry trace (OTLP JSON, one line; the student grant writes under /tmp only)",
    zh:
      "与 --timeline 一起：同时把同一条时间线以 OpenTelemetry trace（OTLP JSON，一行）写入这个新文件（学生版权限只能写在 /tmp 下）",
  },
} as const satisfies Record<string, Text>;

/** What `ledger` shows a person. */
export const LEDGER_MESSAGES = {
  drafts: {
    en: "drafts ({n}): the business effect",
    zh: "草稿（{n} 条）：业务效果",
  },
  voidedTag: { en: "  [voided]", zh: "  [已作废]" },
  requestedTag: {
    en: "  [compensation requested]",
    zh: "  [补偿已请求，未确认]",
  },
  receipts: {
    en: "receipts ({n}): the audit trail",
    zh: "回执（{n} 条）：审计记录",
  },
  draftPresent: { en: "draft present", zh: "草稿存在" },
  draftAbsent: { en: "draft absent", zh: "草稿不存在" },
  noJob: { en: "(no job)", zh: "（无业务键）" },
  policyLab: { en: "policy lab ({file}):", zh: "规则实验（{file}）：" },
  policyNotCreated: {
    en: "  not created yet (a script's policy steps create it)",
    zh: "  尚未创建（script 的 policy 步骤会创建它）",
  },
  ruleMissing: {
    en: "  rule: missing (deleted)",
    zh: "  当前规则：缺失（已被删除）",
  },
  rule: {
    en: "  rule: revision {revision}, max_copies {max_copies}",
    zh: "  当前规则：修订号 {revision}，max_copies {max_copies}",
  },
  policyDrafts: {
    en: "  drafts ({n}), each with the revision its check saw:",
    zh: "  草稿（{n} 条），附前检所见的修订号：",
  },
  formatNeedsTimeline: {
    en: "--format needs --timeline",
    zh: "--format 需要与 --timeline 一起使用",
  },
  otlpNeedsTimeline: {
    en: "--otlp needs --timeline",
    zh: "--otlp 需要与 --timeline 一起使用",
  },
  svgTitle: {
    en: "guardlab ledger: every attempt",
    zh: "guardlab 账本：每次调用",
  },
  policyDraft: {
    en: "    {job}  copies={copies}  checked at revision {revision}",
    zh: "    {job}  copies={copies}  按修订号 {revision} 检查",
  },
} as const satisfies Record<string, Text>;
