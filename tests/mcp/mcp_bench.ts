/**
 * The round trip of one `tools/call` to `guardlab mcp` (spawned under the
 * sandbox flags, spoken to over its pipes, one request at a time), for a new
 * draft and for a reuse, against the same attempt through `Lab.run` in
 * process on a ledger file in the same temp folder. Run with
 * `deno task bench` (needs --allow-run; ignored without it).
 */
import { join } from "node:path";
import { linesOf } from "../../lib/base/lines.ts";
import { Lab } from "../../lib/mod.ts";
import { startGuardlab } from "../_helpers/spawn.ts";

const CAN_RUN = Deno.permissions.querySync({ name: "run" }).state === "granted";
const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const jobOf = (n: number) => `JOB-${String(n % 1000).padStart(3, "0")}`;

/** One `guardlab mcp` on a scratch ledger, and a request/reply over its pipes. */
class Server {
  readonly #child = startGuardlab(["mcp"]);
  readonly #writer = this.#child.stdin.getWriter();
  readonly #waiting = new Map<number, (reply: unknown) => void>();
  #id = 0;

  constructor() {
    (async () => {
      for await (const line of linesOf(this.#child.stdout)) {
        if (!("text" in line)) continue;
        const reply = JSON.parse(line.text) as { id: number };
        this.#waiting.get(reply.id)?.(reply);
        this.#waiting.delete(reply.id);
      }
    })();
    this.#child.stderr.cancel();
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = ++this.#id;
    const replied = new Promise((resolve) => this.#waiting.set(id, resolve));
    this.#writer.write(
      new TextEncoder().encode(
        JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n",
      ),
    );
    return replied;
  }

  async start(): Promise<this> {
    await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    return this;
  }

  callTool(args: unknown): Promise<unknown> {
    return this.request("tools/call", {
      name: "create_draft",
      arguments: args,
    });
  }

  async stop(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

if (CAN_RUN) {
  const dir = Deno.makeTempDirSync({ prefix: "guardlab-mcp-bench-" });
  let labs = 0;
  const freshLab = () => Lab.open(join(dir, `lab-${labs++}.sqlite`));
  let fresh = await new Server().start();
  const reuse = await new Server().start();
  await reuse.callTool(ARGS);
  let next = 0;
  let inProcess = freshLab();
  let nextInProcess = 0;
  const reuseLab = freshLab();
  await reuseLab.run(ARGS);
  globalThis.addEventListener("unload", () => {
    Deno.removeSync(dir, { recursive: true });
  });

  Deno.bench("mcp tools/call create_draft: new draft", {
    group: "new draft",
    baseline: false,
  }, async (b) => {
    if (next === 1000) {
      // Keys are JOB-000..JOB-999: a new server and ledger, outside the timing.
      await fresh.stop();
      fresh = await new Server().start();
      next = 0;
    }
    const args = { ...ARGS, job: jobOf(next++) };
    b.start();
    await fresh.callTool(args);
    b.end();
  });

  Deno.bench("Lab.run in process: new draft", {
    group: "new draft",
    baseline: true,
  }, async (b) => {
    if (nextInProcess === 1000) {
      inProcess.close();
      inProcess = freshLab();
      nextInProcess = 0;
    }
    const args = { ...ARGS, job: jobOf(nextInProcess++) };
    b.start();
    await inProcess.run(args);
    b.end();
  });

  Deno.bench("mcp tools/call create_draft: reuse", {
    group: "reuse",
  }, async () => {
    await reuse.callTool(ARGS);
  });

  Deno.bench("Lab.run in process: reuse", {
    group: "reuse",
    baseline: true,
  }, async () => {
    await reuseLab.run(ARGS);
  });

  // What every MCP call carries: an AbortSignal, so the lab yields to the
  // event loop at each checkpoint (where a cancel can land).
  Deno.bench("Lab.run in process with an AbortSignal: reuse", {
    group: "reuse",
  }, async () => {
    await reuseLab.run(ARGS, {}, new AbortController().signal);
  });
} else {
  Deno.bench({
    name: "mcp round trip [ignored: spawning guardlab mcp needs --allow-run]",
    ignore: true,
    fn() {},
  });
}
