/**
 * What issue 49 asks of the views, measured in one run: every view of a
 * ledger of your own (opened on its proof) on ledgers of 1,000,000
 * receipts, 1,000,000 drafts no receipt records, and 1,000,000 drafts
 * whose bodies are JSON objects, each against the same view of a ledger
 * of one receipt (time and peak memory, as ratios), quiet and under load;
 * then a valid ledger of 3,000,000 attempts (211 MB) handed over as a
 * `--ledger-file`, so that it is read into memory and checked in full,
 * quiet and under load: viewed, or refused.
 *
 * The load is made here: `--load N` busy loops (whole processes, each
 * spinning one core), started before the loaded pass and stopped after
 * it. The load average the run saw is printed beside every pass. Memory is
 * the peak resident size of the view's process (`/usr/bin/time`).
 *
 *     deno task bench:bounds [--runs N] [--load N] [--scale F] [--checkout DIR]
 *
 * `--scale` multiplies every size (0.1 for a quick look); `--checkout`
 * measures the `main.ts` of another checkout (the code before a change)
 * with the same ledgers. It prints the figures and the blocks that
 * `docs/en/reference/speed.md` and `docs/zh/reference/speed.md` quote.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fillLedger, type Kind } from "./bench/big_ledgers.ts";
import { load, median, taskFlags } from "./speed_bench.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The ledgers every view is measured on: name, kind, rows. */
const LEDGERS: readonly { name: string; kind: Kind; rows: number }[] = [
  { name: "receipts", kind: "receipts", rows: 1_000_000 },
  { name: "drafts", kind: "drafts", rows: 1_000_000 },
  { name: "objects", kind: "objects", rows: 1_000_000 },
];

/** The red team's valid ledger that the check called "not a guardlab ledger". */
const ATTEMPTS = 3_000_000;

/** The views measured. */
const VIEWS: readonly string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "svg"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

const RUN = ["run", "--job", "JOB-001", "--topic", "river", "--copies", "2"];
const TIME = "/usr/bin/time";

interface Measured {
  /** Wall time, ms. */
  ms: number;
  /** Peak resident size, KiB. */
  kib: number;
  /** Exit code. */
  code: number;
  /** The last line on stderr (a refusal). */
  said: string;
}

/** One whole guardlab process under `/usr/bin/time`. */
async function measure(root: string, args: string[]): Promise<Measured> {
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(TIME, {
    args: [
      "-f",
      "\n%M",
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
  const ms = performance.now() - started;
  const lines = new TextDecoder().decode(stderr).trimEnd().split("\n");
  const kib = Number(lines.pop());
  const said = lines.filter((l) => l.startsWith("guardlab:")).at(-1) ?? "";
  // `time` exits with the command's own code.
  return { ms, kib, code, said };
}

/** `n` busy loops, each a process spinning one core, until stopped. */
function busyLoops(n: number): { stop(): Promise<void> } {
  const children = Array.from(
    { length: n },
    () =>
      new Deno.Command(Deno.execPath(), {
        args: ["eval", "for (;;) {}"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn(),
  );
  return {
    async stop() {
      for (const child of children) child.kill("SIGKILL");
      for (const child of children) await child.status;
    },
  };
}

interface Options {
  runs: number;
  load: number;
  scale: number;
  checkout: string;
}

function parseOptions(args: string[]): Options {
  const options: Options = { runs: 3, load: 4, scale: 1, checkout: ROOT };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    const n = Number(value);
    if (flag === "--runs" && Number.isInteger(n) && n > 0) options.runs = n;
    else if (flag === "--load" && Number.isInteger(n) && n >= 0) {
      options.load = n;
    } else if (flag === "--scale" && n > 0 && n <= 1) options.scale = n;
    else if (flag === "--checkout" && value !== undefined) {
      options.checkout = value;
    } else {
      console.error(
        "usage: bounds_bench.ts [--runs N (3)] [--load N (4)] [--scale F (1)] [--checkout DIR]",
      );
      Deno.exit(2);
    }
  }
  return options;
}

/** One pass: every view on every ledger and on the small one, and the 211 MB check. */
interface Pass {
  loads: (number | null)[];
  views: { view: string; small: Measured; big: Record<string, Measured> }[];
  check: Measured;
}

async function pass(
  options: Options,
  home: string,
  foreign: string,
): Promise<Pass> {
  const loads = [load()];
  const views: Pass["views"] = [];
  const at = (name: string, view: string[]) => [
    "--home",
    home,
    ...view,
    "--ledger",
    name,
  ];
  const median3 = async (args: string[]) => {
    const all: Measured[] = [];
    for (let i = 0; i < options.runs; i++) {
      all.push(await measure(options.checkout, args));
    }
    const ms = median(all.map((m) => m.ms));
    return { ...all[0], ms, kib: median(all.map((m) => m.kib)) };
  };
  for (const view of VIEWS) {
    const small = await median3(at("small", view));
    const big: Record<string, Measured> = {};
    for (const { name } of LEDGERS) big[name] = await median3(at(name, view));
    views.push({ view: view.join(" "), small, big });
    console.error(`  ${view.join(" ")}`);
  }
  loads.push(load());
  const check = await measure(options.checkout, [
    "ledger",
    "--ledger-file",
    foreign,
  ]);
  loads.push(load());
  return { loads, views, check };
}

const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`;
const x = (r: number) => `${r.toFixed(2)}×`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(options: Options): Promise<void> {
  try {
    Deno.statSync(TIME);
  } catch {
    console.error(`${TIME} is missing: peak memory cannot be measured`);
    Deno.exit(1);
  }
  const cores = navigator.hardwareConcurrency;
  const top = await Deno.makeTempDir({ prefix: "guardlab-bounds-" });
  await Deno.chmod(top, 0o700);
  const home = join(top, "home");
  await Deno.mkdir(home, { mode: 0o700 });
  const sized = (rows: number) => Math.max(1, Math.round(rows * options.scale));
  try {
    console.error("making the ledgers…");
    const sizes: Record<string, number> = {};
    for (const name of ["small", ...LEDGERS.map((l) => l.name)]) {
      await measure(options.checkout, [
        "--home",
        home,
        ...RUN,
        "--ledger",
        name,
      ]);
    }
    for (const { name, kind, rows } of LEDGERS) {
      fillLedger(join(home, name, "lab.sqlite"), kind, sized(rows));
      // Checked in full once, and sealed, by guardlab's own run.
      const sealed = await measure(options.checkout, [
        "--home",
        home,
        ...RUN,
        "--ledger",
        name,
      ]);
      if (sealed.code !== 0) throw new Error(`${name}: ${sealed.said}`);
      sizes[name] = Deno.statSync(join(home, name, "lab.sqlite")).size;
    }
    const mine = join(top, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const foreign = join(mine, "attempts.sqlite");
    sizes.attempts = fillLedger(foreign, "attempts", sized(ATTEMPTS), true);
    console.error("quiet pass…");
    const quiet = await pass(options, home, foreign);
    console.error(`loaded pass, ${options.load} busy loops…`);
    const loops = busyLoops(options.load);
    let loaded: Pass;
    try {
      loaded = await pass(options, home, foreign);
    } finally {
      await loops.stop();
    }
    report(options, cores, sizes, quiet, loaded);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
}

function report(
  options: Options,
  cores: number,
  sizes: Record<string, number>,
  quiet: Pass,
  loaded: Pass,
): void {
  const lines: string[] = [];
  const say = (line = "") => lines.push(line);
  const loadText = (p: Pass) =>
    p.loads.map((l) => l === null ? "?" : l.toFixed(2)).join(", ");
  const n = (rows: number) =>
    Math.round(rows * options.scale).toLocaleString("en");
  const label: Record<string, string> = {
    receipts: `${n(LEDGERS[0].rows)} receipts`,
    drafts: `${n(LEDGERS[1].rows)} drafts, no receipt`,
    objects: `${n(LEDGERS[2].rows)} object bodies`,
  };
  say(
    `guardlab bounds (scripts/bounds_bench.ts), Deno ${Deno.version.deno}, ${Deno.build.target}, ${cores} cores${
      options.checkout === ROOT ? "" : `, checkout ${options.checkout}`
    }`,
  );
  say(
    `ledgers: ${
      Object.entries(sizes).map(([k, v]) => `${k} ${mb(v / 1024)}`).join(", ")
    }`,
  );
  let worst = 0;
  for (const [name, p] of [["quiet", quiet], ["loaded", loaded]] as const) {
    say();
    say(
      `${name}${
        name === "loaded" ? ` (${options.load} busy loops)` : ""
      }: load average (1 min) ${loadText(p)}`,
    );
    say(
      `  view: one receipt (time, memory) | then each big ledger: time, memory, memory against one receipt`,
    );
    for (const v of p.views) {
      const cells = LEDGERS.map(({ name }) => {
        const b = v.big[name];
        const ratio = b.kib / v.small.kib;
        worst = Math.max(worst, ratio);
        return `${s(b.ms)} ${mb(b.kib)} ${x(ratio)}`;
      });
      say(
        `  ${v.view.padEnd(34)} ${s(v.small.ms)} ${mb(v.small.kib)} | ${
          cells.join(" | ")
        }`,
      );
    }
    const c = p.check;
    say(
      `  ${n(ATTEMPTS)} attempts as --ledger-file (${
        mb(sizes.attempts / 1024)
      }): ${c.code === 0 ? "viewed" : `REFUSED (${c.said})`} in ${s(c.ms)}, ${
        mb(c.kib)
      }`,
    );
  }
  say();
  say(`the most memory any view took against one receipt: ${x(worst)}`);
  // The blocks the speed chapter quotes, in both languages.
  for (const lang of ["en", "zh"] as const) {
    say();
    say(`--- docs/${lang}/reference/speed.md ---`);
    say(
      lang === "en"
        ? "| view | one receipt | " +
          LEDGERS.map((l) => label[l.name]).join(" | ") + " |"
        : "| 视图 | 1 条回执 | " +
          LEDGERS.map((l) => label[l.name]).join(" | ") + " |",
    );
    say(`| --- | --- | ${LEDGERS.map(() => "---").join(" | ")} |`);
    for (const [name, p] of [["quiet", quiet], ["loaded", loaded]] as const) {
      for (const v of p.views) {
        const where = lang === "en"
          ? (name === "quiet" ? "" : ", loaded")
          : (name === "quiet" ? "" : "，有负载");
        say(
          `| \`${v.view}\`${where} | ${mb(v.small.kib)}, ${s(v.small.ms)} | ${
            LEDGERS.map(({ name }) => {
              const b = v.big[name];
              return `**${x(b.kib / v.small.kib)}** (${mb(b.kib)}), ${s(b.ms)}`;
            }).join(" | ")
          } |`,
        );
      }
    }
  }
  console.log(lines.join("\n"));
}

if (import.meta.main) await main(parseOptions(Deno.args));
