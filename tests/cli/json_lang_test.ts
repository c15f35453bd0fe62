/**
 * Machine output is the same in both languages (chapter 1, "Two languages"),
 * but for the sentences it carries for a person, which the chapter names:
 * `run --json`'s `refusal.valid` and `exercise list --json`'s `title`. Each
 * command runs under --lang en and --lang zh; with those fields set aside
 * the two outputs are equal, and the fields hold the hand-written texts.
 */
import assert from "node:assert/strict";
import { cli } from "../_helpers/helpers.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

async function both(args: string[], input = "") {
  const [en, zh] = await Promise.all(
    (["en", "zh"] as const).map((lang) =>
      cli([...args, "--lang", lang], input)
    ),
  );
  assert.equal(en.code, zh.code);
  return { en: en.out, zh: zh.out };
}

Deno.test("json: the same in both languages, but for the sentences chapter 1 names", async () => {
  const run = await both([
    "run",
    ...runFlags({ copies: 4 }),
    "--json",
  ]);
  const [en, zh] = [JSON.parse(run.en[0]), JSON.parse(run.zh[0])];
  assert.deepEqual(
    [en.refusal.valid, zh.refusal.valid],
    ["batch_limit: at most 3 copies per call", "batch_limit：每次最多 3 份"],
  );
  delete en.refusal.valid;
  delete zh.refusal.valid;
  assert.deepEqual(en, zh);

  const list = await both(["exercise", "list", "--json"]);
  const [a, b] = [JSON.parse(list.en[0]), JSON.parse(list.zh[0])];
  assert.deepEqual(
    [a[0].title, b[0].title],
    ["A rejected output leaves its draft", "后检拒绝了，草稿还在"],
  );
  for (const x of [...a, ...b]) delete x.title;
  assert.deepEqual(a, b);

  for (
    const args of [
      ["demo", "--json"],
      ["exercise", "progress", "--json"],
      ["verify", "--json"],
    ]
  ) {
    const out = await both(args);
    assert.deepEqual(out.en, out.zh, args.join(" "));
  }
  const script = await both(
    ["script"],
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":4}}\n',
  );
  assert.deepEqual(script.en, script.zh);
});

Deno.test("json: chapter 1 names the two fields in both languages", () => {
  for (const lang of ["en", "zh"]) {
    const text = Deno.readTextFileSync(
      new URL(`../../docs/${lang}/01-timeline.md`, import.meta.url),
    );
    for (
      const field of ["`refusal.valid`", "`exercise list --json`", "`title`"]
    ) assert.ok(text.includes(field), `${lang}: ${field}`);
  }
});
