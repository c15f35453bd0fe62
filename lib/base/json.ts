/**
 * JSON on the ground floor: the shape check every reader of untrusted JSON
 * uses, the one nesting-depth scanner, and the two byte-exact text forms
 * shared with the reference Python lab (canonical JSON for digests,
 * Python's default `json.dumps` for stored bodies), plus a parser that
 * keeps Python's `2` / `2.0` distinction.
 *
 * @module
 */

/** Whether `raw` is a plain JSON object: not null, not an array, no class behind it. */
export function isPlainRecord(raw: unknown): raw is Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return false;
  }
  const proto = Object.getPrototypeOf(raw);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether JSON `text` nests arrays and objects deeper than `limit`,
 * measured before it is parsed: `JSON.parse` does not recurse, but a
 * recursive reader of what it returns (a schema check, a walker of a
 * result) could run out of stack on a hostile text. One pass, no
 * recursion; brackets inside strings do not count; it stops at the first
 * level past `limit`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deeperThan } from "./json.ts";
 * const text = '{"a": ["[[[[", {"b": 1}]}'; // three levels
 * assert.equal(deeperThan(text, 2), true);
 * assert.equal(deeperThan(text, 3), false);
 * ```
 */
export function deeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** JSON with sorted keys and no spaces: the input of the draft digest. */
export function canonicalJson(value: unknown): string {
  return encode(value, ",", ":", true);
}

/**
 * JSON as Python's `json.dumps` writes it by default (`", "` and `": "`,
 * non-ASCII escaped); the reference stores draft bodies and receipt events
 * this way.
 */
export function pythonJson(value: unknown): string {
  return encode(value, ", ", ": ", false);
}

function encode(
  value: unknown,
  item: string,
  pair: string,
  sortKeys: boolean,
): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("not JSON: number");
    return JSON.stringify(value);
  }
  if (typeof value === "string") return asciiString(value);
  if (Array.isArray(value)) {
    return "[" + value.map((v) => encode(v, item, pair, sortKeys)).join(item) +
      "]";
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (sortKeys) keys.sort(codePointOrder);
    const record = value as Record<string, unknown>;
    return "{" +
      keys.map((k) =>
        asciiString(k) + pair + encode(record[k], item, pair, sortKeys)
      ).join(item) + "}";
  }
  throw new TypeError(`not JSON: ${typeof value}`);
}

/** A UTF-16 surrogate: where code unit order and code point order part. */
const SURROGATE = /[\ud800-\udfff]/;

// Python sorts str keys by code point; JS's default sort compares UTF-16 units.
function codePointOrder(a: string, b: string): number {
  // Without surrogates the two orders agree (every key of the lab's own).
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/** A character Python's `json.dumps` escapes and `JSON.stringify` does not. */
const NOT_ASCII = /[\u007f-\uffff]/;
const EVERY_NOT_ASCII = /[\u007f-\uffff]/g;

function asciiString(text: string): string {
  const json = JSON.stringify(text);
  // Nearly every string guardlab stores is ASCII already (the stage names,
  // a key, a topic): one scan finds nothing to escape, and no replace runs.
  if (!NOT_ASCII.test(json)) return json;
  return json.replace(
    EVERY_NOT_ASCII,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/**
 * Whether `text` may hold a number written with a fraction or an exponent
 * (a digit followed by `.`, `e` or `E`, in a string or not). Without one,
 * {@linkcode parseJsonLikePython} is `JSON.parse`.
 */
export function hasFloatSyntax(text: string): boolean {
  return /[0-9][.eE]/.test(text);
}

/**
 * Parse JSON text keeping Python's distinction between `2` and `2.0`: a
 * number written with a fraction or exponent is a float in the reference,
 * never an int, so it arrives here boxed (a `Number` object) and fails every
 * integer check exactly as it does there.
 */
export function parseJsonLikePython(text: string): unknown {
  // A fraction or an exponent follows a digit: with none in the text, no
  // number needs boxing, and the plain parse is the same, and faster.
  if (!hasFloatSyntax(text)) return JSON.parse(text);
  return JSON.parse(
    text,
    function (
      this: unknown,
      _key: string,
      value: unknown,
      context?: { source?: string },
    ) {
      if (typeof value === "number" && /[.eE]/.test(context?.source ?? "")) {
        return new Number(value);
      }
      return value;
    } as (this: unknown, key: string, value: unknown) => unknown,
  );
}

/**
 * The deepest nesting of arrays and objects a stored JSON value (a draft's
 * body, a receipt's events) is read to. guardlab writes them one or two
 * levels deep; every reader of a value (what a view shows, makes inert,
 * measures, prints) may then walk it by recursion without running out of
 * stack. A value nested deeper is read as its stored text.
 */
export const MAX_STORED_DEPTH = 64;

/**
 * The JSON value the stored text `text` holds, or the text itself when it
 * is not JSON or is nested deeper than {@linkcode MAX_STORED_DEPTH}: what
 * the ledger holds, either way, as a value every reader can walk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedValue } from "./json.ts";
 * assert.deepEqual(storedValue('{"text":"river"}'), { text: "river" });
 * assert.equal(storedValue("not JSON"), "not JSON");
 * const deep = "[".repeat(5000) + "]".repeat(5000);
 * assert.equal(storedValue(deep), deep);
 * ```
 */
export function storedValue(text: string): unknown {
  if (deeperThan(text, MAX_STORED_DEPTH)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
