/**
 * `guardlab accept --http-oracle` against a small Express API that
 * promises the `Idempotency-Key` contract (examples/http_orders_api.ts),
 * offline: guardlab starts it on a loopback port, once as it follows the
 * draft (every case, no unsafe verdict), once in a mode that keeps no
 * in-flight record (concurrent-same: DUPLICATED). Chapter 8 shows both
 * screens.
 *
 * Run it from the checkout (`deno task example:http`):
 *
 *     deno run -q --lock=deno.lock --frozen --allow-env --allow-run \
 *       --allow-read --allow-write=/tmp examples/http_accept.ts [FLAGS…]
 *
 * FLAGS go to `guardlab accept` (`--timeline`, `--json`). guardlab runs
 * under the engineers' grant (it starts the API, which runs with your own
 * rights: its flags below give it the loopback network and its store's
 * folder only). It exits 0 when each run ended as chapter 8 says (0, then
 * 5), else 1.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchCommand, thisInstall } from "../lib/mcp/host_config.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The API in `mode` as guardlab starts it: its store in `dir`, nothing else. */
function api(mode: string, dir: string): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    `--lock=${join(ROOT, "deno.lock")}`,
    // Not --cached-only: on a first run Deno fetches Express, checked
    // against the lock's hash.
    "--frozen",
    "--allow-net=127.0.0.1",
    "--allow-env",
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    join(ROOT, "examples/http_orders_api.ts"),
    mode,
    `--store=${join(dir, "orders.db")}`,
  ];
}

/** Run guardlab accept on the API in `mode`, its output on ours; its exit code. */
async function accept(mode: string, cases: string[]): Promise<number> {
  // guardlab reads files under the temp folder only: the oracle goes there.
  const dir = Deno.makeTempDirSync({ prefix: `gl-http-${mode}-` });
  Deno.chmodSync(dir, 0o700);
  try {
    const oracle = join(dir, "http-orders.json");
    Deno.copyFileSync(join(ROOT, "examples/http-orders.json"), oracle);
    const engineer = launchCommand(thisInstall(), "guardlab-engineer");
    const { code } = await new Deno.Command(engineer.command, {
      args: [
        ...engineer.args,
        "accept",
        "--http-oracle",
        oracle,
        ...cases,
        ...Deno.args,
        "--",
        ...api(mode, dir),
      ],
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    return code;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

console.log("$ guardlab accept --http-oracle http-orders.json -- … draft");
const draft = await accept("draft", []);
console.log(
  "\n$ guardlab accept --http-oracle http-orders.json --cases concurrent-same -- … no-conflict",
);
const broken = await accept("no-conflict", ["--cases", "concurrent-same"]);
Deno.exit(draft === 0 && broken === 5 ? 0 : 1);
