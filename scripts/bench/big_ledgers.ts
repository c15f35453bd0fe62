/**
 * Big ledgers of guardlab's exact schema, made fast: SQLite makes the rows
 * itself (a recursive query), one transaction, nothing computed in
 * JavaScript per row. The kinds issue 49 measures every view on:
 *
 * - `receipts`: N receipts over 1,000 keys, as guardlab writes them (each
 *   key's first attempt commits its draft and is accepted; later ones
 *   reuse it and their input check refuses them);
 * - `drafts`: N drafts that no receipt records (what a run killed after
 *   its commit leaves, N times);
 * - `objects`: N drafts whose bodies are JSON objects (two levels deep),
 *   each with an accepted receipt that committed it;
 * - `object`: one draft whose body is one JSON object of N members (the
 *   red team's 120 MB ledger, scaled by N);
 * - `attempts`: N receipts over 1,000 keys with the short events of an
 *   input refusal (3,000,000 of them make the red team's 211 MB ledger).
 *
 * The file must hold guardlab's schema already (a `guardlab run` made it,
 * or `--create`); rows are added through a connection of this script's
 * own, so guardlab checks the file in full when it next opens it.
 *
 *     deno run --allow-read --allow-write scripts/bench/big_ledgers.ts FILE KIND N [--create]
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { pythonJson } from "../../lib/base/json.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";

/** The kinds of big ledger this makes. */
export const KINDS = [
  "receipts",
  "drafts",
  "objects",
  "object",
  "attempts",
] as const;

/** One kind of big ledger. */
export type Kind = typeof KINDS[number];

const events = (first: boolean) =>
  pythonJson([
    "arguments_valid",
    "input_allowed",
    "business_started",
    first ? "effect_committed" : "effect_reused",
    "output_started",
    "output_allowed",
  ]);

/** `n` numbers from 0, as SQL rows `x` (a recursive query: SQLite makes them). */
const numbers = (n: number) =>
  `WITH RECURSIVE seq(x) AS (SELECT 0 WHERE ${n} > 0 UNION ALL ` +
  `SELECT x + 1 FROM seq WHERE x + 1 < ${n})`;

/** A key guardlab writes, for the number `x` (SQL). */
const KEY = "printf('JOB-%03d', x % 1000)";

/** SQL that adds `n` rows of `kind` to a ledger. */
function rowsOf(kind: Kind, n: number): string[] {
  const digest = "lower(hex(randomblob(32)))";
  switch (kind) {
    case "receipts":
    case "attempts": {
      // Each key's first receipt commits its draft; the later ones reuse it
      // (`receipts`) or are refused by the input check (`attempts`).
      const [status, later] = kind === "receipts"
        ? ["accepted", events(false)]
        : ["input_rejected", '["arguments_valid", "input_rejected"]'];
      return [
        `${numbers(Math.min(n, 1000))} INSERT OR IGNORE INTO drafts
         SELECT ${KEY}, ${digest},
           json_object('job', ${KEY}, 'text', 'river / copies=2') FROM seq`,
        `${numbers(n)} INSERT INTO receipts(job, status, effect_exists, events)
         SELECT ${KEY},
           CASE WHEN x < 1000 THEN 'accepted' ELSE '${status}' END, 1,
           CASE WHEN x < 1000 THEN '${events(true)}' ELSE '${later}' END
         FROM seq`,
      ];
    }
    case "drafts":
      return [
        `${numbers(n)} INSERT INTO drafts SELECT 'JOB-' || x, ${digest},
         json_object('job', 'JOB-' || x, 'text', 'river / copies=2') FROM seq`,
      ];
    case "objects":
      return [
        `${numbers(n)} INSERT INTO drafts SELECT 'JOB-' || x, ${digest},
         json_object('job', 'JOB-' || x, 'text',
           json_object('topic', 'river', 'copies', 2)) FROM seq`,
        // The events of a commit, as short as they come.
        `${numbers(n)} INSERT INTO receipts(job, status, effect_exists, events)
         SELECT 'JOB-' || x, 'accepted', 1, '["effect_committed"]' FROM seq`,
      ];
    case "object":
      return [
        `INSERT INTO drafts VALUES('JOB-000', ${digest}, (${numbers(n)}
         SELECT '{' || group_concat('"k' || x || '": ' || x, ', ') || '}'
         FROM seq))`,
      ];
  }
}

/**
 * Add `n` rows of `kind` to the ledger at `path` (see the module doc), in
 * one transaction, and fold the log into the file; `create` makes the
 * schema first. Returns the file's size.
 */
export function fillLedger(
  path: string,
  kind: Kind,
  n: number,
  create = false,
): number {
  const db = new DatabaseSync(path);
  try {
    if (create) db.exec(LEDGER_SCHEMA.create);
    db.exec("BEGIN");
    for (const sql of rowsOf(kind, n)) db.exec(sql);
    db.exec("COMMIT");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return Deno.statSync(path).size;
}

if (import.meta.main) {
  const [file, kind, n, flag] = Deno.args;
  if (!KINDS.includes(kind as Kind) || !(Number(n) >= 0)) {
    console.error(
      `usage: big_ledgers.ts FILE (${KINDS.join("|")}) N [--create]`,
    );
    Deno.exit(2);
  }
  console.log(fillLedger(file, kind as Kind, Number(n), flag === "--create"));
}
