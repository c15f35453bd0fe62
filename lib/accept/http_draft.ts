/**
 * `accept init --openapi FILE`: an HTTP oracle drafted from an OpenAPI
 * document (3.x, JSON), with each guess marked as `accept init` marks it
 * for an MCP server. Every write operation that declares an idempotency
 * key header is drafted (every write operation, when none declares one):
 * its `body` from the request body's JSON schema (the same schema reader
 * as for a tool's input), a reference in the body fresh per case and copy,
 * the read a GET on the same collection counting the items that carry that
 * reference, `bad_body` without a required field, `other_body` with
 * another value, and `conflict` where the operation documents a 409. What
 * the document cannot say is guessed, and `accept` refuses the oracle
 * until each guess is deleted. No server is started.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { inertOutput } from "../base/terminal.ts";
import { HTTP_METHODS } from "../wire/http_api.ts";
import { badCall, otherCall, type Skipped } from "./draft.ts";
import { DEFAULT_KEY_HEADER, parseHttpOracle } from "./http_oracle.ts";
import type { Operations } from "./http_oracle.ts";
import { MAX_ORACLE_TOOLS } from "./limits.ts";
import { BadOracle, type Count, type Json } from "./oracle.ts";
import {
  freeString,
  type Leaf,
  own,
  put,
  type Schema,
  SchemaReader,
  SchemaTooBig,
  token,
} from "./_schema.ts";
import { keyWord } from "./_names.ts";
import { HTTP_DRAFT_MESSAGES as D } from "./ci_messages.ts";

/** What `init --openapi` drafted. */
export interface HttpDraft {
  /** The HTTP oracle's text: JSON, two-space indented, guesses marked. */
  readonly text: string;
  /** The endpoints drafted, in the document's order. */
  readonly drafted: readonly string[];
  /** Each drafted endpoint's guessed fields, in the same order. */
  readonly guessed: readonly (readonly string[])[];
  /** The write operations left out, each with why. */
  readonly skipped: readonly Skipped[];
  /** The key header the document declares, or undefined (the draft's `Idempotency-Key` assumed). */
  readonly keyHeader?: string;
}

/** One operation of the document. */
interface Op {
  readonly method: string;
  readonly path: string;
  readonly name: string;
  readonly op: Record<string, unknown>;
}

/** A header parameter named like an idempotency key. */
const KEY_HEADER = /^(x-)?idempotency[-_]?key$/i;

/**
 * Draft an HTTP oracle from the OpenAPI document `doc` (its operations
 * already read), the guesses' notes in `lang`; null when it names no
 * write operation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftHttpOracle } from "./http_draft.ts";
 * import { openapiOperations } from "./http_oracle.ts";
 * const doc = { openapi: "3.1.0", paths: { "/orders": {
 *   post: { operationId: "createOrder",
 *     parameters: [{ name: "Idempotency-Key", in: "header", required: true }],
 *     requestBody: { content: { "application/json": { schema: {
 *       type: "object", required: ["ref", "item"],
 *       properties: { ref: { type: "string" }, item: { type: "string" } } } } } },
 *     responses: { "201": {}, "409": {} } },
 *   get: { operationId: "listOrders", responses: { "200": { content: {
 *     "application/json": { schema: { type: "object", properties: {
 *       orders: { type: "array", items: { type: "object",
 *         properties: { ref: { type: "string" } } } } } } } } } } } } } };
 * const draft = draftHttpOracle(openapiOperations(JSON.stringify(doc)), "en")!;
 * const entry = JSON.parse(draft.text).endpoints[0];
 * assert.equal(entry.operation, "createOrder");
 * assert.deepEqual(entry.conflict, { status: 409 });
 * assert.deepEqual(Object.keys(entry.guesses), ["read", "count", "other_count", "conflict"]);
 * ```
 */
export function draftHttpOracle(
  operations: Operations & { doc: unknown },
  lang: Lang,
): HttpDraft | null {
  const ops = operationsOf(operations.doc);
  const writes = ops.filter((o) => o.method !== "GET");
  const keyed = writes.filter((o) => keyHeaderOf(o) !== undefined);
  const chosen = keyed.length > 0 ? keyed : writes;
  if (chosen.length === 0) return null;
  const keyHeader = keyed.length > 0 ? keyHeaderOf(keyed[0]) : undefined;
  const reader = new SchemaReader(operations.doc);
  const entries: Record<string, Json>[] = [];
  const drafted: string[] = [];
  const guessed: string[][] = [];
  const skipped: Skipped[] = [];
  for (const o of chosen) {
    if (entries.length >= MAX_ORACLE_TOOLS) {
      skipped.push({
        tool: o.name,
        why: fill(D.beyondMax, { max: MAX_ORACLE_TOOLS }),
      });
      continue;
    }
    const drafted1 = endpointOf(o, ops, reader, keyHeader, lang);
    if ("skip" in drafted1) {
      skipped.push({ tool: o.name, why: drafted1.skip });
      continue;
    }
    try {
      parseHttpOracle(
        JSON.stringify({ endpoints: [drafted1.entry] }),
        operations,
        { draft: true },
      );
    } catch (error) {
      if (!(error instanceof BadOracle)) throw error;
      skipped.push({
        tool: o.name,
        why: fill(D.notOracle, { why: error.text }),
      });
      continue;
    }
    entries.push(drafted1.entry);
    drafted.push(o.name);
    guessed.push(Object.keys(drafted1.entry.guesses as Record<string, Json>));
  }
  if (entries.length === 0) return { text: "", drafted, guessed, skipped };
  const oracle: Record<string, Json> = {};
  put(oracle, "key_header", keyHeader ?? DEFAULT_KEY_HEADER);
  put(oracle, "endpoints", entries);
  return {
    text: inertOutput(JSON.stringify(oracle, null, 2), false) + "\n",
    drafted,
    guessed,
    skipped,
    ...(keyHeader === undefined ? {} : { keyHeader }),
  };
}

/** The document's operations, in its order. */
function operationsOf(doc: unknown): Op[] {
  const paths = own(doc, "paths");
  if (!isPlainRecord(paths)) return [];
  const out: Op[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainRecord(item) || !path.startsWith("/")) continue;
    for (const method of HTTP_METHODS) {
      const op = own(item, method.toLowerCase());
      if (!isPlainRecord(op)) continue;
      const id = typeof op.operationId === "string" && op.operationId !== "" &&
          op.operationId.length <= 128
        ? op.operationId
        : undefined;
      out.push({ method, path, name: id ?? `${method} ${path}`, op });
    }
  }
  return out;
}

/** The idempotency key header an operation declares, when it declares one. */
function keyHeaderOf(o: Op): string | undefined {
  const params = own(o.op, "parameters");
  if (!Array.isArray(params)) return undefined;
  for (const p of params) {
    const name = own(p, "name");
    if (
      own(p, "in") === "header" && typeof name === "string" &&
      KEY_HEADER.test(name)
    ) return name;
  }
  return undefined;
}

/** The JSON schema of an operation's request body, or of its first 2xx response, resolved. */
function jsonSchema(
  reader: SchemaReader,
  holder: unknown,
): Schema | null {
  const schema = own(own(own(holder, "content"), "application/json"), "schema");
  return schema === undefined ? null : reader.resolve(schema);
}

/** One write operation drafted as an endpoint, or why it was not. */
function endpointOf(
  o: Op,
  ops: readonly Op[],
  reader: SchemaReader,
  keyHeader: string | undefined,
  lang: Lang,
): { entry: Record<string, Json> } | { skip: Text } {
  const guesses: Record<string, Json> = {};
  const note = (field: string, text: Text) =>
    put(guesses, field, say(text, lang));
  let body: Json | undefined;
  let leaves: readonly Leaf[] = [];
  let root: Schema = {};
  try {
    const schema = jsonSchema(reader, own(o.op, "requestBody"));
    if (schema !== null) {
      root = schema;
      const drafted = reader.draft({ ...schema, type: "object" });
      body = drafted.value;
      leaves = drafted.leaves;
      if (drafted.unchecked.length > 0) {
        note(
          "body",
          fill(D.bodyUnchecked, {
            what: drafted.unchecked.slice(0, 8).join("; "),
          }),
        );
      }
    }
  } catch (error) {
    if (error instanceof SchemaTooBig) return { skip: D.tooBig };
    throw error;
  }
  const entry: Record<string, Json> = {};
  put(entry, "name", o.name);
  put(entry, "guesses", guesses);
  put(entry, "operation", o.name);
  const params = pathParams(o.path);
  if (params !== null) put(entry, "path_params", params);
  put(entry, "key", "gl-key-{run}-{n:3}");
  if (keyHeader === undefined) note("key", D.noKeyHeader);
  // The body's reference: fresh per case and copy, what the read counts.
  const ref = leaves.find((l) => l.kind === "free" && keyWord(l.name)) ??
    leaves.find((l) => l.kind === "free");
  if (body !== undefined) put(entry, "body", body);
  const read = readOf(o, ops, reader, ref, body);
  put(entry, "read", read.read as unknown as Json);
  note("read", read.why);
  note("count", read.countWhy);
  if (isPlainRecord(body)) {
    const bad = badCall(body as Record<string, Json>, "", root);
    if (bad !== null) put(entry, "bad_body", bad);
    if (ref !== undefined) {
      const other = otherCall(
        body as Record<string, Json>,
        ref,
        leaves,
        read.read.count,
      );
      if (other !== null) {
        put(entry, "other_body", other.call);
        put(entry, "other_count", other.count as unknown as Json);
        note("other_count", other.why);
      }
    }
  }
  const responses = own(o.op, "responses");
  if (isPlainRecord(responses) && Object.hasOwn(responses, "409")) {
    put(entry, "conflict", { status: 409 });
    note("conflict", D.conflict409);
  }
  return { entry };
}

/** An OpenAPI path's parameters, each given a fresh value (null when it has none). */
function pathParams(path: string): Record<string, Json> | null {
  const names = [...path.matchAll(/\{([^{}/]+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return null;
  const out: Record<string, Json> = {};
  for (const name of names) put(out, name, freeString(name));
  return out;
}

/**
 * The read: a GET on the operation's own path (a collection), else on its
 * parent; counting the array in its 200 response whose items carry the
 * body's reference, by that reference.
 */
function readOf(
  o: Op,
  ops: readonly Op[],
  reader: SchemaReader,
  ref: Leaf | undefined,
  body: Json | undefined,
): {
  read: { path: string; count: Count };
  why: Text;
  countWhy: Text;
} {
  const parent = o.path.replace(/\/[^/]*$/, "") || "/";
  const get = ops.find((x) => x.method === "GET" && x.path === o.path) ??
    ops.find((x) => x.method === "GET" && x.path === parent);
  const value = ref === undefined ? undefined : valueAt(body, ref.pointer);
  const match: Record<string, Json> = {};
  if (ref !== undefined && value !== undefined) put(match, ref.name, value);
  if (get === undefined) {
    return {
      read: { path: "/?", count: { json: "", match } },
      why: D.readNone,
      countWhy: D.countNone,
    };
  }
  const query = queryFor(get, ref, value);
  let array = "";
  try {
    array = arrayPointer(reader, own(own(get.op, "responses"), "200"), ref);
  } catch (error) {
    if (!(error instanceof SchemaTooBig)) throw error;
  }
  return {
    read: { path: get.path + query, count: { json: array, match } },
    why: fill(D.readGet, { path: get.path, query: query === "" ? "-" : query }),
    countWhy: fill(D.countArray, {
      pointer: array === "" ? "(the body)" : array,
      field: ref?.name ?? "?",
    }),
  };
}

/** `?NAME=VALUE` when the GET takes a query parameter named as the body's reference. */
function queryFor(get: Op, ref: Leaf | undefined, value: Json | undefined) {
  const params = own(get.op, "parameters");
  if (
    ref === undefined || typeof value !== "string" || !Array.isArray(params)
  ) {
    return "";
  }
  const takes = params.some((p) =>
    own(p, "in") === "query" && own(p, "name") === ref.name
  );
  return takes
    ? `?${encodeURIComponent(ref.name)}=${
      encodeURIComponent(value).replace(
        /%7B(run|n)(%3A[1-9])?%7D/g,
        (m) => decodeURIComponent(m),
      )
    }`
    : "";
}

/** The pointer of the first array in a response's schema whose items have property `ref` (`""` when the body is that array). */
function arrayPointer(
  reader: SchemaReader,
  response: unknown,
  ref: Leaf | undefined,
): string {
  let level: { schema: Schema | null; pointer: string }[] = [{
    schema: jsonSchema(reader, response),
    pointer: "",
  }];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { schema, pointer } of level) {
      if (schema === null) continue;
      if (
        own(schema, "type") === "array" || own(schema, "items") !== undefined
      ) {
        const items = reader.item(schema, 0);
        const { names } = reader.properties(items);
        if (ref === undefined || names.includes(ref.name)) return pointer;
      }
      const { names } = reader.properties(schema);
      for (const name of names.slice(0, 32)) {
        next.push({
          schema: reader.property(schema, name),
          pointer: `${pointer}/${token(name)}`,
        });
      }
    }
    level = next;
  }
  return "";
}

/** The value at `pointer` in a drafted body. */
function valueAt(body: Json | undefined, pointer: string): Json | undefined {
  let at: unknown = body;
  for (const t of pointer.slice(1).split("/")) {
    const k = t.replaceAll("~1", "/").replaceAll("~0", "~");
    at = Array.isArray(at) ? at[Number(k)] : own(at, k);
  }
  return at as Json | undefined;
}
