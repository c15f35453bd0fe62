import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import config from "../../deno.json" with { type: "json" };
import { SANDBOX_ROOT } from "../../lib/sandbox/sandbox.ts";
import { cli } from "../_helpers/helpers.ts";

const read = (path: string) =>
  Deno.readTextFileSync(fileURLToPath(new URL(path, import.meta.url)));

Deno.test("project: the pinned Deno version is the one the README tells people to run", () => {
  const pinned = read("../../.ci/deno-version").trim();
  assert.match(pinned, /^\d+\.\d+\.\d+$/);
  const readme = read("../../README.md");
  const named = [...readme.matchAll(/deno@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  assert.ok(named.length >= 2);
  for (const version of named) assert.equal(version, pinned);
});

Deno.test("project: no task grants everything", () => {
  const text = read("../../deno.json");
  assert.doesNotMatch(text, /(^|[\s"])(-A|--allow-all)\b/);
  for (const [name, task] of Object.entries(config.tasks)) {
    if (typeof task !== "string" || name === "test" || name === "bench") {
      continue;
    }
    if (name === "inspector") {
      // A script that starts guardlab for the MCP Inspector: with the grant.
      assert.equal(task, "bash scripts/inspector-check.sh");
      const script = read("../../scripts/inspector-check.sh");
      assert.doesNotMatch(script, /--allow-|(^|\s)-A\b/);
      assert.match(script, /"-P=guardlab"/);
      continue;
    }
    assert.doesNotMatch(
      task,
      /--allow-(net|env|run|sys|ffi|import|read|write)\b/,
      name,
    );
    assert.match(
      task,
      /--no-prompt -P=guardlab(-windows|-engineer|-engineer-windows)?\b/,
      name,
    );
  }
});

Deno.test("project: the grant is exactly the temp folder, read and write", () => {
  // Written by hand: widening the grant must fail a test that needs no subprocess.
  assert.deepEqual(config.permissions, {
    guardlab: {
      read: ["/tmp", "/private/tmp"],
      write: ["/tmp", "/private/tmp"],
    },
    "guardlab-windows": {
      read: ["C:\\Windows\\Temp"],
      write: ["C:\\Windows\\Temp"],
    },
    // The engineers' grant (accept and proxy start a server): the same
    // folder, run, the environment the child is handed (the MCP SDK's
    // default list), and net for this machine's loopback only.
    "guardlab-engineer": {
      read: ["/tmp", "/private/tmp"],
      write: ["/tmp", "/private/tmp"],
      run: true,
      env: ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"],
      net: ["127.0.0.1", "localhost", "[::1]"],
    },
    "guardlab-engineer-windows": {
      read: ["C:\\Windows\\Temp"],
      write: ["C:\\Windows\\Temp"],
      run: true,
      env: [
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
      ],
      net: ["127.0.0.1", "localhost", "[::1]"],
    },
  });
  assert.equal(
    SANDBOX_ROOT,
    Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp",
  );
});

Deno.test("project: the program imports no package but the MCP SDK in one place, so it starts offline", () => {
  assert.ok(!("imports" in config), "deno.json has no import map");
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
    // The one package: the MCP SDK, pinned in lib/mcp/sdk.ts and reached
    // only through the mcp command's dynamic import (mcp_graph_test.ts
    // proves that from Deno's own module graph).
    // accept's example servers pin the same SDK release in lib/accept/sdk.ts.
    const allowed = file.endsWith("/lib/mcp/sdk.ts") ||
        file.endsWith("/lib/accept/sdk.ts")
      ? /^npm:@modelcontextprotocol\/sdk@1\.32\.2\//
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

Deno.test("project: the release workflow builds with the project's own tasks and checks with its script", () => {
  const workflow = read("../../.github/workflows/release.yml");
  const tasks = config.tasks as Record<string, string | object>;
  const entries = [
    ...workflow.matchAll(/task: (\S+)\n\s+binary: (\S+)/g),
  ];
  assert.equal(entries.length, 5, "five platforms");
  for (const [, task, binary] of entries) {
    const line = tasks[task];
    assert.equal(typeof line, "string", task);
    assert.ok((line as string).includes(`--output ${binary} `), task);
    assert.match(line as string, /--no-prompt -P=guardlab(-windows)?\b/);
  }
  // The engineers' binary on each platform, built and checked the same way.
  const engineers = [
    ...workflow.matchAll(/engineer_task: (\S+)\n\s+engineer_binary: (\S+)/g),
  ];
  assert.equal(engineers.length, 5, "five platforms, engineers' binary");
  for (const [, task, binary] of engineers) {
    const line = tasks[task];
    assert.equal(typeof line, "string", task);
    assert.ok((line as string).includes(`--output ${binary} `), task);
    assert.match(
      line as string,
      /--no-prompt -P=guardlab-engineer(-windows)?\b/,
    );
  }
  assert.match(
    workflow,
    /bash scripts\/check-binary\.sh --engineer "\$PWD\/\$\{\{ matrix\.engineer_binary \}\}"/,
  );
  assert.match(
    workflow,
    /bash scripts\/check-binary\.sh "\$PWD\/\$\{\{ matrix\.binary \}\}"/,
  );
  assert.match(workflow, /\.ci\/deno-version/);
  assert.match(workflow, /sha256sum guardlab-\* > SHA256SUMS/);
});

Deno.test("project: the README's Chinese screen is what guardlab prints", async () => {
  const readme = read("../../README.md");
  const at = readme.indexOf("--cancel-at after_business --lang zh`");
  assert.ok(at > 0);
  const block = readme.slice(at).split("\n\n")[1].split("\n")
    .map((l) => l.slice(4));
  const r = await cli([
    "run",
    "--job",
    "JOB-001",
    "--topic",
    "river",
    "--copies",
    "2",
    "--cancel-at",
    "after_business",
    "--lang",
    "zh",
  ]);
  assert.deepEqual(block, r.out.slice(0, block.length));
});
