/**
 * Hand-ins as files: the one a student writes (`exercise hand-in --output
 * FILE`), and the ones a teacher grades (each FILE, each file of a FOLDER,
 * or stdin), with the owner and mode each file has on disk.
 *
 * Writing: FILE must be new, in a folder of the student's own that no one
 * else can write (never the shared `/tmp` itself); it is created
 * exclusively (`O_CREAT|O_EXCL`, so neither a file nor a link already
 * there is ever opened) with mode 0600. Anything else is refused with one
 * line, and nothing is written.
 *
 * Reading: no link is followed and every folder on the way is checked, as
 * for every file guardlab reads; a hand-in may belong to another user (the
 * student who wrote it into the teacher's drop folder): its owner is read
 * from the open file, for grade to compare with the uid the hand-in names.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Text } from "../base/i18n.ts";
import { oddLetters } from "../base/fold.ts";
import { inert } from "../base/terminal.ts";
import {
  assertFolderChain,
  assertGranted,
  currentUid,
  privateFolderProblem,
  PROBLEM,
  systemRefusal,
  UnsafePath,
} from "../sandbox/safe_fs.ts";
import {
  assertOpenedAsChecked,
  checkBeforeOpen,
  MAX_INPUT_FILE_BYTES,
  replacedRefusal,
} from "../sandbox/plain_file.ts";
import { readUpToSync } from "../sandbox/read_bounded.ts";
import { trustedFolders } from "../sandbox/sandbox.ts";
import { MAX_HAND_IN_BYTES } from "./hand_in.ts";
import { GRADING_MESSAGES as M } from "./messages.ts";
import { ExerciseUsageError } from "./student.ts";
import {
  HAND_IN_FILE_MESSAGES as W,
  RESULTS_FILE_MESSAGES,
} from "./_file_messages.ts";

/** The most hand-ins one `grade` reads: a class, with room to spare. */
export const MAX_HAND_INS = 500;

/** A hand-in's text as read, and the file's owner and mode (null: stdin, or no owners here). */
export interface SourceText {
  /** The text; null when larger than the cap. */
  text: string | null;
  /** The uid that owns the file. */
  owner: number | null;
  /** The file's permission bits. */
  mode: number | null;
}

/** One file to grade: its label, and how to read it. */
export interface Source {
  /** The label shown (a file name, or `-` for stdin). */
  file: string;
  /** Read the file, bounded. */
  read(): Promise<SourceText>;
  /** Set when the source is not a hand-in at all (a folder): why. */
  problem?: Text;
}

/**
 * `text` from a file name or a course file as a table or a line shows it:
 * everything {@linkcode inert} makes visible, and every other code point
 * that shows nothing (a zero-width space, a soft hyphen, a BOM, U+034F, a
 * variation selector, a Hangul filler, a tag), and every letter that
 * passes for another in its word (`oddLetters`: a Cyrillic і among Latin
 * letters), so two names never look alike.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleText } from "./hand_in_files.ts";
 * assert.equal(visibleText("李\u034f雷"), "李\\u034f雷");
 * assert.equal(visibleText("Li Le\u0456"), "Li Le\\u0456");
 * ```
 */
export function visibleText(text: string): string {
  const odd = new Set(oddLetters(text));
  const shown = (c: string) =>
    `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`;
  return inert(text).replace(
    /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu,
    shown,
  ).replace(/\p{L}/gu, (c) => odd.has(c) ? shown(c) : c);
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

/** The hand-in piped on stdin (null when over the size cap), as a source. */
export function stdinSource(text: string | null): Source {
  return {
    file: "-",
    read: () => Promise.resolve({ text, owner: null, mode: null }),
  };
}

/**
 * The hand-ins named on the command line: each FILE, and each entry of each
 * FOLDER (sorted; named by the entry alone when one folder is graded),
 * opened one at a time when graded. No link is followed and every folder on
 * the way must be safe, else the grade is refused; a file may be another
 * user's (its owner is shown when it is not the student's); a sub-folder is
 * named, not graded. A path that names nothing throws
 * {@linkcode NoHandInAt}; more than {@linkcode MAX_HAND_INS},
 * `ExerciseUsageError`, before a name past the bound is read.
 * `seams.readDir` lists a folder in place of `Deno.readDirSync` (tests).
 */
export function handInSources(
  paths: string[],
  base: string,
  seams: { readDir?: (path: string) => Iterable<Deno.DirEntry> } = {},
): Source[] {
  const tops = trustedFolders(base);
  const sources: Source[] = [];
  const tooMany = () => new ExerciseUsageError(M.tooManyHandIns(MAX_HAND_INS));
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
      const entries: Deno.DirEntry[] = [];
      // Counted as they come: a folder others can write may hold millions
      // of names, and a listing past the bound is never read.
      for (const entry of (seams.readDir ?? Deno.readDirSync)(path)) {
        if (sources.length + entries.length === MAX_HAND_INS) throw tooMany();
        entries.push(entry);
      }
      entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      for (const entry of entries) {
        const file = join(path, entry.name);
        // One folder: its files by name, as the teacher knows them.
        const shown = visibleText(paths.length === 1 ? entry.name : file);
        const problem = entry.isDirectory
          ? M.folder
          : unnamable(entry.name, file)
          ? NOT_UTF8
          : null;
        sources.push(
          problem !== null
            ? {
              file: shown,
              read: () =>
                Promise.resolve({ text: "", owner: null, mode: null }),
              problem,
            }
            : fileSource(file, tops, shown),
        );
      }
    } else sources.push(fileSource(path, tops, visibleText(path)));
    if (sources.length > MAX_HAND_INS) throw tooMany();
  }
  return sources;
}

/** Why a name listed cannot be opened: its bytes are not UTF-8. */
const NOT_UTF8: Text = {
  en: "its name is not UTF-8, so guardlab cannot open it by name; rename it",
  zh: "它的名字不是 UTF-8，guardlab 无法按名字打开它；请给它改名",
};

/**
 * Whether the entry `name` of a listing names nothing at `file`: a name
 * whose bytes are not UTF-8 is listed with U+FFFD in their place, and no
 * file has that name. A student can name a hand-in so; it is a row that
 * says why, not a refusal of the whole class's grade.
 */
function unnamable(name: string, file: string): boolean {
  if (!name.includes("\ufffd")) return false;
  try {
    Deno.lstatSync(file);
    return false;
  } catch (error) {
    return error instanceof Deno.errors.NotFound;
  }
}

function fileSource(
  path: string,
  tops: readonly string[],
  shown: string,
): Source {
  return {
    file: shown,
    // A refusal is the promise's, as it was when the open was awaited.
    read: () => new Promise((done) => done(readHandInFile(path, tops))),
  };
}

/**
 * The hand-in at `path`, a file that may be another user's (a student's,
 * in the teacher's drop folder), with the checks every file gets (no link,
 * safe folders, a plain file with one name) and an open that cannot wait.
 * In a drop folder others may write, a student owns the name of their
 * hand-in and can swap it for a FIFO, or a link to one, between the check
 * and the open; a plain open of a FIFO waits for a writer that never
 * comes, and the whole class's grade with it. Opened `O_NONBLOCK`, the
 * open returns at once, and what it opened must be the file checked (same
 * device and inode), else the hand-in is refused as replaced. The owner
 * and mode are the open file's; a text over {@linkcode MAX_HAND_IN_BYTES}
 * is null, and not read. `seams.beforeOpen` lets a test act between the
 * check and the open, as the student would.
 */
export function readHandInFile(
  path: string,
  tops: readonly string[],
  seams: { beforeOpen?: () => void } = {},
): SourceText {
  let place;
  try {
    place = checkBeforeOpen(path, tops, { anyOwner: true });
  } catch (error) {
    // Named when the folder was listed: gone, or a folder, since.
    if (error instanceof Deno.errors.NotFound) {
      throw new UnsafePath(path, PROBLEM.missing);
    }
    if (error instanceof Deno.errors.IsADirectory) throw replacedRefusal(path);
    throw error;
  }
  const { abs, checked } = place;
  seams.beforeOpen?.();
  let fd: number;
  try {
    fd = openSync(
      abs,
      constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0),
    );
  } catch (error) {
    throw openFailure(error, path);
  }
  try {
    const opened = fstatSync(fd);
    assertOpenedAsChecked(path, opened, checked, MAX_INPUT_FILE_BYTES);
    const owner = opened.uid;
    const mode = opened.mode & 0o7777;
    if (opened.size > MAX_HAND_IN_BYTES) return { text: null, owner, mode };
    const { bytes, more } = readUpToSync(
      (b) => readSync(fd, b, 0, b.length, null),
      MAX_HAND_IN_BYTES,
      opened.size,
    );
    return { text: more ? null : new TextDecoder().decode(bytes), owner, mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * What a failed open of `path` throws, in one line with the name shown
 * inert (a student chose it).
 */
function openFailure(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EACCES" || code === "EPERM") {
    return new UnsafePath(path, PROBLEM.notReadable);
  }
  if (code === "ENOENT") return new UnsafePath(path, PROBLEM.missing);
  // The student's write lease (F_SETLEASE) on their own file: an open
  // that may wait fails at once instead of blocking the class's grade
  // for the system's lease-break time.
  if (code === "EAGAIN" || code === "EWOULDBLOCK") {
    return new UnsafePath(path, PROBLEM.leased, PROBLEM.leasedRemedy);
  }
  // A socket or a link where the plain file was: swapped since the check.
  if (code === "ENXIO" || code === "ELOOP") return replacedRefusal(path);
  return systemRefusal(error, path) ?? error;
}

/**
 * Write `text` as the new hand-in file `path`, for the student of `base`:
 * the folder must be theirs and writable by no one else (checked up from
 * the grant, no link on the way), the file must not exist, and it is made
 * exclusively with mode 0600. Throws `UnsafePath` (exit 4, one line) for
 * anything else; nothing is written then.
 */
export function writeHandInFile(
  path: string,
  text: string,
  base: string,
): string {
  return writeNewFile(path, text, base, W);
}

/**
 * Write `text` as the new results file `path` (`grade --format`), by the
 * rules of {@linkcode writeHandInFile}: a new file, mode 0600, in a folder
 * of the user's own; a link, a FIFO or a file that is there is refused.
 */
export function writeResultsFile(
  path: string,
  text: string,
  base: string,
): string {
  return writeNewFile(path, text, base, RESULTS_FILE_MESSAGES);
}

/** What a refusal of a new file says: the folder to use, and that the file is there. */
interface NewFileWords {
  readonly ownFolder: Text;
  readonly exists: Text;
  readonly newName: Text;
}

function writeNewFile(
  path: string,
  text: string,
  base: string,
  words: NewFileWords,
): string {
  const W = words;
  const abs = isAbsolute(path) ? path : resolve(path);
  assertGranted(abs, true);
  const folder = dirname(abs);
  const uid = currentUid(base);
  const tops = trustedFolders(base);
  assertFolderChain(folder, uid, tops);
  const problem = privateFolderProblem(folder, uid);
  if (problem !== null) throw new UnsafePath(folder, problem, W.ownFolder);
  let file: Deno.FsFile;
  try {
    // createNew is O_EXCL: a file or a link already at the name fails here.
    file = Deno.openSync(abs, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new UnsafePath(path, W.exists, W.newName);
    }
    throw error;
  }
  try {
    const bytes = new TextEncoder().encode(text + "\n");
    for (let at = 0; at < bytes.length;) {
      at += file.writeSync(bytes.subarray(at));
    }
  } catch (error) {
    file.close();
    // The folder is the student's alone: the name is still the file made.
    Deno.removeSync(abs);
    throw error;
  }
  file.close();
  return abs;
}
