/**
 * The command line's own screens: --help and help per command, --version,
 * usage errors (one line and the usage, exit 2) and the sandbox report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import {
  assertUsageError,
  cli,
  exists,
  TEST_ROOT,
} from "../_helpers/helpers.ts";
import { COMMAND_NAMES } from "../_helpers/cli_fixtures.ts";

Deno.test("cli: help, version and usage errors", async (t) => {
  await t.step("--help and help per command", async () => {
    for (const args of [[], ["--help"], ["-h"], ["help"]]) {
      const r = await cli(args);
      assert.equal(r.code, 0);
      assert.match(r.out.join("\n"), /Commands:/);
    }
    for (const command of COMMAND_NAMES) {
      const a = await cli([command, "--help"]);
      const b = await cli(["help", command]);
      assert.equal(a.code, 0);
      assert.match(a.out[0], new RegExp(`^usage: guardlab ${command}`));
      assert.deepEqual(a.out, b.out);
    }
  });

  await t.step(
    "the usage after a usage error is the first synopsis whole, never cut mid-bracket",
    async () => {
      // Before: accept's first line alone, which ends in "|".
      assert.deepEqual((await cli(["accept", "--bogus"])).err.slice(1), [
        "usage: guardlab accept (--example NAME | --oracle FILE -- COMMAND ARGS… |",
        "                     --oracle FILE --url URL [--header NAME=VALUE…]",
        "                     [--header-env NAME=VARIABLE…] |",
        "                     --http-oracle FILE [--openapi FILE]",
        "                       (--url URL … | -- COMMAND ARGS…))",
        "                    [--tool NAME] [--cases LIST] [--copies N] [--timeline]",
        "                    [--timeout-ms N] [--cancel-after-ms N] [--otlp FILE]",
        "                    [--json | --format svg] [--junit FILE] [--baseline FILE]",
      ]);
      assert.deepEqual((await cli(["proxy", "--bogus"])).err.slice(1), [
        "usage: guardlab proxy [--faults FILE] [--record FILE] [--timeout-ms N]",
        "                    [--oracle FILE [--read-before-delivery]]",
        "                    [--traceparent VALUE] -- COMMAND ARGS…",
      ]);
      for (const command of COMMAND_NAMES) {
        const usage = (await cli([command, "--bogus"])).err.slice(1).join(" ");
        for (const [open, close] of [["(", ")"], ["[", "]"]]) {
          assert.equal(
            usage.split(open).length,
            usage.split(close).length,
            `${command}: ${usage}`,
          );
        }
      }
    },
  );

  await t.step(
    "accept --help says when crash-after-commit kills (its effect shows, or its answer is in) and the cancel's default when nothing was measured",
    async () => {
      const say = async (lang: string) =>
        (await cli(["accept", "--help", "--lang", lang])).out.join("")
          .replace(/\s+/g, "");
      const en = await say("en");
      assert.ok(
        en.includes(
          "crash-after-commit(theserverkilledonceitseffectshowsoritsanswerisin,",
        ),
        en,
      );
      assert.ok(en.includes("beforeit;20whennonewas)"), en);
      const zh = await say("zh");
      assert.ok(
        zh.includes("crash-after-commit（效果出现或应答到达后强制终止服务器"),
      );
      assert.ok(zh.includes("此前没有测到时为20）"), zh);
    },
  );

  await t.step("--version comes from deno.json", async () => {
    const r = await cli(["--version"]);
    assert.deepEqual(r.out, [
      `guardlab ${config.version} (deno ${Deno.version.deno}, ${Deno.build.target})`,
    ]);
  });

  const bad: [string[], RegExp][] = [
    [["nonsense"], /^guardlab: unknown command "nonsense"$/],
    [["demo", "--bogus"], /^guardlab: unknown option "--bogus"$/],
    [["demo", "nonsense"], /^guardlab: lab must be one of timing, policy/],
    [["--bogus"], /^guardlab: unknown option "--bogus"$/],
    [["help", "nonsense"], /^guardlab: unknown command/],
    [["run", "--cancel-at", "later"], /--cancel-at must be one of/],
    [["run", "--ledger", "x", "--ledger-file", "/tmp/x"], /not both/],
    [["run", "--args", "{nope"], /--args must be one JSON value/],
    [["run", "--args", "{}", "--job", "JOB-001"], /--args replaces/],
    [["run", "--json", "--format", "svg"], /contradict/],
    [["run", "--job"], /needs a value/],
    [["verify", "extra"], /unexpected argument "extra"/],
    [["ledger"], /--ledger NAME or --ledger-file PATH is required/],
    [["reset"], /--ledger NAME is required/],
    [["explain", "nope"], /topic must be one of/],
    [["explain", "--lang", "fr"], /--lang must be one of en, zh/],
    [
      ["nonsense\u001b[31m"],
      /^guardlab: unknown command "nonsense\\u001b\[31m"$/,
    ],
  ];
  for (const [args, message] of bad) {
    await t.step(`${JSON.stringify(args)} is a usage error`, async () => {
      assertUsageError(await cli(args), message);
    });
  }

  for (const name of ["../x", "A", "x/y", "a".repeat(40), "", "-x", "x.y"]) {
    await t.step(
      `bad ledger name ${JSON.stringify(name)} touches nothing`,
      async () => {
        // Where the name would lead if it were used as a path.
        const target = join(TEST_ROOT, name);
        const before = exists(target);
        for (
          const command of ["run", "ledger", "reconcile", "reset", "script"]
        ) {
          assertUsageError(
            await cli([command, `--ledger=${name}`]),
            /bad ledger name/,
          );
          assert.equal(exists(target), before, `${command} touched ${target}`);
        }
      },
    );
  }
});

Deno.test("cli: sandbox report", async () => {
  const r = await cli(["sandbox", "--json"]);
  const report = JSON.parse(r.out[0]);
  // This test process has broader read/write than guardlab's grant, so the
  // report must notice: a report that always says "narrow" could not fail.
  assert.equal(report.narrow, false);
  assert.equal(r.code, 1);
  // The text view says exactly what the JSON says, probe by probe.
  const text = await cli(["sandbox"]);
  report.probes.forEach((p: { what: string; state: string }, i: number) => {
    assert.equal(text.out[i].slice(0, 28).trim(), p.what);
    assert.equal(text.out[i].slice(29).split(/\s+/)[0], p.state);
  });
});
