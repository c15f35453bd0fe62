/**
 * Command-line parsing on `node:util`'s `parseArgs`, with every parse error
 * turned into a one-line {@linkcode UsageError}.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { BadLedgerName } from "../sandbox.ts";

/** Bad command-line input: one line for the user, exit 2. */
export class UsageError extends Error {
  /** Build a usage error; `command` selects which usage to show. */
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = "UsageError";
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parse `args` for `command` with `options` (plus `--help`). */
export function parseCommand<O extends Options>(
  command: string,
  args: string[],
  options: O,
) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error), command);
  }
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${printable(quoted)}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return `option ${printable(quoted.split(" ")[0])} needs a value`;
    default:
      return printable(message.split("\n")[0]);
  }
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

/** Refuse positional arguments beyond `max`. */
export function atMostPositionals(
  command: string,
  positionals: string[],
  max: number,
): void {
  if (positionals.length > max) {
    throw new UsageError(
      `unexpected argument ${printable(positionals[max])}`,
      command,
    );
  }
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
      `${flag} must be one of ${allowed.join(", ")} (got ${printable(value)})`,
      command,
    );
  }
  return value as T;
}

/** Rethrow a bad ledger name as a usage error for `command`. */
export function asUsage<T>(command: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof BadLedgerName) {
      throw new UsageError(error.message, command);
    }
    throw error;
  }
}
