/**
 * Flags several commands share: the output format, and which ledger a
 * command works on (`--ledger NAME` in the private folder, or
 * `--ledger-file PATH`), opened for writing or read-only.
 *
 * @module
 */
import { LedgerUnusable } from "../base/errors.ts";
import { Ledger } from "../timing/ledger.ts";
import {
  BadLedgerName,
  ledgerFolder,
  ledgerPaths,
  privateRoot,
  trustedFolders,
} from "../sandbox/sandbox.ts";
import { systemRefusal } from "../sandbox/safe_fs.ts";
import type { Text } from "../base/i18n.ts";
import type { Io } from "./io.ts";
import { choice, type OptionSpecs, UsageError } from "./parser.ts";

/**
 * Exit 4 for a command whose only files are scratch ledgers: it never needs
 * the private folder, so only an unsafe temp folder or scratch folder stops it.
 */
export const REFUSED_ROOT: Text = {
  en: "refused: the temp folder, or this command's scratch folder in it, " +
    "is a link, not yours or root's, or open to others",
  zh: "拒绝：临时目录或其中本命令的临时工作目录是链接、不属于你或 root，" +
    "或对他人开放",
};

/** The output formats of the commands that draw. */
export const FORMATS = ["text", "json", "svg"] as const;

/** An output format. */
export type Format = typeof FORMATS[number];

/** `--json` and `--format`, for the commands that draw. */
export const FORMAT_OPTIONS = {
  json: {
    type: "boolean",
    help: {
      en: "print JSON (same as --format json)",
      zh: "输出 JSON（同 --format json）",
    },
  },
  format: {
    type: "string",
    value: "FORMAT",
    help: {
      en: "text (the timeline, default), json or svg",
      zh: "text（时间线，默认）、json 或 svg",
    },
  },
} as const satisfies OptionSpecs;

/** The format asked for; `--json` with another `--format` is a usage error. */
export function formatOf(
  command: string,
  values: { json?: boolean; format?: string },
  allowed: readonly Format[] = FORMATS,
): Format {
  const format = choice(command, "--format", values.format, allowed);
  if (values.json && format !== undefined && format !== "json") {
    throw new UsageError({
      en: `--json and --format ${format} contradict each other`,
      zh: `--json 与 --format ${format} 互相矛盾`,
    }, command);
  }
  return values.json ? "json" : format ?? "text";
}

/** `--ledger` and `--ledger-file`. */
export const LEDGER_OPTIONS = {
  ledger: {
    type: "string",
    value: "NAME",
    help: {
      en: "a named ledger in your private folder (1-32 of a-z, 0-9, '-')",
      zh: "你私有目录中的命名账本（1-32 个 a-z、0-9、'-'）",
    },
  },
  "ledger-file": {
    type: "string",
    value: "PATH",
    help: {
      en: "a ledger file in a folder of your own (not the shared temp folder)",
      zh: "你自己目录中的账本文件（不能直接放在共享临时目录里）",
    },
  },
} as const satisfies OptionSpecs;

/** Rethrow a bad ledger name as a usage error for `command`. */
export function checkedName(command: string, name: string): string {
  try {
    ledgerPaths("", name);
    return name;
  } catch (error) {
    if (error instanceof BadLedgerName) {
      throw new UsageError(error.text, command);
    }
    throw error;
  }
}

/**
 * The ledger file a command names: `--ledger NAME` (a folder in the user's
 * private root, made when `create` is set) or `--ledger-file PATH`;
 * `undefined` when neither is given, `null` when the named one does not exist.
 */
export function ledgerFileOf(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
  create: boolean,
): string | null | undefined {
  if (values.ledger !== undefined && values["ledger-file"] !== undefined) {
    throw new UsageError({
      en: "give --ledger or --ledger-file, not both",
      zh: "--ledger 和 --ledger-file 只能给一个",
    }, command);
  }
  if (values["ledger-file"] !== undefined) return values["ledger-file"];
  if (values.ledger === undefined) return undefined;
  const name = checkedName(command, values.ledger);
  const root = privateRoot(io, { create });
  if (root === null) return null;
  return ledgerFolder(root, name, { create })?.lab ?? null;
}

/** Open the ledger a show command names, read-only: it never changes a byte. */
export function openExisting(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
): Ledger {
  return Ledger.open(existingLedgerPath(command, io, values), {
    mode: "read",
    trusted: trustedFolders(io.base),
  });
}

/**
 * The path of the ledger a command names, which must exist already: a
 * command that works on a ledger never creates one by mistake.
 */
export function existingLedgerPath(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
): string {
  const path = ledgerFileOf(command, io, values, false);
  if (path === undefined) {
    throw new UsageError({
      en: "--ledger NAME or --ledger-file PATH is required",
      zh: "需要 --ledger NAME 或 --ledger-file PATH",
    }, command);
  }
  if (path === null || !lexists(path)) {
    throw new LedgerUnusable(
      values.ledger !== undefined
        ? {
          en:
            `no ledger named ${values.ledger} (a run with --ledger ${values.ledger} creates it)`,
          zh:
            `没有名为 ${values.ledger} 的账本（用 --ledger ${values.ledger} 运行一次 run 会创建它）`,
        }
        : { en: `no ledger file at ${path}`, zh: `${path} 处没有账本文件` },
    );
  }
  return path;
}

/** Whether `path` names anything, a dangling link included. */
function lexists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw systemRefusal(error, path) ?? error;
  }
}
