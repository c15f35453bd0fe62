/**
 * A server's JSON Schema, read the way `accept init` needs it: as input
 * from someone else. Only local `$ref`s are followed, each at most once on
 * a path (a cycle stops there); `anyOf`/`oneOf` take their first branch
 * that is not only `null`; `allOf` merges its branches one level deep.
 * Every schema node visited counts against {@linkcode MAX_SCHEMA_NODES} and
 * every level against {@linkcode MAX_SCHEMA_DEPTH}. A `pattern` is never
 * evaluated (a server's regular expression can backtrack for ever on a
 * short string): a value is generated from it only when it is in a small
 * subset read in one pass ({@linkcode patternValue}); any other pattern's
 * value is reported as unchecked. No
 * property a server names is ever read through a prototype or assigned
 * through a setter (`__proto__`, `constructor` are plain names here).
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import {
  MAX_DRAFT_ITEMS,
  MAX_DRAFT_STRING,
  MAX_PATTERN,
  MAX_PATTERN_VALUE,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
} from "./limits.ts";
import { type Json, pointerGet } from "./oracle.ts";

/** A schema as guardlab reads it: a plain object (`true` and `{}` allow anything). */
export type Schema = Record<string, unknown>;

/** Why a tool's schema could not be drafted. */
export type TooBig = "depth" | "nodes" | "items";

/** A schema past a bound: the tool is skipped, never half drafted. */
export class SchemaTooBig extends Error {
  /** Which bound it passed. */
  constructor(readonly why: TooBig) {
    super(`schema: ${why}`);
  }
}

/** How a string of a drafted call was chosen. */
export type LeafKind = "free" | "fixed" | "enum";

/** A string of a drafted call: where it is, and how it was chosen. */
export interface Leaf {
  /** Its JSON Pointer in the call. */
  readonly pointer: string;
  /** The property that holds it (an array's own name for its items). */
  readonly name: string;
  /** `free`: guardlab's own `gl-…-{run}-{n:3}`; `fixed`: a default, example or format value; `enum`: a const or enum value. */
  readonly kind: LeafKind;
  /** Its format, when the schema names one guardlab writes values for. */
  readonly format?: string;
}

/** A drafted value, its strings, and what in it guardlab could not check. */
export interface Drafted {
  /** The value. */
  readonly value: Json;
  /** Its strings, in document order. */
  readonly leaves: readonly Leaf[];
  /** Pointers of values whose constraints guardlab did not check, each with what (`/a: pattern`). */
  readonly unchecked: readonly string[];
  /** Pointers of values guardlab made to fit a `format`, `pattern`, `minimum` or `maximum`, each with which (`/due: format date-time`): guesses the server may still refuse. */
  readonly made: readonly string[];
}

/** The value of own property `key` of `o`, never an inherited one. */
export function own(o: unknown, key: string): unknown {
  return isPlainRecord(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Set own property `key` of `o` as data, whatever the name (`__proto__` included). */
export function put(o: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(o, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A JSON Pointer token for `key`. */
export function token(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** `name` as the middle of a drafted string: lower-case letters and digits, at most 16. */
function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 16) || "v";
}

/** The free string guardlab writes for property `name`: fresh per case (`{run}`) and per copy (`{n:3}`). */
export function freeString(name: string, format?: string, tag = ""): string {
  const core = `gl-${tag}${slug(name)}-{run}-{n:3}`;
  switch (format) {
    case "email":
    case "idn-email":
      return `${core}@example.com`;
    case "uri":
    case "url":
    case "iri":
    case "uri-reference":
    case "iri-reference":
      return `https://example.com/${core}`;
    case "hostname":
    case "idn-hostname":
      return `${core}.example.com`;
    default:
      return core;
  }
}

/** The formats whose values guardlab writes fresh (with `{run}`). */
const FREE_FORMATS = [
  "email",
  "idn-email",
  "uri",
  "url",
  "iri",
  "uri-reference",
  "iri-reference",
  "hostname",
  "idn-hostname",
];

/** Values for formats that cannot carry `{run}`: valid, and the same every case. */
const FIXED_FORMATS: Readonly<Record<string, string>> = {
  "date": "2026-01-01",
  "date-time": "2026-01-01T00:00:00Z",
  "time": "00:00:00Z",
  "ipv4": "127.0.0.1",
  "ipv6": "::1",
  "uuid": "00000000-0000-4000-8000-000000000000",
};

const TYPES = [
  "object",
  "array",
  "string",
  "number",
  "integer",
  "boolean",
  "null",
] as const;

/** A JSON Schema type name. */
export type JsonType = typeof TYPES[number];

/** A reader of one server's schema (a tool's input or output schema), with its own budget. */
export class SchemaReader {
  #nodes = 0;
  readonly #root: unknown;

  /** A reader of `root`, the document local `$ref`s point into. */
  constructor(root: unknown) {
    this.#root = root;
  }

  #visit(): void {
    if (++this.#nodes > MAX_SCHEMA_NODES) throw new SchemaTooBig("nodes");
  }

  /** A copy of `o`'s keys costs a visit per 64 keys: a wide schema merged many times is bounded too. */
  #copied(o: Schema): void {
    for (let n = Object.keys(o).length; n > 0; n -= 64) this.#visit();
  }

  /**
   * `schema` as one object: local `$ref`s followed (a cycle or an outside
   * reference reads as an unknown schema, `null`), the first branch of
   * `anyOf`/`oneOf` that is not only `null`, `allOf` merged.
   */
  resolve(
    schema: unknown,
    seen: ReadonlySet<string> = new Set(),
  ): Schema | null {
    this.#visit();
    if (schema === true) return {};
    if (!isPlainRecord(schema)) return null;
    let s: Schema = schema;
    const path = new Set(seen);
    while (typeof own(s, "$ref") === "string") {
      const ref = own(s, "$ref") as string;
      if (!ref.startsWith("#") || path.has(ref)) return null;
      path.add(ref);
      let pointer: string;
      try {
        pointer = decodeURIComponent(ref.slice(1));
      } catch {
        return null;
      }
      const target = pointerGet(this.#root, pointer);
      if (!target.found || !isPlainRecord(target.value)) return null;
      this.#copied(target.value);
      s = { ...target.value, ...without(s, "$ref") };
    }
    for (const key of ["anyOf", "oneOf"]) {
      const branches = own(s, key);
      if (!Array.isArray(branches) || branches.length === 0) continue;
      let chosen: Schema | null = null;
      for (const b of branches) {
        const r = this.resolve(b, path);
        if (r !== null && typeOf(r) !== "null") {
          chosen = r;
          break;
        }
      }
      if (chosen === null) return null;
      this.#copied(chosen);
      s = { ...without(s, key), ...chosen };
    }
    const all = own(s, "allOf");
    if (Array.isArray(all)) {
      let merged: Schema = without(s, "allOf");
      for (const b of all) {
        const r = this.resolve(b, path);
        if (r === null) continue;
        this.#copied(r);
        this.#copied(merged);
        const properties = {
          ...(isPlainRecord(own(merged, "properties"))
            ? merged.properties as Schema
            : {}),
          ...(isPlainRecord(own(r, "properties"))
            ? r.properties as Schema
            : {}),
        };
        const required = [
          ...stringsOf(own(merged, "required")),
          ...stringsOf(own(r, "required")),
        ];
        merged = { ...r, ...merged, properties, required };
      }
      s = merged;
    }
    return s;
  }

  /** The own properties of object schema `s` (each unresolved), and its required names. */
  properties(s: Schema): { names: string[]; required: string[] } {
    const props = own(s, "properties");
    const names = isPlainRecord(props) ? Object.keys(props) : [];
    const required = [...new Set(stringsOf(own(s, "required")))];
    for (let i = 0; i < names.length + required.length; i++) this.#visit();
    return { names, required };
  }

  /** The schema of property `name` of object schema `s`, resolved; `{}` when it has none. */
  property(s: Schema, name: string): Schema {
    const props = own(s, "properties");
    const raw = own(props, name) ?? own(s, "additionalProperties");
    return this.resolve(raw === undefined || raw === false ? true : raw) ?? {};
  }

  /** The schema of the items of array schema `s`, resolved, for item `i`. */
  item(s: Schema, i: number): Schema {
    const tuple = own(s, "prefixItems") ?? own(s, "items");
    const raw = Array.isArray(tuple)
      ? (i < tuple.length ? tuple[i] : own(s, "additionalItems") ?? true)
      : tuple ?? true;
    return this.resolve(raw) ?? {};
  }

  /**
   * A valid value for `schema` (at `pointer`, held by property `name`):
   * its `const`, first `enum` value, `default` or first example when there
   * is one, else one built from its type; an object gets its required
   * properties only. Throws {@linkcode SchemaTooBig} past a bound.
   */
  draft(schema: Schema, pointer = "", name = "", depth = 0): Drafted {
    const leaves: Leaf[] = [];
    const unchecked: string[] = [];
    const made: string[] = [];
    const value = this.#draft(schema, pointer, name, depth, leaves, {
      unchecked,
      made,
    });
    return { value, leaves, unchecked, made };
  }

  #draft(
    s: Schema,
    pointer: string,
    name: string,
    depth: number,
    leaves: Leaf[],
    notes: { unchecked: string[]; made: string[] },
  ): Json {
    this.#visit();
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaTooBig("depth");
    const type = typeOf(s);
    const given = givenValue(s, type);
    if (given !== undefined) {
      if (typeof given.value === "string") {
        leaves.push({ pointer, name, kind: given.kind });
      }
      return given.value;
    }
    switch (type) {
      case "object": {
        const out: Record<string, Json> = {};
        const { required } = this.properties(s);
        for (const key of required) {
          put(
            out,
            key,
            this.#draft(
              this.property(s, key),
              `${pointer}/${token(key)}`,
              key,
              depth + 1,
              leaves,
              notes,
            ),
          );
        }
        return out;
      }
      case "array": {
        const min = numberOf(own(s, "minItems")) ?? 0;
        const max = numberOf(own(s, "maxItems")) ?? Infinity;
        if (min > MAX_DRAFT_ITEMS) throw new SchemaTooBig("items");
        const length = Math.min(Math.max(1, min), max);
        const out: Json[] = [];
        for (let i = 0; i < length; i++) {
          const item = this.item(s, i);
          const before = leaves.length;
          let v = this.#draft(
            item,
            `${pointer}/${i}`,
            name,
            depth + 1,
            leaves,
            notes,
          );
          // A second item of the same schema must differ from the first.
          if (
            i > 0 && typeof v === "string" && leaves[before]?.kind === "free"
          ) {
            v = freeString(name, formatOf(item), `${i + 1}`);
          }
          out.push(v);
        }
        return out;
      }
      case "number":
      case "integer": {
        const bounds = ["minimum", "exclusiveMinimum", "maximum", "multipleOf"]
          .filter((k) => numberOf(own(s, k)) !== undefined);
        const n = numberFor(s, type);
        if (bounds.length > 0) {
          notes.made.push(`${pointer || "/"}: ${bounds.join(", ")} → ${n}`);
        }
        return n;
      }
      case "boolean":
        return false;
      case "null":
        return null;
      default: {
        const format = formatOf(s);
        const fixed = format === undefined ? undefined : FIXED_FORMATS[format];
        if (fixed !== undefined) {
          leaves.push({ pointer, name, kind: "fixed", format });
          notes.made.push(`${pointer || "/"}: format ${format}`);
          return fixed;
        }
        const pattern = own(s, "pattern");
        const fitted = format === undefined && typeof pattern === "string"
          ? patternValue(pattern)
          : null;
        if (fitted !== null) {
          leaves.push({ pointer, name, kind: "fixed" });
          notes.made.push(
            `${pointer || "/"}: pattern ${JSON.stringify(pattern)}`,
          );
          return fitted;
        }
        const known = format === undefined || FREE_FORMATS.includes(format);
        const why = [
          ...(type === undefined ? ["no type"] : []),
          ...(known ? [] : [`format ${format}`]),
          ...(own(s, "pattern") !== undefined ? ["pattern"] : []),
          ...((numberOf(own(s, "maxLength")) ?? Infinity) < 40
            ? ["maxLength"]
            : []),
          ...((numberOf(own(s, "minLength")) ?? 0) > 12 ? ["minLength"] : []),
        ];
        if (why.length > 0) {
          notes.unchecked.push(`${pointer || "/"}: ${why.join(", ")}`);
        }
        leaves.push({
          pointer,
          name,
          kind: "free",
          ...(known && format !== undefined ? { format } : {}),
        });
        return freeString(name, known ? format : undefined);
      }
    }
  }
}

/**
 * A string that matches `pattern`, made without evaluating it, when the
 * pattern is in a small subset: anchors `^` and `$`, literal characters,
 * escaped punctuation, `\d`, `\w`, classes of characters and ranges
 * (`[A-Z0-9_-]`, never negated), each optionally repeated a fixed number
 * of times (`{3}`, at most 64). Anything else (alternation, groups, `.`,
 * `*`, `+`, `?`, `{n,m}`, lookaround) is a pattern guardlab cannot fit a
 * value to: `null`. One pass over at most 256 characters, so a hostile
 * pattern costs nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { patternValue } from "./_schema.ts";
 * assert.equal(patternValue("^[A-Z]{3}-\\d{4}$"), "AAA-0000");
 * assert.equal(patternValue("^(a+)+$"), null);
 * ```
 */
export function patternValue(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN) return null;
  let at = 0;
  if (pattern[at] === "^") at++;
  let out = "";
  while (at < pattern.length) {
    if (pattern[at] === "$" && at === pattern.length - 1) break;
    const atom = atomAt(pattern, at);
    if (atom === null) return null;
    at = atom.next;
    let times = 1;
    if (pattern[at] === "{") {
      const m = /^\{([0-9]{1,2})\}/.exec(pattern.slice(at, at + 5));
      if (m === null || Number(m[1]) > MAX_PATTERN_VALUE) return null;
      times = Number(m[1]);
      at += m[0].length;
    }
    if (out.length + times > MAX_PATTERN_VALUE) return null;
    out += atom.char.repeat(times);
  }
  return out;
}

const SPECIAL = "\\^$.|?*+()[]{}";

/** One atom of {@linkcode patternValue}'s subset at `at`: a character it matches, and where the next begins. */
function atomAt(p: string, at: number): { char: string; next: number } | null {
  const c = p[at];
  if (c === "\\") {
    const e = p[at + 1];
    if (e === undefined) return null;
    if (e === "d") return { char: "0", next: at + 2 };
    if (e === "w") return { char: "a", next: at + 2 };
    return /[a-zA-Z0-9]/.test(e) ? null : { char: e, next: at + 2 };
  }
  if (c === "[") {
    // A class: its first member (a range's start) is a character it takes.
    let i = at + 1;
    if (p[i] === "^" || p[i] === "]") return null;
    let first: string | null = null;
    while (i < p.length && p[i] !== "]") {
      let ch = p[i];
      if (ch === "\\") {
        const e = p[i + 1];
        if (e === undefined) return null;
        ch = e === "d" ? "0" : e === "w" ? "a" : e;
        if (/[a-zA-Z0-9]/.test(e) && e !== "d" && e !== "w") return null;
        i += 2;
      } else if (ch === "[") return null;
      else i++;
      if (p[i] === "-" && p[i + 1] !== "]" && p[i + 1] !== undefined) {
        // A range: both ends plain characters, in order.
        const end = p[i + 1];
        if (end === "\\" || end === "[" || end < ch) return null;
        i += 2;
      }
      first ??= ch;
    }
    if (p[i] !== "]" || first === null) return null;
    return { char: first, next: i + 1 };
  }
  if (c === undefined || SPECIAL.includes(c)) return null;
  return { char: c, next: at + 1 };
}

/** `s` without its own property `key`. */
function without(s: Schema, key: string): Schema {
  const out: Schema = {};
  for (const k of Object.keys(s)) {
    if (k !== key) {
      Object.defineProperty(out, k, {
        value: s[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

function stringsOf(raw: unknown): string[] {
  return Array.isArray(raw)
    ? raw.filter((x): x is string => typeof x === "string")
    : [];
}

function numberOf(raw: unknown): number | undefined {
  return typeof raw === "number" && Number.isFinite(raw) ? raw : undefined;
}

/** The format of string schema `s`, when it names one. */
export function formatOf(s: Schema): string | undefined {
  const f = own(s, "format");
  return typeof f === "string" ? f.slice(0, 40) : undefined;
}

/** The type of schema `s`: its `type` (the first that is not `null`), else what its keywords imply. */
export function typeOf(s: Schema): JsonType | undefined {
  const raw = own(s, "type");
  const list = Array.isArray(raw) ? raw : [raw];
  const named = list.filter((t): t is JsonType =>
    (TYPES as readonly unknown[]).includes(t)
  );
  const first = named.find((t) => t !== "null") ?? named[0];
  if (first !== undefined) return first;
  if (own(s, "properties") !== undefined || own(s, "required") !== undefined) {
    return "object";
  }
  if (own(s, "items") !== undefined || own(s, "prefixItems") !== undefined) {
    return "array";
  }
  return undefined;
}

/** Whether JSON value `v` has JSON Schema type `type` (a missing type allows any). */
function hasType(v: unknown, type: JsonType | undefined): boolean {
  switch (type) {
    case undefined:
      return true;
    case "object":
      return isPlainRecord(v);
    case "array":
      return Array.isArray(v);
    case "integer":
      return Number.isInteger(v);
    case "null":
      return v === null;
    case "number":
      return typeof v === "number";
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
  }
}

/**
 * The value the schema itself gives, when it gives one of its own type and
 * of a sensible size: `const`, the first `enum` value (not `null`), the
 * `default`, the first of `examples`.
 */
function givenValue(
  s: Schema,
  type: JsonType | undefined,
): { value: Json; kind: LeafKind } | undefined {
  const small = (v: unknown) => {
    try {
      return JSON.stringify(v).length <= MAX_DRAFT_STRING;
    } catch {
      return false;
    }
  };
  // A value of the server's holding `{key}` would read as guardlab's placeholder.
  const ok = (v: unknown) =>
    v !== undefined && hasType(v, type) && small(v) &&
    !JSON.stringify(v).includes("{key}");
  if (Object.hasOwn(s, "const") && ok(s.const)) {
    return { value: s.const as Json, kind: "enum" };
  }
  const list = own(s, "enum");
  if (Array.isArray(list)) {
    const first = list.find((v) => v !== null && ok(v)) ??
      list.find((v) => ok(v));
    if (first !== undefined) return { value: first as Json, kind: "enum" };
  }
  if (Object.hasOwn(s, "default") && ok(s.default)) {
    return { value: s.default as Json, kind: "fixed" };
  }
  const examples = own(s, "examples");
  if (Array.isArray(examples) && examples.length > 0 && ok(examples[0])) {
    return { value: examples[0] as Json, kind: "fixed" };
  }
  return undefined;
}

/** A number within the schema's bounds: its minimum, else 1 (an integer for `integer`). */
function numberFor(s: Schema, type: "number" | "integer"): number {
  const min = numberOf(own(s, "minimum"));
  const exclusive = numberOf(own(s, "exclusiveMinimum"));
  const max = numberOf(own(s, "maximum"));
  const step = numberOf(own(s, "multipleOf"));
  let n = min ?? (exclusive !== undefined ? exclusive + 1 : 1);
  if (max !== undefined && n > max) n = max;
  if (step !== undefined && step > 0) n = Math.ceil(n / step) * step;
  return type === "integer" ? Math.ceil(n) : n;
}

/** Every property of every object in `value`, with its pointer. */
export function fieldsOf(
  value: Json,
  at: string,
): { pointer: string; name: string }[] {
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => fieldsOf(v, `${at}/${i}`));
  }
  if (!isPlainRecord(value)) return [];
  return Object.keys(value).flatMap((k) => [
    { pointer: `${at}/${token(k)}`, name: k },
    ...fieldsOf(value[k] as Json, `${at}/${token(k)}`),
  ]);
}

function parentOf(root: Json, pointer: string): { holder: Json; last: string } {
  const cut = pointer.lastIndexOf("/");
  const found = pointerGet(root, pointer.slice(0, cut));
  const last = pointer.slice(cut + 1).replaceAll("~1", "/").replaceAll(
    "~0",
    "~",
  );
  return { holder: found.found ? found.value as Json : null, last };
}

/** Set the value at `pointer` in `root` (its parent must exist). */
export function setAt(root: Json, pointer: string, value: Json): void {
  const { holder, last } = parentOf(root, pointer);
  if (Array.isArray(holder)) holder[Number(last)] = value;
  else if (isPlainRecord(holder)) {
    put(holder as Record<string, Json>, last, value);
  }
}

/** Remove the property at `pointer` in `root`. */
export function removeAt(root: Json, pointer: string): void {
  const { holder, last } = parentOf(root, pointer);
  if (isPlainRecord(holder)) delete (holder as Record<string, Json>)[last];
}
