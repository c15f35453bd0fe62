/**
 * A file given to read (a script FILE, an oracle, a record, a course file,
 * a hand-in), opened without following a link: its path is checked the way
 * `safe_fs.ts` checks every path, it is opened, and the open file must be
 * the one checked (same device and inode) and within its bound before a
 * byte is read. The checks and the comparison are apart from the open, so
 * a reader that must open otherwise (a hand-in another user owns, opened
 * without waiting: `exercises/hand_in_files.ts`) keeps them the same.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "../base/path.ts";
import { fill } from "../base/i18n.ts";
import { SANDBOX_MESSAGES } from "./_messages.ts";
import {
  assertFolderChain,
  assertGranted,
  assertPlainFile,
  currentUid,
  PROBLEM,
  systemRefusal,
  UnsafePath,
} from "./safe_fs.ts";

/**
 * The largest file {@linkcode openPlainFile} opens unless told otherwise: a
 * file of steps or faults far larger than any experiment, checked by its
 * size before a byte is read (a sparse file of a terabyte costs a classmate
 * nothing on disk).
 */
export const MAX_INPUT_FILE_BYTES = 64 << 20;

/** The refusal for `path` when the file opened is not the one checked. */
export function replacedRefusal(path: string): UnsafePath {
  return new UnsafePath(path, PROBLEM.replaced, {
    en: "try again",
    zh: "请重试",
  });
}

/**
 * The checks before an open: `path` is granted, every folder on the way
 * is safe, and it names a plain file with one link, of this user's unless
 * `anyOwner`. Returns the absolute path and what was seen there.
 */
export function checkBeforeOpen(
  path: string,
  tops: readonly string[],
  { anyOwner = false }: { anyOwner?: boolean } = {},
): { abs: string; checked: Deno.FileInfo } {
  const abs = isAbsolute(path) ? path : resolve(path);
  assertGranted(abs, false);
  const uid = currentUid(tops[0]);
  assertFolderChain(dirname(abs), uid, tops);
  let seen: Deno.FileInfo;
  try {
    seen = Deno.lstatSync(abs);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`no file at ${path}`);
    }
    throw systemRefusal(error, path) ?? error;
  }
  if (seen.isDirectory) throw new Deno.errors.IsADirectory(path);
  const checked = assertPlainFile(abs, { uid, anyOwner, tops })!;
  return { abs, checked };
}

/**
 * Refuse a file opened after {@linkcode checkBeforeOpen} that is not the
 * one `checked` (a name swapped meanwhile), or larger than `maxBytes`.
 */
export function assertOpenedAsChecked(
  path: string,
  opened: { ino: number | null; dev: number; size: number },
  checked: Deno.FileInfo,
  maxBytes: number,
): void {
  if (opened.ino !== checked.ino || opened.dev !== checked.dev) {
    throw replacedRefusal(path);
  }
  if (opened.size > maxBytes) {
    throw new UnsafePath(
      path,
      fill(SANDBOX_MESSAGES.tooLarge, { size: opened.size, limit: maxBytes }),
    );
  }
}

/**
 * Open `path`, a plain file of this user's, for reading without following
 * a link: checked, opened, and the open file must be the one checked and
 * no larger than `maxBytes` (by default {@linkcode MAX_INPUT_FILE_BYTES}).
 * On a checked path no other user can rename a name of this user's, so
 * nothing can swap in a FIFO for this open to wait on; a file another
 * user owns is read with an open that cannot wait
 * (`exercises/hand_in_files.ts`). `seams` lets a test act between the
 * check and the open, as a racing user would.
 */
export async function openPlainFile(
  path: string,
  tops: readonly string[],
  seams: { beforeOpen?: () => void; maxBytes?: number } = {},
): Promise<Deno.FsFile> {
  const { abs, checked } = checkBeforeOpen(path, tops);
  seams.beforeOpen?.();
  let file: Deno.FsFile;
  try {
    file = await Deno.open(abs, { read: true });
  } catch (error) {
    throw systemRefusal(error, path) ?? error;
  }
  try {
    assertOpenedAsChecked(
      path,
      await file.stat(),
      checked,
      seams.maxBytes ?? MAX_INPUT_FILE_BYTES,
    );
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}
