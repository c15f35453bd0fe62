/**
 * The one bounded reader: the bytes of an open file or a stream, never more
 * than a bound, whoever opened it and however. The caller keeps its own way
 * of opening (a hand-in opened `O_NONBLOCK` and checked by inode, a file
 * given to `accept` opened without following a link and measured); here
 * only the reading, which reads one byte past the bound to tell a source
 * that holds more (a file that grew since it was measured, an endless
 * stream) from one that ends there. The bytes are decoded by the caller,
 * whole: a character cut between two reads is never split.
 *
 * `tests/architecture/boundaries_test.ts` holds every byte-capped read loop
 * of `lib/` to this file.
 *
 * @module
 */

/** What a bounded read gives: the bytes, at most the bound, and whether the source held more. */
export interface BoundedRead {
  /** The first bytes of the source, at most the bound. */
  readonly bytes: Uint8Array;
  /** Whether the source went on past the bound (what follows was not read). */
  readonly more: boolean;
}

/** A read into `buffer` that says how many bytes it put there; 0 or null at the end. */
export type ReadInto = (buffer: Uint8Array) => number | null;

/** {@linkcode ReadInto}, awaited. */
export type ReadIntoAsync = (buffer: Uint8Array) => Promise<number | null>;

/** The first buffer for a source of unknown size: it doubles as it fills. */
const FIRST_PART = 64 << 10;

/**
 * The one loop: a buffer handed out to fill (yielded), the count read into
 * it taken back, until the source ends or one byte past `max` is in. The
 * buffer starts at `sizeHint` (a measured size) and doubles when a source
 * holds more, never past `max + 1`; in memory other threads can read when
 * `shared` (a file a worker then checks, with no second copy made).
 */
function* filling(
  max: number,
  sizeHint: number,
  shared = false,
): Generator<Uint8Array, BoundedRead, number | null> {
  const bytes = (size: number) =>
    shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
  let buffer = bytes(Math.min(max, sizeHint) + 1);
  let filled = 0;
  while (true) {
    if (filled === buffer.length) {
      if (filled > max) break;
      const grown = bytes(Math.min(max + 1, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const n = yield buffer.subarray(filled);
    if (!n) break;
    filled += n;
  }
  return {
    bytes: buffer.subarray(0, Math.min(filled, max)),
    more: filled > max,
  };
}

/**
 * Read with `read` (an open file's `readSync`, or `node:fs`'s on a
 * descriptor) to the end, or until one byte past `max`. `sizeHint`, the
 * size the file was measured at, sizes the first buffer; `shared` puts the
 * bytes in a `SharedArrayBuffer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readUpToSync } from "./read_bounded.ts";
 * const source = new TextEncoder().encode("héllo");
 * let at = 0;
 * // One byte a read: the é is cut between two reads.
 * const read = (buffer: Uint8Array) => {
 *   if (at === source.length) return null;
 *   buffer[0] = source[at++];
 *   return 1;
 * };
 * const { bytes, more } = readUpToSync(read, 100);
 * assert.equal(new TextDecoder().decode(bytes), "héllo");
 * assert.equal(more, false);
 * ```
 */
export function readUpToSync(
  read: ReadInto,
  max: number,
  sizeHint: number = FIRST_PART,
  shared = false,
): BoundedRead {
  const fill = filling(max, sizeHint, shared);
  let step = fill.next();
  while (!step.done) step = fill.next(read(step.value));
  return step.value;
}

/** {@linkcode readUpToSync} with a read that is awaited (an open file's `read`). */
export async function readUpTo(
  read: ReadIntoAsync,
  max: number,
  sizeHint: number = FIRST_PART,
): Promise<BoundedRead> {
  const fill = filling(max, sizeHint);
  let step = fill.next();
  while (!step.done) step = fill.next(await read(step.value));
  return step.value;
}

/**
 * The first bytes of `stream`, at most `max`: a stream that goes on past
 * `max` is cancelled there (`more`), never held whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readStreamUpTo } from "./read_bounded.ts";
 * const endless = new ReadableStream<Uint8Array>({
 *   pull: (c) => c.enqueue(new Uint8Array(1000)),
 * });
 * const { bytes, more } = await readStreamUpTo(endless, 5000);
 * assert.equal(bytes.length, 5000);
 * assert.equal(more, true);
 * ```
 */
export async function readStreamUpTo(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<BoundedRead> {
  const reader = stream.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  const read = async (into: Uint8Array): Promise<number | null> => {
    while (pending.length === 0) {
      const { done, value } = await reader.read();
      if (done) return null;
      pending = value;
    }
    const n = Math.min(into.length, pending.length);
    into.set(pending.subarray(0, n));
    pending = pending.subarray(n);
    return n;
  };
  try {
    const got = await readUpTo(read, max);
    if (got.more) await reader.cancel().catch(() => {});
    return got;
  } finally {
    reader.releaseLock();
  }
}

/**
 * The text of `stream` (UTF-8, decoded whole), or `null` when it holds more
 * than `max` bytes: the stream is then cancelled there, never held whole.
 */
export async function readStreamText(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<string | null> {
  const { bytes, more } = await readStreamUpTo(stream, max);
  return more ? null : new TextDecoder().decode(bytes);
}
