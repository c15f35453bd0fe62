/**
 * A file guardlab writes for the user (a JUnit report, a draft oracle, an
 * OTLP trace), created new: inside the grant, through folders no other
 * user can change, never over an existing name. A link is refused as a
 * link; anything else at the name (a file, a FIFO, another user's file) is
 * refused as taken, and never opened.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "../base/path.ts";
import {
  assertFolderChain,
  assertGranted,
  currentUid,
  PROBLEM,
  UnsafePath,
} from "./safe_fs.ts";
import { SANDBOX_MESSAGES } from "./_messages.ts";

/**
 * Refuse (exit 4) unless `path` can be created as a new file under the
 * grant: a link is refused as a link, any other existing name as taken,
 * and no folder on the way may be another user's to change. Checked before
 * the work that will write it, so a refusal costs nothing; the write
 * itself ({@linkcode writeNewFile}) never opens an existing name.
 */
export function assertNewFile(
  path: string,
  trusted: readonly string[],
): string {
  const abs = isAbsolute(path) ? path : resolve(path);
  assertGranted(abs, true);
  assertFolderChain(dirname(abs), currentUid(trusted[0]), trusted);
  const taken = takenProblem(abs);
  if (taken !== null) {
    throw new UnsafePath(
      path,
      taken,
      taken === PROBLEM.link ? undefined : SANDBOX_MESSAGES.fileExistsRemedy,
    );
  }
  return abs;
}

/** Why the name `abs` is taken, or null when nothing is there. */
function takenProblem(abs: string) {
  try {
    return Deno.lstatSync(abs).isSymlink
      ? PROBLEM.link
      : SANDBOX_MESSAGES.fileExists;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Write `text` to `path` as a new file of this user's (mode 0600), after
 * {@linkcode assertNewFile}'s checks. The open is O_EXCL: a name that
 * appeared since (a link planted meanwhile included) is refused, never
 * written through; a write that fails removes the part written, so no
 * half file is left.
 */
export function writeNewFile(
  path: string,
  trusted: readonly string[],
  text: string,
): void {
  const abs = assertNewFile(path, trusted);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(abs, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    throw new UnsafePath(
      path,
      takenProblem(abs) ?? SANDBOX_MESSAGES.fileExists,
      SANDBOX_MESSAGES.fileExistsRemedy,
    );
  }
  try {
    let bytes = new TextEncoder().encode(text);
    while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
  } catch (error) {
    file.close();
    // The name is this user's own new file: nobody else can have swapped it.
    Deno.removeSync(abs);
    throw error;
  }
  file.close();
}
