/**
 * Work to do before the process ends, in one place: when the last command
 * ends, on an uncaught error, at exit, and on SIGINT, SIGTERM, SIGHUP and
 * SIGXFSZ once the entry point has called {@linkcode runExitHooksOnSignals}.
 * A hook is in one of two phases: every `close` hook (e.g. a database
 * connection, so a ledger at rest is one file) runs before every `remove`
 * hook (e.g. the scratch folders), newest first within a phase.
 *
 * A signal still ends the process while this thread is blocked waiting for
 * a worker ({@linkcode blockUntil}): a watcher thread, whose event loop is
 * free, sees the signal that this thread's own listeners cannot run for.
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

/**
 * The signals that end a process by default, with their numbers. SIGXFSZ
 * comes when a write would pass the file size limit (`ulimit -f`): with a
 * listener, the write fails (EFBIG) instead of the process dying on the
 * spot with the ledger's `-wal` and `-shm` left behind.
 */
const SIGNALS: readonly [Deno.Signal, number][] = Deno.build.os === "windows"
  ? [["SIGINT", 2], ["SIGBREAK", 21]]
  : [["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1], ["SIGXFSZ", 25]];

/** What to print when `signal` ends the process, if anything (see {@linkcode setLastWords}). */
let lastWords: (signal: Deno.Signal) => string | undefined = () => undefined;

/** Whether {@linkcode runExitHooksOnSignals} has been called. */
let signalsHandled = false;

/**
 * Say what the one line is that a signal prints before the process ends
 * (`undefined`: none), in the user's language: the entry point sets it once
 * it knows the language. SIGINT says nothing, as a shell's Ctrl-C does.
 */
export function setLastWords(
  words: (signal: Deno.Signal) => string | undefined,
): void {
  lastWords = words;
}

/** Run the hooks, print the last words for `signal`, and exit as its default action would. */
function endOn(signal: Deno.Signal, number: number): never {
  runExitHooks();
  const line = lastWords(signal);
  if (line !== undefined) {
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
    } catch {
      // Nobody reads stderr any more: the exit code still says it.
    }
  }
  Deno.exit(128 + number);
}

/**
 * At the entry point only: on SIGINT (and SIGTERM, SIGHUP, SIGXFSZ), run
 * the hooks and exit with 128 + the signal's number, as the default action
 * would have.
 */
export function runExitHooksOnSignals(): void {
  signalsHandled = true;
  for (const [signal, number] of SIGNALS) {
    try {
      Deno.addSignalListener(signal, () => endOn(signal, number));
    } catch {
      // A signal this platform does not deliver.
    }
  }
}

/**
 * Let a signal that has already been raised reach its listener: two turns
 * of the event loop that park on a timer, so the runtime reads its signal
 * pipe. Call it after a write failed in a way a signal may explain (a write
 * past `ulimit -f` fails with EFBIG and raises SIGXFSZ at once): a loop
 * that goes on writing would otherwise finish before the listener runs.
 */
export async function letPendingSignalsArrive(): Promise<void> {
  if (!signalsHandled) return;
  for (let turn = 0; turn < 2; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The watcher thread's cell: [signal number seen, ready]; `null` before it starts. */
let watched: Int32Array | null = null;

/** Whether the watcher has said it listens. */
let watcherReady = false;

/**
 * The watcher's body, run as the source of a worker (so it uses nothing
 * but its globals): it listens for `signals` and stores the number of the
 * one that came in `cell[0]`.
 */
function watchSignals(
  { cell, signals }: { cell: Int32Array; signals: [Deno.Signal, number][] },
): void {
  for (const [signal, number] of signals) {
    try {
      Deno.addSignalListener(signal, () => {
        Atomics.store(cell, 0, number);
        Atomics.notify(cell, 0);
      });
    } catch {
      // A signal this platform does not deliver.
    }
  }
  Atomics.store(cell, 1, 1);
  Atomics.notify(cell, 1);
}

/** How long a new watcher may take to listen before waiting goes on without it. */
const WATCHER_START_MS = 10_000;

/**
 * Start the thread that watches for signals while this one may block (see
 * {@linkcode blockUntil}), if the entry point handles signals and it is not
 * running yet. It does not wait for the thread: call it early, before the
 * work that will block, so the thread starts meanwhile.
 */
export function startSignalWatcher(): void {
  if (!signalsHandled || watched !== null) return;
  const cell = new Int32Array(new SharedArrayBuffer(8));
  // A web worker starts in half the time of a `node:worker_threads` one,
  // but keeps the process alive: it ends with the other hooks.
  const source = `self.onmessage = (e) => (${watchSignals.toString()})(e.data)`;
  const url = URL.createObjectURL(
    new Blob([source], { type: "text/javascript" }),
  );
  const worker = new Worker(url, { type: "module" });
  worker.postMessage({ cell, signals: SIGNALS });
  watched = cell;
  onExit(() => {
    worker.terminate();
    watched = null;
    watcherReady = false;
  }, "remove");
}

/** The watcher's cell once it listens; `null` when signals are not handled. */
function signalWatcher(): Int32Array | null {
  startSignalWatcher();
  if (watched === null) return null;
  if (!watcherReady) {
    // A signal before it listens would be seen by no thread that can act.
    Atomics.wait(watched, 1, 0, WATCHER_START_MS);
    watcherReady = true;
  }
  return watched;
}

/**
 * End the process now, as {@linkcode blockUntil} would, if a signal came
 * since the watcher started: long work on this thread (a view reading a
 * big ledger) calls it between its steps, so that Ctrl-C stops it there,
 * not when it is done. Start the watcher ({@linkcode startSignalWatcher})
 * before such work. Costs one atomic read.
 */
export function exitOnSignal(): void {
  if (signalWaiting()) endOn(...SIGNALS.find(([, n]) => n === watched![0])!);
}

/**
 * Whether the watcher has seen a signal that {@linkcode exitOnSignal} will
 * end the process on: a test's long work waits for it before going on.
 */
export function signalWaiting(): boolean {
  if (watched === null) return false;
  const number = Atomics.load(watched, 0);
  return number !== 0 && SIGNALS.some(([, n]) => n === number);
}

/** How often a blocked wait looks whether a signal came. */
const SIGNAL_POLL_MS = 50;

/**
 * Block this thread until `cell[index]` is no longer 0 (another thread
 * stores and notifies it) or `timeoutMs` have passed; returns whether it
 * changed. A signal that comes meanwhile ends the process as it would
 * otherwise (hooks run, 128 + its number), once the entry point handles
 * signals: Ctrl-C always works.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blockUntil } from "./exit_hooks.ts";
 * const cell = new Int32Array(new SharedArrayBuffer(4));
 * assert.equal(blockUntil(cell, 0, 1), false);
 * Atomics.store(cell, 0, 1);
 * assert.equal(blockUntil(cell, 0, 1), true);
 * ```
 */
export function blockUntil(
  cell: Int32Array,
  index: number,
  timeoutMs: number,
): boolean {
  const signals = signalWatcher();
  const end = performance.now() + timeoutMs;
  for (;;) {
    if (Atomics.load(cell, index) !== 0) return true;
    if (signals !== null) {
      const number = Atomics.load(signals, 0);
      const found = SIGNALS.find(([, n]) => n === number);
      if (found !== undefined) endOn(...found);
    }
    const left = end - performance.now();
    if (left <= 0) return false;
    Atomics.wait(
      cell,
      index,
      0,
      signals === null ? left : Math.min(left, SIGNAL_POLL_MS),
    );
  }
}
