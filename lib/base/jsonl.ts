/**
 * JSON Lines read as untrusted input, the one reader: a stream or a text
 * already read, each line numbered from 1, blank lines passed over, each
 * line and the count of lines bounded, each line parsed alone and required
 * to be an object. What a line must hold beyond that is its reader's own
 * schema (a fault schedule of `guardlab mcp`, the proxy's faults, a proxy
 * or agent record, a `script` step): each says a {@linkcode JsonLineProblem}
 * in its own words.
 *
 * @module
 */
import { isPlainRecord } from "./json.ts";
import { type Line, linesOf } from "./lines.ts";

/**
 * What is wrong with a line before its schema is read: longer than the
 * bound, one line past the most allowed, not JSON, or JSON but not an
 * object.
 */
export type JsonLineProblem = "tooLong" | "tooMany" | "notJson" | "notObject";

/**
 * One line that is not blank: the object it holds, or what is wrong with it
 * (`P`: the problems its reader's bounds allow).
 */
export type JsonLine<P extends JsonLineProblem = JsonLineProblem> =
  | {
    /** Its number, from 1. */
    readonly number: number;
    /** Its text, as written (a CR before its LF dropped). */
    readonly text: string;
    /** The object it holds. */
    readonly value: Record<string, unknown>;
  }
  | {
    /** Its number, from 1. */
    readonly number: number;
    /** What is wrong with it. */
    readonly problem: P;
    /** Set when the rest of the input was left unread (an over-long line with no end in sight). */
    readonly unread?: true;
  };

/** The bounds of one JSON Lines input, and how a line is parsed. */
export interface JsonLinesBounds {
  /**
   * The longest line, in bytes: a longer one is `tooLong`, its bytes never
   * held. A stream needs it; a text already read is bounded as a whole.
   */
  readonly maxLineBytes?: number;
  /** The most lines that are not blank: the next is `tooMany`, and reading stops there. */
  readonly maxLines?: number;
  /** The JSON parser (`JSON.parse` unless told; `script` keeps Python's `2` / `2.0`). */
  readonly parse?: (text: string) => unknown;
}

/** The problems a line read within bounds `B` can have: `tooLong` and `tooMany` only where `B` sets that bound. */
export type ProblemsWithin<B extends JsonLinesBounds> =
  | "notJson"
  | "notObject"
  | (Sets<B, "maxLineBytes"> extends true ? "tooLong" : never)
  | (Sets<B, "maxLines"> extends true ? "tooMany" : never);

/** Whether bounds `B` may set `K` (a wide type that may, counts). */
type Sets<B, K extends string> = K extends keyof B
  ? B[K] extends undefined ? false : true
  : false;

/**
 * Judge one line: `null` for a blank line, else the line or its problem.
 * `count` is how many lines that are not blank came before it.
 */
function judged<P extends JsonLineProblem>(
  line: Line,
  count: number,
  bounds: JsonLinesBounds,
): JsonLine<P> | null {
  const { number } = line;
  // The problem is one `P` allows: `tooLong` only comes with a line
  // bound, `tooMany` only with a count bound.
  const wrong = (problem: JsonLineProblem, unread?: true): JsonLine<P> =>
    unread
      ? { number, problem: problem as P, unread }
      : { number, problem: problem as P };
  if ("tooLong" in line) return wrong("tooLong", line.unread);
  if (line.text.trim() === "") return null;
  if (bounds.maxLines !== undefined && count >= bounds.maxLines) {
    return wrong("tooMany");
  }
  let value: unknown;
  try {
    value = (bounds.parse ?? JSON.parse)(line.text);
  } catch {
    return wrong("notJson");
  }
  if (!isPlainRecord(value)) return wrong("notObject");
  return { number, text: line.text, value };
}

/**
 * The lines of a JSON Lines `stream`, within `bounds`. Reading stops after
 * a `tooMany` line and after a `tooLong` one marked `unread`; the stream is
 * then cancelled. A reader that stops early (at its first problem) cancels
 * it too. `drained` is {@linkcode linesOf}'s: called when every line read
 * so far has been handed out and the next needs a read that may wait.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLinesOf } from "./jsonl.ts";
 * const input = new Blob(['{"a": 1}\n\n[2]\n{"b"\n']).stream();
 * const seen = [];
 * for await (const line of jsonLinesOf(input, { maxLineBytes: 100 })) {
 *   seen.push("value" in line ? line.value : line.problem);
 * }
 * assert.deepEqual(seen, [{ a: 1 }, "notObject", "notJson"]);
 * ```
 */
export async function* jsonLinesOf<
  B extends JsonLinesBounds & { readonly maxLineBytes: number },
>(
  stream: ReadableStream<Uint8Array>,
  bounds: B,
  drained?: () => void,
): AsyncGenerator<JsonLine<ProblemsWithin<B>>> {
  let count = 0;
  for await (const line of linesOf(stream, bounds.maxLineBytes, drained)) {
    const judge = judged<ProblemsWithin<B>>(line, count, bounds);
    if (judge === null) continue;
    count++;
    yield judge;
    if ("problem" in judge && (judge.problem === "tooMany" || judge.unread)) {
      return;
    }
  }
}

/**
 * The lines of a JSON Lines `text` already read (and bounded as a whole by
 * its reader), within `bounds`, as {@linkcode jsonLinesOf} gives a
 * stream's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLinesIn } from "./jsonl.ts";
 * const lines = [...jsonLinesIn('{"a": 1}\r\n{"a": 2}\n{"a": 3}\n', {
 *   maxLineBytes: 100,
 *   maxLines: 2,
 * })];
 * assert.deepEqual(lines.map((l) => "value" in l ? l.value.a : l.problem), [
 *   1,
 *   2,
 *   "tooMany",
 * ]);
 * ```
 */
export function* jsonLinesIn<B extends JsonLinesBounds>(
  text: string,
  bounds: B,
): Generator<JsonLine<ProblemsWithin<B>>> {
  const encoder = new TextEncoder();
  const max = bounds.maxLineBytes ?? Infinity;
  let count = 0;
  let number = 0;
  for (const raw of text.split("\n")) {
    number++;
    const cut = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // A UTF-16 unit is at least one byte of UTF-8, and at most three.
    const long = cut.length > max ||
      (cut.length * 3 > max && encoder.encode(cut).length > max);
    const line: Line = long ? { number, tooLong: true } : { number, text: cut };
    const judge = judged<ProblemsWithin<B>>(line, count, bounds);
    if (judge === null) continue;
    count++;
    yield judge;
    if ("problem" in judge && judge.problem === "tooMany") return;
  }
}
