/**
 * One scratch folder per process, with a name nobody can predict: what a
 * command keeps only while it runs (the demo's ledgers, an exercise's judge,
 * a copy of a ledger a view reads) lives there, never in a folder whose name
 * a classmate can guess and take first. This is ssh-agent's answer
 * (`mkdtemp`), where `guardlab-UID` is tmux's: a name that anyone can
 * pre-create can lock a user out, a random one cannot.
 *
 * The folder is made in the granted temp folder, given explicitly (without
 * `dir`, Deno would use `TMPDIR`, which the grant may not cover), checked
 * like every private folder (a real folder, not a link, owned by this user,
 * no access for group or others), and removed when the last command using it
 * ends, on an uncaught error, at exit, and on SIGINT, SIGTERM and SIGHUP
 * (a `remove` hook of `base/exit_hooks.ts`, so connections close first).
 *
 * @module
 */
import { join } from "../base/path.ts";
import { onExit, runExitHooks } from "../base/exit_hooks.ts";
import type { Text } from "../base/i18n.ts";
import {
  assertFolderChain,
  currentUid,
  PROBLEM,
  UnsafePath,
} from "./safe_fs.ts";

/** What a scratch folder's name starts with (never `guardlab-` and digits alone, the private folder's form). */
export const SCRATCH_PREFIX = "guardlab-scratch-";

/** No access at all for group and others. */
const GROUP_OR_OTHER_ANY = 0o077;

/** Scratch folders this process made, by the base they were made in. */
const made = new Map<string, string>();
let sessions = 0;
let hooked = false;

const UNSAFE: Text = {
  en: "is not a private scratch folder any more",
  zh: "已不再是私有的临时目录",
};

/**
 * What is wrong with `path` as this process's scratch folder, or `null`: a
 * real folder, not a link, owned by `uid`, that group and others cannot
 * read, write or enter.
 */
export function scratchProblem(path: string, uid: number | null): Text | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return PROBLEM.missing;
    throw error;
  }
  if (info.isSymlink) return PROBLEM.link;
  if (!info.isDirectory) return PROBLEM.notFolder;
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    return PROBLEM.owner(info.uid, uid);
  }
  if (info.mode !== null && (info.mode & GROUP_OR_OTHER_ANY) !== 0) {
    return {
      en: `${UNSAFE.en} (mode ${
        (info.mode & 0o7777).toString(8).padStart(4, "0")
      })`,
      zh: `${UNSAFE.zh}（权限 ${
        (info.mode & 0o7777).toString(8).padStart(4, "0")
      }）`,
    };
  }
  return null;
}

/**
 * This process's scratch folder in `base` (the granted temp folder, or a
 * test's stand-in): made on first use with a random name, mode 0700, and
 * checked on every call, so a folder that changed under us is refused
 * ({@linkcode UnsafePath}) rather than used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { removeScratch, scratchRoot } from "./scratch.ts";
 *
 * const base = Deno.makeTempDirSync();
 * const dir = scratchRoot(base);
 * assert.equal(scratchRoot(base), dir); // one per process
 * removeScratch();
 * assert.throws(() => Deno.lstatSync(dir), Deno.errors.NotFound);
 * Deno.removeSync(base);
 * ```
 */
export function scratchRoot(base: string): string {
  const uid = currentUid(base);
  const known = made.get(base);
  if (known !== undefined) {
    const problem = scratchProblem(known, uid);
    if (problem === null) return known;
    if (problem !== PROBLEM.missing) throw new UnsafePath(known, problem);
    made.delete(base);
  }
  // The folders above must be ones no other user can rename inside.
  assertFolderChain(base, uid, [base]);
  const path = Deno.makeTempDirSync({ dir: base, prefix: SCRATCH_PREFIX });
  made.set(base, path);
  listenForExit();
  // Deno makes it 0700 less the umask; set it exactly, then look again.
  if (Deno.build.os !== "windows") Deno.chmodSync(path, 0o700);
  const problem = scratchProblem(path, uid);
  if (problem !== null) throw new UnsafePath(path, problem);
  return path;
}

/** A fresh folder inside the process's scratch folder; `using` removes it. */
export interface ScratchFolder extends AsyncDisposable, Disposable {
  /** The folder's path. */
  readonly path: string;
}

/**
 * A fresh folder inside this process's scratch folder in `base`, removed
 * when disposed (sync or async).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scratchFolder } from "./scratch.ts";
 *
 * const base = Deno.makeTempDirSync();
 * let kept = "";
 * {
 *   using folder = scratchFolder(base);
 *   Deno.writeTextFileSync(`${folder.path}/note`, "x");
 *   kept = folder.path;
 * }
 * assert.throws(() => Deno.lstatSync(kept), Deno.errors.NotFound);
 * Deno.removeSync(base, { recursive: true });
 * ```
 */
export function scratchFolder(base: string): ScratchFolder {
  const path = Deno.makeTempDirSync({ dir: scratchRoot(base) });
  const remove = () => {
    // Removing a tree never follows a link inside it.
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Already gone (the whole scratch folder was removed first).
    }
  };
  return {
    path,
    [Symbol.dispose]: remove,
    [Symbol.asyncDispose]: () => Promise.resolve(remove()),
  };
}

/**
 * A path for a new file inside this process's scratch folder in `base`
 * (nothing is created): `name` with a random part, e.g. for a copy.
 */
export function scratchPath(base: string, name: string): string {
  return join(scratchRoot(base), `${crypto.randomUUID()}-${name}`);
}

/**
 * Mark one command's use of the scratch folders: when the last use ends,
 * every scratch folder this process made is removed (see
 * {@linkcode removeScratch}). `main` holds one for each command it runs.
 */
export function scratchSession(): Disposable {
  sessions++;
  let open = true;
  return {
    [Symbol.dispose]() {
      if (!open) return;
      open = false;
      sessions--;
      if (sessions === 0) runExitHooks();
    },
  };
}

/**
 * Run every exit hook: the `close` ones (connections), then the removal of
 * every scratch folder this process made.
 */
export function removeScratch(): void {
  runExitHooks();
}

function removeFolders(): void {
  hooked = false;
  for (const [base, path] of made) {
    made.delete(base);
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Already gone.
    }
  }
}

/** The scratch folders this process has now, one per base (for tests). */
export function scratchFolders(): string[] {
  return [...made.values()];
}

function listenForExit(): void {
  if (hooked) return;
  hooked = true;
  onExit(removeFolders, "remove");
}
