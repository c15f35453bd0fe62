/**
 * Spawning the CLI as a user starts it: `deno run` with exactly the flags of
 * the `guardlab` task in deno.json (the flags the binary is compiled with).
 */
import assert from "node:assert/strict";
import config from "../../deno.json" with { type: "json" };
import { ROOT } from "./root.ts";

/** Whether this test process may spawn subprocesses. */
export const CAN_RUN =
  Deno.permissions.querySync({ name: "run" }).state === "granted";

/** Appended to the names of tests that need --allow-run, so the reason shows when they are ignored. */
export const NEEDS_RUN = CAN_RUN
  ? ""
  : " [ignored: spawning the CLI needs --allow-run; run `deno task test`]";

/**
 * The `guardlab` task's run of main.ts: the task first runs the Deno-cache
 * check (scripts/deno_dir_check.js), then, after `&&`, this.
 */
export const GUARDLAB_RUN: string = config.tasks.guardlab.split(" && ").at(-1)!;

/** The `guardlab` task's command line, with this Deno binary in place of `deno`. */
export function sandboxCommand(): { program: string; args: string[] } {
  const [program, ...args] = GUARDLAB_RUN.split(/\s+/);
  assert.equal(program, "deno");
  return { program: Deno.execPath(), args };
}

/** Start guardlab under the sandbox flags with piped streams. */
export function startGuardlab(args: string[]): Deno.ChildProcess {
  const { program, args: flags } = sandboxCommand();
  return new Deno.Command(program, {
    args: [...flags, ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

/** Run guardlab to completion with `stdin`; returns exit code and output lines. */
export async function spawnGuardlab(args: string[], stdin = "") {
  const child = startGuardlab(args);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const lines = (bytes: Uint8Array) =>
    new TextDecoder().decode(bytes).split("\n").filter((l) => l !== "");
  return { code, out: lines(stdout), err: lines(stderr) };
}

/**
 * Run the test script `script` (given a mark file in a folder of its own),
 * wait for the line `until` on its stdout, send it `signal`, and return its
 * exit code, what it printed after that line, what it left in the mark
 * file, and the names left in its folder. The script handles signals as
 * the entry point does and writes the mark from an exit hook.
 */
export async function signalledAt(
  script: string,
  until: string,
  signal: Deno.Signal,
): Promise<{ code: number; after: string; mark: string; left: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-held-" });
  try {
    const mark = `${dir}/mark`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "--allow-read", `--allow-write=${dir}`, script, mark],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    let out = "";
    while (!out.includes(`${until}\n`)) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    assert.equal(out, `${until}\n`, "the line it waits for, and nothing else");
    child.kill(signal);
    const { code, stdout } = await child.output();
    return {
      code,
      after: new TextDecoder().decode(stdout),
      mark: await Deno.readTextFile(mark),
      left: [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
