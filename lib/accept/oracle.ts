/**
 * The oracle: a JSON file, no code, that tells `accept` how to call a write
 * tool and how to count its effect by key with a read tool. Its field names
 * are fixed (scripts and course files are written against them):
 *
 * ```json
 * {"tools": [{
 *   "tool": "put_note",
 *   "call": {"id": "note-{run}-{n:3}", "text": "hello {run}"},
 *   "key": "/id",
 *   "read": {"tool": "get_notes", "arguments": {"id": "{key}"}},
 *   "count": {"json": "/notes", "match": {"id": "{key}"}},
 *   "bad_call": {"id": "note-{run}-{n:3}", "text": 42},
 *   "other_call": {"id": "note-{run}-{n:3}", "text": "other {run}"},
 *   "other_count": {"json": "/notes", "match": {"id": "{key}", "text": "other {run}"}}
 * }]}
 * ```
 *
 * Placeholders in any string: `{run}` (unique per case), `{n}` (the copy
 * number, 1 for single calls), `{n:3}` (zero-padded), `{key}` (the key's
 * value in the substituted `call`), and guardlab's `{case}` (the case's
 * number in the run, for keys that must be short numbers). `other_count` is guardlab's extension:
 * without it, "the new arguments took no effect" cannot be told from
 * "they overwrote the old ones".
 *
 * @module
 */
import { canonicalJson, deeperThan, isPlainRecord } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import { fill, type Text } from "../base/i18n.ts";
import {
  MAX_ORACLE_DEPTH,
  MAX_ORACLE_TOOLS,
  MAX_SETUP_CALLS,
} from "./limits.ts";
import { ORACLE_MESSAGES } from "./messages.ts";

/** How the oracle says a server marks the in-flight conflict a client may retry after. */
export type ConflictMark =
  /** An HTTP status (the draft: 409). */
  | { readonly status: number }
  /** A JSON-RPC error code. */
  | { readonly code: number }
  /** A value at a JSON Pointer into the JSON-RPC error, or into the tool result. */
  | { readonly json: string; readonly value: string | number | boolean | null };

/** A JSON value as the oracle holds it. */
export type Json =
  | null
  | boolean
  | number
  | string
  | Json[]
  | { [key: string]: Json };

/** A call of a tool by name, with arguments. */
export interface ToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** Its arguments (placeholders substituted before the call). */
  readonly arguments: { [key: string]: Json };
  /**
   * For a setup call only: names for values of its answer (each a JSON
   * Pointer into its result: the structured content, else its text as
   * JSON), which later strings take as `{setup.NAME}` (an id the server
   * assigns).
   */
  readonly capture?: { readonly [name: string]: string };
}

/** How the effect is counted in a read tool's result. */
export type Count =
  | { readonly text: string }
  | { readonly json: string; readonly match: { [key: string]: Json } }
  /** The number at a JSON Pointer is the count (an HTTP API's `{"count": 1}`). */
  | { readonly number: string };

/**
 * Where a call carries its key: among its `arguments` (`key` points into
 * `call`), in `params._meta` (`key` points into `meta`, the commerce
 * protocols' way), or as `params.idempotencyKey` beside the arguments
 * (`idempotency_key`, MCP's proposal SEP-3182); `header` is an HTTP API's
 * key header (its oracle's own form, compiled to this one).
 */
export type KeyPlace = "arguments" | "_meta" | "idempotencyKey" | "header";

/** The places an MCP oracle may name (`header` is an HTTP oracle's). */
export const MCP_KEY_PLACES: readonly KeyPlace[] = [
  "arguments",
  "_meta",
  "idempotencyKey",
];

/** Where a result says "refused": the value at a JSON Pointer into its document (structured content, else its text parsed as JSON). */
export interface RefusalMark {
  /** A JSON Pointer into the result's document. */
  readonly json: string;
  /** The value it holds when the server refused. */
  readonly value: Json;
}

/** One write tool the oracle names. */
export interface WriteTool {
  /** The write tool's name. */
  readonly tool: string;
  /** Valid arguments. */
  readonly call: { [key: string]: Json };
  /** A JSON Pointer into `call`: the stable business key. */
  readonly key: string;
  /** The read tool call that shows the effect. */
  readonly read: ToolCall;
  /** How to count the effect in the read's result. */
  readonly count: Count;
  /** Calls run before each case. */
  readonly setup?: readonly ToolCall[];
  /** Arguments the tool must refuse. */
  readonly bad_call?: { [key: string]: Json };
  /** The same key with other arguments. */
  readonly other_call?: { [key: string]: Json };
  /** How to count the effect of `other_call`'s arguments. */
  readonly other_count?: Count;
  /** Where the call carries its key (`arguments` when absent). */
  readonly key_in?: KeyPlace;
  /** What the call carries in `params._meta` (the key's place when `key_in` is `_meta`). */
  readonly meta?: { [key: string]: Json };
  /** The key sent as `params.idempotencyKey` (or an HTTP API's key header), when `key_in` says so; `key` is then `""`. */
  readonly idempotency_key?: string;
  /** How the server marks a conflict a client may retry after (a duplicate sent while the first is in flight). */
  readonly conflict?: ConflictMark;
  /** Arguments the tool answers with an error after its write (a test hook of the server's): a stored error's replay is tested with them. */
  readonly error_call?: { [key: string]: Json };
  /** How long the server says it keeps a key, in ms. */
  readonly key_lifetime_ms?: number;
  /**
   * How this server marks a refusal in a result without `isError` (a
   * field and the value it holds then, as `{"json": "/success", "value":
   * false}`): such an answer counts as the refusal it is.
   */
  readonly refusal?: RefusalMark;
  /**
   * What `accept init` guessed, by field, each with why: to confirm, an
   * engineer checks the field and deletes its entry. `accept` refuses an
   * oracle while any is left.
   */
  readonly guesses?: { readonly [field: string]: string };
}

/** A whole oracle. */
export interface Oracle {
  /** The write tools, each with its cases. */
  readonly tools: readonly WriteTool[];
}

/** The values placeholders take in one case. */
export interface Placeholders {
  /** Unique per case. */
  readonly run: string;
  /** The copy number, from 1. */
  readonly n: number;
  /** The key's value, once known. */
  readonly key?: string;
  /**
   * The case's number in this run, from 1 (guardlab's extension, for a
   * tool whose keys must be short numbers, as `JOB-{case}{n:2}`).
   */
  readonly case?: number;
  /** What the case's setup calls captured, by name (`{setup.NAME}`). */
  readonly setup?: { readonly [name: string]: string };
}

/** An oracle that cannot be used, with the one line that says why. */
export class BadOracle extends TextError {}

const TOOL_FIELDS = [
  "tool",
  "call",
  "key",
  "read",
  "count",
  "setup",
  "bad_call",
  "other_call",
  "other_count",
  "key_in",
  "meta",
  "idempotency_key",
  "conflict",
  "error_call",
  "key_lifetime_ms",
  "refusal",
  "guesses",
] as const;

/** The fields of the idempotency-key contract: an entry with any of them runs the contract's cases too. */
export const CONTRACT_FIELDS = [
  "key_in",
  "conflict",
  "error_call",
  "key_lifetime_ms",
] as const;

/** The fields `accept init` may mark as a guess (every field of an entry but `setup`, the contract's and `refusal`, which it never drafts). */
export const GUESSABLE_FIELDS: readonly string[] = TOOL_FIELDS.filter((f) =>
  f !== "setup" && f !== "guesses" && f !== "refusal" &&
  !(["meta", "idempotency_key", ...CONTRACT_FIELDS] as string[]).includes(f)
);

/** The longest key lifetime an oracle may state: a year, in ms. */
const MAX_LIFETIME_MS = 366 * 24 * 3600 * 1000;

/** Whether an oracle entry declares any part of the idempotency-key contract. */
export function declaresContract(tool: WriteTool): boolean {
  return (tool.key_in !== undefined && tool.key_in !== "arguments") ||
    tool.conflict !== undefined || tool.error_call !== undefined ||
    tool.key_lifetime_ms !== undefined;
}

/** The longest note a guess may carry. */
const MAX_GUESS_NOTE = 1000;

/** How {@linkcode parseOracle} reads an oracle. */
export interface ParseOptions {
  /**
   * Accept entries that still carry unconfirmed guesses (a draft, read
   * back by a test or by `accept init`'s own check); `accept` never does.
   */
  readonly draft?: boolean;
}

/**
 * Parse and check an oracle's text: every field spelled as documented,
 * every pointer well formed, `{key}` never inside `call` (it is read from
 * there).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOracle } from "./oracle.ts";
 * const oracle = parseOracle(JSON.stringify({ tools: [{
 *   tool: "put", call: { id: "k-{run}" }, key: "/id",
 *   read: { tool: "get", arguments: { id: "{key}" } },
 *   count: { text: "{key}" },
 * }] }));
 * assert.equal(oracle.tools[0].key, "/id");
 * ```
 */
export function parseOracle(text: string, options: ParseOptions = {}): Oracle {
  const raw = oracleJson(text);
  if (!isPlainRecord(raw) || !Array.isArray(raw.tools)) {
    throw new BadOracle(ORACLE_MESSAGES.noTools);
  }
  const extra = Object.keys(raw).find((k) => k !== "tools");
  if (extra !== undefined) throw bad("", ORACLE_MESSAGES.unknownField, extra);
  if (raw.tools.length === 0 || raw.tools.length > MAX_ORACLE_TOOLS) {
    throw new BadOracle(
      fill(ORACLE_MESSAGES.toolCount, { max: MAX_ORACLE_TOOLS }),
    );
  }
  const tools = raw.tools.map((t, i) => writeTool(t, `tools[${i}]`));
  if (!options.draft) {
    const left = tools.flatMap((t, i) => {
      const fields = Object.keys(t.guesses ?? {});
      return fields.length === 0
        ? []
        : [`tools[${i}] (${t.tool}): ${fields.join(", ")}`];
    });
    if (left.length > 0) {
      throw new BadOracle(
        fill(ORACLE_MESSAGES.unconfirmed, { list: left.join("; ") }),
      );
    }
  }
  return { tools };
}

/** An oracle file's JSON, its depth measured before it is parsed (an HTTP oracle's too); throws {@linkcode BadOracle}. */
export function oracleJson(text: string): unknown {
  if (deeperThan(text, MAX_ORACLE_DEPTH)) {
    throw new BadOracle(
      fill(ORACLE_MESSAGES.tooDeep, { max: MAX_ORACLE_DEPTH }),
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new BadOracle(ORACLE_MESSAGES.notJson);
  }
}

/** A bad oracle's one line, naming where (an HTTP oracle's fields too). */
export function bad(where: string, text: Text, what = ""): BadOracle {
  return new BadOracle(fill(text, { where: where || "oracle", what }));
}

function writeTool(raw: unknown, where: string): WriteTool {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.notObject);
  for (const k of Object.keys(raw)) {
    if (!(TOOL_FIELDS as readonly string[]).includes(k)) {
      throw bad(where, ORACLE_MESSAGES.unknownField, k);
    }
  }
  const tool = name(raw.tool, `${where}.tool`);
  const call = args(raw.call, `${where}.call`);
  if (JSON.stringify(call).includes("{key}")) {
    throw bad(`${where}.call`, ORACLE_MESSAGES.keyInCall);
  }
  const key = pointer(raw.key, `${where}.key`);
  const place = keyPlace(raw, where);
  const found = pointerGet(place.doc, key);
  if (
    !found.found ||
    (typeof found.value !== "string" && typeof found.value !== "number")
  ) {
    throw bad(`${where}.key`, ORACLE_MESSAGES.keyNotInCall, key);
  }
  const out: Record<string, unknown> = {
    tool,
    call,
    key,
    ...place.fields,
    read: toolCall(raw.read, `${where}.read`),
    count: count(raw.count, `${where}.count`),
  };
  if (raw.setup !== undefined) {
    if (!Array.isArray(raw.setup) || raw.setup.length > MAX_SETUP_CALLS) {
      throw bad(
        `${where}.setup`,
        ORACLE_MESSAGES.setupList,
        String(MAX_SETUP_CALLS),
      );
    }
    out.setup = raw.setup.map((s, i) =>
      toolCall(s, `${where}.setup[${i}]`, true)
    );
  }
  if (raw.bad_call !== undefined) {
    out.bad_call = args(raw.bad_call, `${where}.bad_call`);
  }
  if (raw.other_call !== undefined) {
    out.other_call = args(raw.other_call, `${where}.other_call`);
    if (raw.other_count === undefined) {
      throw bad(`${where}.other_count`, ORACLE_MESSAGES.otherCountNeeded);
    }
  }
  if (raw.other_count !== undefined) {
    if (raw.other_call === undefined) {
      throw bad(`${where}.other_call`, ORACLE_MESSAGES.otherCallNeeded);
    }
    out.other_count = count(raw.other_count, `${where}.other_count`);
  }
  if (raw.conflict !== undefined) {
    out.conflict = conflictMark(raw.conflict, `${where}.conflict`, false);
  }
  if (raw.error_call !== undefined) {
    out.error_call = args(raw.error_call, `${where}.error_call`);
  }
  if (raw.key_lifetime_ms !== undefined) {
    out.key_lifetime_ms = lifetime(raw.key_lifetime_ms, `${where}`);
  }
  if (raw.refusal !== undefined) {
    out.refusal = refusal(raw.refusal, `${where}.refusal`);
  }
  if (raw.guesses !== undefined) {
    out.guesses = guesses(raw.guesses, `${where}.guesses`);
  }
  assertCaptured(out, where);
  return out as unknown as WriteTool;
}

/**
 * Where an entry's key lives, checked: `key_in` one of the MCP places, the
 * document `key` points into (`call`, `meta`, or the `idempotency_key`
 * string itself), and the fields to keep.
 */
function keyPlace(
  raw: Record<string, unknown>,
  where: string,
): { doc: unknown; fields: Record<string, unknown> } {
  const place = raw.key_in ?? "arguments";
  if (!MCP_KEY_PLACES.includes(place as KeyPlace)) {
    throw bad(`${where}.key_in`, ORACLE_MESSAGES.notKeyPlace);
  }
  if (place !== "_meta" && raw.meta !== undefined) {
    throw bad(`${where}.meta`, ORACLE_MESSAGES.placeField, "_meta");
  }
  if (place !== "idempotencyKey" && raw.idempotency_key !== undefined) {
    throw bad(
      `${where}.idempotency_key`,
      ORACLE_MESSAGES.placeField,
      "idempotencyKey",
    );
  }
  if (place === "_meta") {
    const meta = args(raw.meta, `${where}.meta`);
    if (JSON.stringify(meta).includes("{key}")) {
      throw bad(`${where}.meta`, ORACLE_MESSAGES.keyInCall);
    }
    return { doc: meta, fields: { key_in: place, meta } };
  }
  if (place === "idempotencyKey") {
    const value = raw.idempotency_key;
    if (
      typeof value !== "string" || value === "" || value.length > 256 ||
      value.includes("{key}")
    ) {
      throw bad(`${where}.idempotency_key`, ORACLE_MESSAGES.notKeyTemplate);
    }
    return { doc: value, fields: { key_in: place, idempotency_key: value } };
  }
  return {
    doc: raw.call,
    fields: raw.key_in === undefined ? {} : { key_in: "arguments" },
  };
}

/** A conflict mark, checked: `{status}` for HTTP (when `http`), `{code}` or `{json, value}` for MCP. */
export function conflictMark(
  raw: unknown,
  where: string,
  http: boolean,
): ConflictMark {
  const whole = (v: unknown) => Number.isInteger(v);
  if (isPlainRecord(raw)) {
    const keys = Object.keys(raw).sort().join(",");
    if (http && keys === "status" && whole(raw.status)) {
      const status = raw.status as number;
      if (status >= 400 && status <= 599) return { status };
    }
    if (!http && keys === "code" && whole(raw.code)) {
      return { code: raw.code as number };
    }
    if (
      !http && keys === "json,value" &&
      (raw.value === null ||
        ["string", "number", "boolean"].includes(typeof raw.value))
    ) {
      return {
        json: pointer(raw.json, `${where}.json`),
        value: raw.value as string | number | boolean | null,
      };
    }
  }
  throw bad(
    where,
    http ? ORACLE_MESSAGES.notHttpConflict : ORACLE_MESSAGES.notConflict,
  );
}

/** A stated key lifetime, checked: a whole number of ms, above 0, at most a year. */
export function lifetime(raw: unknown, where: string): number {
  if (
    !Number.isInteger(raw) || (raw as number) < 1 ||
    (raw as number) > MAX_LIFETIME_MS
  ) {
    throw bad(`${where}.key_lifetime_ms`, ORACLE_MESSAGES.notLifetime);
  }
  return raw as number;
}

function guesses(raw: unknown, where: string): { [field: string]: string } {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.notGuesses);
  for (const [field, note] of Object.entries(raw)) {
    if (!GUESSABLE_FIELDS.includes(field)) {
      throw bad(where, ORACLE_MESSAGES.unknownField, field);
    }
    if (typeof note !== "string" || note.length > MAX_GUESS_NOTE) {
      throw bad(where, ORACLE_MESSAGES.notGuesses);
    }
  }
  return raw as { [field: string]: string };
}

function refusal(raw: unknown, where: string): RefusalMark {
  if (
    !isPlainRecord(raw) || Object.keys(raw).length !== 2 ||
    typeof raw.json !== "string" || !Object.hasOwn(raw, "value")
  ) {
    throw bad(where, ORACLE_MESSAGES.notRefusal);
  }
  return { json: pointer(raw.json, `${where}.json`), value: raw.value as Json };
}

function name(raw: unknown, where: string): string {
  if (typeof raw !== "string" || raw === "" || raw.length > 128) {
    throw bad(where, ORACLE_MESSAGES.notName);
  }
  return raw;
}

function args(raw: unknown, where: string): { [key: string]: Json } {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.notObject);
  return raw as { [key: string]: Json };
}

function toolCall(raw: unknown, where: string, setup = false): ToolCall {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.notToolCall);
  const extra = Object.keys(raw).find((k) =>
    k !== "tool" && k !== "arguments" && !(setup && k === "capture")
  );
  if (extra !== undefined) {
    throw bad(where, ORACLE_MESSAGES.unknownField, extra);
  }
  return {
    tool: name(raw.tool, `${where}.tool`),
    arguments: raw.arguments === undefined
      ? {}
      : args(raw.arguments, `${where}.arguments`),
    ...(raw.capture === undefined
      ? {}
      : { capture: captures(raw.capture, `${where}.capture`) }),
  };
}

/** A setup call's `capture`: at most 8 names, each a JSON Pointer. */
function captures(raw: unknown, where: string): { [name: string]: string } {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.badCapture);
  const names = Object.keys(raw);
  if (names.length === 0 || names.length > MAX_CAPTURES) {
    throw bad(where, ORACLE_MESSAGES.badCapture);
  }
  const out: { [name: string]: string } = {};
  for (const n of names) {
    if (!CAPTURE_NAME.test(n)) throw bad(where, ORACLE_MESSAGES.badCapture, n);
    Object.defineProperty(out, n, {
      value: pointer(raw[n], `${where}.${n}`),
      enumerable: true,
    });
  }
  return out;
}

/** Each `{setup.NAME}` in `tool`'s strings names a value one of its setup calls captures. */
function assertCaptured(tool: Record<string, unknown>, where: string): void {
  const declared = new Set(
    ((tool.setup ?? []) as ToolCall[]).flatMap((s) =>
      Object.keys(s.capture ?? {})
    ),
  );
  const { setup: _, ...rest } = tool;
  for (const m of JSON.stringify(rest).matchAll(PLACEHOLDER)) {
    if (!m[1].startsWith("setup.")) continue;
    const name = m[1].slice("setup.".length);
    if (!declared.has(name)) {
      throw bad(where, ORACLE_MESSAGES.notCaptured, `{${m[1]}}`);
    }
  }
}

/** A count, checked (an HTTP oracle's read counts the same ways). */
export function count(raw: unknown, where: string): Count {
  if (
    isPlainRecord(raw) && Object.keys(raw).length === 1 &&
    typeof raw.text === "string" && raw.text !== ""
  ) {
    return { text: raw.text };
  }
  if (
    isPlainRecord(raw) && Object.keys(raw).length === 1 &&
    typeof raw.number === "string"
  ) {
    return { number: pointer(raw.number, `${where}.number`) };
  }
  if (
    isPlainRecord(raw) && Object.keys(raw).length === 2 &&
    typeof raw.json === "string" && isPlainRecord(raw.match)
  ) {
    return {
      json: pointer(raw.json, `${where}.json`),
      match: raw.match as { [key: string]: Json },
    };
  }
  throw bad(where, ORACLE_MESSAGES.notCount);
}

/** A JSON Pointer, checked. */
export function pointer(raw: unknown, where: string): string {
  if (
    typeof raw !== "string" || (raw !== "" && !raw.startsWith("/")) ||
    /~[^01]|~$/.test(raw)
  ) {
    throw bad(where, ORACLE_MESSAGES.notPointer);
  }
  return raw;
}

/**
 * The value at JSON Pointer `pointer` (RFC 6901) in `value`, never an
 * inherited property.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointerGet } from "./oracle.ts";
 * assert.deepEqual(pointerGet({ a: [{ "b/c": 1 }] }, "/a/0/b~1c"), { found: true, value: 1 });
 * assert.equal(pointerGet({ a: 1 }, "/toString").found, false);
 * ```
 */
export function pointerGet(
  value: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false } {
  if (pointer === "") return { found: true, value };
  let at: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= at.length) {
        return { found: false };
      }
      at = at[Number(token)];
    } else if (isPlainRecord(at) && Object.hasOwn(at, token)) {
      at = at[token];
    } else return { found: false };
  }
  return { found: true, value: at };
}

const PLACEHOLDER =
  /\{(run|n|key|case|setup\.[A-Za-z_][A-Za-z0-9_]{0,31})(?::([1-9]))?\}/g;

/** A capture's name: what follows `setup.` in a placeholder. */
const CAPTURE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** The most values one setup call captures. */
const MAX_CAPTURES = 8;

/** `value` with the placeholders of every string filled in. */
export function substitute<T>(value: T, p: Placeholders): T {
  const put = (s: string) =>
    s.replace(PLACEHOLDER, (whole, what: string, width?: string) => {
      if (what === "run") return p.run;
      if (what === "key") return p.key ?? whole;
      if (what === "case") return p.case === undefined ? whole : String(p.case);
      if (what.startsWith("setup.")) {
        const name = what.slice("setup.".length);
        const v = p.setup !== undefined && Object.hasOwn(p.setup, name)
          ? p.setup[name]
          : undefined;
        return typeof v === "string" ? v : whole;
      }
      return width === undefined
        ? String(p.n)
        : String(p.n).padStart(Number(width), "0");
    });
  const walk = (v: unknown): unknown =>
    typeof v === "string"
      ? put(v)
      : Array.isArray(v)
      ? v.map(walk)
      : isPlainRecord(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
      : v;
  return walk(value) as T;
}

/** The call's arguments for copy `n` of a case, and the business key they carry. */
export function callFor(
  tool: WriteTool,
  args: { [key: string]: Json },
  p: Placeholders,
): { arguments: { [key: string]: Json }; key: string } {
  return { arguments: substitute(args, p), key: keyOf(tool, p) ?? "" };
}

/** The document `tool.key` points into, for copy `p`: the call, its `_meta`, or the idempotency key itself. */
function keyDocument(tool: WriteTool, p: Placeholders): unknown {
  if (tool.key_in === "_meta") return substitute(tool.meta, p);
  if (tool.key_in === "idempotencyKey" || tool.key_in === "header") {
    return substitute(tool.idempotency_key, p);
  }
  return substitute(tool.call, p);
}

/** The key copy `p` of a call carries at its place (a string or a number), or undefined. */
export function keyOf(tool: WriteTool, p: Placeholders): string | undefined {
  const found = pointerGet(keyDocument(tool, p), tool.key);
  return found.found &&
      (typeof found.value === "string" || typeof found.value === "number")
    ? String(found.value)
    : undefined;
}

/**
 * What a call sends beside its arguments, for copy `p`: `_meta` and
 * `idempotencyKey` as the oracle places the key; `keyless` leaves the key
 * out (the missing-key case).
 */
export function keyParams(
  tool: WriteTool,
  p: Placeholders,
  keyless = false,
): { _meta?: { [key: string]: Json }; idempotencyKey?: string } {
  if (tool.key_in === "_meta") {
    const meta = substitute(tool.meta!, p);
    if (!keyless) return { _meta: meta };
    return { _meta: withoutPointer(meta, tool.key) as { [key: string]: Json } };
  }
  if (tool.key_in === "idempotencyKey" || tool.key_in === "header") {
    return keyless ? {} : { idempotencyKey: keyOf(tool, p) ?? "" };
  }
  return {};
}

/** `value` with the member at JSON Pointer `pointer` removed (a copy; `value` as it is when there is none). */
export function withoutPointer(value: Json, pointer: string): Json {
  if (pointer === "") return null;
  const copy = structuredClone(value);
  const tokens = pointer.slice(1).split("/").map((t) =>
    t.replaceAll("~1", "/").replaceAll("~0", "~")
  );
  const last = tokens.pop()!;
  const parent = pointerGet(
    copy,
    tokens.length === 0 ? "" : "/" +
      tokens.map((t) => t.replaceAll("~", "~0").replaceAll("/", "~1")).join(
        "/",
      ),
  );
  if (parent.found && isPlainRecord(parent.value)) delete parent.value[last];
  else if (parent.found && Array.isArray(parent.value)) {
    const at = Number(last);
    if (Number.isInteger(at)) parent.value.splice(at, 1);
  }
  return copy;
}

/** What a read tool answered, as far as counting needs it. */
export interface ReadResult {
  /** The result's `content`. */
  readonly content?: unknown;
  /** The result's `structuredContent`. */
  readonly structuredContent?: unknown;
}

/** The text of a result's text content, parts joined by newlines. */
export function resultText(result: ReadResult): string {
  if (!Array.isArray(result.content)) return "";
  return result.content
    .filter((c) =>
      isPlainRecord(c) && c.type === "text" && typeof c.text === "string"
    )
    .map((c) => (c as { text: string }).text)
    .join("\n");
}

/**
 * How many times the effect shows in `result`, or `null` when the result
 * has no such place to count in (the count is then impossible, not zero).
 */
export function countIn(
  how: Count,
  result: ReadResult,
  p: Placeholders,
): number | null {
  if ("text" in how) {
    const needle = substitute(how.text, p);
    // An empty needle is found at every place in any text (and a search
    // for it never moves on): there is nothing to count by.
    if (needle === "") return null;
    const text = resultText(result);
    let n = 0;
    // Each search starts past the last one found: the loop always advances.
    for (
      let at = text.indexOf(needle);
      at >= 0;
      at = text.indexOf(needle, at + needle.length)
    ) n++;
    return n;
  }
  const doc = resultDoc(result);
  if (doc === undefined) return null;
  if ("number" in how) {
    const n = pointerGet(doc, how.number);
    return n.found && Number.isSafeInteger(n.value) && (n.value as number) >= 0
      ? n.value as number
      : null;
  }
  const list = pointerGet(doc, how.json);
  if (!list.found || !Array.isArray(list.value)) return null;
  const match = substitute(how.match, p);
  return list.value.filter((item) =>
    isPlainRecord(item) &&
    Object.entries(match).every(([field, want]) =>
      Object.hasOwn(item, field) && sameJson(item[field], want)
    )
  ).length;
}

/** A result's document: its structured content, else its text parsed as JSON; undefined when it has neither. */
export function resultDoc(result: ReadResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  try {
    return JSON.parse(resultText(result));
  } catch {
    return undefined;
  }
}

/**
 * Whether `result` (answered without `isError`) carries the oracle's
 * refusal mark: the value at its pointer is the mark's value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusalMarked } from "./oracle.ts";
 * const mark = { json: "/success", value: false };
 * const said = (text: string) => ({ content: [{ type: "text", text }] });
 * assert.equal(refusalMarked(mark, said('{"success": false, "message": "no"}')), true);
 * assert.equal(refusalMarked(mark, said('{"success": true}')), false);
 * ```
 */
export function refusalMarked(mark: RefusalMark, result: ReadResult): boolean {
  const doc = resultDoc(result);
  if (doc === undefined) return false;
  const at = pointerGet(doc, mark.json);
  return at.found && sameJson(at.value, mark.value);
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
