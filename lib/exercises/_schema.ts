/**
 * The one small checker the exercise form is written in: a schema is a
 * function from a parsed value to the checked value, and these build one
 * from parts (a record of fields, a list, a string, one of some values). A
 * wrong value throws {@linkcode FormError} with the path of the first wrong
 * field (`invariants[0].premises[1].pick`); the course reader turns the path
 * into a line.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import { FORM_MESSAGES as M } from "./messages.ts";

/** A form error: the path of the wrong field and what is wrong. */
export class FormError extends TextError {
  /** Build the error for the field at `field`, e.g. `invariants[0].premises[1].pick`. */
  constructor(readonly field: string, text: Text) {
    super(text);
  }
}

/** A schema: check `value` found at `path`, with what the checks so far know (`ctx`). */
export type Schema<T, C> = (value: unknown, path: string, ctx: C) => T;

/** A check of a whole record, run in its place among the fields (a rule between fields). */
export type Rule<C> = (
  record: Record<string, unknown>,
  path: string,
  ctx: C,
  out: Record<string, unknown>,
) => void;

/** The longest string a form accepts. */
export const MAX_TEXT = 4000;

/** The longest list a form accepts, unless its schema says fewer. */
export const MAX_LIST = 32;

/** The path of `key` inside `path`: `a.b`, `a[0]`, or `a["odd key"]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? (path === "" ? key : `${path}.${key}`)
    : `${path}[${JSON.stringify(key)}]`;
}

/** Throw the form error for `path`. */
export function wrong(path: string, text: Text): never {
  throw new FormError(path, text);
}

/** `value` as an object with exactly these keys: every required one, and only the optional others. */
export function keys(
  value: unknown,
  path: string,
  required: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (!isPlainRecord(value)) wrong(path, M.notObject);
  const known = [...required, ...optional];
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      wrong(childPath(path, key), M.unknownField(known));
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(value, key)) wrong(childPath(path, key), M.missing);
  }
  return value;
}

/**
 * A record of `required` and `optional` fields (the order in which a
 * refusal lists them). Its fields are checked in `order`, which may put a
 * {@linkcode Rule} between them; by default, in the order they are listed.
 * An optional field given as `null` is known but checked by a rule. The
 * checked record holds the fields that are present.
 */
export function record<C, T = Record<string, unknown>>(
  required: Readonly<Record<string, Schema<unknown, C>>>,
  optional: Readonly<Record<string, Schema<unknown, C> | null>> = {},
  order: readonly (string | Rule<C>)[] = [
    ...Object.keys(required),
    ...Object.keys(optional),
  ],
): Schema<T, C> {
  const fields = { ...required, ...optional };
  return (value, path, ctx) => {
    const v = keys(value, path, Object.keys(required), Object.keys(optional));
    const out: Record<string, unknown> = {};
    for (const step of order) {
      if (typeof step !== "string") step(v, path, ctx, out);
      else if (Object.hasOwn(v, step)) {
        out[step] = fields[step]!(v[step], childPath(path, step), ctx);
      }
    }
    return out as T;
  };
}

/** A list of `min` to `max` items, each checked by `item`. */
export function list<T, C>(
  item: Schema<T, C>,
  min = 0,
  max = MAX_LIST,
): Schema<T[], C> {
  return (value, path, ctx) => {
    if (!Array.isArray(value)) wrong(path, M.notList);
    if (value.length < min) wrong(path, M.tooFew(min));
    if (value.length > max) wrong(path, M.tooMany(max));
    return value.map((x, i) => item(x, childPath(path, i), ctx));
  };
}

/** A non-empty string of at most {@linkcode MAX_TEXT} characters; with `pattern`, matching it. */
export function string(pattern?: RegExp, mismatch?: Text) {
  return (value: unknown, path: string): string => {
    if (typeof value !== "string" || value.trim() === "") {
      wrong(path, M.notString);
    }
    if (value.length > MAX_TEXT) wrong(path, M.tooLong(MAX_TEXT));
    if (pattern && !pattern.test(value)) wrong(path, mismatch!);
    return value;
  };
}

/** One of `values` (compared as they are: a number is not its string). */
export function oneOf<T extends string>(
  values: readonly T[],
  mismatch: Text = M.oneOf(values),
) {
  return (value: unknown, path: string): T => {
    if (!(values as readonly unknown[]).includes(value)) wrong(path, mismatch);
    return value as T;
  };
}

/** `true` or `false`. */
export function boolean(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") wrong(path, M.notBoolean);
  return value;
}

/** A list of exactly these items, each checked by its own schema. */
export function tuple<T, C>(...items: Schema<T, C>[]): Schema<T[], C> {
  const n = items.length;
  return (value, path, ctx) => {
    if (!Array.isArray(value)) wrong(path, M.notList);
    if (value.length < n) wrong(path, M.tooFew(n));
    if (value.length > n) wrong(path, M.tooMany(n));
    return items.map((item, i) => item(value[i], childPath(path, i), ctx));
  };
}

/**
 * One of several records, told apart by which of `shapes`' keys it has
 * (the first, in their order); a record with none of them is `unnamed`.
 */
export function byKey<T, C>(
  shapes: Readonly<Record<string, Schema<T, C>>>,
  unnamed: Text,
): Schema<T, C> {
  return (value, path, ctx) => {
    if (!isPlainRecord(value)) wrong(path, M.notObject);
    const key = Object.keys(shapes).find((k) => Object.hasOwn(value, k));
    if (key === undefined) wrong(path, unnamed);
    return shapes[key](value, path, ctx);
  };
}
