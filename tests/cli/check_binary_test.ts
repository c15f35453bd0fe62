/**
 * `scripts/check-binary.sh` is what every release runner executes against
 * its binary. Here it runs against the `deno run` form with the same grant
 * (the `guardlab` task), inside a private mount namespace whose `/tmp` is a
 * fresh tmpfs: the planted root link is exercised and the real `/tmp` is
 * never touched. The checkout and the running Deno are bind-mounted aside
 * first (`namespace.ts`), so a checkout, a Deno or a Deno cache under `/tmp`
 * (a HOME, DENO_INSTALL or DENO_DIR there) does not vanish under the fresh
 * tmpfs.
 */
import assert from "node:assert/strict";
import {
  denoDir,
  inNamespace,
  namespaceMissing,
} from "../_helpers/namespace.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";

const missing = CAN_RUN ? namespaceMissing() : "";

Deno.test({
  name: "check-binary.sh passes against the sandboxed deno run form" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    const { code, out, err } = await inNamespace(`
cd "$REPO"
exec bash scripts/check-binary.sh "$DENO" task -q --config "$REPO/deno.json" guardlab
`);
    assert.equal(code, 0, out + err);
    const lines = out.trim().split("\n");
    assert.equal(lines.at(-1), "all checks passed");
    // The planted root link was really tried, not skipped.
    assert.ok(lines.includes("ok    root link, reset: exit 4, one line"), out);
    assert.ok(
      lines.includes(
        "ok    accept -- COMMAND under the student grant: exit 4, one line naming the engineer grant",
      ),
      out,
    );
    assert.ok(!lines.some((l) => l.startsWith("skip")), out);
  },
});

Deno.test({
  name:
    "check-binary.sh --engineer passes against the engineers' grant (the proxy round trip, accept against mcp)" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    const { code, out, err } = await inNamespace(`
cd "$REPO"
exec bash scripts/check-binary.sh --engineer "$DENO" task -q --config "$REPO/deno.json" guardlab-engineer
`);
    assert.equal(code, 0, out + err);
    const lines = out.trim().split("\n");
    assert.equal(lines.at(-1), "all checks passed");
    assert.ok(
      lines.includes(
        "ok    proxy: the MCP round trip through guardlab proxy, recorded",
      ),
      out,
    );
    assert.ok(
      lines.includes("ok    accept against its own mcp: 10 cases, all safe"),
      out,
    );
    assert.ok(!lines.some((l) => l.startsWith("skip")), out);
  },
});

Deno.test({
  name:
    "check-binary: a Deno that lives under /tmp is bound into the namespace" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    // The bound Deno runs although the fresh /tmp hides everything that was
    // there; so would one installed under /tmp.
    const { code, out, err } = await inNamespace(`
test -z "$(ls -A /tmp | grep -v '^src$')" || { echo "/tmp not fresh"; exit 1; }
"$DENO" --version | head -1
`);
    assert.equal(code, 0, out + err);
    assert.match(out, /^deno \d+\.\d+\.\d+/);
  },
});

Deno.test({
  name:
    "check-binary: this Deno's cache, wherever it lives, is bound into the namespace" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    // Root's runs inside use the cache the suite already filled: under a
    // fresh /tmp, a DENO_DIR there would be empty, and guardlab would try
    // the registry for its packages (and a scratch folder never appear).
    const { code, out, err } = await inNamespace(`
test -z "$(ls -A /tmp | grep -v '^src$')" || { echo "/tmp not fresh"; exit 1; }
cd "$REPO"
"$DENO" info --json | grep -o '"denoDir": *"[^"]*"'
echo "$DENO_DIR"
stat -c %d:%i "$DENO_DIR"
`);
    assert.equal(code, 0, out + err);
    const [named, exported, device] = out.trimEnd().split("\n");
    assert.equal(named, `"denoDir": "${exported}"`);
    assert.notEqual(exported, denoDir());
    // The very folder, not a copy or an empty one: same device and inode.
    const real = Deno.statSync(denoDir());
    assert.equal(device, `${real.dev}:${real.ino}`);
  },
});
