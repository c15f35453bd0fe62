/**
 * A database image as SQLite would read it, built from the bytes of the main
 * file and its write-ahead log, in memory: a view never opens the file by
 * path, so SQLite never creates, checkpoints or deletes a `-wal` or `-shm`
 * beside it. The log format is SQLite's own (https://sqlite.org/fileformat2.html,
 * "The WAL File Format"): a 32-byte header, then frames of a 24-byte header
 * and one page; a frame counts only while its salts match the header and its
 * running checksum holds, and only frames up to the last commit frame are
 * committed.
 *
 * @module
 */

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;

/** Why an image could not be built: the text says what is wrong with the bytes. */
export class BadImage extends Error {
  /** `page_size`: the log and the file disagree; `too_large`: over the bound. */
  readonly kind: "page_size" | "too_large";
  /** Build the error. */
  constructor(kind: "page_size" | "too_large") {
    super(
      kind === "page_size"
        ? "its -wal has another page size than the file"
        : "it is too large to check",
    );
    this.name = "BadImage";
    this.kind = kind;
  }
}

/** The page size a database header declares (offset 16; 1 means 65536). */
export function pageSizeOf(main: Uint8Array): number {
  const raw = (main[16] << 8) | main[17];
  return raw === 1 ? 65536 : raw;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing `s`. */
function checksum(
  view: DataView,
  offset: number,
  length: number,
  little: boolean,
  s: [number, number],
): [number, number] {
  let [s0, s1] = s;
  for (let i = offset; i < offset + length; i += 8) {
    s0 = (s0 + view.getUint32(i, little) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, little) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The committed frames of a write-ahead log: page number → page bytes (the
 * latest committed copy), and the database size in pages after the last
 * commit. An empty, short or foreign log, or one whose header checksum is
 * wrong, holds nothing committed (SQLite ignores it the same way).
 */
export function committedFrames(
  wal: Uint8Array,
): { pageSize: number; pages: Map<number, Uint8Array>; dbPages: number } {
  const none = { pageSize: 0, pages: new Map(), dbPages: 0 };
  if (wal.length < WAL_HEADER) return none;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0, false);
  if (magic !== MAGIC_LE && magic !== MAGIC_BE) return none;
  // The magic's low bit says in which byte order the checksums are summed.
  const little = magic === MAGIC_LE;
  const pageSize = view.getUint32(8, false);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1))) {
    return none;
  }
  let sum = checksum(view, 0, 24, little, [0, 0]);
  if (
    sum[0] !== view.getUint32(24, false) || sum[1] !== view.getUint32(28, false)
  ) {
    return none;
  }
  const salt1 = view.getUint32(16, false);
  const salt2 = view.getUint32(20, false);
  const pending = new Map<number, Uint8Array>();
  const pages = new Map<number, Uint8Array>();
  let dbPages = 0;
  for (
    let at = WAL_HEADER;
    at + FRAME_HEADER + pageSize <= wal.length;
    at += FRAME_HEADER + pageSize
  ) {
    const page = view.getUint32(at, false);
    const commitSize = view.getUint32(at + 4, false);
    if (
      page === 0 || view.getUint32(at + 8, false) !== salt1 ||
      view.getUint32(at + 12, false) !== salt2
    ) break;
    sum = checksum(view, at, 8, little, sum);
    sum = checksum(view, at + FRAME_HEADER, pageSize, little, sum);
    if (
      sum[0] !== view.getUint32(at + 16, false) ||
      sum[1] !== view.getUint32(at + 20, false)
    ) break;
    pending.set(
      page,
      wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize),
    );
    if (commitSize !== 0) {
      // A commit frame: everything up to here is committed.
      for (const [n, bytes] of pending) pages.set(n, bytes);
      pending.clear();
      dbPages = commitSize;
    }
  }
  return { pageSize, pages, dbPages };
}

/**
 * `size` zero bytes that a worker thread can read without a copy: the image
 * is checked on one (`_bounded.ts`).
 */
function sharedBytes(size: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(size));
}

/**
 * The database as SQLite would read it: `main` with the log's committed
 * pages laid over it, marked as a rollback-journal database (header bytes
 * 18–19 set to 1) so that `deserialize` accepts it, in shared memory.
 * `main` is not changed, unless `mine` says it is the caller's own read
 * buffer, already in shared memory: then, when no frame of the log
 * applies, it is marked in place and returned, and a file as large as a
 * view reads is held once, not twice.
 * Throws {@linkcode BadImage} when the log's page size disagrees with the
 * file's, or the image would exceed `maxBytes`.
 */
export function databaseImage(
  main: Uint8Array,
  wal: Uint8Array | null,
  maxBytes: number,
  mine = false,
): Uint8Array {
  const frames = wal === null ? null : committedFrames(wal);
  if (frames === null || frames.dbPages === 0) {
    const inPlace = mine && main.buffer instanceof SharedArrayBuffer;
    const image = inPlace ? main : sharedBytes(main.length);
    if (!inPlace) image.set(main);
    if (image.length >= 100) image[18] = image[19] = 1;
    return image;
  }
  const { pageSize, pages, dbPages } = frames;
  if (main.length >= 100 && pageSizeOf(main) !== pageSize) {
    throw new BadImage("page_size");
  }
  const size = dbPages * pageSize;
  if (size > maxBytes) throw new BadImage("too_large");
  const image = sharedBytes(size);
  image.set(main.subarray(0, Math.min(main.length, size)));
  for (const [page, bytes] of pages) {
    if (page <= dbPages) image.set(bytes, (page - 1) * pageSize);
  }
  image[18] = image[19] = 1;
  return image;
}
