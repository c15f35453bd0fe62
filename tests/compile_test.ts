/**
 * The binary students receive: `deno compile` with the `compile` task's own
 * flags, into a temp dir, then `verify` on it with no files beside it.
 * Where `deno compile` cannot obtain its runtime (denort is downloaded from
 * dl.deno.land), the test is reported as ignored with that reason.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CAN_RUN = Deno.permissions.querySync({ name: "run" }).state === "granted";

/** The `compile` task's arguments with the output redirected to `output`. */
function compileArgs(output: string): string[] {
  const [program, ...args] = config.tasks.compile.split(/\s+/);
  assert.equal(program, "deno");
  const at = args.indexOf("--output");
  assert.ok(at >= 0, "the compile task names its --output");
  args[at + 1] = output;
  return args;
}

let ignored = "";
let built: { dir: string; binary: string } | undefined;
if (!CAN_RUN) {
  ignored = "spawning deno compile needs --allow-run; run `deno task test`";
} else {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-compile-" });
  const binary = join(
    dir,
    Deno.build.os === "windows" ? "guardlab.exe" : "guardlab",
  );
  const result = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(binary),
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(result.stderr);
  if (result.success) {
    built = { dir, binary };
  } else {
    await Deno.remove(dir, { recursive: true });
    if (/denort|dl\.deno\.land|Download/i.test(stderr)) {
      ignored =
        "deno compile could not obtain its runtime (denort) on this machine";
    } else {
      throw new Error(`deno compile failed:\n${stderr}`);
    }
  }
}
if (ignored) console.warn(`compile test ignored: ${ignored}`);

Deno.test({
  name: "compile: the binary runs verify with the sandbox baked in" +
    (ignored ? ` [ignored: ${ignored}]` : ""),
  ignore: built === undefined,
  async fn() {
    const { dir, binary } = built!;
    try {
      // Run from an empty folder: the fixtures must be inside the binary.
      const run = (args: string[]) =>
        new Deno.Command(binary, {
          args,
          cwd: dir,
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).output();
      const verify = await run(["verify"]);
      assert.equal(verify.code, 0, new TextDecoder().decode(verify.stderr));
      assert.match(
        new TextDecoder().decode(verify.stdout),
        /all 15 scenarios match/,
      );
      const sandbox = await run(["sandbox", "--json"]);
      assert.equal(
        JSON.parse(new TextDecoder().decode(sandbox.stdout)).narrow,
        true,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
