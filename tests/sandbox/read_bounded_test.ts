/**
 * The one bounded reader (`lib/sandbox/read_bounded.ts`), on sources written
 * to be awkward: reads that cut a character in two, a file that grew past
 * the size it was measured at (within the bound and past it), a stream that
 * never ends, a source exactly at the bound. The callers' own openings (a
 * FIFO swapped in, a lease, a link) are tested with them:
 * `tests/exercises/hand_in_files_test.ts`, `tests/sandbox/`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  readStreamText,
  readStreamUpTo,
  readUpTo,
  readUpToSync,
} from "../../lib/sandbox/read_bounded.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** A source that hands out `bytes` at most `step` at a time, counting its reads. */
function source(bytes: Uint8Array, step: number) {
  let at = 0;
  let reads = 0;
  return {
    read(into: Uint8Array): number | null {
      reads++;
      if (at === bytes.length) return null;
      const n = Math.min(step, into.length, bytes.length - at);
      into.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
    get reads() {
      return reads;
    },
    get at() {
      return at;
    },
  };
}

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("bounded read: a character cut between two reads is read whole", () => {
  // 李 is three bytes: one byte a read cuts it twice.
  const text = "a李雷b";
  const s = source(encode(text), 1);
  const { bytes, more } = readUpToSync(s.read, 100);
  assert.equal(decode(bytes), text);
  assert.equal(more, false);
  assert.ok(s.reads > encode(text).length, "read one byte at a time");
});

Deno.test("bounded read: a file that grew past its measured size is read to its end, within the bound", () => {
  const bytes = encode("x".repeat(1000));
  // Measured at 10 bytes; it holds 1,000 by the time it is read.
  const got = readUpToSync(source(bytes, 64).read, 4096, 10);
  assert.equal(got.bytes.length, 1000);
  assert.equal(got.more, false);
});

Deno.test("bounded read: a source past the bound is read one byte past it and no further", () => {
  const s = source(new Uint8Array(1 << 20), 1 << 20);
  const got = readUpToSync(s.read, 1000, 10);
  assert.equal(got.more, true);
  assert.equal(got.bytes.length, 1000);
  assert.equal(s.at, 1001, "one byte past the bound, then stopped");
  const exact = readUpToSync(source(new Uint8Array(1000), 7).read, 1000);
  assert.deepEqual([exact.bytes.length, exact.more], [1000, false]);
  const empty = readUpToSync(source(new Uint8Array(0), 7).read, 1000, 0);
  assert.deepEqual([empty.bytes.length, empty.more], [0, false]);
});

Deno.test("bounded read: an open file, awaited, grown past the bound since it was measured", async () => {
  await using dir = await tempDir("guardlab-bounded-");
  const path = join(dir.path, "grows");
  await Deno.writeTextFile(path, "12345");
  using file = await Deno.open(path, { read: true });
  const measured = (await file.stat()).size;
  await Deno.writeTextFile(path, "6789", { append: true });
  const asMeasured = await readUpTo((b) => file.read(b), measured, measured);
  assert.deepEqual([decode(asMeasured.bytes), asMeasured.more], [
    "12345",
    true,
  ]);
});

Deno.test("bounded read: a stream that never ends is cancelled past the bound", async () => {
  let pulled = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(64 << 10).fill(0x61));
    },
    cancel() {
      cancelled = true;
    },
  });
  const got = await readStreamUpTo(endless, 1 << 20);
  assert.equal(got.more, true);
  assert.equal(got.bytes.length, 1 << 20);
  assert.ok(cancelled, "cancelled");
  assert.ok(pulled <= 20, `${pulled} chunks pulled`);
  assert.equal(
    await readStreamText(new Blob(["é".repeat(10)]).stream(), 20),
    "é".repeat(10),
  );
  assert.equal(
    await readStreamText(new Blob(["é".repeat(10)]).stream(), 19),
    null,
  );
});
