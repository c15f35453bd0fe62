/**
 * The two languages of every screen. A human-facing text is a {@linkcode Text}
 * with both, written side by side in a message table for its area, so a
 * screen can never exist in one language only, and a translator edits
 * tables, never logic. {@linkcode say} is the one function that picks a
 * language; `tests/architecture/one_voice_test.ts` walks every exported table and checks
 * both languages, and `tests/architecture/one_place_test.ts` that nothing else picks.
 *
 * @module
 */

/** The languages guardlab speaks. */
export const LANGS = ["en", "zh"] as const;

/** A language code. */
export type Lang = typeof LANGS[number];

/** One value per language: a text, or lines, or anything a screen shows. */
export interface Bilingual<T> {
  /** English. */
  readonly en: T;
  /** Chinese (简体), with the article's terms. */
  readonly zh: T;
}

/** One human-facing text in both languages. */
export interface Text extends Bilingual<string> {
  /** English. */
  readonly en: string;
  /** Chinese (简体), with the article's terms. */
  readonly zh: string;
}

const SAME: unique symbol = Symbol("same in both languages");

/** A text that reads the same in both languages (a path, a number, a name). */
export function same(text: string): Text {
  const both = { en: text, zh: text };
  // Marked, so the test that checks every zh differs from its en skips it.
  Object.defineProperty(both, SAME, { value: true });
  return both;
}

/** Whether `text` was made by {@linkcode same}: meant to read the same in both. */
export function isSame(text: Text): boolean {
  return (text as unknown as Record<symbol, unknown>)[SAME] === true;
}

/**
 * `text` with each `{name}` replaced by `values[name]`, in both languages. A
 * value that is itself a {@linkcode Text} puts its English into the English
 * and its Chinese into the Chinese.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fill, say } from "./i18n.ts";
 * const removed = { en: "removed ledger {name}", zh: "已删除账本 {name}" };
 * assert.equal(say(fill(removed, { name: "a" }), "zh"), "已删除账本 a");
 * ```
 */
export function fill(
  text: Text,
  values: Readonly<Record<string, string | number | Text>>,
): Text {
  const put = (lang: Lang) =>
    say(text, lang).replace(/\{([a-zA-Z_]+)\}/g, (whole, name: string) => {
      if (!Object.hasOwn(values, name)) return whole;
      const value = values[name];
      return typeof value === "object" ? say(value, lang) : String(value);
    });
  return { en: put("en"), zh: put("zh") };
}

/** `texts` joined with `separator`, each language with its own. */
export function joinTexts(
  texts: readonly Text[],
  separator: string | Text,
): Text {
  const sep = typeof separator === "string" ? same(separator) : separator;
  const part = (lang: Lang) =>
    texts.map((t) => say(t, lang)).join(say(sep, lang));
  return { en: part("en"), zh: part("zh") };
}

/**
 * `text` in `lang`: the one place a language is picked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { say } from "./i18n.ts";
 * assert.equal(say({ en: "commit point", zh: "提交点" }, "zh"), "提交点");
 * ```
 */
export function say<T>(text: Bilingual<T>, lang: Lang): T {
  return text[lang];
}
