/**
 * How long guardlab takes to start, against Deno's bare start measured in
 * the same run: `deno run` of an empty module, bare and with exactly the
 * `guardlab` task's flags (the flags the binary is compiled with; reading
 * the lock costs a little even for an empty module). The runs are
 * interleaved (each round starts every command once, in a rotating order)
 * so that other work on the machine weighs on all of them alike; the report
 * is each one's median and its ratio to the bare start's median.
 *
 *     deno run --allow-read --allow-write --allow-run scripts/startup_bench.ts [ROUNDS] [--check]
 *
 * `deno task bench` runs it after the `deno bench` suites. With `--check` it
 * exits 1 when a command takes more than {@linkcode LIMIT} times the bare
 * start; on a loaded machine run it again before believing that.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };

/** The start-up budget: at most this many times Deno's bare start. */
export const LIMIT = 1.5;

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What is timed: a label and guardlab's arguments. */
const COMMANDS: readonly { label: string; args: readonly string[] }[] = [
  { label: "guardlab --version", args: ["--version"] },
  {
    label: "guardlab run --job JOB-001 --topic river --copies 2",
    args: ["run", "--job", "JOB-001", "--topic", "river", "--copies", "2"],
  },
];

/**
 * The `guardlab` task's flags, with the module it starts (main.ts) left out
 * and the config named (an empty module outside the checkout would not find
 * it; both runs name it, so both pay the same).
 */
function taskFlags(): string[] {
  const [program, ...words] = config.tasks.guardlab.split(/\s+/);
  if (program !== "deno" || words.at(-1) !== "main.ts") {
    throw new Error(`unexpected guardlab task: ${config.tasks.guardlab}`);
  }
  return [...words.slice(0, -1), `--config=${join(ROOT, "deno.json")}`];
}

/** Start `args` once from the checkout, wait for it; the wall time in ms. */
async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  const took = performance.now() - started;
  if (code !== 0) {
    throw new Error(
      `${args.join(" ")} exited ${code}: ${new TextDecoder().decode(stderr)}`,
    );
  }
  return took;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(rounds: number, check: boolean): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-startup-" });
  try {
    const empty = join(dir, "empty.ts");
    await Deno.writeTextFile(empty, "");
    const flags = taskFlags();
    const runs = [
      {
        label: "deno run (empty module): Deno's bare start",
        args: ["run", empty],
        peer: true,
      },
      {
        label: "deno run (empty module, the task's flags)",
        args: [...flags, empty],
        peer: true,
      },
      ...COMMANDS.map((c) => ({
        label: c.label,
        args: [...flags, "main.ts", ...c.args],
        peer: false,
      })),
    ];
    const times = runs.map(() => [] as number[]);
    // Two warm-up rounds fill the caches (module cache, page cache).
    for (let round = -2; round < rounds; round++) {
      for (let k = 0; k < runs.length; k++) {
        // A rotating order: no command is always first after a pause.
        const i = (k + Math.max(round, 0)) % runs.length;
        const took = await timed(runs[i].args);
        if (round >= 0) times[i].push(took);
      }
    }
    const peer = median(times[0]);
    console.log(
      `startup, median of ${rounds} interleaved runs (Deno ${Deno.version.deno}, ${Deno.build.target})`,
    );
    let over = false;
    for (const [i, run] of runs.entries()) {
      const ms = median(times[i]);
      const ratio = ms / peer;
      if (!run.peer && ratio > LIMIT) over = true;
      console.log(
        `  ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  ${run.label}`,
      );
    }
    console.log(
      over
        ? `over the budget: a command takes more than ${LIMIT}x Deno's bare start`
        : `within the budget: every command starts within ${LIMIT}x Deno's bare start`,
    );
    return over && check ? 1 : 0;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const given = Deno.args.filter((a) => a !== "--check");
  const rounds = given.length === 0 ? 21 : Number(given[0]);
  if (
    given.length > 1 || !Number.isInteger(rounds) || rounds < 1 || rounds > 1000
  ) {
    console.error(
      "usage: startup_bench.ts [ROUNDS, 1-1000; default 21] [--check]",
    );
    Deno.exit(2);
  }
  Deno.exitCode = await main(rounds, check);
}
