/**
 * The `mcpServers` block an agent host (Claude Desktop, the MCP Inspector,
 * an Agents SDK script) needs to start `guardlab mcp` for this install,
 * with absolute paths only: hosts start a server in a working directory of
 * their own. Compiled, the command is the binary itself. From a checkout, it
 * is this `deno` with the `guardlab` task's flags from `deno.json` (the
 * binary's grant, one place), the lock file, the config and `main.ts`, each
 * by its absolute path. No SDK is loaded here.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };

/** Where this guardlab runs from. */
export interface Install {
  /** Whether this is a compiled binary. */
  standalone: boolean;
  /** The running executable: the binary, or `deno`. */
  execPath: string;
  /** The checkout's folder (where `deno.json` is), when not compiled. */
  root: string;
}

/** The block a host reads: one server, its command and its arguments. */
export interface HostConfig {
  /** The servers, by name. */
  mcpServers: { guardlab: { command: string; args: string[] } };
}

/** This process's install, as the runtime reports it (no permission needed). */
export function thisInstall(): Install {
  return {
    standalone: Deno.build.standalone,
    execPath: Deno.execPath(),
    root: fileURLToPath(new URL("../../", import.meta.url)),
  };
}

/**
 * The command line that starts guardlab outside any task: the `guardlab`
 * task's run of main.ts (or, with `task`, the `guardlab-engineer` task's:
 * the same run under the engineers' grant) with each file made absolute and
 * `--config` added, so `-P` finds its permission set from any folder. The
 * task's check of the Deno cache (scripts/deno_dir_check.js) runs before it
 * only under `deno task`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { launchCommand } from "./host_config.ts";
 * const { command, args } = launchCommand({
 *   standalone: false,
 *   execPath: "/usr/bin/deno",
 *   root: "/src/guardlab",
 * });
 * assert.equal(command, "/usr/bin/deno");
 * assert.ok(args.includes("/src/guardlab/main.ts"));
 * assert.ok(args.includes("--lock=/src/guardlab/deno.lock"));
 * ```
 */
export function launchCommand(
  install: Install,
  task: "guardlab" | "guardlab-engineer" = "guardlab",
): { command: string; args: string[] } {
  if (install.standalone) return { command: install.execPath, args: [] };
  // The task's run of main.ts, after its Deno-cache check and `&&`: a host
  // starts one command, with no shell, so that check does not run here.
  // `guardlab-engineer` is the same run under the engineers' grant.
  const run = config.tasks[task].split(" && ").at(-1)!;
  const [, ...words] = run.split(/\s+/);
  const args: string[] = [];
  for (const word of words) {
    const lock = /^--lock=(.+)$/.exec(word);
    if (lock) args.push(`--lock=${join(install.root, lock[1])}`);
    else if (word.startsWith("-P")) {
      args.push("--config", join(install.root, "deno.json"), word);
    } else if (word.endsWith(".ts")) args.push(join(install.root, word));
    else args.push(word);
  }
  return { command: install.execPath, args };
}

/** The `mcpServers` block that runs `guardlab mcp mcpArgs…` for `install`. */
export function hostConfig(
  mcpArgs: readonly string[],
  install: Install = thisInstall(),
): HostConfig {
  const { command, args } = launchCommand(install);
  return {
    mcpServers: {
      guardlab: { command, args: [...args, "mcp", ...mcpArgs] },
    },
  };
}
