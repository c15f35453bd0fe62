/**
 * The oracle format: fields spelled exactly, placeholders, JSON Pointers,
 * both ways of counting, and the bounds checked before a file is parsed.
 */
import assert from "node:assert/strict";
import {
  BadOracle,
  callFor,
  countIn,
  parseOracle,
  pointerGet,
  substitute,
} from "../../lib/accept/oracle.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { MAX_ORACLE_DEPTH } from "../../lib/accept/limits.ts";

const TOOL = {
  tool: "put",
  call: { id: "k-{run}-{n:3}", text: "t {n}" },
  key: "/id",
  read: { tool: "get", arguments: { id: "{key}" } },
  count: { text: "{key}" },
};

const oracle = (tool: Record<string, unknown>) =>
  JSON.stringify({ tools: [tool] });

Deno.test("oracle: a complete oracle parses with every field kept as written", () => {
  const text = oracle({
    ...TOOL,
    setup: [{ tool: "mkdir", arguments: { path: "/x/{run}" } }],
    bad_call: { id: "k-{run}-{n:3}", text: 1 },
    other_call: { id: "k-{run}-{n:3}", text: "other" },
    other_count: { json: "/items", match: { text: "other" } },
  });
  const parsed = parseOracle(text);
  assert.deepEqual(parsed.tools[0].setup, [{
    tool: "mkdir",
    arguments: { path: "/x/{run}" },
  }]);
  assert.deepEqual(parsed.tools[0].other_count, {
    json: "/items",
    match: { text: "other" },
  });
  // The built-in examples' oracle is a valid oracle too.
  assert.deepEqual(parseOracle(JSON.stringify(EXAMPLE_ORACLE)), EXAMPLE_ORACLE);
});

Deno.test("oracle: each mistake is one line naming the field", () => {
  const refuses = (text: string, re: RegExp) =>
    assert.throws(
      () => parseOracle(text),
      (e) =>
        e instanceof BadOracle && re.test(e.text.en) && e.text.zh !== e.text.en,
    );
  refuses("{", /not JSON/);
  refuses("[]", /"tools"/);
  refuses(JSON.stringify({ tools: [] }), /from 1 to/);
  refuses(JSON.stringify({ tools: [TOOL], extra: 1 }), /unknown field extra/);
  refuses(oracle({ ...TOOL, keys: "/id" }), /tools\[0\]: unknown field keys/);
  refuses(
    oracle({ ...TOOL, tool: "" }),
    /tools\[0\]\.tool must be a tool name/,
  );
  refuses(
    oracle({ ...TOOL, key: "id" }),
    /tools\[0\]\.key must be a JSON Pointer/,
  );
  refuses(oracle({ ...TOOL, key: "/nope" }), /does not point/);
  refuses(oracle({ ...TOOL, call: { id: "{key}" } }), /cannot hold \{key\}/);
  refuses(oracle({ ...TOOL, count: { text: "" } }), /count must be/);
  refuses(oracle({ ...TOOL, count: { json: "/a" } }), /count must be/);
  refuses(
    oracle({ ...TOOL, read: { tool: "get", args: {} } }),
    /unknown field args/,
  );
  refuses(oracle({ ...TOOL, other_call: {} }), /other_count is needed/);
  refuses(
    oracle({ ...TOOL, other_count: { text: "x" } }),
    /other_call is needed/,
  );
  refuses(oracle({ ...TOOL, setup: {} }), /setup must be a list/);
});

Deno.test("oracle: nesting is measured before parsing; brackets in strings do not count", () => {
  const deep = "[".repeat(MAX_ORACLE_DEPTH + 1) +
    "]".repeat(MAX_ORACLE_DEPTH + 1);
  assert.throws(
    () => parseOracle(deep),
    (e) => e instanceof BadOracle && /deeper than 32/.test(e.text.en),
  );
  // A hostile file far deeper than any stack: refused, not a crash.
  assert.throws(() => parseOracle("[".repeat(1_000_000)), BadOracle);
});

Deno.test("oracle: placeholders in every string, {n:3} padded, {key} from the substituted call", () => {
  const p = { run: "r1", n: 7 };
  assert.deepEqual(
    substitute({ a: ["{run}-{n}", "{n:3}", "{key}", "{other}"], b: 5 }, p),
    {
      a: ["r1-7", "007", "{key}", "{other}"],
      b: 5,
    },
  );
  const tool = parseOracle(oracle(TOOL)).tools[0];
  assert.deepEqual(callFor(tool, tool.call, p), {
    arguments: { id: "k-r1-007", text: "t 7" },
    key: "k-r1-007",
  });
  assert.deepEqual(substitute(tool.read, { ...p, key: "k-r1-007" }), {
    tool: "get",
    arguments: { id: "k-r1-007" },
  });
});

Deno.test("oracle: JSON Pointer per RFC 6901, own properties only", () => {
  const doc = { "a/b": { "m~n": [10, 20] }, list: [] };
  assert.deepEqual(pointerGet(doc, "/a~1b/m~0n/1"), { found: true, value: 20 });
  assert.deepEqual(pointerGet(doc, ""), { found: true, value: doc });
  assert.equal(pointerGet(doc, "/list/0").found, false);
  assert.equal(pointerGet(doc, "/a~1b/m~0n/01").found, false);
  assert.equal(pointerGet(doc, "/constructor").found, false);
  assert.equal(pointerGet(doc, "/__proto__").found, false);
});

Deno.test("oracle: counting by text occurrences, or by matching items of an array", () => {
  const p = { run: "r", n: 1, key: "k-1" };
  const text = {
    content: [{ type: "text", text: "k-1 and k-1" }, {
      type: "text",
      text: "k-10",
    }],
  };
  // Non-overlapping occurrences across the text parts ("k-10" holds "k-1").
  assert.equal(countIn({ text: "{key}" }, text, p), 3);
  const structured = {
    content: [{
      type: "text",
      text: "ignored when structured content is there",
    }],
    structuredContent: {
      items: [{ id: "k-1", v: { x: 1 } }, { id: "k-1", v: { x: 2 } }, {
        id: "k-2",
      }, "k-1"],
    },
  };
  assert.equal(
    countIn({ json: "/items", match: { id: "{key}" } }, structured, p),
    2,
  );
  assert.equal(
    countIn(
      { json: "/items", match: { id: "{key}", v: { x: 2 } } },
      structured,
      p,
    ),
    1,
  );
  // No structured content: the text content, parsed as JSON.
  const asText = {
    content: [{
      type: "text",
      text: JSON.stringify({ items: [{ id: "k-1" }] }),
    }],
  };
  assert.equal(
    countIn({ json: "/items", match: { id: "{key}" } }, asText, p),
    1,
  );
  // Nothing to count in is not zero: it is unknown.
  assert.equal(
    countIn({ json: "/items", match: {} }, {
      content: [{ type: "text", text: "no json" }],
    }, p),
    null,
  );
  assert.equal(countIn({ json: "/missing", match: {} }, structured, p), null);
});
