/**
 * What the command line shows about itself: the overview (`guardlab
 * --help`, built from the registry without loading a command), each
 * command's `--help`, and the short usage after a usage error.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import { mayStartProcesses, SANDBOX_ROOT } from "../sandbox/grant.ts";
import {
  type Command,
  COMMON,
  type OptionSpec,
  type OptionSpecs,
} from "./command.ts";
import { COMMANDS } from "./_command_registry.ts";
import { EXIT, type ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";
import { EXIT_MEANING, HELP_LABELS } from "./messages/common.ts";
import { OVERVIEW_MESSAGES } from "./messages/overview.ts";

/** `--version`: taken before any command, so it is not one of {@linkcode COMMON}. */
export const VERSION_FLAG: OptionSpec = {
  type: "boolean",
  short: "V",
  help: OVERVIEW_MESSAGES.version,
};

/** The lines of `guardlab --help` in `lang`. */
export function overview(lang: Lang): string[] {
  const m = OVERVIEW_MESSAGES;
  const text = (t: Text) => say(fill(t, { root: SANDBOX_ROOT }), lang);
  const lines = [text(m.title), "", text(m.commands)];
  for (const c of COMMANDS) {
    const name = `  ${c.name}`;
    lines.push(
      `${name}${" ".repeat(Math.max(1, 14 - displayWidth(name)))}${
        say(c.summary, lang)
      }`,
    );
  }
  lines.push("", text(m.options));
  // The flags every command takes, as the parser defines them; the
  // overview's own words for each.
  const flags: [string, OptionSpec, Text][] = [
    ["help", COMMON.help, m.help],
    ["version", VERSION_FLAG, m.version],
    ["lang", COMMON.lang, m.lang],
    ["home", COMMON.home, m.home],
  ];
  for (const [name, spec, help] of flags) {
    const flag = `  ${flagLabel(name, spec)}`;
    lines.push(
      `${flag}${" ".repeat(Math.max(1, 16 - displayWidth(flag)))}${
        say(help, lang)
      }`,
    );
  }
  lines.push(
    "",
    text(m.sandbox1),
    text(m.sandbox2),
    // Each screen is true of the grant it runs under: the engineers' build
    // may start a process, the student's may not.
    ...(mayStartProcesses()
      ? [text(m.sandbox3Engineer), text(m.sandbox4Engineer)]
      : [text(m.sandbox3)]),
    "",
    text(m.exits),
  );
  for (const code of Object.values(EXIT)) {
    lines.push(`  ${code}  ${say(EXIT_MEANING[code], lang)}`);
  }
  lines.push(text(m.exitsNote));
  return lines;
}

/** How flag `name` is written in help: `-h, --help`, `--lang en|zh`. */
export function flagLabel(name: string, spec: OptionSpec): string {
  return (spec.short ? `-${spec.short}, ` : "") + `--${name}` +
    (spec.value ? ` ${spec.value}` : "");
}

/** Lines of `--help` for `cmd` in `lang`: usage, what it does, options, its exit codes. */
export function helpOf(cmd: Command, lang: Lang): string[] {
  const lines = [
    `${say(HELP_LABELS.usage, lang)}guardlab ${cmd.usage}`,
    "",
    // Hand-written paragraphs, kept within 80 columns all the same.
    ...say(cmd.about, lang).split("\n").flatMap((l) => wrap(l, 80)),
    "",
    say(HELP_LABELS.options, lang),
  ];
  const specs: OptionSpecs = { ...cmd.options, ...COMMON };
  for (const [name, o] of Object.entries(specs)) {
    lines.push(...column(`  ${flagLabel(name, o)}`, say(o.help, lang)));
  }
  lines.push("", say(HELP_LABELS.exits, lang));
  for (const [code, detail] of Object.entries(cmd.exits)) {
    const general = say(EXIT_MEANING[Number(code) as ExitCode], lang);
    const text = detail ? say(detail, lang) : general;
    lines.push(...column(`  ${code}`, text, 6));
  }
  return lines;
}

/**
 * `left` padded to `at` columns, then `text`, wrapped before the 80th
 * column by the one wrapping rule (a Chinese word is never split, no line
 * starts with punctuation, a number stays with its unit).
 */
function column(left: string, text: string, at = 25): string[] {
  const pad = " ".repeat(at);
  const out: string[] = [];
  const first = displayWidth(left) < at - 1
    ? left + " ".repeat(at - displayWidth(left))
    : (out.push(left), pad);
  wrap(text, 79 - at, 0).forEach((line, i) =>
    out.push(((i === 0 ? first : pad) + line).trimEnd())
  );
  return out;
}

/**
 * The short usage printed after a usage error: the synopsis of `cmd`, or,
 * without one, the list of every command (names only: nothing is loaded).
 */
export function usageOf(cmd: Command | undefined, lang: Lang): string[] {
  const usage = say(HELP_LABELS.usage, lang);
  if (cmd) {
    // The first synopsis whole, up to the next `guardlab …` line: its first
    // line alone may stop mid-bracket (accept's ends in "|").
    const [head, ...rest] = cmd.usage.split("\n");
    const next = rest.findIndex((l) => l.trimStart().startsWith("guardlab "));
    return [
      `${usage}guardlab ${head}`,
      ...(next < 0 ? rest : rest.slice(0, next)),
    ];
  }
  return [
    `${usage}${say(HELP_LABELS.synopsis, lang)}`,
    `  ${say(HELP_LABELS.commandList, lang)}${
      COMMANDS.map((c) => c.name).join(" ")
    }`,
    `  ${say(HELP_LABELS.moreHelp, lang)}`,
  ].flatMap((line) => wrap(line, 80));
}

/** Write `--help` of `cmd` and return 0. */
export function showHelp(io: Io, cmd: Command, lang: Lang): number {
  for (const line of helpOf(cmd, lang)) io.out(line);
  return EXIT.ok;
}
