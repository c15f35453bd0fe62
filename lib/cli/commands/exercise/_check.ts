/**
 * `exercise check N [FILE] [--reveal]` and `exercise check N --ledger NAME`:
 * the answer (stdin or a FILE), or a bounded copy of a named ledger's rows,
 * judged with the student's own values; the feedback lines, and the check
 * kept in the student's progress.
 *
 * @module
 */
import { say } from "../../../base/i18n.ts";
import {
  check as checkAnswer,
  copyRefused,
  type Exercise,
  ledgerCopy,
  progressKey,
  recordCheck,
  studentParams,
} from "../../../exercises/mod.ts";
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import { EXIT } from "../../exit.ts";
import { existingLedgerPath } from "../../places.ts";
import {
  type Action,
  atMost,
  commandOf,
  type ExerciseCall,
  exerciseNamed,
  kept,
  openInput,
  printText,
  readInput,
  studentOf,
  usage,
} from "./_context.ts";
import { EXERCISE_LINES as L, EXERCISE_USAGE as U } from "./_messages.ts";

/** Check one answer. */
export const check: Action = async (call) => {
  const { values, io } = call;
  atMost(call, 3);
  const x = exerciseNamed(call);
  const fromLedger = values.ledger !== undefined;
  const command = commandOf(call);
  if ((x.judged === "ledger") !== fromLedger) {
    throw usage(
      fromLedger ? U.notFromLedger(x.n) : U.fromLedger(command, x.n),
    );
  }
  const answer = fromLedger ? copied(call, x) : await given(call);
  if (answer === null) return EXIT.failed;
  const student = studentOf(call);
  const params = studentParams(student, x);
  const progress = call.progress.read();
  const key = progressKey(call.course.id, x.n);
  const checked = await checkAnswer({
    exercise: x,
    answer,
    params,
    variants: student.course !== undefined,
    before: progress.exercises[key],
    reveal: values.reveal === true,
    command,
    base: io.base,
    say: (line) => printText(call, line),
  });
  const { verdict } = checked;
  call.progress.keep(
    recordCheck(progress, key, x, checked.answer, verdict, checked.revealed, {
      course: student.course ?? null,
      name: student.name ?? null,
      variant: student.variant ?? null,
      derivation: student.variant == null ? "name" : "name+seed",
    }),
  );
  return kept(call, verdict.passed ? EXIT.ok : EXIT.failed);
};

/** The copy of the `--ledger` ledger; null when it cannot be judged (said why, not yet). */
function copied(call: ExerciseCall, x: Exercise): string | null {
  atMost(call, 2);
  const path = existingLedgerPath("exercise", call.io, {
    ledger: call.values.ledger,
  });
  const copy = ledgerCopy(path, trustedFolders(call.io.base));
  if ("text" in copy) return copy.text;
  const [why, verdict] = copyRefused(x, copy.reason);
  printText(call, why);
  call.io.out(say(verdict, call.lang));
  return null;
}

/** The answer from FILE or stdin; null when FILE cannot be read (said why). */
async function given(call: ExerciseCall): Promise<string | null> {
  const file = call.positionals[2];
  const source = file === undefined
    ? call.io.stdin()
    : await openInput(call.io, file, L.anAnswer, call.lang);
  return source === null ? null : await readInput(source);
}
