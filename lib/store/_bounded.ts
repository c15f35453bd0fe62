/**
 * A check of a file another user may have crafted, run where it can be
 * stopped. `node:sqlite` in Deno 2.9.6 has no progress handler and no
 * interrupt, so a statement that runs long cannot be cut short on the
 * thread that runs it. The inspection (`_inspect.ts`) therefore runs on a
 * worker thread, while this one waits with a time limit; a signal still
 * ends the process meanwhile (`blockUntil`). The work itself is bounded
 * before it starts: the image is at most `MAX_VIEW_BYTES`, and no row is
 * evaluated before the schema is proven to be guardlab's own, so every
 * expression evaluated is one of guardlab's, once per row.
 *
 * The worker is made once per process, on first use, and never keeps the
 * process alive; one that ran out of time is abandoned (SQLite cannot be
 * stopped mid-statement) and a new one serves the next check.
 *
 * @module
 */
import type * as WorkerThreads from "node:worker_threads";
import type { Worker } from "node:worker_threads";
import { blockUntil, startSignalWatcher } from "../base/exit_hooks.ts";
import { nodeBuiltin } from "../base/node_builtin.ts";
import type { DatabaseSync } from "node:sqlite";
import {
  type Finding,
  INSPECT_FUNCTIONS,
  inspectImage,
  type InspectSpec,
} from "./_inspect.ts";

/**
 * The longest a check of one file may take before it is stopped (and the
 * file, not known to be a ledger yet, is not used). The check is one pass
 * over the file: a valid ledger of 211 MB, 3,000,000 attempts, takes about
 * 1.5 s of one core to read and check; the rest is room for a busy
 * machine (the speed chapter, "Bounds on a view").
 */
export const CHECK_TIME_LIMIT_MS = 30_000;

/** How a check is bounded; the defaults are guardlab's. */
export interface CheckBounds {
  /** Milliseconds before the check is abandoned and the file refused. */
  timeLimitMs?: number;
  /**
   * For tests: the worker waits until `gate[0]` is no longer 0 before it
   * starts, so a test can hold a check for as long as it likes.
   */
  gate?: Int32Array;
}

/** The worker's body: answer each image with its {@linkcode Finding}. */
function serve(): void {
  const { parentPort } = require("node:worker_threads");
  parentPort.on("message", (
    { buffer, offset, length, spec, done, port, gate }: {
      buffer: SharedArrayBuffer;
      offset: number;
      length: number;
      spec: InspectSpec;
      done: Int32Array;
      port: MessagePort;
      gate?: Int32Array;
    },
  ) => {
    let answer: Finding | { error: string };
    try {
      if (gate !== undefined) Atomics.wait(gate, 0, 0);
      const image = new Uint8Array(buffer, offset, length);
      answer = inspectImage(image, spec, emptyInMemory);
    } catch (error) {
      answer = { error: String((error as Error)?.message ?? error) };
    }
    // The answer is in the port before the waiting thread wakes to read it.
    port.postMessage(answer);
    port.close();
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
  });
}

/**
 * Given to the worker by the opener (`db.ts`, the one place SQLite is
 * opened) as the source of a function of this name: an empty database in
 * memory, from the worker's own `node:sqlite`.
 */
declare function emptyInMemory(): DatabaseSync;

/** The worker's source: the opener's, the inspection, and the loop that serves. */
function sourceOf(opener: string): string {
  return [
    opener,
    ...INSPECT_FUNCTIONS.map((f) => f.toString()),
    `(${serve.toString()})()`,
  ].join("\n");
}

let checker: Worker | null = null;

/**
 * `node:worker_threads`, loaded when a file is first checked in full: a
 * command on a ledger whose provenance holds never loads it
 * (`base/node_builtin.ts`).
 */
function workerThreads(): typeof WorkerThreads {
  return nodeBuiltin<typeof WorkerThreads>("node:worker_threads");
}

/** `image` in memory both threads see, copied only if it is not already. */
function shared(image: Uint8Array): Uint8Array {
  if (image.buffer instanceof SharedArrayBuffer) return image;
  const copy = new Uint8Array(new SharedArrayBuffer(image.length));
  copy.set(image);
  return copy;
}

/** Only the data the inspection reads: a spec's texts stay on this side. */
function inspectSpec(spec: InspectSpec): InspectSpec {
  const { tables, rowChecks, optionalTables, triggers, badValues, create } =
    spec;
  return { tables, rowChecks, optionalTables, triggers, badValues, create };
}

/**
 * The {@linkcode Finding} on `image` against `spec`, found on a worker
 * thread within `bounds` (by default {@linkcode CHECK_TIME_LIMIT_MS}), or
 * `"timed-out"` when the check took longer. `opener` is the source of the
 * worker's `emptyInMemory()` (see {@linkcode startChecker}).
 */
export function inspectBounded(
  opener: string,
  image: Uint8Array,
  spec: InspectSpec,
  bounds: CheckBounds = {},
): Finding | "timed-out" {
  const { MessageChannel, receiveMessageOnPort } = workerThreads();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = startChecker(opener);
  try {
    // The shared buffer itself crosses at once; a typed array over it is
    // copied element by element (a second for every few megabytes).
    const view = shared(image);
    worker.postMessage({
      buffer: view.buffer,
      offset: view.byteOffset,
      length: view.byteLength,
      spec: inspectSpec(spec),
      done,
      port: port2,
      gate: bounds.gate,
    }, [port2]);
    if (!blockUntil(done, 0, bounds.timeLimitMs ?? CHECK_TIME_LIMIT_MS)) {
      // SQLite cannot be stopped mid-statement: leave that thread to end
      // with the process, and start afresh next time.
      checker = null;
      worker.terminate();
      return "timed-out";
    }
    const answer = receiveMessageOnPort(port1)?.message as
      | Finding
      | { error: string }
      | undefined;
    if (answer === undefined) throw new Error("the check gave no answer");
    if ("error" in answer) throw new Error(answer.error);
    return answer;
  } finally {
    port1.close();
  }
}

/**
 * Start the threads a check needs, if they are not running yet, without
 * waiting for them: the checker (whose SQLite comes from `opener`, the
 * source of a function `emptyInMemory()`), and the signal watcher when the
 * entry point handles signals. The opener calls it first, so both threads
 * start while it reads the file.
 */
export function startChecker(opener: string): Worker {
  startSignalWatcher();
  if (checker === null) {
    const { Worker } = workerThreads();
    // An environment of its own: the default copies this process's, which
    // asks for a permission the sandbox does not grant.
    checker = new Worker(sourceOf(opener), { eval: true, env: {} });
    // A worker waiting for the next image never keeps the process alive.
    checker.unref();
  }
  return checker;
}
