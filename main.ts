/**
 * guardlab: the command-line entry. `main(args)` returns the exit code and
 * never lets a stack trace reach the user; the module stays importable.
 *
 * @module
 */
import config from "./deno.json" with { type: "json" };
import { COMMANDS, findCommand } from "./lib/cli/command_registry.ts";
import { EXIT } from "./lib/cli/exit.ts";
import { overview } from "./lib/cli/help.ts";
import { type Io, processIo } from "./lib/cli/io.ts";
import {
  langOf,
  parseFor,
  printable,
  showHelp,
  suggestion,
  UsageError,
  usageOf,
} from "./lib/cli/parser.ts";
import { readSettings } from "./lib/cli/settings.ts";
import { Refused } from "./lib/errors.ts";
import { type Lang, LANGS, say } from "./lib/i18n.ts";
import { refusalLine } from "./lib/sandbox/sandbox.ts";
import {
  removeScratchOnSignals,
  scratchSession,
} from "./lib/sandbox/scratch.ts";
import { wrap } from "./lib/terminal.ts";

/** `--lang X` or `--lang=X` anywhere in `args`, if it names a language. */
function langAsked(args: string[]): Lang | undefined {
  for (let i = 0; i < args.length; i++) {
    const value = args[i] === "--lang"
      ? args[i + 1]
      : args[i].startsWith("--lang=")
      ? args[i].slice(7)
      : undefined;
    if ((LANGS as readonly (string | undefined)[]).includes(value)) {
      return value as Lang;
    }
  }
  return undefined;
}

/** The language before any command has parsed its flags. */
function langOfCall(args: string[], io: Io): Lang {
  try {
    return langAsked(args) ?? readSettings(io.base).lang ?? "en";
  } catch {
    // An unreadable private folder is reported by the command itself.
    return "en";
  }
}

function version(): string {
  return `guardlab ${config.version} (deno ${Deno.version.deno}, ${Deno.build.target})`;
}

async function dispatch(args: string[], io: Io, lang: Lang): Promise<number> {
  const [first, ...rest] = args;
  if (first === "--version" || first === "-V") {
    io.out(version());
    return EXIT.ok;
  }
  if (
    first === undefined || first === "--help" || first === "-h" ||
    (first.startsWith("--lang") &&
      rest.every((a) => /^(-h|--help|en|zh)$/.test(a)))
  ) {
    for (const line of overview(lang)) {
      for (const l of wrap(line, 80)) io.out(l);
    }
    return EXIT.ok;
  }
  if (first === "help") {
    const topic = rest[0];
    if (topic === undefined) return dispatch([], io, lang);
    const cmd = findCommand(topic);
    if (cmd === undefined) throw unknownCommand(topic);
    return showHelp(io, cmd, lang);
  }
  const cmd = findCommand(first);
  if (cmd === undefined) throw unknownCommand(first);
  const { values, positionals } = parseFor(cmd, rest);
  const chosen = langOf(cmd.name, values.lang) ?? lang;
  if (values.help) return showHelp(io, cmd, chosen);
  return await cmd.run({ values, positionals, io, lang: chosen });
}

function unknownCommand(word: string): UsageError {
  const names = COMMANDS.map((c) => c.name);
  const hint = suggestion(word, names);
  return new UsageError(
    word.startsWith("-")
      ? {
        en: `unknown option ${printable(word)}`,
        zh: `未知选项 ${printable(word)}`,
      }
      : {
        en: `unknown command ${printable(word)}${hint.en}`,
        zh: `未知命令 ${printable(word)}${hint.zh}`,
      },
  );
}

/**
 * Run guardlab with `args` and return the exit code: 0 done, 1 failed,
 * 2 usage error, 3 reconcile found work, 4 refused.
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * import assert from "node:assert/strict";
 * const code = await main(["--version"]);
 * assert.equal(code, 0);
 * ```
 */
export async function main(
  args: string[],
  io: Io = processIo(),
): Promise<number> {
  const lang = args[0] === "--version" || args[0] === "-V"
    ? "en"
    : langOfCall(args, io);
  // Scratch folders live as long as the command: removed on every path out.
  using _scratch = scratchSession();
  try {
    return await dispatch(args, io, lang);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`guardlab: ${say(error.text, lang)}`);
      for (const line of usageOf(COMMANDS, error.command, lang)) io.err(line);
      return EXIT.usage;
    }
    if (error instanceof Deno.errors.NotCapable) {
      io.err(`guardlab: ${say(refusalLine(error), lang)}`);
      return EXIT.refused;
    }
    if (error instanceof Refused) {
      io.err(`guardlab: ${say(REFUSED, lang)}${say(error.text, lang)}`);
      return EXIT.refused;
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      // The operating system said no (EACCES, EPERM): a refusal, not a bug.
      io.err(`guardlab: ${say(REFUSED, lang)}${firstLine(error.message)}`);
      return EXIT.refused;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(
      `guardlab: ${say({ en: "internal error: ", zh: "内部错误：" }, lang)}${
        firstLine(message)
      }`,
    );
    return EXIT.failed;
  }
}

const REFUSED = { en: "refused: ", zh: "拒绝：" };

function firstLine(text: string): string {
  return text.split("\n")[0];
}

if (import.meta.main) {
  removeScratchOnSignals();
  Deno.exitCode = await main(Deno.args);
}
