/**
 * What `accept --baseline FILE` adds to the screen: which failing verdicts
 * the baseline excused, which of its verdicts are fixed, and which failing
 * verdicts are worse than it or new, each row named `tool/case` as the
 * JUnit report names it; and what `accept judge` adds: the rows whose
 * stated verdict their history does not give.
 *
 * @module
 */
import {
  fill,
  joinTexts,
  type Lang,
  same,
  say,
  type Text,
} from "../../base/i18n.ts";
import { inert, wrap } from "../../base/terminal.ts";
import type { BaselineStatus, Comparison } from "../baseline.ts";
import { BASELINE_MESSAGES as B, JUDGE_MESSAGES as J } from "../ci_messages.ts";
import type { Changed } from "../judge.ts";
import type { AcceptReport, CaseResult } from "../run.ts";

/** The name of a row: `tool/case`, with `#ENTRY` after a tool the oracle names twice. */
export function rowName(row: CaseResult, report: AcceptReport): string {
  const twice = report.results.some((r) =>
    r.tool === row.tool && r.entry !== row.entry
  );
  return `${row.tool}${twice ? `#${row.entry}` : ""}/${row.case}`;
}

/** {@linkcode rowName} as a screen shows it: a tool's name is the oracle's, and may hold what drives a terminal. */
function shownName(row: CaseResult, report: AcceptReport): string {
  return inert(rowName(row, report));
}

const HEADS: readonly [BaselineStatus, Text][] = [
  ["excused", B.excused],
  ["fixed", B.fixed],
  ["worse", B.worse],
  ["new", B.fresh],
];

/** The baseline's lines under the summary, within 80 columns: excused always, the rest when there are any. */
export function baselineLines(
  report: AcceptReport,
  comparison: Comparison,
  file: string,
  lang: Lang,
): string[] {
  const heading = fill(B.heading, {
    file: JSON.stringify(file),
    server: inert(comparison.server.name),
    version: inert(comparison.server.version),
  });
  const lines = wrap(say(heading, lang), 80, 0).map((l) => l.trimEnd());
  for (const [status, head] of HEADS) {
    const rows = comparison.rows.filter((r) => r.status === status);
    if (rows.length === 0 && status !== "excused") continue;
    const named = rows.map((r) => {
      const row = same(`${shownName(r.row, report)} ${r.row.verdict}`);
      return r.before === undefined || r.before === r.row.verdict
        ? row
        : fill(B.was, {
          row: shownName(r.row, report),
          verdict: r.row.verdict,
          before: r.before,
        });
    });
    const list = rows.length === 0 ? B.none : joinTexts(named, B.rowSep);
    // Each list indented under its heading, its continuation lines further.
    const text = "  " + say(fill(head, { rows: list }), lang);
    for (const l of wrap(text, 80, 4)) lines.push(l.trimEnd());
  }
  return lines;
}

/** `accept judge`'s lines under the summary: each row whose stated verdict its history does not give (none: no line). */
export function changedLines(
  changed: readonly Changed[],
  lang: Lang,
): string[] {
  if (changed.length === 0) return [];
  const lines: string[] = [say(J.changedHead, lang)];
  for (const c of changed) {
    const row = fill(J.changed, {
      row: inert(`${c.tool}#${c.entry}/${c.case}`),
      was: c.was,
      now: c.now,
    });
    lines.push(
      ...wrap(say(row, lang), 78, 0).map((l, i) =>
        (i === 0 ? "  " : "    ") + l.trim()
      ),
    );
  }
  return lines;
}
