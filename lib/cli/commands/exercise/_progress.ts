/**
 * `exercise progress`: how many exercises are done, and where each stands,
 * as text or as JSON.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import { standing } from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import { type Action, atMost, kept } from "./_context.ts";
import { EXERCISE_LINES as L } from "./_messages.ts";

/** Show the student's progress. */
export const progress: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 1);
  const rows = standing(call.course, call.progress.read());
  const done = rows.filter((r) => r.state === "done").length;
  if (call.values.json) {
    io.out(JSON.stringify({
      course: call.course.id,
      done,
      of: rows.length,
      exercises: rows.map(({ exercise: x, state, hints, revealed }) => ({
        n: x.n,
        slug: x.slug,
        state,
        hints,
        ...(revealed ? { revealed: true } : {}),
      })),
    }));
    return kept(call, EXIT.ok);
  }
  io.out(say(L.doneOf(done, rows.length), lang));
  for (const { exercise: x, state } of rows) {
    io.out(`  ${String(x.n).padStart(2)}  ${say(L[state], lang)}`);
  }
  return kept(call, EXIT.ok);
};
