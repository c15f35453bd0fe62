/**
 * `guardlab accept host` drawn: the matrix (one row per case and variant
 * of the tool, with its verdict), and under each row what the verdict
 * means, what the host did (sent the call again, cancelled it, what it
 * told the model, how many effects the ledger holds under each key), the
 * host's own words to the model, and the article's sentence the verdict
 * tests; then the summary. Text within 80 columns. And the same rows as
 * JUnit XML (`--junit`), with the classes deciding a failure, an error or
 * a pass, as accept's do.
 *
 * @module
 */
import { fill, type Lang, same, say, type Text } from "../../base/i18n.ts";
import { displayWidth, wrap } from "../../base/terminal.ts";
import { xmlEscape } from "../../base/markup.ts";
import { VERDICT_CLASS } from "../cases.ts";
import { VERDICT_ARTICLE, VERDICT_MEANING } from "../verdict_messages.ts";
import { HOST_WORDS as W, TOLD_WORDS } from "../host_messages.ts";
import type { HostCaseResult, HostReport } from "../host_report.ts";
import type { JunitOutcome } from "./accept_junit.ts";

const WIDTH = 80;
const COLS = { case: 31, variant: 10 };

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(1, width - displayWidth(text)));
}

/** How many rows of each class. */
export function hostCounts(report: HostReport) {
  const of = (c: string) =>
    report.results.filter((r) => VERDICT_CLASS[r.verdict] === c).length;
  return {
    cases: report.results.length,
    safe: of("safe"),
    unsafe: of("unsafe"),
    inconclusive: of("inconclusive"),
    info: of("info"),
  };
}

/** What the host did in `row`, in one sentence. */
export function factsText(row: HostCaseResult): Text {
  const count = (n: number | null) =>
    n === null ? W.notCounted : same(String(n));
  return fill(W.facts, {
    resent: row.resent === 0 ? W.no : fill(W.resentTimes, { n: row.resent }),
    cancelled: row.cancelled ? W.yes : W.no,
    told: TOLD_WORDS[row.told],
    effects: count(row.effects),
    key: count(row.effects_key),
    newKey: count(row.effects_new_key),
  });
}

/**
 * The notes under a row: meaning, facts, the host's words, its end, the
 * information, the article. A host run `inProcess` has no process: its
 * end is its run's return, or what the run threw (the last line kept).
 */
export function notesOf(row: HostCaseResult, inProcess = false): Text[] {
  const notes: Text[] = [VERDICT_MEANING[row.verdict], factsText(row)];
  if (row.resent_same_arguments === false) notes.push(W.otherArguments);
  if (row.told_text !== undefined) {
    notes.push(fill(W.toldText, { text: row.told_text }));
  }
  notes.push(
    inProcess
      ? row.host_end === "limit"
        ? W.hostLimitInProcess
        : row.host_code === 0
        ? W.hostReturned
        : fill(W.hostThrew, { line: row.host_output.at(-1) ?? "?" })
      : row.host_end === "limit"
      ? W.hostLimit
      : row.host_code === null
      ? W.hostSignal
      : fill(W.hostEnd, { code: row.host_code ?? "?" }),
  );
  if (row.clients.length > 0) {
    notes.push(fill(W.clients, { clients: row.clients.join(", ") }));
  }
  if (row.verdict === "HOST-NOT-REACHED" && row.host_output.length > 0) {
    notes.push(fill(W.output, { lines: row.host_output.join(" | ") }));
  }
  for (const i of row.info) {
    notes.push(fill(W.info, { verdict: i, meaning: VERDICT_MEANING[i] }));
  }
  notes.push(fill(W.article, { sentence: VERDICT_ARTICLE[row.verdict] }));
  return notes;
}

/** The screen of `report` in `lang`, each line within 80 columns. */
export function hostScreen(report: HostReport, lang: Lang): string[] {
  const lines = wrap(
    say(
      fill(report.in_process ? W.titleInProcess : W.title, {
        program: report.host.program,
        transport: report.transport,
        seconds: Math.round(report.case_ms / 1000),
      }),
      lang,
    ),
    WIDTH,
    2,
  ).map((l) => l.trimEnd());
  lines.push(
    ...wrap(
      say(report.in_process ? W.rightsInProcess : W.rights, lang),
      WIDTH,
      0,
    ).map((l) => l.trimEnd()),
    "",
  );
  lines.push(
    "  " + pad(say(W.headCase, lang), COLS.case) +
      pad(say(W.headVariant, lang), COLS.variant) + say(W.headVerdict, lang),
  );
  for (const row of report.results) {
    lines.push(
      "  " + pad(row.case, COLS.case) + pad(row.variant, COLS.variant) +
        row.verdict,
    );
    for (const note of notesOf(row, report.in_process === true)) {
      for (const l of wrap(say(note, lang), 74, 0)) {
        lines.push("      " + l.trim());
      }
    }
  }
  lines.push("", say(fill(W.summary, hostCounts(report)), lang));
  return lines;
}

/** The JUnit outcome of a row, by its verdict's class (nothing is skipped: every case ran). */
function outcomeOf(row: HostCaseResult): Exclude<JunitOutcome, "skipped"> {
  const c = VERDICT_CLASS[row.verdict];
  return c === "unsafe" ? "failure" : c === "inconclusive" ? "error" : "passed";
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC: the Ant schema's timestamp takes no zone. */
function timestampOf(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** The JUnit XML of `report`, in `lang`: one testcase per case and variant, named `case/variant`. */
export function hostJunitXml(
  report: HostReport,
  options: { readonly lang: Lang; readonly at: Date; readonly exit: number },
): string {
  const count = { failure: 0, error: 0, passed: 0 };
  let total = 0;
  const cases: string[] = [];
  for (const row of report.results) {
    const outcome = outcomeOf(row);
    count[outcome]++;
    const seconds = (row.ms / 1000).toFixed(3);
    total += row.ms / 1000;
    const head = `    <testcase name="${
      xmlEscape(`${row.case}/${row.variant}`)
    }" classname="guardlab.accept.host" time="${seconds}"`;
    if (outcome === "passed") {
      cases.push(`${head}/>`);
      continue;
    }
    const message = fill(W.verdictLine, {
      verdict: row.verdict,
      meaning: VERDICT_MEANING[row.verdict],
    });
    const body = notesOf(row, report.in_process === true).map((t) =>
      xmlEscape(say(t, options.lang))
    ).join(
      "\n",
    );
    cases.push(
      `${head}>`,
      `      <${outcome} type="${xmlEscape(row.verdict)}" message="${
        xmlEscape(say(message, options.lang))
      }">${body}</${outcome}>`,
      `    </testcase>`,
    );
  }
  const suite = `guardlab accept host: ${report.host.program}`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites>`,
    `  <testsuite name="${
      xmlEscape(suite)
    }" package="guardlab.accept.host" id="0" timestamp="${
      timestampOf(options.at)
    }" hostname="localhost" tests="${report.results.length}" failures="${count.failure}" errors="${count.error}" skipped="0" time="${
      total.toFixed(3)
    }">`,
    `    <properties>`,
    `      <property name="host" value="${xmlEscape(report.host.program)}"/>`,
    `      <property name="transport" value="${report.transport}"/>`,
    `      <property name="exit" value="${options.exit}"/>`,
    `    </properties>`,
    ...cases,
    `    <system-out></system-out>`,
    `    <system-err></system-err>`,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
