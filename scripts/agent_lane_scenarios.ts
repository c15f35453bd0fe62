/**
 * Issue 45's agent lane, measured: an engineer's own agent (agents-core
 * 0.20.0, a scripted model and guardrails of its own, the agent hook as
 * guardlab prints it; `tests/accept/agent_lane_driver.mjs`) through
 * `guardlab proxy` to `guardlab mcp` and to the reference server-memory, in
 * eleven kinds of scenario on each server. Each run's merged screen
 * (`proxy show RECORD --agent AGENTRECORD --oracle FILE`) is checked
 * against what happened, as each side's own store says it (the ledger
 * through a second connection, server-memory's graph file, the agent's own
 * count of its model calls): a scenario is drawn true when no check fails.
 * It prints each scenario's failed checks, the count drawn true, and the
 * load average seen.
 *
 *     deno run -A scripts/agent_lane_scenarios.ts [--node] [--only NAME] [--show]
 *
 * `--show` prints each merged screen. `--node` runs the agent under Node (20 or later), agents-core laid out
 * from Deno's cache; else under Deno. Every run is in a new private temp
 * folder, removed at the end; the servers run with your own rights.
 *
 * @module
 */
import { basename } from "node:path";
import {
  type LaneRun,
  type LaneScenario,
  type LaneServer,
  nodeModules,
  runLane,
  stopLinesOf,
} from "../tests/_helpers/agent_lane.ts";
import { cli } from "../tests/_helpers/helpers.ts";

/** One kind of scenario: what the agent does, and what its screen must say. */
interface Kind {
  readonly name: string;
  /** The scenario on a server (undefined: the server cannot play it). */
  readonly on: (server: LaneServer) => LaneScenario;
  /** What the screen must say, given the run: each failed check's words. */
  readonly checks: (
    screen: Screen,
    run: LaneRun,
  ) => string[] | Promise<string[]>;
}

/** A merged screen, read back: the agent lane's marks, the lines under the timeline. */
interface Screen {
  readonly text: string;
  readonly marks: string[];
  readonly client: string[];
  readonly stops: string[];
}

/** A lane's marks (its columns `from` to `to`), each step's wrapped lines joined. */
function laneMarks(lines: string[], from: number, to: number): string[] {
  const marks: string[] = [];
  let open = false;
  for (const row of lines) {
    if (!row.includes("|")) continue;
    const cell = row.slice(from, to).trim();
    if (/^ {2}[+-]\d+ms/.test(row)) {
      open = cell !== "";
      if (open) marks.push(cell);
    } else if (open && cell !== "") marks[marks.length - 1] += ` ${cell}`;
  }
  return marks;
}

/** The agent lane's marks. */
const agentMarks = (lines: string[]) => laneMarks(lines, 11, 31);

/** The client lane's marks. */
const clientMarks = (lines: string[]) => laneMarks(lines, 33, 47);

async function screenOf(run: LaneRun): Promise<Screen> {
  const show = await cli([
    "proxy",
    "show",
    run.session,
    "--agent",
    run.agentRecord,
    "--oracle",
    run.oracle,
  ]);
  if (show.code !== 0) throw new Error(show.err.join("\n"));
  return {
    text: show.out.join("\n"),
    marks: agentMarks(show.out),
    client: clientMarks(show.out),
    stops: stopLinesOf(show.out, "where each of the agent's calls stopped:"),
  };
}

const RBD = "--read-before-delivery";

/** The checks every scenario's screen must pass, against the agent's own count and the store. */
function common(s: LaneScenario, screen: Screen, run: LaneRun): string[] {
  const failed: string[] = [];
  if (screen.marks.some((m) => /«»/.test(m))) {
    failed.push("a mark says the model is told «» (nothing it was told)");
  }
  const turns = screen.marks.filter((m) => /^model turn \d+$/.test(m)).length;
  if (turns > run.agent.modelCalls.length) {
    failed.push(
      `${turns} model turns drawn; the agent called its model ${run.agent.modelCalls.length} times`,
    );
  }
  for (const line of screen.stops) {
    if (
      line.includes(RBD) && (s.readBeforeDelivery || /timed out/.test(line))
    ) {
      failed.push(`advice that cannot apply: ${line}`);
    }
    const key = /^create_\w+ (\S+) /.exec(line)?.[1];
    const stored = key === undefined ? 0 : run.store.get(key) ?? 0;
    // A call that wrote nothing may share its key with one that did.
    const sent = screen.stops.some((l) =>
      l !== line && l.includes(` ${key} (call `)
    );
    if (/wrote nothing|found no effect/.test(line) && stored !== 0 && !sent) {
      failed.push(
        `says nothing was written of ${key}; the store holds ${stored}`,
      );
    }
    const effect = /\((\d+)\)/.exec(line)?.[1];
    if (effect !== undefined && Number(effect) > 0 && stored === 0) {
      failed.push(`says ${key}'s effect was ${effect}; the store holds none`);
    }
  }
  if (
    s.oracle !== false &&
    /record the session with --oracle FILE/.test(screen.text)
  ) failed.push("asks for --oracle, which was given");
  return failed;
}

/** A check: `ok`, else `why`. */
const need = (ok: boolean, why: string) => (ok ? [] : [why]);

const stop = (screen: Screen, i: number) => screen.stops[i] ?? "(no line)";

const KINDS: readonly Kind[] = [
  {
    name: "input guardrail refuses",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      turns: [[["JOB-001"]], [["JOB-002"]], "done"],
      input: [{ key: "JOB-001", decision: "rejectContent" }],
    }),
    checks: (screen, run) => [
      ...need(
        /JOB-001 \(not sent\): tool input guardrail approval decided rejectContent before any tools\/call: this call wrote nothing/
          .test(stop(screen, 0)),
        `JOB-001: ${stop(screen, 0)}`,
      ),
      ...need((run.store.get("JOB-001") ?? 0) === 0, "JOB-001 is stored"),
      ...need(
        /JOB-002 \(call 1\): every tool guardrail allowed it$/.test(
          stop(screen, 1),
        ),
        `JOB-002: ${stop(screen, 1)}`,
      ),
    ],
  },
  {
    name: "output guardrail rejects after the commit",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      turns: [[["JOB-001"]], "done"],
      output: [{ key: "JOB-001", decision: "rejectContent" }],
    }),
    checks: (screen) =>
      need(
        /JOB-001 \(call 1\): tool output guardrail release_check decided rejectContent after the effect was visible \(1\): the effect stays/
          .test(stop(screen, 0)),
        `JOB-001: ${stop(screen, 0)}`,
      ),
  },
  {
    name: "output guardrail throws after the commit",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      turns: [[["JOB-001"]], [["JOB-002"]], "not reached"],
      output: [{ key: "JOB-002", decision: "throwException" }],
    }),
    checks: (screen, run) => {
      const thrown = screen.marks.findIndex((m) =>
        /release_check: throwException/.test(m)
      );
      return [
        ...need(run.agent.error !== null, "the run did not end on the throw"),
        ...need(thrown >= 0, "no mark of the throw"),
        ...need(
          !screen.marks.slice(thrown + 1).some((m) =>
            /^model turn|the model is told/.test(m)
          ),
          `after the throw: ${screen.marks.slice(thrown + 1).join(" / ")}`,
        ),
        ...need(
          /JOB-002 \(call 2\): tool output guardrail release_check decided throwException after the effect was visible \(1\): the effect stays/
            .test(stop(screen, 1)),
          `JOB-002: ${stop(screen, 1)}`,
        ),
      ];
    },
  },
  {
    name: "a retry after an input guardrail's refusal",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      turns: [[["JOB-001"]], [["JOB-001"]], "done"],
      input: [{ key: "JOB-001", decision: "rejectContent", times: 1 }],
    }),
    checks: (screen, run) => [
      ...need(
        screen.marks.some((m) => /calls create_\w+ again/.test(m)),
        `no mark calls the second call a retry: ${screen.marks.join(" / ")}`,
      ),
      ...need(/retry/.test(stop(screen, 1)), `call 1: ${stop(screen, 1)}`),
      ...need(run.store.get("JOB-001") === 1, "JOB-001 is not stored once"),
    ],
  },
  {
    name: "the same key resent with other arguments",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      turns: [[["JOB-001"]], [["JOB-001", "other"]], "done"],
      output: [{ key: "JOB-001", decision: "rejectContent", times: 1 }],
    }),
    checks: (screen) => {
      const client = screen.client.some((m) => /^retries: call 2\b/.test(m));
      const agent = screen.marks.some((m) => /calls create_\w+ again/.test(m));
      return [
        ...need(
          client === agent,
          `the client's lane ${
            client ? "calls" : "does not call"
          } call 2 a retry, the agent's ${agent ? "does" : "does not"}`,
        ),
        ...need(
          /a retry of call 1/.test(stop(screen, 1)),
          `call 2: ${stop(screen, 1)}`,
        ),
      ];
    },
  },
  {
    name: "a blocking agent guardrail trips",
    on: (server) => ({
      server,
      turns: [[["JOB-001"]], "done"],
      agentGuardrail: { name: "on_topic", blocking: true, trips: true },
    }),
    checks: (screen, run) => [
      ...need(run.agent.modelCalls.length === 0, "the model was called"),
      ...need(
        screen.marks.some((m) => /SDK/.test(m)),
        `no mark says the turn is the SDK's: ${screen.marks.join(" / ")}`,
      ),
    ],
  },
  {
    name: "a call times out after its commit",
    on: (server) => ({
      server,
      timeoutMs: 3000,
      turns: [[["JOB-001"]], "done"],
      ...(server === "guardlab"
        ? { serverFaults: [{ job: "JOB-001", hold_at: "after_commit" }] }
        : {
          proxyFaults: [{
            tool: "create_entities",
            call: 1,
            drop_response: true,
          }],
        }),
    }),
    checks: (screen, run) => [
      ...need(run.store.get("JOB-001") === 1, "JOB-001 is not stored"),
      ...need(
        /JOB-001 \(call 1\): timed out.*(found the effect|after the effect was visible) \(1\)/
          .test(stop(screen, 0)) && !/cannot say/.test(stop(screen, 0)),
        `JOB-001: ${stop(screen, 0)}`,
      ),
    ],
  },
  {
    name: "a call times out with nothing committed",
    on: (server) => ({
      server,
      timeoutMs: 3000,
      turns: [[["JOB-001", server === "memory" ? "bad" : undefined]], "done"],
      ...(server === "guardlab"
        ? { serverFaults: [{ job: "JOB-001", hold_at: "before_business" }] }
        : {
          proxyFaults: [{
            tool: "create_entities",
            call: 1,
            drop_response: true,
          }],
        }),
    }),
    checks: (screen, run) => [
      ...need(!run.store.has("JOB-001"), "JOB-001 is stored"),
      ...need(
        /JOB-001 \(call 1\): timed out.*found no effect \(0\)/.test(
          stop(screen, 0),
        ),
        `JOB-001: ${stop(screen, 0)}`,
      ),
    ],
  },
  {
    name: "the client probes, then starts the session",
    on: (server) => ({ server, turns: [[["JOB-001"]], "done"] }),
    checks: async (_screen, run) => {
      const session = basename(run.session);
      const said =
        run.stderr.split("\n").find((l) =>
          l.startsWith("guardlab proxy:") && l.includes(session)
        ) ?? "";
      const probe = await cli(["proxy", "show", run.asked]);
      return [
        ...need(
          run.session !== run.asked,
          "the session is in the record asked for",
        ),
        ...need(
          said.includes(basename(run.asked)),
          `stderr names the session's file, not the one asked for: ${said}`,
        ),
        ...need(
          probe.out.some((l) => l.includes(session)),
          `proxy show ${basename(run.asked)} does not point to ${session}`,
        ),
        ...need(
          !probe.out.some((l) => /record the session with --oracle/.test(l)),
          "the probe's screen asks for --oracle, which was given",
        ),
      ];
    },
  },
  {
    name: "output guardrail rejects, recorded with --oracle only",
    on: (server) => ({
      server,
      turns: [[["JOB-001"]], "done"],
      output: [{ key: "JOB-001", decision: "rejectContent" }],
    }),
    checks: (screen) =>
      need(
        /JOB-001 \(call 1\): tool output guardrail release_check decided rejectContent after the server answered; its effect \(1\) was read only later \(record with --oracle FILE --read-before-delivery to see where it falls\)/
          .test(stop(screen, 0)),
        `JOB-001: ${stop(screen, 0)}`,
      ),
  },
  {
    name: "an answer dropped after the commit, then the same call again",
    on: (server) => ({
      server,
      readBeforeDelivery: true,
      timeoutMs: 3000,
      turns: [[["JOB-001"]], [["JOB-001"]], "done"],
      proxyFaults: [{ call: 1, drop_response: true }],
    }),
    checks: (screen, run) => [
      ...need(
        /JOB-001 \(call 1\): timed out after the effect was visible \(1\)/
          .test(stop(screen, 0)),
        `call 1: ${stop(screen, 0)}`,
      ),
      ...need(/a retry of call 1/.test(stop(screen, 1)), stop(screen, 1)),
      ...need(run.store.get("JOB-001") === 1, "JOB-001 is not stored once"),
    ],
  },
];

if (import.meta.main) {
  const node = Deno.args.includes("--node");
  const only = Deno.args.includes("--only")
    ? Deno.args[Deno.args.indexOf("--only") + 1]
    : undefined;
  let modules: string | undefined;
  if (node) {
    modules = Deno.makeTempDirSync({ prefix: "gl-lane-node-" });
    const missing = await nodeModules(modules);
    if (missing !== null) {
      console.error(`cannot run under Node: ${missing}`);
      Deno.exit(1);
    }
  }
  let drawn = 0;
  let total = 0;
  const load: number[][] = [Deno.loadavg()];
  for (const kind of KINDS) {
    if (only !== undefined && !kind.name.includes(only)) continue;
    for (const server of ["guardlab", "memory"] as const) {
      const scenario: LaneScenario = {
        ...kind.on(server),
        runtime: node ? "node" : "deno",
      };
      const dir = Deno.makeTempDirSync({ prefix: "gl-lane-" });
      Deno.chmodSync(dir, 0o700);
      if (modules !== undefined) {
        Deno.symlinkSync(`${modules}/node_modules`, `${dir}/node_modules`);
      }
      try {
        const run = await runLane(scenario, dir);
        const screen = await screenOf(run);
        const failed = [
          ...common(scenario, screen, run),
          ...await kind.checks(screen, run),
        ];
        total++;
        if (failed.length === 0) drawn++;
        if (Deno.args.includes("--show")) console.log(screen.text);
        console.log(
          `${
            failed.length === 0 ? "true " : "FALSE"
          }  ${kind.name} (${server})`,
        );
        for (const f of failed) console.log(`         ${f}`);
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    }
  }
  load.push(Deno.loadavg());
  if (modules !== undefined) Deno.removeSync(modules, { recursive: true });
  console.log(
    `drawn true: ${drawn} of ${total} (${
      node ? "Node" : "Deno"
    }; load average ${
      load.map((l) => l.map((x) => x.toFixed(2)).join(" ")).join(
        " at the start, ",
      )
    } at the end)`,
  );
}
