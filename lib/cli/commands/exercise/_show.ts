/**
 * `exercise show N`: the exercise as this student reads it (their own
 * values filled in), or with `--invariants` what is checked, for a teacher.
 * A prediction's claim and invariants say the answer, so they are shown
 * only once the first guess is kept.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import {
  describeInvariants,
  exerciseTexts,
  LEDGER_NOT_AGENT,
  progressKey,
  studentParams,
  valuesUsed,
  visibleText,
} from "../../../exercises/mod.ts";
import { EXIT } from "../../exit.ts";
import {
  type Action,
  atMost,
  commandOf,
  exerciseNamed,
  print,
  printText,
  studentOf,
} from "./_context.ts";
import { EXERCISE_LINES as L } from "./_messages.ts";

/** Show one exercise. */
export const show: Action = (call) => {
  const { io, lang } = call;
  atMost(call, 2);
  const x = exerciseNamed(call);
  const student = studentOf(call);
  const params = studentParams(student, x);
  const guessed =
    call.progress.read().exercises[progressKey(call.course.id, x.n)]
      ?.guess !== undefined;
  if (call.values.invariants) {
    // A prediction's invariants bind what happens ("side" is "after"): shown
    // before the guess, they would be the answer.
    if (x.kind === "prediction" && !guessed) {
      printText(call, L.invariantsAfterGuess(commandOf(call), x.n));
      return EXIT.ok;
    }
    for (const line of describeInvariants(x, params)) io.out(say(line, lang));
    return EXIT.ok;
  }
  const t = exerciseTexts(x, params);
  io.out(`${x.n}. ${say(t.title, lang)}`);
  io.out("");
  printText(call, t.task);
  io.out("");
  // Only the values this exercise names: an exercise about an example
  // server names none, and says so by saying nothing.
  const used = valuesUsed(x);
  if (student.course !== undefined && used.length > 0) {
    const values = used.map((name) => L.value(name, params));
    printText(
      call,
      L.yourValues(student.course, visibleText(student.name!), values, x.n),
    );
    io.out("");
  }
  const claim = x.kind === "prediction" && !guessed
    ? L.claimAfterGuess
    : t.claim;
  print(io, `${say(L.claim, lang)}${say(claim, lang)}`);
  if (t.skeleton) {
    io.out("");
    io.out(say(L.aStart, lang));
    io.out(`  ${t.skeleton}`);
  }
  io.out("");
  const command = commandOf(call);
  if (x.judged === "ledger") {
    printText(call, LEDGER_NOT_AGENT);
    io.out("");
    // A command is printed whole, never wrapped: it is there to be copied.
    io.out(say(L.checkLedger(command, x.n), lang));
    return EXIT.ok;
  }
  io.out(say(L.checkAnswer(command, x.n), lang));
  return EXIT.ok;
};
