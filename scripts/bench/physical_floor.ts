/**
 * The physical floor under `guardlab script` (issue 51): as many synced
 * SQLite commits as the script's steps make (3,000 for the bench's 2,000
 * steps: a new key commits a draft and then a receipt, a reuse its receipt
 * only), each one small row, in write-ahead logging with
 * `synchronous=FULL`, and nothing else: no input read, no JSON, no digest,
 * no line printed. What is left is the process's start and the commits.
 *
 *     deno run --allow-read --allow-write scripts/bench/physical_floor.ts LEDGER COMMITS
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

if (import.meta.main) {
  const [path, count] = [Deno.args[0], Number(Deno.args[1])];
  if (path === undefined || !Number.isInteger(count) || count < 1) {
    console.error("usage: physical_floor.ts LEDGER COMMITS");
    Deno.exit(2);
  }
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=FULL");
  db.exec("CREATE TABLE rows(id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
  const begin = db.prepare("BEGIN IMMEDIATE");
  const insert = db.prepare("INSERT INTO rows(value) VALUES(?)");
  const commit = db.prepare("COMMIT");
  for (let i = 0; i < count; i++) {
    begin.run();
    insert.run("JOB-001");
    commit.run();
  }
  db.close();
}
