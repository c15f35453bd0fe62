/**
 * The global options `guardlab --help` lists (`--lang`, `--home`) work
 * before the command too, as `git -C` and `deno -q` users expect: each call
 * below prints exactly what the same call with the options after the
 * command prints.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { globalsAfterCommand } from "../../lib/cli/_global_options.ts";
import { assertUsageError, cli, TEST_BASE } from "../_helpers/helpers.ts";

Deno.test("global options: moved after the command's own words, before a --", () => {
  assert.deepEqual(globalsAfterCommand(["--home", "/tmp/x", "mcp"]), [
    "mcp",
    "--home",
    "/tmp/x",
  ]);
  assert.deepEqual(
    globalsAfterCommand(["--lang=zh", "--home", "/d", "script", "--", "f"]),
    ["script", "--lang=zh", "--home", "/d", "--", "f"],
  );
  assert.deepEqual(globalsAfterCommand(["demo", "--lang", "zh"]), [
    "demo",
    "--lang",
    "zh",
  ]);
  assert.deepEqual(globalsAfterCommand(["--lang", "zh"]), ["--lang", "zh"]);
});

Deno.test("global options: before the command, the same screen as after it", async (t) => {
  const home = Deno.makeTempDirSync({ dir: TEST_BASE, prefix: "home-" });
  Deno.chmodSync(home, 0o700);
  try {
    const pairs: [string[], string[]][] = [
      [["--lang", "zh", "exercise", "show", "3"], [
        "exercise",
        "show",
        "3",
        "--lang",
        "zh",
      ]],
      [["--lang=zh", "explain", "output_rejected"], [
        "explain",
        "output_rejected",
        "--lang=zh",
      ]],
      [["--home", home, "mcp", "--print-config"], [
        "mcp",
        "--print-config",
        "--home",
        home,
      ]],
      [["--home", home, "--lang", "zh", "exercise", "progress"], [
        "exercise",
        "progress",
        "--home",
        home,
        "--lang",
        "zh",
      ]],
      [["--lang", "zh", "help", "mcp"], ["help", "mcp", "--lang", "zh"]],
    ];
    for (const [before, after] of pairs) {
      await t.step(before.join(" "), async () => {
        const a = await cli(before);
        const b = await cli(after);
        assert.equal(a.code, 0, a.err.join("\n"));
        assert.deepEqual(a, b);
      });
    }
    await t.step("the home given first is the one used", async () => {
      const printed = JSON.parse(
        (await cli(["--home", home, "mcp", "--print-config"])).out.join("\n"),
      );
      const args: string[] = printed.mcpServers.guardlab.args;
      assert.deepEqual(args.slice(args.indexOf("mcp")), [
        "mcp",
        "--home",
        home,
      ]);
    });
    await t.step(
      "only global options: the overview, in that language",
      async () => {
        const r = await cli(["--lang", "zh"]);
        assert.equal(r.code, 0);
        assert.match(r.out[0], /^guardlab：/);
        assert.match((await cli(["--home", home])).out[0], /^guardlab: /);
      },
    );
    await t.step("a bad value or a repeat is still a usage error", async () => {
      assertUsageError(await cli(["--lang", "fr"]), /--lang must be one of/);
      assertUsageError(
        await cli(["--lang", "zh", "demo", "--lang", "en"]),
        /--lang/,
      );
      assertUsageError(
        await cli([
          "--home",
          join(home, "x"),
          "mcp",
          "--print-config",
          "--faults",
          "rel.jsonl",
        ]),
        /absolute path for --faults/,
      );
    });
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
