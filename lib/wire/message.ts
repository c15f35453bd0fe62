/**
 * JSON-RPC 2.0 messages, for both ends: the one place a message is
 * parsed. A text is parsed with the nesting-depth bound (`JSON.parse`
 * itself does not recurse, but whatever reads the value after it may: a
 * schema check, a walker of a result, a comparison of two values), then
 * told apart as a request, a notification or a response; ids are keyed so
 * `1` and `"1"` stay apart; the error codes are named once. The byte
 * bound is the transport's: a line or an event past it is never handed
 * here.
 *
 * @module
 */
import { deeperThan, isPlainRecord } from "../base/json.ts";
import { MAX_DEPTH } from "./limits.ts";

/** One JSON-RPC message: an object with `jsonrpc: "2.0"`. */
export type Message = Record<string, unknown>;

/** A JSON-RPC id a reply can carry: a string or a finite number. */
export type Id = string | number;

/** JSON-RPC's code for a text that is not JSON. */
export const PARSE_ERROR = -32700;

/** JSON-RPC's code for JSON that is not a valid request (guardlab's too for one past its bounds). */
export const INVALID_REQUEST = -32600;

/** JSON-RPC's code for a method nobody answers. */
export const METHOD_NOT_FOUND = -32601;

/** JSON-RPC's code for a request whose params are wrong. */
export const INVALID_PARAMS = -32602;

/** The code of an error a server defines itself (guardlab's for an HTTP status that is no answer). */
export const SERVER_ERROR = -32000;

/** MCP's code for a request cancelled before its answer (`notifications/cancelled`). */
export const REQUEST_CANCELLED = -32800;

/** A text read no further, and why: not JSON, or nested deeper than the bound (with the id it had, when it had one). */
export type Refused =
  | { readonly refused: "not-json" }
  | { readonly refused: "too-deep"; readonly id: Id | null };

/**
 * Parse `text` as JSON, then measure its nesting against `maxDepth`
 * before anything reads the value: past it, only the id of a top-level
 * object is kept (a reply can name it).
 */
export function parseJson(
  text: string,
  maxDepth: number = MAX_DEPTH,
): { readonly value: unknown } | Refused {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refused: "not-json" };
  }
  if (deeperThan(text, maxDepth)) {
    return { refused: "too-deep", id: idOf(value) };
  }
  return { value };
}

/**
 * One message in `text`, or why it is not one: not JSON, nested too deep,
 * or JSON that is not a JSON-RPC 2.0 object (`not-message`).
 */
export function parseMessage(
  text: string,
  maxDepth: number = MAX_DEPTH,
): { readonly message: Message } | Refused | {
  readonly refused: "not-message";
} {
  const parsed = parseJson(text, maxDepth);
  if ("refused" in parsed) return parsed;
  return isMessage(parsed.value)
    ? { message: parsed.value }
    : { refused: "not-message" };
}

/**
 * The messages in `text`: one, or a batch (an array of them), each a
 * message or `not-message`; or why the text is read no further.
 */
export function parseBatch(
  text: string,
  maxDepth: number = MAX_DEPTH,
): (Message | "not-message")[] | Refused {
  const parsed = parseJson(text, maxDepth);
  if ("refused" in parsed) return parsed;
  const all = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return all.map((m) => isMessage(m) ? m : "not-message");
}

/** Whether `value` is a JSON-RPC 2.0 object. */
export function isMessage(value: unknown): value is Message {
  return isPlainRecord(value) && value.jsonrpc === "2.0";
}

/** Whether `m` is a request (a method and an id), of `method` when given: it wants an answer. */
export function isRequest(m: Message, method?: string): boolean {
  return "method" in m && m.id !== undefined && m.id !== null &&
    (method === undefined || m.method === method);
}

/** Whether `m` is a notification (a method, no id): it wants no answer. */
export function isNotification(m: Message): boolean {
  return "method" in m && (m.id === undefined || m.id === null);
}

/** Whether `m` is a response: a result or an error, and no method. */
export function isResponse(m: Message): boolean {
  return !("method" in m) && ("result" in m || "error" in m);
}

/** A JSON-RPC id as a map key: `1` and `"1"` stay apart. */
export function idKey(id: unknown): string {
  return typeof id === "string" ? `s:${id}` : `n:${String(id)}`;
}

/** The id of `value` when it is an object with a usable one (a string or a finite number), else null. */
export function idOf(value: unknown): Id | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" ||
      (typeof id === "number" && Number.isFinite(id))
    ? id
    : null;
}

/** An error response to request `id`. */
export function errorResponse(
  id: unknown,
  code: number,
  message: string,
): Message {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
