/**
 * The MCP SDK is in the binary's graph but out of every other command's
 * way: checked on Deno's own module graph (`deno info --json`), by running
 * the demo task's command on an empty cache with no registry, and by
 * showing that the build's lock flags refuse a stale lock
 * (`deno compile` cannot fetch its runtime here, so the same graph is built
 * with `deno cache` and the compile task's own lock flags).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/mcp_helpers.ts";
import { compileArgs, TARGETS } from "../../scripts/compile.ts";
import { tempDir } from "../_helpers/tmp.ts";

const SDK = "npm:@modelcontextprotocol/sdk@1.32.2";
const LOCK_FLAGS = "--lock=deno.lock --frozen";
const tasks = config.tasks as Record<string, unknown>;

Deno.test("mcp graph: every build and run task reads deno.lock frozen; the demo reads only the cache", () => {
  // The demo needs no package: it reads no lock (a frozen lock would install
  // every locked package first) and only the cache (so the mcp command's
  // dynamic import is not fetched while the graph is built).
  const demo = (tasks.demo as string).split(" && ").at(-1)!;
  assert.ok(demo.includes(" --no-lock --cached-only "), demo);
  const lines: [string, string][] = [
    ["guardlab", tasks.guardlab as string],
    ["compile", tasks.compile as string],
    // Every release target, built with the compile task's flags.
    ...TARGETS.map((t): [string, string] => [
      `compile:targets ${t.name}`,
      `deno ${compileArgs(t).join(" ")}`,
    ]),
  ];
  for (const [name, line] of lines) {
    assert.ok(line.includes(` ${LOCK_FLAGS} `), `${name}: ${line}`);
    assert.ok(!line.includes("--no-lock"), name);
  }
  // And deno task itself installs nothing before a task (denoland/deno#29816).
  assert.equal(config.lock, false);
  const lock = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.lock")));
  assert.ok(
    Object.keys(lock.specifiers).includes(SDK),
    "the SDK's exact version is locked",
  );
});

interface InfoModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    isDynamic?: boolean;
    code?: { specifier: string };
  }[];
}

async function deno(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
) {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: r.code, out: text(r.stdout), err: text(r.stderr) };
}

Deno.test({
  name:
    "mcp graph: the SDK is reached only through the mcp command's dynamic import" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const r = await deno([
      "info",
      "--json",
      "--lock=deno.lock",
      "--frozen",
      "main.ts",
    ]);
    assert.equal(r.code, 0, r.err);
    const info = JSON.parse(r.out) as {
      roots: string[];
      modules: InfoModule[];
    };
    const byId = new Map(info.modules.map((m) => [m.specifier, m]));
    const inLib = (id: string) => id.split("/lib/")[1];
    // The command line's own lazy loads: main.ts loading lib/cli/mod.ts and
    // the registry loading a command. Walk them and every static edge; the
    // only dynamic edge left unwalked must be the mcp command's.
    const commandLine = (from: string, to: string) =>
      from === info.roots[0] && inLib(to) === "cli/mod.ts" ||
      inLib(from) === "cli/_command_registry.ts" &&
        inLib(to)?.startsWith("cli/commands/");
    const seen = new Set<string>();
    const dynamic: [string, string][] = [];
    const stack = [info.roots[0]];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const d of byId.get(id)?.dependencies ?? []) {
        const target = d.code?.specifier;
        // A built-in is no module of the graph (the check's worker source
        // names node:worker_threads in a `require` the graph sees as dynamic).
        if (target === undefined || target.startsWith("node:")) continue;
        if (d.isDynamic && !commandLine(id, target)) {
          dynamic.push([id, target]);
        } else stack.push(target);
      }
    }
    const npm = [...seen].filter((s) => s.startsWith("npm:"));
    assert.deepEqual(
      npm,
      [],
      "no package in the graph of any command's own modules",
    );
    assert.ok(
      [...seen].some((s) => inLib(s) === "cli/commands/mcp/mod.ts"),
      "the walk reached the mcp command",
    );
    assert.deepEqual(
      dynamic.map(([from, to]) => [inLib(from), inLib(to)]).sort(),
      [
        ["accept/mod.ts", "accept/_host_example.ts"],
        ["accept/mod.ts", "accept/_matrix.ts"],
        ["accept/start.ts", "accept/_examples.ts"],
        ["cli/commands/accept/_run.ts", "accept/views/accept_otlp.ts"],
        ["cli/commands/accept/mod.ts", "cli/commands/accept/_host.ts"],
        ["cli/commands/accept/mod.ts", "cli/commands/accept/_judge.ts"],
        ["cli/commands/mcp/mod.ts", "mcp/server.ts"],
        ["cli/commands/proxy/_run.ts", "accept/proxy.ts"],
        ["cli/commands/proxy/_show.ts", "accept/views/proxy_otlp.ts"],
        ["exercises/_judge.ts", "exercises/_host_evidence.ts"],
      ],
      "ten dynamic imports beside the command line's: the mcp command " +
        "loads the server, accept the example servers, accept's door the " +
        "run of an example (for exercise 18) and of a host in process (with " +
        "agents-core, for exercise 20), accept host its run, accept " +
        "judge its judge, proxy the proxy, accept --otlp and proxy show " +
        "--otlp their trace, the exercise judge a host's evidence",
    );
    // Through it, the SDK (the binary bundles it).
    const sdk = byId.get(
      `${ROOT.replace(/\/$/, "")}/lib/mcp/_sdk.ts`.replace(/^/, "file://"),
    );
    assert.ok(
      sdk?.dependencies?.some((d) =>
        d.code?.specifier.replace(/^npm:\//, "npm:").startsWith(`${SDK}/`)
      ),
      "lib/mcp/_sdk.ts imports the pinned SDK",
    );
    const acceptSdk = byId.get(
      `file://${ROOT.replace(/\/$/, "")}/lib/accept/_sdk.ts`,
    );
    assert.ok(
      acceptSdk?.dependencies?.length &&
        acceptSdk.dependencies.every((d) =>
          d.code?.specifier.replace(/^npm:\//, "npm:").startsWith(`${SDK}/`)
        ),
      "lib/accept/_sdk.ts imports the same pinned SDK, nothing else",
    );
    assert.ok(
      !seen.has(`file://${ROOT.replace(/\/$/, "")}/lib/accept/_sdk.ts`),
      "and only through a dynamic import",
    );
  },
});

Deno.test({
  name:
    "mcp graph: the demo task's command downloads nothing on an empty cache with no registry" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    await using cacheFolder = await tempDir("gl-empty-deno-dir-");
    const cache = cacheFolder.path;
    const [program, ...args] = (tasks.demo as string).split(" && ").at(-1)!
      .split(/\s+/);
    assert.equal(program, "deno");
    // The registry is unreachable here, so a fetch fails quietly (a dynamic
    // import's package is optional to the graph) and leaves no package
    // behind: the debug log's "Download" lines show the attempt itself.
    const loud = args.slice(1).filter((a) => a !== "-q");
    const r = await deno(["run", "-L", "debug", ...loud], {
      DENO_DIR: cache,
      // Nothing answers here: a download would fail the run.
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      DENO_NO_UPDATE_CHECK: "1",
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /a second connection sees/);
    const npm = join(cache, "npm");
    const fetched = (() => {
      try {
        return [...Deno.readDirSync(npm)].map((e) => e.name);
      } catch {
        return [];
      }
    })();
    assert.deepEqual(fetched, [], "no npm package was fetched");
    const attempts = r.err.split("\n").filter((l) => l.includes("Download"));
    assert.deepEqual(attempts, [], "no download was even attempted");
  },
});

Deno.test({
  name:
    "mcp graph: `deno task demo` itself downloads nothing on an empty cache with no registry" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    // What the README tells a newcomer to type. deno task installs the
    // packages of deno.json's "imports" field, and of deno.lock unless
    // "lock" is false, before any task: neither may name a package.
    await using cacheFolder = await tempDir("gl-empty-deno-dir-");
    const cache = cacheFolder.path;
    const r = await deno(["task", "-L", "debug", "demo"], {
      DENO_DIR: cache,
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      DENO_NO_UPDATE_CHECK: "1",
    });
    assert.equal(r.code, 0, r.err.split("\n").slice(-20).join("\n"));
    assert.match(r.out, /a second connection sees/);
    const attempts = r.err.split("\n").filter((l) => l.includes("Download"));
    assert.deepEqual(attempts, [], "no download was even attempted");
  },
});

Deno.test({
  name: "mcp graph: the compile task's lock flags refuse a stale lock" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    const flags = (tasks.compile as string).split(/\s+/).filter((w) =>
      w.startsWith("--lock") || w === "--frozen"
    );
    assert.deepEqual(flags, ["--lock=deno.lock", "--frozen"]);
    await using dirFolder = await tempDir("gl-lock-check-");
    const dir = dirFolder.path;
    const lock = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.lock")));
    const cacheWith = async (edit: (l: typeof lock) => void) => {
      const copy = structuredClone(lock);
      edit(copy);
      const path = join(dir, "deno.lock");
      Deno.writeTextFileSync(path, JSON.stringify(copy, null, 2));
      return await deno(["cache", `--lock=${path}`, "--frozen", "main.ts"]);
    };
    await t.step("the real lock: the graph resolves", async () => {
      const r = await cacheWith(() => {});
      assert.equal(r.code, 0, r.err);
    });
    await t.step(
      "the SDK's entry removed: out of date, refused",
      async () => {
        const r = await cacheWith((l) => delete l.specifiers[SDK]);
        assert.notEqual(r.code, 0);
        assert.match(r.err, /lockfile is out of date/);
      },
    );
  },
});
