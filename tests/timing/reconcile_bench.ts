/**
 * Every view of a large ledger grows linearly with it: the same views of a
 * ledger of 10,000 drafts and of 100,000 drafts (with one receipt each, a
 * tenth of them never accepted, another tenth voided by a compensation
 * with its own receipt), measured in one run, so the ratio of the
 * two says how the work grows (10 for linear, 100 for quadratic).
 * `pendingKeys` alone, then each view through the command line in process
 * (its output kept in memory). Run with `deno task bench`.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { pendingKeys } from "../../lib/timing/reconcile.ts";
import { fingerprint } from "../../lib/store/wire.ts";
import { CREATE_COMPENSATION_TABLES_IF_MISSING } from "../../lib/timing/_compensation_schema.ts";

const SIZES = [10_000, 100_000];
const base = Deno.makeTempDirSync({ prefix: "guardlab-bench-reconcile-" });
globalThis.addEventListener(
  "unload",
  () => Deno.removeSync(base, { recursive: true }),
);
const folder = join(base, "mine");
Deno.mkdirSync(folder, { mode: 0o700 });

const EVENTS = JSON.stringify([
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "output_started",
  "output_rejected",
]);

/** A ledger at rest with `drafts` drafts, one receipt each; every tenth was never accepted. */
function ledgerOf(drafts: number): string {
  const path = join(folder, `lab-${drafts}.sqlite`);
  Ledger.open(path, { trusted: [base] }).close();
  // Filled through SQLite directly: the lab's keys stop at JOB-999.
  const db = new DatabaseSync(path);
  db.exec("BEGIN");
  const draft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
  const receipt = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  db.exec(CREATE_COMPENSATION_TABLES_IF_MISSING);
  const voided = db.prepare("INSERT INTO compensations VALUES(?, 'voided')");
  const voidReceipt = db.prepare(
    "INSERT INTO compensation_receipts(job,status,events) VALUES(?,'voided','[]')",
  );
  for (let n = 0; n < drafts; n++) {
    const job = `JOB-${String(n).padStart(6, "0")}`;
    const args = { job, topic: "river", copies: 2 };
    draft.run(job, fingerprint(args), JSON.stringify({ job, text: "x" }));
    receipt.run(job, n % 10 === 0 ? "output_rejected" : "accepted", EVENTS);
    if (n % 10 === 5) {
      voided.run(job);
      voidReceipt.run(job);
    }
  }
  db.exec("COMMIT");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  return path;
}

const paths = new Map(SIZES.map((n) => [n, ledgerOf(n)]));

for (const n of SIZES) {
  const ledger = Ledger.open(paths.get(n)!, { mode: "read", trusted: [base] });
  globalThis.addEventListener("unload", () => ledger.close());
  Deno.bench({
    name: `reconcile: pendingKeys, ${n.toLocaleString("en")} drafts`,
    group: "pendingKeys",
    baseline: n === SIZES[0],
    n: 5,
    warmup: 1,
    fn() {
      // The unaccepted tenth, and the voided tenth shown as settled.
      if (pendingKeys(ledger).length !== n / 5) throw new Error("wrong count");
    },
  });
}

const VIEWS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

for (const view of VIEWS) {
  for (const n of SIZES) {
    Deno.bench({
      name: `view: ${view.join(" ")}, ${n.toLocaleString("en")} drafts`,
      group: view.join(" "),
      baseline: n === SIZES[0],
      n: 3,
      warmup: 1,
      async fn() {
        const io = memoryIo("", false, base);
        const code = await main(
          [view[0], "--ledger-file", paths.get(n)!, ...view.slice(1)],
          io,
        );
        if (code !== 0 && code !== 3) {
          throw new Error(`${view.join(" ")}: ${io.stderr.join("\n")}`);
        }
      },
    });
  }
}
