/**
 * The store: SQLite opened in one place, and a file another user may have
 * crafted checked before any row of it is evaluated.
 *
 * - `db.ts`: opening a database (place check, the exact schema and the
 *   integrity check on an in-memory image first, views on that copy, every
 *   connection closed on a signal), the immediate transaction.
 * - `_inspect.ts`, `_bounded.ts`: the schema compared with what SQLite
 *   reports before any statement evaluates a row, run on a worker with a
 *   time bound so Ctrl-C still works.
 * - `_snapshot.ts`, `_wal.ts`: a file and its committed `-wal` frames read
 *   for a view, bounded.
 * - `wire.ts`: the draft digest shared with the reference (`_sha256.ts`
 *   computes it without loading `node:crypto`).
 *
 * @module
 */
export * from "./db.ts";
export * from "./wire.ts";
