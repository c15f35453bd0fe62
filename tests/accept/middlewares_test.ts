/**
 * `accept --http-oracle` on apps whose idempotency nobody here wrote:
 * express-idempotency 1.0.6 on Express 5.3.0, its default in-memory
 * adapter (docs/examples/idem/express_idempotency_app.ts), and
 * @node-idempotency/core 1.0.11 with its in-memory adapter 1.0.2 and a
 * short `cacheTTLMS` (docs/examples/idem/node_idempotency_app.ts). The matrix is
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
const NODE_IDEM_APP = join(ROOT, "docs/examples/idem/node_idempotency_app.ts");
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
    const r = await acceptOn(APP, dir.path, oracle, [], []);
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

/** The cases whose effect is the key's own orders, counted in the store. */
const BY_KEY = [
  "once",
  "lost-reply-retry",
  "concurrent-same",
  "replay-after-completion",
  "replay-error",
  "key-lifetime",
  "crash-after-commit",
];

/** Run accept --json on `app` (its store in `dir`) with `oracle`, `extra` flags and the app's own `appArgs`. */
function acceptOn(
  app: string,
  dir: string,
  oracle: string,
  extra: string[],
  appArgs: string[],
) {
  return runEngineer([
    "accept",
    "--json",
    "--http-oracle",
    oracle,
    ...extra,
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
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    app,
    `--store=${join(dir, "store.db")}`,
    ...appArgs,
  ]);
}

/** The orders oracle, stating the key lifetime `ms`, written in `dir`. */
function oracleStating(dir: string, ms: number, name: string): string {
  const oracle = JSON.parse(Deno.readTextFileSync(ORACLE));
  oracle.endpoints[0].key_lifetime_ms = ms;
  const path = join(dir, name);
  Deno.writeTextFileSync(path, JSON.stringify(oracle));
  return path;
}

Deno.test({
  name:
    "middlewares: @node-idempotency/core 1.0.11 (in-memory adapter 1.0.2, enforceIdempotency, our Express glue): the draft's matrix, ONCE-AFTER-CONFLICT, the error replayed; a key kept 1 s against a stated 4 s is KEY-FORGOTTEN, a second order in its store" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-idem-ni-");
    // Kept 10 s, stated 10 s: the whole matrix, key-lifetime retried at 5 s.
    const r = await acceptOn(
      NODE_IDEM_APP,
      dir.path,
      oracleStating(dir.path, 10_000, "kept.json"),
      [],
      ["--ttl-ms=10000"],
    );
    assert.equal(r.code, 5, r.err.join("\n"));
    const rows = JSON.parse(r.stdout).results as Row[];
    assert.deepEqual(
      rows.map((x) =>
        `${x.case}: ${x.verdict}${x.info.length ? ` +${x.info}` : ""}`
      ),
      [
        "once: ONCE",
        "rejected: NO-EFFECT",
        "lost-reply-retry: ONCE",
        "concurrent-distinct: ALL-KEPT",
        // The in-flight record is set before the handler runs: copies get
        // 409 (declared), the retry the stored 201.
        "concurrent-same: ONCE-AFTER-CONFLICT",
        "same-key-other-arguments: CONFLICT-REPORTED",
        "replay-after-completion: REPLAYED",
        // The 500 after the write is stored and sent again, not run again.
        "replay-error: ERROR-REPLAYED",
        "missing-key: KEY-REQUIRED",
        "key-lifetime: KEY-KEPT",
        "two-processes: ALL-KEPT",
        // The keys were in memory: after the restart, the retry is new.
        "crash-after-commit: DUPLICATED",
      ],
    );
    const byKey = rows.filter((x) => BY_KEY.includes(x.case));
    assert.equal(byKey.length, BY_KEY.length);
    for (const row of byKey) {
      assert.equal(storedUnder(dir.path, row.key), row.effect, row.case);
    }
    assert.deepEqual(judgeReport(r.stdout, "report.json").changed, []);

    // Kept 1 s, stated 4 s: the retry at 2 s finds the key gone.
    using short = privateDir("gl-idem-ni-ttl-");
    const f = await acceptOn(
      NODE_IDEM_APP,
      short.path,
      oracleStating(short.path, 4_000, "stated.json"),
      ["--cases", "key-lifetime"],
      ["--ttl-ms=1000"],
    );
    assert.equal(f.code, 5, f.err.join("\n"));
    const [row] = JSON.parse(f.stdout).results as (Row & {
      waited_ms: number;
      lifetime_ms: number;
    })[];
    assert.equal(row.verdict, "KEY-FORGOTTEN");
    assert.equal(row.lifetime_ms, 4000);
    assert.ok(
      row.waited_ms >= 2000 && row.waited_ms < 4000,
      `${row.waited_ms}`,
    );
    assert.equal(storedUnder(short.path, row.key), 2);
    assert.equal(row.effect, 2);
    assert.deepEqual(judgeReport(f.stdout, "report.json").changed, []);
  },
});
