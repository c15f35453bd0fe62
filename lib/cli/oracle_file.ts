/**
 * Reading the oracle file that `accept` and `proxy` are given: a malformed
 * oracle is a usage error naming its field; a missing file or a folder is
 * one line and exit 1; a file outside the grant is the sandbox's refusal.
 *
 * @module
 */
import type { Lang, Text } from "../base/i18n.ts";
import { BadOracle, type Oracle } from "../accept/oracle.ts";
import { loadOracle } from "../accept/start.ts";
import { EXIT, type ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";
import { ACCEPT_PROXY_MESSAGES as M } from "./messages/common.ts";
import { UsageError } from "./parser.ts";
import { orUnreadable } from "./user_file.ts";

/**
 * What `read` returns, or, when `file` is missing or a folder, exit 1 after
 * the one line ({@linkcode orUnreadable}) naming `what` it should have
 * held. A bad file is the caller's to judge; a link or a file outside the
 * grant is the sandbox's refusal.
 */
export async function readOrSay<T>(
  read: () => Promise<T>,
  file: string,
  what: Text,
  io: Io,
  lang: Lang,
): Promise<T | ExitCode> {
  return (await orUnreadable(read, file, what, io, lang)) ?? EXIT.failed;
}

/** The oracle in `file`, or the exit code after its one line was said. */
export async function readOracleFile(
  file: string,
  trusted: readonly string[],
  io: Io,
  lang: Lang,
  command: "accept" | "proxy",
): Promise<Oracle | ExitCode> {
  try {
    return await readOrSay(
      () => loadOracle(file, trusted),
      file,
      M.oracleWord,
      io,
      lang,
    );
  } catch (error) {
    if (error instanceof BadOracle) throw new UsageError(error.text, command);
    throw error;
  }
}
