/**
 * `guardlab mcp --print-config`: the `mcpServers` block it prints starts a
 * working server from another folder, the way an agent host starts one (its
 * own working directory, the MCP SDK's default environment), global options
 * before the command included.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hostConfig, launchCommand } from "../../lib/mcp/host_config.ts";
import config from "../../deno.json" with { type: "json" };
import { mcpClientSdk } from "../_helpers/deps.ts";
import {
  CAN_SPAWN_CLIENT,
  ledgerName,
  NEEDS_CLIENT,
  ROOT,
} from "../_helpers/mcp_helpers.ts";
import { spawnGuardlab } from "../_helpers/spawn.ts";
import { Ledger } from "../../lib/timing/ledger.ts";

Deno.test("mcp --print-config: compiled, the binary itself; from a checkout, deno with the guardlab task's flags, every path absolute", () => {
  assert.deepEqual(
    hostConfig(["--ledger", "agent"], {
      standalone: true,
      execPath: "/opt/guardlab",
      root: "/ignored",
    }),
    {
      mcpServers: {
        guardlab: {
          command: "/opt/guardlab",
          args: ["mcp", "--ledger", "agent"],
        },
      },
    },
  );
  const { command, args } = launchCommand({
    standalone: false,
    execPath: "/usr/bin/deno",
    root: "/src/gl",
  });
  assert.equal(command, "/usr/bin/deno");
  assert.deepEqual(args, [
    "run",
    "-q",
    "--lock=/src/gl/deno.lock",
    "--frozen",
    "--no-prompt",
    "--config",
    "/src/gl/deno.json",
    "-P=guardlab",
    "/src/gl/main.ts",
  ]);
  // The same words as the guardlab task, in the same order: one place.
  const task = config.tasks.guardlab.split(/\s+/).slice(1);
  assert.deepEqual(
    args.filter((a) => !a.startsWith("/src/gl/deno.json") && a !== "--config")
      .map((a) => a.replace("/src/gl/", "")),
    task,
  );
});

Deno.test({
  name:
    "mcp --print-config: the block starts a working server from another folder" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "gl-host-home-" });
    await Deno.chmod(home, 0o700);
    const elsewhere = await Deno.makeTempDir({ prefix: "gl-host-cwd-" });
    const name = ledgerName("host");
    try {
      // Printed by the program itself, under the binary's grant, the home
      // given before the command.
      const printed = await spawnGuardlab([
        "--home",
        home,
        "mcp",
        "--ledger",
        name,
        "--print-config",
      ]);
      assert.equal(printed.code, 0, printed.err.join("\n"));
      const block = JSON.parse(printed.out.join("\n"));
      const server = block.mcpServers.guardlab as {
        command: string;
        args: string[];
      };
      assert.ok(server.command.startsWith("/"), server.command);
      for (const arg of server.args) {
        if (/\.(ts|json|lock)$/.test(arg) || arg.startsWith("--lock=")) {
          assert.match(arg, /(^|=)\//, `${arg} is absolute`);
        }
      }
      assert.ok(server.args.includes(join(ROOT, "main.ts")));
      // Started as a host starts it: its own folder, the SDK's default env.
      const { Client, StdioClientTransport } = await mcpClientSdk();
      const transport = new StdioClientTransport({
        command: server.command,
        args: server.args,
        cwd: elsewhere,
      });
      const client = new Client({ name: "host", version: "1" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.equal(tools[0].name, "create_draft");
        const r = await client.callTool({
          name: "create_draft",
          arguments: { job: "JOB-001", topic: "river", copies: 2 },
        });
        assert.equal(
          (r.structuredContent as { status: string }).status,
          "accepted",
        );
      } finally {
        await client.close();
      }
      // The ledger is in the home named before the command.
      const ledger = Ledger.open(
        join(home, name, "lab.sqlite"),
        { mode: "read", trusted: [home] },
      );
      try {
        assert.deepEqual(ledger.drafts().map((d) => d.job), ["JOB-001"]);
      } finally {
        ledger.close();
      }
    } finally {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(elsewhere, { recursive: true });
    }
  },
});
