/**
 * Print the crafted hand-in of issue 19 on stdout: one answer of 8,000 runs
 * followed by 200,000 `receipts` steps (about 5 MB). Anyone can measure what
 * grading it costs:
 *
 *     deno run scripts/crafted_hand_in.ts > /tmp/crafted.json
 *     /usr/bin/time -v deno task guardlab exercise grade < /tmp/crafted.json
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };
import { BUILTIN_COURSE } from "../lib/exercises/course.ts";
import { makeHandIn } from "../lib/exercises/hand_in.ts";

const lines: string[] = [];
for (let i = 0; i < 8000; i++) {
  const job = `JOB-${String(i % 1000).padStart(3, "0")}`;
  lines.push(
    JSON.stringify({ op: "run", args: { job, topic: "river", copies: 2 } }),
  );
}
for (let i = 0; i < 200_000; i++) lines.push('{"op":"receipts"}');
console.log(JSON.stringify(makeHandIn({
  name: "Mallory",
  guardlab: config.version,
  course: { id: BUILTIN_COURSE.id, code: null },
  student: { variant: null, uid: null },
  exercises: {
    [BUILTIN_COURSE.exercises[0].slug]: {
      answer: lines.join("\n"),
      passed: null,
      checks: 1,
      hints: 0,
      revealed: false,
      first: null,
      hints_before_guess: null,
    },
  },
})));
