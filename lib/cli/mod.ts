/**
 * The command line: one call from its arguments to its exit code
 * ({@linkcode runCommandLine}), the registry of commands, and what a command
 * is.
 *
 * How it is laid out:
 * - `_command_registry.ts` lists every command with its summary and a loader;
 *   `_dispatch.ts` loads only the command a call names, so each call pays
 *   for its own modules only (and `main.ts` answers `--version` before any
 *   of this loads).
 * - `commands/NAME/`: one folder per command: `mod.ts` holds its flags,
 *   exit codes and handler, exported under its name, and `_messages.ts`
 *   beside it its help and texts (imported from that folder only).
 * - `command.ts` (what a command is), `parser.ts` (reading a command line),
 *   `_help.ts` (the overview, `--help`, the usage after an error).
 * - `places.ts` (the ledger and format flags several commands share),
 *   `output.ts` (writing a command's result), `settings.ts` (the stored
 *   language, name and course), `io.ts` (stdout, stderr, stdin), `exit.ts`
 *   (the exit codes).
 * - `messages/`: the texts several commands share, in both languages
 *   (`common.ts`, `overview.ts`, `places.ts`; accept's and proxy's until
 *   their own folders take them); no module here writes a text inline or
 *   picks a language.
 *
 * @module
 */
export { type Call, type Command, command, COMMON } from "./command.ts";
export type { OptionSpec, OptionSpecs, Values } from "./command.ts";
export {
  type CommandEntry,
  COMMANDS,
  findCommand,
  loadCommand,
} from "./_command_registry.ts";
export { runCommandLine } from "./_dispatch.ts";
export { EXIT, type ExitCode } from "./exit.ts";
export { type Io, memoryIo, processIo } from "./io.ts";
