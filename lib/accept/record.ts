/**
 * The proxy's record: JSON Lines, one line per message with its time, its
 * direction, its call number and what guardlab did with it, then the
 * effect of each write by key when an oracle was given. Bounded in lines
 * and bytes: past the bound messages are still forwarded, only no longer
 * recorded, and the record says so.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import {
  MAX_RECORD_BYTES,
  MAX_RECORD_LINES,
  MAX_RECORDED_MESSAGE_BYTES,
} from "./limits.ts";

/** Which way a message went. */
export type Direction =
  | "client>server"
  | "server>client"
  | "guardlab>server"
  | "guardlab>client"
  | "server>guardlab";

/** What guardlab did with a message. */
export type Action =
  | "forwarded"
  | "dropped"
  | "delayed"
  | "delivered"
  | "cancelled"
  | "copy"
  | "late"
  | "not-json"
  | "too-long";

/** One line of a record. */
export type RecordLine =
  | {
    readonly kind: "start";
    readonly guardlab_proxy: 1;
    readonly command: readonly string[];
  }
  | {
    readonly kind: "msg";
    readonly t: number;
    readonly dir: Direction;
    readonly action: Action;
    readonly call?: number;
    readonly tool?: string;
    readonly ms?: number;
    readonly copies?: number;
    readonly bytes: number;
    readonly msg?: unknown;
  }
  | {
    readonly kind: "effect";
    readonly t: number;
    readonly tool: string;
    readonly key: string;
    readonly calls: readonly number[];
    readonly count: number | null;
  }
  | { readonly kind: "end"; readonly t: number; readonly truncated: boolean };

const encoder = new TextEncoder();

/** Writes a record, line by line, within its bounds. */
export class RecordWriter {
  readonly #file: Deno.FsFile;
  #lines = 0;
  #bytes = 0;
  #full = false;
  readonly #started = performance.now();

  /** Write into `file` (a new private file). */
  constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /** Milliseconds since the record started. */
  now(): number {
    return Math.round((performance.now() - this.#started) * 10) / 10;
  }

  /** Whether the bound was reached. */
  get full(): boolean {
    return this.#full;
  }

  /** Add a message line: the message itself when small enough, else its size. */
  message(
    line: Omit<
      Extract<RecordLine, { kind: "msg" }>,
      "kind" | "t" | "msg" | "bytes"
    >,
    text: string | null,
    msg?: unknown,
  ): boolean {
    const bytes = text === null ? 0 : encoder.encode(text).length;
    return this.write({
      kind: "msg",
      t: this.now(),
      ...line,
      bytes,
      ...(msg !== undefined && bytes <= MAX_RECORDED_MESSAGE_BYTES
        ? { msg }
        : {}),
    });
  }

  /** Add one line; false once the record is full. */
  write(line: RecordLine): boolean {
    if (this.#full) return false;
    const bytes = encoder.encode(JSON.stringify(line) + "\n");
    if (
      this.#lines + 2 > MAX_RECORD_LINES ||
      this.#bytes + bytes.length + 200 > MAX_RECORD_BYTES
    ) {
      this.#full = true;
      return false;
    }
    this.#writeAll(bytes);
    this.#lines++;
    this.#bytes += bytes.length;
    return true;
  }

  #writeAll(bytes: Uint8Array): void {
    while (bytes.length > 0) {
      bytes = bytes.subarray(this.#file.writeSync(bytes));
    }
  }

  /** Close the record with its end line. */
  close(): void {
    this.#writeAll(
      encoder.encode(
        JSON.stringify({ kind: "end", t: this.now(), truncated: this.#full }) +
          "\n",
      ),
    );
    this.#file.close();
  }
}

/** The lines of a record's text; `null` with the line number where it is not one. */
export function parseRecord(text: string): RecordLine[] | { bad: number } {
  const out: RecordLine[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { bad: i + 1 };
    }
    if (
      !isPlainRecord(value) ||
      !["start", "msg", "effect", "end"].includes(value.kind as string)
    ) {
      return { bad: i + 1 };
    }
    if (out.length === 0 && value.kind !== "start") return { bad: i + 1 };
    if (
      value.kind === "msg" &&
      (typeof value.dir !== "string" || typeof value.action !== "string" ||
        typeof value.t !== "number")
    ) {
      return { bad: i + 1 };
    }
    out.push(value as unknown as RecordLine);
  }
  return out.length === 0 ? { bad: 1 } : out;
}
