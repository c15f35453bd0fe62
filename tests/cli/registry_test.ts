/**
 * One registry of commands: dispatch, the usage line, the overview and each
 * `--help` are all derived from it, and they agree.
 */
import assert from "node:assert/strict";
import {
  COMMANDS,
  findCommand,
  loadCommand,
} from "../../lib/cli/_command_registry.ts";
import { COMMON } from "../../lib/cli/command.ts";
import { LANGS } from "../../lib/base/i18n.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("registry: overview, usage and help agree with the registry", async (t) => {
  const names = COMMANDS.map((c) => c.name);
  const loaded = await Promise.all(COMMANDS.map(loadCommand));
  assert.equal(new Set(names).size, names.length, "names are unique");

  await t.step("the overview lists every command once, in order", async () => {
    for (const lang of LANGS) {
      const r = await cli(["--help", "--lang", lang]);
      const listed = r.out.filter((l) => /^ {2}[a-z]+ {2,}/.test(l))
        .map((l) => l.trim().split(/\s+/)[0]);
      assert.deepEqual(listed, names, lang);
    }
  });

  await t.step("the usage after an error lists every command", async () => {
    const r = await cli(["nonsense"]);
    assertUsageError(r);
    // The list may wrap within 80 columns; read it back as one line.
    const listed = r.err.slice(2).join(" ").replace(/\s+/g, " ");
    assert.ok(listed.includes(`commands: ${names.join(" ")}`), listed);
  });

  for (const c of loaded) {
    await t.step(
      `${c.name}: --help shows its flags and only its exit codes`,
      async () => {
        for (const lang of LANGS) {
          const r = await cli([c.name, "--help", "--lang", lang]);
          assert.equal(r.code, 0);
          assert.ok(r.out[0].endsWith(`guardlab ${c.usage.split("\n")[0]}`));
          const text = r.out.join("\n");
          for (const flag of Object.keys({ ...c.options, ...COMMON })) {
            assert.ok(text.includes(`--${flag}`), `${lang} ${flag}`);
          }
          const at = r.out.findIndex((l) => /^(Exit codes:|退出码：)$/.test(l));
          const codes = r.out.slice(at + 1).filter((l) => /^ {2}\d /.test(l))
            .map((l) => Number(l.trim()[0]));
          assert.deepEqual(codes, Object.keys(c.exits).map(Number), lang);
          for (const line of r.out) {
            assert.ok(displayWidth(line) <= 80, `${lang}: ${line}`);
          }
        }
        const same = await cli(["help", c.name]);
        assert.deepEqual(same.out, (await cli([c.name, "--help"])).out);
      },
    );
  }

  await t.step("every text has both languages", () => {
    const texts = [
      ...COMMANDS.map((c) => c.summary),
      ...loaded.flatMap((c) => [
        c.about,
        ...Object.values({ ...c.options, ...COMMON }).map((o) => o.help),
        ...Object.values(c.exits).filter((e) => e !== null),
      ]),
    ];
    for (const text of texts) {
      assert.ok(text!.en.trim() !== "" && text!.zh.trim() !== "", text!.en);
      assert.match(text!.zh, /[\u4e00-\u9fff]/, `not Chinese: ${text!.zh}`);
    }
  });
});

Deno.test("registry: mistakes a student makes get a pointed answer", async (t) => {
  const cases: [string[], RegExp][] = [
    [["demoo"], /unknown command "demoo" \(did you mean demo\?\)/],
    [
      ["run", "--leger", "x"],
      /unknown option "--leger" \(did you mean --ledger\?\)/,
    ],
    [["run", "--bad_output"], /did you mean --bad-output\?/],
    [
      ["ledger", "mine"],
      /unexpected argument "mine" \(did you mean --ledger mine\?\)/,
    ],
    [["run", "--job", "JOB-001", "--job", "JOB-002"], /--job is given twice/],
    [
      ["explain", "list", "--format", "svg"],
      /explain list has only a text format/,
    ],
    [["explain", "--format", "json"], /--format must be one of text, svg/],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" "), async () => {
      assertUsageError(await cli(args), message);
    });
  }
});

Deno.test("registry: the stored language applies until --lang overrides it", async () => {
  await using baseFolder = await tempDir("guardlab-lang-");
  const base = baseFolder.path;
  const say = (args: string[]) => cli(args, "", false, base);
  assert.deepEqual((await say(["config"])).out, [
    "lang en (not set)",
    "name (not set)",
    "course (not set: every student gets the fixed values)",
  ]);
  assert.match((await say(["--help"])).out[2], /^Commands:$/);
  assert.equal((await say(["config", "lang", "zh"])).code, 0);
  assert.deepEqual((await say(["config", "lang"])).out, ["lang zh"]);
  assert.match((await say(["--help"])).out[2], /^命令：$/);
  assert.match((await say(["verify", "--help"])).out[0], /^用法：guardlab/);
  assert.match(
    (await say(["verify", "--help", "--lang", "en"])).out[0],
    /^usage: guardlab/,
  );
  // A ledger reset leaves the setting alone.
  assert.equal(
    (await say([
      "run",
      "--ledger",
      "x",
      ...runFlags({ copies: 1 }),
    ])).code,
    0,
  );
  assert.equal((await say(["reset", "--ledger", "x"])).code, 0);
  assert.deepEqual((await say(["config", "lang"])).out, ["lang zh"]);
  // With Chinese stored, the errors speak Chinese too.
  assertUsageError(
    await say(["config", "lang", "fr"]),
    /lang 只能是 en、zh 之一/,
  );
  assertUsageError(await say(["config", "colour"]), /未知设置 "colour"/);
  assert.deepEqual((await say(["config"])).out, [
    "lang zh",
    // No space beside full-width punctuation: no parentheses, then.
    "name 未设置",
    "course 未设置：所有学生用同一组固定取值",
  ]);
});

Deno.test("registry: usage errors and refusals speak the chosen language", async (t) => {
  const cases: [string[], RegExp, number][] = [
    [["demoo"], /^guardlab: 未知命令“demoo”（是不是想输入 demo？）$/, 2],
    [
      ["run", "--job", "JOB-001", "--job", "JOB-002"],
      /^guardlab: --job 给了两次$/,
      2,
    ],
    [
      ["ledger", "--ledger", "nope"],
      /^guardlab: 拒绝：没有名为 nope 的账本/,
      4,
    ],
    [["run", "--ledger", "../x"], /^guardlab: 账本名 "..\/x" 不合法/, 2],
    [
      ["run", "--ledger-file", "/tmp/shared.sqlite", "--job", "JOB-001"],
      /^guardlab: 拒绝：\/tmp\/shared\.sqlite 直接放在共享目录 \/tmp 里/,
      4,
    ],
  ];
  for (const [args, line, code] of cases) {
    await t.step(args.join(" "), async () => {
      const r = await cli([...args, "--lang", "zh"]);
      assert.equal(r.code, code, r.err.join("\n"));
      assert.match(r.err[0], line);
      if (code === 2) assert.match(r.err[1], /^用法：guardlab /);
      const en = await cli(args);
      assert.doesNotMatch(en.err[0], /[\u4e00-\u9fff]/, "English by default");
    });
  }
});

Deno.test("registry: each entry loads its own command, named as listed", async () => {
  for (const listed of COMMANDS) {
    const cmd = await loadCommand(listed);
    assert.equal(cmd.name, listed.name);
    assert.equal(findCommand(listed.name), listed);
  }
  // Only what is listed is found: never an inherited property.
  for (const word of ["toString", "constructor", "__proto__", ""]) {
    assert.equal(findCommand(word), undefined, word);
  }
});

Deno.test("registry: an entry whose module does not export its command fails loudly", async () => {
  const misnamed = {
    name: "run",
    summary: COMMANDS[0].summary,
    load: () => import("../../lib/cli/commands/demo/mod.ts"),
  };
  await assert.rejects(
    () => loadCommand(misnamed),
    /the module of command run does not export it/,
  );
});
