/**
 * Trust by provenance: what guardlab keeps beside a ledger of the user's
 * private folder to know, without reading the file, that nothing but
 * guardlab has written it since guardlab last checked or wrote it.
 *
 * The proof is the file's identity and state as the system reports them
 * (device, inode, birth time, size, modification time, change time, mode,
 * owner), kept in `lab.sqlite.checked` beside it, with the digest of the
 * schema it was checked against. The birth time binds the proof to the
 * file itself: a file made later has a later one, even where the system
 * hands the same inode number to a new file in the same second (ext4 does,
 * after an unlink), and nobody can set it. Where the system reports no
 * birth time, nothing is proven: every open checks in full. When guardlab has written the file, it sets the file's
 * modification time one millisecond back before it records the proof: any
 * later write, through any descriptor, sets it to the time of that write,
 * which is later still, so no write after the proof can leave the same
 * time behind (Deno reports the change time in whole seconds only; the
 * modification time in milliseconds). Only the file's owner or root may
 * set a file's times to a chosen value, and doing so changes its change
 * time. The argument, and what it does not cover, is in the sandbox
 * chapter (`docs/en/reference/sandbox.md`, "Trust by provenance").
 *
 * A proof that cannot be read, that is malformed, or that does not match
 * exactly only means "check the whole file": it can make guardlab slower,
 * never trust more.
 *
 * @module
 */
import { readUpToSync } from "../sandbox/read_bounded.ts";
import { PROOF_SUFFIX } from "../sandbox/safe_fs.ts";
import type { InspectSpec } from "./_inspect.ts";

/** The file's identity and state, as compared: every field must be equal. */
export interface FileState {
  /** The device that holds it. */
  dev: number;
  /** Its inode on that device. */
  ino: number;
  /** When it was made, in milliseconds: a new file with a reused inode has a later one. */
  birthMs: number;
  /** Its size in bytes. */
  size: number;
  /** Its modification time, in milliseconds. */
  mtimeMs: number;
  /** Its change time (inode), in milliseconds (Deno reports whole seconds). */
  ctimeMs: number;
  /** Its mode bits. */
  mode: number;
  /** Its owner. */
  uid: number;
}

/** A proof: the state guardlab last saw, and the schema it was checked against. */
export interface Proof extends FileState {
  /** The key of the schema the file holds (see {@linkcode schemaKey}). */
  schema: string;
}

/** The most a proof file may hold: it is read before it is trusted. */
const MAX_PROOF_BYTES = 1024;

/** Any access for group or others. */
const GROUP_OR_OTHER_ANY = 0o077;

const FIELDS = [
  "dev",
  "ino",
  "birthMs",
  "size",
  "mtimeMs",
  "ctimeMs",
  "mode",
  "uid",
] as const;

/**
 * `info` as a {@linkcode FileState}, or `null` where the system reports no
 * owner, mode, inode, birth time or times (Windows; a file system with no
 * birth time): there, nothing is proven.
 */
export function stateOf(info: Deno.FileInfo): FileState | null {
  const { dev, ino, size, mtime, ctime, mode, uid, birthtime } = info;
  if (
    ino === null || mode === null || uid === null || mtime === null ||
    ctime === null || birthtime === null || !info.isFile || info.nlink !== 1
  ) {
    return null;
  }
  return {
    dev,
    ino,
    birthMs: birthtime.getTime(),
    size,
    mtimeMs: mtime.getTime(),
    ctimeMs: ctime.getTime(),
    mode,
    uid,
  };
}

/** Whether `info` is exactly the state `known` recorded (and one name, a plain file). */
export function sameState(
  info: Deno.FileInfo,
  known: FileState,
): boolean {
  const now = stateOf(info);
  return now !== null && FIELDS.every((f) => now[f] === known[f]);
}

/** Whether a file or folder of `mode` keeps out group and others entirely. */
export function privateMode(mode: number | null): boolean {
  return mode !== null && (mode & GROUP_OR_OTHER_ANY) === 0;
}

const keys = new WeakMap<InspectSpec, string>();

/**
 * What the inspection checks (`spec`'s tables, optional tables, triggers,
 * value checks and schema), as a short key: a proof made against one
 * schema proves nothing about another (an older guardlab's, the policy
 * lab's). Two FNV-1a hashes of the text, not a cryptographic digest: the
 * key names a schema, it guards nothing (the proof file lies in a folder
 * only its owner can write), and SHA-256 in JavaScript would cost a start
 * about 4 ms.
 */
export function schemaKey(spec: InspectSpec): string {
  let key = keys.get(spec);
  if (key === undefined) {
    const { tables, rowChecks, optionalTables, triggers, badValues, create } =
      spec;
    const text = JSON.stringify([
      "guardlab provenance 2",
      tables,
      rowChecks,
      optionalTables ?? {},
      triggers,
      badValues,
      create,
    ]);
    key = `${text.length}-${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x01000193)}`;
    keys.set(spec, key);
  }
  return key;
}

/** FNV-1a over the UTF-16 code units of `text`, from `seed`, as 8 hex digits. */
function fnv1a(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The proof kept beside the database at `path`, or `null` when there is
 * none, or it is anything but a plain file of `uid`'s own with one name,
 * no larger than a proof, holding exactly a proof.
 */
export function readProof(path: string, uid: number): Proof | null {
  const name = path + PROOF_SUFFIX;
  const seen = lstatOrNull(name);
  if (
    seen === null || !seen.isFile || seen.nlink !== 1 || seen.uid !== uid ||
    seen.size > MAX_PROOF_BYTES
  ) {
    return null;
  }
  let text: string;
  try {
    using file = Deno.openSync(name, { read: true });
    const opened = file.statSync();
    if (opened.ino !== seen.ino || opened.dev !== seen.dev) return null;
    const { bytes, more } = readUpToSync(
      (b) => file.readSync(b),
      MAX_PROOF_BYTES,
      opened.size,
    );
    if (more) return null;
    text = new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
  return proofIn(text);
}

/** The proof `text` holds, or `null` unless it is exactly one. */
function proofIn(text: string): Proof | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return null;
  }
  const record = value as Record<string, unknown>;
  const names = Object.keys(record).sort().join(",");
  if (names !== [...FIELDS, "schema"].sort().join(",")) return null;
  if (typeof record.schema !== "string") return null;
  for (const f of FIELDS) {
    if (!Number.isSafeInteger(record[f])) return null;
  }
  return record as unknown as Proof;
}

/**
 * Keep `proof` beside the database at `path`. The proof file is written in
 * place, never through a link: a torn or half-written one reads as no
 * proof. Returns whether it was written.
 */
export function writeProof(path: string, proof: Proof): boolean {
  const name = path + PROOF_SUFFIX;
  const bytes = new TextEncoder().encode(JSON.stringify(proof) + "\n");
  const seen = lstatOrNull(name);
  let file: Deno.FsFile;
  try {
    if (seen === null) {
      // Made new, exclusively: a link planted at the name is never followed.
      file = Deno.openSync(name, { write: true, createNew: true, mode: 0o600 });
    } else {
      if (!seen.isFile || seen.nlink !== 1 || seen.uid !== proof.uid) {
        return false;
      }
      file = Deno.openSync(name, { write: true });
    }
  } catch {
    return false;
  }
  try {
    const opened = file.statSync();
    // The name was swapped between the look and the open: leave it.
    if (seen !== null && (opened.ino !== seen.ino || opened.dev !== seen.dev)) {
      return false;
    }
    file.truncateSync(0);
    let rest = bytes;
    while (rest.length > 0) rest = rest.subarray(file.writeSync(rest));
    return true;
  } catch {
    return false;
  } finally {
    file.close();
  }
}

/**
 * Seal the database at `path` (a plain file of `uid`'s own, at rest, that
 * guardlab has just written and closed) and return its proof: its
 * modification time is set one millisecond back through an open
 * descriptor, so that any later write leaves a later one, and the state
 * read back from that descriptor is what the proof records. `null` when
 * the file is not the one `seen` describes any more, or was written since
 * (a write between the look and the seal would otherwise be sealed too).
 */
export function seal(
  path: string,
  seen: FileState,
  schema: string,
): Proof | null {
  try {
    using file = Deno.openSync(path, { read: true });
    const opened = file.statSync();
    if (!sameState(opened, seen)) return null;
    const mtime = opened.mtime;
    if (mtime === null) return null;
    // Millisecond precision is what Deno reports; one back is strictly
    // earlier than any time a later write can leave.
    const earlier = new Date(mtime.getTime() - 1);
    file.utimeSync(opened.atime ?? earlier, earlier);
    const sealed = stateOf(file.statSync());
    if (sealed === null || sealed.mtimeMs !== earlier.getTime()) return null;
    return { ...sealed, schema };
  } catch {
    return null;
  }
}
