/**
 * A Node built-in module, loaded the first time it is needed rather than
 * when the program starts. Importing any `node:` module but `node:sqlite`
 * first sets up Deno's Node compatibility layer, 3–6 ms of a start
 * (`docs/en/reference/speed.md`); a module that only the full check of a
 * foreign ledger, an MCP session or a cancellable run needs takes its
 * built-in from here, through Node's own `process.getBuiltinModule`, so
 * that a command that never does those never pays for it.
 *
 * @module
 */

/** The built-ins loaded this way. */
export type LateBuiltin =
  | "node:async_hooks"
  | "node:path"
  | "node:timers"
  | "node:worker_threads";

/**
 * The built-in module `id`, loaded now if it was not yet (synchronously).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type * as Timers from "node:timers";
 * import { nodeBuiltin } from "./node_builtin.ts";
 * const { setImmediate } = nodeBuiltin<typeof Timers>("node:timers");
 * await new Promise((resolve) => setImmediate(resolve));
 * assert.equal(typeof setImmediate, "function");
 * ```
 */
export function nodeBuiltin<T>(id: LateBuiltin): T {
  const { process } = globalThis as unknown as {
    process: { getBuiltinModule(id: string): unknown };
  };
  return process.getBuiltinModule(id) as T;
}
