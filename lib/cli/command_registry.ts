/**
 * The command registry: every command guardlab has, in the order the
 * overview lists them. Dispatch, usage, help and the tests read this list.
 *
 * @module
 */
import { accept } from "./commands/accept.ts";
import { compensate } from "./commands/compensate.ts";
import { config } from "./commands/config.ts";
import { demo } from "./commands/demo.ts";
import { exercise } from "./commands/exercise.ts";
import { explain } from "./commands/explain.ts";
import { ledger } from "./commands/ledger.ts";
import { mcp } from "./commands/mcp.ts";
import { proxy } from "./commands/proxy.ts";
import { reconcile } from "./commands/reconcile.ts";
import { reset } from "./commands/reset.ts";
import { run } from "./commands/run.ts";
import { sandbox } from "./commands/sandbox.ts";
import { script } from "./commands/script.ts";
import { verify } from "./commands/verify.ts";
import type { Command } from "./parser.ts";

/** Every command, in overview order. */
export const COMMANDS: readonly Command[] = [
  demo,
  verify,
  run,
  ledger,
  reconcile,
  compensate,
  reset,
  script,
  explain,
  exercise,
  mcp,
  accept,
  proxy,
  sandbox,
  config,
];

/** The command called `name`, if there is one (never an inherited property). */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
