/**
 * Write a class of hand-ins into a folder, for measuring what `exercise
 * grade` costs: N students (40 by default), each handing in the first
 * hand-written right answer of every built-in exercise (from
 * `tests/exercises/answers/`), with no course code, so every answer runs
 * and passes. Anyone can measure it:
 *
 *     deno run -A scripts/class_hand_ins.ts /tmp/class-40 40
 *     /usr/bin/time -v deno task guardlab exercise grade /tmp/class-40
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };
import { BUILTIN_EXERCISES } from "../lib/exercises/builtin.ts";
import { BUILTIN_COURSE } from "../lib/exercises/course.ts";
import { type HandedExercise, makeHandIn } from "../lib/exercises/hand_in.ts";

const [folder, count = "40"] = Deno.args;
if (folder === undefined) {
  console.error("usage: class_hand_ins.ts FOLDER [N]");
  Deno.exit(2);
}
const answers = new URL("../tests/exercises/answers/", import.meta.url);
const text = (steps: unknown[]) =>
  steps.map((s) => typeof s === "string" ? s : JSON.stringify(s)).join("\n");
const exercises: Record<string, HandedExercise> = {};
BUILTIN_EXERCISES.forEach(({ file }, i) => {
  const cases = JSON.parse(Deno.readTextFileSync(new URL(file, answers)));
  exercises[BUILTIN_COURSE.exercises[i].slug] = {
    answer: text(cases.right[0].answer),
    passed: "2026-01-01T00:00:00.000Z",
    checks: 1,
    hints: 0,
    revealed: false,
    first: "2026-01-01T00:00:00.000Z",
    hints_before_guess: null,
  };
});
Deno.mkdirSync(folder, { mode: 0o700 });
for (let i = 1; i <= Number(count); i++) {
  const handIn = makeHandIn({
    name: `student ${i}`,
    guardlab: config.version,
    course: { id: BUILTIN_COURSE.id, code: null },
    student: { variant: null, uid: null },
    exercises,
  });
  Deno.writeTextFileSync(
    `${folder}/student-${String(i).padStart(2, "0")}.json`,
    JSON.stringify(handIn),
    { mode: 0o600 },
  );
}
