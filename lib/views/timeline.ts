/**
 * The timeline view of one attempt: each stage in order with its mark, the
 * commit point between business and output check, and what the ledger and
 * the caller hold afterwards. A mark sits on the stage where the event
 * happened: a cancel or failure between two stages gets a row of its own
 * ("before business", "after commit"), never the next stage's.
 *
 * @module
 */
import { BATCH_LIMIT, COPIES_RANGE } from "../timing/args.ts";
import type { Attempt } from "../timing/attempt.ts";
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import { STATUSES } from "../timing/stages.ts";

/** The statuses guardlab writes on a receipt: a result's, or a cancel. */
const RECEIPT_STATUSES: ReadonlySet<string> = new Set([
  ...STATUSES,
  "cancelled",
]);

/** The mark of one stage. */
export type Mark =
  | "passed"
  | "refused"
  | "failed"
  | "cancelled"
  | "in parallel"
  | "not reached"
  // Drawn from the ledger alone, where no receipt says what happened.
  | "unknown";

/** The stages a timeline can show, in order. */
export const STAGE_IDS = [
  "arguments",
  "input",
  "before_business",
  "business",
  "input_verdict",
  "after_commit",
  "output",
  "receipt",
] as const;

/** One stage of the timeline. */
export type StageId = typeof STAGE_IDS[number];

/** What the commit point saw. */
export type CommitState = "committed" | "reused" | "not reached";

/** One row of the timeline. */
export interface StageRow {
  /** Which stage. */
  stage: StageId;
  /** What happened there. */
  mark: Mark;
  /** Why, or what it means, when there is something to say. */
  note: Text | null;
  /** A label in place of the stage's own, when the stage plays another part. */
  label?: Text;
}

/** The whole view of one attempt. */
export interface Timeline {
  /** Stages before the commit point. */
  before: StageRow[];
  /** What the commit point saw. */
  commit: CommitState;
  /** Stages after the commit point (a gap row, output check, receipt). */
  after: StageRow[];
  /** Ledger and caller state after the attempt. */
  state: { draft: boolean; receipt: Text; caller: Text };
}

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

/** The label a row is shown with. */
export function stageLabel(row: StageRow): Text {
  return row.label ?? STAGE_LABEL[row.stage];
}

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

/** Each refusal names its rule and what would have been valid. */
export const RULES: Readonly<Record<string, Text>> = {
  shape: {
    en: "shape: exactly job, topic, copies",
    zh: "形状：恰好 job、topic、copies 三个字段",
  },
  job: {
    en: "job: JOB- and three digits, e.g. JOB-001",
    zh: "job：JOB- 加三位数字，例如 JOB-001",
  },
  topic: { en: "topic: river or forest", zh: "topic：river 或 forest" },
  copies: {
    en: `copies: an integer from ${COPIES_RANGE[0]} to ${COPIES_RANGE[1]}`,
    zh: `copies：${COPIES_RANGE[0]} 到 ${COPIES_RANGE[1]} 的整数`,
  },
  batch_limit: {
    en: `batch_limit: at most ${BATCH_LIMIT} copies per call`,
    zh: `batch_limit：每次最多 ${BATCH_LIMIT} 份`,
  },
  output_contract: {
    en: "output contract: not the draft asked for",
    zh: "输出约定：不是参数要求的那份草稿",
  },
  key_voided: {
    en: "key voided by a compensation: not re-created",
    zh: "业务键已被补偿作废：不会重新创建",
  },
  same_key_different_arguments: {
    en: "key exists with other arguments: no write",
    zh: "业务键已以其他参数存在：什么也没写",
  },
};

const COMMIT_TEXT: Readonly<Record<CommitState, Text>> = {
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

function ruleNote(refusal: string | undefined): Text | null {
  return refusal !== undefined && Object.hasOwn(RULES, refusal)
    ? RULES[refusal]
    : null;
}

/** Build the timeline of `attempt`. */
export function timelineOf(attempt: Attempt): Timeline {
  const seen = new Set<string>(attempt.events);
  const { outcome, stoppedAt } = attempt;
  const status = outcome.kind === "result" ? outcome.status : undefined;
  const cancelled = outcome.kind === "raised" &&
    (outcome.raised === "cancelled" || outcome.cause === "cancelled");
  // What happened where the attempt stopped, if a fault stopped it.
  const stopMark: Mark = cancelled ? "cancelled" : "failed";
  const before: StageRow[] = [];
  const after: StageRow[] = [];

  const argsRefused = status === "input_rejected" &&
    !seen.has("arguments_valid");
  before.push({
    stage: "arguments",
    mark: seen.has("arguments_valid")
      ? "passed"
      : argsRefused
      ? "refused"
      : "not reached",
    note: argsRefused ? ruleNote(attempt.refusal) : null,
  });
  const parallel = attempt.inputGuardrail === "parallel";
  const inputRefused = status === "input_rejected" &&
    seen.has("arguments_valid");
  before.push(
    parallel && seen.has("arguments_valid")
      ? {
        stage: "input",
        label: AGENT_INPUT_LABEL,
        mark: "in parallel",
        note: {
          en: "a model of the Python SDK's scheduling: runs beside the " +
            "call, which does not wait",
          zh: "模拟 Python SDK 的调度：与调用并行，调用不等它的结论",
        },
      }
      : {
        stage: "input",
        mark: seen.has("input_allowed")
          ? "passed"
          : inputRefused
          ? "refused"
          : "not reached",
        note: inputRefused ? ruleNote(attempt.refusal) : null,
      },
  );
  if (stoppedAt === "before_business") {
    before.push({
      stage: "before_business",
      mark: stopMark,
      note: cancelled
        ? {
          en: "cancel arrived before business: no write",
          zh: "取消在业务写入前到达：没有写入",
        }
        : {
          en: "an error before business: no write",
          zh: "业务写入前出错：没有写入",
        },
    });
  }
  const committed = seen.has("effect_committed");
  const reused = seen.has("effect_reused");
  const businessMark: Mark = committed || reused
    ? "passed"
    : !seen.has("business_started")
    ? "not reached"
    : status === "key_conflict" || status === "key_voided"
    ? "refused"
    : "failed";
  before.push({
    stage: "business",
    mark: businessMark,
    note: committed
      ? { en: "new draft committed", zh: "新草稿已提交" }
      : reused
      ? {
        en: "reused: same key, same arguments",
        zh: "复用：同一业务键、同样参数（幂等）",
      }
      : businessMark === "refused"
      ? (status === "key_voided"
        ? RULES.key_voided
        : RULES.same_key_different_arguments)
      : businessMark === "failed"
      ? {
        en: "failed in the transaction: rolled back",
        zh: "事务内失败：已回滚，没有写入",
      }
      : null,
  });

  if (parallel && seen.has("arguments_valid")) {
    const late = seen.has("input_tripwire");
    after.push({
      stage: "input_verdict",
      mark: late
        ? "refused"
        : seen.has("input_allowed")
        ? "passed"
        : "not reached",
      note: late
        ? {
          en: `tripwire after the commit: ${
            say(ruleNote(attempt.refusal) ?? RULES.batch_limit, "en")
          }`,
          zh: `提交之后才触发：${
            say(ruleNote(attempt.refusal) ?? RULES.batch_limit, "zh")
          }`,
        }
        : seen.has("input_allowed")
        ? {
          en: "allowed, but only after the commit",
          zh: "允许，但结论在提交之后才到",
        }
        : null,
    });
  }
  if (stoppedAt === "after_commit" || stoppedAt === "after_business") {
    after.push({
      stage: "after_commit",
      mark: stopMark,
      note: cancelled
        ? {
          en: "cancel arrived after commit: draft stays",
          zh: "取消在提交之后到达：草稿留下",
        }
        : {
          en: "an error after commit: draft stays",
          zh: "提交之后出错：草稿留下",
        },
    });
  }
  const outputMark: Mark = seen.has("output_allowed")
    ? "passed"
    : !seen.has("output_started")
    ? "not reached"
    : status === "output_rejected"
    ? "refused"
    : stoppedAt === "output_check"
    ? stopMark
    : "failed";
  after.push({
    stage: "output",
    mark: outputMark,
    note: outputMark === "refused"
      ? ruleNote(attempt.refusal)
      : outputMark === "cancelled"
      ? {
        en: "cancel during the check: nothing released",
        zh: "取消在检查中到达：结果不放行",
      }
      : outputMark === "failed"
      ? {
        en: "the check itself failed: nothing released",
        zh: "检查本身出错：结果不放行",
      }
      : null,
  });

  const lied = attempt.receiptRowsInserted === 0;
  const receipt: Text = attempt.receiptAttempt === null
    ? { en: "none", zh: "无" }
    : lied
    ? {
      en:
        `none (the receipt before the fix claimed #${attempt.receiptAttempt})`,
      zh: `无（修正前的回执声称 #${attempt.receiptAttempt}）`,
    }
    : {
      en: `#${attempt.receiptAttempt} ${attempt.receiptStatus}`,
      zh: `#${attempt.receiptAttempt} ${attempt.receiptStatus}`,
    };
  after.push({
    stage: "receipt",
    // A status guardlab never writes (a ledger from someone else) says
    // nothing about how the call went: unknown, never passed.
    mark: attempt.receiptAttempt === null || lied
      ? "failed"
      : RECEIPT_STATUSES.has(attempt.receiptStatus ?? "")
      ? "passed"
      : "unknown",
    note: lied
      ? {
        en: `claimed #${attempt.receiptAttempt}; the INSERT added 0 rows`,
        zh: `声称 #${attempt.receiptAttempt}；INSERT 实际新增 0 行`,
      }
      : attempt.receiptAttempt !== null
      ? receipt
      : cancelled
      ? {
        en: "write failed while recording the cancel",
        zh: "记录取消时回执写入失败：没有回执",
      }
      : {
        en: "write failed: this attempt has no receipt",
        zh: "回执写入失败：本次尝试没有回执",
      },
  });

  const caller: Text = outcome.kind === "raised"
    ? outcome.cause === "cancelled"
      ? {
        en: `an exception (${outcome.raised}), raised while cancelling`,
        zh: `异常（${outcome.raised}），发生在取消过程中`,
      }
      : {
        en: `an exception (${outcome.raised})`,
        zh: `异常（${outcome.raised}）`,
      }
    : outcome.released === null
    ? {
      en: `no value (status ${outcome.status})`,
      zh: `没有结果（状态 ${outcome.status}）`,
    }
    : { en: "the checked value", zh: "经过检查的结果" };

  return {
    before,
    commit: committed ? "committed" : reused ? "reused" : "not reached",
    after,
    state: { draft: attempt.draftExists, receipt, caller },
  };
}

/** Styling hooks for {@linkcode renderTimeline}; identity functions give plain text. */
export interface Style {
  /** Style a mark. */
  mark(mark: Mark, text: string): string;
  /** Style the commit divider. */
  divider(text: string): string;
}

/** Plain text, for pipes and `NO_COLOR`. */
export const PLAIN: Style = { mark: (_m, t) => t, divider: (t) => t };

/** ANSI colours for a terminal. */
export const ANSI: Style = {
  mark(mark, text) {
    const code = mark === "passed"
      ? 32
      : mark === "not reached" || mark === "unknown"
      ? 90
      : mark === "cancelled"
      ? 33
      : mark === "in parallel"
      ? 36
      : 31;
    return `\x1b[${code}m${text}\x1b[0m`;
  },
  divider: (t) => `\x1b[1m${t}\x1b[0m`,
};

/** The symbol of each mark, the same in both languages. */
export const SYMBOL: Readonly<Record<Mark, string>> = {
  "passed": "[ok]",
  "refused": "[no]",
  "failed": "[!!]",
  "cancelled": "[xx]",
  "in parallel": "[..]",
  "not reached": "[ ]",
  "unknown": "[??]",
};

/** The column where a row's note starts. */
const NOTE_AT = 2 + 16 + 1 + 18;

/** `text` padded with spaces to `width` terminal columns. */
function padTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Render `timeline` in `lang` as lines no wider than 80 columns. */
export function renderTimeline(
  timeline: Timeline,
  style: Style = PLAIN,
  lang: Lang = "en",
): string[] {
  const row = (r: StageRow): string[] => {
    const word = say(MARK_LABEL[r.mark], lang);
    const label = `${SYMBOL[r.mark].padEnd(4)} ${word}`;
    const head = `  ${padTo(say(stageLabel(r), lang), 16)} `;
    if (r.note === null) return [head + style.mark(r.mark, label)];
    // Pad outside the colour codes, so coloured and plain text line up alike;
    // the note wraps in its own column.
    const gap = " ".repeat(Math.max(1, 18 - displayWidth(label)));
    const [first, ...rest] = wrap(say(r.note, lang), 80 - NOTE_AT, 0)
      .map((l) => l.trim());
    return [
      head + style.mark(r.mark, label) + gap + first,
      ...rest.map((l) => " ".repeat(NOTE_AT) + l),
    ];
  };
  const divider = `--- ${say(COMMIT_TEXT[timeline.commit], lang)} `;
  const state = timeline.state;
  return [
    ...timeline.before.flatMap(row),
    "  " +
    style.divider(
      divider + "-".repeat(Math.max(0, 76 - displayWidth(divider))),
    ),
    ...timeline.after.flatMap(row),
    say(
      fill(
        state.draft
          ? TIMELINE_MESSAGES.ledgerDraft
          : TIMELINE_MESSAGES.ledgerNoDraft,
        { receipt: state.receipt },
      ),
      lang,
    ),
    say(fill(TIMELINE_MESSAGES.caller, { caller: state.caller }), lang),
  ];
}
