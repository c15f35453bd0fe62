/**
 * `exercise grade [FILE|FOLDER…] [--json|--csv]`: a class graded at once,
 * every answer re-run, as a table, JSON or CSV. With no FILE (or `-`), one
 * hand-in on stdin. With `--format NAME`, one hand-in graded into the
 * results file a learning system reads, on stdout or `--output FILE` (a new
 * file in a folder of the user's own, as `hand-in --output` writes).
 *
 * @module
 */
import config from "../../../../deno.json" with { type: "json" };
import {
  grade as gradeClass,
  handInSources,
  MAX_HAND_IN_BYTES,
  NoHandInAt,
  type Source,
  stdinSource,
  writeResultsFile,
} from "../../../exercises/mod.ts";
import { readStreamText } from "../../../sandbox/read_bounded.ts";
import { say } from "../../../base/i18n.ts";
import { wrap } from "../../../base/terminal.ts";
import { gradeCsv, gradeJson, gradeTable } from "../../../views/grade_table.ts";
import { LMS_FORMATS, lmsResults } from "../../../views/lms_results.ts";
import { EXIT } from "../../exit.ts";
import { choice, printable } from "../../parser.ts";
import { storedSettings } from "../../settings.ts";
import { type Action, type ExerciseCall, usage } from "./_context.ts";
import { EXERCISE_LINES as L, EXERCISE_USAGE as U } from "./_messages.ts";

/** Grade the hand-ins. */
export const grade: Action = async (call) => {
  const { values, io, lang } = call;
  // JSON and CSV read the same in every language: only the table is in words.
  const format = choice("exercise", "format", values.format, LMS_FORMATS);
  if ([values.json, values.csv, format].filter(Boolean).length > 1) {
    throw usage(U.jsonOrCsv);
  }
  if (values.output !== undefined && format === undefined) {
    throw usage(U.outputNeedsFormat);
  }
  const sources = await sourcesOf(call);
  // A results file is one student's: a class goes to --csv or --json.
  if (format !== undefined && sources.length !== 1) {
    throw usage(U.oneHandIn(sources.length));
  }
  const code = storedSettings(io).value.course ?? null;
  const graded = await gradeClass(sources, {
    course: call.course,
    code,
    version: config.version,
    base: io.base,
  });
  if (format !== undefined) {
    const text = JSON.stringify(
      lmsResults(format, graded, call.course, lang, code),
    );
    if (values.output === undefined) io.out(text);
    else {
      writeResultsFile(values.output, text, io.base);
      const said = L.resultsWritten(printable(values.output), format);
      for (const line of wrap(say(said, lang), 80)) io.out(line);
    }
  } else if (values.json) io.out(JSON.stringify(gradeJson(graded)));
  else if (values.csv) {
    io.byteOrderMark();
    for (const l of gradeCsv(graded)) io.out(l);
  } else for (const l of gradeTable(graded, lang, code)) io.out(l);
  return graded.rows.some((r) => r.total === null) ? EXIT.failed : EXIT.ok;
};

/** The hand-ins named, or the one on stdin (with no FILE, or `-`). */
async function sourcesOf(call: ExerciseCall): Promise<Source[]> {
  const files = call.positionals.slice(1);
  if (files.length > 1 || (files.length === 1 && files[0] !== "-")) {
    try {
      return handInSources(files, call.io.base);
    } catch (error) {
      if (error instanceof NoHandInAt) {
        throw usage(U.noHandInAt(printable(error.path)));
      }
      throw error;
    }
  }
  const piped = await readStreamText(call.io.stdin(), MAX_HAND_IN_BYTES);
  // An empty stdin is a command given no hand-in, not a student's
  // malformed one: say so before a table names a student "-".
  if (piped !== null && piped.trim() === "") throw usage(U.noHandIn);
  return [stdinSource(piped)];
}
