/**
 * The feedback that names what happened, in both languages side by side:
 * the line under a finding that does not hold (what the student's answer
 * did, in the article's words), and the legend of the marks. Logic picks a
 * text here and fills it in; it never writes one.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** `1 copy`, `2 copies`: a count as English says it (Chinese says 份 for any). */
function copiesEn(copies: string): string {
  return `${copies} ${copies === "1" ? "copy" : "copies"}`;
}

/** What a student's answer did, said under a finding that does not hold. */
export const HAPPENED_MESSAGES = {
  did: (what: Text): Text => ({
    en: `     what your answer did: ${what.en}`,
    zh: `     你的答案实际做的是：${what.zh}`,
  }),
  found: (what: Text): Text => ({
    en: `     what the ledger holds: ${what.en}`,
    zh: `     账本里实际有的是：${what.zh}`,
  }),
  noRuns: { en: "no run step at all", zh: "根本没有 run 步骤" },
  noStep: (op: string): Text => ({
    en: `no ${op} step at all`,
    zh: `根本没有 ${op} 步骤`,
  }),
  noSteps: { en: "no step at all", zh: "根本没有步骤" },
  nothingFromLine: (table: string, line: string): Text => ({
    en: `line ${line} wrote no row in ${table}`,
    zh: `第 ${line} 行没有在 ${table} 里写下任何行`,
  }),
  aRun: { en: "run", zh: "调用" },
  aStep: { en: "step", zh: "步骤" },
  rowIn: (table: string): Text => ({
    en: `row in ${table}`,
    // After 别的: a Latin word is set apart by a space.
    zh: ` ${table} 里的行`,
  }),
  noOther: (kind: Text, only: Text): Text => ({
    en: `no other ${kind.en}: the only one is ${only.en}`,
    zh: `没有别的${kind.zh}，唯一的一个：${only.zh}`,
  }),
  noRows: (table: string): Text => ({
    en: `no row in ${table}`,
    zh: `${table} 里没有任何行`,
  }),
  committed: {
    en: "after the commit point (its draft was committed)",
    zh: "在提交点之后（草稿已提交）",
  },
  reused: {
    en: "reusing the draft already there",
    zh: "复用了已有的草稿",
  },
  beforeCommit: {
    en: "before the commit point (nothing was written)",
    zh: "在提交点之前（什么也没写）",
  },
  run: (
    line: string,
    request: Text,
    outcome: string,
    why: string,
    commit: Text,
  ): Text => ({
    en: `line ${line}, a run of ${request.en} ended ${outcome}${
      why ? ` (${why})` : ""
    } ${commit.en}`,
    zh: `第 ${line} 行，${request.zh}的调用以 ${outcome}${
      why ? `（${why}）` : " "
    }结束，${commit.zh}`,
  }),
  runThenRaised: (
    line: string,
    request: Text,
    first: string,
    outcome: string,
    commit: Text,
  ): Text => ({
    en:
      `line ${line}, a run of ${request.en} was ${
        first === "cancelled" ? "cancelled" : `refused (${first})`
      }, then its receipt could not be written: it ended ${outcome} ` +
      commit.en,
    zh: `第 ${line} 行，${request.zh}的调用${
      first === "cancelled" ? "被取消" : `被拒绝（${first}）`
    }，之后回执没能写下：以 ${outcome} 结束，${commit.zh}`,
  }),
  request: (
    job: string,
    topic: string,
    copies: string,
    more: readonly string[],
  ): Text => ({
    en: [`${job} (${topic}`, copiesEn(copies), ...more].join(", ") + ")",
    zh: [`${job}（${topic}`, `${copies} 份`, ...more].join("，") + "）",
  }),
  precheckRefused: (
    line: string,
    job: string,
    copies: string,
    why: string,
  ): Text => ({
    en: `line ${line}, the pre-check of ${job} for ${copiesEn(copies)} was ` +
      `refused (${why}): no Snapshot was taken`,
    zh: `第 ${line} 行，对 ${job} 前检 ${copies} 份被拒绝（${why}）：` +
      "没有取得 Snapshot",
  }),
  precheck: (
    line: string,
    job: string,
    copies: string,
    revision: string,
    limit: string,
  ): Text => ({
    en:
      `line ${line}, the pre-check of ${job} for ${copiesEn(copies)} took a ` +
      `Snapshot at revision ${revision} (limit ${limit})`,
    zh: `第 ${line} 行，对 ${job} 前检 ${copies} 份，取得了 Snapshot` +
      `（修订号 ${revision}，上限 ${limit}）`,
  }),
  change: (line: string, limit: string, revision: string): Text => ({
    en:
      `line ${line}, the limit was changed to ${limit} (revision ${revision})`,
    zh: `第 ${line} 行，上限被改成 ${limit}（修订号 ${revision}）`,
  }),
  insert: (
    line: string,
    op: string,
    job: string,
    copies: string,
    snapshot: string,
    result: string,
    rule: Text,
  ): Text => ({
    en: `line ${line}, ${op} of ${job} for ${copiesEn(copies)} with the ` +
      `Snapshot ${snapshot} returned ${result}, ${rule.en}`,
    zh: `第 ${line} 行，用 Snapshot ${snapshot} 对 ${job}、${copies} 份的 ` +
      `${op} 返回 ${result}，${rule.zh}`,
  }),
  rule: (revision: string, limit: string): Text => ({
    en: `the rule at revision ${revision}, limit ${limit}`,
    zh: `规则为修订号 ${revision}、上限 ${limit}`,
  }),
  noRule: { en: "with no rule row", zh: "规则行不存在" },
  compensate: (line: string, job: string, outcome: string): Text => ({
    en: `line ${line}, a compensation of ${job} ended ${outcome}`,
    zh: `第 ${line} 行，对 ${job} 的补偿以 ${outcome} 结束`,
  }),
  step: (line: string, op: string): Text => ({
    en: `line ${line}, ${op}`,
    zh: `第 ${line} 行，${op}`,
  }),
  draft: (job: string, text: string | null): Text => ({
    en: `the draft of ${job}${text === null ? "" : `: "${text}"`}`,
    zh: `${job} 的草稿${text === null ? "" : `：“${text}”`}`,
  }),
  receipt: (
    attempt: string,
    job: string | null,
    status: string,
    effect: boolean,
  ): Text => ({
    en: `receipt #${attempt} ${job === null ? "(no valid key)" : `of ${job}`}` +
      `: ${status}, effect ${effect ? "present" : "absent"}`,
    zh: `${
      job === null
        ? `回执 #${attempt}（没有有效的业务键）`
        : `${job} 的回执 #${attempt}`
    }：${status}，效果${effect ? "存在" : "不存在"}`,
  }),
  call: (
    session: string,
    call: string,
    tool: string,
    receipt: string | null,
  ): Text => ({
    en: `call ${call} of MCP session ${session}: ${tool}, ${
      receipt === null ? "no receipt" : `receipt ${receipt}`
    }`,
    zh: `MCP 会话 ${session} 的第 ${call} 次调用：${tool}，${
      receipt === null ? "没有回执" : `回执 ${receipt}`
    }`,
  }),
  compensation: (job: string, state: string): Text => ({
    en: `the compensation of ${job}: ${state}`,
    zh: `${job} 的补偿：${state}`,
  }),
  pending: (job: string, state: string): Text => ({
    en: `reconcile: ${job} is ${state}`,
    zh: `对账：${job} 为 ${state}`,
  }),
  policyDraft: (job: string, copies: string, revision: string): Text => ({
    en: `the draft of ${job}, ${
      copiesEn(copies)
    }, checked at revision ${revision}`,
    zh: `${job} 的草稿，${copies} 份，按修订号 ${revision} 检查`,
  }),
  compare: (left: string, value: string): Text => ({
    en: `${left} is ${value}`,
    zh: `${left} 为 ${value}`,
  }),
  order: (first: string, second: string): Text => ({
    en: `line ${first} came before line ${second}`,
    zh: `第 ${first} 行在第 ${second} 行之前`,
  }),
} as const;

/** The legend of the marks a check printed: each the first time it appears. */
export const LEGEND_MESSAGES = {
  marks: (parts: Text[]): Text => ({
    en: `Marks: ${parts.map((p) => p.en).join("; ")}`,
    zh: `标记：${parts.map((p) => p.zh).join("；")}`,
  }),
  yes: { en: "[ok] holds", zh: "[ok] 成立" },
  no: { en: "[no] does not hold", zh: "[no] 不成立" },
  noDid: {
    en: "[no] does not hold (under it, what your answer did)",
    zh: "[no] 不成立（其下一行是你的答案实际做的）",
  },
  notChecked: {
    en: "[--] not checked: it rests on the line marked [no]",
    zh: "[--] 未检查：它依赖标为 [no] 的那一项",
  },
  unbound: {
    en: "… a value of a step your answer never had",
    zh: "… 你的答案里没有的那一步的值",
  },
} as const;

/**
 * What kind of reason stopped the judging: the answer is no valid answer,
 * a prediction is malformed, a bound was crossed, it could not be judged,
 * or a reveal asked too early.
 */
export type ReasonKind = "answer" | "guess" | "limit" | "judge" | "reveal";

/**
 * The line that says why nothing was judged. English says "not yet" for
 * every kind; Chinese names the kind, since "还没有" would read the same for
 * a failed verdict, an invalid answer and a malformed guess (zh-screens
 * item 20).
 */
export const NOT_YET: Readonly<Record<ReasonKind, (reason: Text) => Text>> = {
  answer: (r) => ({ en: `not yet: ${r.en}`, zh: `答案无效：${r.zh}` }),
  guess: (r) => ({ en: `not yet: ${r.en}`, zh: `预测格式不对：${r.zh}` }),
  limit: (r) => ({ en: `not yet: ${r.en}`, zh: `超出限制：${r.zh}` }),
  judge: (r) => ({ en: `not yet: ${r.en}`, zh: `无法判定：${r.zh}` }),
  reveal: (r) => ({ en: `not yet: ${r.en}`, zh: `还不能揭示：${r.zh}` }),
};
