/**
 * `exercise hand-in`: the student's work as one JSON hand-in on stdout,
 * with a warning on stderr for each exercise checked under another name or
 * course code.
 *
 * @module
 */
import config from "../../../../deno.json" with { type: "json" };
import { say } from "../../../base/i18n.ts";
import { handIn as handInOf } from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import { readSettings } from "../../settings.ts";
import { type Action, atMost } from "./context.ts";
import { EXERCISE_LINES as L } from "./messages.ts";

/** Print the hand-in. */
export const handIn: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 1);
  const settings = readSettings(io);
  const made = handInOf(call.course, settings, io, config.version);
  for (const x of made.checkedAsOther) {
    io.err(say(L.checkedAsOther(x.n), lang));
  }
  io.out(JSON.stringify(made.handIn));
  return EXIT.ok;
};
