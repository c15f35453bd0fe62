import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import config from "../../deno.json" with { type: "json" };
import importMap from "../../import_map.json" with { type: "json" };
import { SANDBOX_ROOT } from "../../lib/sandbox/sandbox.ts";
import {
  binaryOf,
  compileArgs,
  EDITIONS,
  TARGETS,
} from "../../scripts/compile.ts";
import { cli } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const read = (path: string) =>
  Deno.readTextFileSync(fileURLToPath(new URL(path, import.meta.url)));

Deno.test("project: the pinned Deno version is the one the README tells people to run", () => {
  const pinned = read("../../.ci/deno-version").trim();
  assert.match(pinned, /^\d+\.\d+\.\d+$/);
  const named = (name: string) =>
    [...read(`../../${name}`).matchAll(/deno@(\d+\.\d+\.\d+)/g)].map((m) =>
      m[1]
    );
  for (const readme of ["README.md", "README.zh.md"]) {
    assert.ok(named(readme).length >= 2, readme);
  }
  // The docs name it too (the plain forms of the two commands).
  for (
    const name of [
      "README.md",
      "README.zh.md",
      "docs/en/reference/development.md",
      "docs/zh/reference/development.md",
    ]
  ) {
    for (const version of named(name)) assert.equal(version, pinned, name);
  }
});

/** A task's command line, whether written as a string or as `{ command }`. */
function commandOf(task: string | { command?: string }): string | undefined {
  return typeof task === "string" ? task : task.command;
}

Deno.test("project: no task grants everything", () => {
  const text = read("../../deno.json");
  assert.doesNotMatch(text, /(^|[\s"])(-A|--allow-all)\b/);
  const tasks = config.tasks as Record<string, string | { command?: string }>;
  for (const [name, task] of Object.entries(tasks)) {
    const line = commandOf(task);
    // The test and bench suites and the gates grant what tests need; they
    // never run guardlab but through the grant (tests/_helpers/spawn.ts).
    if (
      line === undefined ||
      ["test", "bench", "bench:speed", "bench:bounds", "ok", "gates"].includes(
        name,
      )
    ) {
      continue;
    }
    if (name === "inspector") {
      // A script that starts guardlab for the MCP Inspector: with the grant.
      assert.equal(line, "bash scripts/inspector-check.sh");
      const script = read("../../scripts/inspector-check.sh");
      assert.doesNotMatch(script, /--allow-|(^|\s)-A\b/);
      assert.match(script, /"-P=guardlab"/);
      continue;
    }
    if (name === "example:agent") {
      // The example is an engineer's agent host (it starts processes and
      // reads the environment, as agents-core does); guardlab itself it
      // starts from the --print-config block, which carries the grant.
      assert.match(line, / examples\/scripted_agent\.ts$/);
      assert.doesNotMatch(line, /--allow-net\b/);
      const example = read("../../examples/scripted_agent.ts");
      assert.match(example, /hostConfig\(/);
      continue;
    }
    if (name === "example:guardrails") {
      // Another engineer's agent host: guardlab proxy it starts under the
      // engineer grant, guardlab mcp, show and ledger under the students',
      // each from the guardlab tasks' own command lines.
      assert.match(line, / examples\/guardrails_agent\.ts$/);
      assert.doesNotMatch(line, /--allow-net\b/);
      const example = read("../../examples/guardrails_agent.ts");
      assert.match(
        example,
        /launchCommand\(thisInstall\(\), "guardlab-engineer"\)/,
      );
      assert.match(example, /launchCommand\(thisInstall\(\)\)/);
      continue;
    }
    if (name === "example:host") {
      // guardlab accept host under the engineer grant, after the cache
      // check; the host it starts is an engineer's agent host of our own,
      // with the flags it needs (no -A).
      const [check, run] = line.split(" && ");
      assert.match(check, /-P=deno-dir-check scripts\/deno_dir_check\.js$/);
      const [guardlab, host] = run.split(" -- ");
      assert.match(
        guardlab,
        /--no-prompt -P=guardlab-engineer main\.ts accept host /,
      );
      assert.doesNotMatch(guardlab, /--allow-/);
      assert.match(
        host,
        /^deno run -q --lock=deno\.lock --frozen --allow-env --allow-read --allow-run --allow-net=127\.0\.0\.1 examples\/host_fixture\.ts resends$/,
      );
      continue;
    }
    if (name === "example:http") {
      // An engineer's script: guardlab accept it starts under the engineer
      // grant, from the guardlab-engineer task's own command line; the API
      // gets its flags from the script (the loopback network, its folder).
      assert.match(line, / examples\/http_accept\.ts$/);
      assert.doesNotMatch(line, /--allow-net\b/);
      const example = read("../../examples/http_accept.ts");
      assert.match(
        example,
        /launchCommand\(thisInstall\(\), "guardlab-engineer"\)/,
      );
      continue;
    }
    if (name === "compile:targets") {
      // It only starts `deno compile`, each with the grant (checked below).
      assert.match(line, / --allow-read --allow-run scripts\/compile\.ts$/);
      for (const target of TARGETS) {
        for (const edition of EDITIONS) {
          const args = compileArgs(target, edition).join(" ");
          assert.doesNotMatch(args, /--allow-/, target.name);
          // A compiled binary's V8 code cache is TMPDIR/deno-compile-NAME.cache
          // (Deno's cli/rt/run.rs and binary.rs): on a shared /tmp a classmate
          // can create that name first with code the binary would run, so
          // every binary is built without one.
          assert.match(args, / --no-code-cache /, target.name);
          assert.match(
            args,
            edition.name === "student"
              ? /--no-prompt -P=guardlab(-windows)? /
              : /--no-prompt -P=guardlab-engineer(-windows)? /,
          );
        }
      }
      continue;
    }
    assert.doesNotMatch(
      line,
      /--allow-(net|env|run|sys|ffi|import|read|write)\b/,
      name,
    );
    assert.match(
      line,
      /--no-prompt -P=guardlab(-windows|-engineer|-engineer-windows)?\b/,
      name,
    );
  }
});

Deno.test("project: the grant is exactly the temp folder, read and write", () => {
  // Written by hand: widening the grant must fail a test that needs no subprocess.
  assert.deepEqual(config.permissions, {
    // The environment ignored: a read answers "not set" (no variable is
    // seen), so agents-core runs in process for exercise 20.
    guardlab: {
      read: ["/tmp", "/private/tmp"],
      write: ["/tmp", "/private/tmp"],
      env: { ignore: true },
    },
    // Not the program's: the Deno-cache check the guardlab task runs
    // before main.ts (scripts/deno_dir_check.js) reads the folders of the
    // cache's path, asks `deno info --json` where it is, and its own uid.
    "deno-dir-check": {
      read: true,
      env: ["LANG", "LC_ALL", "LC_MESSAGES"],
      run: true,
      sys: ["uid"],
    },
    "guardlab-windows": {
      read: ["C:\\Windows\\Temp"],
      write: ["C:\\Windows\\Temp"],
      env: { ignore: true },
    },
    // The engineers' grant (accept and proxy start a server): the same
    // folder, run, the environment the child is handed (the MCP SDK's
    // default list), the variables named for --header-env (guardlab's
    // own, never the child's), every other variable ignored (reads as
    // unset: agents-core loads), and net for this machine's loopback only.
    "guardlab-engineer": {
      read: ["/tmp", "/private/tmp"],
      write: ["/tmp", "/private/tmp"],
      run: true,
      env: {
        allow: [
          "HOME",
          "LOGNAME",
          "PATH",
          "SHELL",
          "TERM",
          "USER",
          "GUARDLAB_HEADER_*",
        ],
        ignore: true,
      },
      net: ["127.0.0.1", "localhost", "[::1]"],
    },
    "guardlab-engineer-windows": {
      read: ["C:\\Windows\\Temp"],
      write: ["C:\\Windows\\Temp"],
      run: true,
      env: {
        allow: [
          "APPDATA",
          "HOMEDRIVE",
          "HOMEPATH",
          "LOCALAPPDATA",
          "PATH",
          "PROCESSOR_ARCHITECTURE",
          "SYSTEMDRIVE",
          "SYSTEMROOT",
          "TEMP",
          "USERNAME",
          "USERPROFILE",
          "PROGRAMFILES",
          "GUARDLAB_HEADER_*",
        ],
        ignore: true,
      },
      net: ["127.0.0.1", "localhost", "[::1]"],
    },
  });
  assert.equal(
    SANDBOX_ROOT,
    Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp",
  );
});

Deno.test("project: the import map pins every package exactly; the program imports only the MCP SDK, in one place, and agents-core, in another, so it starts offline", () => {
  // Not an "imports" field: deno task would install every package of it
  // before any task (see deno.json's "//importMap").
  assert.ok(!("imports" in config), "no imports field in deno.json");
  assert.equal(config.importMap, "./import_map.json");
  const entries = Object.entries(importMap.imports);
  assert.ok(entries.length >= 2);
  for (const [name, target] of entries) {
    // A folder entry (`pkg/` to `npm:/pkg@1.2.3/`) maps the package's subpaths.
    const folder = name.endsWith("/") ? "/" : "";
    assert.equal(
      target,
      `npm:${folder}${name.replace(/\/$/, "")}@${
        /@(\d+\.\d+\.\d+)\/?$/.exec(target)?.[1]
      }${folder}`,
      `${name} is an npm package at an exact version`,
    );
  }
  const files = [
    "../../main.ts",
    ...walk(fileURLToPath(new URL("../../lib/", import.meta.url))),
  ];
  assert.ok(files.length > 10);
  for (const file of files) {
    const text = file.startsWith("..")
      ? read(file)
      : Deno.readTextFileSync(file);
    const specifiers = [
      ...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms),
      ...text.matchAll(/\bimport\(\s*"([^"]+)"/g),
    ];
    // The one package: the MCP SDK, imported in lib/mcp/_sdk.ts and reached
    // only through the mcp command's dynamic import (tests/mcp/graph_test.ts
    // proves that from Deno's own module graph).
    // accept's example servers import the same SDK in lib/accept/_sdk.ts.
    // The agent host run in process (exercise 20), in
    // lib/accept/_agents_sdk.ts, reached through two dynamic imports.
    const allowed = file.endsWith("/lib/mcp/_sdk.ts") ||
        file.endsWith("/lib/accept/_sdk.ts")
      ? /^@modelcontextprotocol\/sdk\//
      : file.endsWith("/lib/accept/_agents_sdk.ts")
      ? /^@openai\/agents-core$/
      : /^(\.\.?\/|node:)/;
    for (const m of specifiers) {
      assert.match(m[1], allowed, `${file} imports ${m[1]}`);
    }
  }
});

function walk(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory
      ? walk(`${dir}${e.name}/`)
      : e.name.endsWith(".ts")
      ? [`${dir}${e.name}`]
      : []
  );
}

Deno.test("project: the release workflow builds every target of the one list, with the project's own task, and checks with its script", () => {
  const workflow = read("../../.github/workflows/release.yml");
  const entries = [
    ...workflow.matchAll(
      /- name: (\S+)\n\s+runner: \S+\n\s+binary: (\S+)/g,
    ),
  ].map(([, name, binary]) => ({ name, binary }));
  assert.deepEqual(
    entries.map((e) => e.name).sort(),
    TARGETS.map((t) => t.name).sort(),
    "one matrix entry per target of scripts/compile.ts",
  );
  for (const { name, binary } of entries) {
    assert.equal(binary, binaryOf(TARGETS.find((t) => t.name === name)!));
  }
  // The engineers' binary on each platform, built by the same task and
  // checked the same way.
  const engineers = [
    ...workflow.matchAll(
      /- name: (\S+)\n\s+runner: \S+\n\s+binary: \S+\n\s+engineer_binary: (\S+)/g,
    ),
  ];
  assert.equal(engineers.length, TARGETS.length, "an engineers' binary each");
  for (const [, name, binary] of engineers) {
    assert.equal(
      binary,
      binaryOf(TARGETS.find((t) => t.name === name)!, EDITIONS[1]),
    );
  }
  assert.match(
    workflow,
    /bash scripts\/check-binary\.sh --engineer "\$PWD\/\$\{\{ matrix\.engineer_binary \}\}"/,
  );
  assert.match(
    workflow,
    /run: deno task compile:targets \$\{\{ matrix\.name \}\}\n/,
  );
  assert.ok("compile:targets" in config.tasks);
  assert.match(
    workflow,
    /bash scripts\/check-binary\.sh "\$PWD\/\$\{\{ matrix\.binary \}\}"/,
  );
  assert.match(workflow, /\.ci\/deno-version/);
  assert.match(workflow, /sha256sum guardlab-\* > SHA256SUMS/);
});

Deno.test("project: check-binary.sh looks in the granted temp folder of each platform", () => {
  const script = read("../../scripts/check-binary.sh");
  const windows = config.permissions["guardlab-windows"].write[0];
  assert.ok(script.includes(`tmp='${windows}'; windows=1`), windows);
  assert.ok(
    script.includes(`tmp=${config.permissions.guardlab.write[0]}; windows=0`),
  );
});

Deno.test("project: .ci/run runs the README's two commands as printed, and the gates, all through npx", () => {
  const ci = read("../../.ci/run");
  const pinned = read("../../.ci/deno-version").trim();
  // The README prints each command once, in each language; .ci/run reads
  // those very lines out of README.md and runs them (checked below).
  for (const readme of ["README.md", "README.zh.md"]) {
    const printed = read(`../../${readme}`).split("\n")
      .filter((l) => /^ {4}npx .*task \w+$/.test(l));
    assert.deepEqual(printed, [
      `    npx -y deno@${pinned} task demo`,
      `    npx -y deno@${pinned} task test`,
    ], readme);
  }
  assert.ok(
    ci.includes(
      'sed -n "s/^    \\(npx -y deno@[0-9.]* task $1\\)\\$/\\1/p" README.md',
    ),
  );
  assert.deepEqual(ci.trimEnd().split("\n").slice(-3), [
    'as_printed "$demo"',
    'npx -y "deno@$want" task gates',
    'as_printed "$test"',
  ]);
  assert.ok(ci.includes('demo="$(printed demo)"\ntest="$(printed test)"\n'));
  // The newcomer's path: no Deno installed, none of the machine's used.
  assert.doesNotMatch(ci, /npm install|deno task ok|^deno /m);
  assert.match(ci, /mount --bind \/dev\/null/);
  // ok is the gates, then the suite: CI runs each once, a developer both.
  assert.equal(commandOf(config.tasks.ok), "deno task gates && deno task test");
  const gates = commandOf(config.tasks.gates)!.split(" && ");
  assert.deepEqual(gates.map((g) => g.split(" ").slice(0, 2).join(" ")), [
    "deno fmt",
    "deno lint",
    "deno check",
    "deno doc",
    "deno test",
    "npx -y",
    // Chapter 8's workflow for an engineer's repository, by the same validator.
    "npx -y",
    "deno test",
  ]);
  for (
    const gate of [
      "deno fmt --check",
      "deno lint",
      "deno check --lock=deno.lock --frozen --doc main.ts lib/ tests/ scripts/ examples/",
      "deno doc --lint lib/mod.ts",
      "deno test --lock=deno.lock --frozen --doc --allow-read --allow-write lib/ main.ts",
      "npx -y -p @action-validator/core@0.6.0 -p @action-validator/cli@0.6.0 action-validator .github/workflows/release.yml",
      "npx -y -p @action-validator/core@0.6.0 -p @action-validator/cli@0.6.0 action-validator docs/examples/accept-workflow.yml",
      "deno test --allow-read --allow-write",
    ]
  ) {
    assert.ok(gates.includes(gate), gate);
  }
});

Deno.test(
  `project: .ci/run refuses a README whose commands are not the pinned ones, before running anything${NEEDS_RUN}`,
  { ignore: !CAN_RUN },
  async (t) => {
    const pinned = read("../../.ci/deno-version").trim();
    const readme = read("../../README.md");
    const line = `    npx -y deno@${pinned} task test\n`;
    const demo = `    npx -y deno@${pinned} task demo\n`;
    const cases: [string, string][] = [
      [
        "another version",
        readme.replace(line, "    npx -y deno@2.0.0 task test\n"),
      ],
      ["printed twice", readme.replace(line, line + line)],
      ["not printed", readme.replace(line, "")],
      [
        "the demo's: another version",
        readme.replace(demo, "    npx -y deno@2.0.0 task demo\n"),
      ],
    ];
    for (const [name, text] of cases) {
      await t.step(name, async () => {
        assert.notEqual(text, readme);
        const dir = await Deno.makeTempDir({ prefix: "guardlab-ci-" });
        try {
          await Deno.mkdir(`${dir}/.ci`);
          await Deno.writeTextFile(`${dir}/.ci/run`, read("../../.ci/run"));
          await Deno.writeTextFile(`${dir}/.ci/deno-version`, pinned);
          await Deno.writeTextFile(`${dir}/README.md`, text);
          const r = await new Deno.Command("bash", {
            args: [`${dir}/.ci/run`],
            clearEnv: true,
            env: { PATH: "/usr/bin:/bin" },
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).output();
          const err = new TextDecoder().decode(r.stderr).trimEnd().split("\n");
          assert.equal(r.code, 1);
          assert.equal(new TextDecoder().decode(r.stdout), "");
          assert.equal(err.length, 1, err.join("\n"));
          assert.match(
            err[0],
            new RegExp(
              `^README\\.md must print its (demo|test) command once, as 'npx -y deno@${
                pinned.replaceAll(".", "\\.")
              } task \\1'`,
            ),
          );
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  },
);

Deno.test("project: the timeline chapter's Chinese screen is what guardlab prints", async () => {
  const readme = read("../../docs/en/01-timeline.md");
  const at = readme.indexOf("--cancel-at after_business --lang zh`");
  assert.ok(at > 0);
  const block = readme.slice(at).split("\n\n")[1].split("\n")
    .map((l) => l.slice(4));
  const r = await cli([
    "run",
    ...runFlags(),
    "--cancel-at",
    "after_business",
    "--lang",
    "zh",
  ]);
  assert.deepEqual(block, r.out.slice(0, block.length));
});

Deno.test("project: every task that runs main.ts checks the Deno cache first", () => {
  // Deno checks deno.lock when it downloads, not when it loads from the
  // cache: a cache others can write could hand main.ts's run any code.
  const check =
    "deno run -q --no-code-cache --no-prompt -P=deno-dir-check scripts/deno_dir_check.js && ";
  const tasks = config.tasks as Record<string, string | { command?: string }>;
  const runsMain = Object.entries(tasks).filter(([, task]) =>
    /\bdeno run [^&]* main\.ts\b/.test(commandOf(task) ?? "")
  );
  assert.deepEqual(runsMain.map(([name]) => name).sort(), [
    "demo",
    "example:host",
    "guardlab",
    "guardlab-engineer",
  ]);
  for (const [name, task] of runsMain) {
    assert.ok(commandOf(task)!.startsWith(check), name);
  }
});
