/**
 * The one JSON Lines reader (`lib/base/jsonl.ts`), a stream's and a text's
 * alike: lines numbered from 1 with blank ones passed over, each line's
 * problem named before any schema reads it, and the bounds held: a line
 * too long is never held, the line past the most allowed stops the reading
 * (a stream is cancelled there).
 */
import assert from "node:assert/strict";
import {
  type JsonLine,
  jsonLinesIn,
  jsonLinesOf,
} from "../../lib/base/jsonl.ts";
import { parseJsonLikePython } from "../../lib/base/json.ts";

/** A line as `[number, value or problem]`. */
const shown = (l: JsonLine) =>
  ["value" in l ? l.value : l.problem, l.number] as const;

async function fromStream(
  text: string,
  bounds: { maxLineBytes: number; maxLines?: number },
) {
  const seen = [];
  const stream = new Blob([text]).stream();
  for await (const line of jsonLinesOf(stream, bounds)) seen.push(shown(line));
  return seen;
}

Deno.test("jsonl: a text and a stream read the same: numbered, blanks passed over, each problem named", async () => {
  const text = '{"a": 1}\r\n\n   \n[1]\n{"a"\n"x"\n{"b": 2}';
  const expected = [
    [{ a: 1 }, 1],
    ["notObject", 4],
    ["notJson", 5],
    ["notObject", 6],
    [{ b: 2 }, 7],
  ];
  assert.deepEqual([...jsonLinesIn(text, {})].map(shown), expected);
  assert.deepEqual(await fromStream(text, { maxLineBytes: 100 }), expected);
});

Deno.test("jsonl: a line over the bound is tooLong, counted in bytes, and the next is read", async () => {
  // 李 is three bytes: four of them are 12 bytes, over a bound of 10.
  const text = '"李李李李"\n{"a": 1}\n';
  const expected = [["tooLong", 1], [{ a: 1 }, 2]];
  assert.deepEqual(
    [...jsonLinesIn(text, { maxLineBytes: 10 })].map(shown),
    expected,
  );
  assert.deepEqual(await fromStream(text, { maxLineBytes: 10 }), expected);
  // Five UTF-16 units, eleven bytes: over ten. Eight bytes are within it.
  assert.deepEqual(
    [...jsonLinesIn('"李李李"\n"李李"', { maxLineBytes: 10 })].map(shown),
    [["tooLong", 1], ["notObject", 2]],
  );
});

Deno.test("jsonl: the line past the most allowed is tooMany, and nothing after it is read", async () => {
  // Problem lines count: the bound is on lines read, not on good ones.
  const text = '{"a": 1}\n\nnope\n{"a": 3}\n{"a": 4}\n';
  const expected = [[{ a: 1 }, 1], ["notJson", 3], ["tooMany", 4]];
  assert.deepEqual(
    [...jsonLinesIn(text, { maxLines: 2 })].map(shown),
    expected,
  );
  assert.deepEqual(
    await fromStream(text, { maxLineBytes: 100, maxLines: 2 }),
    expected,
  );
  let cancelled = false;
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode('{"a": 1}\n'.repeat(100)));
    },
    cancel() {
      cancelled = true;
    },
  });
  let lines = 0;
  for await (
    const line of jsonLinesOf(endless, { maxLineBytes: 100, maxLines: 150 })
  ) {
    lines++;
    if ("problem" in line) assert.deepEqual(shown(line), ["tooMany", 151]);
  }
  assert.equal(lines, 151);
  assert.ok(cancelled, "the stream was cancelled");
  assert.ok(pulled <= 3, `${pulled} chunks pulled`);
});

Deno.test("jsonl: a line with no end in sight is the last, marked unread", async () => {
  const stream = new ReadableStream<Uint8Array>({
    pull: (c) => c.enqueue(new Uint8Array(1 << 16).fill(0x20)),
  });
  const seen: JsonLine[] = [];
  for await (const line of jsonLinesOf(stream, { maxLineBytes: 1000 })) {
    seen.push(line);
  }
  assert.deepEqual(seen, [{ number: 1, problem: "tooLong", unread: true }]);
});

Deno.test("jsonl: the parser is the reader's: script keeps Python's 2.0", () => {
  const [line] = jsonLinesIn('{"copies": 2.0}', { parse: parseJsonLikePython });
  assert.ok("value" in line);
  assert.notEqual(typeof line.value.copies, "number", "2.0 kept apart from 2");
  const [plain] = jsonLinesIn('{"copies": 2.0}', {});
  assert.ok("value" in plain);
  assert.equal(plain.value.copies, 2);
});
