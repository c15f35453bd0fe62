/**
 * Writing a command's result for one call: texts in the call's language
 * with their `{placeholders}` filled, long lines wrapped within 80 columns,
 * JSON on one line, and colour only where the Io allows it.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { wrap } from "../base/terminal.ts";
import { ANSI, PLAIN, type Style } from "../views/timeline.ts";
import type { Io } from "./io.ts";

/** The values a text's `{placeholders}` are filled with. */
export type Fills = Readonly<Record<string, string | number | Text>>;

/** Colour only when the Io allows it (a terminal without `NO_COLOR`). */
export function styleFor(io: Io): Style {
  return io.color ? ANSI : PLAIN;
}

/** What {@linkcode writerFor} gives a command: its ways of writing to stdout. */
export interface Writer {
  /** `text` in the call's language, filled: the string, to compose with. */
  text(text: Text, values?: Fills): string;
  /** `text` in the call's language, filled, as one line. */
  say(text: Text, values?: Fills): void;
  /** A line (or a text, filled), wrapped within 80 columns. */
  wrapped(line: string | Text, values?: Fills): void;
  /** Each line as it is. */
  lines(lines: Iterable<string>): void;
  /** `value` as one line of JSON. */
  json(value: unknown): void;
}

/** A {@linkcode Writer} for one call: its Io, its language. */
export function writerFor(io: Io, lang: Lang): Writer {
  const text = (t: Text, values: Fills = {}) => say(fill(t, values), lang);
  return {
    text,
    say: (t, values) => io.out(text(t, values)),
    wrapped: (line, values) => {
      const shown = typeof line === "string" ? line : text(line, values);
      for (const part of wrap(shown, 80)) io.out(part);
    },
    lines: (lines) => {
      for (const line of lines) io.out(line);
    },
    json: (value) => io.out(JSON.stringify(value)),
  };
}
