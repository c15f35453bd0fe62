/**
 * Shared pieces of the MCP tests: a ledger name of the test's own, the
 * `guardlab mcp` command line under the sandbox flags, the SDK's own client
 * spawning it, and a second connection to the ledger file.
 */
import { join } from "node:path";
import { mcpClientSdk } from "./deps.ts";
import { privateRootPath } from "../../lib/sandbox/sandbox.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { CAN_RUN, sandboxCommand } from "./spawn.ts";

import { ROOT } from "./root.ts";

/** The repository root (defined in `root.ts`). */
export { ROOT };

/** Whether this test process may read the environment (the SDK's client transport does). */
export const CAN_ENV =
  Deno.permissions.querySync({ name: "env" }).state === "granted";

/** Whether the SDK client tests can run here. */
export const CAN_SPAWN_CLIENT = CAN_RUN && CAN_ENV;

/** Appended to test names that need --allow-run and --allow-env. */
export const NEEDS_CLIENT = CAN_SPAWN_CLIENT
  ? ""
  : " [ignored: the MCP client spawns guardlab and reads the environment: needs --allow-run --allow-env; run `deno task test`]";

/** A fresh named ledger for one test; `reset` it (or remove its folder) afterwards. */
export function ledgerName(tag: string): string {
  return `t-mcp-${tag}-${crypto.randomUUID().slice(0, 6)}`;
}

/** The lab file of named ledger `name` in the real private folder. */
export function ledgerFile(name: string): string {
  return join(privateRootPath(), name, "lab.sqlite");
}

/** Remove named ledger `name`'s folder (the test's own). */
export async function removeLedger(name: string): Promise<void> {
  await Deno.remove(join(privateRootPath(), name), { recursive: true })
    .catch(() => {});
}

/** `deno run` with the `guardlab` task's flags, then `mcp` and `args`. */
export function mcpCommand(
  args: string[],
): { command: string; args: string[] } {
  const { program, args: flags } = sandboxCommand();
  return { command: program, args: [...flags, "mcp", ...args] };
}

/** The SDK's `Client`. */
export type McpClient = InstanceType<
  Awaited<ReturnType<typeof mcpClientSdk>>["Client"]
>;

/** The SDK's own client, connected over stdio to `guardlab mcp args`; `stderr` collects the server's log. */
export async function connect(args: string[]): Promise<
  & {
    client: McpClient;
    stderr: string[];
    waitFor(re: RegExp): Promise<string>;
  }
  & AsyncDisposable
> {
  const { Client, StdioClientTransport } = await mcpClientSdk();
  const { command, args: argv } = mcpCommand(args);
  const transport = new StdioClientTransport({
    command,
    args: argv,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve(line: string): void }[] = [];
  let partial = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    partial += typeof chunk === "string"
      ? chunk
      : new TextDecoder().decode(chunk);
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      stderr.push(line);
      for (const w of [...waiters]) {
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const client = new Client({ name: "guardlab-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr,
    waitFor(re) {
      const seen = stderr.find((l) => re.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ re, resolve }));
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** What the ledger file holds, read through a second, read-only connection. */
export function observed(name: string) {
  const ledger = Ledger.open(ledgerFile(name), { mode: "read" });
  try {
    return { drafts: ledger.drafts(), receipts: ledger.receipts() };
  } finally {
    ledger.close();
  }
}

/** A private folder under the temp folder for a faults file; `using` removes it. */
export function faultsFile(lines: unknown[]): { path: string } & Disposable {
  const dir = Deno.makeTempDirSync({ prefix: "gl-mcp-faults-" });
  Deno.chmodSync(dir, 0o700);
  const path = join(dir, "faults.jsonl");
  Deno.writeTextFileSync(
    path,
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  return {
    path,
    [Symbol.dispose]() {
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
