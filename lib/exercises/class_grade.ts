/**
 * A whole class graded at once: every hand-in read strictly, every answer
 * re-run against its owner's variant, and a students × exercises table with
 * totals, flags for what a teacher must look at (a duplicate name, a copy, a
 * hand-in from another version or course, one edited after hand-in), and
 * every file that could not be graded named with its reason.
 *
 * One hand-in is held at a time: after grading, a student keeps only a
 * verdict and a digest per answer, so forty students cost what one does.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { isPlainRecord } from "../base/json.ts";
import { parseJsonLikePython } from "../base/json.ts";
import type { Text } from "../base/i18n.ts";
import { MalformedHandIn, readHandIn } from "./handin.ts";
import { nameKey } from "./student.ts";
import type { ExerciseParams } from "./params.ts";
import { paramsFor } from "./variants.ts";

/** What became of one answer. */
export type Cell = "done" | "not-yet" | "missing" | "over-limit" | "copy";

/** The cells, in the order a table shows them. */
export const CELLS: readonly Cell[] = [
  "done",
  "not-yet",
  "missing",
  "over-limit",
  "copy",
];

/** Something a teacher should look at, about one hand-in. */
export type Flag =
  | { kind: "duplicate-name"; others: string[] }
  | { kind: "copy"; exercise: number; of: string[] } // the owners' files
  | { kind: "other-version"; version: string }
  | { kind: "other-course"; id: string; code: string | null }
  | { kind: "edited" }
  | { kind: "not-in-course"; exercises: string[]; more: number } // the first few, and how many more
  | { kind: "malformed"; reason: Text };

/** One hand-in's row. */
export interface Row {
  /** The file it came from (`-` for stdin). */
  file: string;
  /** The student's name, or null when the file could not be read as a hand-in. */
  name: string | null;
  /** By exercise number; empty for a malformed hand-in. */
  cells: Record<number, Cell>;
  /** Exercises done, or null for a malformed hand-in. */
  total: number | null;
  /** What to look at. */
  flags: Flag[];
}

/** The class table. */
export interface ClassGrade {
  /** The exercise numbers, in order. */
  exercises: number[];
  /** One row per file, in the order given. */
  rows: Row[];
  /** Done per exercise, over the hand-ins that could be graded. */
  perExercise: Record<number, number>;
  /** The exercises judged from a ledger copy: re-judged, their session never re-run. */
  notRerun: number[];
}

/** An exercise as grading needs it. */
export interface GradedExercise {
  /** Its number (its place in the course). */
  n: number;
  /** Its stable name: the key of its answer in a hand-in. */
  slug: string;
  /** Predictions have one right answer: identical ones are no sign of a copy. */
  kind: "script" | "prediction";
  /** `ledger`: the answer is a ledger copy, re-judged; the session is not re-run. */
  judged?: "ledger";
}

/** Judge one answer: done, or over a cap. */
export type JudgeOne<X extends GradedExercise> = (
  exercise: X,
  answer: string,
  params: ExerciseParams,
) => Promise<{ done: boolean; overLimit: boolean }>;

/** One file to grade: its label, and its text (null when over the size cap). */
export interface Source {
  /** The label shown (a file name, or `-` for stdin). */
  file: string;
  /** Read the file, bounded; null when it is larger than the cap. */
  read(): Promise<string | null>;
  /** Set when the source is not a hand-in at all (a folder): why. */
  problem?: Text;
}

/** Whose course grading is for. */
export interface Expected {
  /** The guardlab version doing the grading. */
  version: string;
  /** The course id. */
  courseId: string;
  /** The teacher's course code (null: fixed values). */
  code: string | null;
  /** Too large, in bytes, for the reason line. */
  maxBytes: number;
}

/** One answer's form for comparing: each line's JSON in one spelling, blank lines dropped. */
function answerKey(answer: string): string {
  const lines = answer.split("\n").map((l) => l.trim()).filter((l) => l !== "")
    .map((line) => {
      try {
        return canonical(parseJsonLikePython(line));
      } catch {
        return line;
      }
    });
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainRecord(value)) {
    return `{${
      Object.keys(value).sort().map((k) =>
        `${JSON.stringify(k)}:${canonical(value[k])}`
      ).join(",")
    }}`;
  }
  // 1.0 and 1 are one number.
  return JSON.stringify(value);
}

/**
 * Grade every source against `exercises`, one hand-in at a time, then flag
 * duplicate names and copies across the class.
 */
export async function gradeClass<X extends GradedExercise>(
  sources: Iterable<Source> | AsyncIterable<Source>,
  exercises: readonly X[],
  judgeOne: JudgeOne<X>,
  expected: Expected,
): Promise<ClassGrade> {
  const rows: Row[] = [];
  // Per exercise: answer key → the rows that handed it in.
  const answers = new Map<number, Map<string, Row[]>>();
  const known = new Set(exercises.map((x) => x.slug));
  for await (const source of sources) {
    const text = source.problem === undefined ? await source.read() : "";
    const row: Row = {
      file: source.file,
      name: null,
      cells: {},
      total: null,
      flags: [],
    };
    rows.push(row);
    if (source.problem !== undefined) {
      row.flags.push({ kind: "malformed", reason: source.problem });
      continue;
    }
    if (text === null) {
      row.flags.push({
        kind: "malformed",
        reason: {
          en: `larger than ${expected.maxBytes} bytes`,
          zh: `超过 ${expected.maxBytes} 字节`,
        },
      });
      continue;
    }
    let read;
    try {
      read = readHandIn(text);
    } catch (error) {
      if (!(error instanceof MalformedHandIn)) throw error;
      row.flags.push({ kind: "malformed", reason: error.text });
      continue;
    }
    const { handIn, intact } = read;
    row.name = handIn.name;
    if (handIn.guardlab !== expected.version) {
      row.flags.push({ kind: "other-version", version: handIn.guardlab });
    }
    if (
      handIn.course.id !== expected.courseId ||
      handIn.course.code !== expected.code
    ) {
      row.flags.push({ kind: "other-course", ...handIn.course });
    }
    if (!intact) row.flags.push({ kind: "edited" });
    const strangers = Object.keys(handIn.exercises).filter((n) =>
      !known.has(n)
    );
    if (strangers.length > 0) {
      row.flags.push({
        kind: "not-in-course",
        exercises: strangers.slice(0, 5),
        more: Math.max(0, strangers.length - 5),
      });
    }
    for (const x of exercises) {
      const entry = Object.hasOwn(handIn.exercises, x.slug)
        ? handIn.exercises[x.slug]
        : undefined;
      if (entry === undefined) {
        row.cells[x.n] = "missing";
        continue;
      }
      // Re-execution against this student's own values: the file's claims count for nothing.
      const params = paramsFor(expected.code, handIn.name, x.slug);
      const j = await judgeOne(x, entry.answer, params);
      row.cells[x.n] = j.overLimit ? "over-limit" : j.done ? "done" : "not-yet";
      if (x.kind === "script" && !j.overLimit) {
        const byKey = answers.get(x.n) ?? new Map<string, Row[]>();
        answers.set(x.n, byKey);
        const key = answerKey(entry.answer);
        byKey.set(key, [...(byKey.get(key) ?? []), row]);
      }
    }
  }
  flagCopies(answers);
  flagDuplicateNames(rows);
  const perExercise: Record<number, number> = {};
  for (const x of exercises) {
    perExercise[x.n] = rows.filter((r) => r.cells[x.n] === "done").length;
  }
  for (const row of rows) {
    if (row.name !== null) {
      row.total = Object.values(row.cells).filter((c) => c === "done").length;
    }
  }
  return {
    exercises: exercises.map((x) => x.n),
    rows,
    perExercise,
    notRerun: exercises.filter((x) => x.judged === "ledger").map((x) => x.n),
  };
}

/**
 * An answer identical to one that passes for its owner, yet fails for this
 * student, is a copy: the pasted file names the owner's values.
 */
function flagCopies(answers: Map<number, Map<string, Row[]>>): void {
  for (const [n, byKey] of answers) {
    for (const group of byKey.values()) {
      const owners = group.filter((r) => r.cells[n] === "done");
      if (owners.length === 0) continue;
      for (const row of group) {
        if (row.cells[n] !== "not-yet") continue;
        row.cells[n] = "copy";
        row.flags.push({
          kind: "copy",
          exercise: n,
          of: owners.filter((o) => o !== row).map((o) => o.file),
        });
      }
    }
  }
}

function flagDuplicateNames(rows: Row[]): void {
  const byName = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.name === null) continue;
    const key = nameKey(row.name);
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    for (const row of group) {
      row.flags.push({
        kind: "duplicate-name",
        others: group.filter((o) => o !== row).map((o) => o.file),
      });
    }
  }
}

/** A row's name with its file: `李雷 (li.json)`. */
export function label(row: Row): string {
  return row.name === null ? row.file : `${row.name} (${row.file})`;
}
