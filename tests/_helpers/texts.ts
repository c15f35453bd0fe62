/**
 * Every human-facing text of lib/, with where it lives, for the tests that
 * hold both languages to one standard (tests/architecture/one_voice_test.ts here; a
 * punctuation rule can reuse the same walkers):
 *
 * - {@linkcode exportedTexts}: every `Text` reachable from any export of any
 *   module of lib/ (message tables, command specs, labels), found by
 *   importing each module and walking its exports; a `{ en, zh }` pair of
 *   parallel records is walked leaf by leaf.
 * - {@linkcode sourceTexts}: every `{ en: …, zh: … }` written in the source,
 *   exported or not, found by parsing; a template's holes read `{}`.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isSame, type Text } from "../../lib/base/i18n.ts";
import {
  libFiles,
  lineOf,
  nameOf,
  type Node,
  nodesOf,
  parseLib,
  ROOT,
} from "./source.ts";

/** One text and where it lives. */
export interface LocatedText {
  /** `lib/file.ts#EXPORT.path.to.key` or `lib/file.ts:line`. */
  where: string;
  /** English. */
  en: string;
  /** Chinese. */
  zh: string;
  /** Whether it was made to read the same in both languages (`same()`). */
  same: boolean;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Array.isArray(value);
}

function isText(value: unknown): value is Text {
  if (!isPlain(value) || Array.isArray(value)) return false;
  const keys = Object.keys(value).sort();
  return keys.length === 2 && keys[0] === "en" && keys[1] === "zh";
}

function* paired(
  en: unknown,
  zh: unknown,
  where: string,
  same: boolean,
): Generator<LocatedText> {
  if (typeof en === "string" || typeof zh === "string") {
    yield { where, en: String(en ?? ""), zh: String(zh ?? ""), same };
  } else if (isPlain(en) && isPlain(zh)) {
    for (const key of new Set([...Object.keys(en), ...Object.keys(zh)])) {
      yield* paired(
        (en as Record<string, unknown>)[key],
        (zh as Record<string, unknown>)[key],
        `${where}.${key}`,
        same,
      );
    }
  }
}

function* walk(
  value: unknown,
  where: string,
  seen: Set<unknown>,
): Generator<LocatedText> {
  if (!isPlain(value) || seen.has(value)) return;
  seen.add(value);
  if (isText(value)) {
    yield* paired(value.en, value.zh, where, isSame(value));
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    yield* walk(child, `${where}.${key}`, seen);
  }
}

/** Every `Text` reachable from the exports of every module of lib/. */
export async function exportedTexts(): Promise<LocatedText[]> {
  const found: LocatedText[] = [];
  const seen = new Set<unknown>();
  // A `mod.ts` only re-exports: walked last, a text is named by its home.
  const doorsLast = libFiles().sort((a, b) =>
    Number(a.endsWith("mod.ts")) - Number(b.endsWith("mod.ts"))
  );
  for (const path of doorsLast) {
    // Only a package's re-exports, no text of ours; and loading agents-core
    // reads the environment, which the plain test command does not grant.
    if (path === "accept/_agents_sdk.ts") continue;
    const module = await import(pathToFileURL(join(ROOT, "lib", path)).href);
    for (const [name, value] of Object.entries(module)) {
      found.push(...walk(value, `lib/${path}#${name}`, seen));
    }
  }
  return found;
}

/** The text of a string literal, a template (holes as `{}`) or a `+` of them. */
function staticText(node: Node): string | undefined {
  switch (node.type) {
    case "StringLiteral":
      return node.value as string;
    case "TemplateLiteral":
      return (node.quasis as Node[])
        .map((q) => (q.value as { cooked: string }).cooked).join("{}");
    case "BinaryExpression": {
      if (node.operator !== "+") return undefined;
      const left = staticText(node.left as Node);
      const right = staticText(node.right as Node);
      return left === undefined || right === undefined
        ? undefined
        : left + right;
    }
  }
  return undefined;
}

/** Every `{ en: …, zh: … }` written in lib/'s source whose two sides are text. */
export function sourceTexts(): LocatedText[] {
  const found: LocatedText[] = [];
  for (const path of libFiles()) {
    const file = parseLib(path);
    for (const node of nodesOf(file.program)) {
      if (node.type !== "ObjectExpression") continue;
      const props = node.properties as Node[];
      if (props.length !== 2) continue;
      const byKey = new Map(
        props.filter((p) => p.type === "ObjectProperty" && !p.computed)
          .map((p) => [nameOf(p.key), p.value as Node]),
      );
      const en = byKey.get("en");
      const zh = byKey.get("zh");
      if (en === undefined || zh === undefined) continue;
      const enText = staticText(en);
      const zhText = staticText(zh);
      if (enText === undefined || zhText === undefined) continue;
      found.push({
        where: `lib/${path}:${lineOf(node)}`,
        en: enText,
        zh: zhText,
        same: false,
      });
    }
  }
  return found;
}

const HAN = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/;

/**
 * What is wrong with one text, or nothing: an empty side; a Chinese side
 * that is the English one, or has no Chinese in it, when the English has
 * words; or English prose left in the Chinese side (three English words in
 * a row, outside code spans, `{…}` holes, flags and quoted names).
 */
export function textProblem(t: LocatedText): string | undefined {
  if (t.en.trim() === "") return "empty en";
  if (t.zh.trim() === "") return "empty zh";
  // A single token (a lab's name, a mark, a path) may read the same.
  if (t.same || /^[\w./-]+$/.test(t.en)) return undefined;
  const words = /[A-Za-z]{2,}/.test(t.en.replace(/\{[^}]*\}|`[^`]*`/g, ""));
  if (words && t.zh === t.en) return "zh is the English text";
  if (words && !HAN.test(t.zh)) return "zh has no Chinese";
  const prose = t.zh
    .replace(/`[^`]*`|\{[^}]*\}|"[^"]*"|'[^']*'|“[^”]*”/g, " ")
    .replace(/(?:--?|guardlab )[\w-]+/g, " ")
    .match(/\b[a-z]{2,}(?:[ ,]+[a-z]{2,}){2,}\b/);
  if (prose) return `English left in zh: "${prose[0]}"`;
  return undefined;
}
