/**
 * One call of the command line, from its arguments to its exit code: the
 * language to speak, the overview or `help`, then the one command asked for,
 * loaded only now, its flags parsed and its handler run. Every way a call can
 * go wrong ends here as one line and an exit code, never a stack trace.
 *
 * @module
 */
import { isSqliteWriteFailure, Refused } from "../base/errors.ts";
import { setLastWords } from "../base/exit_hooks.ts";
import { BASE_MESSAGES } from "../base/messages.ts";
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { wrap } from "../base/terminal.ts";
import { refusalLine } from "../sandbox/sandbox.ts";
import { scratchSession } from "../sandbox/scratch.ts";
import type { Command } from "./command.ts";
import { COMMANDS, findCommand, loadCommand } from "./_command_registry.ts";
import { EXIT } from "./exit.ts";
import { overview, showHelp, usageOf } from "./_help.ts";
import type { Io } from "./io.ts";
import { DISPATCH_MESSAGES as M } from "./messages/common.ts";
import {
  flagAsked,
  langAsked,
  langOf,
  parseFor,
  unknownCommand,
  UsageError,
} from "./parser.ts";
import { globalsAfterCommand, isGlobalOption } from "./_global_options.ts";
import { storedLang } from "./_settings_file.ts";

/**
 * The language before any command has parsed its flags, and the one line to
 * print when the stored settings were needed but could not be read (an
 * unsafe private folder): the command then runs in the default language.
 */
function langOfCall(args: string[], io: Io): { lang: Lang; note?: Text } {
  const asked = langAsked(args);
  // `config` shows the stored settings even when --lang picks the screen's.
  if (asked !== undefined && args[0] !== "config") return { lang: asked };
  const home = flagAsked(args, "home");
  try {
    const { value, problem } = storedLang(
      home === undefined ? io : { base: io.base, home },
    );
    const lang = asked ?? value ?? "en";
    return problem === undefined
      ? { lang }
      : { lang, note: fill(M.settingsNotRead, { problem }) };
  } catch {
    // Anything else (e.g. a --home outside the grant) the command reports.
    return { lang: asked ?? "en" };
  }
}

/** The command called `name`, loaded; a usage error when there is none. */
async function commandNamed(name: string): Promise<Command> {
  const listed = findCommand(name);
  if (listed === undefined) {
    throw unknownCommand(name, COMMANDS.map((c) => c.name));
  }
  return await loadCommand(listed);
}

async function dispatch(args: string[], io: Io, lang: Lang): Promise<number> {
  const [first, ...rest] = args;
  if (first !== undefined && isGlobalOption(first)) {
    // Global options and no command (`guardlab --lang zh`): the overview,
    // once the language asked for is one guardlab speaks.
    langOf("guardlab", flagAsked(args, "lang"));
  }
  if (
    first === undefined || first === "--help" || first === "-h" ||
    (isGlobalOption(first) &&
      rest.every((a) => /^(-h|--help)$/.test(a) || !a.startsWith("-")))
  ) {
    for (const line of overview(lang)) {
      for (const l of wrap(line, 80)) io.out(l);
    }
    return EXIT.ok;
  }
  if (first === "help") {
    const topic = rest[0];
    if (topic === undefined) return dispatch([], io, lang);
    return showHelp(io, await commandNamed(topic), lang);
  }
  const cmd = await commandNamed(first);
  const { values, positionals } = parseFor(cmd, rest);
  const chosen = langOf(cmd.name, values.lang) ?? lang;
  if (values.help) return showHelp(io, cmd, chosen);
  if (values.home === "") throw new UsageError(M.homeNeedsFolder, cmd.name);
  const place = values.home === undefined ? io : { ...io, home: values.home };
  return await cmd.run({ values, positionals, io: place, lang: chosen });
}

/** The usage after a usage error: the synopsis of `name`, or the list. */
async function usageAfter(
  name: string | undefined,
  lang: Lang,
): Promise<string[]> {
  const listed = name === undefined ? undefined : findCommand(name);
  return usageOf(listed && await loadCommand(listed), lang);
}

/**
 * Run one call of the command line (any but `--version`, which the entry
 * point answers before this module loads) and return its exit code.
 */
export async function runCommandLine(
  given: string[],
  io: Io,
): Promise<number> {
  // `guardlab --home DIR mcp` is `guardlab mcp --home DIR`.
  const args = globalsAfterCommand(given);
  const { lang, note } = langOfCall(args, io);
  // A write past `ulimit -f` ends the process (SIGXFSZ): say why, in its language.
  setLastWords((signal) =>
    signal === "SIGXFSZ"
      ? `guardlab: ${say(BASE_MESSAGES.fileSizeLimit, lang)}`
      : undefined
  );
  // Scratch folders live as long as the command: removed on every path out.
  using _scratch = scratchSession();
  try {
    const code = await dispatch(args, io, lang);
    // A refusal stays one line; otherwise say why the default was used.
    if (note !== undefined && code !== EXIT.refused && code !== EXIT.usage) {
      io.err(`guardlab: ${say(note, lang)}`);
    }
    return code;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`guardlab: ${say(error.text, lang)}`);
      for (const line of await usageAfter(error.command, lang)) io.err(line);
      return EXIT.usage;
    }
    if (error instanceof Deno.errors.NotCapable) {
      io.err(`guardlab: ${say(refusalLine(error), lang)}`);
      return EXIT.refused;
    }
    if (error instanceof Refused) {
      io.err(`guardlab: ${say(M.refused, lang)}${say(error.text, lang)}`);
      return EXIT.refused;
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      // The operating system said no (EACCES, EPERM): a refusal, not a bug.
      io.err(`guardlab: ${say(M.refused, lang)}${firstLine(error.message)}`);
      return EXIT.refused;
    }
    if ((error as { code?: unknown } | null)?.code === "ENOSPC") {
      io.err(`guardlab: ${say(M.noSpace, lang)}`);
      return EXIT.failed;
    }
    if (isSqliteWriteFailure(error)) {
      const why = firstLine(error.message);
      io.err(`guardlab: ${say(fill(M.sqliteNotWritten, { why }), lang)}`);
      return EXIT.failed;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`guardlab: ${say(M.internalError, lang)}${firstLine(message)}`);
    return EXIT.failed;
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}
