/**
 * The class grade as a teacher reads it: a students × exercises table with
 * totals per student and per exercise, a legend of every mark the table
 * uses, then every flag, in 80 columns (a course too wide for one block
 * continues in the next, and says so); and the same columns as JSON and as
 * CSV for a spreadsheet. JSON and CSV read the same in every language: codes,
 * not words (JSON carries each flag's words in both languages beside its
 * code). In CSV, a cell that a spreadsheet would run as a formula is
 * defused, someone's text it would read as a number or date stays text,
 * a row not graded says why, the file starts with a UTF-8 BOM (so Excel reads the names as
 * UTF-8), lines end in LF, and the totals row stands apart after an empty
 * row, so sorting the students never moves it.
 *
 * @module
 */
import { basename } from "node:path";
import {
  type Cell,
  CELLS,
  type ClassGrade,
  type Flag,
  label,
  type Row,
} from "../exercises/class_grade.ts";
import { BUILTIN_COURSE_ID } from "../exercises/course.ts";
import { visibleText } from "../exercises/hand_in_files.ts";
import { nameKey } from "../exercises/student.ts";
import { type Lang, say, type Text } from "../base/i18n.ts";
import { LEDGER_NOT_AGENT, SESSION_NOT_RERUN } from "../exercises/messages.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import {
  GRADE_FLAG_MESSAGES as F,
  GRADE_MESSAGES as T,
} from "./_grade_messages.ts";

/** The widest line of the text table. */
export const TABLE_WIDTH = 80;

const NAME_WIDTH = 18;
/** The narrowest column of an exercise: a mark and one letter after it, and a space. */
const CELL_WIDTH = 3;

/** Each cell's mark in the text table, and its meaning for the legend. */
const MARK: Readonly<Record<Cell, { mark: string; text: Text }>> = {
  "done": { mark: "+", text: T.done },
  "not-yet": { mark: ".", text: T.notYet },
  "missing": { mark: "-", text: T.missing },
  "over-limit": { mark: "!", text: T.overLimit },
  "copy": { mark: "c", text: T.copy },
};

/** The mark after a cell whose prediction's outcome was revealed. */
const REVEALED = "r";

/** The mark after a cell whose prediction was made after hints were shown. */
const HINTED = "h";

/** A row's mark for exercise `n`: the cell's, then h and r in the order they happened. */
function markOf(row: Row, n: number): string {
  return MARK[row.cells[n]].mark +
    (row.hinted.includes(n) ? HINTED : "") +
    (row.revealed.includes(n) ? REVEALED : "");
}

/** A first check as the table shows it: UTC, to the second. */
function shownTime(time: string | null): string | null {
  if (time === null) return null;
  const at = Date.parse(time);
  return Number.isNaN(at)
    ? null
    : new Date(at).toISOString().slice(0, 19).replace("T", " ");
}

/** A mode as four octal digits. */
function octal(mode: number): string {
  return mode.toString(8).padStart(4, "0");
}

/** One flag, in words; `grade` gives the course and code it is about. */
export function flagText(flag: Flag, grade: ClassGrade): Text {
  switch (flag.kind) {
    case "malformed":
      return F.malformed(flag.reason);
    case "hand-made-name":
      return F.handMadeName(flag.reason);
    case "identical":
      return F.identical(flag.of);
    case "same-variant":
      return F.sameVariant(flag.of);
    case "duplicate-name":
      return F.duplicateName(flag.others);
    case "look-alike-name":
      return F.lookAlikeName(flag.others, flag.letters);
    case "owner": {
      const parts: Text[] = [];
      if (flag.owner !== flag.uid) {
        parts.push(F.foreignOwner(flag.owner, flag.uid));
      }
      if (flag.mode !== null) parts.push(F.writable(octal(flag.mode)));
      return {
        en: parts.map((p) => p.en).join("; "),
        zh: parts.map((p) => p.zh).join("；"),
      };
    }
    case "edited":
      return F.edited;
    case "older-format":
      return F.olderFormat(flag.version);
    case "other-version":
      return F.otherVersion(flag.version);
    case "other-course":
      if (flag.id === BUILTIN_COURSE_ID && grade.course !== BUILTIN_COURSE_ID) {
        return F.builtinCourse;
      }
      if (flag.id !== grade.course || flag.done === null) {
        return F.otherCourse(flag.id, flag.code);
      }
      return F.otherCode(flag.code, flag.done, grade.exercises.length);
    case "not-in-course":
      return F.notInCourse(flag.exercises, flag.more);
    case "revealed":
      return F.revealed(flag.exercises, flag.older);
    case "copy":
      return F.copy(flag.exercise, flag.of);
  }
}

/**
 * One flag as a code, the same in every language, for CSV:
 * `kind(detail)`, files joined by `|`.
 */
export function flagCode(flag: Flag): string {
  const files = (f: string[]) => f.join("|");
  switch (flag.kind) {
    case "malformed":
      // Why, in the CSV's own language (its headers are English); a `;`
      // would read as the end of this flag, so it is a `,` here.
      return `malformed(${say(flag.reason, "en").replaceAll(";", ",")})`;
    case "hand-made-name":
      return "hand-made-name";
    case "identical":
    case "same-variant":
      return `${flag.kind}(${files(flag.of)})`;
    case "duplicate-name":
      return `duplicate-name(${files(flag.others)})`;
    case "look-alike-name":
      return `look-alike-name(${files(flag.others)}${
        flag.letters.length > 0 ? `,letters=${flag.letters.join("|")}` : ""
      })`;
    case "owner":
      return `owner(uid=${flag.owner},named=${flag.uid ?? "none"}${
        flag.mode === null ? "" : `,mode=${octal(flag.mode)}`
      })`;
    case "edited":
      return "edited";
    case "older-format":
      return `older-format(${flag.version})`;
    case "other-version":
      return `other-version(${flag.version})`;
    case "other-course":
      return `other-course(id=${flag.id},code=${flag.code ?? "none"}${
        flag.done === null ? "" : `,done=${flag.done}`
      })`;
    case "not-in-course":
      return `not-in-course(${files(flag.exercises)}${
        flag.more > 0 ? `|+${flag.more}` : ""
      })`;
    case "revealed":
      return `revealed(${flag.exercises.join("|")})`;
    case "copy":
      return `copy(${flag.exercise}:${files(flag.of)})`;
  }
}

/** `text` cut to `width` columns (with `…`), then padded to it. */
function fit(text: string, width: number): string {
  let out = displayWidth(text) <= width ? text : "";
  if (out === "") {
    for (const char of text) {
      if (displayWidth(out + char) > width - 1) {
        out += "…";
        break;
      }
      out += char;
    }
  }
  return out + " ".repeat(Math.max(0, width - displayWidth(out)));
}

/** A row's total as the table shows it: `3/17`, and `(8)` done under its own code. */
function totalCell(row: Row, of: number): string {
  return `${row.total}/${of}` +
    (row.ownTotal === null ? "" : ` (${row.ownTotal})`);
}

/** The table, legend and flags, each line at most {@linkcode TABLE_WIDTH} columns. */
export function gradeTable(
  grade: ClassGrade,
  lang: Lang,
  code: string | null,
): string[] {
  const out: string[] = [];
  const push = (line: string) => out.push(...wrap(line, TABLE_WIDTH));
  const of = grade.exercises.length;
  push(say(T.head(grade.rows.length, grade.notRerun.length > 0), lang));
  push(say(T.variants(code), lang));
  out.push("");
  // The totals' column is as wide as its widest cell; the exercises fill the rest.
  const totalWidth = Math.max(
    displayWidth(say(T.total, lang)),
    ...grade.rows.filter((r) => r.total !== null).map((r) =>
      totalCell(r, of).length
    ),
  );
  // A column is as wide as its widest mark needs (".hr"), with a space.
  const cellWidth = Math.max(
    CELL_WIDTH,
    ...grade.rows.flatMap((r) =>
      grade.exercises.filter((n) => r.cells[n] !== undefined).map((n) =>
        markOf(r, n).length + 1
      )
    ),
  );
  const perBlock = Math.max(
    1,
    Math.floor((TABLE_WIDTH - NAME_WIDTH - 2 - totalWidth) / cellWidth),
  );
  const blocks: number[][] = [];
  for (let i = 0; i < of; i += perBlock) {
    blocks.push(grade.exercises.slice(i, i + perBlock));
  }
  if (blocks.length === 0) blocks.push([]);
  // Where names repeat, or look the same once cut to the column, each of
  // those rows says which file it came from.
  const shownName = (r: Row) =>
    fit(visibleText(r.name ?? basename(r.file)), NAME_WIDTH);
  const counts = new Map<string, number>();
  const tally = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const r of grade.rows) {
    if (r.name === null) continue;
    tally(`key:${nameKey(r.name)}`);
    tally(`shown:${shownName(r)}`);
  }
  const repeated = (r: Row) =>
    r.name !== null &&
    (counts.get(`key:${nameKey(r.name)}`)! > 1 ||
      counts.get(`shown:${shownName(r)}`)! > 1);
  blocks.forEach((block, b) => {
    const last = b === blocks.length - 1;
    if (b > 0) {
      out.push("");
      out.push(say(T.continued(block[0], block.at(-1)!), lang));
    }
    const cols = (f: (n: number) => string) =>
      block.map((n) => f(n).padStart(cellWidth)).join("");
    out.push(
      (fit(say(T.student, lang), NAME_WIDTH) + cols(String) +
        (last ? "  " + say(T.total, lang) : "")).trimEnd(),
    );
    for (const row of grade.rows) {
      const name = shownName(row);
      if (row.total === null) {
        out.push(`${name}   ${say(T.notGraded, lang)}`);
        continue;
      }
      out.push(
        name + cols((n) => markOf(row, n)) +
          (last ? `  ${totalCell(row, of)}` : ""),
      );
      if (repeated(row)) push(say(T.file(row.file), lang));
      // Work under another code is scored (n) beside the total: which code.
      if (row.ownTotal !== null) push(say(T.codeUsed(row.code ?? null), lang));
    }
    out.push(
      fit(say(T.perExercise, lang), NAME_WIDTH) +
        cols((n) => String(grade.perExercise[n])),
    );
  });
  out.push("");
  push(
    CELLS.map((c) => `${MARK[c].mark} ${say(MARK[c].text, lang)}`).join(
      "   ",
    ),
  );
  if (grade.rows.some((r) => r.hinted.length > 0)) {
    push(say(T.hintedMark, lang));
  }
  if (grade.rows.some((r) => r.revealed.length > 0)) {
    push(say(T.revealedMark, lang));
  }
  if (grade.rows.some((r) => r.ownTotal !== null)) push(say(T.ownTotal, lang));
  if (grade.identicalCountedOnce) push(say(T.countedOnce, lang));
  for (const n of grade.notRerun) push(say(notRerun(n), lang));
  out.push("");
  const flagged = grade.rows.filter((r) => r.flags.length > 0);
  if (flagged.length === 0) {
    out.push(say(T.noFlags, lang));
    return out;
  }
  out.push(say(T.flags, lang));
  if (grade.builtinHandIns > 0) {
    push(say(T.builtinHandIns(grade.builtinHandIns, grade.course), lang));
  }
  for (const row of flagged) {
    for (const flag of row.flags) {
      push(
        `  ${label(row, visibleText)}${say(T.colon, lang)}${
          say(flagText(flag, grade), lang)
        }`,
      );
    }
  }
  out.push(...orderLines(grade, lang));
  return out;
}

/** The widest time the order shows: `2026-03-02 10:14:05`. */
const TIME_WIDTH = 19;

/** The order of each flagged group, under the flags: who checked each exercise first. */
function orderLines(grade: ClassGrade, lang: Lang): string[] {
  if (grade.order.length === 0) return [];
  const out = [""];
  out.push(...wrap(say(T.order, lang), TABLE_WIDTH));
  for (const block of grade.order) {
    out.push(say(T.orderExercise(block.exercise), lang));
    for (const { file, first } of block.handIns) {
      const time = shownTime(first) ?? say(T.notRecorded, lang);
      const pad = " ".repeat(Math.max(0, TIME_WIDTH - displayWidth(time)));
      out.push(`    ${time}${pad}  ${file}`);
    }
  }
  return out;
}

/** What grade did NOT do for an exercise judged from a ledger copy: said plainly. */
function notRerun(n: number): Text {
  return T.notRerun(n, SESSION_NOT_RERUN, LEDGER_NOT_AGENT);
}

/**
 * The same columns as the table, as one JSON value, the same in every
 * language: cells and flags by code, each flag's words in both languages.
 */
export function gradeJson(grade: ClassGrade): unknown {
  return {
    course: grade.course,
    exercises: grade.exercises,
    students: grade.rows.map((row) => ({
      file: row.file,
      name: row.name,
      graded: row.total !== null,
      code: row.code ?? null,
      cells: Object.fromEntries(
        grade.exercises.filter((n) => row.cells[n] !== undefined).map((
          n,
        ) => [String(n), row.cells[n]]),
      ),
      revealed: row.revealed,
      hintedBeforeGuess: row.hinted,
      first: Object.fromEntries(
        grade.exercises.filter((n) => row.first[n] !== undefined).map((
          n,
        ) => [String(n), row.first[n]]),
      ),
      total: row.total,
      ownCodeTotal: row.ownTotal,
      flags: row.flags.map((f) => ({
        kind: f.kind,
        code: flagCode(f),
        message: flagText(f, grade),
      })),
    })),
    perExercise: Object.fromEntries(
      grade.exercises.map((n) => [String(n), grade.perExercise[n]]),
    ),
    identicalCountedOnce: grade.identicalCountedOnce,
    order: grade.order,
    builtinHandIns: grade.builtinHandIns,
    sessionNotRerun: Object.fromEntries(
      grade.notRerun.map((n) => [String(n), notRerun(n)]),
    ),
  };
}

/**
 * A CSV cell: always quoted; a cell a spreadsheet would read as a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'`
 * in front, so it stays text.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A month as a spreadsheet reads it in a date: `MAR`, `March`. */
const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

/**
 * A text a spreadsheet would turn into a value when it opens the CSV,
 * quotes or not: a number (`0042` loses its zeros, `1e5` is 100000), a
 * date or time (`3-1`, `MAR-26`, `2026/03`, `9:30`) or TRUE/FALSE.
 */
const READS_AS_VALUE = new RegExp(
  [
    "^[+-]?[\\d.,]*\\d[\\d.,]*(?:e[+-]?\\d+)?%?$",
    `^(?:\\d+|${MONTH})(?:[-/.: ](?:\\d+|${MONTH})){1,2}(?: ?[ap]m?)?$`,
    "^(?:true|false)$",
  ].join("|"),
  "i",
);

/**
 * A CSV cell of someone's text (a file name, a student's name, a course
 * code): as {@linkcode csvCell}, and one a spreadsheet would turn into a
 * number or a date gets a `'` in front too, so `3-1` stays `3-1`.
 */
export function csvTextCell(value: string): string {
  return READS_AS_VALUE.test(value) && /\d|^(?:true|false)$/i.test(value)
    ? csvCell(`'${value}`)
    : csvCell(value);
}

/** Cells as a CSV line: `{ text }` is someone's text ({@linkcode csvTextCell}). */
function textLine(cells: (string | { text: string })[]): string {
  return cells.map((c) =>
    typeof c === "string" ? csvCell(c) : csvTextCell(c.text)
  )
    .join(",");
}

/** The header of an exercise judged from a ledger copy, in CSV: the same in every language. */
const CSV_NOT_RERUN = "ledger copy re-judged, session not re-run";

/**
 * The same columns as the table, as CSV lines, the same in every language:
 * the header, one line per hand-in, an empty line, and the totals. The
 * file starts with a UTF-8 byte order mark (Excel reads it as UTF-8 only
 * with one): the caller writes it, past the last guard before the
 * terminal (`Io.byteOrderMark`).
 */
export function gradeCsv(grade: ClassGrade): string[] {
  const line = (cells: string[]) => cells.map(csvCell).join(",");
  // Someone's text, never a value: a spreadsheet keeps `3-1` as typed.
  const text = (value: string) => ({ text: value });
  const rows = grade.rows.map((row: Row) =>
    textLine([
      text(row.file),
      // A name shows what it holds, invisible characters too.
      text(row.name === null ? "" : visibleText(row.name)),
      ...grade.exercises.map((n) => row.cells[n] ?? ""),
      row.total === null ? "" : String(row.total),
      row.ownTotal === null ? "" : String(row.ownTotal),
      text(row.code === undefined ? "" : row.code ?? "none"),
      row.revealed.join(" "),
      row.hinted.join(" "),
      grade.exercises.filter((n) => row.first[n] != null).map((n) =>
        `${n}=${row.first[n]}`
      ).join(" "),
      row.flags.map(flagCode).join("; "),
    ])
  );
  const header = line([
    "file",
    "student",
    ...grade.exercises.map((n) =>
      grade.notRerun.includes(n) ? `${n} (${CSV_NOT_RERUN})` : String(n)
    ),
    "total",
    "own code total",
    "code used",
    "revealed",
    "hints before guess",
    "first checked",
    "flags",
  ]);
  return [
    header,
    ...rows,
    "",
    line([
      "",
      "done per exercise",
      ...grade.exercises.map((n) => String(grade.perExercise[n])),
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]),
  ];
}
