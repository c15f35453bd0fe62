/**
 * `guardlab accept judge REPORT.json`: a saved `accept --json` report
 * judged again from its histories, offline (no server, no grant beyond the
 * temp folder). The file is read as any file of guardlab's: never through
 * a link, at most 16 MiB; a report that is not one of this guardlab's is
 * a usage error in one line. The screen is accept's matrix, with the rows
 * whose stated verdict their history does not give named under it; the
 * exit code is the one the judged verdicts earn.
 *
 * @module
 */
import type { Lang } from "../../../base/i18n.ts";
import { BadReport, judgeReport } from "../../../accept/judge.ts";
import { ACCEPT_MESSAGES as J } from "./_messages.ts";
import { acceptScreen } from "../../../accept/views/accept_view.ts";
import type { ExitCode } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { UsageError } from "../../parser.ts";
import { exitOf, readReport, reportJson } from "./_ci.ts";
import { assertFlagsAmong } from "./_args.ts";

/** The flags `judge` takes beside its report. */
const JUDGE_FLAGS = ["json", "lang", "home"];

/** Refuse (a usage error) a flag `judge` does not take, or anything but one report; the report's file. */
function assertJudgeFlags(
  values: Readonly<Record<string, unknown>>,
  rest: readonly string[],
): string {
  assertFlagsAmong(values, JUDGE_FLAGS, J.judgeFlags);
  if (rest.length !== 1) throw new UsageError(J.judgeNeedsReport, "accept");
  return rest[0];
}

/** `accept judge` with its flags (`values`) and words after `judge` (`rest`); returns the exit code. */
export async function runJudge(
  values: Readonly<Record<string, unknown>>,
  rest: readonly string[],
  { trusted, io, lang }: { trusted: readonly string[]; io: Io; lang: Lang },
): Promise<ExitCode> {
  const file = assertJudgeFlags(values, rest);
  const judged = await readReport(file, J.reportWord, judgeReport, BadReport, {
    trusted,
    io,
    lang,
  });
  if (typeof judged === "number") return judged;
  const { report, changed } = judged;
  const code = exitOf(report);
  if (values.json === true) {
    io.out(reportJson(report, judged.oracle_digest, code, undefined, {
      judged_from: file,
      changed,
    }));
    return code;
  }
  const screen = acceptScreen(report, {
    source: { kind: "report", name: file },
    timeline: false,
    exit: code,
    changed,
  }, lang);
  for (const line of screen) io.out(line);
  return code;
}
