/**
 * What a row of `guardlab accept`'s matrix says: what the client saw and
 * the effect, in its columns; beside its verdict, the
 * facts the verdict rests on (k of N told failed, the old and the other
 * effect, what the read saw before a kill and after the restart, a cancel
 * that came too late and why, a hint and the verdict that contradicts it,
 * the server's own words when it said no, what it did wrong), and the
 * hints each write tool declares; and every name a report holds from a
 * server or an oracle, shown inert.
 *
 * @module
 */
import { fill, joinTexts, same, type Text } from "../../base/i18n.ts";
import { inert } from "../../base/terminal.ts";
import type { AcceptReport, CaseResult } from "../run.ts";
import { MAX_MESSAGE_BYTES } from "../../wire/limits.ts";
import { MATRIX_WORDS as M, OUTCOME_WORD, PROBLEM_WORD } from "../messages.ts";
import { HINT_NAMES, type Outcome, type ToolHints } from "../session.ts";
import { DETAIL_WORDS as D } from "../verdict_messages.ts";

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
    // The read before the kill counts 0 only once call 1's answer is in.
    const first = r.answers.find((a) => a.call === 1);
    if (r.effect_before_kill === 0 && first?.outcome === "success") {
      out.push(D.answeredBeforeKill);
    }
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
  out.push(...contractTexts(r));
  // What the server said when it said no: the words to fix the tool by.
  const said = r.answers.find((a) =>
    (a.outcome === "tool-error" || a.outcome === "rpc-error" ||
      a.outcome === "http-error") &&
    a.text !== undefined && a.text !== ""
  );
  if (said !== undefined) {
    out.push(fill(D.answerText, { call: said.call, text: said.text! }));
  }
  return out;
}

/** The draft's status for the refusal a case tests (other arguments: 422; no key: 400). */
const DRAFT_STATUS: Readonly<Partial<Record<CaseResult["case"], number>>> = {
  "same-key-other-arguments": 422,
  "missing-key": 400,
};

/**
 * The facts of the idempotency-key contract a row rests on: the declared
 * conflict and the retry after it (or, undeclared, how to declare it),
 * whether a repeat got the stored result, the wait inside a key's
 * lifetime, the draft's status beside the one answered, an HTTP API's
 * statuses.
 */
function contractTexts(r: CaseResult): Text[] {
  const out: Text[] = [];
  if (r.conflicts !== undefined && r.conflicts > 0) {
    out.push(fill(D.conflicts, { k: r.conflicts, n: r.copies ?? "?" }));
  }
  if (
    r.case === "concurrent-same" && r.verdict === "FALSE-FAILURE" &&
    r.conflicts === undefined
  ) {
    const e = r.answers.find((a) => a.outcome !== "success");
    const example = e?.status !== undefined
      ? `"conflict": {"status": ${e.status}}`
      : e?.code !== undefined
      ? `"conflict": {"code": ${e.code}}`
      : `"conflict": {"json": POINTER, "value": V}`;
    out.push(fill(D.declareConflict, { example }));
  }
  if (
    r.replayed === false &&
    (r.verdict === "ONCE" || r.verdict === "ERROR-NOT-REPLAYED")
  ) out.push(D.notReplayed);
  if (r.waited_ms !== undefined) {
    out.push(
      fill(D.waited, { ms: r.waited_ms, lifetime: r.lifetime_ms ?? "?" }),
    );
  }
  const want = DRAFT_STATUS[r.case];
  const got = r.answers.at(-1)?.status;
  if (r.info.includes("OTHER-STATUS") && want !== undefined) {
    out.push(fill(D.otherStatus, { got: got ?? "?", want }));
  }
  const statuses = r.answers.filter((a) => a.status !== undefined);
  if (statuses.length > 0) {
    out.push(
      fill(D.statuses, {
        list: statusList(statuses.map((a) => a.status!)),
      }),
    );
  }
  return out;
}

/** Statuses in call order, runs folded: `201, 409 ×9, 201`. */
function statusList(statuses: readonly number[]): Text {
  const runs: { status: number; n: number }[] = [];
  for (const status of statuses) {
    const last = runs.at(-1);
    if (last?.status === status) last.n++;
    else runs.push({ status, n: 1 });
  }
  return joinTexts(
    runs.map(({ status, n }) =>
      same(n === 1 ? `${status}` : `${status} ×${n}`)
    ),
    D.hintSep,
  );
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

/** What the client saw over a case's calls, in words: `no answer, then success`, `10× success`. */
export function sawText(saw: readonly Outcome[]): Text {
  if (saw.length === 0) return same("-");
  if (saw.length > 2) {
    const counts = new Map<Outcome, number>();
    for (const o of saw) counts.set(o, (counts.get(o) ?? 0) + 1);
    return joinTexts(
      [...counts].map(([o, n]) => fill(M.times, { n, what: OUTCOME_WORD[o] })),
      M.sawSep,
    );
  }
  return joinTexts(saw.map((o) => OUTCOME_WORD[o]), M.then);
}

/** The effect column of a row. */
export function effectText(r: CaseResult): Text {
  if (r.verdict === "NOT-RUN" || r.case === "annotations") return same("-");
  if (r.effect === null) return M.unknown;
  if (
    (r.case === "concurrent-distinct" || r.case === "two-processes") &&
    r.copies !== undefined
  ) {
    return fill(M.effectOf, { kept: r.effect, n: r.copies });
  }
  if (r.effect_before_retry !== undefined) {
    return fill(M.effectBefore, {
      n: r.effect,
      before: r.effect_before_retry ?? "?",
    });
  }
  if (r.effect_other !== undefined) {
    return fill(M.effectOther, { n: r.effect, other: r.effect_other ?? "?" });
  }
  return same(String(r.effect));
}

/**
 * `report` with every name it holds from the server or the oracle made
 * inert (the server's name and version, the tools, the keys), before any
 * line is laid out: a server may name itself or its tools with what drives
 * a terminal, colour codes too (accept's screen writes none of its own),
 * and the width of a line is that of what is shown.
 */
export function shownReport(report: AcceptReport): AcceptReport {
  return {
    ...report,
    server: {
      name: inert(report.server.name),
      version: inert(report.server.version),
    },
    unlisted: report.unlisted.map(inert),
    hints: Object.fromEntries(
      Object.entries(report.hints).map(([tool, h]) => [inert(tool), h]),
    ),
    results: report.results.map((r) => ({
      ...r,
      tool: inert(r.tool),
      key: inert(r.key),
    })),
  };
}
