/**
 * `exercise show N`: the exercise as this student reads it (their own
 * values filled in), or with `--invariants` what is checked, for a teacher.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import {
  describeInvariants,
  exerciseTexts,
  LEDGER_NOT_AGENT,
  studentParams,
} from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import { storedSettings } from "../../settings.ts";
import {
  type Action,
  atMost,
  exerciseNamed,
  print,
  printText,
} from "./context.ts";
import { EXERCISE_LINES as L } from "./messages.ts";

/** Show one exercise. */
export const show: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 2);
  const x = exerciseNamed(call);
  const settings = storedSettings(io).value;
  const params = studentParams(settings, x);
  if (call.values.invariants) {
    for (const line of describeInvariants(x, params)) io.out(say(line, lang));
    return EXIT.ok;
  }
  const t = exerciseTexts(x, params);
  io.out(`${x.n}. ${say(t.title, lang)}`);
  io.out("");
  printText(call, t.task);
  io.out("");
  if (settings.course !== undefined) {
    printText(call, L.yourValues(settings.course, settings.name!, params));
    io.out("");
  }
  print(io, `${say(L.claim, lang)}${say(t.claim, lang)}`);
  if (t.skeleton) {
    io.out("");
    io.out(say(L.aStart, lang));
    io.out(`  ${t.skeleton}`);
  }
  io.out("");
  if (x.judged === "ledger") {
    printText(call, LEDGER_NOT_AGENT);
    io.out("");
    io.out(say(L.checkLedger(x.n), lang));
    return EXIT.ok;
  }
  io.out(say(L.checkAnswer(x.n), lang));
  return EXIT.ok;
};
