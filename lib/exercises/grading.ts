/**
 * Grading: handing the work in, and a whole class graded at once (the
 * hand-in file itself is `hand_in.ts`).
 *
 * A class: every hand-in read strictly, every answer re-run against its
 * owner's variant, and a students × exercises table with totals, flags for
 * what a teacher must look at (a duplicate name, a copy, a hand-in from
 * another version or course, one edited after hand-in), and every file that
 * could not be graded named with its reason. One hand-in is held at a time:
 * after grading, a student keeps only a verdict and a digest per answer, so
 * forty students cost what one does.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Text } from "../base/i18n.ts";
import { parseJsonLikePython } from "../base/json.ts";
import { inert } from "../base/terminal.ts";
import {
  assertFolderChain,
  currentUid,
  openPlainFile,
} from "../sandbox/safe_fs.ts";
import { type Place, trustedFolders } from "../sandbox/sandbox.ts";
import { scratchFolder } from "../sandbox/scratch.ts";
import type { Course } from "./course.ts";
import type { Exercise } from "./form.ts";
import {
  canonical,
  type HandedExercise,
  type HandIn,
  makeHandIn,
  MalformedHandIn,
  MAX_HAND_IN_BYTES,
  readBounded,
  readHandIn,
} from "./hand_in.ts";
import { judgeWithOwnValues } from "./judge.ts";
import { GRADING_MESSAGES as M } from "./messages.ts";
import { progressKey, readProgress } from "./progress.ts";
import {
  type ExerciseParams,
  ExerciseUsageError,
  nameKey,
  paramsFor,
  type Student,
} from "./student.ts";

/** The most hand-ins one `grade` reads: a class, with room to spare. */
export const MAX_HAND_INS = 500;

/**
 * The hand-in of the work kept at `place` in `course`, for `student` (who
 * must have a name), written by guardlab `version`; and the exercises
 * checked under another name or course code than the student's now (their
 * answers are handed in all the same: grade judges them for this student).
 */
export function handIn(
  course: Course,
  student: Student,
  place: string | Place,
  version: string,
): { handIn: HandIn; checkedAsOther: Exercise[] } {
  const { name } = student;
  if (name === undefined) throw new ExerciseUsageError(M.nameFirst);
  // A hand-in without the record would be empty: refused, not faked.
  const p = readProgress(place);
  const code = student.course ?? null;
  const checkedAsOther: Exercise[] = [];
  const exercises: Record<string, HandedExercise> = {};
  for (const x of course.exercises) {
    const key = progressKey(course.id, x.n);
    const e = p.exercises[key];
    if (e === undefined) continue;
    const as = e.as ?? { course: null, name: null };
    if (as.course !== code || as.name !== name) checkedAsOther.push(x);
    exercises[x.slug] = {
      answer: e.answer,
      passed: e.state === "done" ? e.passed ?? null : null,
      checks: e.checks ?? 0,
      hints: p.hints[key] ?? 0,
      revealed: e.revealed ?? false,
    };
  }
  return {
    handIn: makeHandIn({
      name,
      guardlab: version,
      course: { id: course.id, code },
      exercises,
    }),
    checkedAsOther,
  };
}

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

/** One file to grade: its label, and its text (null when over the size cap). */
export interface Source {
  /** The label shown (a file name, or `-` for stdin). */
  file: string;
  /** Read the file, bounded; null when it is larger than the cap. */
  read(): Promise<string | null>;
  /** Set when the source is not a hand-in at all (a folder): why. */
  problem?: Text;
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
/** What grading a class needs besides the hand-ins. */
export interface GradeRequest {
  /** The course graded. */
  readonly course: Course;
  /** The teacher's course code (null: the fixed values). */
  readonly code: string | null;
  /** The guardlab version doing the grading. */
  readonly version: string;
  /** The granted temp folder: the scratch ledgers go in it, and paths are checked from it. */
  readonly base: string;
}

/**
 * Grade every source for `request.course`, one hand-in at a time, then
 * flag duplicate names and copies across the class. Every answer is re-run
 * (a ledger copy re-judged) for its owner's own values: the file's claims
 * count for nothing.
 */
export async function grade(
  sources: Iterable<Source> | AsyncIterable<Source>,
  request: GradeRequest,
): Promise<ClassGrade> {
  const { course: { exercises }, code, base } = request;
  await using scratch = scratchFolder(base);
  const judge = (x: Exercise, answer: string, params: ExerciseParams) =>
    judgeWithOwnValues(x, answer, params, code !== null, {
      scratch: scratch.path,
      trusted: trustedFolders(base),
    });
  const rows: Row[] = [];
  // Per exercise: answer key → the rows that handed it in.
  const answers = new Map<number, Map<string, Row[]>>();
  const known = new Set(exercises.map((x) => x.slug));
  for await (const source of sources) {
    const row: Row = {
      file: source.file,
      name: null,
      cells: {},
      total: null,
      flags: [],
    };
    rows.push(row);
    const handIn = await handInOf(source, row, request);
    if (handIn === null) continue;
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
      const params = paramsFor(code, handIn.name, x.slug);
      const j = await judge(x, entry.answer, params);
      row.cells[x.n] = j.overLimit
        ? "over-limit"
        : j.passed
        ? "done"
        : "not-yet";
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
 * The hand-in `source` holds, its row named and flagged for what a teacher
 * must look at; null (the row says why) when it is not one to grade.
 */
async function handInOf(
  source: Source,
  row: Row,
  request: GradeRequest,
): Promise<HandIn | null> {
  if (source.problem !== undefined) {
    row.flags.push({ kind: "malformed", reason: source.problem });
    return null;
  }
  const text = await source.read();
  if (text === null) {
    row.flags.push({
      kind: "malformed",
      reason: M.tooLarge(MAX_HAND_IN_BYTES),
    });
    return null;
  }
  let read;
  try {
    read = readHandIn(text);
  } catch (error) {
    if (!(error instanceof MalformedHandIn)) throw error;
    row.flags.push({ kind: "malformed", reason: error.text });
    return null;
  }
  const { handIn, intact } = read;
  row.name = handIn.name;
  if (handIn.guardlab !== request.version) {
    row.flags.push({ kind: "other-version", version: handIn.guardlab });
  }
  if (
    handIn.course.id !== request.course.id ||
    handIn.course.code !== request.code
  ) {
    row.flags.push({ kind: "other-course", ...handIn.course });
  }
  if (!intact) row.flags.push({ kind: "edited" });
  return handIn;
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

/**
 * A path given to grade that names nothing: the caller says so, with the
 * path as it was typed.
 */
export class NoHandInAt extends Error {
  /** Build it for `path`. */
  constructor(readonly path: string) {
    super(`no hand-in at ${path}`);
    this.name = "NoHandInAt";
  }
}

/**
 * `text` from a file name or a course file as a table or a line shows it:
 * everything {@linkcode inert} makes visible, and the other format
 * characters too (a zero-width space, a soft hyphen, a BOM), so two file
 * names never look alike.
 */
export function visibleText(text: string): string {
  return inert(text).replace(
    /\p{Cf}/gu,
    (c) => "\\u" + c.codePointAt(0)!.toString(16).padStart(4, "0"),
  );
}

/** The hand-in piped on stdin (null when over the size cap), as a source. */
export function stdinSource(text: string | null): Source {
  return { file: "-", read: () => Promise.resolve(text) };
}

/**
 * The hand-ins named on the command line: each FILE, and each entry of each
 * FOLDER (sorted; named by the entry alone when one folder is graded),
 * opened one at a time when graded. Every path passes the sandbox's file
 * rule (no link, this user's own file), else the grade is refused; a
 * sub-folder is named, not graded. A path that names nothing throws
 * {@linkcode NoHandInAt}; more than {@linkcode MAX_HAND_INS},
 * `ExerciseUsageError`.
 */
export function handInSources(paths: string[], base: string): Source[] {
  const tops = trustedFolders(base);
  const sources: Source[] = [];
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new NoHandInAt(path);
    }
    if (info.isDirectory) {
      assertFolderChain(path, currentUid(base), tops);
      const entries = [...Deno.readDirSync(path)].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0
      );
      for (const entry of entries) {
        const file = join(path, entry.name);
        // One folder: its files by name, as the teacher knows them.
        const shown = visibleText(paths.length === 1 ? entry.name : file);
        sources.push(
          entry.isDirectory
            ? {
              file: shown,
              read: () => Promise.resolve(""),
              problem: M.folder,
            }
            : fileSource(file, tops, shown),
        );
      }
    } else sources.push(fileSource(path, tops, visibleText(path)));
    if (sources.length > MAX_HAND_INS) {
      throw new ExerciseUsageError(M.tooManyHandIns(MAX_HAND_INS));
    }
  }
  return sources;
}

function fileSource(
  path: string,
  tops: readonly string[],
  shown: string,
): Source {
  return {
    file: shown,
    async read() {
      const file = await openPlainFile(path, tops);
      return await readBounded(file.readable);
    },
  };
}
