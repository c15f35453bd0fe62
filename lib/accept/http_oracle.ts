/**
 * The HTTP oracle: a JSON file, no code, that tells `accept` how to call
 * one write endpoint of an HTTP API that promises the `Idempotency-Key`
 * contract, and how to count its effect with a GET. Its field names are
 * fixed (scripts and course files are written against them):
 *
 * ```json
 * {"key_header": "Idempotency-Key", "endpoints": [{
 *   "name": "create_order",
 *   "method": "POST", "path": "/orders",
 *   "key": "gl-{run}-{n:3}",
 *   "body": {"ref": "ref-{run}-{n:3}", "item": "book", "qty": 1},
 *   "read": {"path": "/orders?ref=ref-{run}-{n:3}",
 *            "count": {"json": "/orders", "match": {"ref": "ref-{run}-{n:3}"}}},
 *   "bad_body": {"ref": "ref-{run}-{n:3}", "qty": 1},
 *   "other_body": {"ref": "ref-{run}-{n:3}", "item": "pen", "qty": 1},
 *   "other_count": {"json": "/orders", "match": {"ref": "ref-{run}-{n:3}", "item": "pen"}},
 *   "conflict": {"status": 409},
 *   "key_lifetime_ms": 86400000
 * }]}
 * ```
 *
 * An OpenAPI document (`--openapi FILE`) may stand in for `method` and
 * `path`: `"operation": "createOrder"` (an `operationId`, or `"POST
 * /orders"`), its path parameters filled from `path_params`. Each endpoint
 * is compiled into the MCP oracle's entry (`oracle.ts`): the call's
 * arguments are the request (`{"method", "path", "body"}`), the key goes in
 * the key header (`key_in: "header"`), and the read is a GET; so the same
 * cases, history and checker judge it.
 *
 * @module
 */
import { deeperThan, isPlainRecord } from "../base/json.ts";
import { fill } from "../base/i18n.ts";
import { HTTP_METHODS } from "../wire/http_api.ts";
import { PROTOCOL_HEADERS } from "../wire/http.ts";
import { MAX_OPENAPI_BYTES, MAX_ORACLE_TOOLS } from "./limits.ts";
import { HTTP_ORACLE_MESSAGES as H, ORACLE_MESSAGES } from "./messages.ts";
import {
  bad,
  BadOracle,
  conflictMark,
  type Count,
  count,
  type Json,
  lifetime,
  type Oracle,
  oracleJson,
  type WriteTool,
} from "./oracle.ts";

/** The key header when the oracle names none: the draft's. */
export const DEFAULT_KEY_HEADER = "Idempotency-Key";

/** The methods a write endpoint may use. */
const WRITE_METHODS = HTTP_METHODS.filter((m) => m !== "GET");

/** An HTTP oracle, compiled: the key header, and one entry per endpoint as the MCP oracle's. */
export interface HttpOracle extends Oracle {
  /** The header that carries the key. */
  readonly keyHeader: string;
}

const ENDPOINT_FIELDS = [
  "name",
  "method",
  "path",
  "operation",
  "path_params",
  "key",
  "body",
  "read",
  "bad_body",
  "other_body",
  "other_count",
  "error_body",
  "conflict",
  "key_lifetime_ms",
  "guesses",
] as const;

/** The fields an HTTP oracle may mark as a guess in `guesses` (to check, then delete). */
export const HTTP_GUESSABLE: readonly string[] = [
  "name",
  "operation",
  "key",
  "body",
  "read",
  "bad_body",
  "other_body",
  "other_count",
  "conflict",
];

/** What an OpenAPI document says of its operations: by `operationId`, and by `METHOD /path`. */
export interface Operations {
  /** Each operation's method and path template, by both names. */
  readonly byName: ReadonlyMap<string, { method: string; path: string }>;
}

/**
 * Parse and check an HTTP oracle's text: every field spelled as
 * documented, every path on the API's own origin, every count well
 * formed; `operations` resolves `operation` (from `--openapi`). Throws
 * {@linkcode BadOracle}. With `draft`, guesses left unconfirmed are read
 * (`accept init`'s own check).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHttpOracle } from "./http_oracle.ts";
 * const oracle = parseHttpOracle(JSON.stringify({ endpoints: [{
 *   method: "POST", path: "/orders", key: "k-{run}", body: { ref: "r-{run}" },
 *   read: { path: "/orders?ref=r-{run}", count: { number: "/count" } },
 * }] }));
 * assert.equal(oracle.keyHeader, "Idempotency-Key");
 * assert.equal(oracle.tools[0].tool, "POST /orders");
 * assert.equal(oracle.tools[0].key_in, "header");
 * ```
 */
export function parseHttpOracle(
  text: string,
  operations?: Operations,
  options: { draft?: boolean } = {},
): HttpOracle {
  const raw = oracleJson(text);
  if (!isPlainRecord(raw) || !Array.isArray(raw.endpoints)) {
    throw new BadOracle(H.noEndpoints);
  }
  const extra = Object.keys(raw).find((k) =>
    k !== "endpoints" && k !== "key_header"
  );
  if (extra !== undefined) throw bad("", ORACLE_MESSAGES.unknownField, extra);
  if (raw.endpoints.length === 0 || raw.endpoints.length > MAX_ORACLE_TOOLS) {
    throw new BadOracle(fill(H.endpointCount, { max: MAX_ORACLE_TOOLS }));
  }
  const keyHeader = headerName(raw.key_header);
  const tools = raw.endpoints.map((e, i) =>
    endpoint(e, `endpoints[${i}]`, operations)
  );
  if (!options.draft) {
    const left = tools.flatMap((t, i) => {
      const fields = Object.keys(t.guesses ?? {});
      return fields.length === 0
        ? []
        : [`endpoints[${i}] (${t.tool}): ${fields.join(", ")}`];
    });
    if (left.length > 0) {
      throw new BadOracle(
        fill(ORACLE_MESSAGES.unconfirmed, { list: left.join("; ") }),
      );
    }
  }
  return { keyHeader, tools };
}

/** The key header, checked: a token of at most 64 characters, none of the headers guardlab sends itself. */
function headerName(raw: unknown): string {
  if (raw === undefined) return DEFAULT_KEY_HEADER;
  if (
    typeof raw !== "string" ||
    !/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(raw) ||
    PROTOCOL_HEADERS.includes(raw.toLowerCase())
  ) throw bad("key_header", H.notHeader);
  return raw;
}

/** One endpoint, checked, as the MCP oracle's entry. */
function endpoint(
  raw: unknown,
  where: string,
  operations: Operations | undefined,
): WriteTool {
  if (!isPlainRecord(raw)) throw bad(where, ORACLE_MESSAGES.notObject);
  for (const k of Object.keys(raw)) {
    if (!(ENDPOINT_FIELDS as readonly string[]).includes(k)) {
      throw bad(where, ORACLE_MESSAGES.unknownField, k);
    }
  }
  const { method, path } = methodAndPath(raw, where, operations);
  const name = raw.name === undefined ? `${method} ${path}` : raw.name;
  if (typeof name !== "string" || name === "" || name.length > 128) {
    throw bad(`${where}.name`, ORACLE_MESSAGES.notName);
  }
  const key = raw.key;
  if (
    typeof key !== "string" || key === "" || key.length > 256 ||
    key.includes("{key}")
  ) throw bad(`${where}.key`, ORACLE_MESSAGES.notKeyTemplate);
  const request = (body: unknown) => ({
    method,
    path,
    ...(body === undefined ? {} : { body: body as Json }),
  });
  const read = readOf(raw.read, `${where}.read`);
  const out: Record<string, unknown> = {
    tool: name,
    call: request(raw.body),
    key: "",
    key_in: "header",
    idempotency_key: key,
    read: { tool: "GET", arguments: { method: "GET", path: read.path } },
    count: read.count,
  };
  if (raw.bad_body !== undefined) out.bad_call = request(raw.bad_body);
  if ((raw.other_body === undefined) !== (raw.other_count === undefined)) {
    throw bad(
      `${where}.${raw.other_body === undefined ? "other_body" : "other_count"}`,
      H.otherPair,
    );
  }
  if (raw.other_body !== undefined) {
    out.other_call = request(raw.other_body);
    out.other_count = count(raw.other_count, `${where}.other_count`);
  }
  if (raw.error_body !== undefined) out.error_call = request(raw.error_body);
  if (raw.conflict !== undefined) {
    out.conflict = conflictMark(raw.conflict, `${where}.conflict`, true);
  }
  if (raw.key_lifetime_ms !== undefined) {
    out.key_lifetime_ms = lifetime(raw.key_lifetime_ms, where);
  }
  if (raw.guesses !== undefined) {
    if (
      !isPlainRecord(raw.guesses) ||
      !Object.entries(raw.guesses).every(([f, note]) =>
        HTTP_GUESSABLE.includes(f) && typeof note === "string" &&
        note.length <= 1000
      )
    ) throw bad(`${where}.guesses`, ORACLE_MESSAGES.notGuesses);
    out.guesses = raw.guesses;
  }
  return out as unknown as WriteTool;
}

/** The endpoint's method and path: its own, or its OpenAPI operation's with `path_params` filled in. */
function methodAndPath(
  raw: Record<string, unknown>,
  where: string,
  operations: Operations | undefined,
): { method: string; path: string } {
  const named = raw.operation !== undefined;
  if (named === (raw.method !== undefined || raw.path !== undefined)) {
    throw bad(where, H.methodOrOperation);
  }
  let method = raw.method;
  let path = raw.path;
  if (named) {
    if (operations === undefined) throw bad(`${where}.operation`, H.noOpenapi);
    const op = typeof raw.operation === "string"
      ? operations.byName.get(raw.operation)
      : undefined;
    if (op === undefined) {
      throw bad(
        `${where}.operation`,
        H.unknownOperation,
        JSON.stringify(String(raw.operation).slice(0, 80)),
      );
    }
    method = op.method;
    path = fillPathParams(op.path, raw.path_params, where);
  } else if (raw.path_params !== undefined) {
    throw bad(`${where}.path_params`, H.pathParamsNeedOperation);
  }
  if (!(WRITE_METHODS as readonly unknown[]).includes(method)) {
    throw bad(`${where}.method`, H.notMethod);
  }
  return { method: method as string, path: checkedPath(path, `${where}.path`) };
}

/** An OpenAPI path template with its `{param}`s filled from `params` (guardlab's own placeholders left for each case). */
function fillPathParams(template: string, params: unknown, where: string) {
  if (params !== undefined && !isPlainRecord(params)) {
    throw bad(`${where}.path_params`, ORACLE_MESSAGES.notObject);
  }
  return template.replace(/\{([^{}/]+)\}/g, (whole, name: string) => {
    if (/^(run|n|key|case)(:[1-9])?$/.test(name)) return whole;
    const value = params === undefined
      ? undefined
      : Object.hasOwn(params, name)
      ? params[name]
      : undefined;
    if (typeof value !== "string" && typeof value !== "number") {
      throw bad(`${where}.path_params`, H.pathParamMissing, name);
    }
    return encodeURIComponent(String(value)).replace(
      /%7B(run|n|key|case)(%3A[1-9])?%7D/g,
      (m) => decodeURIComponent(m),
    );
  });
}

/** A path on the API's origin, checked: it starts with one `/`, no backslash, at most 2048 characters. */
function checkedPath(raw: unknown, where: string): string {
  if (
    typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") ||
    raw.includes("\\") || raw.length > 2048 || /[\s]/.test(raw)
  ) throw bad(where, H.notPath);
  return raw;
}

/** The read: a GET path on the API's origin, and how its JSON body counts the effect. */
function readOf(raw: unknown, where: string): { path: string; count: Count } {
  if (!isPlainRecord(raw)) throw bad(where, H.notRead);
  const extra = Object.keys(raw).find((k) => k !== "path" && k !== "count");
  if (extra !== undefined) {
    throw bad(where, ORACLE_MESSAGES.unknownField, extra);
  }
  return {
    path: checkedPath(raw.path, `${where}.path`),
    count: count(raw.count, `${where}.count`),
  };
}

/**
 * The operations an OpenAPI document (3.x, as JSON) names, text measured
 * and its depth bounded before it is parsed; throws {@linkcode BadOracle}
 * for a document that is not one.
 */
export function openapiOperations(text: string): Operations & { doc: unknown } {
  if (text.length > MAX_OPENAPI_BYTES || deeperThan(text, 64)) {
    throw new BadOracle(H.notOpenapi);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new BadOracle(H.openapiNotJson);
  }
  if (!isPlainRecord(doc) || !isPlainRecord(doc.paths)) {
    throw new BadOracle(H.notOpenapi);
  }
  const byName = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isPlainRecord(item) || !path.startsWith("/")) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method.toLowerCase()];
      if (!isPlainRecord(op)) continue;
      const entry = { method, path };
      byName.set(`${method} ${path}`, entry);
      if (typeof op.operationId === "string" && op.operationId !== "") {
        byName.set(op.operationId, entry);
      }
    }
  }
  return { byName, doc };
}
