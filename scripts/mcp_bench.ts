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
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import { linesOf } from "../lib/base/lines.ts";
import { Lab } from "../lib/mod.ts";
import { sameWork } from "./bench/same_work.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = 3;
const ROUNDS = 250;
const WARMUP = 25;
const GOAL = 1.3;
const REUSED = { job: "JOB-999", topic: "river", copies: 2 };
const jobOf = (n: number) => `JOB-${String(n).padStart(3, "0")}`;

/** A server over its pipes: one request at a time, each timed. */
class PipeServer {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #waiting = new Map<number, () => void>();
  #id = 0;

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
}

async function mcpContenders(dir: string, run: number): Promise<Contender[]> {
  const deno = Deno.execPath();
  const [, ...guardlabFlags] = config.tasks.guardlab.split(/\s+/);
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
  const servers: [string, PipeServer][] = [
    // guardlab on a scratch ledger of its own, under the binary's grant.
    ["guardlab mcp", new PipeServer(deno, [...guardlabFlags, "mcp"])],
    ["peer, one transaction", new PipeServer(deno, peer("one"))],
    ["peer, two transactions", new PipeServer(deno, peer("two"))],
  ];
  const out: Contender[] = [];
  for (const [name, server] of servers) {
    await server.start();
    await server.call(REUSED);
    out.push({
      name,
      newKey: (n) => server.call({ ...REUSED, job: jobOf(n) }),
      reuse: () => server.call(REUSED),
      stop: () => server.stop(),
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

/** Interleaved rounds: each round, every contender once per kind, in a rotated order. */
async function measure(
  contenders: Contender[],
  samples: Map<string, number[]>,
): Promise<void> {
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(round + i) % contenders.length];
      const fresh = await c.newKey(round + 1);
      const reused = await c.reuse();
      if (round < WARMUP) continue;
      samples.get(`${c.name}|new`)!.push(fresh);
      samples.get(`${c.name}|reuse`)!.push(reused);
    }
  }
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
for (const n of names) {
  samples.set(`${n}|new`, []);
  samples.set(`${n}|reuse`, []);
}
try {
  for (let run = 1; run <= RUNS; run++) {
    const contenders = [
      ...await mcpContenders(dir, run),
      ...await inProcessContenders(dir, run),
    ];
    try {
      await measure(contenders, samples);
    } finally {
      for (const c of contenders) await c.stop();
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}

const median = (key: string) => quantile(samples.get(key)!, 0.5);
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
