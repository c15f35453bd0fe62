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
  flagAsked,
  langAsked,
  langOf,
  parseFor,
  printable,
  showHelp,
  suggestion,
  UsageError,
  usageOf,
} from "./lib/cli/parser.ts";
import { storedSettings } from "./lib/cli/settings.ts";
import { Refused } from "./lib/base/errors.ts";
import { type Lang, say, type Text } from "./lib/base/i18n.ts";
import { refusalLine } from "./lib/sandbox/sandbox.ts";
import { runExitHooksOnSignals, setLastWords } from "./lib/base/exit_hooks.ts";
import { BASE_MESSAGES } from "./lib/base/messages.ts";
import { scratchSession } from "./lib/sandbox/scratch.ts";
import { wrap } from "./lib/base/terminal.ts";

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
    const { value, problem } = storedSettings(
      home === undefined ? io : { base: io.base, home },
    );
    const lang = asked ?? value.lang ?? "en";
    return problem === undefined ? { lang } : {
      lang,
      note: {
        en:
          `note: stored settings not read, so the default is used: ${problem.en}`,
        zh: `注意：未能读取保存的设置，因此使用默认值：${problem.zh}`,
      },
    };
  } catch {
    // Anything else (e.g. a --home outside the grant) the command reports.
    return { lang: asked ?? "en" };
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
  if (values.home === "") {
    throw new UsageError({
      en: "--home needs a folder",
      zh: "--home 需要一个目录",
    }, cmd.name);
  }
  const place = values.home === undefined ? io : { ...io, home: values.home };
  return await cmd.run({ values, positionals, io: place, lang: chosen });
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
  const { lang, note } = args[0] === "--version" || args[0] === "-V"
    ? { lang: "en" as const }
    : langOfCall(args, io);
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
  runExitHooksOnSignals();
  Deno.exitCode = await main(Deno.args);
}
