/**
 * The grant: the folders guardlab may read and write, as `deno.json`'s
 * permission sets state them (`guardlab` for Linux and macOS,
 * `guardlab-windows`). Kept apart from `sandbox.ts` and free of imports but
 * the config, so the entry point can name the temp folder without loading
 * the sandbox's file checks (`guardlab --version` loads nothing else).
 *
 * @module
 */
import config from "../../deno.json" with { type: "json" };

const grant = Deno.build.os === "windows"
  ? config.permissions["guardlab-windows"]
  : config.permissions.guardlab;

/** The only folder the compiled binary may touch (`/tmp`, or `C:\Windows\Temp`). */
export const SANDBOX_ROOT: string = grant.write[0];

/** Every granted folder; a path inside one is checked from below it. */
export const GRANTED_FOLDERS: readonly string[] = grant.write;

/**
 * Whether this process may start another (the engineers' grant, which
 * `accept` and `proxy` need to start a server; the students' has no run).
 */
export function mayStartProcesses(): boolean {
  return Deno.permissions.querySync({ name: "run" }).state === "granted";
}
