/**
 * The global options (`--lang`, `--home`): every command takes them, and
 * `guardlab --help` promises them before the command too, as `git -C` and
 * `deno -q` users expect.
 *
 * @module
 */

/** The options every command takes that may also come before the command. */
const GLOBAL_OPTION = /^--(lang|home)(=.*)?$/;

/**
 * `args` with the global options given before the command (`--lang X`,
 * `--home DIR`, as `guardlab --help` lists them) moved after the command's
 * own words, where its parse reads them (before a `--`, which ends the
 * flags): `guardlab --home DIR mcp` is `guardlab mcp --home DIR`. With no
 * command after them, `args` as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globalsAfterCommand } from "./_global_options.ts";
 * assert.deepEqual(
 *   globalsAfterCommand(["--lang", "zh", "exercise", "show", "3"]),
 *   ["exercise", "show", "3", "--lang", "zh"],
 * );
 * ```
 */
export function globalsAfterCommand(args: readonly string[]): string[] {
  const globals: string[] = [];
  let i = 0;
  for (let m; i < args.length && (m = GLOBAL_OPTION.exec(args[i]));) {
    const takesNext = m[2] === undefined && i + 1 < args.length;
    globals.push(...args.slice(i, takesNext ? i + 2 : i + 1));
    i += takesNext ? 2 : 1;
  }
  const [command, ...after] = args.slice(i);
  if (globals.length === 0 || command === undefined) return [...args];
  const end = after.indexOf("--");
  return end < 0
    ? [command, ...after, ...globals]
    : [command, ...after.slice(0, end), ...globals, ...after.slice(end)];
}

/** Whether `word` is a global option (`--lang`, `--home`), with or without `=VALUE`. */
export function isGlobalOption(word: string): boolean {
  return GLOBAL_OPTION.test(word);
}
