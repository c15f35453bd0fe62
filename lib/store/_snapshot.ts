/**
 * The bytes a view shows: a database file and its write-ahead log, read
 * whole (bounded) through file handles that are checked to be the files
 * that were checked by name, and combined in memory into the image SQLite
 * would read. Nothing is created, changed or removed, on any path: an empty
 * file beside a `-wal` is refused before anything else happens, and the
 * `-wal` stays as it was.
 *
 * @module
 */
import { LedgerUnusable } from "../base/errors.ts";
import {
  NO_COMMAND_FOR_NAME,
  pathCommand,
  PROBLEM,
  systemRefusal,
  UnsafePath,
} from "../sandbox/safe_fs.ts";
import { inert } from "../base/terminal.ts";
import { readUpToSync } from "../sandbox/read_bounded.ts";
import type { Text } from "../base/i18n.ts";
import { BadImage, databaseImage } from "./_wal.ts";

/** The largest file plus log a view reads into memory. */
export const MAX_VIEW_BYTES = 256 << 20;

/** The first bytes of a rollback journal that still has to be rolled back. */
const HOT_JOURNAL = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

/** Tries before a file that keeps changing under the reader is refused. */
const TRIES = 40;

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw systemRefusal(error, path) ?? error;
  }
}

/** What {@linkcode readChecked} read, and whether the file changed meanwhile. */
interface Read {
  bytes: Uint8Array;
  changed: boolean;
}

/**
 * The whole of the plain file at `path`, or `null` when there is none; the
 * open handle must be the file `lstat` saw (same device and inode), and no
 * more than `maxBytes` are read.
 */
function readChecked(
  path: string,
  maxBytes: number,
  tooLarge: () => Error,
  shared = false,
): Read | null {
  const seen = statOrNull(path);
  if (seen === null) return null;
  if (!seen.isFile) throw new UnsafePath(path, PROBLEM.notFile);
  if (seen.size > maxBytes) throw tooLarge();
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw systemRefusal(error, path) ?? error;
  }
  try {
    const opened = file.statSync();
    if (opened.ino !== seen.ino || opened.dev !== seen.dev || !opened.isFile) {
      throw new UnsafePath(path, PROBLEM.replaced, {
        en: "try again",
        zh: "请重试",
      });
    }
    // One byte more than allowed tells a file that grew past the bound.
    // The file itself is read into memory a worker can read (the check's):
    // no second copy of it is made.
    const { bytes, more } = readUpToSync(
      (b) => file.readSync(b),
      maxBytes,
      opened.size,
      shared,
    );
    if (more) throw tooLarge();
    const after = file.statSync();
    const changed = after.size !== opened.size ||
      after.mtime?.getTime() !== opened.mtime?.getTime() ||
      bytes.length !== opened.size;
    return { bytes, changed };
  } finally {
    file.close();
  }
}

/** Whether `path` is a rollback journal whose header says it is still live. */
function isHotJournal(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw systemRefusal(error, path) ?? error;
  }
  try {
    const head = readUpToSync(
      (b) => file.readSync(b),
      HOT_JOURNAL.length,
      HOT_JOURNAL.length,
    ).bytes;
    return HOT_JOURNAL.every((b, i) => head[i] === b);
  } finally {
    file.close();
  }
}

/**
 * Whether two reads of a log belong to one generation of it: SQLite only
 * appends to a log until it restarts it, and a restart rewrites the header
 * (new salts, next checkpoint number). Within one generation, every frame a
 * checkpoint could have copied into the file is in the later read.
 */
function sameLog(before: Read | null, after: Read | null): boolean {
  if (before === null || after === null) return before === after;
  const a = before.bytes;
  const b = after.bytes;
  // A log shorter than its header has no generation yet: it must not move.
  const fixed = a.length < 32 ? Math.max(a.length, b.length) : 32;
  if (b.length < a.length || (a.length < 32 && b.length !== a.length)) {
    return false;
  }
  for (let i = 0; i < fixed; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Wait `ms` milliseconds (a file that is being written settles meanwhile). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The image of the database at `path` (already checked by name: a plain
 * file of this user in a private folder, companions too) as SQLite would
 * read it, built in memory. An empty file alone gives `null` when
 * `emptyOk` (a writer creates the schema in it). Throws
 * {@linkcode LedgerUnusable} for an empty file beside a `-wal`, or else one
 * that is empty, a hot rollback journal beside it, a file over
 * {@linkcode MAX_VIEW_BYTES}, or one that keeps changing while it is read.
 */
export function viewImage(
  path: string,
  what: Text,
  emptyOk = false,
): Uint8Array | null {
  // Which file is over the bound, and what the user can do about it: a log
  // folds into its file by a checkpoint (a log without valid frames is
  // dropped), which SQLite's own shell does in place.
  const tooLarge = (file: string) => () => {
    const checkpoint = pathCommand("sqlite3", path);
    const remedy: Text = file === path
      ? {
        en: "start a new ledger (another --ledger-file or --ledger NAME)",
        zh: "请换一个新账本（另一个 --ledger-file 或 --ledger NAME）",
      }
      : checkpoint === null
      ? NO_COMMAND_FOR_NAME
      : {
        en: "fold the log into the file first (" +
          `${checkpoint} 'PRAGMA wal_checkpoint(TRUNCATE)')`,
        zh: "请先把日志并入文件（" +
          `${checkpoint} 'PRAGMA wal_checkpoint(TRUNCATE)'）`,
      };
    return new LedgerUnusable({
      en: `${inert(file)} is too large for guardlab to check (over ${
        MAX_VIEW_BYTES >> 20
      } MiB); ${remedy.en}`,
      zh: `${inert(file)} 太大，guardlab 无法检查（超过 ${
        MAX_VIEW_BYTES >> 20
      } MiB）；${remedy.zh}`,
    });
  };
  // The path as shown: a name with a line feed stays on one line.
  const shown = inert(path);
  let journalHot = false;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (attempt > 0) pause(1 + Math.floor(Math.random() * 10));
    // The log before and after the file. Another process of this user may
    // be writing: the file may change under the reader only by a
    // checkpoint, which copies frames of the log; if the log is still the
    // same generation afterwards, laying its frames over the file gives a
    // state that was committed. Else read again.
    const walBefore = readChecked(
      path + "-wal",
      MAX_VIEW_BYTES,
      tooLarge(path + "-wal"),
    );
    // A rollback journal that is still hot: a write in progress (wait for
    // it) or one that was cut off (only a writer can roll it back).
    journalHot = isHotJournal(path + "-journal");
    if (journalHot) continue;
    const read = readChecked(path, MAX_VIEW_BYTES, tooLarge(path), true);
    const log = readChecked(
      path + "-wal",
      MAX_VIEW_BYTES,
      tooLarge(path + "-wal"),
    );
    if (!sameLog(walBefore, log)) continue;
    if (read === null) throw new UnsafePath(path, PROBLEM.missing);
    // Without a log, a change while reading was a write in place (a
    // rollback-journal writer, or a last checkpoint): read again.
    if (read.changed && log === null) continue;
    const main = read.bytes;
    const walAfter = log?.bytes ?? null;
    if (main.length === 0 && walAfter === null && emptyOk) return null;
    if (main.length === 0) {
      throw new LedgerUnusable(
        walAfter === null
          ? {
            en: `${shown} is not a ${what.en} (it is empty)`,
            zh: `${shown} 不是${what.zh}（文件是空的）`,
          }
          : {
            en: `${shown} is not a ${what.en} (it is empty; ` +
              `${shown}-wal beside it is left as it was)`,
            zh: `${shown} 不是${what.zh}（文件是空的；旁边的 ` +
              `${shown}-wal 原样保留）`,
          },
      );
    }
    if (main.length + (walAfter?.length ?? 0) > MAX_VIEW_BYTES) {
      throw tooLarge(walAfter === null ? path : path + "-wal")();
    }
    try {
      return databaseImage(main, walAfter, MAX_VIEW_BYTES, true);
    } catch (error) {
      if (!(error instanceof BadImage)) throw error;
      if (error.kind === "too_large") {
        throw tooLarge(walAfter === null ? path : path + "-wal")();
      }
      throw new LedgerUnusable({
        en: `${shown} is not a usable SQLite ${what.en} (its -wal has ` +
          "another page size than the file)",
        zh:
          `${shown} 不是可用的 SQLite ${what.zh}（它的 -wal 与文件的页大小不同）`,
      });
    }
  }
  if (journalHot) {
    throw new LedgerUnusable({
      en: `${shown} cannot be used now: ${shown}-journal holds an ` +
        "unfinished write (the program that wrote it, or sqlite3, " +
        "rolls it back when it opens the file again)",
      zh: `${shown} 现在无法使用：${shown}-journal 里有未完成的写入` +
        "（写入它的程序或 sqlite3 再次打开该文件时会回滚它）",
    });
  }
  throw new LedgerUnusable({
    en: `${shown} kept changing while guardlab read it; try again`,
    zh: `guardlab 读取 ${shown} 时它一直在变化；请重试`,
  });
}
