/**
 * Small JSON files in the user's private guardlab folder (settings,
 * exercise progress): read with the same checks as any file (a plain file of
 * this user, no link, a size cap), and written whole, beside and then
 * renamed, so a reader never sees half a file. A damaged file reads as
 * absent, never as trusted input.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { Refused } from "../base/errors.ts";
import type { Text } from "../base/i18n.ts";
import { readUpToSync } from "./read_bounded.ts";
import { assertPlainFile, currentUid } from "./safe_fs.ts";
import { type Place, privateRoot } from "./sandbox.ts";

/** The parsed JSON of `name` in the private folder of `place`, or `undefined`. */
export function readPrivateJson(
  place: string | Place,
  name: string,
  maxBytes: number,
): unknown {
  const root = privateRoot(place, { create: false });
  if (root === null) return undefined;
  const path = join(root, name);
  const info = assertPlainFile(path, {
    uid: currentUid(baseOf(place)),
    missingOk: true,
  });
  // The size first: a sparse file of a gigabyte costs nothing on disk, and
  // reading it whole would cost the memory.
  if (info === null || info.size > maxBytes) return undefined;
  const bytes = readAtMost(path, maxBytes, info.size);
  if (bytes === null) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** The bytes of `path`, or `null` if there are more than `maxBytes` (it grew) or it is gone. */
function readAtMost(
  path: string,
  maxBytes: number,
  size: number,
): Uint8Array | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const { bytes, more } = readUpToSync(
      (b) => file.readSync(b),
      maxBytes,
      size,
    );
    return more ? null : bytes;
  } finally {
    file.close();
  }
}

/** Write `data` as `name` in the private folder of `place` (made if needed), whole. */
export function writePrivateJson(
  place: string | Place,
  name: string,
  data: unknown,
): string {
  const root = privateRoot(place)!;
  const path = join(root, name);
  assertPlainFile(path, {
    uid: currentUid(baseOf(place)),
    missingOk: true,
  });
  const next = join(root, `.${name}.${crypto.randomUUID()}`);
  try {
    Deno.writeTextFileSync(next, JSON.stringify(data) + "\n", {
      createNew: true,
      mode: 0o600,
    });
    Deno.renameSync(next, path);
  } catch (error) {
    // A write cut short (a full disk) leaves no half file behind: the name
    // is this process's own, in a folder only this user can change.
    try {
      Deno.removeSync(next);
    } catch {
      // Never made.
    }
    throw error;
  }
  return path;
}

function baseOf(place: string | Place): string {
  return typeof place === "string" ? place : place.base;
}

/**
 * What persists, read for a command that can do without it: the value, or
 * `fallback` with the reason it could not be read when the private folder is
 * unsafe (another user's, a link, open to others). Anything else throws.
 */
export function readOrFallback<T>(
  read: () => T,
  fallback: T,
): { value: T; problem?: Text } {
  try {
    return { value: read() };
  } catch (error) {
    if (error instanceof Refused) {
      return { value: fallback, problem: error.text };
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      return {
        value: fallback,
        problem: {
          en: error.message.split("\n")[0],
          zh: error.message.split("\n")[0],
        },
      };
    }
    throw error;
  }
}
