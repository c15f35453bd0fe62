/**
 * The start-up of `guardlab accept` in this checkout against another one
 * (the code before a change), side by side in one run: each command run as
 * a whole process with the `guardlab` task's flags, the two checkouts
 * interleaved round by round (which goes first alternates), the medians of
 * wall time (this script's clock) and of CPU time (user + system, from
 * `/usr/bin/time`, to 10 ms, so its mean beside; a busy machine hides less
 * in it), and their ratios, with the load average seen.
 *
 *   deno run -q --lock=deno.lock --frozen --allow-read --allow-run --allow-sys=loadavg \
 *     scripts/accept_startup.ts --before /tmp/guardlab-before [--rounds 20]
 *
 * The commands: `accept --help` (the command's modules loaded, nothing
 * run) and `accept --example idempotent --cases once` (one case against a
 * server built in, in process, nothing started).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";

const COMMANDS: readonly { label: string; args: string[] }[] = [
  { label: "accept --help", args: ["accept", "--help"] },
  {
    label: "accept --example idempotent --cases once",
    args: ["accept", "--example", "idempotent", "--cases", "once"],
  },
];

/** The `guardlab` task's flags (main.ts left out), for the checkout at `root`. */
function taskFlags(root: string): string[] {
  const run = config.tasks.guardlab.split(" && ").at(-1)!;
  const [program, ...words] = run.split(/\s+/);
  if (program !== "deno" || words.at(-1) !== "main.ts") {
    throw new Error(`unexpected guardlab task: ${config.tasks.guardlab}`);
  }
  return words.slice(0, -1).map((w) =>
    w.startsWith("--lock=") ? `--lock=${join(root, w.slice(7))}` : w
  ).concat(`--config=${join(root, "deno.json")}`);
}

/** One whole process in `root`: wall and CPU seconds. */
async function timed(
  root: string,
  args: string[],
): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const out = await new Deno.Command(TIME, {
    args: [
      "-f",
      "%U %S",
      Deno.execPath(),
      ...taskFlags(root),
      join(root, "main.ts"),
      ...args,
    ],
    cwd: root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  const err = new TextDecoder().decode(out.stderr).trim().split("\n");
  if (out.code !== 0) throw new Error(`${args.join(" ")}: ${err.join("\n")}`);
  const last = err.at(-1)!;
  const wall = (performance.now() - started) / 1000;
  const [user, sys] = last.split(" ").map(Number);
  if (!Number.isFinite(user + sys)) throw new Error(`no timing: ${last}`);
  return { wall, cpu: user + sys };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
}

const argv = Deno.args;
const before = argv[argv.indexOf("--before") + 1];
if (!argv.includes("--before") || before === undefined) {
  console.error("usage: accept_startup.ts --before CHECKOUT [--rounds N]");
  Deno.exit(2);
}
const rounds = argv.includes("--rounds")
  ? Number(argv[argv.indexOf("--rounds") + 1])
  : 20;
const loads: number[] = [];
const sides = { before, after: ROOT };
for (const c of COMMANDS) {
  const seen = {
    before: [] as { wall: number; cpu: number }[],
    after: [] as { wall: number; cpu: number }[],
  };
  // One warm-up round each: the module caches filled.
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0
      ? (["before", "after"] as const)
      : (["after", "before"] as const);
    for (const side of order) {
      const t = await timed(sides[side], c.args);
      if (round >= 0) seen[side].push(t);
    }
    loads.push(Deno.loadavg()[0]);
  }
  const m = (side: "before" | "after", k: "wall" | "cpu") =>
    median(seen[side].map((t) => t[k]));
  // CPU time comes in steps of 10 ms: its mean says what the median rounds off.
  const mean = (side: "before" | "after") =>
    seen[side].reduce((a, t) => a + t.cpu, 0) / seen[side].length;
  console.log(
    `${c.label}: wall ${m("before", "wall").toFixed(3)} s → ${
      m("after", "wall").toFixed(3)
    } s (×${(m("after", "wall") / m("before", "wall")).toFixed(3)}), cpu ${
      m("before", "cpu").toFixed(3)
    } s → ${m("after", "cpu").toFixed(3)} s (×${
      (m("after", "cpu") / m("before", "cpu")).toFixed(3)
    }; mean ×${
      (mean("after") / mean("before")).toFixed(3)
    }), ${rounds} rounds interleaved`,
  );
}
console.log(
  `load average (1 min) during the runs: ${Math.min(...loads).toFixed(2)}–${
    Math.max(...loads).toFixed(2)
  } on ${navigator.hardwareConcurrency} cores`,
);
