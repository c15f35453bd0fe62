/**
 * The chapter "Accept your own tool" in both languages (its headings are
 * held by tests/docs/readme_test.ts, as every chapter's): the same commands
 * and numbers, and every screen it shows
 * is what guardlab prints (the example's matrix and timeline, the refusal
 * under the student grant). The example servers' verdicts in its table are
 * the ones `accept --example` finds.
 */
import assert from "node:assert/strict";
import { zhPunctuationProblems } from "../../lib/base/_zh_punctuation.ts";
import { EXAMPLE_NAMES } from "../../lib/accept/cases.ts";
import { exampleMatrix } from "../../lib/accept/_matrix.ts";
import { cli } from "../_helpers/helpers.ts";

const read = (lang: string) =>
  Deno.readTextFileSync(
    new URL(`../../docs/${lang}/08-accept-your-own-tool.md`, import.meta.url),
  );
const EN = read("en");
const ZH = read("zh");
/** A table row with its cells' padding removed (deno fmt aligns tables). */
const cells = (text: string) =>
  text.replace(/ {2,}\|/g, " |").replace(/\| {2,}/g, "| ");

function outside(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((l) => {
    if (l.startsWith("```")) fenced = !fenced;
    return !fenced;
  });
}

/** The indented code block after the line that contains `marker`. */
function blockAfter(text: string, marker: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes(marker));
  assert.ok(at >= 0, marker);
  const out: string[] = [];
  let i = at + 1;
  while (!lines[i].startsWith("    ")) i++;
  for (
    ;
    i < lines.length && (lines[i].startsWith("    ") || lines[i] === "");
    i++
  ) out.push(lines[i].slice(4));
  while (out.at(-1) === "") out.pop();
  return out;
}

Deno.test("accept chapter: the same commands, flags, verdicts and numbers in both languages", () => {
  const commands = (t: string) =>
    t.split("\n").filter((l) =>
      /^ {4}(deno task|mkdir|cp |env |deno run|npm:)/.test(
        l.replace(/^ {4}( +)/, "    "),
      )
    );
  assert.deepEqual(commands(ZH), commands(EN));
  const words = (t: string, re: RegExp) =>
    [...new Set(t.match(re) ?? [])].sort();
  assert.deepEqual(words(ZH, /--[a-z][a-z-]+/g), words(EN, /--[a-z][a-z-]+/g));
  assert.deepEqual(
    words(ZH, /\b[A-Z]{2,}(?:-[A-Z]+)+\b|\b(?:ONCE|NONE|LOST)\b/g),
    words(EN, /\b[A-Z]{2,}(?:-[A-Z]+)+\b|\b(?:ONCE|NONE|LOST)\b/g),
  );
  const numbers = (t: string) =>
    (t.replace(/note-[0-9a-f]+-\d+/g, "").match(/\d+(?:\.\d+)?/g) ?? []).sort();
  assert.deepEqual(numbers(ZH), numbers(EN));
  assert.deepEqual(zhPunctuationProblems(outside(ZH).join("\n")), []);
});

Deno.test("accept chapter: the example's screen and the student grant's refusal are what guardlab prints", async () => {
  for (const [text, lang] of [[EN, "en"], [ZH, "zh"]] as const) {
    const args = [
      "accept",
      "--example",
      "duplicates-on-retry",
      "--cases",
      "lost-reply-retry",
      "--timeline",
    ];
    const marker = `guardlab ${args.join(" ")}${
      lang === "zh" ? " --lang zh" : ""
    }`;
    const shown = blockAfter(text, marker);
    const r = await cli([...args, "--lang", lang]);
    assert.equal(r.code, 5);
    // The key is fresh on every run.
    const key = (l: string) => l.replace(/note-[0-9a-f]+-001/, "note-KEY");
    assert.deepEqual(shown.map(key), r.out.map(key));
  }
  assert.match(
    EN,
    /\n {4}guardlab: refused: guardlab accept needs the engineer grant[^\n]*--example NAME\n/,
  );
  assert.match(
    ZH,
    /\n {4}guardlab: 拒绝：guardlab accept 需要工程师权限[^\n]*--example NAME\n/,
  );
});

Deno.test("accept chapter: the examples' table holds the verdicts accept --example finds", async () => {
  for (const name of EXAMPLE_NAMES) {
    const { report } = await exampleMatrix(name);
    const verdicts = report.results.map((r) => r.verdict).join(", ");
    const exit = report.unsafe > 0 ? 5 : 0;
    const row = (text: string) =>
      cells(text).split("\n").find((l) => l.startsWith(`| \`${name}\` |`)) ??
        "";
    if (name === "loses-updates") {
      // Exercise 18's answer: the chapter leaves it to the student.
      assert.ok(row(EN).endsWith("| (exercise 18) |"), row(EN));
      assert.ok(row(ZH).endsWith("| （第 18 道练习） |"), row(ZH));
      continue;
    }
    assert.ok(
      row(EN).endsWith(`| ${verdicts} | ${exit} |`),
      `${name}: ${row(EN)}`,
    );
    assert.ok(
      row(ZH).endsWith(`| ${verdicts.replaceAll(", ", "、")} | ${exit} |`),
      `${name}: ${row(ZH)}`,
    );
  }
});
