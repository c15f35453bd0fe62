/**
 * `accept --junit FILE`: the matrix as JUnit XML, the report every CI
 * shows. One `testcase` per write tool and case, named `tool/case`
 * (`tool#ENTRY/case` when the oracle names a tool twice). A verdict's
 * class (`cases.ts`, the one place) decides what the testcase holds: a
 * `failure` for an unsafe verdict, an `error` for one that could not be
 * judged (inconclusive), `skipped` for `NOT-RUN` and for a failing verdict
 * a baseline excused, nothing for a safe one or information. Each body
 * says the verdict and what it means, what the client saw, the effect
 * counted, and the article's sentence. The shape satisfies both schemas
 * CI systems read (Jenkins xunit's `junit-10.xsd` and the Ant schema of
 * windyroad's `JUnit.xsd`; tests/accept/junit_test.ts validates against
 * both). Every text goes through the SVG views' `xmlEscape`, so what a
 * server or an oracle named cannot break the document.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../../base/i18n.ts";
import { VERDICT_CLASS } from "../cases.ts";
import type { Comparison } from "../baseline.ts";
import type { AcceptReport, CaseResult } from "../run.ts";
import {
  NOT_RUN_WHY,
  VERDICT_ARTICLE,
  VERDICT_MEANING,
} from "../verdict_messages.ts";
import { detailTexts } from "./_accept_details.ts";
import { JUNIT_WORDS as J } from "../ci_messages.ts";
import { effectText, problemsText, sawText } from "./_accept_details.ts";
import { rowName } from "./_accept_baseline.ts";
import { xmlEscape } from "../../base/markup.ts";

/** What a testcase holds, by its row's verdict and the baseline. */
export type JunitOutcome = "passed" | "failure" | "error" | "skipped";

/** The JUnit outcome of `row`: by its verdict's class, unless the baseline excused it. */
export function junitOutcome(row: CaseResult, excused: boolean): JunitOutcome {
  if (row.verdict === "NOT-RUN" || excused) return "skipped";
  const c = VERDICT_CLASS[row.verdict];
  return c === "unsafe" ? "failure" : c === "inconclusive" ? "error" : "passed";
}

/** Seconds as JUnit writes them, from a case's last step. */
function seconds(row: CaseResult): number {
  return (row.timeline.at(-1)?.at_ms ?? 0) / 1000;
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC: the Ant schema's timestamp takes no zone. */
function timestampOf(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Why a NOT-RUN row tested nothing (a report from before the reasons: the oracle's arguments). */
function notRunWhy(row: CaseResult): Text {
  return NOT_RUN_WHY[row.not_run ?? "no-arguments"];
}

/** The lines under a testcase's verdict. */
function bodyLines(row: CaseResult): Text[] {
  const lines: Text[] = [
    fill(J.verdict, {
      verdict: row.verdict,
      meaning: VERDICT_MEANING[row.verdict],
    }),
    ...(row.verdict === "NOT-RUN" ? [notRunWhy(row)] : []),
    fill(J.saw, { saw: sawText(row.client_saw) }),
    fill(J.effect, { effect: effectText(row) }),
    // What the verdict rests on, the server's own words among it.
    ...detailTexts(row),
  ];
  for (const i of row.info) {
    lines.push(fill(J.info, { verdict: i, meaning: VERDICT_MEANING[i] }));
  }
  if (row.problems.length > 0) lines.push(problemsText(row));
  lines.push(fill(J.article, { sentence: VERDICT_ARTICLE[row.verdict] }));
  return lines;
}

/** The JUnit XML of `report` (with the oracle's digest and the exit code), in `lang`. */
export function junitXml(
  report: AcceptReport,
  options: {
    readonly lang: Lang;
    readonly at: Date;
    readonly oracleDigest: string;
    readonly exit: number;
    readonly comparison?: Comparison;
  },
): string {
  const { lang } = options;
  const excused = new Set(
    options.comparison?.rows.filter((r) => r.status === "excused").map((r) =>
      r.row
    ) ?? [],
  );
  const count = { failure: 0, error: 0, skipped: 0, passed: 0 };
  const cases: string[] = [];
  let total = 0;
  for (const row of report.results) {
    const outcome = junitOutcome(row, excused.has(row));
    count[outcome]++;
    total += seconds(row);
    const head = `    <testcase name="${
      xmlEscape(rowName(row, report))
    }" classname="${xmlEscape(`guardlab.accept.${row.tool}`)}" time="${
      seconds(row).toFixed(3)
    }"`;
    if (outcome === "passed") {
      cases.push(`${head}/>`);
      continue;
    }
    const message = outcome === "skipped"
      ? (excused.has(row)
        ? fill(J.excused, { verdict: row.verdict })
        : fill(J.notRun, { why: notRunWhy(row) }))
      : fill(J.verdict, {
        verdict: row.verdict,
        meaning: VERDICT_MEANING[row.verdict],
      });
    const body = bodyLines(row).map((t) => xmlEscape(say(t, lang))).join("\n");
    const tag = outcome;
    const type = outcome === "skipped"
      ? ""
      : ` type="${xmlEscape(row.verdict)}"`;
    cases.push(
      `${head}>`,
      `      <${tag}${type} message="${
        xmlEscape(say(message, lang))
      }">${body}</${tag}>`,
      `    </testcase>`,
    );
  }
  const suite =
    `guardlab accept: ${report.server.name} ${report.server.version}`;
  const attrs =
    `tests="${report.results.length}" failures="${count.failure}" errors="${count.error}"`;
  const time = total.toFixed(3);
  const property = (name: string, value: string) =>
    `      <property name="${name}" value="${xmlEscape(value)}"/>`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    // No attributes here: the Ant schema allows none on testsuites, and
    // every reader sums the suite's own counts.
    `<testsuites>`,
    `  <testsuite name="${
      xmlEscape(suite)
    }" package="guardlab.accept" id="0" timestamp="${
      timestampOf(options.at)
    }" hostname="localhost" ${attrs} skipped="${count.skipped}" time="${time}">`,
    `    <properties>`,
    property("server", report.server.name),
    property("server_version", report.server.version),
    property("oracle_digest", options.oracleDigest),
    property("exit", String(options.exit)),
    `    </properties>`,
    ...cases,
    `    <system-out></system-out>`,
    `    <system-err></system-err>`,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
