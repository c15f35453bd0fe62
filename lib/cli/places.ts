/**
 * Flags several commands share: the output format, and which ledger a
 * command works on (`--ledger NAME` in the private folder, or
 * `--ledger-file PATH`), opened for writing or read-only. (A FILE a command
 * reads: `user_file.ts`.)
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
import { fill } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import { systemRefusal } from "../sandbox/safe_fs.ts";
import type { OptionSpecs } from "./command.ts";
import type { Io } from "./io.ts";
import { PLACE_FLAGS, PLACE_MESSAGES as M } from "./messages/places.ts";
import { choice, UsageError } from "./parser.ts";

/** The output formats of the commands that draw. */
export const FORMATS = ["text", "json", "svg"] as const;

/** An output format. */
export type Format = typeof FORMATS[number];

/** `--json` and `--format`, for the commands that draw. */
export const FORMAT_OPTIONS = {
  json: { type: "boolean", help: PLACE_FLAGS.json },
  format: { type: "string", value: "FORMAT", help: PLACE_FLAGS.format },
} as const satisfies OptionSpecs;

/** The format asked for; `--json` with another `--format` is a usage error. */
export function formatOf(
  command: string,
  values: { json?: boolean; format?: string },
  allowed: readonly Format[] = FORMATS,
): Format {
  const format = choice(command, "--format", values.format, allowed);
  if (values.json && format !== undefined && format !== "json") {
    throw new UsageError(fill(M.contradict, { format }), command);
  }
  return values.json ? "json" : format ?? "text";
}

/** `--ledger` and `--ledger-file`. */
export const LEDGER_OPTIONS = {
  ledger: { type: "string", value: "NAME", help: PLACE_FLAGS.ledger },
  "ledger-file": {
    type: "string",
    value: "PATH",
    help: PLACE_FLAGS.ledgerFile,
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
    throw new UsageError(M.notBoth, command);
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
 * Read the ledger a show command names, read-only, with `read`; the ledger
 * is closed before this returns, whatever `read` did.
 */
export function readExisting<T>(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
  read: (ledger: Ledger) => T,
): T {
  const ledger = openExisting(command, io, values);
  try {
    return read(ledger);
  } finally {
    ledger.close();
  }
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
    throw new UsageError(M.ledgerRequired, command);
  }
  if (path === null || !lexists(path)) {
    throw new LedgerUnusable(
      values.ledger !== undefined
        ? fill(M.noLedgerNamed, { name: values.ledger })
        : fill(M.noLedgerFile, { path: inert(String(path)) }),
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
