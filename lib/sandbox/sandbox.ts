/**
 * Where guardlab may read and write: the temp folder granted in `deno.json`'s
 * permission sets (`guardlab` for Linux and macOS, `guardlab-windows`), and
 * inside it one private folder per user, `guardlab-UID`, that holds the named
 * ledgers and every scratch ledger.
 *
 * @module
 */
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import { Refused } from "../errors.ts";
import type { Text } from "../i18n.ts";
import {
  assertPlainFile,
  assertPrivateFolder,
  COMPANIONS,
  currentUid,
  privateFolderProblem,
  PROBLEM,
  UnsafePath,
} from "./safe_fs.ts";

const grant = Deno.build.os === "windows"
  ? config.permissions["guardlab-windows"]
  : config.permissions.guardlab;

/** The only folder the compiled binary may touch (`/tmp`, or `C:\Windows\Temp`). */
export const SANDBOX_ROOT: string = grant.write[0];

/** Every granted folder; a path inside one is checked from below it. */
export const GRANTED_FOLDERS: readonly string[] = grant.write;

/** What a ledger name must look like: it becomes a folder name, so no separators, no dots. */
export const LEDGER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The database files of a ledger folder; `reset` removes these and nothing else. */
export const LEDGER_FILES = ["lab.sqlite", "policy.sqlite"] as const;

/** The files of one named ledger. */
export interface LedgerPaths {
  /** The ledger's folder. */
  dir: string;
  /** The timing lab's ledger file. */
  lab: string;
  /** The policy lab's database file. */
  policy: string;
}

/** A ledger name that does not match {@linkcode LEDGER_NAME}. */
export class BadLedgerName extends Error {
  /** The message in both languages. */
  readonly text: Text;
  /** Build the refusal for `name`. */
  constructor(name: string) {
    const text = {
      en: `bad ledger name ${
        JSON.stringify(name)
      }: use 1-32 of a-z, 0-9 and '-', starting with a letter or digit`,
      zh: `账本名 ${
        JSON.stringify(name)
      } 不合法：只能用 1-32 个 a-z、0-9 和 '-'，以字母或数字开头`,
    };
    super(text.en);
    this.name = "BadLedgerName";
    this.text = text;
  }
}

/** The folders a path inside `base` is checked from: `base` and the grant. */
export function trustedFolders(base: string): string[] {
  return [base, ...GRANTED_FOLDERS.filter((f) => f !== base)];
}

/**
 * The name of this user's private folder inside `base`: `guardlab-UID`, as
 * tmux uses `/tmp/tmux-UID`. On Windows, where Deno reports no user id, one
 * shared `guardlab` folder (link checks still apply).
 */
export function privateRootPath(base: string = SANDBOX_ROOT): string {
  const uid = currentUid(base);
  return join(base, uid === null ? "guardlab" : `guardlab-${uid}`);
}

/**
 * This user's private folder inside `base`, checked: a real folder (not a
 * link), owned by this user, not writable by group or others. With `create`,
 * a missing folder is made with mode 0700; without it, a missing folder
 * gives `null` (a command that only shows never creates anything).
 */
export function privateRoot(
  base: string = SANDBOX_ROOT,
  create = true,
): string | null {
  const root = privateRootPath(base);
  const uid = currentUid(base);
  let made = false;
  if (create) {
    try {
      Deno.mkdirSync(root, { mode: 0o700 });
      made = true;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  } else if (privateFolderProblem(root, uid) === PROBLEM.missing) {
    return null;
  }
  // The umask may only remove bits; set the mode exactly on a folder we made.
  if (made && Deno.build.os !== "windows") Deno.chmodSync(root, 0o700);
  assertPrivateFolder(
    root,
    uid,
    {
      en: "guardlab keeps ledgers only in a folder that is yours alone: " +
        "remove or rename it, then run again",
      zh: "guardlab 只把账本放在完全属于你的目录里：请删除或改名后再运行",
    },
  );
  return root;
}

/** The paths of ledger `name` under `root`; throws {@linkcode BadLedgerName} before any file is touched. */
export function ledgerPaths(root: string, name: string): LedgerPaths {
  if (!LEDGER_NAME.test(name)) throw new BadLedgerName(name);
  const dir = join(root, name);
  return {
    dir,
    lab: join(dir, "lab.sqlite"),
    policy: join(dir, "policy.sqlite"),
  };
}

/**
 * The folder of ledger `name` under the private `root`, created (0700) when
 * `create` is set. Throws {@linkcode UnsafePath} if the name is taken by a
 * link or a file; returns `null` when it does not exist and may not be made.
 */
export function ledgerFolder(
  root: string,
  name: string,
  create: boolean,
): LedgerPaths | null {
  const paths = ledgerPaths(root, name);
  if (create) {
    try {
      Deno.mkdirSync(paths.dir, { mode: 0o700 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  const problem = privateFolderProblem(paths.dir, currentUid(root));
  if (problem === PROBLEM.missing && !create) return null;
  if (problem !== null) throw new UnsafePath(paths.dir, problem);
  return paths;
}

/** The entries `reset` recognises in a ledger folder. */
function knownEntries(): Set<string> {
  return new Set(
    LEDGER_FILES.flatMap((f) => [f, ...COMPANIONS.map((c) => f + c)]),
  );
}

/**
 * Remove ledger `name` under `root`: its database files, then its folder.
 * Anything else in the folder (a link, an unknown file, a sub-folder) refuses
 * the whole reset, before anything is removed. Returns whether it existed.
 */
export function removeLedger(root: string, name: string): boolean {
  const paths = ledgerFolder(root, name, false);
  if (paths === null) return false;
  const known = knownEntries();
  const uid = currentUid(root);
  const entries = [...Deno.readDirSync(paths.dir)].map((e) => e.name).sort();
  for (const entry of entries) {
    if (!known.has(entry)) {
      const path = join(paths.dir, entry);
      throw new Refused({
        en: `${path} is not a file guardlab made; nothing was removed ` +
          "(move it away and run reset again)",
        zh: `${path} 不是 guardlab 建立的文件；什么也没删除` +
          "（把它移走后再运行 reset）",
      });
    }
    assertPlainFile(join(paths.dir, entry), uid, false);
  }
  for (const entry of entries) Deno.removeSync(join(paths.dir, entry));
  Deno.removeSync(paths.dir);
  return true;
}

/** One line explaining a sandbox refusal, naming what was refused. */
export function refusalLine(error: Error): Text {
  const what = error.message.replace(/, run again with.*$/s, "").replace(
    /^Requires /,
    "",
  );
  return {
    en:
      `refused by the sandbox: ${what} (guardlab may only read and write under ${SANDBOX_ROOT})`,
    zh: `被沙箱拒绝：${what}（guardlab 只能读写 ${SANDBOX_ROOT}）`,
  };
}
