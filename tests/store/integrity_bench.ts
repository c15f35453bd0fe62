/**
 * What checking a ledger before use costs on a large one: 100,000 drafts
 * and 100,000 receipts. guardlab reads the file (and its log) into memory
 * and runs SQLite's integrity check there, with the exact schema and value
 * checks, before any command uses a file it did not just write; the quick
 * check, which misses an index that disagrees with its table, is the
 * baseline. Run with `deno task bench`.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "../../lib/timing/ledger.ts";
import { fingerprint } from "../../lib/store/wire.ts";

const DRAFTS = 100_000;
const dir = Deno.makeTempDirSync({ prefix: "guardlab-bench-integrity-" });
globalThis.addEventListener(
  "unload",
  () => Deno.removeSync(dir, { recursive: true }),
);
const path = join(dir, "lab.sqlite");
Ledger.open(path).close();

// Filled through SQLite directly: the lab's keys stop at JOB-999.
const fill = new DatabaseSync(path);
fill.exec("BEGIN");
const draft = fill.prepare("INSERT INTO drafts VALUES(?,?,?)");
const receipt = fill.prepare(
  "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
);
const events = JSON.stringify([
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "output_started",
  "output_allowed",
]);
for (let n = 0; n < DRAFTS; n++) {
  const job = `JOB-${String(n).padStart(6, "0")}`;
  const args = { job, topic: "river", copies: 2 };
  draft.run(
    job,
    fingerprint(args),
    JSON.stringify({ job, text: `Draft for river x2 (${job})` }),
  );
  receipt.run(job, "accepted", events);
}
fill.exec("COMMIT");
fill.exec("PRAGMA wal_checkpoint(TRUNCATE)");
fill.close();

const bare = new DatabaseSync(path, { readOnly: true });
globalThis.addEventListener("unload", () => bare.close());

Deno.bench(
  "integrity: PRAGMA quick_check, 100,000 drafts (misses index skew)",
  { group: "check", baseline: true },
  () => {
    bare.prepare("PRAGMA quick_check(1)").all();
  },
);

Deno.bench(
  "integrity: PRAGMA integrity_check, 100,000 drafts",
  { group: "check" },
  () => {
    bare.prepare("PRAGMA integrity_check(1)").all();
  },
);

Deno.bench(
  "integrity: a view opens it (read into memory, integrity, schema, values)",
  { group: "check" },
  () => {
    Ledger.open(path, { mode: "read" }).close();
  },
);

Deno.bench(
  "integrity: a writer opens it (checked in memory first, then opened)",
  { group: "check" },
  () => {
    Ledger.open(path).close();
  },
);
