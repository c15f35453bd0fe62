/**
 * A FILE the user names on the command line: read only as a plain file of
 * theirs under the grant, and when it is missing or a folder, one line that
 * says what it should have held and exit 1, the same line from every
 * command ({@linkcode orUnreadable}). A link, another user's file or a
 * file outside the grant is the sandbox's refusal (exit 4).
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { openPlainFile } from "../sandbox/plain_file.ts";
import { refusalLine, trustedFolders } from "../sandbox/sandbox.ts";
import { EXIT, type ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";
import { USER_FILE_MESSAGES as M } from "./messages/common.ts";
import { printable } from "./parser.ts";

/**
 * What `read` gives; or, when `file` is missing or a folder, `null` after
 * one line on stderr: "cannot read `what` from `file`". Anything else
 * `read` throws is the caller's (a link or a file outside the grant: the
 * sandbox's refusal).
 */
export async function orUnreadable<T>(
  read: () => Promise<T>,
  file: string,
  what: Text,
  io: Io,
  lang: Lang,
): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.IsADirectory
    ) {
      io.err(say(fill(M.notReadable, { what, file: printable(file) }), lang));
      return null;
    }
    throw error;
  }
}

/** What a command says of a FILE it was given that cannot be read. */
export interface FileRefusal {
  /** Outside the grant (exit 4); `{refusal}` is the sandbox's own line. */
  readonly refused: Text;
  /** What the file should have held, for the line when it is missing or a folder (exit 1). */
  readonly what: Text;
}

/**
 * Open `file`, which must be a plain file of the user's own under the temp
 * folder. When it cannot be, say why in one line on stderr and return the
 * exit code instead: 4 outside the grant (a link, another user's), 1 for a
 * file that is missing or a folder.
 */
export async function openUserFile(
  file: string,
  io: Io,
  lang: Lang,
  lines: FileRefusal,
): Promise<ReadableStream<Uint8Array> | ExitCode> {
  try {
    const stream = await orUnreadable(
      async () => (await openPlainFile(file, trustedFolders(io.base))).readable,
      file,
      lines.what,
      io,
      lang,
    );
    return stream ?? EXIT.failed;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) throw error;
    const refusal = refusalLine(error);
    io.err(`guardlab: ${say(fill(lines.refused, { refusal }), lang)}`);
    return EXIT.refused;
  }
}
