/**
 * How `proxy` and `proxy show` read a file of the user's: bounded, through
 * `lib/accept/files.ts` (no link, no file of another user's, nothing over
 * its bound), with one line when it is missing or a folder.
 *
 * @module
 */
import type { Lang, Text } from "../../../base/i18n.ts";
import { readBoundedFile } from "../../../accept/files.ts";
import type { Io } from "../../io.ts";
import { orUnreadable } from "../../user_file.ts";

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
  return (path, max, what, parse) =>
    orUnreadable(
      async () => parse(await readBoundedFile(path, trusted, max)),
      path,
      what,
      io,
      lang,
    );
}
