/**
 * A raw JSON-RPC client for `guardlab mcp`, spoken to line by line over the
 * process's own pipes (no SDK: the order of messages is exactly the one a
 * test writes), collecting the replies by id and the server's log.
 */
import assert from "node:assert/strict";
import { linesOf } from "../../lib/base/lines.ts";
import { startGuardlab } from "./spawn.ts";
import { INITIALIZED, initializeParams } from "./mcp_wire.ts";

/** One reply, as the server wrote it. */
export type Reply = {
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/** A client that writes raw lines and collects the replies by id. */
export class RawClient implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  readonly replies: Reply[] = [];
  readonly stderr: string[] = [];
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiters: (() => void)[] = [];
  #done: Promise<unknown>;
  #nextId = 1;

  constructor(args: string[]) {
    this.child = startGuardlab(["mcp", ...args]);
    this.#writer = this.child.stdin.getWriter();
    const read = async (
      stream: ReadableStream<Uint8Array>,
      each: (text: string) => void,
    ) => {
      for await (const line of linesOf(stream, 64 << 20)) {
        if ("text" in line) each(line.text);
        for (const w of this.#waiters.splice(0)) w();
      }
    };
    this.#done = Promise.all([
      read(this.child.stdout, (t) => this.replies.push(JSON.parse(t))),
      read(this.child.stderr, (t) => this.stderr.push(t)),
    ]);
  }

  async write(text: string | Uint8Array): Promise<void> {
    await this.#writer.write(
      typeof text === "string" ? new TextEncoder().encode(text) : text,
    );
  }

  /** Send a request; returns its id. */
  async request(method: string, params: unknown = {}): Promise<number> {
    const id = this.#nextId++;
    await this.write(
      JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n",
    );
    return id;
  }

  async initialize(): Promise<void> {
    const id = await this.request(
      "initialize",
      initializeParams("hostile", "0"),
    );
    await this.reply(id);
    await this.write(JSON.stringify(INITIALIZED) + "\n");
  }

  /**
   * Wait until `test` holds of what was received: woken by each line read;
   * the two minutes are a guard against a hung server, never a verdict.
   */
  async until(test: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (!test()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async reply(id: number | string | null): Promise<Reply> {
    await this.until(
      () => this.replies.some((r) => r.id === id),
      `reply ${id}`,
    );
    return this.replies.find((r) => r.id === id)!;
  }

  /** Close stdin and wait for the process to end; returns its exit code. */
  async end(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const status = await this.child.status;
    await this.#done;
    return status.code;
  }

  async [Symbol.asyncDispose]() {
    try {
      this.child.kill();
    } catch {
      // Already ended.
    }
    await this.child.status;
    await this.#done.catch(() => {});
  }
}
