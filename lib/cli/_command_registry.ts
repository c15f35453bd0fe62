/**
 * The command registry: every command guardlab has, in the order the
 * overview lists them, each with its one-line summary and a loader. Dispatch,
 * the overview and the usage after an error read this list; a command's
 * module is loaded only when that command runs (or shows its `--help`).
 *
 * Adding a command is one line here, its summary in `messages/overview.ts`,
 * and one folder, `commands/NAME/`: its `mod.ts` exports its
 * {@linkcode Command} under the command's name, and its texts sit beside it
 * (`_messages.ts`, imported from that folder only).
 * Each loader is a dynamic import of a literal specifier: `deno compile`
 * embeds exactly the modules it can see, and the binary's grant could not
 * read any other.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { Command } from "./command.ts";
import { SUMMARIES } from "./messages/overview.ts";

/** A command as the registry knows it: enough to list it without loading it. */
export interface CommandEntry {
  /** What the user types. */
  readonly name: string;
  /** One line for the overview. */
  readonly summary: Text;
  /** Load the command's module, which exports the command under `name`. */
  readonly load: () => Promise<Readonly<Record<string, unknown>>>;
}

/** An entry whose summary is the one under its name in {@linkcode SUMMARIES}. */
function entry(
  name: keyof typeof SUMMARIES,
  load: CommandEntry["load"],
): CommandEntry {
  return { name, summary: SUMMARIES[name], load };
}

/** Every command, in overview order. */
export const COMMANDS: readonly CommandEntry[] = [
  entry("demo", () => import("./commands/demo/mod.ts")),
  entry("verify", () => import("./commands/verify/mod.ts")),
  entry("run", () => import("./commands/run/mod.ts")),
  entry("ledger", () => import("./commands/ledger/mod.ts")),
  entry("reconcile", () => import("./commands/reconcile/mod.ts")),
  entry("compensate", () => import("./commands/compensate/mod.ts")),
  entry("reset", () => import("./commands/reset/mod.ts")),
  entry("script", () => import("./commands/script/mod.ts")),
  entry("explain", () => import("./commands/explain/mod.ts")),
  entry("exercise", () => import("./commands/exercise/mod.ts")),
  entry("mcp", () => import("./commands/mcp/mod.ts")),
  entry("accept", () => import("./commands/accept/mod.ts")),
  entry("proxy", () => import("./commands/proxy/mod.ts")),
  entry("sandbox", () => import("./commands/sandbox/mod.ts")),
  entry("config", () => import("./commands/config/mod.ts")),
];

/** The entry called `name`, if there is one (never an inherited property). */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** Load the command of `entry`: its module's export named after it. */
export async function loadCommand(listed: CommandEntry): Promise<Command> {
  const found = (await listed.load())[listed.name] as Command | undefined;
  // A slip in a new entry (a misnamed export) fails loudly, not as "unknown".
  if (found?.name !== listed.name || typeof found.run !== "function") {
    throw new Error(`the module of command ${listed.name} does not export it`);
  }
  return found;
}
