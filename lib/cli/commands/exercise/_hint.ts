/**
 * `exercise hint N`: one more hint each time, up to all of them, counted in
 * the student's progress; before a prediction's one guess, a line says the
 * hand-in records how many hints were seen.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import {
  exerciseTexts,
  nextHint,
  progressKey,
  studentParams,
} from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import {
  type Action,
  atMost,
  exerciseNamed,
  kept,
  print,
  studentOf,
} from "./_context.ts";
import { EXERCISE_LINES as L } from "./_messages.ts";

/** Show the hints so far, and one more. */
export const hint: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 2);
  const x = exerciseNamed(call);
  const params = studentParams(studentOf(call), x);
  const { hints } = exerciseTexts(x, params);
  const key = progressKey(call.course.id, x.n);
  const next = nextHint(call.progress.read(), key, hints.length);
  for (let i = 0; i < next.shown; i++) {
    print(io, `${i + 1}. ${say(hints[i], lang)}`);
  }
  if (next.shown === hints.length) io.out(say(L.everyHint, lang));
  // Before the one guess a hint counts: the hand-in says how many were seen.
  const record = call.progress.read().exercises[key];
  if (x.kind === "prediction" && record?.guess === undefined) {
    io.out(say(L.hintsRecorded, lang));
  }
  call.progress.keep(next.progress);
  return kept(call, EXIT.ok);
};
