/**
 * `guardlab exercise`: list, read, get hints on, check, hand in and grade
 * the exercises. The built-in course ships in the binary; `--course FILE`
 * reads a teacher's course file (under the temp folder) in the same form.
 * Answers come on stdin (or a FILE under the temp folder), so a student's
 * home is never read. One file per action; each parses its flags and calls
 * `lib/exercises`.
 *
 * @module
 */
import { MAX_HAND_INS, ProgressKeeper } from "../../../exercises/mod.ts";
import { type Command, command } from "../../command.ts";
import { check } from "./_check.ts";
import { type Action, asUsage, courseOf, OPTIONS, usage } from "./_context.ts";
import { grade } from "./_grade.ts";
import { handIn } from "./_hand_in.ts";
import { hint } from "./_hint.ts";
import { list } from "./_list.ts";
import { EXERCISE_HELP as H, EXERCISE_USAGE as U } from "./_messages.ts";
import { progress } from "./_progress.ts";
import { show } from "./_show.ts";

/** Each action, by the word that names it. */
const ACTIONS: Readonly<Record<string, Action>> = {
  list,
  show,
  hint,
  check,
  progress,
  "hand-in": handIn,
  grade,
};

/** The flags only some actions take, and which. */
const ONLY = [
  ["invariants", ["show"]],
  ["reveal", ["check"]],
  ["json", ["list", "progress", "grade"]],
  ["csv", ["grade"]],
  ["output", ["hand-in", "grade"]],
  ["format", ["grade"]],
] as const;

/** The `exercise` command. */
export const exercise: Command = command({
  name: "exercise",
  usage: `exercise [--course FILE] list [--json] | show N [--invariants]
                    | hint N | check N [FILE] [--reveal]
                    | check N --ledger NAME | progress [--json]
                    | hand-in [--output FILE]
                    | grade [FILE|FOLDER…] [--json|--csv]
                    | grade FILE --format NAME [--output FILE]`,
  about: H.about,
  options: OPTIONS,
  maxPositionals: 1 + MAX_HAND_INS,
  exits: { 0: H.done, 1: H.notYet, 2: H.usage, 4: null },
  async run(call) {
    const { values, positionals, io, lang } = call;
    const [name] = positionals;
    if (name === undefined || !Object.hasOwn(ACTIONS, name)) {
      throw usage(U.action(Object.keys(ACTIONS)));
    }
    for (const [flag, actions] of ONLY) {
      if (
        values[flag] !== undefined && values[flag] !== false &&
        !(actions as readonly string[]).includes(name)
      ) {
        throw usage(U.goesWith(flag, actions));
      }
    }
    if (values.ledger !== undefined && name !== "check") {
      throw usage(U.goesWith("ledger", ["check"]));
    }
    const course = await courseOf(io, values.course, lang);
    if (typeof course === "number") return course;
    const progress = new ProgressKeeper(io);
    return await asUsage({ ...call, course, progress }, ACTIONS[name]);
  },
});
