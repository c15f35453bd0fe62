/**
 * Terminal text helpers: display width (CJK characters take two columns)
 * and wrapping that keeps lines within a width.
 *
 * @module
 */

const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
];

/** Columns one character takes in a terminal. */
function columnsOf(char: string): number {
  const code = char.codePointAt(0)!;
  return WIDE.some(([lo, hi]) => code >= lo && code <= hi) ? 2 : 1;
}

/** Columns `text` takes in a terminal (ANSI colour codes count as zero). */
export function displayWidth(text: string): number {
  let width = 0;
  // deno-lint-ignore no-control-regex -- ANSI colour codes start with ESC on purpose
  for (const char of text.replace(/\x1b\[[0-9;]*m/g, "")) {
    width += columnsOf(char);
  }
  return width;
}

/**
 * Wrap `line` to at most `width` columns, breaking at spaces where there are
 * any (Chinese text breaks between characters); continuation lines keep the
 * line's indentation plus four spaces.
 */
export function wrap(line: string, width: number): string[] {
  const indent = " ".repeat((/^ */.exec(line)![0].length) + 4);
  const out: string[] = [];
  let current = "";
  let used = 0;
  for (const char of line) {
    const w = columnsOf(char);
    if (used + w > width) {
      const space = current.lastIndexOf(" ");
      // Break at a space only if it is near the end; CJK text has few spaces.
      if (space > indent.length && displayWidth(current.slice(space)) <= 20) {
        out.push(current.slice(0, space));
        current = indent + current.slice(space + 1);
      } else {
        out.push(current);
        current = indent;
      }
      used = displayWidth(current);
    }
    current += char;
    used += w;
  }
  out.push(current);
  return out.map((l) => l.trimEnd());
}

/**
 * `word` as one POSIX shell word: unchanged when it holds only safe
 * characters, else in single quotes (a quote inside becomes `'\''`). A
 * suggested command pasted into a shell runs nothing else.
 *
 * @example
 * ```ts
 * import { shellQuote } from "./text.ts";
 * shellQuote("/tmp/a b;touch x"); // "'/tmp/a b;touch x'"
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\/.:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
