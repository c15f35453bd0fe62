/**
 * Reading the oracle file that `accept` and `proxy` are given: a malformed
 * oracle is a usage error naming its field; a missing file or a folder is
 * one line and exit 1; a file outside the grant is the sandbox's refusal.
 *
 * @module
 */
import { fill, type Lang, say } from "../base/i18n.ts";
import { BadOracle, type Oracle } from "../accept/oracle.ts";
import { loadOracle } from "../accept/start.ts";
import { EXIT, type ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";
import { ACCEPT_CLI_MESSAGES as M } from "./messages/accept.ts";
import { UsageError } from "./parser.ts";

/** The oracle in `file`, or the exit code after its one line was said. */
export async function readOracleFile(
  file: string,
  trusted: readonly string[],
  io: Io,
  lang: Lang,
  command: "accept" | "proxy",
): Promise<Oracle | ExitCode> {
  try {
    return await loadOracle(file, trusted);
  } catch (error) {
    if (error instanceof BadOracle) throw new UsageError(error.text, command);
    if (
      error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.IsADirectory
    ) {
      const line = fill(M.notReadable, {
        what: M.oracleWord,
        file: JSON.stringify(file),
      });
      io.err(`guardlab: ${say(line, lang)}`);
      return EXIT.failed;
    }
    throw error;
  }
}
