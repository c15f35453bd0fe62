/**
 * Lines of a stream another user may have written: a line over the limit is
 * never read to its end. A little too long, it is skipped and the next line
 * read; one that goes on (a sparse file of zeros, a stream with no newline)
 * stops the reading after at most SKIP_FACTOR times the limit, and the rest
 * of the stream is never pulled.
 */
import assert from "node:assert/strict";
import { type Line, linesOf, SKIP_FACTOR } from "../../lib/base/lines.ts";

const CHUNK = 64 * 1024;

/** `head`, then endless `byte`s, counting what was pulled. */
function counted(byte: number, head = "") {
  const seen = { bytes: 0, cancelled: false };
  let first = new TextEncoder().encode(head);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // A guard, not a measure: far past any bound the reader should keep.
      if (seen.bytes > 1 << 30) {
        return controller.error(new Error("read a whole gigabyte"));
      }
      const chunk = first.length > 0 ? first : new Uint8Array(CHUNK).fill(byte);
      first = new Uint8Array();
      seen.bytes += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

async function collect(
  stream: ReadableStream<Uint8Array>,
  max?: number,
): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of linesOf(stream, max)) out.push(line);
  return out;
}

Deno.test("lines: a line of zeros with no end stops the reading", async () => {
  for (const max of [4096, 1 << 20]) {
    const { stream, seen } = counted(0);
    assert.deepEqual(await collect(stream, max), [
      { number: 1, tooLong: true, unread: true },
    ]);
    assert.ok(seen.bytes <= max * SKIP_FACTOR + 2 * CHUNK, `${seen.bytes}`);
    assert.ok(seen.cancelled, "the rest of the stream is cancelled");
  }
});

Deno.test("lines: after good lines, an endless one is the last", async () => {
  const { stream, seen } = counted(0x78, "a\nb\n");
  assert.deepEqual(await collect(stream, 4096), [
    { number: 1, text: "a" },
    { number: 2, text: "b" },
    { number: 3, tooLong: true, unread: true },
  ]);
  assert.ok(seen.bytes <= 4096 * SKIP_FACTOR + 2 * CHUNK, `${seen.bytes}`);
  assert.ok(seen.cancelled);
});

Deno.test("lines: a line a little too long is skipped, the next one read", async () => {
  const long = "x".repeat(4096 * 3);
  assert.deepEqual(
    await collect(new Blob([`${long}\nok\n`]).stream(), 4096),
    [{ number: 1, tooLong: true }, { number: 2, text: "ok" }],
  );
  // Right at the skip bound: still found.
  const atBound = "x".repeat(4096 * SKIP_FACTOR);
  assert.deepEqual(
    await collect(new Blob([`${atBound}\nok\n`]).stream(), 4096),
    [{ number: 1, tooLong: true }, { number: 2, text: "ok" }],
  );
});

Deno.test("lines: drained comes once a read's lines are all handed out, before the next read", async () => {
  const chunks = ["a\nb\n", "c\n"].map((s) => new TextEncoder().encode(s));
  const seen: string[] = [];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      seen.push("read");
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  for await (
    const line of linesOf(stream, undefined, () => seen.push("drained"))
  ) {
    seen.push("text" in line ? line.text : "?");
  }
  assert.deepEqual(seen, [
    "read",
    "a",
    "b",
    "drained",
    "read",
    "c",
    "drained",
    "read",
  ]);
});
