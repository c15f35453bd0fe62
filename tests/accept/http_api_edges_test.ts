/**
 * `accept --http-oracle` at its edges: an API at a URL behind headers
 * (`--header`, `--header-env`), whose values reach the API and appear
 * nowhere guardlab writes; an API command that exits before its port
 * takes a connection, or never opens it (one line, its exit code, a
 * bounded wait, its process group gone); and a redirect, which guardlab
 * does not follow (the place it points to is never asked).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { serverChannel, StartFailed } from "../../lib/accept/start.ts";
import { httpApiChannel } from "../../lib/wire/http_api.ts";
import type { Message } from "../../lib/wire/channel.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
  processEnded,
  ROOT,
  runEngineer,
} from "../_helpers/accept_helpers.ts";

const FIXTURE = join(ROOT, "examples/http_orders_api.ts");
const ORACLE = join(ROOT, "examples/http-orders.json");

const CAN_NET =
  Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state ===
    "granted";
const NEEDS_NET = CAN_START && CAN_NET
  ? ""
  : " [ignored: starts an HTTP API on 127.0.0.1, which needs --allow-run, --allow-env and --allow-net=127.0.0.1; run `deno task test`]";

/** A secret no output of guardlab may hold. */
const TOKEN = "Bearer api-s3cret-5d1e";
/** Another, given on the command line itself. */
const API_KEY = "plain-k3y-9c4b";

/** A port of the loopback nothing listens on now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Wait until `port` takes a connection (or `child` ends, or 30 s pass): whether it did. */
async function takesConnection(
  port: number,
  child: Deno.ChildProcess,
): Promise<boolean> {
  let ended = false;
  child.status.then(() => (ended = true));
  const until = performance.now() + 30_000;
  while (!ended && performance.now() < until) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return false;
}

Deno.test({
  name:
    "http api edges: --url with --header and --header-env: both values reach the API (its own log), the order is counted in its store, and neither value is in guardlab's output, report or JUnit" +
    NEEDS_NET,
  ignore: !(CAN_START && CAN_NET),
  async fn() {
    using dir = privateDir("gl-http-url-");
    const port = freePort();
    const log = join(dir.path, "requests.jsonl");
    const api = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        `--lock=${join(ROOT, "deno.lock")}`,
        "--frozen",
        "--cached-only",
        "--allow-net=127.0.0.1",
        "--allow-env",
        `--allow-read=${dir.path}`,
        `--allow-write=${dir.path}`,
        FIXTURE,
        "draft",
        `--store=${join(dir.path, "store.db")}`,
        `--log=${log}`,
      ],
      env: { PORT: String(port) },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      assert.ok(await takesConnection(port, api), "the API took no connection");
      const oracle = join(dir.path, "http-orders.json");
      Deno.copyFileSync(ORACLE, oracle);
      const junit = join(dir.path, "r.xml");
      const r = await runEngineer(
        [
          "accept",
          "--json",
          "--http-oracle",
          oracle,
          "--cases",
          "once,rejected",
          "--junit",
          junit,
          "--url",
          `http://127.0.0.1:${port}`,
          "--header-env",
          "Authorization=GUARDLAB_HEADER_TOKEN",
          "--header",
          `X-Api-Key=${API_KEY}`,
        ],
        "",
        { GUARDLAB_HEADER_TOKEN: TOKEN },
      );
      assert.equal(r.code, 0, r.err.join("\n"));
      const rows = JSON.parse(r.stdout).results as {
        case: string;
        verdict: string;
        key: string;
      }[];
      assert.deepEqual(rows.map((x) => `${x.case}: ${x.verdict}`), [
        "once: ONCE",
        "rejected: NO-EFFECT",
      ]);
      // The API's own store: one order under the once case's key.
      const db = new DatabaseSync(join(dir.path, "store.db"), {
        readOnly: true,
      });
      try {
        const n = db.prepare(
          "SELECT COUNT(*) AS n FROM orders WHERE idem_key = ?",
        ).get(rows[0].key) as { n: number };
        assert.equal(n.n, 1);
      } finally {
        db.close();
      }
      // The API's own log: every request guardlab sent carried both.
      const seen = Deno.readTextFileSync(log).trim().split("\n").map((l) =>
        JSON.parse(l) as {
          method: string;
          authorization: string | null;
          x_api_key: string | null;
        }
      );
      assert.ok(seen.some((s) => s.method === "POST"));
      assert.ok(seen.some((s) => s.method === "GET"));
      for (const s of seen) {
        assert.equal(s.authorization, TOKEN);
        assert.equal(s.x_api_key, API_KEY);
      }
      // Nowhere guardlab writes.
      for (
        const [where, text] of [
          ["stdout", r.stdout],
          ["stderr", r.stderr],
          ["junit", Deno.readTextFileSync(junit)],
        ]
      ) {
        assert.equal(text.includes("s3cret"), false, where);
        assert.equal(text.includes(API_KEY), false, where);
      }
    } finally {
      api.kill("SIGKILL");
      await api.status;
    }
  },
});

Deno.test({
  name:
    "http api edges: an API command that exits before its port takes a connection is one line naming its last line, exit 1, no report" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-http-exits-");
    const oracle = join(dir.path, "http-orders.json");
    Deno.copyFileSync(ORACLE, oracle);
    const r = await runEngineer([
      "accept",
      "--json",
      "--http-oracle",
      oracle,
      "--",
      "sh",
      "-c",
      "echo 'no config: /etc/orders.conf' >&2; exit 3",
    ]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.deepEqual(r.err, [
      'guardlab: the HTTP API "sh" exited before its port took a connection; its last line: no config: /etc/orders.conf',
    ]);
  },
});

Deno.test({
  name:
    "http api edges: an API command that never opens its port is refused within the start bound, in one line (en, zh), and its process group is gone" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const bound = 1500;
    const began = performance.now();
    const failed = await serverChannel({
      kind: "command",
      command: "sh",
      // The shell and a child of its own; their pids are its last line.
      args: ["-c", 'sleep 300 & echo "$$ $!"; wait'],
      api: { keyHeader: "Idempotency-Key" },
    }, bound).then(() => null, (e) => e);
    const waited = performance.now() - began;
    assert.ok(failed instanceof StartFailed, String(failed));
    assert.ok(waited >= bound, `${waited} ms`);
    // The bound, the grace to end the group, and a loaded machine.
    assert.ok(waited < bound + 20_000, `${waited} ms`);
    const en = failed.text.en;
    const m = en.match(
      /^the HTTP API "sh" took no connection on the port guardlab gave it \(PORT, or \{port\} in its arguments\) within 1500 ms; its last line: (\d+) (\d+)$/,
    );
    assert.ok(m, en);
    assert.match(
      failed.text.zh,
      /^HTTP API "sh" 在 1500 ms 内没有在 guardlab 分配的端口/,
    );
    assert.ok(await processEnded(Number(m[1]), 10_000), "the shell lives on");
    assert.ok(await processEnded(Number(m[2]), 10_000), "its child lives on");
  },
});

/** A tool call as accept sends it to an HTTP API's channel. */
function postOrder(id: number): Message {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "create_order",
      arguments: { method: "POST", path: "/orders", body: { ref: "r1" } },
      idempotencyKey: "k-1",
    },
  } as Message;
}

Deno.test({
  name:
    "http api edges: a redirect is the answer, never followed: its status is kept, and the place it points to is never asked" +
    NEEDS_NET,
  ignore: !CAN_NET,
  async fn() {
    let elsewhere = 0;
    const target = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => {
        elsewhere++;
        return Response.json({ order: { id: 1 } }, { status: 201 });
      },
    );
    const targetPort = target.addr.port;
    const api = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req) =>
        new Response(null, {
          status: 307,
          headers: {
            location: `http://127.0.0.1:${targetPort}${
              new URL(req.url).pathname
            }`,
          },
        }),
    );
    const channel = httpApiChannel(
      new URL(`http://127.0.0.1:${api.addr.port}`),
      { keyHeader: "Idempotency-Key", name: "t", version: "t" },
    );
    try {
      const answer = await new Promise<Message>((resolve) => {
        channel.onmessage = resolve;
        channel.send(postOrder(1));
      });
      const result = (answer as { result: Record<string, unknown> }).result;
      assert.equal(result.isError, true);
      assert.deepEqual(result._meta, { "guardlab/http-status": 307 });
      assert.equal(elsewhere, 0);
    } finally {
      await channel.close();
      await api.shutdown();
      await target.shutdown();
    }
  },
});
