/**
 * The project's benches: what those of issue 51 read beside a wall time (`scripts/bench/cost.ts`):
 * the syncs in `strace -c`'s summary, the CPU time in a `/proc/PID/stat`
 * line, and the disk's sync rate. Expected values are written by hand from
 * the formats' definitions (strace's summary columns; proc(5)).
 */
import assert from "node:assert/strict";
import { cpuOfStat, syncRate, syncsOf } from "../../scripts/bench/cost.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("bench cost: the syncs of strace's summary, fsync and fdatasync, with or without an errors column", () => {
  const summary = [
    "% time     seconds  usecs/call     calls    errors syscall",
    "------ ----------- ----------- --------- --------- ----------------",
    " 90.00    0.183881          60      3031           fsync",
    " 10.00    0.010000          50        12         2 fdatasync",
    "------ ----------- ----------- --------- --------- ----------------",
    "100.00    0.193881          63      3043         2 total",
  ].join("\n");
  assert.equal(syncsOf(summary), 3043);
  assert.equal(syncsOf("% time seconds usecs/call calls errors syscall\n"), 0);
});

Deno.test("bench cost: CPU time is utime + stime of /proc/PID/stat, counted after the name, which may hold spaces and parentheses", () => {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
  // majflt cmajflt utime stime ...: utime 150 and stime 50 ticks of 1/100 s.
  const line =
    "4242 (deno (x) y) S 1 4242 4242 0 -1 4194304 3325 0 0 0 150 50 0 0 20 0 6 0";
  assert.equal(cpuOfStat(line), 2000);
});

Deno.test("bench cost: the sync rate is a positive rate, and the file it syncs is gone after", async () => {
  await using folder = await tempDir("guardlab-sync-rate-");
  const rate = syncRate(folder.path, 5);
  assert.ok(Number.isFinite(rate) && rate > 0, `${rate}`);
  assert.deepEqual([...Deno.readDirSync(folder.path)], []);
});
