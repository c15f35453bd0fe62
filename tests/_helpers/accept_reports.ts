/**
 * Accept reports written by hand, for the views and the baseline: one row
 * per case with only what the test names, the rest plain.
 */
import {
  type CaseName,
  type Verdict,
  VERDICT_CLASS,
} from "../../lib/accept/cases.ts";
import type { AcceptReport, CaseResult } from "../../lib/accept/run.ts";
import type { Outcome } from "../../lib/accept/session.ts";

/** One row: `tool`'s oracle entry `entry`, `case`, `verdict`, and what the client saw. */
export function rowOf(
  tool: string,
  entry: number,
  name: CaseName,
  verdict: Verdict,
  more: {
    saw?: Outcome[];
    effect?: number | null;
    before?: number | null;
    ms?: number;
    info?: Verdict[];
  } = {},
): CaseResult {
  return {
    case: name,
    tool,
    entry,
    client_saw: more.saw ?? ["success"],
    answers: [],
    effect: more.effect === undefined ? 1 : more.effect,
    ...(more.before === undefined ? {} : { effect_before_retry: more.before }),
    verdict,
    class: VERDICT_CLASS[verdict],
    info: more.info ?? [],
    problems: [],
    notices: [],
    run: "abc1231",
    key: "k-abc1231-001",
    timeline: more.ms === undefined
      ? []
      : [{ lane: "client", kind: "sent", call: 1, at_ms: more.ms }],
    history: { version: 1, subject: "mcp-server", records: [] },
  };
}

/** A report of `rows` from `server` (`notes-server 2.0` unless named). */
export function reportOf(
  rows: CaseResult[],
  server = { name: "notes-server", version: "2.0" },
): AcceptReport {
  return {
    server,
    startup_problems: [],
    unlisted: [],
    hints: {},
    results: rows,
    unsafe: rows.filter((r) => r.class === "unsafe").length,
    inconclusive: rows.filter((r) => r.class === "inconclusive").length,
  };
}

/** Chapter 8 in `lang`. */
export function chapter8(lang: "en" | "zh"): string {
  return Deno.readTextFileSync(
    new URL(`../../docs/${lang}/08-accept-your-own-tool.md`, import.meta.url),
  );
}

/** The lines of the first indented code block after the line holding `marker`, unindented. */
export function blockAfter(text: string, marker: string): string[] {
  const lines = text.split("\n");
  let i = lines.findIndex((l) => l.includes(marker));
  if (i < 0) throw new Error(`no ${marker} in the chapter`);
  while (i < lines.length && !lines[i].startsWith("    ")) i++;
  const out: string[] = [];
  for (; i < lines.length && lines[i].startsWith("    "); i++) {
    out.push(lines[i].slice(4));
  }
  return out;
}
