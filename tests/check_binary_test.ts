/**
 * `scripts/check-binary.sh` is what every release runner executes against
 * its binary. Here it runs against the `deno run` form with the same grant
 * (the `guardlab` task), inside a private mount namespace whose `/tmp` is a
 * fresh tmpfs: the planted root link is exercised and the real `/tmp` is
 * never touched.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CAN_RUN, NEEDS_RUN } from "./spawn.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Why a private mount namespace cannot be had here, or "" when it can. */
function namespaceMissing(): string {
  if (!CAN_RUN) return "";
  if (Deno.build.os !== "linux") return "a mount namespace needs Linux";
  try {
    const probe = new Deno.Command("unshare", {
      args: [
        "-m",
        "sh",
        "-c",
        "mount -t tmpfs tmpfs /tmp && test -d /var/tmp",
      ],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return probe.success ? "" : "unshare -m with a tmpfs /tmp is not permitted";
  } catch {
    return "unshare is not installed";
  }
}

const missing = namespaceMissing();

Deno.test({
  name: "check-binary.sh passes against the sandboxed deno run form" +
    (NEEDS_RUN || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_RUN || missing !== "",
  async fn() {
    // The checkout may itself live under /tmp, which the fresh tmpfs would
    // hide: it is bind-mounted elsewhere first, inside the namespace only.
    const keep = Deno.makeTempDirSync({
      dir: "/var/tmp",
      prefix: "guardlab-repo-",
    });
    const quote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;
    const command = [
      Deno.execPath(),
      "task",
      "-q",
      "--config",
      `${keep}/deno.json`,
      "guardlab",
    ].map(quote).join(" ");
    const script = [
      "set -e",
      `mount --bind ${quote(ROOT)} ${quote(keep)}`,
      "mount -t tmpfs tmpfs /tmp",
      `cd ${quote(keep)}`,
      `exec bash scripts/check-binary.sh ${command}`,
    ].join("\n");
    let result;
    try {
      result = await new Deno.Command("unshare", {
        args: ["-m", "bash", "-c", script],
        cwd: ROOT,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    } finally {
      Deno.removeSync(keep);
    }
    const { code, stdout, stderr } = result;
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, out + new TextDecoder().decode(stderr));
    const lines = out.trim().split("\n");
    assert.equal(lines.at(-1), "all checks passed");
    // The planted root link was really tried, not skipped.
    assert.ok(lines.includes("ok    root link, reset: exit 4, one line"), out);
    assert.ok(!lines.some((l) => l.startsWith("skip")), out);
  },
});
