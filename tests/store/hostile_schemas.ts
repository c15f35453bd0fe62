/**
 * Ledgers a classmate crafts so that their schema is evaluated: each case
 * builds a file with guardlab's tables and rows, then changes one schema
 * object the way an attacker can (plain SQL, or `writable_schema` for what
 * SQL refuses, e.g. an index filed under a name SQLite reserves). Each
 * names the refusal it must get.
 *
 * An expression the attacker hides is either `COSTLY` (minutes over the
 * rows, for the runs that must end in seconds) or `TRIPWIRE`, which fails
 * with "integer overflow" the moment anything evaluates it: a refusal that
 * names the schema object proves nothing evaluated it first.
 *
 * Run as a script (`deno run --allow-read --allow-write hostile_schemas.ts
 * CASE PATH [costly]`) it builds one case at PATH, for a test that runs as
 * another user.
 */
import { DatabaseSync } from "node:sqlite";
import { fingerprint } from "../../lib/store/wire.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { COMPENSATION_TABLES } from "../../lib/timing/_compensation_schema.ts";

/** An expression that fails the moment it is evaluated. */
export const TRIPWIRE = "abs(-9223372036854775807 - 1)";

/** An expression that takes milliseconds per row: minutes over the rows. */
export const COSTLY =
  "length(replace(replace(hex(zeroblob(1000000)),'0','ab'),'a','bc'))";

/** One crafted ledger. */
export interface HostileCase {
  /** What the attacker changed. */
  name: string;
  /** The refusal every opener must give, before evaluating anything. */
  why: RegExp;
  /**
   * Change `db` (guardlab's tables, with `rows` drafts and receipts) using
   * `expr` where an expression hides; a table it adds gets `rows` rows too.
   */
  craft(db: DatabaseSync, expr: string, rows: number): void;
}

/**
 * `db` without SQLite's defensive mode, which `node:sqlite` turns on (and
 * its types do not declare): `writable_schema` works again.
 */
function undefended(db: DatabaseSync): void {
  (db as DatabaseSync & { enableDefensive(on: boolean): void })
    .enableDefensive(false);
}

/** Rewrite the schema row of `name`: what plain SQL may not do. */
function rewrite(
  db: DatabaseSync,
  name: string,
  set: { name?: string; tbl_name?: string; sql?: string },
): void {
  undefended(db);
  db.exec("PRAGMA writable_schema=ON");
  const stmt = db.prepare(
    "UPDATE sqlite_schema SET name=coalesce(?, name), " +
      "tbl_name=coalesce(?, tbl_name), sql=coalesce(?, sql) WHERE name=?",
  );
  stmt.run(set.name ?? null, set.tbl_name ?? null, set.sql ?? null, name);
  db.exec("PRAGMA writable_schema=OFF");
}

const DRAFTS_SQL = "CREATE TABLE drafts(\n  job TEXT PRIMARY KEY, " +
  "digest TEXT NOT NULL, body TEXT NOT NULL)";

/** The same drafts table with `replace` done to its SQL, swapped in after the rows. */
function redefineDrafts(db: DatabaseSync, sql: string): void {
  rewrite(db, "drafts", { sql });
}

/** Each character JavaScript's `\s` counts as space and SQLite does not. */
export const NOT_SQL_SPACE = [
  "\u00a0",
  "\u1680",
  "\u2003",
  "\u2028",
  "\u202f",
  "\u3000",
  "\ufeff",
];

/** Every crafted case. */
export const HOSTILE: readonly HostileCase[] = [
  ...NOT_SQL_SPACE.map((space): HostileCase => ({
    name: `U+${
      space.codePointAt(0)!.toString(16).padStart(4, "0")
    } where a space belongs`,
    why: /table drafts is not defined as guardlab defines it/,
    craft(db) {
      // SQLite reads `TEXT<U+00A0>PRIMARY KEY` as a type name: no key.
      db.exec("DROP TABLE drafts");
      db.exec(
        `CREATE TABLE drafts(job TEXT${space}PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL)`,
      );
      // Two drafts for one key: what a ledger without its key shows.
      const digest = fingerprint({ job: "JOB-001", topic: "river", copies: 2 });
      const insert = db.prepare(
        "INSERT INTO drafts VALUES('JOB-001', ?, '{}')",
      );
      insert.run(digest);
      insert.run(digest);
    },
  })),
  {
    name: "a costly index filed under an allowed index name",
    why: /a foreign index sqlite_autoindex_compensations_1/,
    craft(db, expr) {
      db.exec("CREATE INDEX costly ON drafts(job)");
      rewrite(db, "costly", {
        name: "sqlite_autoindex_compensations_1",
        sql: `CREATE INDEX sqlite_autoindex_compensations_1 ON drafts(${expr})`,
      });
    },
  },
  {
    name: "a costly index under the name of one that exists",
    // SQLite itself finds two indexes of one name: malformed.
    why: /malformed database schema \(sqlite_autoindex_compensations_1\)/,
    craft(db, expr) {
      db.exec(COMPENSATION_TABLES.compensations.create);
      db.exec("CREATE INDEX costly ON drafts(job)");
      undefended(db);
      db.exec("PRAGMA writable_schema=ON");
      db.exec(
        "DELETE FROM sqlite_schema WHERE name='sqlite_autoindex_compensations_1'",
      );
      db.exec("PRAGMA writable_schema=OFF");
      rewrite(db, "costly", {
        name: "sqlite_autoindex_compensations_1",
        sql: `CREATE INDEX sqlite_autoindex_compensations_1 ON drafts(${expr})`,
      });
    },
  },
  {
    name: "a partial index filed under an allowed index name",
    why: /a foreign index sqlite_autoindex_compensations_1/,
    craft(db, expr) {
      db.exec("CREATE INDEX costly ON drafts(job)");
      rewrite(db, "costly", {
        name: "sqlite_autoindex_compensations_1",
        sql:
          `CREATE INDEX sqlite_autoindex_compensations_1 ON drafts(job) WHERE ${expr} > 0`,
      });
    },
  },
  {
    name: "sqlite_sequence redefined with a costly CHECK",
    why: /table sqlite_sequence is not defined as guardlab defines it/,
    craft(db, expr, rows) {
      const insert = db.prepare("INSERT INTO sqlite_sequence VALUES(?, 1)");
      for (let i = 0; i < rows; i++) insert.run(`t${i}`);
      rewrite(db, "sqlite_sequence", {
        sql: `CREATE TABLE sqlite_sequence(name,seq,CHECK(${expr} > 0))`,
      });
    },
  },
  {
    name: "a costly CHECK on a foreign table",
    why: /a foreign table junk/,
    craft(db, expr, rows) {
      db.exec("CREATE TABLE junk(x)");
      const insert = db.prepare("INSERT INTO junk VALUES(?)");
      for (let i = 0; i < rows; i++) insert.run(i);
      rewrite(db, "junk", { sql: `CREATE TABLE junk(x, CHECK(${expr} > 0))` });
    },
  },
  {
    name: "a costly CHECK on drafts",
    why: /table drafts is not defined as guardlab defines it/,
    craft(db, expr) {
      redefineDrafts(db, DRAFTS_SQL.replace(")", `, CHECK(${expr} > 0))`));
    },
  },
  {
    name: "a generated column on drafts",
    why: /table drafts is not defined as guardlab defines it/,
    craft(db, expr) {
      redefineDrafts(
        db,
        DRAFTS_SQL.replace(
          /\)$/,
          `, shown TEXT GENERATED ALWAYS AS (${expr}) VIRTUAL)`,
        ),
      );
    },
  },
  {
    name: "a NOT NULL generated column on a foreign table",
    why: /a foreign table junk/,
    craft(db, expr, rows) {
      db.exec("CREATE TABLE junk(x)");
      const insert = db.prepare("INSERT INTO junk VALUES(?)");
      for (let i = 0; i < rows; i++) insert.run(i);
      rewrite(db, "junk", {
        sql: `CREATE TABLE junk(x, y NOT NULL GENERATED ALWAYS AS (${expr}))`,
      });
    },
  },
  {
    name: "a key that ignores case (a collation)",
    why: /table drafts is not defined as guardlab defines it/,
    craft(db) {
      redefineDrafts(
        db,
        DRAFTS_SQL.replace(
          "job TEXT PRIMARY KEY",
          "job TEXT COLLATE NOCASE PRIMARY KEY",
        ),
      );
    },
  },
  {
    name: "a second unique index on drafts",
    why:
      /a foreign index sqlite_autoindex_drafts_2|table drafts is not defined/,
    craft(db) {
      redefineDrafts(
        db,
        DRAFTS_SQL.replace("body TEXT NOT NULL", "body TEXT NOT NULL UNIQUE"),
      );
    },
  },
  {
    name: "drafts without rowid",
    why: /table drafts is not defined as guardlab defines it/,
    craft(db) {
      db.exec("DROP TABLE drafts");
      db.exec(`${DRAFTS_SQL} WITHOUT ROWID`);
    },
  },
  {
    name: "the key index filed under another table",
    why:
      /index sqlite_autoindex_drafts_1 is not defined as guardlab defines it/,
    craft(db) {
      rewrite(db, "sqlite_autoindex_drafts_1", { tbl_name: "receipts" });
    },
  },
  {
    name: "a foreign key from drafts",
    why: /table drafts is not defined as guardlab defines it/,
    craft(db) {
      redefineDrafts(
        db,
        DRAFTS_SQL.replace(
          "digest TEXT NOT NULL",
          "digest TEXT NOT NULL REFERENCES receipts(job)",
        ),
      );
    },
  },
  {
    name: "a default value on a receipt column",
    why: /table receipts is not defined as guardlab defines it/,
    craft(db, expr) {
      const sql = (db.prepare(
        "SELECT sql FROM sqlite_schema WHERE name='receipts'",
      ).get() as { sql: string }).sql;
      rewrite(db, "receipts", {
        sql: sql.replace(
          "status TEXT NOT NULL",
          `status TEXT NOT NULL DEFAULT (${expr})`,
        ),
      });
    },
  },
  {
    name: "a trigger with a costly WHEN",
    why: /a trigger quiet guardlab did not install/,
    craft(db, expr) {
      db.exec(
        `CREATE TRIGGER quiet BEFORE INSERT ON drafts WHEN ${expr} > 0 BEGIN SELECT RAISE(IGNORE); END`,
      );
    },
  },
  {
    name: "the fixture trigger with a costly WHEN",
    why: /a trigger fixture_receipt_fault guardlab did not install/,
    craft(db, expr) {
      db.exec(
        `CREATE TRIGGER fixture_receipt_fault BEFORE INSERT ON receipts WHEN ${expr} > 0 BEGIN SELECT RAISE(IGNORE); END`,
      );
    },
  },
  {
    name: "a costly view",
    why: /a view named v/,
    craft(db, expr) {
      db.exec(`CREATE VIEW v AS SELECT ${expr} AS x FROM drafts`);
    },
  },
  {
    name: "statistics from ANALYZE",
    why: /a foreign table sqlite_stat1/,
    craft(db) {
      db.exec("ANALYZE");
    },
  },
];

/** How many drafts and receipts a crafted ledger holds: enough for {@linkcode COSTLY} to take minutes. */
export const COSTLY_ROWS = 20_000;

/**
 * Build case `name` at `path`: guardlab's tables with `rows` drafts and
 * receipts, then the attacker's change with `expr`. The file is left at
 * rest (one file, no log).
 */
export function buildHostile(
  path: string,
  name: string,
  expr: string,
  rows = 200,
): void {
  const found = HOSTILE.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  const db = new DatabaseSync(path);
  try {
    db.exec(LEDGER_SCHEMA.create);
    db.exec("BEGIN");
    const draft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
    const receipt = db.prepare(
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,'accepted',1,'[]')",
    );
    for (let i = 0; i < rows; i++) {
      const job = `JOB-${String(i).padStart(5, "0")}`;
      draft.run(job, fingerprint({ job, topic: "river", copies: 2 }), "{}");
      receipt.run(job);
    }
    db.exec("COMMIT");
    found.craft(db, expr, rows);
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [name, path, kind] = Deno.args;
  if (kind === "costly") buildHostile(path, name, COSTLY, COSTLY_ROWS);
  else buildHostile(path, name, TRIPWIRE);
}
