/**
 * The errors every layer may meet: a refusal to touch a path or file
 * (always exit 4 with one line) and a ledger that is not usable, and the
 * test for an error that came from SQLite. The labs' own typed errors live
 * with the labs, in `lib/timing/errors.ts`.
 *
 * @module
 */
import type { Text } from "./i18n.ts";
import { TextError } from "./text_error.ts";

/**
 * guardlab will not touch this path or file: a link, a folder another user
 * can change, a file that is not a ledger. Always exit 4 with one line, and
 * the path is left exactly as it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LedgerUnusable, Refused } from "../mod.ts";
 *
 * assert.ok(new LedgerUnusable("x is not a ledger") instanceof Refused);
 * ```
 */
export class Refused extends TextError {
  /** Build the refusal; `message` is the one line the user reads. */
  constructor(message: Text | string) {
    super(message);
    this.name = "Refused";
  }
}

/**
 * A ledger file that exists but is not a usable guardlab ledger.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab, LedgerUnusable } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/notes.sqlite`, "not a database at all");
 * assert.throws(() => Lab.open(`${dir}/notes.sqlite`), LedgerUnusable);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class LedgerUnusable extends Refused {
  /** Build the refusal for `path`. */
  constructor(message: Text | string) {
    super(message);
    this.name = "LedgerUnusable";
  }
}

/** Whether `error` came from SQLite through `node:sqlite`. */
export function isSqliteError(error: unknown): error is Error {
  return error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_SQLITE_ERROR";
}

/**
 * Whether `error` is SQLite failing to write: its words for a full disk,
 * and for an I/O error (what a full tmpfs gives when SQLite sizes its
 * `-shm`). Nothing about the file itself: it may be whole and usable.
 */
export function isSqliteWriteFailure(error: unknown): error is Error {
  return isSqliteError(error) &&
    /^(disk I\/O error|database or disk is full)/.test(error.message);
}
