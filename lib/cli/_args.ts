/**
 * A command line's words read into flags and arguments the way `node:util`'s
 * `parseArgs` reads them (long and short flags, `--flag=value`, grouped
 * short flags, a string flag taking the next word, `--` ending the flags),
 * without loading `node:util`: importing it sets up Deno's Node
 * compatibility layer, a few milliseconds of every start
 * (`docs/en/reference/speed.md`). `tests/cli/args_test.ts` holds it to
 * `parseArgs` word for word, errors included.
 *
 * @module
 */

/** One flag a command takes. */
export interface ArgSpec {
  /** `string` takes a value; `boolean` does not. */
  readonly type: "string" | "boolean";
  /** A one-letter alias. */
  readonly short?: string;
  /** May be given more than once: its values are kept in a list, in order. */
  readonly multiple?: boolean;
}

/** What a command line held. */
export interface ReadArgs {
  /**
   * Each flag's value (the last one given): a string, or `true`; for a
   * flag that may be given more than once, every value in a list.
   */
  values: Record<string, string | true | (string | true)[]>;
  /** The other words, in order. */
  positionals: string[];
  /** Every flag as it was given, in order (a flag given twice is here twice). */
  flags: { name: string; value?: string }[];
}

/**
 * A word `readArgs` could not read, in strict mode. `flag` is the flag as
 * `parseArgs` names it in its message: as typed for an unknown or ambiguous
 * one, `-h, --help` style for one that misses or refuses a value.
 */
export class ArgsError extends Error {
  /** Build the error. */
  constructor(
    /** `unknown`: no such flag; `value`: a value missing, refused or ambiguous. */
    readonly kind: "unknown" | "value",
    /** The flag, as above. */
    readonly flag: string,
  ) {
    super(`${kind} flag ${flag}`);
    this.name = "ArgsError";
  }
}

/** The long name of short flag `letter` (the letter itself when none has it). */
function longOf(letter: string, specs: Readonly<Record<string, ArgSpec>>) {
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.short === letter) return name;
  }
  return letter;
}

/** The type of flag `name`, if `specs` has one of its own by that name. */
function typeOf(
  name: string,
  specs: Readonly<Record<string, ArgSpec>>,
): ArgSpec["type"] | undefined {
  return Object.hasOwn(specs, name) ? specs[name].type : undefined;
}

/**
 * Read `args` against `specs`. Strict: an unknown flag, a string flag with
 * no value or one that looks like a flag, and a boolean flag given a value
 * throw {@linkcode ArgsError}; otherwise anything goes and unknown flags are
 * read as booleans.
 */
export function readArgs(
  args: readonly string[],
  specs: Readonly<Record<string, ArgSpec>>,
  strict: boolean,
): ReadArgs {
  const values: ReadArgs["values"] = Object.create(null);
  const positionals: string[] = [];
  const flags: ReadArgs["flags"] = [];
  const rest = [...args];
  const take = (name: string, value: string | undefined, asGiven: string) => {
    if (strict) {
      if (!Object.hasOwn(specs, name)) throw new ArgsError("unknown", asGiven);
      const short = specs[name].short;
      const named = short ? `-${short}, --${name}` : `--${name}`;
      const type = specs[name].type;
      if (type === "string" && value === undefined) {
        throw new ArgsError("value", named);
      }
      if (type === "boolean" && value !== undefined) {
        throw new ArgsError("value", named);
      }
    }
    flags.push(value === undefined ? { name } : { name, value });
    if (name === "__proto__") return;
    if (Object.hasOwn(specs, name) && specs[name].multiple) {
      const list = values[name];
      values[name] = Array.isArray(list)
        ? [...list, value ?? true]
        : [value ?? true];
    } else values[name] = value ?? true;
  };
  /** The next word as the value of string flag `name`, typed as `asGiven`. */
  const valueAfter = (name: string, asGiven: string) => {
    if (typeOf(name, specs) !== "string" || rest.length === 0) return;
    const value = rest.shift()!;
    // `--job --json`: the value was most likely forgotten.
    if (strict && value.length > 1 && value.startsWith("-")) {
      throw new ArgsError("value", asGiven);
    }
    return value;
  };
  while (rest.length > 0) {
    const word = rest.shift()!;
    if (word === "--") {
      positionals.push(...rest);
      break;
    }
    const short = word.length >= 2 && word[0] === "-" && word[1] !== "-";
    if (short && word.length === 2) {
      const name = longOf(word[1], specs);
      take(name, valueAfter(name, word), word);
    } else if (short) {
      const first = longOf(word[1], specs);
      if (typeOf(first, specs) === "string") {
        // `-fVALUE`
        take(first, word.slice(2), `-${word[1]}`);
        continue;
      }
      // `-abc` is `-a -b -c`; a string flag inside takes the rest as its value.
      const expanded: string[] = [];
      for (let i = 1; i < word.length; i++) {
        const name = longOf(word[i], specs);
        if (typeOf(name, specs) !== "string" || i === word.length - 1) {
          expanded.push(`-${word[i]}`);
        } else {
          expanded.push(`-${word.slice(i)}`);
          break;
        }
      }
      rest.unshift(...expanded);
    } else if (word.length > 2 && word.startsWith("--")) {
      const equals = word.indexOf("=", 3);
      if (equals < 0) {
        const name = word.slice(2);
        take(name, valueAfter(name, word), word);
      } else {
        const name = word.slice(2, equals);
        take(name, word.slice(equals + 1), `--${name}`);
      }
    } else positionals.push(word);
  }
  return { values, positionals, flags };
}
