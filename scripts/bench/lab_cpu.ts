/**
 * The CPU time of one `Lab.run` in this checkout against another one (the
 * code before a change), side by side in one process: both checkouts'
 * `lib/mod.ts` imported, each with a ledger of its own in a scratch folder,
 * batches of 200 runs (100 new keys, then each reused) interleaved, which
 * goes first alternating, the CPU time of each batch from `node:process`'s
 * `cpuUsage` (microseconds, this process only). Issue 51 measured its cuts
 * this way; put the folder on a `tmpfs` (`unshare -m`, `mount -t tmpfs`)
 * and the syncs cost nothing, so what is left is the code's own work.
 *
 *     deno run -q --lock=deno.lock --frozen --allow-read --allow-write --allow-env \
 *       scripts/bench/lab_cpu.ts --before /tmp/guardlab-before [--batches 30] [--dir DIR]
 *
 * @module
 */
import { join, resolve } from "node:path";
import { cpuUsage } from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Lab {
  run(args: unknown): Promise<unknown>;
  close(): void;
}
interface LabModule {
  Lab: { open(path: string): Lab };
}

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(before: string, batches: number, dir: string) {
  const here = fileURLToPath(new URL("../..", import.meta.url));
  const sides: [string, LabModule][] = [
    ["before", await import(pathToFileURL(join(before, "lib/mod.ts")).href)],
    ["after", await import(pathToFileURL(join(here, "lib/mod.ts")).href)],
  ];
  const spent = new Map(sides.map(([name]) => [name, [] as number[]]));
  let opened = 0;
  const open = (m: LabModule) =>
    m.Lab.open(join(dir, `lab-${++opened}.sqlite`));
  const labs = sides.map(([, m]) => open(m));
  let next = 0;
  try {
    // Two warm-up batches, not counted.
    for (let batch = -2; batch < batches; batch++) {
      const order = batch % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const start = cpuUsage();
        for (let k = 0; k < 100; k++) {
          const job = `JOB-${String((next + k) % 1000).padStart(3, "0")}`;
          await labs[i].run({ job, topic: "river", copies: 2 });
          await labs[i].run({ job, topic: "river", copies: 2 });
        }
        const used = cpuUsage(start);
        if (batch >= 0) {
          spent.get(sides[i][0])!.push((used.user + used.system) / 200);
        }
      }
      next += 100;
      if (next >= 1000) {
        // Every key is taken: new ledgers, so a batch has new keys again.
        labs.forEach((lab, i) => {
          lab.close();
          labs[i] = open(sides[i][1]);
        });
        next = 0;
      }
    }
  } finally {
    for (const lab of labs) lab.close();
  }
  const [b, a] = [median(spent.get("before")!), median(spent.get("after")!)];
  console.log(
    `CPU per Lab.run, median of ${batches} interleaved batches of 200: before ${
      b.toFixed(1)
    } µs, after ${a.toFixed(1)} µs, after/before ${(a / b).toFixed(3)}`,
  );
}

if (import.meta.main) {
  const args = Deno.args;
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i === -1 ? undefined : args[i + 1];
  };
  const before = value("--before");
  const batches = Number(value("--batches") ?? 30);
  if (before === undefined || !Number.isInteger(batches) || batches < 1) {
    console.error(
      "usage: lab_cpu.ts --before CHECKOUT [--batches N (30)] [--dir DIR]",
    );
    Deno.exit(2);
  }
  const dir = value("--dir") ??
    await Deno.makeTempDir({ prefix: "guardlab-lab-cpu-" });
  try {
    await main(resolve(before), batches, dir);
  } finally {
    if (value("--dir") === undefined) {
      await Deno.remove(dir, { recursive: true });
    }
  }
}
