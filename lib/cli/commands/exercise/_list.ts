/**
 * `exercise list`: the course's exercises, each with where the student
 * stands, as a table or as JSON.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import { displayWidth } from "../../../base/terminal.ts";
import { standing } from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import { type Action, atMost, kept } from "./_context.ts";
import { EXERCISE_LINES as L } from "./_messages.ts";

/** List the exercises. */
export const list: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 1);
  const rows = standing(call.course, call.progress.read());
  if (call.values.json) {
    io.out(JSON.stringify(rows.map(({ exercise: x, state }) => ({
      n: x.n,
      slug: x.slug,
      kind: x.kind,
      title: say(x.title, lang),
      state,
    }))));
    return kept(call, EXIT.ok);
  }
  for (const { exercise: x, state } of rows) {
    const head = `${String(x.n).padStart(2)}. ${say(x.title, lang)}`;
    const gap = " ".repeat(Math.max(1, 64 - displayWidth(head)));
    io.out(head + gap + say(L[state], lang));
  }
  return kept(call, EXIT.ok);
};
