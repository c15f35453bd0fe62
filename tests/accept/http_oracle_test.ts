/**
 * The HTTP oracle (`accept --http-oracle`): its fields checked one by
 * one, each endpoint compiled into the MCP oracle's entry the cases run,
 * an OpenAPI operation standing in for a method and a path, and a path
 * that never leaves the API's own origin. Expected values by hand.
 */
import assert from "node:assert/strict";
import { say } from "../../lib/base/i18n.ts";
import {
  openapiOperations,
  parseHttpOracle,
} from "../../lib/accept/http_oracle.ts";
import { BadOracle } from "../../lib/accept/oracle.ts";
import { urlOf } from "../../lib/wire/http_api.ts";

const ENDPOINT = {
  method: "POST",
  path: "/orders",
  key: "gl-{run}-{n:3}",
  body: { ref: "ref-{run}-{n:3}", item: "book" },
  read: {
    path: "/orders?ref=ref-{run}-{n:3}",
    count: { number: "/count" },
  },
};

/** The one line a bad oracle gets, in English. */
function refusal(endpoint: Record<string, unknown>, top = {}): string {
  try {
    parseHttpOracle(JSON.stringify({ ...top, endpoints: [endpoint] }));
  } catch (error) {
    assert.ok(error instanceof BadOracle);
    return say(error.text, "en");
  }
  throw new Error("accepted");
}

Deno.test("http oracle: an endpoint compiles into the entry the cases run: the request as arguments, the key in the header, the read a GET", () => {
  const oracle = parseHttpOracle(JSON.stringify({
    key_header: "X-Request-Key",
    endpoints: [{
      ...ENDPOINT,
      name: "create_order",
      conflict: { status: 409 },
      key_lifetime_ms: 86400000,
      error_body: { ref: "ref-{run}-{n:3}", item: "fail" },
    }],
  }));
  assert.equal(oracle.keyHeader, "X-Request-Key");
  assert.deepEqual(oracle.tools[0], {
    tool: "create_order",
    call: {
      method: "POST",
      path: "/orders",
      body: { ref: "ref-{run}-{n:3}", item: "book" },
    },
    key: "",
    key_in: "header",
    idempotency_key: "gl-{run}-{n:3}",
    read: {
      tool: "GET",
      arguments: { method: "GET", path: "/orders?ref=ref-{run}-{n:3}" },
    },
    count: { number: "/count" },
    error_call: {
      method: "POST",
      path: "/orders",
      body: { ref: "ref-{run}-{n:3}", item: "fail" },
    },
    conflict: { status: 409 },
    key_lifetime_ms: 86400000,
  });
});

Deno.test("http oracle: an OpenAPI operation stands in for the method and path, its path parameters filled, guardlab's placeholders kept", () => {
  const ops = openapiOperations(JSON.stringify({
    openapi: "3.1.0",
    paths: {
      "/shops/{shop}/orders": { post: { operationId: "createOrder" } },
      "/shops/{shop}/orders/{ref}": { put: {} },
    },
  }));
  const named = parseHttpOracle(
    JSON.stringify({
      endpoints: [
        { ...ENDPOINT, method: undefined, path: undefined },
      ].map(({ method: _m, path: _p, ...e }) => ({
        ...e,
        operation: "createOrder",
        path_params: { shop: "a b" },
      })),
    }),
    ops,
  );
  assert.equal(named.tools[0].tool, "POST /shops/a%20b/orders");
  const byPath = parseHttpOracle(
    JSON.stringify({
      endpoints: [{
        key: ENDPOINT.key,
        body: ENDPOINT.body,
        read: ENDPOINT.read,
        operation: "PUT /shops/{shop}/orders/{ref}",
        path_params: { shop: "s1", ref: "{run}" },
      }],
    }),
    ops,
  );
  assert.deepEqual(byPath.tools[0].call, {
    method: "PUT",
    path: "/shops/s1/orders/{run}",
    body: ENDPOINT.body,
  });
  const { method: _m, path: _p, ...rest } = ENDPOINT;
  assert.throws(
    () =>
      parseHttpOracle(
        JSON.stringify({ endpoints: [{ ...rest, operation: "nope" }] }),
        ops,
      ),
    (e) =>
      e instanceof BadOracle &&
      say(e.text, "en") ===
        'endpoints[0].operation: the OpenAPI document has no operation "nope" (an operationId, or "METHOD /path")',
  );
});

Deno.test("http oracle: each bad field is one line naming it", () => {
  assert.equal(
    refusal({ ...ENDPOINT, path: "//evil.example/orders" }),
    "endpoints[0].path must be a path on the API's own origin: it starts with one /, holds no space or backslash, at most 2048 characters",
  );
  assert.equal(
    refusal({ ...ENDPOINT, method: "GET" }),
    "endpoints[0].method must be POST, PUT, PATCH or DELETE",
  );
  assert.equal(
    refusal({ ...ENDPOINT, conflict: { code: -32010 } }),
    'endpoints[0].conflict must be {"status": N}, an HTTP status from 400 to 599',
  );
  assert.equal(
    refusal({ ...ENDPOINT, key_lifetime_ms: 0 }),
    "endpoints[0].key_lifetime_ms must be the key's lifetime in ms: a whole number from 1 to a year",
  );
  assert.equal(
    refusal({ ...ENDPOINT, other_body: { ref: "r" } }),
    "endpoints[0].other_count is needed too: other_body and other_count go together",
  );
  assert.equal(
    refusal(ENDPOINT, { key_header: "Content-Type" }),
    "key_header must be a header name (letters, digits, -; at most 64) that guardlab does not send itself",
  );
  assert.equal(
    refusal({ ...ENDPOINT, operation: "createOrder", method: undefined }),
    'endpoints[0] needs either "method" and "path", or "operation" (with --openapi)',
  );
});

Deno.test("http oracle: a path never leaves the API's origin, whatever it holds", () => {
  const base = new URL("http://127.0.0.1:8080/api/");
  assert.equal(
    urlOf(base, "/orders")?.href,
    "http://127.0.0.1:8080/api/orders",
  );
  for (
    const path of [
      "//evil.example/x",
      "/\\evil.example",
      "http://evil.example/",
      "orders",
      42,
    ]
  ) {
    assert.equal(urlOf(base, path), null, String(path));
  }
});
