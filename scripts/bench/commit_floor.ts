/**
 * The floor under `guardlab script`: a plain `node:sqlite` program that
 * reads the same JSON Lines steps and, for each `run` step, commits the
 * bytes guardlab's lab commits, the same way: write-ahead logging with
 * `synchronous=FULL`, the draft and then the receipt in two synced
 * transactions taken with `BEGIN IMMEDIATE` (a reuse commits its receipt
 * only), one line printed per step. Everything else is left out or done
 * once: no check of arguments, faults or timeline, each key's digest and
 * body computed the first time it is seen, the events' text made once per
 * shape. What is left is the commits, and that is what
 * `scripts/speed_bench.ts` measures `script` against.
 *
 *     deno run --allow-read --allow-write scripts/bench/commit_floor.ts LEDGER < steps.jsonl
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { linesOf } from "../../lib/base/lines.ts";
import { pythonJson } from "../../lib/base/json.ts";
import { fingerprint } from "../../lib/store/wire.ts";

const EVENTS = (reused: boolean) =>
  pythonJson([
    "arguments_valid",
    "input_allowed",
    "business_started",
    reused ? "effect_reused" : "effect_committed",
    "output_started",
    "output_allowed",
  ]);

if (import.meta.main) {
  const db = new DatabaseSync(Deno.args[0], { timeout: 5000 });
  db.exec("PRAGMA temp_store=MEMORY");
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=FULL");
  db.exec(`CREATE TABLE drafts(
  job TEXT PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE receipts(
  attempt INTEGER PRIMARY KEY AUTOINCREMENT,
  job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL,
  events TEXT NOT NULL);`);
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const find = db.prepare("SELECT digest FROM drafts WHERE job=?");
  const insertDraft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
  const insertReceipt = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  const events = { true: EVENTS(true), false: EVENTS(false) };
  const rows = new Map<string, { digest: string; body: string }>();
  const encoder = new TextEncoder();
  for await (const line of linesOf(Deno.stdin.readable)) {
    if (!("text" in line) || line.text.trim() === "") continue;
    const { args } = JSON.parse(line.text) as {
      args: { job: string; topic: string; copies: number };
    };
    let row = rows.get(args.job);
    if (row === undefined) {
      row = {
        digest: fingerprint(args),
        body: pythonJson({
          job: args.job,
          text: `${args.topic} / copies=${args.copies}`,
        }),
      };
      rows.set(args.job, row);
    }
    begin.run();
    const reused = find.get(args.job) !== undefined;
    if (!reused) insertDraft.run(args.job, row.digest, row.body);
    commit.run();
    begin.run();
    const attempt = insertReceipt.run(args.job, "accepted", events[`${reused}`])
      .lastInsertRowid;
    commit.run();
    Deno.stdout.writeSync(
      encoder.encode(JSON.stringify({ attempt: Number(attempt) }) + "\n"),
    );
  }
  db.close();
}
