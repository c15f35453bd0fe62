/**
 * A count of one reads as one in English: "1 copy", never "1 copies". A
 * course writes "{copies} copies" once for every student, and a third of a
 * class has the value 1. Written by hand, both languages side by side.
 */
import assert from "node:assert/strict";
import {
  BUILTIN_COURSE,
  defaultParams,
  exerciseTexts,
  HAPPENED_MESSAGES,
} from "../../lib/exercises/mod.ts";

const ONE = {
  ...defaultParams,
  job: "JOB-454",
  topic: "forest",
  copies: 1,
} as const;

Deno.test("plurals: exercise 1's task for a student whose value is 1 copy", () => {
  const task = exerciseTexts(BUILTIN_COURSE.exercises[0], ONE).task;
  assert.match(task.en, /^Make one call of JOB-454 \(forest, 1 copy\) whose/);
  assert.match(task.zh, /^用 JOB-454（forest，1 份）制造一次调用/);
  const two = exerciseTexts(BUILTIN_COURSE.exercises[0], {
    ...ONE,
    copies: 2,
  }).task;
  assert.match(two.en, /^Make one call of JOB-454 \(forest, 2 copies\) whose/);
});

Deno.test("plurals: what an answer did, for 1 copy and for 2", () => {
  for (
    const [copies, en, zh] of [
      ["1", "JOB-454 (forest, 1 copy)", "JOB-454（forest，1 份）"],
      ["2", "JOB-454 (forest, 2 copies)", "JOB-454（forest，2 份）"],
    ]
  ) {
    assert.deepEqual(
      HAPPENED_MESSAGES.request("JOB-454", "forest", copies, []),
      {
        en,
        zh,
      },
    );
  }
  assert.deepEqual(HAPPENED_MESSAGES.policyDraft("JOB-454", "1", "2"), {
    en: "the draft of JOB-454, 1 copy, checked at revision 2",
    zh: "JOB-454 的草稿，1 份，按修订号 2 检查",
  });
});
