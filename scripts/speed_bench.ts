/**
 * What issue 40 asks of guardlab's speed, measured in one run, every figure
 * a ratio against a peer measured beside it, with the load average the run
 * saw (a result taken under load is labelled as such):
 *
 * - start-up: whole processes started with the `guardlab` task's flags (the
 *   flags the binary is compiled with) against `deno run` of an empty
 *   module with the same flags, interleaved round by round in a rotating
 *   order: `--version`, `--help`, `run` on a fresh ledger, `run` on an
 *   existing ledger of one receipt and on one of 60,000 receipts;
 * - memory: the peak resident size of those runs (`/usr/bin/time`), the
 *   big ledger against the small one;
 * - `script` with 2,000 runs against the commit floor
 *   (`scripts/bench/commit_floor.ts`: the same rows in the same synced
 *   commits, nothing else), interleaved in pairs;
 * - the views of a ledger of 1,000,000 receipts: time and peak memory,
 *   against the same view of the ledger of one receipt.
 *
 * The ledgers live in a folder of the run's own under `/tmp`, passed as
 * `--home`. The big ones are filled by a connection of this script (a
 * write from outside guardlab), so their first `run` checks them in full
 * and seals them; the warm-up rounds do that, and are not counted.
 *
 *     deno task bench:speed [--rounds N] [--pairs N] [--no-views]
 *
 * It prints the figures, the targets met or not, and the two blocks that
 * `docs/en/reference/speed.md` and `docs/zh/reference/speed.md` quote.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import { fillLedger } from "./bench/big_ledgers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The targets of issue 40. */
export const TARGETS = {
  /** `run` on an existing ledger, at most this many times the bare start. */
  runOverBare: 4,
  /** `run` on 60,000 receipts, at most this many times the same run on a fresh ledger. */
  bigOverFresh: 1.15,
  /** `script` with 2,000 runs, at least this share of the commit floor. */
  scriptOfFloor: 0.85,
} as const;

/** The big ledger's receipts, and the huge one's. */
const BIG = 60_000;
const HUGE = 1_000_000;

/** A 1-minute load average this high on this many cores is "under load". */
const QUIET_LOAD_PER_CORE = 0.5;

const RUN = ["run", "--job", "JOB-001", "--topic", "river", "--copies", "2"];

/** The `guardlab` task's flags, main.ts left out and the config (of `root`) named. */
export function taskFlags(root: string = ROOT): string[] {
  const run = config.tasks.guardlab.split(" && ").at(-1)!;
  const [program, ...words] = run.split(/\s+/);
  if (program !== "deno" || words.at(-1) !== "main.ts") {
    throw new Error(`unexpected guardlab task: ${config.tasks.guardlab}`);
  }
  return [...words.slice(0, -1), `--config=${join(root, "deno.json")}`];
}

/** The 1-minute load average, or `null` where the system does not say (Windows). */
export function load(): number | null {
  try {
    return Deno.loadavg()[0];
  } catch {
    return null;
  }
}

const TIME = "/usr/bin/time";
const canMeasureMemory = (() => {
  try {
    return Deno.statSync(TIME).isFile;
  } catch {
    return false;
  }
})();

/** One whole process: its wall time in ms, and its peak memory in KiB when asked. */
async function timed(
  args: string[],
  { stdin, memory = false }: { stdin?: string; memory?: boolean } = {},
): Promise<{ ms: number; kib: number | null }> {
  const [program, argv] = memory && canMeasureMemory
    ? [TIME, ["-f", "%M", Deno.execPath(), ...args]]
    : [Deno.execPath(), args];
  const started = performance.now();
  const child = new Deno.Command(program, {
    args: argv,
    cwd: ROOT,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stderr } = await child.output();
  const ms = performance.now() - started;
  const err = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${err}`);
  const kib = memory && canMeasureMemory
    ? Number(err.trim().split("\n").at(-1))
    : null;
  return { ms, kib };
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Fill ledger `name` of `home` (made by one guardlab run) to `receipts`
 * receipts over 1,000 keys, as guardlab writes them, through a connection
 * of this script's own (`scripts/bench/big_ledgers.ts`).
 */
function fill(home: string, name: string, receipts: number): number {
  // The run that made it wrote one receipt.
  return fillLedger(join(home, name, "lab.sqlite"), "receipts", receipts - 1);
}

interface Options {
  rounds: number;
  pairs: number;
  views: boolean;
}

interface Row {
  label: string;
  ms: number;
  ratio: number;
}

async function startup(
  flags: string[],
  home: string,
  empty: string,
  rounds: number,
): Promise<Row[]> {
  const g = (...args: string[]) => [...flags, "main.ts", ...args];
  const cases = [
    { label: "bare", args: [...flags, empty] },
    { label: "--version", args: g("--version") },
    { label: "--help", args: g("--help") },
    { label: "run, fresh ledger", args: g(...RUN) },
    {
      label: "run, ledger of 1 receipt",
      args: g("--home", home, ...RUN, "--ledger", "small"),
    },
    {
      label: `run, ledger of ${BIG.toLocaleString("en")} receipts`,
      args: g("--home", home, ...RUN, "--ledger", "big"),
    },
  ];
  const times = cases.map(() => [] as number[]);
  // Two warm-up rounds: caches filled, the big ledger checked and sealed.
  for (let round = -2; round < rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (k + Math.max(round, 0)) % cases.length;
      const { ms } = await timed(cases[i].args);
      if (round >= 0) times[i].push(ms);
    }
  }
  const bare = median(times[0]);
  return cases.map((c, i) => ({
    label: c.label,
    ms: median(times[i]),
    ratio: median(times[i]) / bare,
  }));
}

async function memory(
  flags: string[],
  home: string,
): Promise<{ small: number; big: number } | null> {
  if (!canMeasureMemory) return null;
  const g = (name: string) => [
    ...flags,
    "main.ts",
    "--home",
    home,
    ...RUN,
    "--ledger",
    name,
  ];
  const small: number[] = [];
  const big: number[] = [];
  for (let i = 0; i < 5; i++) {
    small.push((await timed(g("small"), { memory: true })).kib!);
    big.push((await timed(g("big"), { memory: true })).kib!);
  }
  return { small: median(small), big: median(big) };
}

async function script(
  flags: string[],
  dir: string,
  pairs: number,
): Promise<{ floor: number; script: number; share: number }> {
  const steps = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({
      op: "run",
      args: {
        job: `JOB-${String(i % 1000).padStart(3, "0")}`,
        topic: "river",
        copies: 2,
      },
    })).join("\n") + "\n";
  const floors: number[] = [];
  const scripts: number[] = [];
  const shares: number[] = [];
  for (let pair = -1; pair < pairs; pair++) {
    const floorArgs = [
      ...flags,
      "scripts/bench/commit_floor.ts",
      join(dir, `floor-${pair + 1}.sqlite`),
    ];
    const scriptArgs = [...flags, "main.ts", "script"];
    // Alternate which goes first: neither always follows a pause.
    const order = pair % 2 === 0
      ? [floorArgs, scriptArgs]
      : [scriptArgs, floorArgs];
    const [a, b] = [
      (await timed(order[0], { stdin: steps })).ms,
      (await timed(order[1], { stdin: steps })).ms,
    ];
    const [floor, run] = order[0] === floorArgs ? [a, b] : [b, a];
    if (pair < 0) continue;
    floors.push(floor);
    scripts.push(run);
    shares.push(floor / run);
  }
  // The pair whose share is the median (the count is odd): its two times.
  const middle = shares.indexOf(median(shares));
  return {
    floor: floors[middle] ?? median(floors),
    script: scripts[middle] ?? median(scripts),
    share: median(shares),
  };
}

interface ViewRow {
  label: string;
  ms: number;
  kib: number | null;
  small: number | null;
}

async function views(flags: string[], home: string): Promise<ViewRow[]> {
  const shows = [
    ["ledger"],
    ["ledger", "--json"],
    ["ledger", "--timeline"],
    ["ledger", "--timeline", "--format", "svg"],
    ["reconcile"],
  ];
  const out: ViewRow[] = [];
  for (const show of shows) {
    const args = (name: string) => [
      ...flags,
      "main.ts",
      "--home",
      home,
      ...show,
      "--ledger",
      name,
    ];
    const huge: { ms: number; kib: number | null }[] = [];
    const small: (number | null)[] = [];
    for (let i = 0; i < 3; i++) {
      huge.push(await timed(args("huge"), { memory: true }));
      small.push((await timed(args("small"), { memory: true })).kib);
    }
    out.push({
      label: `guardlab ${show.join(" ")}`,
      ms: median(huge.map((h) => h.ms)),
      kib: canMeasureMemory ? median(huge.map((h) => h.kib!)) : null,
      small: canMeasureMemory ? median(small.map((k) => k!)) : null,
    });
  }
  return out;
}

function parseOptions(args: string[]): Options {
  const options: Options = { rounds: 21, pairs: 9, views: true };
  // An odd number of pairs has one median pair, whose times are quoted.
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], Number(args[i + 1])];
    if (flag === "--no-views") options.views = false;
    else if (flag === "--rounds" && Number.isInteger(value) && value > 0) {
      options.rounds = value;
      i++;
    } else if (
      flag === "--pairs" && Number.isInteger(value) && value % 2 === 1
    ) {
      options.pairs = value;
      i++;
    } else {
      console.error(
        "usage: speed_bench.ts [--rounds N (21)] [--pairs ODD N (9)] [--no-views]",
      );
      Deno.exit(2);
    }
  }
  return options;
}

const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;
const x = (r: number) => `${r.toFixed(2)}×`;

async function main(options: Options): Promise<void> {
  const cores = navigator.hardwareConcurrency;
  const loads = [load()];
  const home = await Deno.makeTempDir({ prefix: "guardlab-speed-" });
  await Deno.chmod(home, 0o700);
  try {
    const flags = taskFlags();
    const empty = join(home, "empty.ts");
    await Deno.writeTextFile(empty, "");
    const g = (
      ...args: string[]
    ) => [...flags, "main.ts", "--home", home, ...args];
    console.error("making the ledgers…");
    await timed(g(...RUN, "--ledger", "small"));
    await timed(g(...RUN, "--ledger", "big"));
    const bigBytes = fill(home, "big", BIG);
    let hugeBytes = 0;
    if (options.views) {
      await timed(g(...RUN, "--ledger", "huge"));
      hugeBytes = fill(home, "huge", HUGE);
      // Checked in full once, and sealed, by guardlab's own run.
      await timed(g(...RUN, "--ledger", "huge"));
    }
    console.error(`start-up, ${options.rounds} rounds…`);
    const starts = await startup(flags, home, empty, options.rounds);
    loads.push(load());
    console.error("memory…");
    const mem = await memory(flags, home);
    console.error(`script against the commit floor, ${options.pairs} pairs…`);
    const floor = await script(flags, home, options.pairs);
    loads.push(load());
    const shown = options.views ? await views(flags, home) : [];
    loads.push(load());
    report({ cores, loads, starts, mem, floor, shown, bigBytes, hugeBytes });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function report(r: {
  cores: number;
  loads: (number | null)[];
  starts: Row[];
  mem: { small: number; big: number } | null;
  floor: { floor: number; script: number; share: number };
  shown: ViewRow[];
  bigBytes: number;
  hugeBytes: number;
}): void {
  const known = r.loads.filter((l): l is number => l !== null);
  const peak = known.length === 0 ? null : Math.max(...known);
  const quiet = peak !== null && peak <= QUIET_LOAD_PER_CORE * r.cores;
  const loadText = peak === null
    ? "load average unknown"
    : `load average (1 min) ${
      known.map((l) => l.toFixed(2)).join(", ")
    } on ${r.cores} cores`;
  const under = quiet ? "" : " (UNDER LOAD: not a headline)";
  const at = (label: string) => r.starts.find((s) => s.label === label)!;
  const fresh = at("run, fresh ledger");
  const small = at("run, ledger of 1 receipt");
  const big = r.starts.at(-1)!;
  const lines: string[] = [];
  const say = (line = "") => lines.push(line);
  say(
    `guardlab speed (scripts/speed_bench.ts), Deno ${Deno.version.deno}, ${Deno.build.target}`,
  );
  say(`${loadText}: ${quiet ? "quiet" : "under load"}`);
  say();
  say(
    "start-up, medians of interleaved rounds, against deno run of an empty module with the task's flags:",
  );
  for (const s of r.starts) {
    say(
      `  ${s.ms.toFixed(1).padStart(7)} ms  ${
        x(s.ratio).padStart(6)
      }  ${s.label}`,
    );
  }
  say();
  const met = (ok: boolean) => ok ? "met" : "NOT MET";
  say("targets (issue 40):");
  say(
    `  run on an existing ledger within ${TARGETS.runOverBare}× of the bare start: ${
      x(small.ratio)
    } ${met(small.ratio <= TARGETS.runOverBare)}`,
  );
  const overFresh = big.ms / fresh.ms;
  const overSmall = big.ms / small.ms;
  say(
    `  run on ${BIG.toLocaleString("en")} receipts (${
      mb(r.bigBytes / 1024)
    }) within ${TARGETS.bigOverFresh}× of the same run on a fresh ledger: ${
      x(overFresh)
    } ${met(overFresh <= TARGETS.bigOverFresh)} (on a ledger of 1 receipt: ${
      x(overSmall)
    })`,
  );
  if (r.mem !== null) {
    say(
      `  memory of that run: ${mb(r.mem.big)} against ${
        mb(r.mem.small)
      } on 1 receipt (${x(r.mem.big / r.mem.small)})`,
    );
  } else say(`  memory not measured: ${TIME} is missing`);
  say(
    `  script, 2,000 runs, at least ${
      TARGETS.scriptOfFloor * 100
    }% of the commit floor: ${(r.floor.share * 100).toFixed(0)}% ${
      met(r.floor.share >= TARGETS.scriptOfFloor)
    } (medians ${r.floor.script.toFixed(0)} ms, floor ${
      r.floor.floor.toFixed(0)
    } ms)`,
  );
  if (r.shown.length > 0) {
    say();
    say(
      `views of a ledger of ${HUGE.toLocaleString("en")} receipts (${
        mb(r.hugeBytes / 1024)
      }), medians of 3:`,
    );
    for (const v of r.shown) {
      const memText = v.kib === null
        ? ""
        : `  ${mb(v.kib).padStart(9)} (${
          x(v.kib / v.small!)
        } the same view of 1 receipt)`;
      say(`  ${(v.ms / 1000).toFixed(2).padStart(6)} s${memText}  ${v.label}`);
    }
  }
  // The blocks the speed chapter quotes, in both languages.
  const when = `${loadText}${under}`;
  say();
  say('--- docs/en/reference/speed.md, "Measured" ---');
  say(`One run of \`deno task bench:speed\`, ${when}:`);
  say();
  say("| measured | result |");
  say("| --- | --- |");
  say(
    `| start-up: \`--version\` / \`--help\` / \`run\` on a fresh ledger / on an existing one | ${
      x(at("--version").ratio)
    } / ${x(at("--help").ratio)} / ${x(fresh.ratio)} / **${
      x(small.ratio)
    }** the bare start (${at("bare").ms.toFixed(1)} ms) |`,
  );
  say(
    `| \`run\` on ${
      BIG.toLocaleString("en")
    } receipts against the same run on a fresh ledger / on a ledger of 1 receipt | **${
      x(overFresh)
    }** / ${x(overSmall)}${
      r.mem ? `; peak memory ${mb(r.mem.big)} against ${mb(r.mem.small)}` : ""
    } |`,
  );
  say(
    `| \`script\`, 2,000 runs, against the commit floor | **${
      (r.floor.share * 100).toFixed(0)
    }%** of it (${r.floor.script.toFixed(0)} ms against ${
      r.floor.floor.toFixed(0)
    } ms) |`,
  );
  for (const v of r.shown) {
    say(
      `| \`${v.label.replace("guardlab ", "")}\` on ${
        HUGE.toLocaleString("en")
      } receipts | ${(v.ms / 1000).toFixed(2)} s${
        v.kib === null
          ? ""
          : `, ${mb(v.kib)} (${x(v.kib / v.small!)} the same view of 1 receipt)`
      } |`,
    );
  }
  const zhWhen = peak === null
    ? "负载平均值未知"
    : `${r.cores} 核上 1 分钟负载平均值 ${
      known.map((l) => l.toFixed(2)).join("、")
    }${quiet ? "" : "（有负载：不作为标题数字）"}`;
  say();
  say('--- docs/zh/reference/speed.md, "测得的数字" ---');
  say(`\`deno task bench:speed\` 的一次运行，${zhWhen}：`);
  say();
  say("| 测量 | 结果 |");
  say("| --- | --- |");
  say(
    `| 启动：\`--version\` / \`--help\` / 新账本上的 \`run\` / 已有账本上的同一命令 | 裸启动（${
      at("bare").ms.toFixed(1)
    } 毫秒）的 ${x(at("--version").ratio)} / ${x(at("--help").ratio)} / ${
      x(fresh.ratio)
    } / **${x(small.ratio)}** |`,
  );
  say(
    `| ${
      BIG.toLocaleString("en")
    } 条回执的账本上的 \`run\`，对照新账本 / 1 条回执的账本上的同一命令 | **${
      x(overFresh)
    }** / ${x(overSmall)}${
      r.mem ? `；内存峰值 ${mb(r.mem.big)}，对照 ${mb(r.mem.small)}` : ""
    } |`,
  );
  say(
    `| \`script\` 执行 2,000 次运行，对照提交下限 | 下限的 **${
      (r.floor.share * 100).toFixed(0)
    }%**（${r.floor.script.toFixed(0)} 毫秒对 ${
      r.floor.floor.toFixed(0)
    } 毫秒） |`,
  );
  for (const v of r.shown) {
    say(
      `| ${HUGE.toLocaleString("en")} 条回执上的 \`${
        v.label.replace("guardlab ", "")
      }\` | ${(v.ms / 1000).toFixed(2)} 秒${
        v.kib === null
          ? ""
          : `，${mb(v.kib)}（1 条回执上同一视图的 ${x(v.kib / v.small!)}）`
      } |`,
    );
  }
  console.log(lines.join("\n"));
}

if (import.meta.main) await main(parseOptions(Deno.args));
