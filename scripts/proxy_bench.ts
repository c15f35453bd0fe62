/**
 * What `guardlab proxy` adds to one `tools/call` round trip, against its
 * fair peer measured in the same run: the same call to the same kind of
 * server spoken to directly over its pipes. Two servers: one written with
 * the official MCP SDK (`tests/accept/sdk_echo_server.ts`, as a real tool
 * server is; the goal is at most {@linkcode GOAL} times direct), and the
 * hand-written fixture (`tests/accept/fixture_server.ts`, which answers
 * with almost no work, so the proxy's whole cost shows). The proxy runs
 * under the engineers' grant and records every message, as an engineer
 * would run it.
 *
 * Beside them, the floor of any proxy written in Deno: a process that only
 * copies bytes both ways (`tests/accept/pipe_copy.ts`), in front of the SDK
 * server; what it adds is the cost of one more process on the path.
 *
 * The sessions stay open; each round makes one call on each, in a
 * rotating order, so that other work on the machine weighs on all of them
 * alike; the report is each one's median and the ratio of the medians.
 *
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/proxy_bench.ts [ROUNDS]
 *
 * `deno task bench` runs it after the `deno bench` suites.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import { spawnChannel } from "../lib/wire/channel.ts";
import { Session } from "../lib/accept/session.ts";

/** The proxy's goal: at most this many times the direct round trip. */
export const GOAL = 1.5;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const at = (path: string) =>
  fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The SDK echo server, offline, against the project's import map and lock. */
const SDK_ECHO = [
  Deno.execPath(),
  "run",
  "-q",
  `--config=${at("deno.json")}`,
  `--lock=${at("deno.lock")}`,
  "--frozen",
  "--cached-only",
  "--allow-read",
  "--allow-env",
  at("tests/accept/sdk_echo_server.ts"),
];

/** The hand-written fixture, in its correct mode. */
const FIXTURE = [
  Deno.execPath(),
  "run",
  "-q",
  "--no-lock",
  at("tests/accept/fixture_server.ts"),
  "correct",
];

/** `server` behind a process that only copies bytes. */
const piped = (server: string[]) => [
  Deno.execPath(),
  "run",
  "-q",
  "--no-lock",
  "--allow-run",
  at("tests/accept/pipe_copy.ts"),
  ...server,
];

/** `server` behind `guardlab proxy`, started as the guardlab-engineer task does. */
function proxied(server: string[], record: string): string[] {
  const [program, ...flags] = config.tasks["guardlab-engineer"].split(" && ")
    .at(-1)!.split(/\s+/);
  if (program !== "deno") throw new Error("the engineer task runs deno");
  return [
    Deno.execPath(),
    ...flags,
    "proxy",
    "--record",
    record,
    "--",
    ...server,
  ];
}

async function open(command: string[]): Promise<Session> {
  const [program, ...args] = command;
  return await Session.open(spawnChannel(program, args), 60_000);
}

/** One round trip on `session`, in ms. */
async function roundTrip(session: Session): Promise<number> {
  session.beginCase();
  const started = performance.now();
  const answer = await session.own("get_notes", { id: "bench" }, "read");
  const took = performance.now() - started;
  if (answer.outcome !== "success") throw new Error(answer.outcome);
  return took;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(rounds: number): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-proxy-bench-" });
  await Deno.chmod(dir, 0o700);
  // The proxy is started from the repository, as deno task would.
  Deno.chdir(ROOT);
  // Each entry after a "direct" one is compared with it (its `peer`).
  const runs = [
    { label: "SDK server, direct", command: SDK_ECHO, peer: -1 },
    {
      label: "SDK server, through guardlab proxy",
      command: proxied(SDK_ECHO, `${dir}/sdk.jsonl`),
      peer: 0,
    },
    {
      label: "SDK server, through a bare byte copy (the floor)",
      command: piped(SDK_ECHO),
      peer: 0,
    },
    { label: "hand-written server, direct", command: FIXTURE, peer: -1 },
    {
      label: "hand-written server, through guardlab proxy",
      command: proxied(FIXTURE, `${dir}/fixture.jsonl`),
      peer: 3,
    },
  ];
  const sessions: Session[] = [];
  try {
    for (const run of runs) sessions.push(await open(run.command));
    const times = runs.map(() => [] as number[]);
    // Fifty warm-up rounds: the JIT of every process, the page cache.
    for (let round = -50; round < rounds; round++) {
      for (let k = 0; k < runs.length; k++) {
        const i = (k + Math.max(round, 0)) % runs.length;
        const took = await roundTrip(sessions[i]);
        if (round >= 0) times[i].push(took);
      }
    }
    const ms = times.map(median);
    console.log(
      `proxy round trip, median of ${rounds} interleaved calls (Deno ${Deno.version.deno}, ${Deno.build.target})`,
    );
    for (const [i, run] of runs.entries()) {
      const peer = run.peer < 0
        ? ""
        : `  ${(ms[i] / ms[run.peer]).toFixed(2)}x direct`;
      console.log(`  ${ms[i].toFixed(3).padStart(7)} ms  ${run.label}${peer}`);
    }
    const ratio = ms[1] / ms[0];
    console.log(
      ratio <= GOAL
        ? `within the goal: through the proxy, an SDK server's round trip takes ${
          ratio.toFixed(2)
        }x direct (goal ${GOAL}x)`
        : `over the goal: through the proxy, an SDK server's round trip takes ${
          ratio.toFixed(2)
        }x direct (goal ${GOAL}x)`,
    );
    return 0;
  } finally {
    for (const s of sessions) await s.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const rounds = Deno.args.length === 0 ? 400 : Number(Deno.args[0]);
  if (
    Deno.args.length > 1 || !Number.isInteger(rounds) || rounds < 1 ||
    rounds > 100_000
  ) {
    console.error("usage: proxy_bench.ts [ROUNDS]");
    Deno.exit(2);
  }
  Deno.exit(await main(rounds));
}
