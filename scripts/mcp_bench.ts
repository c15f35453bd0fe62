/**
 * `guardlab mcp` against same-work peers, measured side by side in one run,
 * interleaved round by round so that the machine's load falls on all of
 * them alike; then `Lab.run` in process, with and without an `AbortSignal`,
 * against the same work done in process. Prints the medians, the p95s and
 * the ratios, each beside its goal (issue 30: at most 1.3×).
 *
 * The peers (`scripts/bench/`): a plain MCP server (the SDK's `Server` on
 * its own stdio transport, `node:sqlite`) that writes the rows guardlab's
 * lab writes, with the same pragmas, committing draft and receipt in one
 * synced transaction (`one`) or in two, as the lab does (`two`). Every
 * server is spoken to by the same raw JSON-RPC client over its pipes, one
 * request at a time. Run with `deno task bench` (needs --allow-run).
 *
 * Beside each time, what the disk cannot move (issue 51): each server's CPU
 * time (user + system, from `/proc/PID/stat`) per call of each kind, from
 * the start of one call to the start of the server's next, summed over the
 * rounds; its syncs per call (`strace -c` of a separate short session of
 * each server: starting and stopping alone, then new keys, then reuses);
 * and the disk's sync rate, measured before and after
 * (`scripts/bench/cost.ts`).
 *
 *     deno run … scripts/mcp_bench.ts [--quick]   (--quick: 1 run × 60 rounds)
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import { linesOf } from "../lib/base/lines.ts";
import { Lab } from "../lib/mod.ts";
import { sameWork } from "./bench/same_work.ts";
import { CpuReader, mean, syncRate, syncsOf } from "./bench/cost.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const QUICK = Deno.args[0] === "--quick";
if (Deno.args.length > (QUICK ? 1 : 0)) {
  console.error("usage: mcp_bench.ts [--quick]");
  Deno.exit(2);
}
const RUNS = QUICK ? 1 : 3;
const ROUNDS = QUICK ? 60 : 250;
const WARMUP = QUICK ? 10 : 25;
/** Calls of each kind in the traced session that counts syncs. */
const TRACED_CALLS = 50;
const GOAL = 1.3;
const REUSED = { job: "JOB-999", topic: "river", copies: 2 };
const jobOf = (n: number) => `JOB-${String(n).padStart(3, "0")}`;

/** A server over its pipes: one request at a time, each timed. */
class PipeServer {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #waiting = new Map<number, () => void>();
  #id = 0;

  /** The server's process id. */
  get pid(): number {
    return this.#child.pid;
  }

  constructor(command: string, args: string[]) {
    this.#child = new Deno.Command(command, {
      args,
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    const stdout = this.#child.stdout;
    (async () => {
      for await (const line of linesOf(stdout, 64 << 20)) {
        if (!("text" in line)) continue;
        const { id } = JSON.parse(line.text) as { id: number };
        this.#waiting.get(id)?.();
        this.#waiting.delete(id);
      }
    })();
  }

  /** Send one request; resolves with its round trip in milliseconds. */
  async request(method: string, params: unknown): Promise<number> {
    const id = ++this.#id;
    const replied = new Promise<void>((r) => this.#waiting.set(id, r));
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const start = performance.now();
    await this.#writer.write(new TextEncoder().encode(line + "\n"));
    await replied;
    return performance.now() - start;
  }

  async start(): Promise<this> {
    await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    await this.#writer.write(
      new TextEncoder().encode(
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/initialized",
        }) + "\n",
      ),
    );
    return this;
  }

  call(args: unknown): Promise<number> {
    return this.request("tools/call", {
      name: "create_draft",
      arguments: args,
    });
  }

  async stop(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

/** One contender: a name and how to make one call of each kind. */
interface Contender {
  name: string;
  newKey(n: number): Promise<number>;
  reuse(): Promise<number>;
  stop(): Promise<void> | void;
  /** The CPU time (ms) its own process has used so far; absent in process. */
  cpu?(): Promise<number | null>;
}

/** The three servers' names and their `deno` arguments. */
function mcpServers(dir: string, run: string): [string, string[]][] {
  // The guardlab task's run of main.ts, after its Deno-cache check.
  const [, ...guardlabFlags] = config.tasks.guardlab.split(" && ").at(-1)!
    .split(/\s+/);
  const peer = (commits: string) => [
    "run",
    "-q",
    "--lock=deno.lock",
    "--frozen",
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    "scripts/bench/peer_mcp_server.ts",
    join(dir, `peer-${commits}-${run}.sqlite`),
    commits,
  ];
  return [
    // guardlab on a scratch ledger of its own, under the binary's grant.
    ["guardlab mcp", [...guardlabFlags, "mcp"]],
    ["peer, one transaction", peer("one")],
    ["peer, two transactions", peer("two")],
  ];
}

async function mcpContenders(
  dir: string,
  run: number,
  reader: CpuReader,
): Promise<Contender[]> {
  const out: Contender[] = [];
  for (const [name, args] of mcpServers(dir, String(run))) {
    const server = new PipeServer(Deno.execPath(), args);
    await server.start();
    await server.call(REUSED);
    out.push({
      name,
      newKey: (n) => server.call({ ...REUSED, job: jobOf(n) }),
      reuse: () => server.call(REUSED),
      stop: () => server.stop(),
      cpu: () => reader.cpu(server.pid),
    });
  }
  return out;
}

/**
 * Each server's syncs per call of each kind: a session of its own under
 * `strace -c`, three times (no call; new keys; reuses after one new key),
 * less the first.
 */
async function syncsPerCall(
  dir: string,
): Promise<Map<string, { new: number; reuse: number }> | null> {
  try {
    if (!Deno.statSync("/usr/bin/strace").isFile) return null;
  } catch {
    return null;
  }
  const out = new Map<string, { new: number; reuse: number }>();
  const session = async (
    args: string[],
    calls: (server: PipeServer) => Promise<void>,
  ): Promise<number> => {
    const file = join(dir, `strace-${crypto.randomUUID()}.txt`);
    const server = new PipeServer("/usr/bin/strace", [
      "-f",
      "-c",
      "-e",
      "trace=fsync,fdatasync",
      "-o",
      file,
      Deno.execPath(),
      ...args,
    ]);
    await server.start();
    await calls(server);
    await server.stop();
    const n = syncsOf(await Deno.readTextFile(file));
    await Deno.remove(file);
    return n;
  };
  let k = 0;
  for (const [name] of mcpServers(dir, "x")) {
    // A fresh ledger (or scratch ledger) for each session.
    const args = () =>
      mcpServers(dir, `traced-${++k}`).find(([n]) => n === name)![1];
    const none = await session(args(), async () => {});
    const fresh = await session(args(), async (s) => {
      for (let i = 0; i < TRACED_CALLS; i++) {
        await s.call({ ...REUSED, job: jobOf(i) });
      }
    });
    const reused = await session(args(), async (s) => {
      for (let i = 0; i <= TRACED_CALLS; i++) await s.call(REUSED);
    });
    const perNew = (fresh - none) / TRACED_CALLS;
    out.set(name, {
      new: perNew,
      reuse: (reused - none - perNew) / TRACED_CALLS,
    });
  }
  return out;
}

function timed(body: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  return Promise.resolve(body()).then(() => performance.now() - start);
}

async function inProcessContenders(
  dir: string,
  run: number,
): Promise<Contender[]> {
  const lab = Lab.open(join(dir, `lab-${run}.sqlite`));
  const signalled = Lab.open(join(dir, `lab-signal-${run}.sqlite`));
  const one = sameWork(join(dir, `same-one-${run}.sqlite`), "one");
  const two = sameWork(join(dir, `same-two-${run}.sqlite`), "two");
  await lab.run(REUSED);
  await signalled.run(REUSED);
  one.createDraft(REUSED);
  two.createDraft(REUSED);
  const signal = new AbortController().signal;
  return [
    {
      name: "Lab.run",
      newKey: (n) => timed(() => lab.run({ ...REUSED, job: jobOf(n) })),
      reuse: () => timed(() => lab.run(REUSED)),
      stop: () => lab.close(),
    },
    {
      name: "Lab.run with a signal",
      newKey: (n) =>
        timed(() => signalled.run({ ...REUSED, job: jobOf(n) }, {}, signal)),
      reuse: () => timed(() => signalled.run(REUSED, {}, signal)),
      stop: () => signalled.close(),
    },
    {
      name: "same work, one transaction",
      newKey: (n) => timed(() => one.createDraft({ ...REUSED, job: jobOf(n) })),
      reuse: () => timed(() => one.createDraft(REUSED)),
      stop: () => one.close(),
    },
    {
      name: "same work, two transactions",
      newKey: (n) => timed(() => two.createDraft({ ...REUSED, job: jobOf(n) })),
      reuse: () => timed(() => two.createDraft(REUSED)),
      stop: () => two.close(),
    },
  ];
}

/**
 * Interleaved rounds: each round, every contender once per kind, in a
 * rotated order. A server's CPU time is read at the start of each of its
 * calls: what it used since its previous call's start is that call's.
 */
async function measure(
  contenders: Contender[],
  samples: Map<string, number[]>,
  cpu: Map<string, number[]>,
): Promise<void> {
  const last = new Map<string, { kind: string; at: number } | null>();
  const mark = async (
    c: Contender,
    kind: string | null,
    counted: boolean,
  ) => {
    const now = (await c.cpu?.()) ?? null;
    if (now === null) return;
    const before = last.get(c.name);
    if (before && counted) {
      cpu.get(`${c.name}|${before.kind}`)!.push(now - before.at);
    }
    last.set(c.name, kind === null ? null : { kind, at: now });
  };
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const counted = round >= WARMUP;
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(round + i) % contenders.length];
      await mark(c, "new", counted);
      const fresh = await c.newKey(round + 1);
      await mark(c, "reuse", counted);
      const reused = await c.reuse();
      if (!counted) continue;
      samples.get(`${c.name}|new`)!.push(fresh);
      samples.get(`${c.name}|reuse`)!.push(reused);
    }
  }
  // The last reuse of each server: up to now.
  for (const c of contenders) await mark(c, null, true);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const dir = await Deno.makeTempDir({ prefix: "guardlab-mcp-bench-" });
await Deno.chmod(dir, 0o700);
const names = [
  "guardlab mcp",
  "peer, one transaction",
  "peer, two transactions",
  "Lab.run",
  "Lab.run with a signal",
  "same work, one transaction",
  "same work, two transactions",
];
const samples = new Map<string, number[]>();
const cpu = new Map<string, number[]>();
for (const n of names) {
  for (const kind of ["new", "reuse"]) {
    samples.set(`${n}|${kind}`, []);
    cpu.set(`${n}|${kind}`, []);
  }
}
const rates: number[] = [];
let syncs: Awaited<ReturnType<typeof syncsPerCall>> = null;
const reader = new CpuReader();
try {
  rates.push(syncRate(dir));
  for (let run = 1; run <= RUNS; run++) {
    const contenders = [
      ...await mcpContenders(dir, run, reader),
      ...await inProcessContenders(dir, run),
    ];
    try {
      await measure(contenders, samples, cpu);
    } finally {
      for (const c of contenders) await c.stop();
    }
  }
  rates.push(syncRate(dir));
  syncs = await syncsPerCall(dir);
} finally {
  await reader.close();
  await Deno.remove(dir, { recursive: true });
}

const median = (key: string) => quantile(samples.get(key)!, 0.5);
const cpuPerCall = (key: string) =>
  cpu.get(key)!.length === 0 ? null : mean(cpu.get(key)!);
const fmt = (ms: number) => ms.toFixed(2).padStart(7);
console.log(
  `guardlab mcp and its same-work peers, ${RUNS} runs × ${ROUNDS} interleaved rounds (ms per call)`,
);
console.log(
  `${"".padEnd(30)} ${"new: median".padStart(12)} ${"p95".padStart(7)} ${
    "reuse: median".padStart(14)
  } ${"p95".padStart(7)}`,
);
for (const n of names) {
  console.log(
    `${n.padEnd(30)} ${fmt(median(`${n}|new`)).padStart(12)} ${
      fmt(quantile(samples.get(`${n}|new`)!, 0.95))
    } ${fmt(median(`${n}|reuse`)).padStart(14)} ${
      fmt(quantile(samples.get(`${n}|reuse`)!, 0.95))
    }`,
  );
}
const ratio = (
  what: string,
  a: string,
  b: string,
  goal: number | null,
): void => {
  const r = median(a) / median(b);
  const verdict = goal === null
    ? ""
    : r <= goal
    ? `  (goal ≤ ${goal}×: met)`
    : `  (goal ≤ ${goal}×: NOT MET)`;
  console.log(`  ${what.padEnd(58)} ${r.toFixed(2)}×${verdict}`);
};
console.log(
  `what the disk cannot move: CPU time (user + system) per call of each server's own process (mean, ms), syncs per call (strace), the disk at ${
    rates.map((r) => r.toFixed(0)).join(" then ")
  } syncs a second:`,
);
for (const n of names.slice(0, 3)) {
  const [cNew, cReuse] = [cpuPerCall(`${n}|new`), cpuPerCall(`${n}|reuse`)];
  const s = syncs?.get(n);
  console.log(
    `  ${n.padEnd(28)} new: cpu ${cNew?.toFixed(3) ?? "?"} ms, syncs ${
      s?.new.toFixed(2) ?? "?"
    }   reuse: cpu ${cReuse?.toFixed(3) ?? "?"} ms, syncs ${
      s?.reuse.toFixed(2) ?? "?"
    }`,
  );
}
const cpuRatio = (what: string, a: string, b: string) => {
  const [x, y] = [cpuPerCall(a), cpuPerCall(b)];
  if (x === null || y === null) return;
  const r = x / y;
  console.log(
    `  ${what.padEnd(58)} ${r.toFixed(2)}×  (goal ≤ ${GOAL}×: ${
      r <= GOAL ? "met" : "NOT MET"
    })`,
  );
};
console.log("ratios of the CPU per call:");
cpuRatio(
  "guardlab reuse / peer reuse (one transaction)",
  "guardlab mcp|reuse",
  "peer, one transaction|reuse",
);
cpuRatio(
  "guardlab new draft / peer new draft (two transactions)",
  "guardlab mcp|new",
  "peer, two transactions|new",
);
console.log("ratios of the medians:");
ratio(
  "guardlab reuse / peer reuse (one transaction)",
  "guardlab mcp|reuse",
  "peer, one transaction|reuse",
  GOAL,
);
ratio(
  "guardlab new draft / peer new draft (two transactions)",
  "guardlab mcp|new",
  "peer, two transactions|new",
  GOAL,
);
ratio(
  "guardlab new draft / peer new draft (one transaction)",
  "guardlab mcp|new",
  "peer, one transaction|new",
  null,
);
ratio(
  "Lab.run with a signal / without, reuse",
  "Lab.run with a signal|reuse",
  "Lab.run|reuse",
  GOAL,
);
ratio(
  "Lab.run with a signal / without, new draft",
  "Lab.run with a signal|new",
  "Lab.run|new",
  GOAL,
);
ratio(
  "Lab.run with a signal / same work in process, reuse (one)",
  "Lab.run with a signal|reuse",
  "same work, one transaction|reuse",
  null,
);
ratio(
  "Lab.run with a signal / same work in process, new (two)",
  "Lab.run with a signal|new",
  "same work, two transactions|new",
  null,
);
