/**
 * The command line's texts live in its message tables: the ones several
 * commands share in `lib/cli/messages/`, each command's own beside it in
 * `lib/cli/commands/NAME/_messages.ts` (and, where its help alone is as long
 * as its lines, as accept's is, `_help.ts` beside them). No other module of
 * `lib/cli/`, and not `main.ts`, writes a `{ en, zh }` literal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  libFiles,
  lineOf,
  nameOf,
  type Node,
  nodesOf,
  parse,
  type Parsed,
  parseLib,
  ROOT,
} from "../_helpers/source.ts";

/** Where `file` writes an object literal with an `en` and a `zh` key. */
function inlineTexts(file: Parsed, name: string): string[] {
  const found: string[] = [];
  for (const node of nodesOf(file.program)) {
    if (node.type !== "ObjectExpression") continue;
    const keys = (node.properties as Node[])
      .filter((p) => p.type === "ObjectProperty" || p.type === "ObjectMethod")
      .map((p) => nameOf(p.key));
    if (keys.includes("en") && keys.includes("zh")) {
      found.push(`${name}:${lineOf(node)}`);
    }
  }
  return found;
}

const OWN_ROOM = /^cli\/(messages\/|commands\/[^/]+\/_(messages|help)\.ts$)/;

Deno.test("cli texts: the rule sees a text written inline", () => {
  const probe = (source: string) =>
    inlineTexts(parse("probe.ts", source), "probe.ts");
  assert.equal(probe(`say({ en: "done", zh: "完成" }, lang);`).length, 1);
  assert.equal(
    probe("const t = { zh: `第 ${n} 行`, en: `line ${n}` };").length,
    1,
  );
  assert.equal(probe(`const t = { en, zh };`).length, 1);
  assert.deepEqual(probe(`say(MESSAGES.done, lang);`), []);
  assert.deepEqual(probe(`const o = { en: 1 };`), []);
});

Deno.test("cli texts: lib/cli and main.ts write no text outside the message tables", () => {
  const files = libFiles().filter((f) =>
    f.startsWith("cli/") && !OWN_ROOM.test(f)
  );
  assert.ok(files.length > 10, `only ${files.length} files`);
  const inline = files.flatMap((f) => inlineTexts(parseLib(f), `lib/${f}`));
  const main = parse(
    "../../main.ts",
    Deno.readTextFileSync(join(ROOT, "main.ts")),
  );
  inline.push(...inlineTexts(main, "main.ts"));
  assert.deepEqual(inline, [], "move these into the command's _messages.ts");
});

Deno.test("cli texts: every message module of lib/cli/ holds only tables", async () => {
  const tables = libFiles().filter((f) => OWN_ROOM.test(f));
  assert.ok(tables.length >= 10, tables.join(", "));
  for (const file of tables) {
    const module = await import(`../../lib/${file}`);
    for (const [name, value] of Object.entries(module)) {
      assert.ok(
        typeof value === "object" && value !== null,
        `lib/${file}#${name} is a table of texts`,
      );
    }
  }
});
