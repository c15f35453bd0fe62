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
 * - `script` with 2,000 runs against two floors, interleaved in triples:
 *   the physical one (`scripts/bench/physical_floor.ts`: 3,000 synced
 *   commits of one small row, nothing else) and the same-work one
 *   (`scripts/bench/commit_floor.ts`: the same rows in the same synced
 *   commits, nothing else); beside each wall time, its CPU time (user +
 *   system), its syncs (one traced run more) and the disk's sync rate,
 *   measured before and after (`scripts/bench/cost.ts`): a slow disk hides
 *   guardlab's own work behind its syncs, CPU time does not;
 * - the views of a ledger of 1,000,000 receipts: time and peak memory,
 *   against the same view of the ledger of one receipt.
 *
 * The ledgers live in a folder of the run's own under `/tmp`, passed as
 * `--home`. The big ones are filled by a connection of this script (a
 * write from outside guardlab), so their first `run` checks them in full
 * and seals them; the warm-up rounds do that, and are not counted.
 *
 *     deno task bench:speed [--rounds N] [--pairs N] [--no-views]
 *     deno task bench:speed --quick      (5 rounds, 3 triples, no views)
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
import {
  canTime,
  type Cost,
  cost,
  mean,
  syncRate,
  syncs,
} from "./bench/cost.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The targets of issues 40 and 51 (51's are for a quiet machine). */
export const TARGETS = {
  /** `run` on an existing ledger, at most this many times the bare start (issue 51; 4× in issue 40). */
  runOverBare: 3,
  /** `run` on 60,000 receipts, at most this many times the same run on a fresh ledger. */
  bigOverFresh: 1.15,
  /** `script` with 2,000 runs, at least this share of the physical floor (issue 51)… */
  scriptOfPhysical: 0.9,
  /** …on a disk of at least this many syncs a second. */
  syncsPerSecond: 10_000,
  /** `script`'s CPU time, at most this many times the same-work floor's. */
  cpuOverSameWork: 1.5,
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

/** One whole process: its wall time and CPU time in ms, and its peak memory in KiB. */
function timed(
  args: string[],
  { stdin }: { stdin?: string; memory?: boolean } = {},
): Promise<Cost> {
  return cost({ args, cwd: ROOT, stdin });
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
  /** Mean CPU time (user + system) of one start, ms; `null` unmeasured. */
  cpuMs: number | null;
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
  const cpus = cases.map(() => [] as number[]);
  // Two warm-up rounds: caches filled, the big ledger checked and sealed.
  for (let round = -2; round < rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (k + Math.max(round, 0)) % cases.length;
      const { ms, cpuMs } = await timed(cases[i].args);
      if (round < 0) continue;
      times[i].push(ms);
      if (cpuMs !== null) cpus[i].push(cpuMs);
    }
  }
  const bare = median(times[0]);
  return cases.map((c, i) => ({
    label: c.label,
    ms: median(times[i]),
    ratio: median(times[i]) / bare,
    cpuMs: cpus[i].length === 0 ? null : mean(cpus[i]),
  }));
}

async function memory(
  flags: string[],
  home: string,
): Promise<{ small: number; big: number } | null> {
  if (!canTime) return null;
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

/** The steps `script` is measured on: 2,000 runs over 1,000 keys. */
export const SCRIPT_STEPS = 2000;
/** The synced commits those steps make: a new key two, a reuse one. */
export const SCRIPT_COMMITS = 3000;

/** One contender of the script section: medians of wall, mean CPU, syncs. */
export interface FloorRow {
  label: string;
  /** Median wall time, ms. */
  ms: number;
  /** Mean CPU time (user + system), ms; `null` without `/usr/bin/time`. */
  cpuMs: number | null;
  /** Mean CPU time of the same process given one step: its start, ms. */
  startCpuMs: number | null;
  /** The syncs of one traced run; `null` without `strace`. */
  syncs: number | null;
}

/** What the script section measured. */
export interface ScriptFloors {
  /** The physical floor, the same-work floor, `script`, in that order. */
  rows: [FloorRow, FloorRow, FloorRow];
  /** Median of each triple's physical floor / script (wall). */
  ofPhysical: number;
  /** Median of each triple's same-work floor / script (wall). */
  ofSameWork: number;
  /** The disk's syncs a second in the bench's folder, before and after. */
  syncRates: [number, number];
}

/** CPU per step, µs: the whole run's less the one-step run's, over the steps after the first. */
export function cpuPerStep(f: FloorRow): number | null {
  return f.cpuMs === null || f.startCpuMs === null
    ? null
    : (f.cpuMs - f.startCpuMs) * 1000 / (SCRIPT_STEPS - 1);
}

async function script(
  flags: string[],
  dir: string,
  pairs: number,
): Promise<ScriptFloors> {
  const lines = Array.from({ length: SCRIPT_STEPS }, (_, i) =>
    JSON.stringify({
      op: "run",
      args: {
        job: `JOB-${String(i % 1000).padStart(3, "0")}`,
        topic: "river",
        copies: 2,
      },
    }) + "\n");
  const inputs = { all: lines.join(""), one: lines[0] };
  let made = 0;
  type Size = keyof typeof inputs;
  const contenders = [
    {
      label: "physical floor (bare synced commits)",
      args: (size: Size) => [
        ...flags,
        "scripts/bench/physical_floor.ts",
        join(dir, `physical-${++made}.sqlite`),
        size === "all" ? String(SCRIPT_COMMITS) : "1",
      ],
      stdin: (_: Size) => undefined,
    },
    {
      label: "same-work floor (commit_floor.ts)",
      args: (_: Size) => [
        ...flags,
        "scripts/bench/commit_floor.ts",
        join(dir, `floor-${++made}.sqlite`),
      ],
      stdin: (size: Size) => inputs[size],
    },
    {
      label: "guardlab script",
      args: (_: Size) => [...flags, "main.ts", "script"],
      stdin: (size: Size) => inputs[size],
    },
  ];
  const before = syncRate(dir);
  const walls = contenders.map(() => [] as number[]);
  const cpus = contenders.map(() => [] as number[]);
  const starts = contenders.map(() => [] as number[]);
  const ofPhysical: number[] = [];
  const ofSameWork: number[] = [];
  // One warm-up triple; then each triple in a rotated order, so that no
  // contender always follows another's syncs. Each also runs one step, for
  // its start's CPU time.
  for (let round = -1; round < pairs; round++) {
    const seen: Cost[] = [];
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + Math.max(round, 0)) % contenders.length;
      const c = contenders[i];
      seen[i] = await timed(c.args("all"), { stdin: c.stdin("all") });
      const one = await timed(c.args("one"), { stdin: c.stdin("one") });
      if (round >= 0 && one.cpuMs !== null) starts[i].push(one.cpuMs);
    }
    if (round < 0) continue;
    seen.forEach((s, i) => {
      walls[i].push(s.ms);
      if (s.cpuMs !== null) cpus[i].push(s.cpuMs);
    });
    ofPhysical.push(seen[0].ms / seen[2].ms);
    ofSameWork.push(seen[1].ms / seen[2].ms);
  }
  const after = syncRate(dir);
  const rows = [] as FloorRow[];
  for (const [i, c] of contenders.entries()) {
    rows.push({
      label: c.label,
      ms: median(walls[i]),
      cpuMs: cpus[i].length === 0 ? null : mean(cpus[i]),
      startCpuMs: starts[i].length === 0 ? null : mean(starts[i]),
      syncs: await syncs(
        { args: c.args("all"), cwd: ROOT, stdin: c.stdin("all") },
        dir,
      ),
    });
  }
  return {
    rows: rows as ScriptFloors["rows"],
    ofPhysical: median(ofPhysical),
    ofSameWork: median(ofSameWork),
    syncRates: [before, after],
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
      kib: canTime ? median(huge.map((h) => h.kib!)) : null,
      small: canTime ? median(small.map((k) => k!)) : null,
    });
  }
  return out;
}

function parseOptions(args: string[]): Options {
  const options: Options = { rounds: 21, pairs: 9, views: true };
  if (args[0] === "--quick" && args.length === 1) {
    // A minute or two: fewer rounds, three triples, no million-row views.
    return { rounds: 5, pairs: 3, views: false };
  }
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
        "usage: speed_bench.ts --quick | [--rounds N (21)] [--pairs ODD N (9)] [--no-views]",
      );
      Deno.exit(2);
    }
  }
  return options;
}

const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;
const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
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
  floor: ScriptFloors;
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
  const bareCpu = r.starts[0].cpuMs;
  const cpuText = (c: number | null) =>
    c === null || bareCpu === null
      ? ""
      : `  cpu ${c.toFixed(1).padStart(6)} ms ${x(c / bareCpu).padStart(6)}`;
  for (const s of r.starts) {
    say(
      `  ${s.ms.toFixed(1).padStart(7)} ms  ${x(s.ratio).padStart(6)}${
        cpuText(s.cpuMs)
      }  ${s.label}`,
    );
  }
  say();
  const [physical, sameWork, scripted] = r.floor.rows;
  const rate = Math.min(...r.floor.syncRates);
  const rates = r.floor.syncRates.map((n) => n.toFixed(0)).join(" then ");
  say(
    `script, ${SCRIPT_STEPS.toLocaleString("en")} runs (${
      SCRIPT_COMMITS.toLocaleString("en")
    } commits), medians of interleaved triples; the disk syncs ${rates} times a second here:`,
  );
  const ms0 = (c: number | null) => c === null ? "?" : c.toFixed(0);
  for (const f of r.floor.rows) {
    say(
      `  ${f.ms.toFixed(0).padStart(6)} ms  cpu ${
        ms0(f.cpuMs).padStart(5)
      } ms (start ${ms0(f.startCpuMs).padStart(3)} ms)  syncs ${
        f.syncs ?? "?"
      }  ${f.label}`,
    );
  }
  const cpuRatio = scripted.cpuMs !== null && sameWork.cpuMs !== null
    ? scripted.cpuMs / sameWork.cpuMs
    : null;
  const [stepScript, stepSame] = [cpuPerStep(scripted), cpuPerStep(sameWork)];
  const stepRatio = stepScript !== null && stepSame !== null
    ? stepScript / stepSame
    : null;
  const cpuPerRun = (f: FloorRow) =>
    cpuPerStep(f) === null ? "?" : `${cpuPerStep(f)!.toFixed(0)} µs`;
  say(
    `  CPU per run (the whole run's less a one-step run's, over 1,999): script ${
      cpuPerRun(scripted)
    }, same-work ${cpuPerRun(sameWork)}, physical ${cpuPerRun(physical)}`,
  );
  say();
  const met = (ok: boolean) => ok ? "met" : "NOT MET";
  say("targets (issues 40 and 51; 51's are for a quiet machine):");
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
  } else say("  memory not measured: /usr/bin/time is missing");
  const fastDisk = rate >= TARGETS.syncsPerSecond;
  say(
    `  script at least ${
      TARGETS.scriptOfPhysical * 100
    }% of the physical floor on a disk of ${
      TARGETS.syncsPerSecond.toLocaleString("en")
    } syncs a second: ${pct(r.floor.ofPhysical)} ${
      fastDisk
        ? met(r.floor.ofPhysical >= TARGETS.scriptOfPhysical)
        : `not judged (this disk: ${rate.toFixed(0)} a second)`
    }; of the same-work floor: ${pct(r.floor.ofSameWork)}`,
  );
  if (stepRatio !== null && cpuRatio !== null) {
    say(
      `  script's CPU per run within ${TARGETS.cpuOverSameWork}× the same-work floor's: ${
        x(stepRatio)
      } ${
        met(stepRatio <= TARGETS.cpuOverSameWork)
      } (whole processes, starts included: ${x(cpuRatio)})`,
    );
  } else say("  CPU not measured: /usr/bin/time is missing");
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
  const cpuX = (row: Row) =>
    row.cpuMs === null || bareCpu === null ? "?" : x(row.cpuMs / bareCpu);
  say(
    `| start-up: \`--version\` / \`--help\` / \`run\` on a fresh ledger / on an existing one | ${
      x(at("--version").ratio)
    } / ${x(at("--help").ratio)} / ${x(fresh.ratio)} / **${
      x(small.ratio)
    }** the bare start (${at("bare").ms.toFixed(1)} ms); CPU ${
      cpuX(at("--version"))
    } / ${cpuX(at("--help"))} / ${cpuX(fresh)} / ${
      cpuX(small)
    } the bare start's (${bareCpu?.toFixed(1) ?? "?"} ms) |`,
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
  const cpuMs = (f: FloorRow) => f.cpuMs?.toFixed(0) ?? "?";
  say(
    `| \`script\`, 2,000 runs, against the physical floor / the same-work floor, the disk at ${
      rate.toFixed(0)
    } syncs a second | **${pct(r.floor.ofPhysical)}** / ${
      pct(r.floor.ofSameWork)
    } (${scripted.ms.toFixed(0)} ms against ${physical.ms.toFixed(0)} / ${
      sameWork.ms.toFixed(0)
    } ms); CPU ${cpuMs(scripted)} ms against ${cpuMs(physical)} / ${
      cpuMs(sameWork)
    } ms (${
      cpuRatio === null ? "?" : x(cpuRatio)
    } the same-work floor's); past the start, ${
      cpuPerRun(scripted)
    } a run against ${cpuPerRun(sameWork)} (**${
      stepRatio === null ? "?" : x(stepRatio)
    }**); syncs ${scripted.syncs ?? "?"} against ${physical.syncs ?? "?"} / ${
      sameWork.syncs ?? "?"
    } |`,
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
    } / **${x(small.ratio)}**；CPU 时间是裸启动（${
      bareCpu?.toFixed(1) ?? "?"
    } 毫秒）的 ${cpuX(at("--version"))} / ${cpuX(at("--help"))} / ${
      cpuX(fresh)
    } / ${cpuX(small)} |`,
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
    `| \`script\` 执行 2,000 次运行，对照物理下限 / 同等工作下限，磁盘每秒同步 ${
      rate.toFixed(0)
    } 次 | **${pct(r.floor.ofPhysical)}** / ${pct(r.floor.ofSameWork)}（${
      scripted.ms.toFixed(0)
    } 毫秒对 ${physical.ms.toFixed(0)} / ${
      sameWork.ms.toFixed(0)
    } 毫秒）；CPU 时间 ${cpuMs(scripted)} 毫秒对 ${cpuMs(physical)} / ${
      cpuMs(sameWork)
    } 毫秒（同等工作下限的 ${
      cpuRatio === null ? "?" : x(cpuRatio)
    }），扣除启动后每次运行 ${cpuPerRun(scripted)}，对照 ${
      cpuPerRun(sameWork)
    }（**${stepRatio === null ? "?" : x(stepRatio)}**）；同步 ${
      scripted.syncs ?? "?"
    } 次，对照 ${physical.syncs ?? "?"} / ${sameWork.syncs ?? "?"} 次 |`,
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
