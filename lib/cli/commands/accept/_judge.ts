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
import { fill, say } from "../../../base/i18n.ts";
import {
  type HostChanged,
  isHostReport,
  judgeHostReport,
} from "../../../accept/host_judge.ts";
import type { HostReport } from "../../../accept/host_report.ts";
import { hostScreen } from "../../../accept/views/host_view.ts";
import { HOST_WORDS } from "../../../accept/host_messages.ts";
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
  const read = await readReport(
    file,
    J.reportWord,
    (text, name) =>
      isHostReport(text)
        ? { host: judgeHostReport(text, name), accept: undefined }
        : { host: undefined, accept: judgeReport(text, name) },
    BadReport,
    { trusted, io, lang },
  );
  if (typeof read === "number") return read;
  if (read.host !== undefined) {
    return judgedHost(read.host, file, values, io, lang);
  }
  const judged = read.accept;
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

/** A saved `accept host` report judged again: its screen or JSON, the rows whose verdict changed, the exit code. */
function judgedHost(
  { report, changed }: { report: HostReport; changed: HostChanged[] },
  file: string,
  values: Readonly<Record<string, unknown>>,
  io: Io,
  lang: Lang,
): ExitCode {
  const code = exitOf(report);
  if (values.json === true) {
    io.out(JSON.stringify(
      { ...report, exit: code, judged_from: file, changed },
      null,
      2,
    ));
    return code;
  }
  io.out(
    say(fill(HOST_WORDS.judgedFrom, { file: JSON.stringify(file) }), lang),
  );
  for (const line of hostScreen(report, lang)) io.out(line);
  for (const c of changed) {
    io.out(say(fill(HOST_WORDS.changed, { ...c }), lang));
  }
  return code;
}
