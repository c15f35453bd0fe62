/**
 * guardlab: the command-line entry. `main(args)` returns the exit code and
 * never lets a stack trace reach the user; the module stays importable.
 *
 * @module
 */
import config from "./deno.json" with { type: "json" };
import {
  demo,
  help,
  ledger,
  reconcile,
  reset,
  run,
  verifyCommand,
} from "./lib/cli/commands.ts";
import { explain } from "./lib/cli/explain.ts";
import { EXIT, USAGE } from "./lib/cli/help.ts";
import { type Io, processIo } from "./lib/cli/io.ts";
import { printable, UsageError } from "./lib/cli/parse.ts";
import { sandbox } from "./lib/cli/sandbox_report.ts";
import { script } from "./lib/cli/script.ts";
import { Refused } from "./lib/errors.ts";
import { refusalLine } from "./lib/sandbox.ts";

const COMMANDS: Record<
  string,
  (args: string[], io: Io) => number | Promise<number>
> = {
  demo,
  verify: verifyCommand,
  run,
  ledger,
  reconcile,
  reset,
  script,
  explain,
  sandbox,
};

async function dispatch(args: string[], io: Io): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined || first === "--help" || first === "-h") {
    return help(io, "guardlab");
  }
  if (first === "--version" || first === "-V") {
    io.out(`guardlab ${config.version}`);
    return EXIT.ok;
  }
  if (first === "help") {
    const topic = rest[0] ?? "guardlab";
    if (!Object.hasOwn(COMMANDS, topic) && topic !== "guardlab") {
      throw new UsageError(`unknown command ${printable(topic)}`);
    }
    return help(io, topic);
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (command === undefined) {
    throw new UsageError(
      first.startsWith("-")
        ? `unknown option ${printable(first)}`
        : `unknown command ${printable(first)}`,
    );
  }
  return await command(rest, io);
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}

/**
 * Run guardlab with `args` and return the exit code: 0 done, 1 failed,
 * 2 usage error, 3 reconcile found work, 4 refused.
 *
 * @example
 * ```ts
 * const code = await main(["verify"]);
 * ```
 */
export async function main(
  args: string[],
  io: Io = processIo(),
): Promise<number> {
  try {
    return await dispatch(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`guardlab: ${error.message}`);
      io.err(USAGE);
      return EXIT.usage;
    }
    if (error instanceof Deno.errors.NotCapable) {
      io.err(`guardlab: ${refusalLine(error)}`);
      return EXIT.refused;
    }
    if (error instanceof Refused) {
      io.err(`guardlab: refused: ${error.message}`);
      return EXIT.refused;
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      // The operating system said no (EACCES, EPERM): a refusal, not a bug.
      io.err(`guardlab: refused: ${firstLine(error.message)}`);
      return EXIT.refused;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`guardlab: internal error: ${firstLine(message)}`);
    return EXIT.failed;
  }
}

if (import.meta.main) {
  Deno.exitCode = await main(Deno.args);
}
