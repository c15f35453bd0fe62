/**
 * The files `accept` and `proxy` read and write, inside the sandbox only:
 * a file read is opened without following a link, measured before it is
 * read, and read no further than its bound; a record is created new, in a
 * folder of the user's own, never over an existing name; a draft oracle or
 * a JUnit report is a new file too (`sandbox/new_file.ts`), and an existing
 * name is refused.
 *
 * @module
 */
import { dirname, extname, isAbsolute, resolve } from "node:path";
import { Refused } from "../base/errors.ts";
import { fill } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import {
  assertFolderChain,
  assertGranted,
  currentUid,
  privateFolderProblem,
  UnsafePath,
} from "../sandbox/safe_fs.ts";
import { openPlainFile } from "../sandbox/plain_file.ts";
import { readUpTo } from "../sandbox/read_bounded.ts";
import { FILE_MESSAGES } from "./messages.ts";

/**
 * The text of `path`, at most `maxBytes` of it: a link, a file of another
 * user or a file over the bound is refused ({@linkcode Refused}, exit 4)
 * before a byte is read.
 */
export async function readBoundedFile(
  path: string,
  trusted: readonly string[],
  maxBytes: number,
): Promise<string> {
  const file = await openPlainFile(path, trusted);
  try {
    const size = (await file.stat()).size;
    if (size > maxBytes) {
      throw new Refused(
        fill(FILE_MESSAGES.fileTooBig, {
          file: JSON.stringify(path),
          max: maxBytes,
        }),
      );
    }
    // What it held when measured: bytes written since are not read.
    const { bytes } = await readUpTo((b) => file.read(b), size, size);
    return new TextDecoder().decode(bytes);
  } finally {
    file.close();
  }
}

/** How many numbered names a record tries after its own. */
export const MAX_RECORD_NAMES = 99;

/**
 * Create `path` as a new file of this user's (mode 0600) in a folder of
 * their own under the grant: a link, a shared folder or a file of someone
 * else is refused, never written through. When `path` exists (a host that
 * starts the proxy again, as MCP clients do after a discovery probe), the
 * next free numbered name is taken (`record-2.jsonl`, …); the new name is
 * returned, and `taken`, the name asked for, when it was not free.
 */
export function createPrivateFile(
  path: string,
  trusted: readonly string[],
): { file: Deno.FsFile; path: string; taken: string | null } {
  const abs = isAbsolute(path) ? path : resolve(path);
  assertGranted(abs, true);
  const uid = currentUid(trusted[0]);
  const folder = dirname(abs);
  assertFolderChain(folder, uid, trusted);
  const problem = privateFolderProblem(folder, uid);
  if (problem !== null) {
    throw new UnsafePath(
      path,
      fill(FILE_MESSAGES.recordFolder, { folder: inert(folder), problem }),
      FILE_MESSAGES.recordFolderRemedy,
    );
  }
  for (let n = 1; n <= MAX_RECORD_NAMES + 1; n++) {
    const name = n === 1 ? abs : numberedName(abs, n);
    try {
      // createNew is O_EXCL: an existing name, a link included, is never opened.
      return {
        file: Deno.openSync(name, {
          write: true,
          createNew: true,
          mode: 0o600,
        }),
        path: name,
        taken: n === 1 ? null : abs,
      };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  throw new UnsafePath(
    path,
    FILE_MESSAGES.recordExists,
    FILE_MESSAGES.recordExistsRemedy,
  );
}

/** The `n`th name a record asked for as `path` may take: `path` itself, then `record-2.jsonl`, …. */
function numberedName(path: string, n: number): string {
  if (n === 1) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-${n}${ext}`;
}

/**
 * The name {@linkcode createPrivateFile} takes after `path`, had it found
 * `path` taken: `record.jsonl` → `record-2.jsonl`, `record-2.jsonl` →
 * `record-3.jsonl`; null past the last name it tries.
 */
export function nextRecordName(path: string): string | null {
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  const numbered = /^(.*)-([1-9][0-9]?)$/.exec(stem);
  const [first, n] = numbered === null
    ? [path, 1]
    : [`${numbered[1]}${ext}`, Number(numbered[2])];
  return n > MAX_RECORD_NAMES ? null : numberedName(first, n + 1);
}
