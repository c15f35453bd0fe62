/**
 * An app nobody here wrote the idempotency of: express-idempotency 1.0.6 on
 * Express 5.3.0 (npm, exact versions in import_map.json: `express` and
 * `express-idempotency`), its default in-memory adapter, the
 * handler checking `isHit` as the package's README asks. Its orders are in
 * a SQLite file (`--store=FILE`), which the test counts, the app's own
 * store. Chapter 8 reports what accept found, run against it.
 *
 *   POST /orders {"ref", "item", "qty"}   Idempotency-Key (the package's header)
 *   GET  /orders?ref=REF                  → {"orders": […], "count": N}
 *
 * `item: "fail"` writes the order, then answers 500 naming it. The first
 * request for a key is held until a copy of it arrives, or for at most a
 * second, before it writes (as the research's `delayMs` held it after):
 * copies sent at once are in flight together. Port: `$PORT`.
 */
import express from "express";
import ei from "express-idempotency";
import { DatabaseSync } from "node:sqlite";

const storeFile = Deno.args.find((a) => a.startsWith("--store="))?.slice(8);
if (storeFile === undefined) {
  console.error("express_idempotency_app: --store=FILE is needed");
  Deno.exit(2);
}
const db = new DatabaseSync(storeFile);
db.exec(`PRAGMA busy_timeout = 5000;
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY, ref TEXT, item TEXT, qty INTEGER, idem_key TEXT)`);

/** What the handlers use of Express's request (the package ships no types). */
interface Req {
  get(name: string): string | undefined;
  readonly body: Record<string, unknown>;
  readonly query: Record<string, unknown>;
}

/** What the handlers use of Express's response. */
interface Res {
  status(code: number): Res;
  json(value: unknown): void;
}

/** The first requests held, by key. */
const held = new Map<string, () => void>();

const app = express();
app.use(express.json());
// Before the middleware: a copy of a held request lets it go on.
app.use((req: Req, _res: Res, next: () => void) => {
  const key = req.get("idempotency-key");
  if (key !== undefined) held.get(key)?.();
  next();
});
app.post("/orders", ei.idempotency());
app.post("/orders", async (req: Req, res: Res) => {
  if (ei.getSharedIdempotencyService().isHit(req)) return;
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
// The package passes its errors (409, 417) on: answered with their status.
app.use(
  (
    err: Error,
    _req: Req,
    res: Res & { statusCode: number },
    _next: unknown,
  ) => {
    res.status(res.statusCode >= 400 ? res.statusCode : 500).json({
      error: String(err.message),
    });
  },
);
app.listen(Number(Deno.env.get("PORT")), "127.0.0.1");
