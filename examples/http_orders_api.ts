/**
 * A small HTTP API on Express (npm, pinned in import_map.json) that
 * promises the `Idempotency-Key` contract, for `deno task example:http` and the accept tests: one write
 * endpoint, one read, its orders and keys in a SQLite file of its own (the
 * test counts there, the API's own store, through a second connection).
 *
 *   deno run … http_orders_api.ts MODE --store=FILE   (port: $PORT)
 *
 *   POST /orders  {"ref", "item", "qty"}  with Idempotency-Key
 *   GET  /orders?ref=REF                  → {"orders": […], "count": N}
 *
 * `item` missing is refused (400) before anything is written; `item:
 * "fail"` writes the order, then answers 500 (an error after the write,
 * whose body names the order). A first request for a key is held until a
 * copy of it arrives, or for at most HOLD_MS (so copies sent at once are in
 * flight together, an event rather than a race).
 *
 * Modes: `draft` follows draft-ietf-httpapi-idempotency-key-header (-06):
 * no key is 400; a key reused with another body (its fingerprint) is 422; a
 * copy while the first is in flight is 409; a completed key's response,
 * an error included, is stored and sent again, and nothing runs again.
 * The others break one rule each: `success-only` stores only 2xx responses
 * (an error's retry runs again), `reruns-error` stores the error but runs
 * the handler again before it sends the stored one, `no-conflict` keeps no
 * in-flight record (copies in flight together each run), `ignores-payload`
 * sends the stored response for a key reused with another body.
 *
 * With `--log=FILE`, each request is logged there as it arrives (one JSON
 * line: method, path, and its Authorization and X-Api-Key headers as they
 * came), so a test can see what reached the API (a fixture's log: it keeps
 * the values a real API would not).
 */
import express from "express";
import { DatabaseSync } from "node:sqlite";

const MODES = [
  "draft",
  "success-only",
  "reruns-error",
  "no-conflict",
  "ignores-payload",
];
const mode = Deno.args[0] ?? "draft";
if (!MODES.includes(mode)) {
  console.error(`http_orders_api: no mode ${mode} (modes: ${MODES})`);
  Deno.exit(2);
}
const storeFile = Deno.args.find((a) => a.startsWith("--store="))?.slice(8);
if (storeFile === undefined) {
  console.error("http_orders_api: --store=FILE is needed");
  Deno.exit(2);
}
/** The longest a first request waits for a copy of it. */
const HOLD_MS = 1000;

const db = new DatabaseSync(storeFile);
db.exec(`PRAGMA busy_timeout = 5000;
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY, ref TEXT NOT NULL, item TEXT NOT NULL,
  qty INTEGER NOT NULL, idem_key TEXT);
CREATE TABLE IF NOT EXISTS idem_keys (
  idem_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,
  state TEXT NOT NULL, status INTEGER, body TEXT);`);

interface KeyRow {
  fingerprint: string;
  state: "in-flight" | "done";
  status: number | null;
  body: string | null;
}

/** The first requests held, by key: each lets its request go on. */
const held = new Map<string, () => void>();

/** Hold the first request for `key` until a copy arrives, or HOLD_MS. */
function hold(key: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, HOLD_MS);
    held.set(key, () => {
      clearTimeout(timer);
      resolve();
    });
  }).finally(() => held.delete(key));
}

/** A copy of `key` arrived: the first one held goes on. */
function release(key: string): void {
  held.get(key)?.();
}

/** The body as one canonical string: the request's fingerprint. */
function fingerprint(body: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === "object"
      ? Object.fromEntries(
        Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map((
          [k, x],
        ) => [k, sort(x)]),
      )
      : v;
  return JSON.stringify(sort(body ?? null));
}

/** The order itself: validated, written, answered (an error after the write for item "fail"). */
function placeOrder(
  body: Record<string, unknown>,
  key: string,
): { status: number; body: unknown } {
  const { ref, item, qty } = body;
  if (typeof ref !== "string" || typeof item !== "string") {
    return { status: 400, body: { error: "ref and item are required" } };
  }
  const id = Number(
    db.prepare(
      "INSERT INTO orders (ref, item, qty, idem_key) VALUES (?, ?, ?, ?)",
    ).run(ref, item, Number(qty ?? 1), key).lastInsertRowid,
  );
  if (item === "fail") {
    // The write is done; what comes after it fails.
    return {
      status: 500,
      body: { error: "payment failed after the order was written", order: id },
    };
  }
  return { status: 201, body: { order: { id, ref, item, qty } } };
}

/** What the handlers use of Express's request (its package ships no types). */
interface Req {
  readonly method: string;
  readonly path: string;
  get(name: string): string | undefined;
  readonly body: Record<string, unknown>;
  readonly query: Record<string, unknown>;
}

/** What the handlers use of Express's response. */
interface Res {
  status(code: number): Res;
  type(type: string): Res;
  json(value: unknown): void;
  send(body: unknown): void;
}

const app = express();
const logFile = Deno.args.find((a) => a.startsWith("--log="))?.slice(6);
if (logFile !== undefined) {
  app.use((req: Req, _res: Res, next: () => void) => {
    const line = {
      method: req.method,
      path: req.path,
      authorization: req.get("Authorization") ?? null,
      x_api_key: req.get("X-Api-Key") ?? null,
    };
    Deno.writeTextFileSync(logFile, JSON.stringify(line) + "\n", {
      append: true,
    });
    next();
  });
}
app.use(express.json({ limit: "64kb" }));

app.post("/orders", async (req: Req, res: Res) => {
  const key = req.get("Idempotency-Key");
  if (key === undefined || key === "") {
    res.status(400).json({ error: "Idempotency-Key is required" });
    return;
  }
  const print = fingerprint(req.body);
  const known = db.prepare(
    "SELECT fingerprint, state, status, body FROM idem_keys WHERE idem_key = ?",
  ).get(key) as KeyRow | undefined;
  if (known !== undefined) {
    release(key);
    if (known.fingerprint !== print && mode !== "ignores-payload") {
      res.status(422).json({ error: "this key was used with another body" });
      return;
    }
    if (known.state === "in-flight") {
      res.status(409).json({ error: "a request with this key is in flight" });
      return;
    }
    if (mode === "reruns-error" && known.status! >= 400) {
      // The stored error is sent, but the handler runs again behind it.
      placeOrder(req.body, key);
    }
    res.status(known.status!).type("json").send(known.body);
    return;
  }
  if (mode !== "no-conflict") {
    db.prepare(
      "INSERT INTO idem_keys (idem_key, fingerprint, state) VALUES (?, ?, 'in-flight')",
    ).run(key, print);
  }
  release(key);
  await hold(key);
  // The write and the stored response in one transaction: a crash leaves
  // both or neither.
  db.exec("BEGIN IMMEDIATE");
  const answer = placeOrder(req.body, key);
  const stored = answer.status < 400 || mode !== "success-only";
  if (stored) {
    db.prepare(
      `INSERT INTO idem_keys (idem_key, fingerprint, state, status, body)
       VALUES (?, ?, 'done', ?, ?)
       ON CONFLICT (idem_key) DO UPDATE SET state = 'done',
         status = excluded.status, body = excluded.body`,
    ).run(key, print, answer.status, JSON.stringify(answer.body));
  } else {
    db.prepare("DELETE FROM idem_keys WHERE idem_key = ?").run(key);
  }
  db.exec("COMMIT");
  res.status(answer.status).json(answer.body);
});

app.get("/orders", (req: Req, res: Res) => {
  const ref = String(req.query.ref ?? "");
  const orders = db.prepare(
    "SELECT id, ref, item, qty FROM orders WHERE ref = ? ORDER BY id",
  ).all(ref);
  res.json({ orders, count: orders.length });
});

const port = Number(Deno.env.get("PORT"));
app.listen(port, "127.0.0.1");
