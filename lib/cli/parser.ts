/**
 * What a command is: its name, summary, usage, options with their help,
 * the exit codes it can return, and its handler. Dispatch, the usage line,
 * the overview, each `--help` and the tests all read the same definitions
 * (see `command_registry.ts` for the list).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Lang, LANGS, same, say, type Text } from "../base/i18n.ts";
import { displayWidth, wrap } from "../base/terminal.ts";
import { TextError } from "../base/text_error.ts";
import { EXIT, EXIT_MEANING, type ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";

/** One flag of a command. */
export interface OptionSpec {
  /** `string` takes a value; `boolean` does not. */
  readonly type: "string" | "boolean";
  /** A one-letter alias. */
  readonly short?: string;
  /** How the value is shown in help, e.g. `NAME`. */
  readonly value?: string;
  /**
   * The values a string flag accepts, when they are a fixed list: the one
   * definition the parser validates against and usage and help are built
   * from (cliffy's `EnumType`).
   */
  readonly choices?: readonly string[];
  /** What the flag does. */
  readonly help: Text;
}

/** A command's flags, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed flags of a command: strings for value flags, booleans for the rest. */
export type Values<O extends OptionSpecs> =
  & {
    [K in keyof O]?: O[K]["type"] extends "string"
      ? O[K] extends { readonly choices: readonly (infer C)[] } ? C : string
      : boolean;
  }
  & { help?: boolean; lang?: string; home?: string };

/** What a handler receives. */
export interface Call<O extends OptionSpecs> {
  /** The flags given. */
  values: Values<O>;
  /** The other arguments, in order. */
  positionals: string[];
  /** The language to speak: `--lang`, else the stored preference, else English. */
  lang: Lang;
  /** Where to write and read. */
  io: Io;
}

/** One command of the CLI. */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** What the user types. */
  readonly name: string;
  /** One line for the overview. */
  readonly summary: Text;
  /** The synopsis after `usage: guardlab `. */
  readonly usage: string;
  /** What it does, for `--help`. */
  readonly about: Text;
  /** Its flags (`--help` and `--lang` are added to every command). */
  readonly options: O;
  /** How many positional arguments it takes at most. */
  readonly maxPositionals: number;
  /**
   * The exit codes it can return, each with what it means here (`null`: the
   * general meaning). Any command also exits 1 on an internal error.
   */
  readonly exits: Readonly<Partial<Record<ExitCode, Text | null>>>;
  /** Run it; returns the exit code. */
  run(call: Call<O>): number | Promise<number>;
}

/** Build a command, keeping its option types for the handler. */
export function command<O extends OptionSpecs>(spec: Command<O>): Command {
  return spec as unknown as Command;
}

/** Bad command-line input: one line for the user, exit 2. */
export class UsageError extends TextError {
  /** Build a usage error; `command` selects which usage to show. */
  constructor(message: Text | string, readonly command?: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The flags every command takes. */
export const COMMON: OptionSpecs = {
  home: {
    type: "string",
    value: "DIR",
    help: {
      en: "keep ledgers, settings and progress in DIR, a folder of your own " +
        "(default: /tmp/guardlab-UID)",
      zh:
        "把账本、设置和进度保存在 DIR（你自己的目录；默认 /tmp/guardlab-UID）",
    },
  },
  lang: {
    type: "string",
    value: LANGS.join("|"),
    choices: LANGS,
    help: {
      en: "language of this screen (default: `guardlab config lang`, else en)",
      zh: "本次输出的语言（默认：guardlab config lang 的设置，否则 en）",
    },
  },
  help: {
    type: "boolean",
    short: "h",
    help: { en: "show this help", zh: "显示本帮助" },
  },
};

/**
 * Parse `args` for `cmd`. Unknown flags (with a suggestion), a flag given
 * twice, a missing value and too many positionals are usage errors.
 */
export function parseFor<O extends OptionSpecs>(
  cmd: Command<O>,
  args: string[],
): { values: Values<O>; positionals: string[] } {
  const specs: OptionSpecs = { ...cmd.options, ...COMMON };
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, o]) => [
      name,
      o.short ? { type: o.type, short: o.short } : { type: o.type },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(
      describeParseError(error, Object.keys(specs)),
      cmd.name,
    );
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name)) {
      throw new UsageError({
        en: `--${token.name} is given twice`,
        zh: `--${token.name} 给了两次`,
      }, cmd.name);
    }
    seen.add(token.name);
  }
  if (parsed.positionals.length > cmd.maxPositionals) {
    const extra = parsed.positionals[cmd.maxPositionals];
    const asFlag = Object.keys(cmd.options).includes("ledger") &&
        /^[a-z0-9][a-z0-9-]*$/.test(extra)
      ? didYouMean(`--ledger ${extra}`)
      : same("");
    throw new UsageError({
      en: `unexpected argument ${printable(extra)}${asFlag.en}`,
      zh: `多余的参数 ${printable(extra)}${asFlag.zh}`,
    }, cmd.name);
  }
  // Enumerated flags, in the order the command lists them.
  for (const [name, o] of Object.entries(specs)) {
    const value = (parsed.values as Record<string, unknown>)[name];
    if (o.choices !== undefined && typeof value === "string") {
      choice(cmd.name, `--${name}`, value, o.choices);
    }
  }
  return {
    values: parsed.values as Values<O>,
    positionals: parsed.positionals,
  };
}

function describeParseError(error: unknown, flags: string[]): Text {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const hint = suggestion(
        quoted.replace(/^-+/, "").split("=")[0],
        flags,
        "--",
      );
      return {
        en: `unknown option ${printable(quoted)}${hint.en}`,
        zh: `未知选项 ${printable(quoted)}${hint.zh}`,
      };
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const flag = printable(quoted.split(" ")[0]);
      return {
        en: `option ${flag} needs a value`,
        zh: `选项 ${flag} 需要一个值`,
      };
    }
    default:
      return same(printable(message.split("\n")[0]));
  }
}

/** ` (did you mean X?)` in both languages. */
function didYouMean(what: string): Text {
  return { en: ` (did you mean ${what}?)`, zh: `（是不是想输入 ${what}？）` };
}

/** ` (did you mean X?)` for the closest of `names` to `typed`, or empty. */
export function suggestion(
  typed: string,
  names: readonly string[],
  prefix = "",
): Text {
  const folded = typed.toLowerCase().replaceAll("_", "-");
  let best = "";
  let bestDistance = Infinity;
  for (const name of names) {
    const d = distance(folded, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  const allowed = Math.max(1, Math.floor(best.length / 3));
  return best !== "" && bestDistance <= allowed
    ? didYouMean(prefix + best)
    : same("");
}

/** Edit distance (insert, delete, substitute), for suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j] + 1,
        row[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length];
}

/** Quote user text for a one-line message: control characters escaped, length capped. */
export function printable(text: string): string {
  const json = JSON.stringify(
    text.length > 60 ? text.slice(0, 60) + "…" : text,
  );
  return json.replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** Require a choice from `allowed`. */
export function choice<T extends string>(
  command: string,
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError({
      en: `${flag} must be one of ${allowed.join(", ")} (got ${
        printable(value)
      })`,
      zh: `${flag} 只能是 ${allowed.join("、")} 之一（收到 ${
        printable(value)
      }）`,
    }, command);
  }
  return value as T;
}

/**
 * The value of the first `--NAME X` or `--NAME=X` in `args`, read before
 * any command parses its flags (so that even a usage error speaks the
 * language asked for); a bad value is left for the command's own parse.
 */
export function flagAsked(
  args: readonly string[],
  name: string,
): string | undefined {
  const { tokens } = parseArgs({
    args: [...args],
    options: { [name]: { type: "string" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "option" && token.name === name) {
      return typeof token.value === "string" ? token.value : undefined;
    }
  }
  return undefined;
}

/** The language `args` ask for with `--lang`, if it names one. */
export function langAsked(args: readonly string[]): Lang | undefined {
  const value = flagAsked(args, "lang");
  return (LANGS as readonly (string | undefined)[]).includes(value)
    ? value as Lang
    : undefined;
}

/** The language a call asked for with `--lang`, if any. */
export function langOf(
  command: string,
  value: string | undefined,
): Lang | undefined {
  return choice(command, "--lang", value, LANGS);
}

/** How flag `name` is written in help: `-h, --help`, `--lang en|zh`. */
export function flagLabel(name: string, spec: OptionSpec): string {
  return (spec.short ? `-${spec.short}, ` : "") + `--${name}` +
    (spec.value ? ` ${spec.value}` : "");
}

const LABELS = {
  usage: { en: "usage: ", zh: "用法：" },
  options: { en: "Options:", zh: "选项：" },
  exits: { en: "Exit codes:", zh: "退出码：" },
} as const;

/** Lines of `--help` for `cmd` in `lang`: usage, what it does, options, its exit codes. */
export function helpOf(cmd: Command, lang: Lang): string[] {
  const lines = [
    `${say(LABELS.usage, lang)}guardlab ${cmd.usage}`,
    "",
    // Hand-written paragraphs, kept within 80 columns all the same.
    ...say(cmd.about, lang).split("\n").flatMap((l) => wrap(l, 80)),
    "",
    say(LABELS.options, lang),
  ];
  const specs: OptionSpecs = { ...cmd.options, ...COMMON };
  for (const [name, o] of Object.entries(specs)) {
    lines.push(...column(`  ${flagLabel(name, o)}`, say(o.help, lang)));
  }
  lines.push("", say(LABELS.exits, lang));
  for (const [code, detail] of Object.entries(cmd.exits)) {
    const general = say(EXIT_MEANING[Number(code) as ExitCode], lang);
    const text = detail ? say(detail, lang) : general;
    lines.push(...column(`  ${code}`, text, 6));
  }
  return lines;
}

/** `left` padded to `at` columns, then `text`, wrapped within 80 columns. */
function column(left: string, text: string, at = 25): string[] {
  const pad = " ".repeat(at);
  const out: string[] = [];
  let line = displayWidth(left) < at - 1
    ? left + " ".repeat(at - displayWidth(left))
    : (out.push(left), pad);
  for (const word of text.split(/(?<= )|(?=[\u3000-\u9fff\uff00-\uffef])/u)) {
    if (displayWidth(line + word) > 80 && line.trim() !== "") {
      out.push(line.trimEnd());
      line = pad + word.trimStart();
    } else line += word;
  }
  out.push(line.trimEnd());
  return out;
}

/** The short usage printed after a usage error: the command's synopsis, or the list. */
export function usageOf(
  commands: readonly Command[],
  name: string | undefined,
  lang: Lang,
): string[] {
  const cmd = commands.find((c) => c.name === name);
  const help = say({
    en: "guardlab <command> --help  |  guardlab --help",
    zh: "guardlab <命令> --help  |  guardlab --help",
  }, lang);
  if (cmd) {
    return [`${say(LABELS.usage, lang)}guardlab ${cmd.usage.split("\n")[0]}`];
  }
  return [
    `${say(LABELS.usage, lang)}guardlab <command> [options]`,
    `  commands: ${commands.map((c) => c.name).join(" ")}`,
    `  ${help}`,
  ].flatMap((line) => wrap(line, 80));
}

/** Write `--help` of `cmd` and return 0. */
export function showHelp(io: Io, cmd: Command, lang: Lang): number {
  for (const line of helpOf(cmd, lang)) io.out(line);
  return EXIT.ok;
}
