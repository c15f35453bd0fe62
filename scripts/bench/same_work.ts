/**
 * The bench's same work, without guardlab: the rows guardlab's lab writes
 * for one `create_draft` (a draft row for a new key, its digest the SHA-256
 * of the canonical arguments; a receipt row on every call), in the same
 * tables, with the same pragmas (WAL, `synchronous=FULL`,
 * `temp_store=MEMORY`, a 5 s busy timeout), written the plain way: no
 * checkpoints, no faults, no schema check of an existing file. `one`
 * commits the draft and the receipt in one synced transaction; `two` in two,
 * as the article's lab does (a reuse commits only its receipt either way).
 * Used by the peer MCP server and, in process, by `scripts/mcp_bench.ts`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";

/** A valid request. */
export type Args = { job: string; topic: string; copies: number };

/** What a call answers. */
export interface SameWorkResult {
  /** Always `accepted` here: the bench sends valid requests. */
  status: "accepted";
  /** The key. */
  job: string;
  /** The stages, as guardlab's receipts list them. */
  events: string[];
  /** The receipt's number. */
  receipt: number;
}

/** The structural check and the input check, in one. */
export function valid(raw: unknown): raw is Args {
  const a = raw as Record<string, unknown> | null;
  return typeof a === "object" && a !== null &&
    Object.keys(a).sort().join(",") === "copies,job,topic" &&
    typeof a.job === "string" && /^JOB-[0-9]{3}$/.test(a.job) &&
    (a.topic === "river" || a.topic === "forest") &&
    Number.isInteger(a.copies) && (a.copies as number) >= 1 &&
    (a.copies as number) <= 3;
}

/** Open (or create) `path` and return its `create_draft` and its `close`. */
export function sameWork(
  path: string,
  commits: "one" | "two",
): { createDraft(args: Args): SameWorkResult; close(): void } {
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec("PRAGMA temp_store=MEMORY");
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=FULL");
  db.exec(`CREATE TABLE IF NOT EXISTS drafts(
    job TEXT PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS receipts(
    attempt INTEGER PRIMARY KEY AUTOINCREMENT,
    job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL,
    events TEXT NOT NULL)`);
  const findDraft = db.prepare("SELECT digest, body FROM drafts WHERE job=?");
  const insertDraft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
  const draftExists = db.prepare(
    "SELECT 1 AS present FROM drafts WHERE job=?",
  );
  const insertReceipt = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,?,?)",
  );
  const transaction = <T>(body: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = body();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
  function createDraft(args: Args): SameWorkResult {
    const digest = createHash("sha256").update(JSON.stringify({
      copies: args.copies,
      job: args.job,
      topic: args.topic,
    })).digest("hex");
    const events = ["arguments_valid", "input_allowed", "business_started"];
    const draftStep = () => {
      const old = findDraft.get(args.job) as { digest: string } | undefined;
      if (old !== undefined) {
        if (old.digest !== digest) throw new Error("key_conflict");
        events.push("effect_reused");
        return;
      }
      insertDraft.run(
        args.job,
        digest,
        JSON.stringify({
          job: args.job,
          text: `${args.topic} / copies=${args.copies}`,
        }),
      );
      events.push("effect_committed");
    };
    const receiptStep = () => {
      events.push("output_started", "output_allowed");
      const present = draftExists.get(args.job) !== undefined;
      return Number(
        insertReceipt.run(
          args.job,
          "accepted",
          present ? 1 : 0,
          JSON.stringify(events),
        ).lastInsertRowid,
      );
    };
    const receipt = commits === "one"
      ? transaction(() => (draftStep(), receiptStep()))
      : (transaction(draftStep), transaction(receiptStep));
    return { status: "accepted", job: args.job, events, receipt };
  }
  return { createDraft, close: () => db.close() };
}
