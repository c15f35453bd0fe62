/**
 * Shared pieces of the accept and proxy tests: the fixture server (one
 * behaviour per mode), the engineer grant's command line, and the matrix of
 * a report as `case → verdict`.
 */
import { fileURLToPath } from "node:url";
import config from "../../deno.json" with { type: "json" };
import { spawnChannel } from "../../lib/accept/channel.ts";
import type { AcceptReport } from "../../lib/accept/run.ts";
import { CAN_RUN } from "./spawn.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

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

/** The fixture server in `mode`, as `accept` would start it. */
export function fixtureCommand(mode: string): string[] {
  const net = mode.startsWith("http") ? ["--allow-net=127.0.0.1"] : [];
  return [Deno.execPath(), "run", "-q", "--no-lock", ...net, FIXTURE, mode];
}

/** A channel to the fixture server in `mode`. */
export function fixtureChannel(mode: string) {
  const [command, ...args] = fixtureCommand(mode);
  return spawnChannel(command, args);
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

/** Run guardlab under the engineer grant to completion; exit code and output lines. `env` is added to its environment. */
export async function runEngineer(
  args: string[],
  stdin = "",
  env: Record<string, string> = {},
) {
  const { command, args: argv } = engineerCommand(args);
  const child = new Deno.Command(command, {
    args: argv,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
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
