/**
 * `accept --http-oracle` on an app whose idempotency nobody here wrote:
 * express-idempotency 1.0.6 on Express 5.3.0, its default in-memory
 * adapter (docs/examples/idem/express_idempotency_app.ts). The matrix is
 * written by hand from what the package does (its source, and the
 * research run in the issue); each effect is counted in the app's own
 * SQLite file. Chapter 8 reports the same rows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { judgeReport } from "../../lib/accept/judge.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
  ROOT,
  runEngineer,
} from "../_helpers/accept_helpers.ts";

const APP = join(ROOT, "docs/examples/idem/express_idempotency_app.ts");
const ORACLE = join(ROOT, "docs/examples/idem/orders-oracle.json");

interface Row {
  case: string;
  verdict: string;
  info: string[];
  key: string;
  effect: number | null;
}

/** Orders under `key` in the app's own store. */
function storedUnder(dir: string, key: string): number {
  const db = new DatabaseSync(join(dir, "store.db"), { readOnly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM orders WHERE idem_key = ?")
      .get(key) as { n: number }).n;
  } finally {
    db.close();
  }
}

Deno.test({
  name:
    "middlewares: express-idempotency 1.0.6 (Express 5.3.0, in-memory adapter): copies at once duplicate or get 409 as the scheduler interleaves them, an error is not stored, a restart forgets every key; each effect as its store holds it" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-idem-ei-");
    const oracle = join(dir.path, "orders-oracle.json");
    Deno.copyFileSync(ORACLE, oracle);
    const r = await runEngineer([
      "accept",
      "--json",
      "--http-oracle",
      oracle,
      "--",
      Deno.execPath(),
      "run",
      "-q",
      `--lock=${join(ROOT, "deno.lock")}`,
      "--frozen",
      "--cached-only",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-sys",
      `--allow-read=${dir.path}`,
      `--allow-write=${dir.path}`,
      APP,
      `--store=${join(dir.path, "store.db")}`,
    ]);
    assert.equal(r.code, 5, r.err.join("\n"));
    const rows = JSON.parse(r.stdout).results as Row[];
    const lines = rows.map((x) =>
      `${x.case}: ${x.verdict}${x.info.length ? ` +${x.info}` : ""}`
    );
    // Its in-flight check and its record of the key are two awaits apart:
    // copies that enter it in the same turn each pass the check (several
    // effects), copies a turn apart get 409 and the retry the stored 201
    // (one). The scheduler picks; the store says which.
    const same = rows.find((x) => x.case === "concurrent-same")!;
    assert.ok(
      same.verdict === "DUPLICATED"
        ? same.effect! > 1
        : same.verdict === "ONCE-AFTER-CONFLICT" && same.effect === 1,
      `${same.verdict} ${same.effect}`,
    );
    assert.deepEqual(lines.filter((l) => !l.startsWith("concurrent-same")), [
      "once: ONCE",
      "rejected: NO-EFFECT",
      "lost-reply-retry: ONCE",
      "concurrent-distinct: ALL-KEPT",
      // Another body under a used key: 417, not the draft's 422.
      "same-key-other-arguments: CONFLICT-REPORTED +OTHER-STATUS",
      "replay-after-completion: REPLAYED",
      // A non-2xx response is not stored, the key is deleted: the retry
      // runs again, and names its own order.
      "replay-error: ERROR-NOT-STORED",
      // A request without a key passes through.
      "missing-key: KEY-NOT-REQUIRED",
      // It states no lifetime (the in-memory adapter keeps keys until the
      // process ends).
      "key-lifetime: NOT-RUN",
      "two-processes: ALL-KEPT",
      // The keys were in memory: after the restart, the retry is new.
      "crash-after-commit: DUPLICATED",
    ]);
    for (
      const row of rows.filter((x) =>
        [
          "once",
          "lost-reply-retry",
          "concurrent-same",
          "replay-after-completion",
          "replay-error",
          "crash-after-commit",
        ].includes(x.case)
      )
    ) {
      assert.equal(storedUnder(dir.path, row.key), row.effect, row.case);
    }
    assert.deepEqual(judgeReport(r.stdout, "report.json").changed, []);
  },
});
