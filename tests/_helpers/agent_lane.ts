/**
 * An engineer's own agent (`tests/accept/agent_lane_driver.mjs`: agents-core
 * 0.20.0, a scripted model and guardrails of its own, the agent hook as
 * guardlab prints it) run under Deno or Node, through `guardlab proxy` to
 * `guardlab mcp` or to the reference `server-memory`, in a private folder of
 * its own; then what happened, from each side's own store: the ledger
 * through a second connection, server-memory's graph file, the agent's own
 * count of model calls, and the records the proxy left.
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import { ORACLE } from "../../examples/guardrails_agent.ts";
import { SERVER_MEMORY } from "./deps.ts";
import { memoryServer } from "./reference_servers.ts";
import { ROOT } from "./root.ts";
import { cli } from "./helpers.ts";

/** The servers an agent reaches through the proxy. */
export type LaneServer = "guardlab" | "memory";

/** A rule of the agent's tool guardrails: the first `times` calls of `key` get `decision`. */
export interface LaneRule {
  readonly key: string;
  readonly decision: "rejectContent" | "throwException";
  readonly times?: number;
  readonly message?: string;
}

/** What one scenario's agent and proxy do. */
export interface LaneScenario {
  /** The server behind the proxy. */
  readonly server: LaneServer;
  /** The model's turns: each a list of calls (`[key, variant]`) or a final message. */
  readonly turns: readonly (readonly LaneCall[] | string)[];
  /** The tool input guardrail's rules. */
  readonly input?: readonly LaneRule[];
  /** The tool output guardrail's rules. */
  readonly output?: readonly LaneRule[];
  /** An agent-level input guardrail. */
  readonly agentGuardrail?: {
    readonly name: string;
    readonly blocking: boolean;
    readonly trips: boolean;
  };
  /** The proxy's faults file, when any. */
  readonly proxyFaults?: readonly Record<string, unknown>[];
  /** `guardlab mcp`'s faults file, when any. */
  readonly serverFaults?: readonly Record<string, unknown>[];
  /** Record with --oracle (default true). */
  readonly oracle?: boolean;
  /** Record with --read-before-delivery. */
  readonly readBeforeDelivery?: boolean;
  /** The MCP client's timeout of a call. */
  readonly timeoutMs?: number;
  /** Node or Deno (default Deno). */
  readonly runtime?: "deno" | "node";
}

/** One call the model asks for: its key and how its arguments vary ("other": other arguments, same key; "bad": a call the server refuses). */
export type LaneCall = readonly [key: string, variant?: "other" | "bad"];

/** What a scenario left, and what each side's own store says. */
export interface LaneRun {
  /** The scenario's private folder. */
  readonly dir: string;
  /** The record asked for with --record. */
  readonly asked: string;
  /** Every record the proxy wrote, by name, in order. */
  readonly records: string[];
  /** The record that holds the session (the one with an initialize). */
  readonly session: string;
  /** The agent record. */
  readonly agentRecord: string;
  /** The oracle file. */
  readonly oracle: string;
  /** The driver's stderr (the proxy's lines among it). */
  readonly stderr: string;
  /** The agent's own account: when it called its model, what ended its run. */
  readonly agent: { modelCalls: number[]; error: string | null };
  /** Each key's effect in the server's own store. */
  readonly store: Map<string, number>;
}

/** The tool each server writes with, and the pointer to its key. */
export const LANE_TOOLS = {
  guardlab: { tool: "create_draft", key: "/job" },
  memory: { tool: "create_entities", key: "/entities/0/name" },
} as const;

/** A call's arguments on `server`. */
export function laneArgs(
  server: LaneServer,
  [key, variant]: LaneCall,
): Record<string, unknown> {
  if (server === "guardlab") {
    return variant === "bad"
      ? { job: key, topic: "river", copies: 99 }
      : { job: key, topic: "river", copies: variant === "other" ? 3 : 2 };
  }
  const entity: Record<string, unknown> = {
    name: key,
    entityType: "job",
    observations: [variant === "other" ? "drafted again" : "drafted"],
  };
  if (variant === "bad") delete entity.entityType;
  return { entities: [entity] };
}

/** The oracle of each server's write, as the proxy is given it. */
export function laneOracle(server: LaneServer): unknown {
  if (server === "guardlab") return ORACLE;
  const memory = JSON.parse(
    Deno.readTextFileSync(
      join(ROOT, "tests/accept/oracles/server-memory.json"),
    ),
  );
  return { tools: memory.tools.slice(0, 1) };
}

const jsonl = (lines: readonly unknown[]) =>
  lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

/** The model's output items for the scenario's turns. */
function modelTurns(s: LaneScenario) {
  const tool = LANE_TOOLS[s.server].tool;
  let id = 0;
  return s.turns.map((turn) =>
    typeof turn === "string"
      ? [{
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: turn }],
      }]
      : turn.map((call) => ({
        type: "function_call",
        callId: `call_${++id}`,
        name: tool,
        arguments: JSON.stringify(laneArgs(s.server, call)),
        status: "completed",
      }))
  );
}

/** The command line that runs the driver under `runtime` in `dir`. */
function driverCommand(
  runtime: "deno" | "node",
  dir: string,
): { command: string; args: string[] } {
  if (runtime === "node") return { command: "node", args: ["driver.mjs"] };
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-q",
      "--no-config",
      `--lock=${join(ROOT, "deno.lock")}`,
      "--frozen",
      "--cached-only",
      // What chapter 9 says an agent with the hook needs under Deno:
      // its record's folder, the environment, and running the proxy.
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      "--allow-env",
      "--allow-run",
      "driver.mjs",
    ],
  };
}

/**
 * Run `s` in `dir` (a private folder, which must exist; for Node, holding
 * a node_modules with agents-core), and read what it left.
 */
export async function runLane(s: LaneScenario, dir: string): Promise<LaneRun> {
  const printed = await cli(["proxy", "--print-agent-hook"]);
  Deno.writeTextFileSync(
    join(dir, "guardlab-agent-hook.mjs"),
    printed.out.join("\n") + "\n",
  );
  Deno.copyFileSync(
    join(ROOT, "tests/accept/agent_lane_driver.mjs"),
    join(dir, "driver.mjs"),
  );
  const oracle = join(dir, "oracle.json");
  Deno.writeTextFileSync(oracle, JSON.stringify(laneOracle(s.server)));
  const ledger = join(dir, "lab.sqlite");
  const mcpFaults = join(dir, "mcp-faults.jsonl");
  const server = s.server === "guardlab"
    ? [
      launchCommand(thisInstall()).command,
      ...launchCommand(thisInstall()).args,
      "mcp",
      "--ledger-file",
      ledger,
      ...(s.serverFaults ? ["--faults", mcpFaults] : []),
    ]
    : memoryServer(SERVER_MEMORY, dir);
  if (s.serverFaults) Deno.writeTextFileSync(mcpFaults, jsonl(s.serverFaults));
  const proxyFaults = join(dir, "proxy-faults.jsonl");
  if (s.proxyFaults) Deno.writeTextFileSync(proxyFaults, jsonl(s.proxyFaults));
  const asked = join(dir, "proxy.jsonl");
  const engineer = launchCommand(thisInstall(), "guardlab-engineer");
  const proxy = [
    engineer.command,
    ...engineer.args,
    "proxy",
    "--record",
    asked,
    ...(s.proxyFaults ? ["--faults", proxyFaults] : []),
    ...(s.oracle === false ? [] : ["--oracle", oracle]),
    ...(s.readBeforeDelivery ? ["--read-before-delivery"] : []),
    "--",
    ...server,
  ];
  const spec = join(dir, "spec.json");
  Deno.writeTextFileSync(
    spec,
    JSON.stringify({
      hook: join(dir, "guardlab-agent-hook.mjs"),
      agentRecord: join(dir, "agent.jsonl"),
      proxy,
      // The folder the servers start in: the checkout, whose import map
      // names the npm servers' versions as deno.lock holds them.
      cwd: ROOT,
      timeoutMs: s.timeoutMs ?? 20_000,
      key: LANE_TOOLS[s.server].key,
      turns: modelTurns(s),
      input: s.input ?? [],
      output: s.output ?? [],
      agentGuardrail: s.agentGuardrail,
    }),
  );
  const { command, args } = driverCommand(s.runtime ?? "deno", dir);
  const out = await new Deno.Command(command, {
    args: [...args, spec],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  const last = stdout.trim().split("\n").filter((l) => l.startsWith("{"))
    .at(-1);
  if (out.code !== 0 || last === undefined) {
    throw new Error(`the agent failed (${out.code}):\n${stderr}\n${stdout}`);
  }
  const report = JSON.parse(last);
  const records = [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => /^proxy(-\d+)?\.jsonl$/.test(n))
    .sort((a, b) => recordNumber(a) - recordNumber(b))
    .map((n) => join(dir, n));
  const session = records.find((r) =>
    Deno.readTextFileSync(r).includes('"method":"initialize"')
  );
  if (session === undefined) {
    throw new Error(`no record holds a session: ${records.join(", ")}`);
  }
  return {
    dir,
    asked,
    records,
    session,
    agentRecord: report.agentRecord,
    oracle,
    stderr,
    agent: { modelCalls: report.modelCalls, error: report.error },
    store: s.server === "guardlab" ? draftsIn(ledger) : entitiesIn(dir),
  };
}

/**
 * The lines under a merged screen's `title` (where each of the agent's
 * calls stopped), each wrapped line joined to the one it continues.
 */
export function stopLinesOf(
  screen: readonly string[],
  title: string,
): string[] {
  const from = screen.indexOf(title);
  const out: string[] = [];
  for (const line of from < 0 ? [] : screen.slice(from + 1)) {
    if (line === "") break;
    if (line.startsWith("    ")) out[out.length - 1] += " " + line.trim();
    else out.push(line.trim());
  }
  return out;
}

function recordNumber(name: string): number {
  return Number(/-(\d+)\.jsonl$/.exec(name)?.[1] ?? 1);
}

/** The drafts in a ledger by job, through a second connection. */
function draftsIn(ledger: string): Map<string, number> {
  const out = new Map<string, number>();
  const db = new DatabaseSync(ledger, { readOnly: true });
  try {
    for (const row of db.prepare("SELECT job FROM drafts").all()) {
      const job = String(row.job);
      out.set(job, (out.get(job) ?? 0) + 1);
    }
  } finally {
    db.close();
  }
  return out;
}

/** server-memory's entities by name, from its own graph file. */
function entitiesIn(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  let text = "";
  try {
    text = Deno.readTextFileSync(join(dir, "memory.jsonl"));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const item = JSON.parse(line);
    if (item.type === "entity") {
      out.set(item.name, (out.get(item.name) ?? 0) + 1);
    }
  }
  return out;
}

/**
 * A node_modules for Node in `dir`, laid out offline from Deno's cache at
 * the versions deno.lock pins; the reason when it cannot be (no Node 20).
 */
export async function nodeModules(dir: string): Promise<string | null> {
  try {
    const v = await new Deno.Command("node", { args: ["--version"] }).output();
    const major = Number(
      /^v(\d+)/.exec(new TextDecoder().decode(v.stdout))?.[1],
    );
    if (!(major >= 20)) return `node is older than 20 (${major})`;
  } catch {
    return "node is not installed";
  }
  for (const f of ["import_map.json", "deno.lock"]) {
    Deno.copyFileSync(join(ROOT, f), join(dir, f));
  }
  Deno.writeTextFileSync(
    join(dir, "deno.json"),
    JSON.stringify({ nodeModulesDir: "auto", importMap: "./import_map.json" }),
  );
  Deno.writeTextFileSync(
    join(dir, "entry.ts"),
    'import "@openai/agents-core";\n',
  );
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "install",
      "-q",
      "--cached-only",
      "--lock=deno.lock",
      "--frozen",
      "--entrypoint",
      "entry.ts",
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (r.code !== 0) {
    return `deno install --cached-only could not lay out node_modules: ${
      new TextDecoder().decode(r.stderr).trim().split("\n")[0]
    }`;
  }
  return null;
}
