/**
 * A server process guardlab starts (`accept`'s server, `proxy`'s server),
 * with every end of its life bounded. The server runs in a process group
 * of its own, so whatever it starts goes with it: a process it started may
 * hold its stdout open after it exits, and a read of that pipe would then
 * wait as long as that process lives. So the end is always the same three
 * steps, each bounded: close the server's input and give it
 * {@linkcode EXIT_GRACE_MS} to exit; end its process group (SIGKILL); stop
 * reading its pipes. If guardlab ends first (Ctrl-C, an error), the group
 * is ended on the way out. The child runs with the user's own rights:
 * Deno's sandbox covers guardlab, not the process it starts.
 *
 * @module
 */
import config from "../../deno.json" with { type: "json" };
import { onExit } from "../base/exit_hooks.ts";
import { DRAIN_GRACE_MS, EXIT_GRACE_MS } from "./limits.ts";

/**
 * The environment a started server gets, when set: the engineer grant's
 * env list for this system (the MCP SDK's own default list), read from
 * deno.json, the one place the grant is stated. Its pattern
 * `GUARDLAB_HEADER_*` is guardlab's own (the values of `--header-env`)
 * and never reaches the child.
 */
export const CHILD_ENV: readonly string[] = config.permissions[
  Deno.build.os === "windows"
    ? "guardlab-engineer-windows"
    : "guardlab-engineer"
].env.allow.filter((name) => !name.endsWith("*"));

/** The variables of {@linkcode CHILD_ENV} this process may read and has set. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of CHILD_ENV) {
    if (
      Deno.permissions.querySync({ name: "env", variable: name }).state !==
        "granted"
    ) continue;
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Process groups exist here (not on Windows, where only the server itself is ended). */
const GROUPS = Deno.build.os !== "windows";

/** Resolve with `promise`'s value, or with `fallback` after `ms`, whichever comes first. */
export function within<T, F>(
  promise: Promise<T>,
  ms: number,
  fallback: F,
): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<F>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A started server: its pipes, and the bounded ways its life ends. */
export interface ServerProcess {
  /** The server's process id (its process group's id too, where groups exist). */
  readonly pid: number;
  /** What it writes to stdout; ends when it closes the pipe or guardlab stops reading. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** What it writes to stderr, when piped; ends as stdout does. */
  readonly stderr: ReadableStream<Uint8Array> | null;
  /** Write to its stdin; nothing once its input is closed. */
  write(bytes: Uint8Array): void;
  /**
   * Settles once what was written has gone into its stdin (or its input is
   * closed): a writer that waits for it before reading more keeps at most
   * one write in memory, however slowly the server reads.
   */
  ready(): Promise<void>;
  /** Settles when the server itself exits: its code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  /**
   * The end, each step bounded: close its input, wait up to
   * {@linkcode EXIT_GRACE_MS} for it to exit, end its process group, stop
   * reading its pipes. Resolves with its exit code, or null when it had to
   * be killed.
   */
  end(): Promise<number | null>;
  /** End its process group at once (SIGKILL), then stop reading its pipes. */
  kill(): Promise<void>;
  /**
   * The end of a server that reads no input (an HTTP API), each step
   * bounded: SIGTERM to its process group, {@linkcode EXIT_GRACE_MS} to
   * exit, then SIGKILL, then its pipes are no longer read.
   */
  terminate(): Promise<number | null>;
  /**
   * Stop reading its pipes: after the server exited, a process it started
   * may still hold them open.
   */
  stopReading(): void;
}

/**
 * Start `command` with `args` in a process group of its own, with only
 * {@linkcode CHILD_ENV} of this environment and `env` (what guardlab sets
 * for it: an HTTP API's `PORT`, the three variables `accept host` hands a
 * host); stderr piped (kept by the caller) or inherited; stdin piped, or
 * (`options.stdin: "null"`, a host that reads nothing of guardlab's) none.
 */
export function startServerProcess(
  command: string,
  args: readonly string[],
  stderr: "piped" | "inherit",
  /** Variables guardlab itself sets for this server (an HTTP API's `PORT`), beside {@linkcode CHILD_ENV}. */
  env: Readonly<Record<string, string>> = {},
  /** How the server's stdin is set up: piped (default), or none (`accept host`'s host reads nothing of guardlab's). */
  options: { readonly stdin?: "piped" | "null" } = {},
): ServerProcess {
  const piped = options.stdin !== "null";
  const child = new Deno.Command(command, {
    args: [...args],
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr,
    clearEnv: true,
    env: { ...childEnv(), ...env },
    // A session of its own: its process group is its pid, and ending the
    // group ends what it started.
    detached: GROUPS,
  }).spawn();
  const stop = new AbortController();
  const cut = (s: ReadableStream<Uint8Array>) =>
    s.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), {
      signal: stop.signal,
    });
  const writer = piped
    ? child.stdin.getWriter()
    : new WritableStream<Uint8Array>().getWriter();
  let inputOpen = piped;
  const exited = child.status.then((s) => s.signal ? null : s.code);
  const killGroup = (signal: Deno.Signal = "SIGKILL") => {
    try {
      if (GROUPS) Deno.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // The group is gone already.
    }
  };
  // If guardlab itself ends first (Ctrl-C, an error), the group ends with
  // it: in a session of its own, the server no longer gets the terminal's
  // signals.
  const atExit = onExit(() => killGroup());
  const stopReading = () => {
    stop.abort();
    atExit[Symbol.dispose]();
  };
  // The grace to exit, then the group ended and the pipes no longer read:
  // the server's own code, or null when it had to be killed.
  const afterGrace = async () => {
    const code = await within(exited, EXIT_GRACE_MS, "running" as const);
    killGroup();
    const final = code === "running"
      ? await within(exited, EXIT_GRACE_MS, null)
      : code;
    stopReading();
    return code === "running" ? null : final;
  };
  const closeInput = async () => {
    if (!inputOpen) return;
    inputOpen = false;
    // A server that never reads leaves a write pending on a full pipe:
    // the close waits for it, so it is bounded too.
    await within(writer.close().catch(() => {}), EXIT_GRACE_MS, undefined);
  };
  return {
    pid: child.pid,
    stdout: cut(child.stdout),
    stderr: stderr === "piped" ? cut(child.stderr) : null,
    write(bytes) {
      if (inputOpen) writer.write(bytes).catch(() => {});
    },
    ready() {
      // A server that has exited or stopped reading ends the wait too: its
      // end closes the input (kill, end), or the write fails.
      return inputOpen
        ? Promise.race([writer.ready.catch(() => {}), exited.then(() => {})])
        : Promise.resolve();
    },
    exited,
    async end() {
      await closeInput();
      return await afterGrace();
    },
    async kill() {
      inputOpen = false;
      killGroup();
      await within(exited, EXIT_GRACE_MS, null);
      writer.abort().catch(() => {});
      stopReading();
    },
    async terminate() {
      await closeInput();
      killGroup("SIGTERM");
      return await afterGrace();
    },
    stopReading,
  };
}

/**
 * Resolve when `reading` ends, or {@linkcode DRAIN_GRACE_MS} after the
 * server exited, whichever comes first: what the server wrote before it
 * exited is read, and a pipe a process it started holds open is not waited
 * on.
 */
export async function drainAfterExit(
  server: ServerProcess,
  reading: Promise<void>,
): Promise<void> {
  await Promise.race([
    reading,
    server.exited.then(() => within(reading, DRAIN_GRACE_MS, undefined)),
  ]);
}
