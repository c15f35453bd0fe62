/**
 * Every shell block of the agent chapter (docs/en/03-agents-and-mcp.md, and
 * its Chinese twin, whose blocks are the same) runs in the order printed, in
 * one shell, in a scratch folder, as on a fresh machine with `guardlab` on
 * the PATH. The test stands in for the binary with the same command line
 * `guardlab mcp --print-config` gives for this checkout, and gives the
 * chapter's ledger name a name of its own (reset afterwards), so a real
 * ledger called `agent` is never touched. A block whose first line says it
 * needs a network or a GUI is listed here and not run; one that says it runs
 * from a checkout runs in the checkout.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/root.ts";

const CAN_ENV = Deno.permissions.querySync({ name: "env" }).state === "granted";
const NOT_RUN = /^# \(needs (a network|a GUI)\b/;
const FROM_CHECKOUT = /^# \(from a checkout\)/;

/** The fenced `sh` blocks of `file`, in order. */
function shellBlocks(file: string): string[] {
  const text = Deno.readTextFileSync(join(ROOT, file));
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

Deno.test("agent chapter: the Chinese chapter's shell blocks are the English one's", () => {
  // The same commands; only a comment after one may be translated.
  const commands = (file: string) =>
    shellBlocks(file).map((b) => b.replace(/ +# [^(\n].*$/gm, ""));
  const en = commands("docs/en/03-agents-and-mcp.md");
  assert.ok(en.length >= 8, `${en.length} blocks`);
  assert.deepEqual(commands("docs/zh/03-agents-and-mcp.md"), en);
});

Deno.test({
  name:
    "agent chapter: every shell block runs in the order printed, in a scratch folder" +
    (CAN_RUN && CAN_ENV
      ? ""
      : " [ignored: runs a shell and guardlab: needs --allow-run --allow-env; run `deno task test`]"),
  ignore: !(CAN_RUN && CAN_ENV),
  async fn(t) {
    const blocks = shellBlocks("docs/en/03-agents-and-mcp.md");
    const scratch = await Deno.makeTempDir({ prefix: "gl-docs-agent-" });
    const ledger = `t-docs-agent-${crypto.randomUUID().slice(0, 6)}`;
    const bin = join(scratch, "bin");
    await Deno.mkdir(bin);
    const { command, args } = launchCommand(thisInstall());
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    await Deno.writeTextFile(
      join(bin, "guardlab"),
      `#!/bin/sh\nexec ${[command, ...args].map(quote).join(" ")} "$@"\n`,
      { mode: 0o755 },
    );
    const work = join(scratch, "work");
    await Deno.mkdir(work);
    const notRun: string[] = [];
    const lines = ["set -eu"];
    blocks.forEach((block, i) => {
      const first = block.split("\n")[0];
      if (NOT_RUN.test(first)) {
        notRun.push(`block ${i + 1}: ${first}`);
        return;
      }
      const cwd = FROM_CHECKOUT.test(first) ? ROOT : work;
      lines.push(
        `cd ${quote(cwd)}`,
        block.replaceAll("--ledger agent", `--ledger ${ledger}`),
        `echo "<<block ${i + 1} ran>>"`,
      );
    });
    try {
      const out = await new Deno.Command("bash", {
        args: ["-c", lines.join("\n")],
        cwd: work,
        env: {
          PATH: `${bin}:${dirname(Deno.execPath())}:${Deno.env.get("PATH")}`,
          NO_COLOR: "1",
        },
        stdin: "null",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      const ran = [...stdout.matchAll(/<<block (\d+) ran>>/g)].map((m) =>
        Number(m[1])
      );
      await t.step("each block ran and succeeded", () => {
        assert.equal(out.code, 0, `${stdout}\n${stderr}`);
        assert.equal(ran.length, blocks.length - notRun.length);
      });
      await t.step("the session it played is on the ledger's timeline", () => {
        assert.match(stdout, /\(session 1, call 1\)/);
        assert.match(stdout, /read: ledger JOB-001 {2}\(session 1, call 2\)/);
      });
      for (const skipped of notRun) {
        await t.step({ name: `not run: ${skipped}`, ignore: true, fn() {} });
      }
      assert.deepEqual(
        notRun.map((n) => n.replace(/^block \d+: /, "")),
        ["# (needs a network: npx fetches the Inspector)"],
      );
    } finally {
      await new Deno.Command(join(bin, "guardlab"), {
        args: ["reset", "--ledger", ledger],
        stdout: "null",
        stderr: "null",
      }).output();
      await Deno.remove(scratch, { recursive: true });
    }
  },
});
