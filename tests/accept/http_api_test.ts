/**
 * `accept --http-oracle` against an HTTP API that promises the
 * `Idempotency-Key` contract: the Express app examples/http_orders_api.ts,
 * started by guardlab on a loopback port, in the mode that follows the
 * draft and in each mode that breaks one of its rules. Each matrix is
 * written by hand from what the mode does, and each effect is checked in
 * the fixture's own store (its SQLite file, through a second connection).
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

const FIXTURE = join(ROOT, "examples/http_orders_api.ts");
const ORACLE = join(ROOT, "examples/http-orders.json");

interface Row {
  case: string;
  verdict: string;
  info: string[];
  key: string;
  effect: number | null;
  class: string;
  conflicts?: number;
  replayed?: boolean;
}

/** The fixture in `mode` as guardlab starts it, its store in `dir`. */
function fixture(mode: string, dir: string): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    `--lock=${join(ROOT, "deno.lock")}`,
    "--frozen",
    "--cached-only",
    "--allow-net=127.0.0.1",
    "--allow-env",
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    FIXTURE,
    mode,
    `--store=${join(dir, "store.db")}`,
  ];
}

/** How many orders the fixture's own store holds under `key`. */
function storedUnder(dir: string, key: string): number {
  const db = new DatabaseSync(join(dir, "store.db"), { readOnly: true });
  try {
    const row = db.prepare(
      "SELECT COUNT(*) AS n FROM orders WHERE idem_key = ?",
    ).get(key) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** Run accept --json on the fixture in `mode` with `extra` flags; the code, the rows, the report's text. */
async function acceptApi(
  mode: string,
  dir: string,
  extra: string[] = [],
): Promise<{ code: number; rows: Row[]; stdout: string; err: string[] }> {
  const oracle = join(dir, "http-orders.json");
  Deno.copyFileSync(ORACLE, oracle);
  const r = await runEngineer([
    "accept",
    "--json",
    "--http-oracle",
    oracle,
    ...extra,
    "--",
    ...fixture(mode, dir),
  ]);
  const rows = r.stdout === "" ? [] : JSON.parse(r.stdout).results as Row[];
  return { code: r.code, rows, stdout: r.stdout, err: r.err };
}

const line = (r: Row) =>
  `${r.case}: ${r.verdict}${r.info.length ? ` +${r.info.join(",")}` : ""}`;

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

Deno.test({
  name:
    "http api: the fixture that follows the draft gets no unsafe verdict: every case, exit 0, each effect as its store holds it" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-http-draft-");
    const r = await acceptApi("draft", dir.path, [
      "--junit",
      join(dir.path, "junit.xml"),
    ]);
    assert.equal(r.code, 0, r.err.join("\n"));
    const lines = r.rows.map(line);
    // The copies in flight together get 409 (declared), the retry the
    // stored 201: ONCE-AFTER-CONFLICT, the one verdict the hold allows.
    assert.deepEqual(lines, [
      "once: ONCE",
      "rejected: NO-EFFECT",
      "lost-reply-retry: ONCE",
      "concurrent-distinct: ALL-KEPT",
      "concurrent-same: ONCE-AFTER-CONFLICT",
      "same-key-other-arguments: CONFLICT-REPORTED",
      "replay-after-completion: REPLAYED",
      "replay-error: ERROR-REPLAYED",
      "missing-key: KEY-REQUIRED",
      "key-lifetime: KEY-KEPT",
      "two-processes: ALL-KEPT",
      "crash-after-commit: ONCE",
    ]);
    for (const row of r.rows.filter((x) => BY_KEY.includes(x.case))) {
      assert.equal(storedUnder(dir.path, row.key), 1, row.case);
      assert.equal(row.effect, 1, row.case);
    }
    const same = r.rows.find((x) => x.case === "concurrent-same")!;
    assert.ok((same.conflicts ?? 0) >= 1);
    // Judged again from the histories alone, offline: the same verdicts.
    assert.deepEqual(judgeReport(r.stdout, "report.json").changed, []);
    // JUnit: one testcase per case, none failing.
    const xml = Deno.readTextFileSync(join(dir.path, "junit.xml"));
    assert.equal(xml.match(/<testcase /g)?.length, 12);
    assert.equal(xml.includes("<failure"), false);
  },
});

/** Each rule-breaking mode, the cases that show it, and the rows by hand. */
const BREAKERS: [string, string[], string[]][] = [
  // The error after the write is not stored: the retry runs as a new call,
  // a second order, another body (its own order id).
  ["success-only", ["replay-after-completion", "replay-error"], [
    "replay-after-completion: REPLAYED",
    "replay-error: ERROR-NOT-STORED",
  ]],
  // The stored error comes back, but the handler ran again behind it.
  ["reruns-error", ["replay-error"], ["replay-error: ERROR-RE-RUN"]],
  // No in-flight record: every copy in flight together writes.
  ["no-conflict", ["concurrent-same", "replay-after-completion"], [
    "concurrent-same: DUPLICATED",
    "replay-after-completion: REPLAYED",
  ]],
  // The other body under a used key gets the stored 201.
  ["ignores-payload", ["same-key-other-arguments"], [
    "same-key-other-arguments: SILENT-CONFLICT",
  ]],
];

for (const [mode, cases, expected] of BREAKERS) {
  Deno.test({
    name:
      `http api: ${mode} breaks one rule of the draft and gets that rule's verdict, checked in its store` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      using dir = privateDir(`gl-http-${mode}-`);
      const r = await acceptApi(mode, dir.path, ["--cases", cases.join(",")]);
      assert.deepEqual(r.rows.map(line), expected);
      const unsafe = r.rows.filter((x) => x.class === "unsafe");
      assert.equal(r.code, unsafe.length > 0 ? 5 : 0, r.err.join("\n"));
      for (const row of r.rows) {
        if (BY_KEY.includes(row.case)) {
          assert.equal(storedUnder(dir.path, row.key), row.effect, row.case);
        }
      }
      assert.deepEqual(judgeReport(r.stdout, "report.json").changed, []);
    },
  });
}

Deno.test({
  name:
    "http api: a baseline of the same API and oracle excuses the failing verdict it holds (exit 0); --cases refuses a case of MCP alone" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-http-baseline-");
    const first = await acceptApi("no-conflict", dir.path, [
      "--cases",
      "concurrent-same",
    ]);
    assert.equal(first.code, 5, first.err.join("\n"));
    const saved = join(dir.path, "baseline.json");
    Deno.writeTextFileSync(saved, first.stdout);
    const again = await acceptApi("no-conflict", dir.path, [
      "--cases",
      "concurrent-same",
      "--baseline",
      saved,
    ]);
    assert.equal(again.code, 0, again.err.join("\n"));
    const mcpOnly = await acceptApi("draft", dir.path, [
      "--cases",
      "annotations",
    ]);
    assert.equal(mcpOnly.code, 2);
    assert.match(mcpOnly.err[0], /annotations is a case of MCP alone/);
  },
});
