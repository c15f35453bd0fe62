/**
 * What every connection guardlab opens shares: it is closed on a signal
 * (`tracked`), an SQLite error opening it is one line naming the file
 * (`sqliteStep`), a writer logs ahead durably (`useDurableWal`), and
 * `dataVersion` tells whether another connection has committed.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import {
  isSqliteError,
  isSqliteWriteFailure,
  LedgerUnusable,
} from "../base/errors.ts";
import { onExit } from "../base/exit_hooks.ts";
import { fill, type Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import { openProblem } from "../sandbox/safe_fs.ts";
import { sqliteWhy, STORE_MESSAGES } from "./_messages.ts";

/** Connections to files that are still open, each with its close-on-signal registration. */
const live = new Map<DatabaseSync, Disposable>();

/**
 * `db`, closed before the process ends on a signal or an uncaught error
 * (newest first, so a read-only observer closes before the writer it
 * watches): the last connection to close folds the log into the file and
 * removes it, and a ledger at rest is one file that can be copied alone.
 */
export function tracked(db: DatabaseSync): DatabaseSync {
  for (const [other, registration] of live) {
    if (!other.isOpen) {
      registration[Symbol.dispose]();
      live.delete(other);
    }
  }
  live.set(
    db,
    onExit(() => {
      if (db.isOpen) db.close();
    }),
  );
  return db;
}

/** Run `body`, turning an SQLite error into the refusal of `path` (a `what`, e.g. a ledger). */
export function sqliteStep<T>(
  path: string,
  what: Text,
  body: () => T,
): T {
  try {
    return body();
  } catch (error) {
    if (isSqliteError(error)) {
      // "unable to open database file" says nothing of why: say it if we can.
      if (/unable to open/.test(error.message)) {
        const why = openProblem(path);
        if (why !== null) throw why;
      }
      // A full disk says nothing against the file: say what it is.
      const words = isSqliteWriteFailure(error)
        ? STORE_MESSAGES.notWritten
        : STORE_MESSAGES.unusable;
      throw new LedgerUnusable(
        fill(words, {
          path: inert(path),
          what,
          why: sqliteWhy(firstLine(error)),
        }),
      );
    }
    throw error;
  }
}

function firstLine(error: Error): string {
  return error.message.split("\n")[0];
}

/**
 * Write-ahead logging with `synchronous=FULL`: each COMMIT syncs the log
 * before it returns, so a committed draft or receipt survives a power cut,
 * at one sync per commit instead of the rollback journal's several.
 * Measured with `deno task bench`; see the README.
 */
export function useDurableWal(db: DatabaseSync): void {
  try {
    db.exec("PRAGMA journal_mode=WAL");
  } catch (error) {
    // Another connection is switching the same file right now; it ends in WAL too.
    if (!isSqliteError(error) || !/locked|busy/.test(error.message)) {
      throw error;
    }
  }
  db.exec("PRAGMA synchronous=FULL");
}

/**
 * SQLite's `data_version` on `db`: it changes when another connection
 * commits, never for this connection's own commits. Reading it starts a
 * read of the file without parsing its schema.
 */
export function dataVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA data_version").get() as {
    data_version: number | bigint;
  };
  return Number(row.data_version);
}
