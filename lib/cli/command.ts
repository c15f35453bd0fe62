/**
 * What a command is: its name, usage, options with their help, the exit
 * codes it can return, and its handler. A command lives in a folder of
 * `commands/` whose `mod.ts` exports it under its name;
 * `_command_registry.ts` lists every command with its summary and loads a
 * command's module only when that command runs.
 *
 * @module
 */
import { type Lang, LANGS, type Text } from "../base/i18n.ts";
import type { ExitCode } from "./exit.ts";
import type { Io } from "./io.ts";
import { COMMON_FLAGS } from "./messages/common.ts";

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
  /** A string flag that may be given more than once: its values, in order. */
  readonly multiple?: boolean;
  /** What the flag does. */
  readonly help: Text;
}

/** A command's flags, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed flags of a command: strings for value flags, booleans for the rest. */
export type Values<O extends OptionSpecs> =
  & {
    [K in keyof O]?: O[K]["type"] extends "string"
      ? O[K] extends { readonly multiple: true } ? string[]
      : O[K] extends { readonly choices: readonly (infer C)[] } ? C
      : string
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

/**
 * One command of the CLI. Its one-line summary is not here: the registry
 * holds it, so the overview lists every command without loading any.
 */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** What the user types (the registry entry's name). */
  readonly name: string;
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
export function command<O extends OptionSpecs>(
  spec: Command<O>,
): Command {
  return spec as unknown as Command;
}

/** The flags every command takes. */
export const COMMON: OptionSpecs = {
  home: { type: "string", value: "DIR", help: COMMON_FLAGS.home },
  lang: {
    type: "string",
    value: LANGS.join("|"),
    choices: LANGS,
    help: COMMON_FLAGS.lang,
  },
  help: { type: "boolean", short: "h", help: COMMON_FLAGS.help },
};
