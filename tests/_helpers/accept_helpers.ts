/**
 * Shared pieces of the accept and proxy tests: the fixture server (one
 * behaviour per mode), the engineer grant's command line, and the matrix of
 * a report as `case → verdict`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../../deno.json" with { type: "json" };
import { spawnChannel } from "../../lib/wire/channel.ts";
import { CASE_NAMES, type CaseName } from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import type { Oracle } from "../../lib/accept/oracle.ts";
import { type AcceptReport, runAccept } from "../../lib/accept/run.ts";
import { judgeReport } from "../../lib/accept/judge.ts";
import { judgeHostCase } from "../../lib/accept/_host_checker.ts";
import type { HostCaseResult } from "../../lib/accept/host_report.ts";
import assert from "node:assert/strict";
import { CAN_RUN } from "./spawn.ts";

import { ROOT } from "./root.ts";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import { callTool, initialize } from "./mcp_wire.ts";

/** The repository root (defined in `root.ts`). */
export { ROOT };

/** The fixture server's file. */
export const FIXTURE = fileURLToPath(
  new URL("../accept/fixture_server.ts", import.meta.url),
);

/** Whether this test process may start servers and hand them the environment they need. */
export const CAN_START = CAN_RUN &&
  Deno.permissions.querySync({ name: "env" }).state === "granted";

/** Appended to the names of tests that start a server. */
export const NEEDS_START = CAN_START
  ? ""
  : " [ignored: starts an MCP server as a child process, which needs --allow-run and --allow-env; run `deno task test`]";

/**
 * The fixture server in `mode`, as `accept` would start it; with `store`,
 * its notes are kept in that file (and it may read and write that file's
 * folder only).
 */
export function fixtureCommand(mode: string, store?: string): string[] {
  const flags = [
    ...(mode.startsWith("http") ? ["--allow-net=127.0.0.1"] : []),
    ...(mode === "orphan" ? ["--allow-run"] : []),
    ...(store === undefined ? [] : [
      `--allow-read=${dirname(store)}`,
      `--allow-write=${dirname(store)}`,
    ]),
  ];
  return [
    Deno.execPath(),
    "run",
    "-q",
    "--no-lock",
    ...flags,
    FIXTURE,
    mode,
    ...(store === undefined ? [] : [`--store=${store}`]),
  ];
}

/** A channel to the fixture server in `mode` (its notes in `store`, when given). */
export function fixtureChannel(mode: string, store?: string) {
  const [command, ...args] = fixtureCommand(mode, store);
  return spawnChannel(command, args);
}

/** The notes in a fixture's store file, as that server wrote them. */
export function storedNotes(store: string): { id: string; text: string }[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(store);
  } catch {
    return [];
  }
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** The matrix as `case: VERDICT` lines, information after a `+`. */
export function matrixOf(report: AcceptReport): string[] {
  return report.results.map((r) =>
    `${r.case}: ${r.verdict}${r.info.length > 0 ? ` +${r.info.join(",")}` : ""}`
  );
}

/** The `guardlab-engineer` task's command line, with this Deno binary for `deno`. */
export function engineerCommand(
  args: string[],
): { command: string; args: string[] } {
  const [program, ...flags] = config.tasks["guardlab-engineer"].split(" && ")
    .at(-1)!.split(/\s+/);
  if (program !== "deno") throw new Error("the engineer task runs deno");
  return { command: Deno.execPath(), args: [...flags, ...args] };
}

/**
 * agents-core's `MCPServerStdio` options for the lab reached through the
 * proxy: `guardlab mcp` on `ledger` behind `guardlab proxy --oracle ORACLE
 * --read-before-delivery`, recording `session.jsonl` in `dir`; the tools
 * listed once, a minute for each call.
 */
export function labBehindProxy(dir: string, oracle: string, ledger: string) {
  const server = launchCommand(thisInstall());
  const proxy = engineerCommand([
    "proxy",
    "--record",
    join(dir, "session.jsonl"),
    "--oracle",
    oracle,
    "--read-before-delivery",
    "--",
    server.command,
    ...server.args,
    "mcp",
    "--ledger-file",
    ledger,
  ]);
  return {
    name: "guardlab",
    ...proxy,
    timeout: 60_000,
    clientSessionTimeoutSeconds: 60,
    cacheToolsList: true,
  };
}

/** Start guardlab under the engineer grant, its stdin, stdout and stderr piped; `env` is added to its environment. */
export function startEngineer(
  args: string[],
  env: Record<string, string> = {},
): Deno.ChildProcess {
  const { command, args: argv } = engineerCommand(args);
  return new Deno.Command(command, {
    args: argv,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
}

/** A client's initialize and one put_note, as lines a proxy reads on stdin. */
export const PUT_NOTE_SESSION = [
  initialize(1, "t"),
  callTool(2, "put_note", { id: "a", text: "b" }),
].map((m) => JSON.stringify(m)).join("\n") + "\n";

/** Run guardlab under the engineer grant to completion; exit code and output lines. `env` is added to its environment. */
export async function runEngineer(
  args: string[],
  stdin = "",
  env: Record<string, string> = {},
) {
  const child = startEngineer(args, env);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const lines = (b: Uint8Array) =>
    new TextDecoder().decode(b).split("\n").filter((l) => l !== "");
  return {
    code,
    out: lines(stdout),
    err: lines(stderr),
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

/**
 * One case of `accept host` run by `run` in a private folder, the ledger
 * read the test's own way (`rowsByKey`) when the case hands it over; the
 * row, whose verdict must be what its history gives, judged again, and
 * the ledger's rows by key.
 */
export async function hostCaseWithLedger(
  run: (base: string, onLedger: (path: string) => void) => Promise<
    HostCaseResult
  >,
): Promise<{ row: HostCaseResult; ledger: Map<string, number> }> {
  using base = privateDir("gl-accept-host-");
  let ledger = new Map<string, number>();
  const row = await run(base.path, (path) => ledger = rowsByKey(path));
  assert.equal(judgeHostCase(row.history).verdict, row.verdict);
  return { row, ledger };
}

/** What a row of `accept host` says, beside the ledger as the test counted it (first key, new key). */
export function hostSeen(row: HostCaseResult, ledger: Map<string, number>) {
  return {
    verdict: row.verdict,
    info: row.info,
    resent: row.resent,
    cancelled: row.cancelled,
    told: row.told_text,
    ledger: [ledger.get(row.key) ?? 0, ledger.get(row.new_key) ?? 0],
    counted: [row.effects_key, row.effects_new_key],
  };
}

/** A test's own count of the ledger's rows by key: one JSON line per effect. */
export function rowsByKey(path: string): Map<string, number> {
  const rows = new Map<string, number>();
  for (const line of Deno.readTextFileSync(path).split("\n")) {
    if (line === "") continue;
    const key = JSON.parse(line).key as string;
    rows.set(key, (rows.get(key) ?? 0) + 1);
  }
  return rows;
}

/** A private folder under the temp folder for a test's files; `using` removes it. */
export function privateDir(prefix: string): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix });
  Deno.chmodSync(path, 0o700);
  return {
    path,
    [Symbol.dispose]() {
      Deno.removeSync(path, { recursive: true });
    },
  };
}

/**
 * Run `cases` against the fixture in `mode`, its notes in a store file of
 * its own (a fresh private folder); `start` starts another fixture over the
 * same file. With `apart`, the server the run opens first (which only the
 * setup and the ordinary cases use) keeps its notes in another file, so
 * the processes the case starts are alone on the store. Returns the report
 * and what the store holds at the end.
 */
export async function acceptFixture(
  mode: string,
  cases: readonly CaseName[] = CASE_NAMES,
  { oracle = EXAMPLE_ORACLE, timeoutMs = 10_000, cancelAfterMs = 0, apart }: {
    oracle?: Oracle;
    timeoutMs?: number;
    /** The delay of cancel-after-send, or "measured" to let accept choose it. */
    cancelAfterMs?: number | "measured";
    apart?: boolean;
  } = {},
): Promise<AcceptReport & { stored: { id: string; text: string }[] }> {
  using dir = privateDir("gl-accept-fixture-");
  const store = join(dir.path, "notes.jsonl");
  const first = apart ? join(dir.path, "first.jsonl") : store;
  const report = await runAccept(fixtureChannel(mode, first), {
    oracle,
    cases,
    copies: 10,
    timeoutMs,
    // 0 by default: the cancel leaves in the same write as the call,
    // before any answer can come.
    cancelAfterMs: cancelAfterMs === "measured" ? undefined : cancelAfterMs,
    start: () => Promise.resolve(fixtureChannel(mode, store)),
  });
  assertJudgedAgain(report);
  return { ...report, stored: storedNotes(store) };
}

/**
 * Hold a run's report to its histories: judged again from them alone (as
 * `accept judge` does with the report saved), every row gives the same
 * verdict and rests on the same counts, answers and information.
 */
export function assertJudgedAgain(report: AcceptReport): void {
  const { report: again, changed } = judgeReport(
    JSON.stringify(report),
    "report.json",
  );
  assert.deepEqual(changed, []);
  report.results.forEach((row, i) => {
    const { timeline: _t, notices: _n, ...saved } = row;
    const { timeline: _t2, notices: _n2, ...judged } = again.results[i];
    assert.deepEqual(judged, saved, `${row.case} judged again`);
  });
}

/** How many notes with `key` the fixture's own store holds. */
export function storedUnder(
  report: { stored: { id: string }[] },
  key: string,
): number {
  return report.stored.filter((n) => n.id === key).length;
}

/**
 * Whether process `pid` has ended (gone, or a zombie nobody reaped yet: its
 * parent, the server, is gone), asked of `ps`, which any user may run (a
 * test cannot read another process's /proc entry under Deno's grant). A
 * killed process takes a moment to die: `ps` is asked again until it has,
 * at most for `boundMs`; a process nobody ended lives on.
 */
export async function processEnded(
  pid: number,
  boundMs: number,
): Promise<boolean> {
  const until = performance.now() + boundMs;
  while (performance.now() < until) {
    const { stdout } = await new Deno.Command("ps", {
      args: ["-o", "stat=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).output();
    const state = new TextDecoder().decode(stdout).trim();
    if (state === "" || state.startsWith("Z")) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
