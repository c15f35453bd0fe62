/**
 * Each call loads only what it needs, read from Deno's own module graph
 * (`deno info --json`): `--version` loads a handful of small modules and no
 * Node built-in; any other call loads the command line without a command;
 * a command loads its own modules and no other command's. The time this
 * saves is measured by `scripts/speed_bench.ts` (`deno task bench:speed`).
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/_command_registry.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/root.ts";

interface InfoModule {
  specifier: string;
  dependencies?: {
    isDynamic?: boolean;
    code?: { specifier: string };
  }[];
}

/** The module graph of main.ts, dynamic imports included, as Deno builds it. */
async function graph(): Promise<Map<string, InfoModule>> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.lock", "--frozen", "main.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
  const info = JSON.parse(new TextDecoder().decode(r.stdout)) as {
    modules: InfoModule[];
  };
  return new Map(info.modules.map((m) => [m.specifier, m]));
}

/** What loading `start` evaluates: it and its static imports, as paths from the root. */
function loads(modules: Map<string, InfoModule>, start: string): string[] {
  const root = new URL(ROOT, "file://").href.replace(/\/?$/, "/");
  const seen = new Set<string>();
  const stack = [new URL(start, root).href];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const d of modules.get(id)?.dependencies ?? []) {
      if (!d.isDynamic && d.code) stack.push(d.code.specifier);
    }
  }
  return [...seen].map((id) => id.replace(root, "")).sort();
}

Deno.test({
  name: "lazy: each call loads only what it needs" + NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    const modules = await graph();
    await t.step("--version: main.ts and a few small modules", () => {
      assert.deepEqual(loads(modules, "main.ts"), [
        "deno.json",
        "lib/base/exit_hooks.ts",
        // The secrets every line passes (no import of its own).
        "lib/base/secrets.ts",
        "lib/base/terminal.ts",
        "lib/cli/exit.ts",
        "lib/cli/io.ts",
        "lib/sandbox/grant.ts",
        "main.ts",
      ]);
    });
    await t.step("any other call: the command line, no command", () => {
      const loaded = loads(modules, "lib/cli/mod.ts");
      const allowed =
        /^(deno\.json|node:(path|util)|lib\/base\/.*|lib\/sandbox\/.*|lib\/cli\/(?!commands\/).*)$/;
      assert.deepEqual(loaded.filter((m) => !allowed.test(m)), []);
      assert.ok(loaded.includes("lib/cli/_command_registry.ts"));
    });
    await t.step(
      "the labs' commands load no node: module but node:sqlite",
      () => {
        // The first one sets up Deno's Node compatibility layer, 3-6 ms of
        // every start (docs/en/reference/speed.md, "Where a start goes").
        for (
          const name of [
            "demo",
            "verify",
            "run",
            "ledger",
            "reconcile",
            "compensate",
            "reset",
            "script",
            "explain",
            "sandbox",
          ]
        ) {
          const node = loads(modules, `lib/cli/commands/${name}.ts`)
            .concat(loads(modules, "lib/cli/mod.ts"))
            .filter((m) => m.startsWith("node:") && m !== "node:sqlite");
          assert.deepEqual(node, [], name);
        }
      },
    );
    for (const { name } of COMMANDS) {
      await t.step(`${name}: its own modules, no other command's`, () => {
        const own = [...modules.keys()].find((id) =>
          new RegExp(`/lib/cli/commands/${name}(\\.ts|/mod\\.ts)$`).test(id)
        );
        assert.ok(own, `the module of ${name} is in the graph`);
        const loaded = loads(modules, new URL(own).pathname.slice(ROOT.length));
        const others = loaded.filter((m) =>
          m.startsWith("lib/cli/commands/") &&
          !m.startsWith(`lib/cli/commands/${name}`)
        );
        assert.deepEqual(others, []);
        assert.ok(!loaded.includes("lib/cli/_command_registry.ts"));
      });
    }
  },
});
