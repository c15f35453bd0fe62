/**
 * An app nobody here wrote the idempotency of: @node-idempotency/core
 * 1.0.11 with @node-idempotency/storage-adapter-memory 1.0.2 on Express
 * 5.3.0 (npm, exact versions in import_map.json). The package's Express
 * plugin is not on npm; the glue below is ours, as its repository's
 * plugin-express does it: 409 with `Retry-After: 1` for a request in
 * flight, 422 for another body under a used key, 400 for a missing key
 * (`enforceIdempotency: true`), the stored response (an error included)
 * sent again with `Idempotent-Replayed: true`. Its orders are in a SQLite
 * file (`--store=FILE`), which the test counts, the app's own store.
 *
 *   … node_idempotency_app.ts --store=FILE --ttl-ms=N   (port: $PORT)
 *
 *   POST /orders {"ref", "item", "qty"}   Idempotency-Key
 *   GET  /orders?ref=REF                  → {"orders": […], "count": N}
 *
 * `--ttl-ms` is the package's `cacheTTLMS`, how long it keeps a key (its
 * default: a day). `item: "fail"` writes the order, then answers 500
 * naming it. The first request for a key is held, before it writes, until
 * the package has refused a copy of it as in flight, or for at most a
 * second: copies sent at once meet it in flight (an event, not a race).
 */
import express from "express";
import { Idempotency, IdempotencyError } from "@node-idempotency/core";
import { MemoryStorageAdapter } from "@node-idempotency/storage-adapter-memory";
import { DatabaseSync } from "node:sqlite";

const arg = (name: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const storeFile = arg("store");
const ttl = Number(arg("ttl-ms"));
if (storeFile === undefined || !(ttl > 0)) {
  console.error("node_idempotency_app: --store=FILE and --ttl-ms=N are needed");
  Deno.exit(2);
}
const db = new DatabaseSync(storeFile);
db.exec(`PRAGMA busy_timeout = 5000;
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY, ref TEXT, item TEXT, qty INTEGER, idem_key TEXT)`);

const idem = new Idempotency(
  // The two packages pin two versions of their storage interface.
  new MemoryStorageAdapter() as unknown as ConstructorParameters<
    typeof Idempotency
  >[0],
  { enforceIdempotency: true, cacheTTLMS: ttl },
);
/** The package's error codes as the HTTP statuses its own plugins send. */
const STATUS: Record<string, number> = {
  IDEMPOTENCY_FINGERPRINT_MISSMATCH: 422,
  IDEMPOTENCY_KEY_LEN_EXEEDED: 400,
  IDEMPOTENCY_KEY_MISSING: 400,
  REQUEST_IN_PROGRESS: 409,
};

/** What the handlers use of Express's request (its package ships no types). */
interface Req {
  get(name: string): string | undefined;
  readonly headers: Record<string, unknown>;
  readonly body: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly url: string;
  readonly method: string;
}

/** What the handlers use of Express's response. */
interface Res {
  statusCode: number;
  status(code: number): Res;
  set(name: string, value: string): Res;
  json(value: unknown): void;
  send(body: unknown): unknown;
}

/** The first requests held, by key. */
const held = new Map<string, () => void>();

const app = express();
app.use(express.json());
// The glue: the package decides; the handler runs only for a new key.
app.post("/orders", async (req: Req, res: Res, next: () => void) => {
  const request = {
    headers: req.headers,
    body: req.body,
    path: req.url,
    method: req.method,
  };
  try {
    const prior = await idem.onRequest(request);
    if (prior === undefined) {
      const send = res.send.bind(res);
      res.send = (body: unknown) => {
        let value = body;
        try {
          value = JSON.parse(String(body));
        } catch {
          // Not JSON: stored as it was.
        }
        void idem.onResponse(request, {
          additional: { statusCode: res.statusCode },
          ...(res.statusCode < 400 ? { body: value } : { error: value }),
        });
        return send(body);
      };
      next();
      return;
    }
    res.status(Number(prior.additional?.statusCode ?? 200))
      .set("Idempotent-Replayed", "true")
      .json(prior.body ?? prior.error);
  } catch (e) {
    if (!(e instanceof IdempotencyError)) throw e;
    if (e.code === "REQUEST_IN_PROGRESS") {
      // A copy was refused while the first is held: the first goes on.
      held.get(req.get("idempotency-key") ?? "")?.();
      res.set("Retry-After", "1");
    }
    res.status(STATUS[e.code] ?? 500).json({ error: e.message, code: e.code });
  }
});
app.post("/orders", async (req: Req, res: Res) => {
  const key = req.get("idempotency-key") ?? null;
  if (key !== null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      held.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    held.delete(key);
  }
  const { ref, item, qty } = req.body;
  if (typeof ref !== "string" || typeof item !== "string") {
    res.status(400).json({ error: "ref and item are required" });
    return;
  }
  const id = Number(
    db.prepare(
      "INSERT INTO orders (ref, item, qty, idem_key) VALUES (?, ?, ?, ?)",
    ).run(ref, item, Number(qty ?? 1), key).lastInsertRowid,
  );
  if (item === "fail") {
    res.status(500).json({
      error: "payment failed after the order was written",
      order: id,
    });
    return;
  }
  res.status(201).json({ order: { id, ref, item, qty } });
});
app.get("/orders", (req: Req, res: Res) => {
  const orders = db.prepare(
    "SELECT id, ref, item, qty FROM orders WHERE ref = ? ORDER BY id",
  ).all(String(req.query.ref ?? ""));
  res.json({ orders, count: orders.length });
});
app.listen(Number(Deno.env.get("PORT")), "127.0.0.1");
