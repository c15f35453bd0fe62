/**
 * Every path guardlab opens, creates or removes is checked here first,
 * without following a link. Deno checks a permission against the path as
 * written, so `--allow-read=/tmp` also reads `/tmp/link` wherever it points:
 * the runtime's grant is not enough on a machine whose `/tmp` is shared.
 *
 * Why a check followed by an open is not a race: a ledger lives in a folder
 * that only this user can change (owned by them, not writable by group or
 * others, not a link), and every folder above it, from `/` down, is owned by
 * this user or by root, and sticky where others may write (like `/tmp`).
 * Once that chain is checked, nobody else can rename a name on the path
 * between the check and the open, so SQLite may open the ledger and its
 * `-wal`, `-shm` and `-journal` by path. A script FILE may sit directly in
 * the shared temp folder; it is re-checked after opening (same device and
 * inode) before a byte is read (`plain_file.ts`).
 *
 * On Windows, Deno reports no owner or mode: only the link checks apply.
 *
 * @module
 */
import { dirname, join, resolve, sep } from "../base/path.ts";
import { Refused } from "../base/errors.ts";
import { fill, type Text } from "../base/i18n.ts";
import { inert, shellQuote } from "../base/terminal.ts";
import { SANDBOX_MESSAGES } from "./_messages.ts";

const GROUP_OR_OTHER_WRITE = 0o022;
/** Group or others may enter a folder, and so open a file in it by name. */
const GROUP_OR_OTHER_SEARCH = 0o011;
/** Any access for group or others (POSIX ACLs included: their mask is in the group bits). */
const GROUP_OR_OTHER_ANY = 0o077;
const STICKY = 0o1000;

/** A refusal about one path: one line saying what is wrong and what to do. */
export class UnsafePath extends Refused {
  /** The path that was refused. */
  readonly path: string;
  /** What is wrong with it. */
  readonly problem: Text;
  /** Build the refusal for `path`. */
  constructor(path: string, problem: Text, remedy?: Text) {
    // The path is shown inert: a name another user chose cannot drive the
    // terminal or break the refusal into two lines.
    const shown = inert(path);
    super({
      en: `${shown} ${problem.en}${remedy ? `; ${remedy.en}` : ""}`,
      zh: `${shown} ${problem.zh}${remedy ? `；${remedy.zh}` : ""}`,
    });
    this.name = "UnsafePath";
    this.path = path;
    this.problem = problem;
  }
}

/** What can be wrong with a path, in both languages. */
export const PROBLEM = {
  missing: { en: "does not exist", zh: "不存在" },
  link: {
    en: "is a symbolic link; guardlab never follows links",
    zh: "是符号链接；guardlab 从不跟随链接",
  },
  notFolder: { en: "is not a folder", zh: "不是目录" },
  notFile: { en: "is not a regular file", zh: "不是普通文件" },
  owner: (owner: number, you?: number | null): Text => ({
    en: `belongs to uid ${owner}, not to you${
      you === undefined || you === null ? "" : ` (uid ${you})`
    }`,
    zh: `属于 uid ${owner}，不属于你${
      you === undefined || you === null ? "" : `（uid ${you}）`
    }`,
  }),
  writable: (mode: string): Text => ({
    en: `can be written by other users (mode ${mode})`,
    zh: `其他用户可以写入（权限 ${mode}）`,
  }),
  hardLinks: (n: number): Text => ({
    en:
      `has ${n} hard links; guardlab refuses a file it may share with another name`,
    zh: `有 ${n} 个硬链接；guardlab 拒绝可能与其他名字共享的文件`,
  }),
  foreignFolder: (owner: number, you: number): Text => ({
    en: `belongs to uid ${owner}, not to you (uid ${you}) or root; ` +
      "its owner can rename anything inside it, sticky or not",
    zh: `属于 uid ${owner}，既不属于你（uid ${you}）也不属于 root；` +
      "它的所有者可以改名其中任何东西，不论是否设了粘滞位",
  }),
  replaced: {
    en: "was replaced while guardlab opened it",
    zh: "在 guardlab 打开时被替换了",
  },
  notReadable: {
    en: "cannot be read: the system denies you access to it " +
      "(permission denied)",
    zh: "无法读取：系统不允许你访问它（权限不足）",
  },
  leased: {
    en: "is held by another program's lease, which makes every open wait " +
      "until that program lets go; guardlab does not wait",
    zh:
      "被另一个程序的租约（lease）占住了，任何打开都要等它放手；guardlab 不等",
  },
  leasedRemedy: {
    en: "try again later, or grade a copy of it",
    zh: "请稍后重试，或者评一份它的副本",
  },
} as const;

/**
 * A shell command naming `path`, for a remedy the user can paste: the path
 * shell-quoted, or `null` when the name holds a character a terminal cannot
 * show as it is (the command shown would not be the command pasted).
 */
export function pathCommand(command: string, path: string): string | null {
  return inert(path) === path ? `${command} ${shellQuote(path)}` : null;
}

/** Why no command is suggested for a path with control characters. */
export const NO_COMMAND_FOR_NAME: Text = {
  en: "its name holds control characters (shown as \\uXXXX), " +
    "so no command to paste is suggested; use a file manager",
  zh:
    "它的名字含控制字符（显示为 \\uXXXX），所以不给出可粘贴的命令；请用文件管理器处理",
};

/** A file of the user's own instead: the way out that always exists. */
const OWN_FILE: Text = {
  en: "use a file in a folder of your own (e.g. mkdir -m 700 /tmp/NAME)",
  zh: "请改用你自己的目录里的文件（例如 mkdir -m 700 /tmp/NAME）",
};

/**
 * What the user can do about a link at `path`: remove it, if it is theirs;
 * another user's link (in a sticky folder such as `/tmp`) only its owner or
 * an administrator can remove, so then the way out is a file of their own.
 */
function linkRemedy(
  path: string,
  owner: number | null,
  uid: number | null,
  tops: readonly string[] | undefined,
): Text {
  if (
    uid !== null && owner !== null && owner !== uid &&
    (tops === undefined || !yourFolder(path, uid, tops))
  ) {
    return {
      en: `the link belongs to uid ${owner}, not to you (uid ${uid}), ` +
        `so only they or an administrator can remove it; ${OWN_FILE.en}`,
      zh: `这个链接属于 uid ${owner}，不属于你（uid ${uid}），` +
        `只有对方或管理员能删除它；${OWN_FILE.zh}`,
    };
  }
  const rm = pathCommand("rm", path);
  if (rm === null) {
    return {
      en: `remove the link; ${NO_COMMAND_FOR_NAME.en}`,
      zh: `请删除这个链接；${NO_COMMAND_FOR_NAME.zh}`,
    };
  }
  return {
    en: `remove the link (${rm})`,
    zh: `请删除这个链接（${rm}）`,
  };
}

/**
 * Whether the folder holding `path` is `uid`'s own and not a granted one
 * (the shared `/tmp`): its owner may remove any name in it, sticky or not
 * (a teacher's drop folder, where a student planted the link).
 */
function yourFolder(
  path: string,
  uid: number,
  tops: readonly string[],
): boolean {
  const folder = dirname(resolve(path));
  if (tops.includes(folder)) return false;
  return lstatOrNull(folder)?.uid === uid;
}

let knownUid: number | null | undefined;

/**
 * The user running guardlab, learnt without `--allow-sys`: the owner of a
 * file this process has just created (exclusively, mode 0600) in `base`.
 * The file is removed at once. `null` on Windows, where Deno has no owners.
 */
export function currentUid(base: string): number | null {
  if (Deno.build.os === "windows") return null;
  if (knownUid !== undefined) return knownUid;
  const probe = Deno.makeTempFileSync({ dir: base, prefix: ".guardlab-id-" });
  try {
    knownUid = Deno.lstatSync(probe).uid;
  } finally {
    Deno.removeSync(probe);
  }
  return knownUid;
}

/**
 * The refusal for an error the operating system gave about `path` that is
 * no fault of guardlab's and has one line to say (a name past the system's
 * limit, a file where a folder belongs, no file descriptor left), or
 * `null` for any other error. `path` is the path as the user gave it.
 */
export function systemRefusal(error: unknown, path: string): UnsafePath | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENAMETOOLONG") {
    return new UnsafePath(path, SANDBOX_MESSAGES.nameTooLong);
  }
  if (code === "ENOTDIR" || error instanceof Deno.errors.NotADirectory) {
    return new UnsafePath(path, SANDBOX_MESSAGES.notUnderFolder);
  }
  if (code === "EMFILE" || code === "ENFILE") {
    return new UnsafePath(path, SANDBOX_MESSAGES.outOfDescriptors);
  }
  return null;
}

/** `error` as {@linkcode systemRefusal} words it, or `error` itself. */
function asRefusal(error: unknown, path: string): unknown {
  return systemRefusal(error, path) ?? error;
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw asRefusal(error, path);
  }
}

/**
 * Why SQLite could not open the database at `path`, when the reason is one
 * {@linkcode systemRefusal} words (most often: no file descriptor left),
 * found by opening its folder the same way; `null` otherwise.
 */
export function openProblem(path: string): UnsafePath | null {
  try {
    Deno.openSync(dirname(resolve(path)), { read: true }).close();
    return null;
  } catch (error) {
    return systemRefusal(error, path);
  }
}

/** How many file descriptors a check may need at once: its two threads and the files. */
const DESCRIPTORS_NEEDED = 20;

/**
 * Refuse in one line, before anything starts, when this process cannot
 * open {@linkcode DESCRIPTORS_NEEDED} more files (`ulimit -n` too low): a
 * thread that cannot get one ends the whole process without a word, and
 * SQLite would say only "unable to open database file". `path` (already
 * checked, and existing) is opened that many times, read-only, and closed.
 */
export function assertDescriptorsLeft(path: string): void {
  const opened: Deno.FsFile[] = [];
  try {
    for (let i = 0; i < DESCRIPTORS_NEEDED; i++) {
      opened.push(Deno.openSync(path, { read: true }));
    }
  } catch (error) {
    throw asRefusal(error, path);
  } finally {
    for (const file of opened) file.close();
  }
}

function modeText(info: Deno.FileInfo): string {
  return ((info.mode ?? 0) & 0o7777).toString(8).padStart(4, "0");
}

/**
 * What is wrong with `path` as a private folder, or `null`: it must be a real
 * folder, not a link, that belongs to `uid` and that no group or other user
 * can write (the rule of tmux's socket folder and OpenSSH's StrictModes).
 */
export function privateFolderProblem(
  path: string,
  uid: number | null,
): Text | null {
  const info = lstatOrNull(path);
  if (info === null) return PROBLEM.missing;
  if (info.isSymlink) return PROBLEM.link;
  if (!info.isDirectory) return PROBLEM.notFolder;
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    return PROBLEM.owner(info.uid, uid);
  }
  if (info.mode !== null && (info.mode & GROUP_OR_OTHER_WRITE) !== 0) {
    return PROBLEM.writable(modeText(info));
  }
  return null;
}

/** Refuse unless `path` is a private folder of `uid`; `remedy` says what to do. */
export function assertPrivateFolder(
  path: string,
  uid: number | null,
  remedy?: Text,
): void {
  const problem = privateFolderProblem(path, uid);
  if (problem !== null) throw new UnsafePath(path, problem, remedy);
}

/**
 * Refuse unless no other user can change any folder on the way to `folder`,
 * `folder` included: from the granted folder that holds it (or from `/`,
 * for a path outside every grant) down, each is a real folder (not a link),
 * owned by this user or by root, and one that others may write is also
 * sticky, like `/tmp`. The owner of a folder can rename anything inside it,
 * sticky or not, so a classmate's sticky folder anywhere above a ledger
 * would let them swap its folder for a link between the check and SQLite's
 * open (OpenSSH's `StrictModes` and tmux's socket folder apply the same rule).
 * A granted folder in `tops` may itself be a link that root made (macOS's
 * `/tmp`); it is followed, and the folder it names is checked the same way.
 */
export function assertFolderChain(
  folder: string,
  uid: number | null,
  tops: readonly string[],
): void {
  const abs = resolve(folder);
  // The sandboxed binary may not even look above its grant: there, the
  // chain starts at the outermost granted folder that holds the path.
  const top = tops.filter((t) => abs === t || abs.startsWith(withSep(t)))
    .sort((a, b) => a.length - b.length)[0];
  const chain: string[] = [];
  for (let d = abs;; d = dirname(d)) {
    chain.unshift(d);
    if (d === top || d === dirname(d)) break;
  }
  for (const dir of chain) {
    let info = lstatOrNull(dir);
    if (info === null) throw new UnsafePath(dir, PROBLEM.missing);
    if (info.isSymlink) {
      const systemLink = tops.includes(dir) &&
        (uid === null || info.uid === null || info.uid === 0);
      if (!systemLink) throw new UnsafePath(dir, PROBLEM.link);
      try {
        info = Deno.statSync(dir);
      } catch (error) {
        throw asRefusal(error, dir);
      }
    }
    if (!info.isDirectory) throw new UnsafePath(dir, PROBLEM.notFolder);
    if (uid === null || info.mode === null || info.uid === null) continue;
    if (info.uid !== uid && info.uid !== 0) {
      throw new UnsafePath(
        dir,
        PROBLEM.foreignFolder(info.uid, uid),
        OWN_FOLDER,
      );
    }
    if (
      (info.mode & GROUP_OR_OTHER_WRITE) !== 0 && (info.mode & STICKY) === 0
    ) {
      throw new UnsafePath(dir, PROBLEM.writable(modeText(info)), OWN_FOLDER);
    }
  }
}

function withSep(folder: string): string {
  return folder.endsWith(sep) ? folder : folder + sep;
}

/** What to do about a folder above: the way out is always one's own. */
const OWN_FOLDER: Text = {
  en: "use a folder of your own whose parents only you or root can change " +
    "(e.g. mkdir -m 700 /tmp/NAME)",
  zh: "请改用你自己的目录，且其上级目录只有你或 root 能修改" +
    "（例如 mkdir -m 700 /tmp/NAME）",
};

/**
 * Throw the runtime's own refusal for `path` unless this process may read
 * it (and write it, with `write`): the user reads which path was refused,
 * not a folder above it that the checks would have looked at first.
 */
export function assertGranted(path: string, write: boolean): void {
  for (const name of write ? ["read", "write"] as const : ["read"] as const) {
    if (Deno.permissions.querySync({ name, path }).state !== "granted") {
      throw new Deno.errors.NotCapable(`Requires ${name} access to "${path}"`);
    }
  }
}

/** What {@linkcode assertPlainFile} found. */
export type FileCheck = Deno.FileInfo | null;

/**
 * Refuse a symbolic link, anything but a regular file, a file with more than
 * one hard link, or a file that belongs to another user. Returns the file's
 * info, or `null` when it does not exist and `missingOk` is set.
 */
export function assertPlainFile(
  path: string,
  { uid, missingOk = false, anyOwner = false, tops }: {
    /** The user, whose file it must be; `null` where there are no owners (Windows). */
    uid: number | null;
    /** Return `null` for a file that does not exist, instead of refusing. */
    missingOk?: boolean;
    /** Accept a file of another user's (a hand-in in the teacher's folder). */
    anyOwner?: boolean;
    /**
     * The granted folders, when a link may lie in a folder of the user's
     * own below them: its owner may remove it, whoever made it.
     */
    tops?: readonly string[];
  },
): FileCheck {
  const info = lstatOrNull(path);
  if (info === null) {
    if (missingOk) return null;
    throw new UnsafePath(path, PROBLEM.missing);
  }
  if (info.isSymlink) {
    throw new UnsafePath(
      path,
      PROBLEM.link,
      linkRemedy(path, info.uid, uid, tops),
    );
  }
  if (!info.isFile) throw new UnsafePath(path, PROBLEM.notFile);
  if (info.nlink !== null && info.nlink > 1) {
    throw new UnsafePath(path, PROBLEM.hardLinks(info.nlink));
  }
  if (!anyOwner && uid !== null && info.uid !== null && info.uid !== uid) {
    throw new UnsafePath(path, PROBLEM.owner(info.uid, uid));
  }
  return info;
}

/** The files SQLite keeps beside a database, which it opens by name too. */
export const COMPANIONS = ["-wal", "-shm", "-journal"] as const;

/**
 * What ends the name of the file guardlab keeps beside a database of the
 * private folder, with what it last saw of it (`lab.sqlite.checked`; see
 * `store/_provenance.ts`). Never opened by SQLite.
 */
export const PROOF_SUFFIX = ".checked";

/**
 * Check a database file before SQLite opens it: its folder is private, the
 * folders above cannot be swapped, and the file and each companion
 * (`-wal`, `-shm`, `-journal`) is a plain file of this user or absent; one
 * that will be written is also one no other user can open (see
 * `assertNoOtherCanOpen`). Returns whether the database file exists.
 */
export function checkDatabasePlace(
  path: string,
  { tops, mustExist = false }: {
    /** The granted folders the path is checked from. */
    tops: readonly string[];
    /**
     * Refuse a database file that does not exist: a read, which never
     * creates one, and never locks one either.
     */
    mustExist?: boolean;
  },
): boolean {
  const abs = resolve(path);
  assertGranted(abs, !mustExist);
  const uid = currentUid(tops[0]);
  const folder = dirname(abs);
  if (tops.includes(folder)) {
    // Directly in the granted folder (`/tmp`): nothing above it is ours to
    // check (the sandbox may not even look), and a shared one is no place
    // for a ledger, whose companions SQLite creates and removes by name.
    assertFolderChain(folder, uid, tops);
    if (privateFolderProblem(folder, uid) !== null) {
      const mkdir = pathCommand("mkdir -m 700", join(folder, "NAME")) ??
        "mkdir -m 700 DIR";
      throw new UnsafePath(
        path,
        {
          en: `is directly in the shared folder ${inert(folder)}, ` +
            "where other users can create and rename names beside it",
          zh: `直接放在共享目录 ${inert(folder)} 里，` +
            "其他用户可以在它旁边创建和改名",
        },
        {
          en: `keep a ledger file in a folder of your own (${mkdir})`,
          zh: `请把账本文件放在你自己的目录里（${mkdir}）`,
        },
      );
    }
  } else assertFolderChain(dirname(folder), uid, tops);
  const problem = privateFolderProblem(folder, uid);
  if (problem !== null) {
    throw new UnsafePath(
      path,
      {
        en: `is in ${inert(folder)}, which ${problem.en}`,
        zh: `所在目录 ${inert(folder)} ${problem.zh}`,
      },
      {
        en: "keep a ledger file in a folder of your own (mkdir -m 700 DIR)",
        zh: "请把账本文件放在你自己的目录里（mkdir -m 700 DIR）",
      },
    );
  }
  const info = assertPlainFile(abs, { uid, missingOk: !mustExist });
  for (const suffix of COMPANIONS) {
    assertPlainFile(abs + suffix, { uid, missingOk: true });
  }
  if (!mustExist) assertNoOtherCanOpen(abs, folder);
  return info !== null;
}

/**
 * Refuse a database guardlab is about to write, or one of its companions,
 * that another user could open: a folder they can enter, and a file they
 * can read. Another user's read lock (`fcntl`) on the file keeps SQLite
 * from folding the log back into it on close (so `-wal` and `-shm` stay,
 * and a copy of the file alone misses what they hold), and one on the
 * `-shm` stalls every writer. A view needs no such rule: it reads the file
 * into memory and never locks it. Files guardlab creates are made 0600
 * ({@linkcode createPrivateFile}), and SQLite gives the companions the
 * database's own mode, so only a file made otherwise is refused, the way
 * ssh refuses a key that others can read.
 */
function assertNoOtherCanOpen(abs: string, folder: string): void {
  const place = lstatOrNull(folder);
  if (
    place === null || place.mode === null ||
    (place.mode & GROUP_OR_OTHER_SEARCH) === 0
  ) {
    return;
  }
  for (const file of [abs, ...COMPANIONS.map((c) => abs + c)]) {
    const info = lstatOrNull(file);
    if (info === null || info.mode === null) continue;
    if ((info.mode & GROUP_OR_OTHER_ANY) === 0) continue;
    const chmodFile = pathCommand("chmod 600", file);
    const chmodFolder = pathCommand("chmod 700", folder);
    throw new UnsafePath(
      file,
      fill(SANDBOX_MESSAGES.openableByOthers, { mode: modeText(info) }),
      chmodFile === null || chmodFolder === null
        ? fill(SANDBOX_MESSAGES.makeItYoursNoCommand, {
          why: NO_COMMAND_FOR_NAME,
        })
        : fill(SANDBOX_MESSAGES.makeItYours, { chmodFile, chmodFolder }),
    );
  }
}

/**
 * Create the database file at `path` (already checked, and absent) empty,
 * readable and writable by this user alone, before SQLite opens it: SQLite
 * gives its `-wal`, `-shm` and `-journal` the database's mode, so no other
 * user can open any of them to take a lock, whatever the folder allows.
 * Another process of this user may have made it meanwhile; then it stays.
 * Returns whether this call made it.
 */
export function createPrivateFile(path: string): boolean {
  try {
    Deno.openSync(path, { write: true, createNew: true, mode: 0o600 })
      .close();
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      throw asRefusal(error, path);
    }
    return false;
  }
}
