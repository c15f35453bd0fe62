/**
 * Lines of a byte stream, in linear time and bounded memory. Hand-written
 * because `@std/streams`' `TextLineStream` (its JSR equivalent) is out of
 * reach offline, and it has no per-line limit.
 *
 * @module
 */

/** The longest step line guardlab reads: 1 MiB. A longer line is refused, not buffered. */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * How far past its limit an over-long line is skipped to find its end, as
 * a multiple of the limit: the next line is still read after a line a
 * little too long, but a line that goes on (a sparse file of zeros, a
 * stream with no newline) is never read to its end.
 */
export const SKIP_FACTOR = 16;

/**
 * One line of input, numbered from 1. An over-long line whose end was not
 * found within {@linkcode SKIP_FACTOR} times the limit is the last one:
 * `unread` says the rest of the input was left unread.
 */
export type Line =
  | { number: number; text: string }
  | { number: number; tooLong: true; unread?: true };

const NEWLINE = 0x0a;

/**
 * Split `stream` at LF (a CR before it is dropped), decoding UTF-8 leniently.
 * A line longer than `maxBytes` yields `{ tooLong: true }` and its bytes are
 * discarded as they arrive, up to {@linkcode SKIP_FACTOR} times `maxBytes`;
 * if its end is not there by then, it yields `{ tooLong: true, unread:
 * true }` and stops, and the rest of the stream is never read (it is
 * cancelled). Each byte is looked at a constant number of times.
 * `drained`, if given, is called whenever every line read so far has been
 * handed out and the next needs a read that may wait: a reader that holds
 * its output back writes it then, so a person or a program that sends one
 * line and waits for its answer gets it, and a piped file is answered in
 * a few writes instead of one per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linesOf } from "./lines.ts";
 * const input = new Blob(["a\r\nb"]).stream();
 * const seen = [];
 * for await (const line of linesOf(input)) seen.push(line);
 * assert.deepEqual(seen, [{ number: 1, text: "a" }, { number: 2, text: "b" }]);
 * ```
 */
export async function* linesOf(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number = MAX_LINE_BYTES,
  drained?: () => void,
): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  const skipLimit = maxBytes * SKIP_FACTOR;
  let parts: Uint8Array[] = [];
  let size = 0;
  let overflow = false;
  let skipped = 0;
  let number = 0;
  const finish = (): Line => {
    number++;
    if (overflow) {
      overflow = false;
      skipped = 0;
      return { number, tooLong: true };
    }
    const joined = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    parts = [];
    size = 0;
    const end = joined.length > 0 && joined[joined.length - 1] === 0x0d
      ? joined.length - 1
      : joined.length;
    return { number, text: decoder.decode(joined.subarray(0, end)) };
  };
  const keep = (bytes: Uint8Array) => {
    if (overflow) {
      skipped += bytes.length;
      return;
    }
    if (size + bytes.length > maxBytes) {
      overflow = true;
      skipped = size + bytes.length;
      parts = [];
      size = 0;
      return;
    }
    parts.push(bytes);
    size += bytes.length;
  };
  for await (const chunk of stream) {
    let from = 0;
    for (let cut = chunk.indexOf(NEWLINE); cut >= 0;) {
      keep(chunk.subarray(from, cut));
      yield finish();
      from = cut + 1;
      cut = chunk.indexOf(NEWLINE, from);
    }
    // Copy the tail: the stream may reuse its buffer for the next chunk.
    if (from < chunk.length) {
      keep(overflow ? chunk.subarray(from) : chunk.slice(from));
    }
    if (overflow && skipped > skipLimit) {
      // Returning here cancels the stream: what follows is never read.
      yield { number: number + 1, tooLong: true, unread: true };
      return;
    }
    drained?.();
  }
  if (size > 0 || overflow) yield finish();
}
