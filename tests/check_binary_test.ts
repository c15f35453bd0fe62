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
      args: ["-m", "sh", "-c", "mount -t tmpfs tmpfs /tmp"],
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
    const command = [
      Deno.execPath(),
      "task",
      "-q",
      "--config",
      `${ROOT}deno.json`,
      "guardlab",
    ].map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
    const { code, stdout, stderr } = await new Deno.Command("unshare", {
      args: [
        "-m",
        "bash",
        "-c",
        `mount -t tmpfs tmpfs /tmp && exec bash scripts/check-binary.sh ${command}`,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, out + new TextDecoder().decode(stderr));
    const lines = out.trim().split("\n");
    assert.equal(lines.at(-1), "all checks passed");
    // The planted root link was really tried, not skipped.
    assert.ok(lines.includes("ok    root link, reset: exit 4, one line"), out);
    assert.ok(!lines.some((l) => l.startsWith("skip")), out);
  },
});
