/**
 * `exercise hand-in [--output FILE]`: the student's work as one JSON
 * hand-in, written to FILE (new, in a folder of the student's own, mode
 * 0600) or to stdout; a note on stderr for each exercise checked under
 * another name, course code or variant, and for each exercise of a course
 * file passed only without `--course` (not handed in).
 *
 * @module
 */
import config from "../../../../deno.json" with { type: "json" };
import { say, type Text } from "../../../base/i18n.ts";
import { wrap } from "../../../base/terminal.ts";
import { handIn as handInOf, writeHandInFile } from "../../../exercises/mod.ts";
import { currentUid } from "../../../sandbox/safe_fs.ts";
import { EXIT } from "../../exit.ts";
import { printable } from "../../parser.ts";
import { type Action, atMost, commandOf, studentOf } from "./_context.ts";
import { EXERCISE_LINES as L } from "./_messages.ts";

/** Write or print the hand-in. */
export const handIn: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 1);
  const made = handInOf(
    call.course,
    studentOf(call),
    io,
    config.version,
    currentUid(io.base),
  );
  const command = commandOf(call);
  // Notes, not refusals: each wrapped at 80 columns, under its text.
  const note = (text: Text) => {
    for (const line of wrap(say(text, lang), 80)) io.err(line);
  };
  for (const x of made.checkedAsOther) note(L.checkedAsOther(command, x.n));
  for (const x of made.passedWithoutCourse) {
    note(L.passedWithoutCourse(command, x.n));
  }
  const text = JSON.stringify(made.handIn);
  const output = call.values.output;
  if (output === undefined) {
    io.out(text);
    return EXIT.ok;
  }
  writeHandInFile(output, text, io.base);
  for (const line of wrap(say(L.handInWritten(printable(output)), lang), 80)) {
    io.out(line);
  }
  return EXIT.ok;
};
