/**
 * The output check's contract is exact: the object the business returned
 * must be `{ job, text }` with exactly those two keys, the key asked for and
 * the draft text asked for. Anything more or less is refused, so a tool that
 * leaks an extra field past the guardrail is caught.
 */
import assert from "node:assert/strict";
import { Lab, outputCheck, OutputRejected } from "../../lib/mod.ts";
import { ARGS } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";

const GOOD = { job: ARGS.job, text: `${ARGS.topic} / copies=${ARGS.copies}` };

Deno.test("output contract: exactly { job, text } for the draft asked for", async (t) => {
  await t.step("the draft asked for passes", () => {
    outputCheck({ ...GOOD }, ARGS);
  });
  await t.step("in either order of its keys", () => {
    outputCheck({ text: GOOD.text, job: GOOD.job }, ARGS);
  });
  const refused: [string, unknown][] = [
    ["an extra key", { ...GOOD, x: 1 }],
    ["an extra key set to undefined", { ...GOOD, x: undefined }],
    ["an extra key set to null", { ...GOOD, extra: null }],
    ["the job missing", { text: GOOD.text }],
    ["the text missing", { job: GOOD.job }],
    ["the job and another key", { job: GOOD.job, texts: GOOD.text }],
    ["the text and another key", { jobs: GOOD.job, text: GOOD.text }],
    // Only the check of its own keys refuses these: `text` is inherited.
    [
      "the text inherited, beside the job and another key",
      Object.assign(
        Object.create({ text: GOOD.text }),
        { job: GOOD.job, x: 1 },
      ),
    ],
    [
      "the text inherited, after another key and the job",
      Object.assign(
        Object.create({ text: GOOD.text }),
        { x: 1, job: GOOD.job },
      ),
    ],
    ["another job", { ...GOOD, job: "JOB-999" }],
    ["other text", { ...GOOD, text: "SYNTHETIC-BAD-OUTPUT" }],
    ["the text with more copies", {
      ...GOOD,
      text: `${ARGS.topic} / copies=9`,
    }],
    ["an array", [GOOD.job, GOOD.text]],
    ["null", null],
    ["a string", JSON.stringify(GOOD)],
  ];
  for (const [what, value] of refused) {
    await t.step(`${what} is refused`, () => {
      assert.throws(() => outputCheck(value, ARGS), OutputRejected, what);
    });
  }
});

Deno.test("output contract: what a run releases is exactly the contract", async () => {
  await using dirFolder = await tempDir("guardlab-contract-");
  const dir = dirFolder.path;
  const lab = Lab.open(`${dir}/lab.sqlite`);
  try {
    const result = await lab.run(ARGS);
    assert.equal(result.status, "accepted");
    // Not one key more than the contract: deepEqual on the exact object.
    assert.deepEqual(result.released, GOOD);
  } finally {
    lab.close();
  }
});
