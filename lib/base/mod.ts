/**
 * The ground floor of `lib/`: what every other area may use and which uses
 * nothing of `lib/` above it. Texts in two languages and the one language
 * picker (`i18n.ts`), the Chinese punctuation rule, values in words,
 * terminal width and inert text, bounded lines of a byte stream, JSON shape
 * checks and the reference's JSON forms, errors that carry a text, and the
 * hooks that run before the process ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { say } from "./mod.ts";
 *
 * assert.equal(say({ en: "draft", zh: "草稿" }, "zh"), "草稿");
 * ```
 *
 * @module
 */
export * from "./i18n.ts";
export * from "./text_error.ts";
export * from "./json.ts";
export * from "./exit_hooks.ts";
