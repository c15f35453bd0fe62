/**
 * What a row of `guardlab accept`'s matrix says beside its verdict: the
 * facts the verdict rests on (k of N told failed, the old and the other
 * effect, what the read saw before a kill and after the restart, a cancel
 * that came too late and why, a hint and the verdict that contradicts it,
 * the server's own words when it said no, what it did wrong), and the
 * hints each write tool declares.
 *
 * @module
 */
import { fill, joinTexts, same, type Text } from "../base/i18n.ts";
import type { CaseResult } from "../accept/run.ts";
import { MAX_MESSAGE_BYTES } from "../accept/limits.ts";
import { ACCEPT_MESSAGES as M, PROBLEM_WORD } from "../accept/messages.ts";
import { HINT_NAMES, type ToolHints } from "../accept/session.ts";
import { DETAIL_WORDS as D } from "../accept/verdict_messages.ts";

/** A tool's declared hints in one line: `declared hints: idempotentHint: true, …`. */
export function hintsText(hints: ToolHints): Text {
  const named = HINT_NAMES.filter((h) => hints[h] !== undefined);
  if (named.length === 0) return D.noHints;
  return fill(D.hints, {
    hints: joinTexts(named.map((h) => same(`${h}: ${hints[h]}`)), D.hintSep),
  });
}

/** The facts a row's verdict rests on, beyond the matrix's columns. */
export function detailTexts(r: CaseResult): Text[] {
  const out: Text[] = [];
  if (r.counted_under === "call") out.push(D.badCallKey);
  if (r.told_failed !== undefined && r.told_failed > 0) {
    out.push(
      fill(D.toldFailed, {
        k: r.told_failed,
        n: r.copies ?? r.client_saw.length,
      }),
    );
  }
  if (r.effect_old !== undefined && r.effect_other !== undefined) {
    out.push(
      fill(D.oldAndOther, {
        old: r.effect_old ?? "?",
        other: r.effect_other ?? "?",
      }),
    );
  }
  if (r.effect_before_kill !== undefined) {
    out.push(
      fill(D.beforeKill, {
        kill: r.effect_before_kill ?? "?",
        restart: r.effect_before_retry ?? "?",
      }),
    );
  }
  if (r.cancel !== undefined && !r.cancel.sent) {
    const first = r.answers.find((a) => a.call === 1);
    out.push(
      fill(D.tooLate, {
        ms: first?.ms ?? "?",
        after: r.cancel.after_ms,
        from: r.cancel.from === "flag"
          ? D.fromFlag
          : r.cancel.from === "measured"
          ? fill(D.fromMeasured, { median: r.cancel.median_ms ?? "?" })
          : D.fromDefault,
      }),
    );
  }
  for (const c of r.contradicted ?? []) {
    out.push(
      fill(D.contradicted, {
        hint: c.hint,
        declared: String(c.declared),
        case: c.case,
        verdict: c.verdict,
      }),
    );
  }
  // What the server said when it said no: the words to fix the tool by.
  const said = r.answers.find((a) =>
    (a.outcome === "tool-error" || a.outcome === "rpc-error") &&
    a.text !== undefined && a.text !== ""
  );
  if (said !== undefined) {
    out.push(fill(D.answerText, { call: said.call, text: said.text! }));
  }
  return out;
}

/** The problems of a row in words. */
export function problemsText(r: Pick<CaseResult, "problems">): Text {
  // The same problem again is counted, not repeated: a server that sends
  // 44 messages past the bound is one line, not a screenful.
  const counted = new Map<string, { text: Text; n: number }>();
  for (const p of r.problems) {
    const at = `${p.kind}\u0000${p.id ?? ""}`;
    const seen = counted.get(at);
    if (seen !== undefined) seen.n++;
    else {
      counted.set(at, {
        text: fill(PROBLEM_WORD[p.kind], {
          id: p.id ?? "?",
          max: MAX_MESSAGE_BYTES,
        }),
        n: 1,
      });
    }
  }
  return fill(M.problems, {
    problems: joinTexts(
      [...counted.values()].map(({ text, n }) =>
        n === 1 ? text : fill(M.times, { n, what: text })
      ),
      M.problemSep,
    ),
  });
}
