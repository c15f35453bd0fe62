/**
 * The one JSON-RPC message module: parsed with the depth bound, told apart
 * as a request, a notification or a response, ids keyed, error replies
 * built from the named codes. Both ends (guardlab mcp's transport, accept's
 * and the proxy's channels) read through it.
 */
import assert from "node:assert/strict";
import { MAX_DEPTH } from "../../lib/wire/limits.ts";
import { deeperThan } from "../../lib/base/json.ts";
import {
  errorResponse,
  idKey,
  idOf,
  INVALID_REQUEST,
  isNotification,
  isRequest,
  isResponse,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  parseBatch,
  parseJson,
  parseMessage,
} from "../../lib/wire/message.ts";

const nested = (n: number, inner = "1") =>
  "[".repeat(n) + inner + "]".repeat(n);

Deno.test("wire message: a message, not JSON, not a message, and nested past the bound are four answers", () => {
  assert.deepEqual(parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}'), {
    message: { jsonrpc: "2.0", id: 1, result: {} },
  });
  assert.deepEqual(parseMessage("{not json"), { refused: "not-json" });
  assert.deepEqual(parseMessage('{"jsonrpc":"1.0","id":1}'), {
    refused: "not-message",
  });
  assert.deepEqual(parseMessage("[1, 2]"), { refused: "not-message" });
  // A field that happens to be named like the parser's answer is the
  // message's own.
  assert.deepEqual(parseMessage('{"jsonrpc":"2.0","refused":"x"}'), {
    message: { jsonrpc: "2.0", refused: "x" },
  });
  // Past the bound: read no further, the top-level id kept for a reply.
  const deep = `{"jsonrpc":"2.0","id":7,"result":${nested(MAX_DEPTH)}}`;
  assert.deepEqual(parseMessage(deep), { refused: "too-deep", id: 7 });
  assert.ok(
    "message" in
      parseMessage(
        `{"jsonrpc":"2.0","id":7,"result":${nested(MAX_DEPTH - 2)}}`,
      ),
  );
  // A hostile text far past any stack: refused, never a crash.
  assert.deepEqual(
    parseJson(`{"id":"x","a":${nested(1_000_000)}}`),
    { refused: "too-deep", id: "x" },
  );
});

Deno.test("wire message: the depth is counted on the text, brackets in strings left out", () => {
  assert.equal(deeperThan('{"a": ["[[[[", {"b": 1}]}', 2), true);
  assert.equal(deeperThan('{"a": ["[[[[", {"b": 1}]}', 3), false);
  assert.equal(deeperThan('["\\"[[[["]', 1), false);
  assert.equal(deeperThan(nested(MAX_DEPTH), MAX_DEPTH), false);
  assert.equal(deeperThan(nested(MAX_DEPTH + 1), MAX_DEPTH), true);
});

Deno.test("wire message: a batch is each of its messages, or why the text is read no further", () => {
  assert.deepEqual(
    parseBatch('[{"jsonrpc":"2.0","id":1,"result":1}, 3]'),
    [{ jsonrpc: "2.0", id: 1, result: 1 }, "not-message"],
  );
  assert.deepEqual(parseBatch('{"jsonrpc":"2.0","method":"x"}'), [
    { jsonrpc: "2.0", method: "x" },
  ]);
  assert.deepEqual(parseBatch("nope"), { refused: "not-json" });
  assert.deepEqual(parseBatch(nested(MAX_DEPTH + 1)), {
    refused: "too-deep",
    id: null,
  });
});

Deno.test("wire message: request, notification and response told apart once", () => {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/call" };
  const notification = { jsonrpc: "2.0", method: "notifications/cancelled" };
  const response = { jsonrpc: "2.0", id: 1, result: {} };
  const error = { jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } };
  assert.deepEqual(
    [request, notification, response, error].map((m) => [
      isRequest(m),
      isNotification(m),
      isResponse(m),
    ]),
    [
      [true, false, false],
      [false, true, false],
      [false, false, true],
      [false, false, true],
    ],
  );
  assert.equal(isRequest(request, "tools/call"), true);
  assert.equal(isRequest(request, "tools/list"), false);
  assert.equal(isRequest({ jsonrpc: "2.0", id: null, method: "x" }), false);
});

Deno.test("wire message: ids keyed apart by type, a usable id for a reply, error replies by their named codes", () => {
  assert.notEqual(idKey(1), idKey("1"));
  assert.equal(idKey(1), idKey(1));
  assert.equal(idOf({ id: "a" }), "a");
  assert.equal(idOf({ id: 3 }), 3);
  assert.equal(idOf({ id: Infinity }), null);
  assert.equal(idOf({ id: { x: 1 } }), null);
  assert.equal(idOf([1]), null);
  assert.deepEqual(errorResponse(4, METHOD_NOT_FOUND, "Method not found"), {
    jsonrpc: "2.0",
    id: 4,
    error: { code: -32601, message: "Method not found" },
  });
  assert.deepEqual([PARSE_ERROR, INVALID_REQUEST], [-32700, -32600]);
});
