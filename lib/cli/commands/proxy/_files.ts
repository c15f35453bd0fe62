/**
 * How `proxy` and `proxy show` read a file of the user's: bounded, through
 * `lib/accept/files.ts` (no link, no file of another user's, nothing over
 * its bound), with one line when it is missing or a folder.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../../../base/i18n.ts";
import { readBoundedFile } from "../../../accept/files.ts";
import type { Io } from "../../io.ts";
import { ACCEPT_CLI_MESSAGES as M } from "../../messages/accept.ts";

/** Reads a file of the user's, bounded; prints one line and returns null when it cannot be read. */
export type ReadFile = <T>(
  path: string,
  max: number,
  what: Text,
  parse: (t: string) => T,
) => Promise<T | null>;

/** The reader for files under `trusted`, speaking `lang` on `io`. */
export function fileReader(
  trusted: readonly string[],
  io: Io,
  lang: Lang,
): ReadFile {
  return async (path, max, what, parse) => {
    try {
      return parse(await readBoundedFile(path, trusted, max));
    } catch (error) {
      if (
        error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.IsADirectory
      ) {
        io.err(
          `guardlab: ${
            say(fill(M.notReadable, { what, file: JSON.stringify(path) }), lang)
          }`,
        );
        return null;
      }
      throw error;
    }
  };
}
