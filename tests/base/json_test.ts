/**
 * The JSON forms shared with the reference, at the edges of their fast
 * paths: a number written with a fraction or an exponent stays boxed
 * whatever else the line holds (and only such a number), and keys sort by
 * code point, surrogate pairs included, as Python sorts them. And the one
 * depth scanner, which every reader of a hostile JSON text (an oracle, a
 * baseline, a message to guardlab mcp) calls before parsing.
 */
import assert from "node:assert/strict";
import {
  canonicalJson,
  deeperThan,
  hasFloatSyntax,
  parseJsonLikePython,
  pythonJson,
} from "../../lib/base/json.ts";

Deno.test("json: the depth scanner counts levels, not brackets in strings or escapes", () => {
  const cases: [string, number][] = [
    ["1", 0],
    ["[]", 1],
    ['{"a": ["[[[[", {"b": 1}]}', 3],
    [String.raw`["\\", ["\"[["]]`, 2],
    ["[[], [], [[]]]", 3],
  ];
  for (const [text, depth] of cases) {
    assert.equal(deeperThan(text, depth), false, `${text} within ${depth}`);
    assert.equal(deeperThan(text, depth - 1), depth > 0, `${text}`);
  }
  // Far deeper than any stack: answered in one pass, stopped at the limit.
  assert.equal(deeperThan("[".repeat(10_000_000), 32), true);
});

Deno.test("json: a float in the text is boxed, an int never; strings change nothing", () => {
  for (
    const [text, floats] of [
      ['{"copies": 2}', []],
      ['{"copies": 2.0}', ["copies"]],
      ['{"copies": 2e0}', ["copies"]],
      ['{"copies": 2E0, "n": 1}', ["copies"]],
      ['{"copies": -0.5}', ["copies"]],
      ['{"job": "JOB-1.5e3", "copies": 2}', []],
      ['{"topic": "river", "copies": 3}', []],
    ] as const
  ) {
    const parsed = parseJsonLikePython(text) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(parsed).filter((k) => parsed[k] instanceof Number),
      floats,
      text,
    );
    assert.deepEqual(
      JSON.parse(JSON.stringify(parsed)),
      JSON.parse(text),
      `${text}: the same values`,
    );
  }
});

Deno.test("json: canonical keys by code point, as Python sorts them", () => {
  // U+FF61 sorts before U+1F600 by code point, after it by UTF-16 unit.
  assert.equal(
    canonicalJson({ "\u{1F600}": 1, "\uff61": 2, b: 3, a: 4, ab: 5 }),
    '{"a":4,"ab":5,"b":3,"\\uff61":2,"\\ud83d\\ude00":1}',
  );
});

Deno.test("json: Python's escapes of every character past tilde, and plain ASCII as JSON.stringify writes it", () => {
  // json.dumps(["a\x7fb", "\u00e9", "plain \"q\"", "\u4e2d"]) in Python.
  assert.equal(
    pythonJson(["a\u007fb", "\u00e9", 'plain "q"', "\u4e2d"]),
    '["a\\u007fb", "\\u00e9", "plain \\"q\\"", "\\u4e2d"]',
  );
  assert.equal(pythonJson({ "\u00e9": "x" }), '{"\\u00e9": "x"}');
});

Deno.test("json: float syntax is a digit then a point or an exponent, wherever it stands", () => {
  for (const text of ['{"c": 2.0}', '{"c": 2e0}', '{"c": 2E1}', '"JOB-1.5"']) {
    assert.equal(hasFloatSyntax(text), true, text);
  }
  for (const text of ['{"c": 2}', '{"jsonrpc": "2x"}', '{"e": ".5"}']) {
    assert.equal(hasFloatSyntax(text), false, text);
  }
});
