/**
 * Terminal text helpers: display width (CJK characters take two columns),
 * wrapping that keeps lines within a width, and shell quoting.
 *
 * @module
 */

// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and
// F), with the emoji that present as pictures. @std/cli's `unicodeWidth` is
// the JSR equivalent, out of reach offline.
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18aff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f260, 0x1f265],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7f0],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

// Marks that join the character before them and take no column.
const ZERO: readonly [number, number][] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
  [0x1f3fb, 0x1f3ff],
  [0xe0100, 0xe01ef],
];

function within(code: number, table: readonly [number, number][]): boolean {
  let lo = 0;
  let hi = table.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < table[mid][0]) hi = mid - 1;
    else if (code > table[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Columns one character takes in a terminal: 0, 1 or 2. */
function columnsOf(char: string): number {
  const code = char.codePointAt(0)!;
  if (within(code, ZERO)) return 0;
  return within(code, WIDE) ? 2 : 1;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Columns `text` takes in a terminal: wide CJK characters and picture emoji
 * count two, combining marks zero, ANSI colour codes zero.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayWidth } from "./terminal.ts";
 * assert.equal(displayWidth("后检 ok"), 7);
 * ```
 */
export function displayWidth(text: string): number {
  // Printable ASCII, most of every screen, takes one column a character.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  // deno-lint-ignore no-control-regex -- ANSI colour codes start with ESC on purpose
  for (const char of text.replace(/\x1b\[[0-9;]*m/g, "")) {
    width += columnsOf(char);
  }
  return width;
}

/** Punctuation that may not end a line (it opens what comes next). */
const OPENING = new Set([..."（「『《〈【“‘([{"]);

/** Punctuation that may not begin a line (it closes what came before). */
const CLOSING = new Set([..."，。、；：！？）」』》〉】”’,.;:!?)]}%"]);

/** Chinese punctuation after which a line may break (the end of a clause). */
const CLAUSE_END = new Set([..."，。、；：！？）」』》〉】”’"]);

/**
 * Chinese words a line never breaks inside, even when a clause is wider than
 * the whole line: the article's glossary and the words the screens use most.
 * There is no dictionary; breaks fall between clauses first (see
 * {@linkcode wrap}), so this list only guards the rare clause longer than a
 * line. Longer words first, so the longest match wins.
 */
export const PROTECTED_WORDS: readonly string[] = [
  // the article's glossary
  "参数校验",
  "前检",
  "业务写入",
  "提交点",
  "后检",
  "回执",
  "对账",
  "幂等",
  "业务键",
  "修订号",
  "条件写入",
  "对照实现",
  // stage and mark words of the timeline
  "业务写入前",
  "护栏结论",
  "输入护栏",
  "提交之后",
  "通过",
  "拒绝",
  "失败",
  "取消",
  "并行中",
  "未到达",
  // words of the screens
  "草稿",
  "账本",
  "规则",
  "上限",
  "补偿",
  "回滚",
  "事务",
  "护栏",
  "写入",
  "提交",
  "检查",
  "重试",
  "允许",
  "调用方",
  "调用",
  "参数",
  "结果",
  "审计",
  "作废",
  "请求",
  "条件",
  "匹配",
  "读者",
  "编辑者",
  "临时账本",
  "下一步",
  "练习",
  "进度",
  "评分",
  "沙箱",
].toSorted((a, b) => b.length - a.length);

const ASCII_WORD = /[A-Za-z0-9_\-./:=@#'"`<>|+*&$^~\\]/;

/** Spans never broken, though spaced: "第 8 章", "回执 [ok]". */
const TOGETHER =
  /第 \d{1,4} [章行道次节]|\p{Script=Han}{1,8} \[(?:ok|no|!!|xx|\.\.|\?\?| )\]/uy;

/**
 * The smallest pieces of a line: a run of ASCII letters, digits and
 * identifier punctuation stays whole (`effect_reused`, `--ledger`), a run of
 * spaces is one piece, a protected Chinese word is one piece, any other
 * character stands alone; closing punctuation is glued to the piece before
 * it and opening punctuation to the piece after it.
 */
function piecesOf(line: string): string[] {
  const pieces: string[] = [];
  const other = /[A-Za-z0-9_\-./:=@#'"`<>|+*&$^~\\]+| +|[\s\S]/uy;
  for (let at = 0; at < line.length;) {
    TOGETHER.lastIndex = at;
    let word = TOGETHER.exec(line)?.[0] ??
      PROTECTED_WORDS.find((w) => line.startsWith(w, at));
    if (word === undefined) {
      other.lastIndex = at;
      word = other.exec(line)![0];
    }
    at += word.length;
    const last = pieces.length - 1;
    const glued = last >= 0 && pieces[last].trim() !== "" &&
      word.trim() !== "" &&
      (CLOSING.has([...word][0]) || OPENING.has([...pieces[last]].at(-1)!));
    if (glued) pieces[last] += word;
    else pieces.push(word);
  }
  return pieces;
}

/** Whether a line may break between two adjacent pieces with no space. */
function breakBetween(before: string, after: string): boolean {
  const last = [...before].at(-1)!;
  const first = [...after][0];
  if (CLAUSE_END.has(last) || OPENING.has(first)) return true;
  // Where Chinese meets a Latin word, the two are separate words.
  const wideLast = displayWidth(last) === 2;
  const wideFirst = displayWidth(first) === 2;
  return (wideLast && ASCII_WORD.test(first)) ||
    (wideFirst && ASCII_WORD.test(last));
}

/**
 * The units of a line: runs of spaces, and runs of pieces with no break
 * allowed between them (a Chinese clause up to its punctuation, a Latin word).
 * Each unit is a list of pieces. A number keeps the Chinese unit after it
 * ("2 份", "3 行"): the space between them is no place to break.
 */
function unitsOf(line: string): string[][] {
  const units = breakableUnitsOf(line);
  for (let i = units.length - 3; i >= 0; i--) {
    const [number, space, unit] = [units[i], units[i + 1], units[i + 2]];
    if (
      space.join("") === " " && /[0-9]$/.test(number.at(-1)!) &&
      HAN_START.test(unit[0])
    ) {
      units.splice(i, 3, [...number, " ", ...unit]);
    }
  }
  return units;
}

const HAN_START = /^\p{Script=Han}/u;

/** The units of a line, each number still apart from its unit. */
function breakableUnitsOf(line: string): string[][] {
  const units: string[][] = [];
  for (const piece of piecesOf(line)) {
    const unit = units.at(-1);
    const prev = unit?.at(-1);
    if (
      unit && prev !== undefined && prev.trim() !== "" &&
      piece.trim() !== "" && !breakBetween(prev, piece)
    ) {
      unit.push(piece);
    } else {
      units.push([piece]);
    }
  }
  return units;
}

/**
 * The column where a continuation of `line` starts. After a short leading
 * label (`原因：`, `Why: `, or a key followed by two spaces as in a table
 * of fields) or a list marker (`- `, `* `, `1. `), the continuation lines up
 * under the text it continues; a line with neither gets a hanging indent of
 * four columns, so a wrapped entry of a list stays apart from the next. No
 * continuation starts right of the middle of the line.
 */
export function continuationColumn(line: string, width: number): number {
  const indent = /^ */.exec(line)![0].length;
  const marker = /^(?:[-*] |\d{1,2}\. )/.exec(line.slice(indent))?.[0] ?? "";
  const start = indent + marker.length;
  const label =
    /^[^ ，。；,;()（）：:]{1,12}(?: [^ ，。；,;()（）：:]{1,12}){0,2}(?:：|: )|^\S{1,16} {2,}/u
      .exec(line.slice(start))?.[0];
  const column = label
    ? start + displayWidth(label)
    : marker
    ? start
    : indent + 4;
  return Math.min(column, Math.floor(width / 2));
}

/**
 * Cut `current`, a line wider than `width` because one piece is, into
 * lines of `width` columns, pushed to `out`; each continuation starts with
 * `hang`. Returns the last, which fits. Only a piece wider than a whole
 * line is cut. The characters are split once and walked with an offset, so
 * a piece of any length is cut in linear time (re-splitting what is left
 * for each line would be quadratic in a hostile ledger's key).
 */
function cutWide(
  current: string,
  width: number,
  hang: string,
  out: string[],
): string {
  const chars = [...current];
  const widths = chars.map((c) =>
    c === "\x1b" ? -1 : c >= " " && c <= "~" ? 1 : displayWidth(c)
  );
  if (widths.includes(-1)) {
    // A colour code counts no column only as a whole: the simple way.
    while (displayWidth(current) > width && current.trim() !== "") {
      const all = [...current];
      const cut = cutAt(all, all.map((c) => displayWidth(c)), 0, width);
      out.push(all.slice(0, cut).join(""));
      current = hang + all.slice(cut).join("");
    }
    return current;
  }
  // The line now is `hang` (after the first) followed by chars[from..].
  const hangChars = [...hang];
  let line = chars;
  let lineWidths = widths;
  let from = 0;
  let solidUntil = chars.length;
  while (solidUntil > 0 && chars[solidUntil - 1].trim() === "") solidUntil--;
  for (;;) {
    if (from >= solidUntil) break;
    const cut = cutAt(line, lineWidths, from, width);
    if (cut === line.length) break;
    out.push(line.slice(from, cut).join(""));
    // The continuation: the hang, then the rest. The rest is copied once
    // (its first line); after that the hang is written over what was cut.
    const start = cut - hangChars.length;
    if (line === chars || start < 0) {
      line = [...hangChars, ...line.slice(cut)];
      lineWidths = [...hangChars.map(() => 1), ...lineWidths.slice(cut)];
      solidUntil = solidUntil - cut + hangChars.length;
      from = 0;
    } else {
      // Put the hang in front of what is left, in place of what was cut.
      for (let i = 0; i < hangChars.length; i++) {
        line[start + i] = hangChars[i];
        lineWidths[start + i] = 1;
      }
      from = start;
    }
  }
  return line.slice(from).join("");
}

/**
 * Where `chars[from..]` is cut to fit `width` columns: after as many as fit,
 * moved back to keep closing punctuation with the character before it, but
 * never into the line's indent alone (then where the line is full).
 */
function cutAt(
  chars: readonly string[],
  widths: readonly number[],
  from: number,
  width: number,
): number {
  let cut = from;
  let used = 0;
  while (cut < chars.length && used + widths[cut] <= width) {
    used += widths[cut];
    cut++;
  }
  if (cut === chars.length) return cut;
  const full = cut;
  while (cut > from + 1 && CLOSING.has(chars[cut])) cut--;
  return chars.slice(from, cut).some((c) => c.trim() !== "") ? cut : full;
}

/**
 * Wrap `line` to at most `width` columns.
 *
 * The rule, for text with no dictionary: a line breaks at a space, after
 * Chinese clause punctuation (，。、；：！？ and closing brackets), before an
 * opening bracket, or where Chinese meets a Latin word; never inside a run of
 * Chinese between those points, never inside an ASCII word (`effect_reused`),
 * and a line never starts with closing punctuation. Only a clause wider than
 * a whole line is broken inside, and then between two characters that do not
 * belong to one of {@linkcode PROTECTED_WORDS}; a single word wider than a
 * line is cut only then. A continuation line starts at `continuation`, by
 * default {@linkcode continuationColumn}: under the text it continues. A
 * caller that places the lines in a column of its own (a note beside a
 * stage, a box in an SVG) passes 0 and indents them itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wrap } from "./terminal.ts";
 * assert.deepEqual(wrap("原因：重试会复用 effect_reused 的草稿。", 24), [
 *   "原因：重试会复用",
 *   "      effect_reused",
 *   "      的草稿。",
 * ]);
 * ```
 */
export function wrap(
  line: string,
  width: number,
  continuation?: number,
): string[] {
  // A line of printable ASCII that fits is itself (what the walk below
  // gives it), and most lines are: no script class is built for them.
  if (line.length <= width && PRINTABLE_ASCII.test(line)) {
    return [line.trimEnd()];
  }
  const hang = " ".repeat(continuation ?? continuationColumn(line, width));
  const out: string[] = [];
  let current = "";
  let space = "";
  const place = (unit: string, room: number) => {
    const blank = current.trim() === "";
    if (blank || displayWidth(current + space + unit) <= room) {
      current += space + unit;
    } else {
      out.push(current);
      current = hang + unit;
    }
    space = "";
  };
  for (const unit of unitsOf(line)) {
    const text = unit.join("");
    if (text.trim() === "") {
      space += text;
      continue;
    }
    const fits = displayWidth(current + space + text) <= width ||
      current.trim() !== "" && displayWidth(hang + text) <= width;
    if (fits) {
      place(text, width);
    } else {
      // A clause wider than a whole line: fill the lines piece by piece,
      // cutting a piece wider than a line before the next one comes.
      for (const piece of unit) {
        place(piece, width);
        if (displayWidth(current) > width && current.trim() !== "") {
          current = cutWide(current, width, hang, out);
        }
      }
    }
    if (displayWidth(current) > width && current.trim() !== "") {
      current = cutWide(current, width, hang, out);
    }
  }
  out.push(current);
  return out.map((l) => l.trimEnd()).filter((l, _i, all) =>
    l.trim() !== "" || all.length === 1
  );
}

/**
 * `word` as one POSIX shell word: unchanged when it holds only safe
 * characters, else in single quotes (a quote inside becomes `'\''`). A
 * suggested command pasted into a shell runs nothing else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellQuote } from "./terminal.ts";
 * assert.equal(shellQuote("/tmp/a b;touch x"), "'/tmp/a b;touch x'");
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\/.:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Every character guardlab shows as `\uXXXX`, in text, SVG and JSON alike,
 * defined once: those that can drive a terminal or reorder what it shows
 * (the C0 and C1 controls, DEL, the bidirectional embeddings, overrides,
 * isolates and marks, the line and paragraph separators), every format
 * character (zero-width space, joiners, word joiner, the byte-order mark,
 * the tag characters U+E0000–U+E007F...), every default-ignorable code
 * point (Unicode's Default_Ignorable_Code_Point: variation selectors,
 * U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, U+180E...),
 * and what else shows as nothing or as a plain space: spaces other than
 * U+0020, the braille blank, the noncharacters (U+FFFE, U+FFFF...) and
 * unpaired surrogates. Two keys that differ only in these look different
 * on every screen.
 */
const INVISIBLE_CLASS = "\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}" +
  "\\p{Default_Ignorable_Code_Point}\\p{Noncharacter_Code_Point}" +
  "\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000\\u2800";

const DRIVING = new RegExp(`[${INVISIBLE_CLASS}]`, "gu");
const ANY_DRIVING = new RegExp(`[${INVISIBLE_CLASS}]`, "u");

/**
 * Whether `text` holds a character {@linkcode inert} shows as `\uXXXX`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasInvisible } from "./terminal.ts";
 * assert.equal(hasInvisible("JOB-001\u200b"), true);
 * assert.equal(hasInvisible("李雷 JOB-001"), false);
 * ```
 */
export function hasInvisible(text: string): boolean {
  return ANY_DRIVING.test(text);
}

/**
 * `char` as JSON's escape of each of its UTF-16 code units: `\u200b`, and
 * for a character beyond U+FFFF its surrogate pair (`\udb40\udc01` for
 * U+E0001), which a JSON parser reads back as the same character.
 */
function visible(char: string): string {
  let out = "";
  for (let i = 0; i < char.length; i++) {
    out += "\\u" + char.charCodeAt(i).toString(16).padStart(4, "0");
  }
  return out;
}

/**
 * `text` (from a ledger, a script, an argument) with every character that
 * could drive a terminal, or that shows as nothing, shown as `\uXXXX`:
 * visible, inert, one line. Inside a JSON string the same six characters
 * are the escape of the same character, so JSON stays valid and means the
 * same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inert } from "./terminal.ts";
 * assert.equal(inert("JOB-001\x1b]52;c;aGk=\x07"), "JOB-001\\u001b]52;c;aGk=\\u0007");
 * assert.equal(inert("a\u202eb\nc"), "a\\u202eb\\u000ac");
 * assert.equal(inert("JOB-001\u200b"), "JOB-001\\u200b");
 * assert.equal(inert("JOB-001\u{e0041}"), "JOB-001\\udb40\\udc41");
 * ```
 */
export function inert(text: string): string {
  // Printable ASCII drives nothing: the Unicode classes are not even built.
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.replace(DRIVING, visible);
}

/** Printable ASCII, line feeds and tabs: text {@linkcode inertOutput} leaves as it is. */
const PLAIN_LINES = /^[\x20-\x7e\n\t]*$/;

/** {@linkcode DRIVING}, but guardlab's own colour codes, line feeds and tabs kept. */
const LINE_DRIVING = new RegExp(
  `\\x1b\\[[0-9;]*m|(?![\\n\\t])[${INVISIBLE_CLASS}]`,
  "gu",
);

/**
 * The last guard before a terminal: `inert`, but the line feeds and tabs
 * guardlab writes itself are kept, and with `color` its SGR colour codes
 * (`ESC [ … m`, which only colour text). Every other control becomes
 * visible, whoever wrote it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inertOutput } from "./terminal.ts";
 * assert.equal(inertOutput("\x1b[31mx\x1b[0m\x1b[2J", true), "\x1b[31mx\x1b[0m\\u001b[2J");
 * assert.equal(inertOutput("\x1b[31mx", false), "\\u001b[31mx");
 * ```
 */
export function inertOutput(text: string, color: boolean): string {
  // Most lines are printable ASCII, line feeds and tabs: nothing to do, and
  // a start need not build the Unicode classes of LINE_DRIVING for them.
  if (PLAIN_LINES.test(text)) return text;
  return text.replace(
    LINE_DRIVING,
    (m) =>
      m[0] === "\x1b" && m.length > 1
        ? (color ? m : visible(m[0]) + m.slice(1))
        : visible(m),
  );
}
