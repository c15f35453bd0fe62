/**
 * Values as a person reads them, never as JSON: a view for people shows
 * `job=JOB-001，copies=2`, not `{"job":"JOB-001","copies":2}`. Machine output
 * (`--json`, `script`'s lines) keeps its JSON; these are for the text and SVG
 * views only.
 *
 * @module
 */
import { type Lang, LANGS, say, type Text } from "./i18n.ts";

/** The separator between the items of a list or the fields of an object. */
const SEPARATOR: Text = { en: ", ", zh: "，" };

/**
 * A string as it is when it is one plain word, else quoted with every
 * control or invisible character escaped, so a hostile value cannot move the
 * cursor or hide text on a terminal.
 */
function plainString(text: string): string {
  if (/^[^\s"'=,，()\[\]{}\p{C}\p{Zl}\p{Zp}]+$/u.test(text)) return text;
  return `"${
    text.replace(
      /["\\]|[\p{C}\p{Zl}\p{Zp}]/gu,
      (c) =>
        c === '"' || c === "\\"
          ? `\\${c}`
          : `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`,
    )
  }"`;
}

/**
 * `value` in words a person reads: an object as `key=value` pairs, a list
 * as its items in parentheses, a string as itself (quoted when it has
 * spaces or separators), numbers, booleans and `null` as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainValue } from "./plain.ts";
 * assert.equal(
 *   plainValue({ job: "JOB-001", topic: "river", copies: 2 }, "zh"),
 *   "job=JOB-001，topic=river，copies=2",
 * );
 * assert.equal(plainValue(["a", [1, 2]], "en"), "(a, (1, 2))");
 * ```
 */
export function plainValue(value: unknown, lang: Lang): string {
  const sep = say(SEPARATOR, lang);
  if (typeof value === "string") return plainString(value);
  if (Array.isArray(value)) {
    return `(${value.map((v) => inner(v, lang)).join(sep)})`;
  }
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([k, v]) =>
      `${plainString(k)}=${inner(v, lang)}`
    );
    return fields.length === 0 ? "()" : fields.join(sep);
  }
  return String(value);
}

/**
 * `value` in words, as a {@linkcode Text}: each language with its own
 * separators, for a view that builds its lines from texts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainText } from "./plain.ts";
 * assert.deepEqual(plainText(["a", 1]), { en: "(a, 1)", zh: "(a，1)" });
 * ```
 */
export function plainText(value: unknown): Text {
  const [en, zh] = LANGS.map((lang) => plainValue(value, lang));
  return { en, zh };
}

/** A value inside a list or an object: a nested object in parentheses. */
function inner(value: unknown, lang: Lang): string {
  const shown = plainValue(value, lang);
  const isObject = value !== null && typeof value === "object" &&
    !Array.isArray(value) && Object.keys(value).length > 0;
  return isObject ? `(${shown})` : shown;
}

/**
 * An object's fields one per line, `key` padded to a column, for a result
 * shown to a person: `events` (a list of event names) reads in time order,
 * joined by `>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainFields } from "./plain.ts";
 * assert.deepEqual(plainFields({ attempt: 1, events: ["a", "b"] }, "en"), [
 *   "attempt  1",
 *   "events   a > b",
 * ]);
 * ```
 */
export function plainFields(record: object, lang: Lang): string[] {
  const fields = record as Record<string, unknown>;
  const keys = Object.keys(fields);
  const column = Math.max(0, ...keys.map((k) => plainString(k).length)) + 2;
  return keys.map((key) => {
    const value = fields[key];
    const shown = key === "events" && Array.isArray(value) &&
        value.every((e) => typeof e === "string")
      ? (value.length === 0 ? "()" : value.map(plainString).join(" > "))
      : plainValue(value, lang);
    return plainString(key).padEnd(column) + shown;
  });
}
