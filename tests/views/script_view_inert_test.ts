/**
 * `script --view` shows a step's arguments, never obeys them: the heading
 * of each run step carries the job inert (a control character, a line feed
 * or a bidi override visible as \uXXXX), so a step cannot clear the screen,
 * write the clipboard or print a line of its own, in either language.
 */
import assert from "node:assert/strict";
import { cli } from "../_helpers/helpers.ts";

const HOSTILE = [
  {
    op: "run",
    args: {
      job: "J\x1b]52;c;eA==\x07\x1b[2J\nFAKE-LINE",
      topic: "\x9b31m\u202eriver\nFAKE-TOPIC",
      copies: 2,
    },
  },
  {
    op: "run",
    args: { job: "JOB\r\x7f\u2066-001", topic: "river", copies: 2 },
  },
].map((s) => JSON.stringify(s)).join("\n") + "\n";

Deno.test("script --view: a step's arguments are shown inert", async (t) => {
  for (const lang of ["en", "zh"] as const) {
    await t.step(lang, async () => {
      const r = await cli(["script", "--view", "--lang", lang], HOSTILE);
      assert.equal(r.code, 0, r.err.join("\n"));
      for (const line of r.out) {
        assert.doesNotMatch(
          line,
          // deno-lint-ignore no-control-regex -- what must not reach the terminal
          /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/,
          JSON.stringify(line),
        );
        assert.doesNotMatch(line, /^FAKE/, "no line of the step's own");
      }
      const headings = r.out.filter((l) => /^(line|第) \d/.test(l));
      assert.equal(headings.length, 2, r.out.join("\n"));
      assert.match(
        headings[0],
        /run J\\u001b\]52;c;eA==\\u0007\\u001b\[2J\\u000aFAKE-LINE$/,
      );
      assert.match(headings[1], /run JOB\\u000d\\u007f\\u2066-001$/);
    });
  }
});
