/**
 * The inspection of a database image that another user may have crafted,
 * in the order that keeps it bounded: first the whole schema is compared
 * with what SQLite itself reports for guardlab's own (every object of
 * `sqlite_schema` with its type, table and SQL, then `table_list`,
 * `table_xinfo`, `index_list`, `index_xinfo` and `foreign_key_list`), and
 * only then does any statement evaluate a row (the integrity check, the
 * value checks). A schema is data until it is proven exact: an index, a
 * CHECK, a generated column or a trigger that is not guardlab's would be
 * evaluated over every row by the integrity check, so none is.
 *
 * The functions here run inside a worker thread (`_bounded.ts`), so that a
 * check can be stopped: each uses only its arguments, the globals and the
 * other functions listed in {@linkcode INSPECT_FUNCTIONS}, and no syntax
 * that compiles to a helper outside it.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** What the inspection needs of a {@linkcode SchemaSpec}: plain data, cloned into the worker. */
export interface InspectSpec {
  /** Table name → its CREATE TABLE statement. */
  tables: Readonly<Record<string, string>>;
  /**
   * Table name → what each of its rows must hold beyond the types its
   * columns declare (a SQL condition over the row, `null` for nothing
   * more): see {@linkcode strictForm}.
   */
  rowChecks: Readonly<Record<string, string | null>>;
  /** Tables checked exactly when present, with their own row checks. */
  optionalTables?: Readonly<
    Record<string, { create: string; rowCheck: string | null }>
  >;
  /** Triggers allowed by exact name and SQL (trusted test fixtures). */
  triggers: Readonly<Record<string, readonly string[]>>;
  /**
   * Queries that each count values guardlab could not show exactly in a
   * table the row checks cannot hold (SQLite's own `sqlite_sequence`).
   */
  badValues: readonly string[];
  /** Statements that create the schema in an empty file. */
  create: string;
}

/** What is wrong with an image, as data (the worker sends it; `_messages.ts` words it). */
export type Problem =
  | { kind: "foreign"; type: string; name: string }
  | { kind: "trigger"; name: string }
  | { kind: "differs"; type: string; name: string }
  | { kind: "missing"; type: string; name: string }
  | { kind: "damaged"; said: string }
  | { kind: "inexact" }
  | { kind: "unusable"; message: string };

/** The verdict on an image: usable (and whether it holds no schema at all), or a problem. */
export type Finding =
  | { ok: true; empty: boolean }
  | { ok: false; problem: Problem };

/**
 * `sql` in a form where two statements are equal only if SQLite reads the
 * same tokens from them. Outside quotes, a run of SQLite's white space
 * (space, tab, line feed, form feed, carriage return: exactly its
 * tokenizer's, so not U+00A0 or any other Unicode space, which SQLite reads
 * as part of a name) becomes one space, and none is kept beside `(`, `)`,
 * `,` or `;`, which are tokens on their own. Quoted text ('…', "…", `…`,
 * […]) is kept as it is, and so is everything from a comment on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlTokensKey } from "./_inspect.ts";
 *
 * assert.equal(
 *   sqlTokensKey("CREATE TABLE t(\n  a TEXT PRIMARY KEY )"),
 *   sqlTokensKey("CREATE TABLE t(a TEXT PRIMARY KEY)"),
 * );
 * // U+00A0 is no space to SQLite: `TEXT\u00a0PRIMARY` is one type name.
 * assert.notEqual(
 *   sqlTokensKey("CREATE TABLE t(a TEXT\u00a0PRIMARY KEY)"),
 *   sqlTokensKey("CREATE TABLE t(a TEXT PRIMARY KEY)"),
 * );
 * ```
 */
export function sqlTokensKey(sql: string): string {
  const SPACE = " \t\n\f\r";
  const ALONE = "(),;";
  let out = "";
  let pendingSpace = false;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (SPACE.includes(c)) {
      pendingSpace = true;
      i++;
      continue;
    }
    let token: string;
    if (
      (c === "-" && sql[i + 1] === "-") || (c === "/" && sql[i + 1] === "*")
    ) {
      // A comment: SQLite skips it; what follows is compared byte for byte.
      token = sql.slice(i);
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let end = i + 1;
      for (;;) {
        const at = sql.indexOf(close, end);
        if (at < 0) {
          end = sql.length;
          break;
        }
        // A doubled quote stands for itself; `]` has no escape.
        if (close !== "]" && sql[at + 1] === close) {
          end = at + 2;
          continue;
        }
        end = at + 1;
        break;
      }
      token = sql.slice(i, end);
    } else {
      token = c;
    }
    const beside = ALONE.includes(token[0]) ||
      (out.length > 0 && ALONE.includes(out[out.length - 1]));
    if (pendingSpace && out.length > 0 && !beside) out += " ";
    pendingSpace = false;
    out += token;
    i += token.length;
  }
  return out;
}

/** One object of `sqlite_schema`, as compared. */
interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/**
 * Every object of `db`'s main schema with its SQL made a token key, and,
 * for each table and index, what SQLite's own pragmas say of it: one string
 * per object, equal for two databases only when SQLite sees the same object.
 */
export function schemaFacts(db: DatabaseSync): Map<string, {
  object: SchemaObject;
  facts: string;
}> {
  const rows = db.prepare(
    "SELECT type, name, tbl_name, sql FROM main.sqlite_schema " +
      "ORDER BY type, name",
  ).all() as unknown as SchemaObject[];
  const out = new Map<string, { object: SchemaObject; facts: string }>();
  for (const row of rows) {
    out.set(`${row.type}\u0000${row.name}`, {
      object: row,
      facts: JSON.stringify([
        row.type,
        row.name,
        row.tbl_name,
        row.sql === null ? null : sqlTokensKey(row.sql),
      ]),
    });
  }
  return out;
}

/**
 * What SQLite's pragmas say of table `name` in `db` and of its indexes: its
 * kind (rowid or not, strict), every column (type, NOT NULL, default, key,
 * hidden or generated), every index (unique, origin, partial) with its
 * columns (order, collation, key), and every foreign key.
 */
export function tableFacts(db: DatabaseSync, name: string): string {
  const all = (sql: string, arg: string) =>
    (db.prepare(sql).all(arg) as Record<string, unknown>[]).map((r) =>
      Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])
    );
  const indexes = db.prepare(
    "SELECT name FROM pragma_index_list(?) ORDER BY name",
  ).all(name) as { name: string }[];
  return JSON.stringify([
    all(
      "SELECT type, ncol, wr, strict FROM pragma_table_list(?) " +
        "WHERE schema='main'",
      name,
    ),
    all("SELECT * FROM pragma_table_xinfo(?) ORDER BY cid", name),
    all("SELECT * FROM pragma_index_list(?) ORDER BY name", name),
    indexes.map((i) =>
      all("SELECT * FROM pragma_index_xinfo(?) ORDER BY seqno", i.name)
    ),
    all("SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq", name),
  ]);
}

/**
 * The schema problem of `actual`, or `null` when it is exactly the schema
 * `spec` describes (with the optional tables it holds, and only allowed
 * triggers), as SQLite reports both; `expected` is an empty database to
 * build guardlab's own schema in. Nothing here evaluates a row of
 * `actual`: only its schema is read.
 */
export function schemaProblem(
  actual: DatabaseSync,
  expected: DatabaseSync,
  spec: InspectSpec,
): Problem | null {
  const found = schemaFacts(actual);
  if (found.size === 0) return null;
  const has = (type: string, name: string) => found.has(`${type}\u0000${name}`);
  // guardlab's own schema, with what this file may add: the optional tables
  // it holds and an allowed trigger whose SQL is exactly one guardlab writes.
  expected.exec(spec.create);
  for (const [name, table] of Object.entries(spec.optionalTables ?? {})) {
    if (has("table", name)) expected.exec(table.create);
  }
  for (const [name, allowed] of Object.entries(spec.triggers)) {
    const sql = found.get(`trigger\u0000${name}`)?.object.sql;
    if (sql === undefined || sql === null) continue;
    const match = allowed.find((a) => sqlTokensKey(a) === sqlTokensKey(sql));
    if (match !== undefined) expected.exec(match);
  }
  const wanted = schemaFacts(expected);
  for (const [key, { object, facts }] of found) {
    const mine = wanted.get(key);
    if (object.type === "trigger" && mine?.facts !== facts) {
      return { kind: "trigger", name: object.name };
    }
    if (mine === undefined) {
      return { kind: "foreign", type: object.type, name: object.name };
    }
    if (mine.facts !== facts) {
      return { kind: "differs", type: object.type, name: object.name };
    }
  }
  for (const [key, { object }] of wanted) {
    if (!found.has(key)) {
      return { kind: "missing", type: object.type, name: object.name };
    }
  }
  // The same objects with the same SQL; what SQLite made of each must agree
  // too (types, keys, defaults, collations, generated columns, indexes).
  for (const { object } of wanted.values()) {
    if (object.type !== "table") continue;
    if (tableFacts(actual, object.name) !== tableFacts(expected, object.name)) {
      return { kind: "differs", type: "table", name: object.name };
    }
  }
  return null;
}

/**
 * `create` (one `CREATE TABLE` of guardlab's own) as a STRICT table that
 * also holds `check` on every row: the form the inspection gives each
 * table in its own copy of the image, so that SQLite's integrity check,
 * which walks every row once anyway, also proves each value exact. A
 * STRICT table's check reads each column's type from the record header
 * (no value is loaded, no function called), and the CHECK is evaluated on
 * the same pass: one pass over the rows instead of a second scan that
 * called `typeof()` on every column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { strictForm } from "./_inspect.ts";
 * assert.equal(
 *   strictForm("CREATE TABLE t(a INTEGER NOT NULL)", "a>0"),
 *   "CREATE TABLE t(a INTEGER NOT NULL, CHECK(a>0)) STRICT",
 * );
 * ```
 */
export function strictForm(create: string, check: string | null): string {
  const body = create.trimEnd();
  if (!body.endsWith(")")) throw new Error(`not a CREATE TABLE: ${create}`);
  const head = body.slice(0, -1).trimEnd();
  return check === null
    ? `${head}) STRICT`
    : `${head}, CHECK(${check})) STRICT`;
}

/**
 * Give each table of `tables` (name → create, row check) its
 * {@linkcode strictForm} in `db`, a private copy of an image whose schema
 * was just proven exact: only the SQL text of guardlab's own tables
 * changes, never a page of rows. Defensive mode, which forbids editing the
 * schema, is lifted for that edit alone.
 */
export function makeStrict(
  db: DatabaseSync,
  tables: readonly [string, string, string | null][],
): void {
  // Deno 2.9.6 has the method; its types do not list it yet.
  const guard = db as DatabaseSync & { enableDefensive(on: boolean): void };
  guard.enableDefensive(false);
  try {
    db.exec("PRAGMA writable_schema=ON");
    const edit = db.prepare(
      "UPDATE main.sqlite_schema SET sql=? WHERE type='table' AND name=?",
    );
    for (const [name, create, check] of tables) {
      edit.run(strictForm(create, check), name);
    }
    db.exec("PRAGMA writable_schema=RESET");
  } finally {
    guard.enableDefensive(true);
  }
}

/**
 * Whether `said`, the first line of SQLite's integrity check of a copy
 * made strict, is about a value (a type, a NULL, a row check) rather than
 * the file's structure. The names in it are guardlab's own: the schema was
 * proven exact first.
 */
export function aboutValues(said: string): boolean {
  return /^(NULL value in |non-[A-Z]+ value in |CHECK constraint failed in )/
    .test(said);
}

/**
 * Inspect the database image `image` (a file another user may have
 * crafted) with `open`ed connections: the exact schema first, then, in one
 * pass over every row, SQLite's integrity check of the image with each
 * table made {@linkcode strictForm} (its structure, its indexes, every
 * value's type and each row check), then the remaining value queries of
 * `spec`. `open` gives an empty in-memory connection.
 */
export function inspectImage(
  image: Uint8Array,
  spec: InspectSpec,
  open: () => DatabaseSync,
): Finding {
  const actual = open();
  const expected = open();
  try {
    try {
      actual.deserialize(image);
      const problem = schemaProblem(actual, expected, spec);
      if (problem !== null) return { ok: false, problem };
      const empty = (actual.prepare(
        "SELECT COUNT(*) AS n FROM main.sqlite_schema",
      ).get() as { n: number | bigint }).n;
      if (Number(empty) === 0) return { ok: true, empty: true };
      const present = (name: string) =>
        actual.prepare(
          "SELECT 1 FROM main.sqlite_schema WHERE type='table' AND name=?",
        ).get(name) !== undefined;
      const strict: [string, string, string | null][] = Object.entries(
        spec.tables,
      ).map(([name, create]) => [name, create, spec.rowChecks[name] ?? null]);
      for (const [name, table] of Object.entries(spec.optionalTables ?? {})) {
        if (present(name)) strict.push([name, table.create, table.rowCheck]);
      }
      // This copy is the worker's own (deserialize copies the bytes): the
      // image the caller shows is not touched.
      makeStrict(actual, strict);
      actual.exec("PRAGMA query_only=1");
      // The quick check skips whether each index agrees with its table: a
      // drafts row that says JOB-777 under a key index that still says
      // JOB-001 passes it, and a later INSERT of JOB-777 would make a
      // second row for one primary key. The integrity check compares them.
      // It evaluates guardlab's own schema only: the schema is proven exact.
      const check = actual.prepare("PRAGMA integrity_check(1)").all() as {
        integrity_check: string;
      }[];
      if (check.length !== 1 || check[0].integrity_check !== "ok") {
        const said = String(check[0]?.integrity_check ?? "no answer")
          .replace(/\*\*\* in database main \*\*\*/, "").replace(/\s+/g, " ")
          .trim();
        if (aboutValues(said)) {
          return { ok: false, problem: { kind: "inexact" } };
        }
        return {
          ok: false,
          problem: { kind: "damaged", said: said.slice(0, 100) },
        };
      }
      for (const query of spec.badValues) {
        const row = actual.prepare(query).get() as { n: number | bigint };
        if (Number(row.n) !== 0) {
          return { ok: false, problem: { kind: "inexact" } };
        }
      }
      return { ok: true, empty: false };
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      if (code === "ERR_SQLITE_ERROR") {
        const message = String((error as Error).message).split("\n")[0];
        return { ok: false, problem: { kind: "unusable", message } };
      }
      throw error;
    }
  } finally {
    actual.close();
    expected.close();
  }
}

/**
 * The functions the worker's source is made of, in order: each may call the
 * ones before it and the globals, nothing else.
 */
export const INSPECT_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  sqlTokensKey,
  schemaFacts,
  tableFacts,
  schemaProblem,
  strictForm,
  makeStrict,
  aboutValues,
  inspectImage,
];
