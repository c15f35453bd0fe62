/**
 * `serveMcp` in process, under the plain `deno test --allow-read
 * --allow-write` (no subprocess, no environment): the SDK's server on
 * guardlab's transport, fed lines through a stream the test controls, the
 * ledger read through a second connection. Each wait is for an event (a
 * reply, a log line); the limit is a guard against a hung server, never a
 * verdict.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Lab } from "../../lib/timing/lab.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { FaultSchedule } from "../../lib/mcp/faults.ts";
import { INITIALIZED, initializeParams } from "./mcp_wire.ts";

/** One reply, as the server wrote it. */
export type Reply = {
  id: number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/**
 * A server in process: `send` a message, `reply(id)` waits for its answer.
 * Its ledger is a fresh one in a temp folder of its own, or the file `at`
 * names (a student's named ledger: `stop` then removes only what it made).
 */
export async function startServer(
  faults: FaultSchedule = new FaultSchedule(),
  client = { name: "inproc", version: "0" },
  at?: { dir: string; path: string },
) {
  const { serveMcp } = await import("../../lib/mcp/server.ts");
  const dir = at?.dir ??
    await Deno.makeTempDir({ prefix: "gl-mcp-inproc-" });
  if (at === undefined) await Deno.chmod(dir, 0o700);
  const path = at?.path ?? join(dir, "lab.sqlite");
  const lab = Lab.open(path);
  let input!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (input = c),
  });
  const replies: Reply[] = [];
  const log: string[] = [];
  let wake = () => {};
  let ended = false;
  const served = serveMcp({
    lab,
    ledgerPath: path,
    trusted: [dir],
    lang: "en",
    faults,
    switches: {},
    input: stream,
    write: (line) => {
      replies.push(JSON.parse(line));
      wake();
    },
    log: (line) => {
      log.push(line);
      wake();
    },
  });
  const until = async (test: () => boolean) => {
    const deadline = Date.now() + 60_000;
    while (!test()) {
      assert.ok(Date.now() < deadline, "timed out");
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
  };
  const sendRaw = (line: string) =>
    input.enqueue(new TextEncoder().encode(line + "\n"));
  const send = (message: unknown) => sendRaw(JSON.stringify(message));
  let id = 0;
  const request = (method: string, params: unknown = {}) => {
    send({ jsonrpc: "2.0", id: ++id, method, params });
    return id;
  };
  const reply = async (n: number) => {
    await until(() => replies.some((r) => r.id === n));
    return replies.find((r) => r.id === n)!;
  };
  const observed = () => {
    const l = Ledger.open(path, { mode: "read", trusted: [dir] });
    try {
      return { drafts: l.drafts(), receipts: l.receipts() };
    } finally {
      l.close();
    }
  };
  await reply(request("initialize", {
    ...initializeParams(),
    clientInfo: client,
  }));
  send(INITIALIZED);
  return {
    /** The ledger file and its folder. */
    path,
    dir,
    send,
    sendRaw,
    replies,
    request,
    reply,
    until,
    log,
    observed,
    /** Close the input and wait for the server to end (the folder stays). */
    async end() {
      if (!ended) {
        ended = true;
        input.close();
      }
      await served;
      lab.close();
    },
    async stop() {
      await this.end();
      if (at === undefined) await Deno.remove(dir, { recursive: true });
    },
  };
}

/** What one session sends after the held first call: each `create_draft` with its arguments. */
type Then = readonly Record<string, unknown>[];

/**
 * The remote timeout, played over MCP in process: `create_draft` is held
 * after its commit; the client gives up and cancels; it asks `ledger` by
 * key; it retries with the same key and arguments (or sends the calls
 * `then` lists instead, or nothing). Returns the server, ended, its ledger
 * still in place (`stop` removes it, unless it is the file `at` names).
 */
export async function remoteTimeoutSession(
  args: Record<string, unknown> = { job: "JOB-001", topic: "river", copies: 2 },
  options: { at?: { dir: string; path: string }; then?: Then } = {},
) {
  const s = await startServer(
    new FaultSchedule([{
      selector: { call: 1 },
      faults: { holdAt: "after_commit" },
      line: 1,
    }]),
    { name: "guardlab-test", version: "1.0.0" },
    options.at,
  );
  const first = s.request("tools/call", {
    name: "create_draft",
    arguments: args,
  });
  await s.until(() =>
    s.log.some((l) => /call 1: held at after_commit/.test(l))
  );
  s.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: first, reason: "timed out" },
  });
  await s.until(() =>
    s.log.some((l) => /call 1 create_draft: cancelled/.test(l))
  );
  await s.reply(
    s.request("tools/call", { name: "ledger", arguments: { job: args.job } }),
  );
  for (const next of options.then ?? [args]) {
    await s.reply(
      s.request("tools/call", { name: "create_draft", arguments: next }),
    );
  }
  await s.end();
  return s;
}

/**
 * Calls over MCP in process, none held: each `create_draft` with its
 * arguments, in order, on the ledger `at` names. Returns the server, ended.
 */
export async function plainSession(
  calls: Then,
  at: { dir: string; path: string },
) {
  const s = await startServer(
    new FaultSchedule(),
    { name: "guardlab-test", version: "1.0.0" },
    at,
  );
  for (const args of calls) {
    await s.reply(
      s.request("tools/call", { name: "create_draft", arguments: args }),
    );
  }
  await s.end();
  return s;
}
