/**
 * The two languages of every screen. A human-facing text is a {@linkcode Text}
 * with both, written side by side, so a screen can never exist in one
 * language only; a test walks every text and checks that both are there.
 *
 * @module
 */

/** The languages guardlab speaks. */
export const LANGS = ["en", "zh"] as const;

/** A language code. */
export type Lang = typeof LANGS[number];

/** One human-facing text in both languages. */
export interface Text {
  /** English. */
  readonly en: string;
  /** Chinese (简体), with the article's terms. */
  readonly zh: string;
}

/** A text that reads the same in both languages (a path, a number, a name). */
export function same(text: string): Text {
  return { en: text, zh: text };
}

/**
 * `text` in `lang`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { say } from "./i18n.ts";
 * assert.equal(say({ en: "commit point", zh: "提交点" }, "zh"), "提交点");
 * ```
 */
export function say(text: Text, lang: Lang): string {
  return text[lang];
}
