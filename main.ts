/**
 * guardlab: the command-line entry. `main(args)` returns the exit code and
 * never lets a stack trace reach the user; the module stays importable.
 *
 * Each call loads only what it needs: `--version` is answered here, before
 * anything else loads; any other call loads the command line
 * (`lib/cli/mod.ts`), which loads only the command asked for.
 *
 * @module
 */
import config from "./deno.json" with { type: "json" };
import { runExitHooksOnSignals } from "./lib/base/exit_hooks.ts";
import { EXIT } from "./lib/cli/exit.ts";
import { type Io, processIo } from "./lib/cli/io.ts";

function version(): string {
  return `guardlab ${config.version} (deno ${Deno.version.deno}, ${Deno.build.target})`;
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
  if (args[0] === "--version" || args[0] === "-V") {
    io.out(version());
    return EXIT.ok;
  }
  // A literal specifier: the compiled binary embeds the command line.
  const { runCommandLine } = await import("./lib/cli/mod.ts");
  return await runCommandLine(args, io);
}

if (import.meta.main) {
  runExitHooksOnSignals();
  Deno.exitCode = await main(Deno.args);
}
