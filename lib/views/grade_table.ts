/**
 * The class grade as a teacher reads it: a students × exercises table with
 * totals per student and per exercise, a legend, then every flag, in 80
 * columns (a course of more than 16 exercises continues in a second block,
 * and says so); and the same columns as JSON and as CSV for a spreadsheet,
 * where a cell that a spreadsheet would run as a formula is defused.
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
} from "../exercises/grading.ts";
import { type Lang, same, say, type Text } from "../base/i18n.ts";
import { LEDGER_NOT_AGENT, SESSION_NOT_RERUN } from "../exercises/messages.ts";
import { displayWidth, wrap } from "../base/terminal.ts";

/** The widest line of the text table. */
export const TABLE_WIDTH = 80;

/** Exercise columns per block: 16 × 3 columns, with the name and the total, fit 80. */
const PER_BLOCK = 17;
const NAME_WIDTH = 18;

/** Each cell's mark in the text table, and its meaning for the legend. */
const MARK: Readonly<Record<Cell, { mark: string; text: Text }>> = {
  "done": { mark: "+", text: { en: "done", zh: "完成" } },
  "not-yet": { mark: ".", text: { en: "not yet", zh: "还没有" } },
  "missing": { mark: "-", text: { en: "not handed in", zh: "没有交" } },
  "over-limit": {
    mark: "!",
    text: { en: "over the limit", zh: "超出限制" },
  },
  "copy": {
    mark: "c",
    text: { en: "a copy (see flags)", zh: "抄袭（见标记）" },
  },
};

const T = {
  head: (rows: number, copies: boolean): Text =>
    copies
      ? {
        en: `${rows} hand-in${
          rows === 1 ? "" : "s"
        }: every answer re-run here, a ledger copy only re-judged (see below)`,
        zh:
          `${rows} 份作业：每个答案都在此重新运行，账本副本只重新判定（见下文）`,
      }
      : {
        en: `${rows} hand-in${rows === 1 ? "" : "s"}, every answer re-run here`,
        zh: `${rows} 份作业，每个答案都在此重新运行`,
      },
  variants: (code: string | null): Text =>
    code
      ? {
        en: `course ${code}: each answer judged with its student's own values`,
        zh: `课程 ${code}：每个答案都按其学生自己的取值判定`,
      }
      : {
        en: "no course code: every student has the fixed values",
        zh: "没有课程代码：所有学生用同一组固定取值",
      },
  student: { en: "student", zh: "学生" },
  total: { en: "total", zh: "合计" },
  perExercise: { en: "done per exercise", zh: "每题完成人数" },
  notGraded: { en: "not graded: see below", zh: "未评分：见下文" },
  continued: (from: number, to: number): Text =>
    from === to
      ? { en: `exercise ${from} (continued):`, zh: `练习 ${from}（续）：` }
      : {
        en: `exercises ${from}-${to} (continued):`,
        zh: `练习 ${from}-${to}（续）：`,
      },
  flags: { en: "Flags:", zh: "标记：" },
  noFlags: { en: "Flags: none.", zh: "标记：无。" },
} as const;

/** One flag, in words. */
export function flagText(flag: Flag): Text {
  switch (flag.kind) {
    case "duplicate-name":
      return {
        en: `the same name as ${flag.others.join(", ")} (duplicate name)`,
        zh: `与 ${flag.others.join("、")} 同名（重名）`,
      };
    case "copy":
      return {
        en: `exercise ${flag.exercise}: identical to the passing answer in ` +
          `${flag.of.join(", ")}; it fails here (a copy)`,
        zh:
          `练习 ${flag.exercise}：与 ${flag.of.join("、")} 中通过的答案相同，` +
          "在这里不通过（抄袭）",
      };
    case "other-version":
      return {
        en: `made by guardlab ${flag.version} (graded by this version)`,
        zh: `由 guardlab ${flag.version} 生成（已用本版本评分）`,
      };
    case "other-course":
      return {
        en: `from course ${flag.id}, code ${
          flag.code ?? "(none)"
        } (graded with this course's values)`,
        zh: `来自课程 ${flag.id}，代码 ${
          flag.code ?? "（无）"
        }（已按本课程的取值评分）`,
      };
    case "edited":
      return {
        en: "changed after hand-in: the digest does not match " +
          "(a digest shows accidents, it is not a signature)",
        zh: "交出后被改动过：摘要不符（摘要只能发现意外改动，不是签名）",
      };
    case "not-in-course": {
      const more: Text = flag.more > 0
        ? { en: ` and ${flag.more} more`, zh: ` 等另外 ${flag.more} 个` }
        : same("");
      return {
        en: `exercises not in this course, not graded: ${
          flag.exercises.join(", ")
        }${more.en}`,
        zh: `不属于本课程的练习，未评分：${
          flag.exercises.join("、")
        }${more.zh}`,
      };
    }
    case "malformed":
      return {
        en: `not graded: ${flag.reason.en}`,
        zh: `未评分：${flag.reason.zh}`,
      };
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

/** The table, legend and flags, each line at most {@linkcode TABLE_WIDTH} columns. */
export function gradeTable(
  grade: ClassGrade,
  lang: Lang,
  code: string | null,
): string[] {
  const out: string[] = [];
  const push = (line: string) => out.push(...wrap(line, TABLE_WIDTH));
  push(say(T.head(grade.rows.length, grade.notRerun.length > 0), lang));
  push(say(T.variants(code), lang));
  out.push("");
  const blocks: number[][] = [];
  for (let i = 0; i < grade.exercises.length; i += PER_BLOCK) {
    blocks.push(grade.exercises.slice(i, i + PER_BLOCK));
  }
  if (blocks.length === 0) blocks.push([]);
  blocks.forEach((block, b) => {
    const last = b === blocks.length - 1;
    if (b > 0) {
      out.push("");
      out.push(say(T.continued(block[0], block.at(-1)!), lang));
    }
    const cols = (f: (n: number) => string) =>
      block.map((n) => f(n).padStart(3)).join("");
    out.push(
      (fit(say(T.student, lang), NAME_WIDTH) + cols(String) +
        (last ? "  " + say(T.total, lang) : "")).trimEnd(),
    );
    for (const row of grade.rows) {
      const name = fit(row.name ?? basename(row.file), NAME_WIDTH);
      if (row.total === null) {
        out.push(`${name}   ${say(T.notGraded, lang)}`);
        continue;
      }
      out.push(
        name + cols((n) => MARK[row.cells[n]].mark) +
          (last ? `  ${row.total}/${grade.exercises.length}` : ""),
      );
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
  for (const line of notRerunLines(grade)) push(say(line, lang));
  out.push("");
  const flagged = grade.rows.filter((r) => r.flags.length > 0);
  if (flagged.length === 0) {
    out.push(say(T.noFlags, lang));
    return out;
  }
  out.push(say(T.flags, lang));
  for (const row of flagged) {
    for (const flag of row.flags) {
      push(`  ${label(row)}${say(COLON, lang)}${say(flagText(flag), lang)}`);
    }
  }
  return out;
}

const COLON: Text = { en: ": ", zh: "：" };

/** What grade did NOT do for an exercise judged from a ledger copy: said plainly. */
function notRerun(n: number): Text {
  return {
    en: `exercise ${n}: ${SESSION_NOT_RERUN.en}. ${LEDGER_NOT_AGENT.en}`,
    zh: `练习 ${n}：${SESSION_NOT_RERUN.zh}。${LEDGER_NOT_AGENT.zh}`,
  };
}

function notRerunLines(grade: ClassGrade): Text[] {
  return grade.notRerun.map(notRerun);
}

/** The same columns as the table, as one JSON value. */
export function gradeJson(grade: ClassGrade, lang: Lang): unknown {
  return {
    exercises: grade.exercises,
    students: grade.rows.map((row) => ({
      file: row.file,
      name: row.name,
      graded: row.total !== null,
      cells: Object.fromEntries(
        grade.exercises.filter((n) => row.cells[n] !== undefined).map((
          n,
        ) => [String(n), row.cells[n]]),
      ),
      total: row.total,
      flags: row.flags.map((f) => ({
        kind: f.kind,
        message: say(flagText(f), lang),
      })),
    })),
    perExercise: Object.fromEntries(
      grade.exercises.map((n) => [String(n), grade.perExercise[n]]),
    ),
    sessionNotRerun: Object.fromEntries(
      grade.notRerun.map((n) => [String(n), say(notRerun(n), lang)]),
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

/** The same columns as the table, as CSV lines (a header, one per hand-in, the totals). */
export function gradeCsv(grade: ClassGrade, lang: Lang): string[] {
  const line = (cells: string[]) => cells.map(csvCell).join(",");
  const rows = grade.rows.map((row: Row) =>
    line([
      row.file,
      row.name ?? "",
      ...grade.exercises.map((n) => row.cells[n] ?? ""),
      row.total === null ? "" : String(row.total),
      row.flags.map((f) => say(flagText(f), lang)).join("; "),
    ])
  );
  return [
    line([
      "file",
      "student",
      ...grade.exercises.map((n) =>
        grade.notRerun.includes(n)
          ? `${n} (${say(SESSION_NOT_RERUN, lang)})`
          : String(n)
      ),
      "total",
      "flags",
    ]),
    ...rows,
    line([
      "",
      say(T.perExercise, lang),
      ...grade.exercises.map((n) => String(grade.perExercise[n])),
      "",
      "",
    ]),
  ];
}
