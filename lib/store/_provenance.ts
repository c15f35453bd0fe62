/**
 * Opening a ledger of the user's private folder by its provenance: when
 * guardlab's proof of the file (`_proof.ts`) holds, the file is opened by
 * name without reading it whole or inspecting it on the worker, since what
 * the inspection would find is what guardlab left there; and a writer that
 * guardlab has followed from a state it knows renews the proof when it
 * closes. Everything else (a `--ledger-file` elsewhere, a hand-in, a copy,
 * a file something else has written since) is inspected in full, as before.
 * The argument is in the sandbox chapter (`docs/en/reference/sandbox.md`,
 * "Trust by provenance").
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { isSqliteWriteFailure } from "../base/errors.ts";
import type { Text } from "../base/i18n.ts";
import { dirname, resolve } from "../base/path.ts";
import { COMPANIONS, currentUid } from "../sandbox/safe_fs.ts";
import { readUpToSync } from "../sandbox/read_bounded.ts";
import { inPrivateLedgerFolder } from "../sandbox/sandbox.ts";
import {
  dataVersion,
  sqliteStep,
  tracked,
  useDurableWal,
} from "./_connection.ts";
import {
  type FileState,
  privateMode,
  type Proof,
  readProof,
  sameState,
  schemaKey,
  seal,
  stateOf,
  writeProof,
} from "./_proof.ts";
import type { InspectSpec } from "./_inspect.ts";

/** What opening on a proof needs of a schema: what it checks, and the file's name in messages. */
export interface ProvenSpec extends InspectSpec {
  /** What the file is called in messages. */
  what: Text;
}

/** How a ledger is opened on its proof (a part of `db.ts`'s `OpenOptions`). */
export interface ProvenOptions {
  /** A view (`read`) or a writer (`write`). */
  mode: "read" | "observe" | "write";
  /** Folders the path is checked from. */
  trusted: readonly string[];
  /** For tests: called once the proof matched, before SQLite opens the name. */
  beforeProvenOpen?: () => void;
}

/** How many opens of each kind this process made (tests read it). */
export interface OpenCounts {
  /** Existing files read whole and inspected on the worker. */
  readonly inspected: number;
  /** Ledgers of the private folder opened on their proof of provenance. */
  readonly proven: number;
}

const counts = { inspected: 0, proven: 0 };

/** Count one file inspected in full (`db.ts` calls it for every inspection). */
export function countInspection(): void {
  counts.inspected++;
}

/**
 * How many existing files this process has inspected in full, and how many
 * it opened on their proof of provenance instead: what a test observes to
 * know which way a file was opened.
 */
export function openCounts(): OpenCounts {
  return { ...counts };
}

/**
 * Whether provenance applies to `path`: a file of a named ledger in the
 * private folder (`inPrivateLedgerFolder`) whose folder keeps group and
 * others out entirely, so that no other user can open it by name.
 */
export function ownFile(path: string): boolean {
  if (!inPrivateLedgerFolder(path)) return false;
  const folder = lstatOrNull(dirname(resolve(path)));
  return folder !== null && folder.isDirectory && privateMode(folder.mode);
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/** Whether none of SQLite's companion files lies beside `path`. */
function atRest(path: string): boolean {
  return COMPANIONS.every((c) => lstatOrNull(path + c) === null);
}

/** The state of `path` when it is at rest and private to its owner, else `null`. */
export function restingState(path: string): FileState | null {
  if (!atRest(path)) return null;
  const info = lstatOrNull(path);
  return info === null || !privateMode(info.mode) ? null : stateOf(info);
}

/** Whether the log beside `path` holds no frame (empty or absent) and no journal lies there. */
function logEmpty(path: string): boolean {
  const log = lstatOrNull(path + "-wal");
  return (log === null || log.size === 0) &&
    lstatOrNull(path + "-journal") === null;
}

/**
 * The ledger at `path` opened on its proof of provenance, without reading
 * it whole or inspecting it, or `null` when the proof does not hold (then
 * it is inspected in full, as every other file). It holds when guardlab's
 * proof of the file (`path.checked`, made against this schema) matches the
 * open descriptor exactly; nothing lies beside the file; once SQLite has
 * opened it by name, the name still leads to that same unchanged file;
 * and no other connection's commit waits in its log. A writer's proof is
 * renewed when it closes ({@linkcode closeDatabase}); a view reads one
 * snapshot, taken once that was known, and writes nothing. `connect` opens
 * the name (`db.ts` makes every connection).
 */
export function openProven(
  path: string,
  spec: ProvenSpec,
  options: ProvenOptions,
  connect: () => DatabaseSync,
): DatabaseSync | null {
  const uid = currentUid(options.trusted[0]);
  if (uid === null) return null;
  const proof = readProof(path, uid);
  if (proof === null || proof.schema !== schemaKey(spec) || !atRest(path)) {
    return null;
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return null;
  }
  try {
    // The descriptor, not the name: a file swapped in before the open is
    // another inode, a copy with the same size and times another inode,
    // a write since the proof another modification time.
    if (!sameState(file.statSync(), proof) || !privateMode(proof.mode)) {
      return null;
    }
    options.beforeProvenOpen?.();
    const db = sqliteStep(path, spec.what, () => tracked(connect()));
    try {
      // SQLite opened the name; the name still leads to the file that
      // matched, unchanged (renaming it away and back changes its change
      // time): SQLite holds that file. Nothing has read its schema yet.
      const still = lstatOrNull(path);
      if (
        still === null || !sameState(still, proof) ||
        !sameState(file.statSync(), proof)
      ) {
        db.close();
        return null;
      }
      db.exec("PRAGMA temp_store=MEMORY");
      if (options.mode === "write") useDurableWal(db);
      else {
        // A view: nothing is written, and every query reads one snapshot.
        db.exec("PRAGMA query_only=1");
        db.exec("BEGIN");
      }
      const version = dataVersion(db);
      // No other connection committed before the read began.
      if (!logEmpty(path) || !sameState(file.statSync(), proof)) {
        db.close();
        return null;
      }
      if (options.mode === "write") {
        followed.set(db, { path, schema: proof.schema, version, proof });
      }
      counts.proven++;
      return db;
    } catch (error) {
      db.close();
      // A view that cannot make SQLite's shared-memory index (a classmate
      // filled the disk) reads the file into memory instead, as any other
      // file is read, and shows it.
      if (options.mode === "read" && isSqliteWriteFailure(error)) return null;
      throw error;
    }
  } finally {
    file.close();
  }
}

/** A writer whose file guardlab knows all of: what it needs to renew the proof at close. */
interface Followed {
  /** The database file. */
  path: string;
  /** The digest of its schema. */
  schema: string;
  /** `data_version` when the known state was read: another connection's commit changes it. */
  version: number;
  /** The proof it was opened on, if it was. */
  proof?: Proof;
}

const followed = new WeakMap<DatabaseSync, Followed>();

/**
 * Follow writer `db` of `path` from a state guardlab knows: the file it
 * has just created (`known` null), or the file it has just inspected
 * (`known`), if the file SQLite opened is still that one and no other
 * connection's commit waits in its log.
 */
export function follow(
  db: DatabaseSync,
  path: string,
  spec: ProvenSpec,
  version: number,
  known: FileState | null,
): void {
  if (known !== null) {
    const now = lstatOrNull(path);
    if (now === null || !sameState(now, known) || !logEmpty(path)) return;
  }
  followed.set(db, { path, schema: schemaKey(spec), version });
}

/**
 * The header bytes SQLite rewrites when a connection switches a file from
 * a rollback journal to write-ahead logging, as [from, to) ranges: the
 * format's read and write versions (18–19), the change counter (24–27),
 * the version-valid-for number and the version of SQLite that wrote it
 * (92–99). https://sqlite.org/fileformat2.html#the_database_header
 */
const SWITCH_WRITES: readonly [number, number][] = [[18, 20], [24, 28], [
  92,
  100,
]];

/**
 * The state of `path` after this process's own connection switched it from
 * a rollback journal to write-ahead logging, when nothing else has written
 * it since it was checked: the same file as `known` (device, inode, mode,
 * owner, size), holding byte for byte the `image` that was checked but for
 * the header bytes the switch rewrites, and unchanged while it was
 * compared. Else `null` (then the writer renews no proof). A file another
 * program made in rollback mode is so sealed by its first writer, not its
 * second: the switch itself moved its modification time.
 */
export function stateAfterSwitch(
  path: string,
  image: Uint8Array,
  known: FileState,
): FileState | null {
  const same = (info: Deno.FileInfo) => {
    const now = stateOf(info);
    return now !== null && now.dev === known.dev && now.ino === known.ino &&
      now.birthMs === known.birthMs &&
      now.mode === known.mode && now.uid === known.uid &&
      now.size === known.size && now.size === image.length;
  };
  try {
    using file = Deno.openSync(path, { read: true });
    const before = file.statSync();
    if (!same(before)) return null;
    // Read whole, as the check read it (no more than it held): compared
    // with it byte for byte.
    const { bytes, more } = readUpToSync(
      (b) => file.readSync(b),
      image.length,
      image.length,
    );
    if (more || bytes.length !== image.length) return null;
    for (let k = 0; k < bytes.length; k++) {
      if (
        bytes[k] !== image[k] &&
        !SWITCH_WRITES.some(([a, b]) => k >= a && k < b)
      ) return null;
    }
    const after = file.statSync();
    if (
      !same(after) || after.mtime?.getTime() !== before.mtime?.getTime()
    ) return null;
    return stateOf(after);
  } catch {
    return null;
  }
}

/**
 * Close `db`. A writer guardlab has followed from a known state renews the
 * proof of its file, when no other connection committed meanwhile, this
 * was the last connection (SQLite folded the log into the file and
 * removed it), and the file is still a private plain file of its owner.
 * Every other close is a plain close.
 */
export function closeDatabase(db: DatabaseSync): void {
  if (!db.isOpen) return;
  const known = followed.get(db);
  followed.delete(db);
  let alone = false;
  if (known !== undefined && !db.isTransaction) {
    try {
      alone = dataVersion(db) === known.version;
    } catch {
      alone = false;
    }
  }
  db.close();
  if (known === undefined || !alone || !atRest(known.path)) return;
  const info = lstatOrNull(known.path);
  const now = info === null ? null : stateOf(info);
  if (now === null || !privateMode(now.mode)) return;
  // Nothing written since the proof it was opened on: that proof stands.
  if (known.proof !== undefined && sameState(info!, known.proof)) return;
  const proof = seal(known.path, now, known.schema);
  if (proof !== null) writeProof(known.path, proof);
}
