/**
 * Where guardlab may read and write: the temp folder granted in `deno.json`'s
 * permission sets (`guardlab` for Linux and macOS, `guardlab-windows`), and
 * inside it one private folder per user, `guardlab-UID` (or a folder of the
 * user's own chosen with `--home`), that holds what persists: the named
 * ledgers, the settings and the exercise progress. What lives only while a
 * command runs is in a scratch folder of the process's own (`scratch.ts`).
 *
 * @module
 */
import { basename, dirname, join, resolve } from "../base/path.ts";
import { Refused } from "../base/errors.ts";
import { say, type Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import {
  assertFolderChain,
  assertGranted,
  assertPlainFile,
  COMPANIONS,
  currentUid,
  NO_COMMAND_FOR_NAME,
  pathCommand,
  privateFolderProblem,
  PROBLEM,
  PROOF_SUFFIX,
  UnsafePath,
} from "./safe_fs.ts";
import { GRANTED_FOLDERS, SANDBOX_ROOT } from "./grant.ts";

export { GRANTED_FOLDERS, SANDBOX_ROOT } from "./grant.ts";

/** What a ledger name must look like: it becomes a folder name, so no separators, no dots. */
export const LEDGER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The timing lab's database file in a ledger folder. */
export const LAB_FILE = "lab.sqlite";

/** The policy lab's database file in a ledger folder. */
export const POLICY_FILE = "policy.sqlite";

/** The database files of a ledger folder; `reset` removes these and nothing else. */
export const LEDGER_FILES = [LAB_FILE, POLICY_FILE] as const;

/** The two database files inside folder `dir` (a named ledger's, or a scratch folder). */
export function labFilesIn(dir: string): { lab: string; policy: string } {
  return { lab: join(dir, LAB_FILE), policy: join(dir, POLICY_FILE) };
}

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
    super(say(text, "en"));
    this.name = "BadLedgerName";
    this.text = text;
  }
}

/** The folders a path inside `base` is checked from: `base` and the grant. */
export function trustedFolders(base: string): string[] {
  return [base, ...GRANTED_FOLDERS.filter((f) => f !== base)];
}

/**
 * Where a command keeps what persists: the granted temp folder, and the
 * folder the user chose with `--home`, if any. An {@linkcode Io} is one.
 */
export interface Place {
  /** The granted temp folder (in tests, a folder of the test's own). */
  readonly base: string;
  /** A folder of the user's own (`--home DIR`), used instead of `base/guardlab-UID`. */
  readonly home?: string;
}

function placeOf(place: string | Place): Place {
  return typeof place === "string" ? { base: place } : place;
}

/**
 * The path of this user's private folder: the `--home` folder if one was
 * chosen, else `guardlab-UID` inside `base`, as tmux uses `/tmp/tmux-UID`.
 * On Windows, where Deno reports no user id, one shared `guardlab` folder
 * (link checks still apply).
 */
export function privateRootPath(place: string | Place = SANDBOX_ROOT): string {
  const { base, home } = placeOf(place);
  if (home !== undefined) return resolve(home);
  const uid = currentUid(base);
  return join(base, uid === null ? "guardlab" : `guardlab-${uid}`);
}

/** `--home`, the way out that always exists, in both languages. */
export const HOME_WAY_OUT: Text = {
  en: "to keep ledgers, settings and progress, pass --home DIR with a folder " +
    "of your own (e.g. mkdir -m 700 /tmp/NAME)",
  zh: "要保存账本、设置和进度，请用 --home DIR 指定一个你自己的目录" +
    "（例如 mkdir -m 700 /tmp/NAME）",
};

/**
 * What the user can do about an unsafe private folder, and nothing they
 * cannot: another user's folder in the sticky `/tmp` can be removed only by
 * its owner or an administrator, so then `--home` is the only remedy named.
 */
function rootRemedy(root: string, uid: number | null, chosen: boolean): Text {
  const away: Text = chosen
    ? {
      en: "choose another --home DIR, a folder of your own " +
        "(e.g. mkdir -m 700 /tmp/NAME)",
      zh: "请用 --home DIR 另选一个你自己的目录（例如 mkdir -m 700 /tmp/NAME）",
    }
    : HOME_WAY_OUT;
  let info: Deno.FileInfo | null = null;
  try {
    info = Deno.lstatSync(root);
  } catch {
    // Gone since the check: nothing of the user's to fix.
  }
  const yours = info !== null &&
    (uid === null || info.uid === null || info.uid === uid);
  if (!yours) {
    return {
      en:
        `another user made it, so only they or an administrator can remove it; ${away.en}`,
      zh: `它是其他用户建立的，只有对方或管理员能删除；${away.zh}`,
    };
  }
  const remove = !info!.isDirectory || info!.isSymlink;
  const command = pathCommand(remove ? "rm" : "chmod 700", root);
  if (command === null) {
    return {
      en: `${
        remove ? "remove it" : "make it yours alone"
      } (${NO_COMMAND_FOR_NAME.en}), or ${away.en}`,
      zh: `请${
        remove ? "删除它" : "让它只属于你"
      }（${NO_COMMAND_FOR_NAME.zh}），或者${away.zh}`,
    };
  }
  if (remove) {
    return {
      en: `remove it (${command}), or ${away.en}`,
      zh: `请删除它（${command}），或者${away.zh}`,
    };
  }
  return {
    en: `make it yours alone (${command}), or ${away.en}`,
    zh: `请让它只属于你（${command}），或者${away.zh}`,
  };
}

/**
 * What the user can do about their private folder when it is unsafe: the
 * remedy a refusal names (`--home` always, `chmod` or `rm` only for what is
 * theirs).
 */
export function privateRootRemedy(place: string | Place): Text {
  const { base, home } = placeOf(place);
  return rootRemedy(
    privateRootPath(place),
    currentUid(base),
    home !== undefined,
  );
}

/** The private folders {@linkcode privateRoot} has checked in this process. */
const checkedRoots = new Set<string>();

/**
 * This user's private folder, checked: a real folder (not a link), owned by
 * this user, not writable by group or others, below folders no other user
 * can rename inside. It is `guardlab-UID` in `base`, or the `--home` folder.
 * With `create`, a missing folder is made with mode 0700; without it, a
 * missing folder gives `null` (a command that only shows never creates
 * anything). A refusal names what the user can do, `--home` always.
 */
export function privateRoot(
  place: string | Place = SANDBOX_ROOT,
  { create = true }: { create?: boolean } = {},
): string | null {
  const { base, home } = placeOf(place);
  const root = privateRootPath(place);
  const uid = currentUid(base);
  if (home !== undefined) assertGranted(root, create);
  assertFolderChain(dirname(root), uid, trustedFolders(base));
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
  const problem = privateFolderProblem(root, uid);
  if (problem !== null) {
    throw new UnsafePath(
      root,
      problem,
      rootRemedy(root, uid, home !== undefined),
    );
  }
  checkedRoots.add(root);
  return root;
}

/**
 * Whether `path` names a file of a named ledger (`ROOT/NAME/FILE`) in a
 * private folder this process has checked: the only files whose proof of
 * provenance guardlab keeps and believes (`store/_provenance.ts`). A
 * `--ledger-file` elsewhere, a hand-in, a copy in a scratch folder is
 * checked in full every time.
 */
export function inPrivateLedgerFolder(path: string): boolean {
  const folder = dirname(resolve(path));
  return LEDGER_NAME.test(basename(folder)) &&
    checkedRoots.has(dirname(folder));
}

/** The paths of ledger `name` under `root`; throws {@linkcode BadLedgerName} before any file is touched. */
export function ledgerPaths(root: string, name: string): LedgerPaths {
  if (!LEDGER_NAME.test(name)) throw new BadLedgerName(name);
  const dir = join(root, name);
  return { dir, ...labFilesIn(dir) };
}

/**
 * The folder of ledger `name` under the private `root`, created (0700) when
 * `create` is set (the default). Throws {@linkcode UnsafePath} if the name is taken by a
 * link or a file; returns `null` when it does not exist and may not be made.
 */
export function ledgerFolder(
  root: string,
  name: string,
  { create = true }: { create?: boolean } = {},
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
    LEDGER_FILES.flatMap((
      f,
    ) => [f, f + PROOF_SUFFIX, ...COMPANIONS.map((c) => f + c)]),
  );
}

/**
 * Remove ledger `name` under `root`: its database files, then its folder.
 * Anything else in the folder (a link, an unknown file, a sub-folder) refuses
 * the whole reset, before anything is removed. Returns whether it existed.
 */
export function removeLedger(root: string, name: string): boolean {
  const paths = ledgerFolder(root, name, { create: false });
  if (paths === null) return false;
  const known = knownEntries();
  const uid = currentUid(root);
  const entries = [...Deno.readDirSync(paths.dir)].map((e) => e.name).sort();
  for (const entry of entries) {
    if (!known.has(entry)) {
      const path = inert(join(paths.dir, entry));
      throw new Refused({
        en: `${path} is not a file guardlab made; nothing was removed ` +
          "(move it away and run reset again)",
        zh: `${path} 不是 guardlab 建立的文件；什么也没删除` +
          "（把它移走后再运行 reset）",
      });
    }
    assertPlainFile(join(paths.dir, entry), { uid });
  }
  for (const entry of entries) Deno.removeSync(join(paths.dir, entry));
  Deno.removeSync(paths.dir);
  return true;
}

/** The runtime's kinds of access, as a Chinese screen says them. */
const ACCESS_ZH: Readonly<Record<string, string>> = {
  read: "读取",
  write: "写入",
  net: "访问网络",
  env: "读取环境变量",
  run: "运行",
  sys: "读取系统信息",
  ffi: "加载动态库",
  import: "导入",
};

/** One line explaining a sandbox refusal, naming what was refused. */
export function refusalLine(error: Error): Text {
  // The runtime's message quotes the path as the user gave it: shown inert.
  const what = inert(
    error.message.replace(/, run again with.*$/s, "").replace(/^Requires /, ""),
  );
  // The runtime says it in English ("read access to "/etc/hosts""); the
  // Chinese line says the kind of access in Chinese and keeps the rest.
  const kind = /^([a-z]+) access to (.*)$/s.exec(what);
  const whatZh = kind && Object.hasOwn(ACCESS_ZH, kind[1])
    ? `${ACCESS_ZH[kind[1]]} ${kind[2]}`
    : what;
  return {
    en:
      `refused by the sandbox: ${what} (guardlab may only read and write under ${SANDBOX_ROOT})`,
    zh: `被沙箱拒绝：${whatZh}（guardlab 只能读写 ${SANDBOX_ROOT}）`,
  };
}
