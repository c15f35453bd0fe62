/**
 * Records the `accept --json` reports of chapter 8's three reference
 * servers, as the chapter's matrices were made (tests/accept/servers_test.ts
 * runs the same commands): guardlab's own `guardlab mcp` on a ledger file
 * of its own, `@modelcontextprotocol/server-memory` and
 * `@modelcontextprotocol/server-filesystem` at the versions import_map.json
 * pins, each offline (`--cached-only`) under the engineer grant. The
 * reports go to `fixtures/accept/chapter8/`, where
 * `tests/accept/judge_test.ts` judges them again from their histories and
 * holds the verdicts to the ones the chapter prints, written there by hand.
 *
 *   deno run -q --lock=deno.lock --frozen --allow-read --allow-write --allow-run --allow-env scripts/chapter8_reports.ts
 *
 * The servers run with your own rights.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import importMap from "../import_map.json" with { type: "json" };
import {
  filesystemOracle,
  filesystemServer,
  memoryServer,
} from "../tests/_helpers/reference_servers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "fixtures/accept/chapter8");
const ORACLES = join(ROOT, "tests/accept/oracles");

/** A task's `deno run …` line (after the Deno-cache check), with this Deno binary. */
function taskCommand(task: "guardlab" | "guardlab-engineer"): string[] {
  const [program, ...flags] = config.tasks[task].split(" && ").at(-1)!.split(
    /\s+/,
  );
  if (program !== "deno") throw new Error(`the ${task} task runs deno`);
  return [Deno.execPath(), ...flags];
}

/** Run accept --json with `oracle` against `server`; the report's text, and its exit code. */
async function accept(oracle: string, server: string[]) {
  const [program, ...args] = taskCommand("guardlab-engineer");
  const out = await new Deno.Command(program, {
    args: [...args, "accept", "--json", "--oracle", oracle, "--", ...server],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, text: new TextDecoder().decode(out.stdout) };
}

const RUNS: Record<
  string,
  (dir: string) => Promise<{ code: number; text: string }>
> = {
  "guardlab-mcp": (dir) => {
    const oracle = join(dir, "oracle.json");
    Deno.copyFileSync(join(ORACLES, "guardlab-mcp.json"), oracle);
    // A ledger file of its own: the second process and the restart open it.
    return accept(oracle, [
      ...taskCommand("guardlab"),
      "mcp",
      "--ledger-file",
      join(dir, "ledger.sqlite"),
    ]);
  },
  "server-memory": (dir) => {
    const oracle = join(dir, "oracle.json");
    Deno.copyFileSync(join(ORACLES, "server-memory.json"), oracle);
    return accept(
      oracle,
      memoryServer(
        importMap.imports["@modelcontextprotocol/server-memory"],
        dir,
      ),
    );
  },
  "server-filesystem": (dir) => {
    // The oracle names files by absolute path: the template's folder becomes this run's.
    const root = join(dir, "root");
    Deno.mkdirSync(root, { mode: 0o700 });
    const oracle = join(dir, "oracle.json");
    Deno.writeTextFileSync(oracle, filesystemOracle(root));
    return accept(
      oracle,
      filesystemServer(
        importMap.imports["@modelcontextprotocol/server-filesystem"],
        root,
      ),
    );
  },
};

Deno.mkdirSync(OUT, { recursive: true });
for (const [name, run] of Object.entries(RUNS)) {
  const dir = Deno.makeTempDirSync({ prefix: `gl-chapter8-${name}-` });
  Deno.chmodSync(dir, 0o700);
  try {
    const { code, text } = await run(dir);
    Deno.writeTextFileSync(join(OUT, `${name}.json`), text);
    console.log(`${name}: exit ${code}, ${join(OUT, `${name}.json`)}`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
