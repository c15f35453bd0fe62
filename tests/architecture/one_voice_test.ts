/**
 * One voice per language: a language is picked in one function (`say` in
 * `lib/base/i18n.ts`, checked on the parsed source), and every human-facing text
 * in lib/ is whole in both languages: every exported message table, found by
 * walking every module's exports (none listed by hand), and every text
 * written in the source, found by parsing it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  inType,
  isLiteral,
  libFiles,
  type Located,
  locatedNodesOf,
  nameOf,
  type Node,
  parse,
  type Parsed,
  parseLib,
  ROOT,
} from "../_helpers/source.ts";
import {
  exportedTexts,
  type LocatedText,
  sourceTexts,
  textProblem,
} from "../_helpers/texts.ts";

const LANG_CODES = ["en", "zh"];
const PICKER = { file: "base/i18n.ts", name: "say" };

function isLangCode(node: unknown): boolean {
  return LANG_CODES.some((code) => isLiteral(node, code));
}

/** The enclosing property key a node sits under, innermost first. */
function propertyKeys(located: Located): string[] {
  const keys: string[] = [];
  const { parents } = located;
  for (let i = parents.length - 1; i >= 0; i--) {
    const p = parents[i];
    if (p.type === "ObjectProperty" && !p.computed) {
      const key = nameOf(p.key);
      if (key !== undefined) keys.push(key);
    }
  }
  return keys;
}

function parseMain(): Parsed {
  return parse("../../main.ts", Deno.readTextFileSync(join(ROOT, "main.ts")));
}

function insidePicker(file: Parsed, located: Located): boolean {
  return file.name === PICKER.file &&
    located.parents.some((p) =>
      p.type === "FunctionDeclaration" && nameOf(p.id) === PICKER.name
    );
}

/**
 * Every place `file` picks a language: a comparison with `"en"` or `"zh"`,
 * a `case "zh":`, an index by a language (`text[lang]`, `t["zh"]`), or
 * reading `.en`/`.zh` of a text except to build the same language of
 * another text (`{ en: `…${x.en}` }`).
 */
function languagePicks(file: Parsed): string[] {
  const found: string[] = [];
  for (const located of locatedNodesOf(file.program)) {
    const { node } = located;
    if (inType(located) || insidePicker(file, located)) continue;
    let why: string | undefined;
    if (
      node.type === "BinaryExpression" &&
      ["===", "!==", "==", "!="].includes(node.operator as string) &&
      (isLangCode(node.left) || isLangCode(node.right))
    ) {
      why = "compares with a language code";
    } else if (node.type === "SwitchCase" && isLangCode(node.test)) {
      why = "switches on a language code";
    } else if (
      node.type === "MemberExpression" ||
      node.type === "OptionalMemberExpression"
    ) {
      const prop = node.property as Node;
      const code = node.computed
        ? (isLangCode(prop) ? nameOf(prop) : undefined)
        : nameOf(prop);
      if (
        node.computed && prop.type === "Identifier" &&
        /lang$/i.test(prop.name as string)
      ) {
        why = `indexes by ${prop.name}`;
      } else if (code !== undefined && LANG_CODES.includes(code)) {
        if (propertyKeys(located)[0] !== code) why = `reads .${code}`;
      }
    } else if (node.type === "ObjectPattern") {
      for (const p of node.properties as Node[]) {
        if (
          p.type === "ObjectProperty" &&
          LANG_CODES.includes(nameOf(p.key) ?? "")
        ) {
          why = "destructures a language";
        }
      }
    }
    if (why) found.push(`lib/${file.name}:${node.loc?.start.line ?? 0} ${why}`);
  }
  return found;
}

Deno.test("one voice: the language rule sees every way to pick", () => {
  const probe = (source: string) => languagePicks(parse("probe.ts", source));
  for (
    const source of [
      `const s = lang === "zh" ? "是" : "yes";`,
      `const l = lang; const s = "zh" !== l ? "yes" : "是";`,
      `switch (lang) { case "zh": break; }`,
      `const s = text[lang];`,
      `const s = text[chosenLang];`,
      `const s = text["zh"];`,
      `const s = text.zh;`,
      `const s = text?.en;`,
      `const { zh } = text;`,
      `const t = { en: x.zh };`,
    ]
  ) {
    assert.equal(probe(source).length, 1, source);
  }
  for (
    const source of [
      `const t = { en: \`cannot open \${what.en}\`, zh: \`无法打开\${what.zh}\` };`,
      `const s = say(text, lang);`,
      `const ok = LANGS.includes(value);`,
      `type T = Record<"en" | "zh", string>;`,
    ]
  ) {
    assert.deepEqual(probe(source), [], source);
  }
});

Deno.test("one voice: a language is picked only by say() in lib/base/i18n.ts", () => {
  const picker = parseLib(PICKER.file);
  assert.ok(
    (picker.program.body as Node[]).some((n) =>
      n.type === "ExportNamedDeclaration" &&
      (n.declaration as Node | null)?.type === "FunctionDeclaration" &&
      nameOf((n.declaration as Node).id) === PICKER.name
    ),
    "the picker exists",
  );
  const picks = libFiles().flatMap((f) => languagePicks(parseLib(f)));
  // The entry point too: it speaks before any command runs.
  picks.push(...languagePicks(parseMain()));
  assert.deepEqual(
    picks,
    [],
    "pick with say(text, lang) from lib/base/i18n.ts",
  );
});

Deno.test("one voice: the text rule catches a missing or English Chinese side", () => {
  const t = (en: string, zh: string, same = false): LocatedText => ({
    where: "probe",
    en,
    zh,
    same,
  });
  assert.equal(
    textProblem(t("removed ledger {name}", "已删除账本 {name}")),
    undefined,
  );
  assert.equal(
    textProblem(t("see `guardlab config lang`", "见 `guardlab config lang`")),
    undefined,
  );
  assert.equal(textProblem(t("lab.sqlite", "lab.sqlite", true)), undefined);
  assert.ok(textProblem(t("removed ledger {name}", "")));
  assert.ok(textProblem(t("removed ledger {name}", "removed ledger {name}")));
  assert.ok(textProblem(t("draft absent", "draft gone")));
  assert.ok(
    textProblem(
      t("{job}: voided (draft row kept)", "{job}：已作废（draft row kept）"),
    ),
  );
});

Deno.test("one voice: every exported message table is whole in both languages", async () => {
  const texts = await exportedTexts();
  // Discovery works: tables in several areas are found without a list.
  for (
    const table of [
      "lib/cli/commands/compensate/_messages.ts#COMPENSATE_MESSAGES",
      "lib/views/_messages.ts#STAGE_LABEL",
      "lib/cli/messages/common.ts#EXIT_MEANING",
      "lib/content/explain.ts#EXPLANATIONS.lock_busy.why",
    ]
  ) {
    assert.ok(texts.some((t) => t.where.startsWith(table)), table);
  }
  const problems = texts.flatMap((t) => {
    const problem = textProblem(t);
    return problem ? [`${t.where}: ${problem}`] : [];
  });
  assert.deepEqual(problems, []);
});

Deno.test("one voice: every text written in lib/ is whole in both languages", () => {
  const texts = sourceTexts();
  assert.ok(texts.length > 100, `only ${texts.length} texts found`);
  const problems = texts.flatMap((t) => {
    const problem = textProblem(t);
    return problem ? [`${t.where}: ${problem}`] : [];
  });
  assert.deepEqual(problems, []);
});
