/**
 * Every path guardlab itself asks the runtime for, over a run of every
 * command: `DENO_AUDIT_PERMISSIONS` logs each permission check the program's
 * code makes (Deno's own reads of its cache and of the checkout are not
 * logged). Each must be inside the private folder, a scratch folder or the
 * probe file, or be a path the user named on the command line (a
 * `--ledger-file`, a script or answer FILE, a `--home`), or `/tmp` itself,
 * which the folder-chain check reads and in which the probe file and the
 * scratch and private folders are made. Run under the binary's grant, in a
 * private mount namespace with a fresh `/tmp`.
 */
import assert from "node:assert/strict";
import {
  inNamespace,
  namespaceMissing,
  steps,
  TASK_FLAGS,
} from "../_helpers/namespace.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { initialize, INITIALIZED } from "../_helpers/mcp_wire.ts";

const missing = CAN_RUN ? namespaceMissing() : "";

/** Each command, as a shell fragment after `guardlab`, with its stdin. */
const CALLS: [string, string, string?][] = [
  ["help", "--help"],
  ["version", "--version"],
  ["demo", "demo"],
  ["verify", "verify"],
  ["explain", "explain retry_same_request --format svg"],
  ["run-scratch", "run --job JOB-001 --topic river --copies 2"],
  ["run-named", "run --ledger a --job JOB-001 --topic river --copies 2"],
  ["script-named", "script --ledger a", "/tmp/mine/steps.jsonl"],
  ["script-scratch", "script", "/tmp/mine/steps.jsonl"],
  ["script-file", "script /tmp/mine/steps.jsonl"],
  ["ledger-named", "ledger --ledger a"],
  ["reconcile-named", "reconcile --ledger a"],
  ["compensate", "compensate --ledger a --job JOB-001"],
  ["ledger-file", "ledger --ledger-file /tmp/mine/ref.sqlite"],
  ["reconcile-file", "reconcile --ledger-file /tmp/mine/ref.sqlite --json"],
  [
    "run-file",
    "run --ledger-file /tmp/mine/new.sqlite --job JOB-002 --topic river --copies 1",
  ],
  ["config-set", "config lang zh"],
  ["config-name", "config name Alice"],
  ["config-show", "config"],
  ["exercise-list", "exercise list"],
  ["exercise-show", "exercise show 1"],
  ["exercise-hint", "exercise hint 1"],
  ["exercise-check", "exercise check 1 /tmp/mine/steps.jsonl"],
  ["exercise-check-stdin", "exercise check 2", "/tmp/mine/steps.jsonl"],
  ["exercise-progress", "exercise progress"],
  ["exercise-hand-in", "exercise hand-in"],
  ["exercise-grade", "exercise grade", "/tmp/mine/hand-in.json"],
  ["sandbox", "sandbox --json"],
  ["mcp", "mcp", "/tmp/mine/mcp.jsonl"],
  [
    "home",
    "run --ledger b --home /tmp/home-a --job JOB-001 --topic river --copies 2",
  ],
  ["reset", "reset --ledger a"],
];

/** Paths the program may ask for (uid 0: the namespace runs as root). */
const ALLOWED: [string, RegExp][] = [
  ["the temp folder itself", /^\/tmp$/],
  ["the probe file", /^\/tmp\/\.guardlab-id-[0-9a-f]+$/],
  ["the private folder", /^\/tmp\/guardlab-0(\/.*)?$/],
  ["a scratch folder", /^\/tmp\/guardlab-scratch-[0-9a-f]+(\/.*)?$/],
  ["a path the user named", /^\/tmp\/(mine|home-a)(\/.*)?$/],
];

const MCP_INPUT = [
  initialize(1, "audit", "0"),
  INITIALIZED,
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
].map((m) => JSON.stringify(m)).join("\n") + "\n";

Deno.test({
  name: "audit: every path guardlab asks for, over every command" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    const calls = CALLS.map(([name, args, stdin]) =>
      [
        `${stdin ? `IN=${stdin} ` : ""}step ${name} env ` +
        `DENO_AUDIT_PERMISSIONS=/tmp/.audit/${name}.jsonl ` +
        `"$DENO" ${TASK_FLAGS} main.ts ${args}`,
        // The hand-in is what grade reads next.
        name === "exercise-hand-in"
          ? "cp /tmp/.step-out /tmp/mine/hand-in.json"
          : "",
        `step log-${name} cat /tmp/.audit/${name}.jsonl`,
      ].join("\n")
    ).join("\n");
    const { code, out, err } = await inNamespace(`
mkdir -m 700 /tmp/.audit /tmp/mine
cp "$REPO/fixtures/reference-ledger.sqlite" /tmp/mine/ref.sqlite
printf '{"op":"count"}\\n' >/tmp/mine/steps.jsonl
echo ${btoa(MCP_INPUT)} | base64 -d >/tmp/mine/mcp.jsonl
cd "$REPO"
${calls}
`);
    assert.equal(code, 0, out + err);
    const all = steps(out);
    const seen = new Map<string, number>();
    const outside: string[] = [];
    for (const [name] of CALLS) {
      const run = all.get(name)!;
      assert.ok(run, name);
      assert.ok(
        [0, 1, 3].includes(run.code),
        `${name}: exit ${run.code}: ${run.err.join("\n")}`,
      );
      const log = all.get(`log-${name}`)!;
      for (const line of log.out) {
        const entry = JSON.parse(line) as { permission: string; value: string };
        if (entry.permission !== "read" && entry.permission !== "write") {
          outside.push(`${name}: ${entry.permission} ${entry.value}`);
          continue;
        }
        const where = ALLOWED.find(([, re]) => re.test(entry.value));
        if (where === undefined) outside.push(`${name}: ${line}`);
        else seen.set(where[0], (seen.get(where[0]) ?? 0) + 1);
      }
    }
    assert.deepEqual(outside, [], "asked for something outside");
    // Under exactly the binary's grant: sandbox finds it narrow.
    assert.equal(all.get("sandbox")!.code, 0, all.get("sandbox")!.out[0]);
    // The log is not empty: the checks were really made and logged.
    assert.ok((seen.get("the private folder") ?? 0) > 0);
    assert.ok((seen.get("a scratch folder") ?? 0) > 0);
    assert.ok((seen.get("the probe file") ?? 0) > 0);
  },
});
