/**
 * What a process costs beside its wall time, for the benches of issue 51:
 * the disk's sync cost moves wall-clock ratios (a slow sync hides the work
 * around it), so each figure also gets the CPU time (user + system) it
 * took, the number of syncs it made, and the disk's sync rate measured in
 * the same run.
 *
 * - **CPU of a whole process**: `/usr/bin/time -f "%e %U %S %M"` (the
 *   kernel's `wait4` usage of the child, all its threads), printed in steps
 *   of 10 ms: a bench quotes the mean over its runs, which the steps do not
 *   bias.
 * - **CPU of a running process** (an MCP server between two calls):
 *   `utime + stime` of `/proc/PID/stat` (all its threads), in clock ticks of
 *   1/100 s (the kernel's `USER_HZ` as user space sees it on Linux); summed
 *   over many calls, as above.
 * - **Syncs**: `strace -f -c -e trace=fsync,fdatasync` of one more run of
 *   the same process, not timed (tracing slows every system call). Neither
 *   SQLite's counters nor `/proc/PID/io` count syncs.
 * - **Sync rate**: `fsync` of a one-block file rewritten in the bench's own
 *   folder, in a loop, as SQLite's commit in write-ahead logging with
 *   `synchronous=FULL` does (one `fsync` of the log per commit).
 *
 * Each returns `null` where the tool or `/proc` is missing.
 *
 * @module
 */
import { join } from "node:path";

const TIME = "/usr/bin/time";
const STRACE = "/usr/bin/strace";
/** The kernel's clock ticks per second as `/proc` reports them on Linux. */
const USER_HZ = 100;

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Whether `/usr/bin/time` is here (CPU and peak memory of a process). */
export const canTime: boolean = exists(TIME);
/** Whether `strace` is here (the syncs of a process). */
export const canTrace: boolean = exists(STRACE);

/** One whole process's cost. */
export interface Cost {
  /** Wall time in ms, by this process's clock. */
  ms: number;
  /** User + system CPU time in ms (10 ms steps), or `null` without `/usr/bin/time`. */
  cpuMs: number | null;
  /** Peak resident size in KiB, or `null`. */
  kib: number | null;
}

/** How to start one process of a bench. */
export interface Start {
  /** The program's arguments after `deno`. */
  args: string[];
  /** The folder it runs in. */
  cwd: string;
  /** What it reads on stdin, if anything. */
  stdin?: string;
}

async function spawn(
  program: string,
  args: string[],
  start: Start,
): Promise<{ ms: number; stderr: string }> {
  const began = performance.now();
  const child = new Deno.Command(program, {
    args,
    cwd: start.cwd,
    stdin: start.stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).spawn();
  if (start.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(start.stdin));
    await writer.close();
  }
  const { code, stderr } = await child.output();
  const ms = performance.now() - began;
  const err = new TextDecoder().decode(stderr);
  if (code !== 0) {
    throw new Error(`deno ${start.args.join(" ")} exited ${code}: ${err}`);
  }
  return { ms, stderr: err };
}

/** Run `deno` with `start`: its wall time, CPU time and peak memory. */
export async function cost(start: Start): Promise<Cost> {
  if (!canTime) {
    const { ms } = await spawn(Deno.execPath(), start.args, start);
    return { ms, cpuMs: null, kib: null };
  }
  const { ms, stderr } = await spawn(TIME, [
    "-f",
    "%U %S %M",
    Deno.execPath(),
    ...start.args,
  ], start);
  const [user, system, kib] = stderr.trim().split("\n").at(-1)!.split(" ")
    .map(Number);
  return { ms, cpuMs: (user + system) * 1000, kib };
}

/** The `fsync` and `fdatasync` calls of `strace -c`'s summary in `text`. */
export function syncsOf(text: string): number {
  let n = 0;
  for (const line of text.split("\n")) {
    const words = line.trim().split(/\s+/);
    if (words.at(-1) === "fsync" || words.at(-1) === "fdatasync") {
      // "% time  seconds  usecs/call  calls  [errors]  syscall"
      n += Number(words[3]);
    }
  }
  return n;
}

/** Run `deno` with `start` once under `strace`: how many syncs it made, or `null`. */
export async function syncs(start: Start, dir: string): Promise<number | null> {
  if (!canTrace) return null;
  const out = join(dir, `strace-${crypto.randomUUID()}.txt`);
  await spawn(STRACE, [
    "-f",
    "-c",
    "-e",
    "trace=fsync,fdatasync",
    "-o",
    out,
    Deno.execPath(),
    ...start.args,
  ], start);
  try {
    return syncsOf(await Deno.readTextFile(out));
  } finally {
    await Deno.remove(out);
  }
}

/**
 * The disk's sync rate in `dir`, in syncs a second: `count` rounds of
 * rewriting one 4 KiB block of a file of its own and syncing it, timed.
 */
export function syncRate(dir: string, count = 300): number {
  const path = join(dir, `sync-rate-${crypto.randomUUID()}`);
  const file = Deno.openSync(path, {
    read: true,
    write: true,
    createNew: true,
  });
  const block = new Uint8Array(4096);
  try {
    file.writeSync(block);
    file.syncSync();
    const began = performance.now();
    for (let i = 0; i < count; i++) {
      block[0] = i & 0xff;
      file.seekSync(0, Deno.SeekMode.Start);
      file.writeSync(block);
      file.syncSync();
    }
    return count / ((performance.now() - began) / 1000);
  } finally {
    file.close();
    Deno.removeSync(path);
  }
}

/** The CPU time (user + system) in ms of a `/proc/PID/stat` line. */
export function cpuOfStat(line: string): number {
  // The name (field 2) is in parentheses and may hold spaces: count after it.
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of the line, utime and stime (field 3 is at 0 here).
  return (Number(fields[11]) + Number(fields[12])) * 1000 / USER_HZ;
}

/**
 * Reads the CPU time other processes have used so far. Deno lets only a
 * process with every permission read `/proc/PID/stat`, so one `bash` of its
 * own reads it, with its built-in `read` (no process per reading), for as
 * long as the bench runs.
 */
export class CpuReader {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;

  constructor() {
    this.#child = new Deno.Command("bash", {
      args: [
        "-c",
        'while read -r p; do if read -r l < "/proc/$p/stat"; then echo "$l"; else echo -; fi; done',
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = this.#child.stdout.pipeThrough(new TextDecoderStream())
      .pipeThrough(splitLines())[Symbol.asyncIterator]();
  }

  /** Process `pid`'s CPU time so far in ms, or `null` where `/proc` does not have it. */
  async cpu(pid: number): Promise<number | null> {
    await this.#writer.write(new TextEncoder().encode(`${pid}\n`));
    const { value, done } = await this.#lines.next();
    return done || value === "-" ? null : cpuOfStat(value);
  }

  /** Stop the reader. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

function splitLines(): TransformStream<string, string> {
  let held = "";
  return new TransformStream({
    transform(chunk, out) {
      const parts = (held + chunk).split("\n");
      held = parts.pop()!;
      for (const part of parts) out.enqueue(part);
    },
  });
}

/** The mean of `values`. */
export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
