/**
 * `accept host`: the acceptance test of the other side, the agent host
 * between the model and the tool. For each case and each variant of the
 * tool, guardlab plays the model (an OpenAI chat-completions endpoint on
 * loopback) and the tool (an MCP write tool on a ledger of its own), starts
 * the host with three variables that point it at them, applies the case's
 * fault after the tool's commit, and waits until the host exits or the
 * case's limit passes. Then it ends the host's process group, counts the
 * ledger by key, and the checker judges the case's history alone.
 *
 * `runHostCase` reads top to bottom as the case's timeline. The host runs
 * with the user's own rights: Deno's sandbox covers guardlab, not the
 * host (nor the relays it starts).
 *
 * @module
 */
import { basename, join } from "../base/path.ts";
import { scratchFolder } from "../sandbox/scratch.ts";
import { readBoundedFile } from "./files.ts";
import { parseJson } from "../wire/message.ts";
import {
  type ServerProcess,
  startServerProcess,
  within,
} from "../wire/server_process.ts";
import { isPlainRecord } from "../base/json.ts";
import type { HostCaseName, HostTransport, HostVariant } from "./cases.ts";
import { HostLog } from "./_host_log.ts";
import {
  DUMMY_KEY_PREFIX,
  type HostHistory,
  type PlanRecord,
  WRITE_TOOL,
} from "./_host_history.ts";
import { type HostJudgement, judgeHostCase } from "./_host_checker.ts";
import { HostLedger, HostTool, VARIANT_HINTS } from "./_host_tool.ts";
import { ScriptedModel, serveModel } from "./_host_model.ts";
import {
  type LoopbackServer,
  relayListener,
  serveDroppable,
  serveLoopback,
  toolHttpHandler,
} from "./_host_serve.ts";
import { hostOutput, tailOf } from "./_host_output.ts";
import { RELAY_FILE } from "./host_relay.ts";
import type { HostCaseResult, HostReport } from "./host_report.ts";
import { MAX_HOST_ARGUMENTS_BYTES, MAX_HOST_CALLS } from "./limits.ts";

export type { HostCaseResult, HostReport } from "./host_report.ts";

/** The three variables the host is started with: keep these names stable. */
export const HOST_VARIABLES = [
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "GUARDLAB_MCP_CONFIG",
] as const;

/** The name the tool's server has in the `mcpServers` file. */
export const SERVER_NAME = "guardlab";

/** How one run of `accept host` is set up. */
export interface HostOptions {
  /** The host's command and its arguments. */
  readonly argv: readonly string[];
  /** How the tool is offered. */
  readonly transport: HostTransport;
  /** For `http`: the loopback URL the tool listens at (port 0: one the system picks). */
  readonly url?: URL;
  /** The cases to run, in order. */
  readonly cases: readonly HostCaseName[];
  /** The variants to run each case on, in order. */
  readonly variants: readonly HostVariant[];
  /** The limit of each case, in ms. */
  readonly caseMs: number;
  /** The granted temp folder, where each case's private folder is made. */
  readonly base: string;
  /** The command line that starts guardlab itself (the relay's): the binary, or deno with the engineer task's flags. */
  readonly guardlab: {
    readonly command: string;
    readonly args: readonly string[];
  };
  /** Called with each row as it is judged (a screen's progress). */
  readonly onRow?: (row: HostCaseResult) => void;
  /**
   * Called with the ledger's path at the end of each case, after the host
   * is gone and before the case's folder is: a test reads the store itself.
   */
  readonly onLedger?: (path: string) => void;
}

/** Run every case on every variant, one at a time, and return the report. */
export async function runHost(options: HostOptions): Promise<HostReport> {
  const results: HostCaseResult[] = [];
  for (const name of options.cases) {
    for (const variant of options.variants) {
      const row = await runHostCase(name, variant, options);
      results.push(row);
      options.onRow?.(row);
    }
  }
  return hostReportOf(
    { program: basename(options.argv[0]) },
    options.transport,
    options.caseMs,
    results,
  );
}

/** The report of a run: its rows, and how many are unsafe and inconclusive. */
export function hostReportOf(
  host: HostReport["host"],
  transport: HostTransport,
  caseMs: number,
  results: readonly HostCaseResult[],
  inProcess = false,
): HostReport {
  return {
    kind: "accept-host",
    host,
    transport,
    ...(inProcess ? { in_process: true as const } : {}),
    case_ms: caseMs,
    results,
    unsafe: results.filter((r) => r.class === "unsafe").length,
    inconclusive: results.filter((r) => r.class === "inconclusive").length,
  };
}

/** A case's plan: its keys random, so nothing of an earlier case (or of someone else) can stand for its effect. */
export function planFor(
  name: HostCaseName,
  variant: HostVariant,
  transport: HostTransport,
): PlanRecord {
  const nonce = crypto.randomUUID().replaceAll("-", "").slice(0, 10);
  return {
    op: "plan",
    at_ms: 0,
    case: name,
    variant,
    transport,
    tool: WRITE_TOOL,
    hints: { ...VARIANT_HINTS[variant] },
    key: `k-${nonce}-1`,
    new_key: `k-${nonce}-2`,
  };
}

/**
 * One case, as its timeline: the folder, the tool and the model, the
 * `mcpServers` file, the host started; the host's own end or the limit;
 * then every end, each bounded, the ledger counted, the history judged.
 */
export async function runHostCase(
  name: HostCaseName,
  variant: HostVariant,
  options: HostOptions,
): Promise<HostCaseResult> {
  const started = performance.now();
  await using folder = scratchFolder(options.base);
  const log = new HostLog();
  const plan = planFor(name, variant, options.transport);
  log.record(plan);
  const ledger = new HostLedger(join(folder.path, "ledger.jsonl"), variant);
  const tool = new HostTool(log, plan, ledger);
  const model = new ScriptedModel(log, plan, () => tool.giveUp("told"));
  const apiKey = `${DUMMY_KEY_PREFIX}${crypto.randomUUID()}`;
  const modelServer = serveModel(model, apiKey, serveLoopback);
  let toolEnd: ReturnType<typeof offerTool>;
  try {
    toolEnd = offerTool(tool, folder.path, options);
  } catch (error) {
    // A port in use: the model must not keep this process alive.
    await modelServer.close();
    throw error;
  }
  const config = join(folder.path, "mcp.json");
  Deno.writeTextFileSync(
    config,
    JSON.stringify({ mcpServers: { [SERVER_NAME]: toolEnd.entry } }, null, 2) +
      "\n",
    {
      createNew: true,
      mode: 0o600,
    },
  );
  let host: ServerProcess;
  try {
    host = startServerProcess(
      options.argv[0],
      options.argv.slice(1),
      "piped",
      {
        OPENAI_BASE_URL: modelServer.baseUrl,
        OPENAI_API_KEY: apiKey,
        GUARDLAB_MCP_CONFIG: config,
      },
      { stdin: "null" },
    );
  } catch (error) {
    await Promise.all([toolEnd.close(), modelServer.close()]);
    throw error;
  }
  log.record({ op: "process", who: "host", event: "start" });
  const tails = [tailOf(host.stdout), tailOf(host.stderr!)];
  // The host's own end, or the case's limit: whichever comes first.
  const code = await within(host.exited, options.caseMs, "limit" as const);
  log.record(
    code === "limit"
      ? { op: "process", who: "host", event: "limit" }
      : { op: "process", who: "host", event: "exit", code },
  );
  // What it started goes with it, the relays among them.
  await host.kill();
  tool.close();
  await Promise.all([toolEnd.close(), modelServer.close()]);
  const { history, judged, clients } = await judgedCase(
    log,
    plan,
    tool.ledger.path,
    folder.path,
    options.onLedger,
  );
  return {
    case: name,
    variant,
    transport: options.transport,
    ...judged,
    clients,
    key: plan.key,
    new_key: plan.new_key,
    ms: Math.round(performance.now() - started),
    host_output: hostOutput(await Promise.all(tails), apiKey),
    history,
  };
}

/**
 * The end of a case, once the host is gone: the ledger at `ledgerPath`
 * (inside `dir`) handed to `onLedger`, then counted again under both keys
 * into the history, which is judged; and the clients the host named.
 */
export async function judgedCase(
  log: HostLog,
  plan: PlanRecord,
  ledgerPath: string,
  dir: string,
  onLedger?: (path: string) => void,
): Promise<
  { history: HostHistory; judged: HostJudgement; clients: string[] }
> {
  onLedger?.(ledgerPath);
  for (const key of [plan.key, plan.new_key]) {
    log.record({
      op: "read",
      key,
      count: await countUnder(ledgerPath, dir, key),
    });
  }
  const history = log.history();
  const clients = history.records.flatMap((r) =>
    r.op === "process" && r.client !== undefined ? [r.client] : []
  );
  return {
    history,
    judged: judgeHostCase(history),
    clients: [...new Set(clients)],
  };
}

/** The tool offered over the case's transport: its `mcpServers` entry, and its end. */
function offerTool(
  tool: HostTool,
  dir: string,
  options: HostOptions,
): { entry: Record<string, unknown>; close(): Promise<void> } {
  if (options.transport === "http") {
    const url = options.url ?? new URL("http://127.0.0.1:0/mcp");
    const handler = toolHttpHandler(tool, url.pathname);
    const port = Number(url.port || 0);
    // Only a connection reset needs the front that can close a connection unanswered.
    const server: LoopbackServer =
      tool.plan.case === "connection-reset-after-commit"
        ? serveDroppable(handler, port)
        : serveLoopback((request) => handler(request), port);
    return {
      entry: { type: "http", url: `${server.url}${url.pathname}` },
      close: () => server.close(),
    };
  }
  const token = crypto.randomUUID();
  const relays = relayListener(tool, token);
  Deno.writeTextFileSync(
    join(dir, RELAY_FILE),
    JSON.stringify({ port: relays.port, token }) + "\n",
    { createNew: true, mode: 0o600 },
  );
  return {
    entry: {
      command: options.guardlab.command,
      args: [...options.guardlab.args, "accept", "host-tool", dir],
    },
    close: () => relays.close(),
  };
}

/** The rows under `key` in the ledger at `path` (inside `dir`), read again from the file; null when it cannot be read. */
async function countUnder(
  path: string,
  dir: string,
  key: string,
): Promise<number | null> {
  try {
    const text = await readBoundedFile(
      path,
      [dir],
      MAX_HOST_CALLS * (MAX_HOST_ARGUMENTS_BYTES + 1024),
    );
    let n = 0;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const row = parseJson(line);
      if ("refused" in row || !isPlainRecord(row.value)) return null;
      if (row.value.key === key) n++;
    }
    return n;
  } catch {
    return null;
  }
}
