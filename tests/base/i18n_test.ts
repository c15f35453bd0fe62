/**
 * Both languages everywhere: every table of human-facing texts has English
 * and Chinese for every key, and the explanations exist for the same topics
 * with the same fields in both.
 */
import assert from "node:assert/strict";
import { EXIT_MEANING } from "../../lib/cli/messages/common.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { main } from "../../main.ts";
import { PROBLEM } from "../../lib/sandbox/safe_fs.ts";
import { EXPLANATIONS, TOPICS } from "../../lib/content/explain.ts";
import type { Text } from "../../lib/base/i18n.ts";
import { RULES } from "../../lib/timing/messages.ts";
import { MARK_LABEL, STAGE_LABEL } from "../../lib/views/_messages.ts";
import { TEST_BASE } from "../_helpers/helpers.ts";

const CJK = /[\u3400-\u9fff]/;

function assertBoth(where: string, text: Text): void {
  assert.ok(text.en.trim() !== "", `${where}: no English`);
  assert.ok(text.zh.trim() !== "", `${where}: no Chinese`);
  assert.match(text.zh, CJK, `${where}: the Chinese text is not Chinese`);
  assert.doesNotMatch(text.en, CJK, `${where}: Chinese in the English text`);
}

Deno.test("i18n: every text table has both languages", () => {
  const tables: [string, Record<string, Text>][] = [
    ["stage labels", STAGE_LABEL],
    ["mark labels", MARK_LABEL],
    ["refusal rules", RULES],
    ["exit codes", EXIT_MEANING as Record<string, Text>],
  ];
  for (const [name, table] of tables) {
    for (const [key, text] of Object.entries(table)) {
      assertBoth(`${name}.${key}`, text);
    }
  }
  for (const [key, value] of Object.entries(PROBLEM)) {
    const text = typeof value === "function"
      ? (value as (a: number, b: number) => Text)(1000, 1001)
      : value as Text;
    assertBoth(`problem.${key}`, text);
  }
});

Deno.test("i18n: every topic is explained in both languages, field by field", () => {
  assert.deepEqual(Object.keys(EXPLANATIONS), TOPICS);
  for (const topic of TOPICS) {
    for (const field of ["happened", "why", "next"] as const) {
      assertBoth(`${topic}.${field}`, EXPLANATIONS[topic][field]);
    }
  }
});

Deno.test("i18n: script on a terminal says it waits for JSON Lines, in the chosen language", async () => {
  for (
    const [lang, words] of [["en", /end with Ctrl-D/], [
      "zh",
      /按 Ctrl-D 结束/,
    ]] as const
  ) {
    const io = { ...memoryIo("", false, TEST_BASE), stdinIsTerminal: true };
    const stderr: string[] = [];
    io.err = (line: string) => void stderr.push(line);
    assert.equal(await main(["script", "--lang", lang], io), 0);
    assert.match(stderr.join("\n"), words);
  }
  // A pipe says nothing of the kind.
  const piped = memoryIo("", false, TEST_BASE);
  assert.equal(await main(["script"], piped), 0);
  assert.deepEqual(piped.stderr, []);
});
