/**
 * What a graded class is: one row per hand-in, its cells and flags, and
 * the totals (made by `_grading.ts`, flagged across the class by
 * `_class_flags.ts`, drawn by the views).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

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
  | { kind: "malformed"; reason: Text }
  | { kind: "hand-made-name"; reason: Text } // a name config name would not store
  | { kind: "identical"; of: string[] } // the same digest, or the same answers
  | { kind: "same-variant"; of: string[] } // the same variant seed, another name or answers
  | { kind: "duplicate-name"; others: string[] }
  | { kind: "look-alike-name"; others: string[]; letters: string[] } // U+0456, ...
  | {
    kind: "owner";
    owner: number; // the file's owner
    uid: number | null; // the uid the hand-in names
    mode: number | null; // the file's mode, when others can write it
  }
  | { kind: "edited" }
  | { kind: "older-format"; version: number }
  | { kind: "other-version"; version: string }
  | {
    kind: "other-course";
    id: string;
    code: string | null;
    done: number | null; // done under its own course code, when the code differs
  }
  | { kind: "not-in-course"; exercises: string[]; more: number } // the first few, and how many more
  | { kind: "revealed"; exercises: number[]; older: boolean }
  | { kind: "copy"; exercise: number; of: string[] }; // the owners' files

/** The kinds of flag, in the order a row lists them. */
export const FLAG_ORDER: readonly Flag["kind"][] = [
  "malformed",
  "hand-made-name",
  "identical",
  "same-variant",
  "duplicate-name",
  "look-alike-name",
  "owner",
  "edited",
  "older-format",
  "other-version",
  "other-course",
  "not-in-course",
  "revealed",
  "copy",
];

/**
 * The order a row lists its flags in: by kind ({@linkcode FLAG_ORDER}), and
 * copies by exercise number (4 before 11 before 17).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { byFlagOrder, type Flag } from "./class_grade.ts";
 * const flags: Flag[] = [
 *   { kind: "copy", exercise: 11, of: ["a.json"] },
 *   { kind: "copy", exercise: 4, of: ["a.json"] },
 * ];
 * assert.deepEqual(flags.sort(byFlagOrder).map((f) => f.kind === "copy" && f.exercise), [4, 11]);
 * ```
 */
export function byFlagOrder(a: Flag, b: Flag): number {
  return FLAG_ORDER.indexOf(a.kind) - FLAG_ORDER.indexOf(b.kind) ||
    (a.kind === "copy" && b.kind === "copy" ? a.exercise - b.exercise : 0);
}

/** One hand-in's row. */
export interface Row {
  /** The file it came from (`-` for stdin), made visible. */
  file: string;
  /** The student's name, or null when the file could not be read as a hand-in. */
  name: string | null;
  /** By exercise number; empty for a malformed hand-in. */
  cells: Record<number, Cell>;
  /** The exercises whose prediction's outcome was revealed (`--reveal`). */
  revealed: number[];
  /** The predictions made after hints were shown (the hand-in's `hints_before_guess`). */
  hinted: number[];
  /** The course code the hand-in was made under (null: none); undefined when it could not be read. */
  code?: string | null;
  /** When each exercise handed in was first checked, as the hand-in says (null: not known). */
  first: Record<number, string | null>;
  /** Exercises done, or null for a malformed hand-in. */
  total: number | null;
  /** Exercises done under the hand-in's own course code, when it is not the teacher's; else null. */
  ownTotal: number | null;
  /** What to look at, in {@linkcode FLAG_ORDER}. */
  flags: Flag[];
}

/** What grading learnt of a hand-in besides its cells, for the flags across the class. */
export interface Seen {
  /** The hand-in's digest, as written. */
  readonly digest: string;
  /** The digest of its answers by exercise (null: it has none). */
  readonly answers: string | null;
  /** Its variant seed. */
  readonly variant: string | null;
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
  /** The hand-ins made for the built-in exercises while another course is graded. */
  builtinHandIns: number;
  /** For each flagged group, when each of its hand-ins first checked an exercise. */
  order: OrderBlock[];
  /** Whether some hand-ins are identical: "done per exercise" counts each such group once. */
  identicalCountedOnce: boolean;
  /** The course graded (its id). */
  course: string;
}

/**
 * The hand-ins of one flagged group (identical, one variant seed, or a copy
 * of this exercise) and when each first checked the exercise, as each
 * hand-in says, earliest first: the teacher sees who had it first, and
 * guardlab does not guess.
 */
export interface OrderBlock {
  /** The exercise number. */
  exercise: number;
  /** Each hand-in's file and its first check (null: not known), earliest first. */
  handIns: { file: string; first: string | null }[];
}

/** A row's name with its file: `李雷 (li.json)`. */
export function label(row: Row, shown: (s: string) => string): string {
  return row.name === null ? row.file : `${shown(row.name)} (${row.file})`;
}
