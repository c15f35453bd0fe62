/**
 * The timeline of a compensation, as `demo article` shows it: a rejected
 * draft, the compensation's request (its own transaction), the void (the
 * compensation's own commit point), its receipt, and a retry of the same
 * request. The two compensation scenarios are guardlab's extension of the
 * article, grown from its warning "补偿本身也可能失败"; the view says so.
 *
 * @module
 */
import type { CompensationOutcome } from "../experiments/article_demo.ts";
import { say, type Text } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import type { Mark } from "./marks.ts";
import { MARK_LABEL } from "./messages.ts";
import { PLAIN, type Style, SYMBOL } from "./timeline.ts";

/** The stages of a compensation. */
type CompensationStage = "draft" | "request" | "void" | "receipt";

const LABEL: Readonly<Record<CompensationStage, Text>> = {
  draft: { en: "rejected draft", zh: "被拒的草稿" },
  request: { en: "request", zh: "补偿请求" },
  void: { en: "void", zh: "作废" },
  receipt: { en: "receipt", zh: "补偿回执" },
};

const TEXT = {
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

function fill(
  text: Text,
  lang: "en" | "zh",
  values: Record<string, string>,
): string {
  return say(text, lang).replace(/\{(\w+)\}/g, (_, k: string) => values[k]);
}

/** The lines of one compensation scenario, within 80 columns. */
export function compensationLines(
  outcome: CompensationOutcome,
  lang: "en" | "zh",
  style: Style = PLAIN,
): string[] {
  const events = Array.isArray(outcome.compensation.events)
    ? outcome.compensation.events as string[]
    : [];
  const raised = "raised" in outcome.compensation;
  const requested = outcome.rows.compensation !== null;
  const voided = events.includes("void_committed");
  const receipted = events.includes("compensation_receipt_written");
  const row = (
    stage: CompensationStage,
    mark: Mark,
    note: string | null,
  ): string[] => {
    const head = `  ${pad(say(LABEL[stage], lang), 16)} `;
    const label = `${SYMBOL[mark].padEnd(4)} ${say(MARK_LABEL[mark], lang)}`;
    if (note === null) return [head + style.mark(mark, label)];
    const gap = " ".repeat(Math.max(1, 18 - displayWidth(label)));
    const [first, ...rest] = wrap(note, 80 - 37, 0).map((l) => l.trim());
    return [
      head + style.mark(mark, label) + gap + first,
      ...rest.map((l) => " ".repeat(37) + l),
    ];
  };
  const divider = `--- ${
    say(voided ? TEXT.committed : TEXT.notReached, lang)
  } `;
  const state = outcome.rows.compensation === "voided"
    ? TEXT.voidedState
    : outcome.rows.compensation === "requested"
    ? TEXT.requestedState
    : TEXT.noneState;
  const retry = outcome.retry as { status?: string; raised?: string };
  return [
    ...wrap(say(TEXT.origin, lang), 80),
    ...row("draft", "passed", say(TEXT.draft, lang)),
    ...row(
      "request",
      requested ? "passed" : "not reached",
      requested ? say(TEXT.request, lang) : null,
    ),
    ...row(
      "void",
      voided ? "passed" : raised ? "failed" : "not reached",
      voided
        ? say(TEXT.voided, lang)
        : raised
        ? say(TEXT.voidFailed, lang)
        : null,
    ),
    "  " + style.divider(
      divider + "-".repeat(Math.max(0, 76 - displayWidth(divider))),
    ),
    ...row(
      "receipt",
      receipted ? "passed" : "not reached",
      receipted
        ? fill(TEXT.receipt, lang, {
          n: String(outcome.compensation.attempt),
        })
        : null,
    ),
    ...wrap(
      fill(TEXT.ledger, lang, {
        state: say(state, lang),
        drafts: String(outcome.rows.drafts),
        receipts: String(outcome.rows.compensation_receipts),
      }),
      80,
    ),
    ...wrap(
      fill(TEXT.retry, lang, {
        outcome: retry.status ?? retry.raised ?? "?",
      }),
      80,
    ),
  ];
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
