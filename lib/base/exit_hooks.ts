/**
 * Work to do before the process ends, in one place: when the last command
 * ends, on an uncaught error, at exit, and on SIGINT, SIGTERM and SIGHUP once
 * the entry point has called {@linkcode runExitHooksOnSignals}. A hook is
 * in one of two phases: every `close` hook (e.g. a database connection, so
 * a ledger at rest is one file) runs before every `remove` hook (e.g. the
 * scratch folders), newest first within a phase.
 *
 * @module
 */

/** When a hook runs: `close` first (connections), then `remove` (files). */
export type ExitPhase = "close" | "remove";

const hooks: Record<ExitPhase, Set<() => void>> = {
  close: new Set(),
  remove: new Set(),
};
let listening = false;

/**
 * Run `cleanup` before the process ends (see the module doc); dispose the
 * result to take it back.
 *
 * @example
 * ```ts
 * import { onExit, runExitHooks } from "./exit_hooks.ts";
 * let closed = false;
 * using _hook = onExit(() => closed = true);
 * runExitHooks();
 * if (!closed) throw new Error("the hook did not run");
 * ```
 */
export function onExit(
  cleanup: () => void,
  phase: ExitPhase = "close",
): Disposable {
  listenForExit();
  hooks[phase].add(cleanup);
  return { [Symbol.dispose]: () => void hooks[phase].delete(cleanup) };
}

/** Run every hook once, `close` before `remove`, newest first; a hook that throws does not stop the others. */
export function runExitHooks(): void {
  for (const phase of ["close", "remove"] as const) {
    for (const cleanup of [...hooks[phase]].reverse()) {
      hooks[phase].delete(cleanup);
      try {
        cleanup();
      } catch {
        // A cleanup that fails must not keep the others from running.
      }
    }
  }
}

function listenForExit(): void {
  if (listening) return;
  listening = true;
  globalThis.addEventListener("unload", runExitHooks);
  // An uncaught error ends the process without `unload`.
  globalThis.addEventListener("error", runExitHooks);
  globalThis.addEventListener("unhandledrejection", runExitHooks);
}

/** The signals that end a process by default, with their numbers. */
const SIGNALS: readonly [Deno.Signal, number][] = Deno.build.os === "windows"
  ? [["SIGINT", 2], ["SIGBREAK", 21]]
  : [["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1]];

/**
 * At the entry point only: on SIGINT (and SIGTERM, SIGHUP), run the hooks
 * and exit with 128 + the signal's number, as the default action would have.
 */
export function runExitHooksOnSignals(): void {
  for (const [signal, number] of SIGNALS) {
    try {
      Deno.addSignalListener(signal, () => {
        runExitHooks();
        Deno.exit(128 + number);
      });
    } catch {
      // A signal this platform does not deliver.
    }
  }
}
