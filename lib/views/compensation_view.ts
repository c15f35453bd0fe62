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
import { fill, type Lang, say } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import type { Mark } from "./_marks.ts";
import {
  COMPENSATION_MESSAGES,
  COMPENSATION_STAGES,
  MARK_LABEL,
} from "./_messages.ts";
import { PLAIN, type Style, SYMBOL } from "./timeline.ts";

/** The stages of a compensation. */
type CompensationStage = keyof typeof COMPENSATION_STAGES;

const TEXT = COMPENSATION_MESSAGES;

/** The lines of one compensation scenario, within 80 columns. */
export function compensationLines(
  outcome: CompensationOutcome,
  lang: Lang,
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
    const head = `  ${pad(say(COMPENSATION_STAGES[stage], lang), 16)} `;
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
        ? say(
          fill(TEXT.receipt, { n: String(outcome.compensation.attempt) }),
          lang,
        )
        : null,
    ),
    ...wrap(
      say(
        fill(TEXT.ledger, {
          state,
          drafts: outcome.rows.drafts,
          receipts: outcome.rows.compensation_receipts,
        }),
        lang,
      ),
      80,
    ),
    ...wrap(
      say(
        fill(TEXT.retry, { outcome: retry.status ?? retry.raised ?? "?" }),
        lang,
      ),
      80,
    ),
  ];
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
