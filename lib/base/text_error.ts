/**
 * An error whose message is a {@linkcode Text}: the one line a user reads,
 * in both languages. Every error that reaches a screen carries one, so no
 * screen ever prints an English-only `message`.
 *
 * @module
 */
import { same, say, type Text } from "./i18n.ts";

/**
 * An error that carries the line to show, in both languages; `message` is
 * its English form (for logs and stack traces).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TextError } from "./text_error.ts";
 *
 * const error = new TextError({ en: "no such file", zh: "没有这个文件" });
 * assert.equal(error.message, "no such file");
 * assert.equal(error.text.zh, "没有这个文件");
 * ```
 */
export class TextError extends Error {
  /** The one line the user reads, in both languages. */
  readonly text: Text;
  /** Build the error from its line (a plain string is the same in both). */
  constructor(message: Text | string, options?: ErrorOptions) {
    const text = typeof message === "string" ? same(message) : message;
    super(say(text, "en"), options);
    this.name = new.target.name;
    this.text = text;
  }
}
