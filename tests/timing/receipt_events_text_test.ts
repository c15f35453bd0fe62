/**
 * A receipt's events are stored as the reference stores them (Python's
 * `json.dumps` of the list), whatever sequence came before: the text of
 * each sequence is made once and kept (issue 51), so a receipt whose
 * sequence differs from the last one's must still get its own text. Read
 * through a second connection.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Lab } from "../../lib/mod.ts";
import { ARGS } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("receipt events: each receipt stores its own sequence's Python JSON, in any order of outcomes", async () => {
  await using folder = await tempDir("guardlab-events-text-");
  const path = `${folder.path}/lab.sqlite`;
  const lab = Lab.open(path);
  try {
    await lab.run(ARGS); // a new draft
    await lab.run(ARGS); // the same key again: reused
    await lab.run({ ...ARGS, job: "bad" }); // refused before any stage
    await lab.run(ARGS, { badOutput: true }); // reused, then refused output
    await lab.run({ ...ARGS, job: "JOB-002" }); // a new draft again
    await lab.run(ARGS); // reused again
  } finally {
    lab.close();
  }
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const stored = db.prepare("SELECT events FROM receipts ORDER BY attempt")
      .all().map((row) => row.events);
    const committed =
      '["arguments_valid", "input_allowed", "business_started", "effect_committed", "output_started", "output_allowed"]';
    const reused =
      '["arguments_valid", "input_allowed", "business_started", "effect_reused", "output_started", "output_allowed"]';
    assert.deepEqual(stored, [
      committed,
      reused,
      "[]",
      '["arguments_valid", "input_allowed", "business_started", "effect_reused", "output_started"]',
      committed,
      reused,
    ]);
  } finally {
    db.close();
  }
});
