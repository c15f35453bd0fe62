/**
 * Reading a command line: a command's flags and arguments checked against
 * its definition (`command.ts`), the flags read before any command parses
 * (`--lang`, `--home`), and the usage errors, each one pointed line with a
 * suggestion where a near name exists.
 *
 * @module
 */
import { ArgsError, readArgs } from "./_args.ts";
import {
  fill,
  joinTexts,
  type Lang,
  LANGS,
  same,
  type Text,
} from "../base/i18n.ts";
import { TextError } from "../base/text_error.ts";
import {
  type Command,
  COMMON,
  type OptionSpecs,
  type Values,
} from "./command.ts";
import { PARSE_MESSAGES } from "./messages/common.ts";

/** Bad command-line input: one line for the user, exit 2. */
export class UsageError extends TextError {
  /** Build a usage error; `command` selects which usage to show. */
  constructor(message: Text | string, readonly command?: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Parse `args` for `cmd`. Unknown flags (with a suggestion), a flag given
 * twice, a missing value and too many positionals are usage errors.
 */
export function parseFor<O extends OptionSpecs>(
  cmd: Command<O>,
  args: string[],
): { values: Values<O>; positionals: string[] } {
  const specs: OptionSpecs = { ...cmd.options, ...COMMON };
  let parsed;
  try {
    parsed = readArgs(args, specs, true);
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    throw new UsageError(
      describeParseError(error, Object.keys(specs)),
      cmd.name,
    );
  }
  const seen = new Set<string>();
  for (const { name } of parsed.flags) {
    if (seen.has(name) && !specs[name]?.multiple) {
      throw new UsageError(
        fill(PARSE_MESSAGES.givenTwice, { flag: name }),
        cmd.name,
      );
    }
    seen.add(name);
  }
  if (parsed.positionals.length > cmd.maxPositionals) {
    const extra = parsed.positionals[cmd.maxPositionals];
    const hint = Object.keys(cmd.options).includes("ledger") &&
        /^[a-z0-9][a-z0-9-]*$/.test(extra)
      ? didYouMean(`--ledger ${extra}`)
      : same("");
    throw new UsageError(
      fill(PARSE_MESSAGES.unexpectedArgument, { arg: printable(extra), hint }),
      cmd.name,
    );
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

function describeParseError(error: ArgsError, flags: string[]): Text {
  const { flag } = error;
  return error.kind === "unknown"
    ? fill(PARSE_MESSAGES.unknownOption, {
      option: printable(flag),
      hint: suggestion(flag.replace(/^-+/, "").split("=")[0], flags, "--"),
    })
    : fill(PARSE_MESSAGES.needsValue, { flag: printable(flag.split(" ")[0]) });
}

/** ` (did you mean X?)` in both languages. */
function didYouMean(what: string): Text {
  return fill(PARSE_MESSAGES.didYouMean, { what });
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

/**
 * User text quoted for a line in each language: as {@linkcode printable}
 * (control characters escaped, length capped) between `"…"` in English and
 * `“…”` in Chinese.
 */
export function printableText(text: string): Text {
  return fill(PARSE_MESSAGES.quoted, { text: printable(text).slice(1, -1) });
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
    throw new UsageError(
      fill(PARSE_MESSAGES.mustBeOneOf, {
        flag,
        allowed: joinTexts(allowed.map(same), PARSE_MESSAGES.listSeparator),
        got: printable(value),
      }),
      command,
    );
  }
  return value as T;
}

/** A whole-number flag within `[min, max]`, or `fallback` when it is not given. */
export function wholeFlag(
  command: string,
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      fill(PARSE_MESSAGES.badNumber, { flag, min, max, got: printable(value) }),
      command,
    );
  }
  return n;
}

/** The value of a flag `command` cannot run without; `flag` as help writes it (`--job JOB`). */
export function required(
  command: string,
  flag: string,
  value: string | undefined,
): string {
  if (value === undefined) {
    throw new UsageError(fill(PARSE_MESSAGES.required, { flag }), command);
  }
  return value;
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
  const { flags } = readArgs(args, { [name]: { type: "string" } }, false);
  return flags.find((flag) => flag.name === name)?.value;
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

/** A usage error for `word` where a command name was expected. */
export function unknownCommand(
  word: string,
  names: readonly string[],
): UsageError {
  return new UsageError(
    word.startsWith("-")
      ? fill(PARSE_MESSAGES.unknownOption, {
        option: printableText(word),
        hint: same(""),
      })
      : fill(PARSE_MESSAGES.unknownCommand, {
        command: printableText(word),
        hint: suggestion(word, names),
      }),
  );
}
