/**
 * The proxy's record: JSON Lines, one line per message with its time, its
 * direction, its call number and what guardlab did with it, then the
 * effect of each write by key when an oracle was given. Bounded in lines
 * and bytes: past the bound messages are still forwarded, only no longer
 * recorded, and the record says so.
 *
 * @module
 */
import { setImmediate } from "node:timers";
import { fill, type Text } from "../base/i18n.ts";
import { jsonLinesIn } from "../base/jsonl.ts";
import {
  MAX_RECORD_BYTES,
  MAX_RECORD_LINES,
  MAX_RECORDED_MESSAGE_BYTES,
} from "./limits.ts";
import { PROXY_LOG as P } from "./proxy_messages.ts";

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
  | "held"
  | "not-json"
  | "too-long"
  | "too-deep";

/** One line of a record. */
export type RecordLine =
  | {
    readonly kind: "start";
    readonly guardlab_proxy: 1;
    readonly command: readonly string[];
    /** The wall-clock time of t = 0, in Unix milliseconds (an agent record uses the same clock). */
    readonly epoch_ms?: number;
    /** Whether the session was recorded with an oracle (absent in records made before it was noted). */
    readonly oracle?: boolean;
    /** Whether each write's answer waited for a read of its effect (--read-before-delivery). */
    readonly read_before_delivery?: boolean;
    /** The session's trace id (32 hex, random): the trace of calls that name no parent. */
    readonly trace?: string;
    /** `proxy --traceparent`: the parent of every call that names none. */
    readonly traceparent?: string;
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
    /** Set on what became of an answer that was held while its effect was read. */
    readonly after_read?: true;
    /** A call's span of the proxy's (16 hex, random), on its request's line. */
    readonly span?: string;
    /** The call's parent: the client's `params._meta.traceparent`, or the proxy's `--traceparent`. */
    readonly traceparent?: string;
    /** Whose the parent is: `client`, or `flag` (then the proxy added one to the request). */
    readonly traceparent_from?: "client" | "flag";
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
    /** Set when the read was made before that call's answer went on (--read-before-delivery). */
    readonly before_delivery?: number;
    /** Set when the read was made as the client cancelled that call (its timeout): the server is still there. */
    readonly after_cancel?: number;
  }
  | { readonly kind: "end"; readonly t: number; readonly truncated: boolean };

const encoder = new TextEncoder();

/** A message line as noted on the hot path: serialized later, off it. */
interface Noted {
  readonly t: number;
  readonly line: Omit<
    Extract<RecordLine, { kind: "msg" }>,
    "kind" | "t" | "msg" | "bytes"
  >;
  readonly text: string | null;
  readonly msg: unknown;
}

/**
 * Writes a record, line by line, within its bounds. A message is only noted
 * when it passes (its time taken then); the lines of one turn are
 * serialized, measured against the bounds and written in one write after
 * the turn, so the proxy forwards a message before any of its record costs
 * anything (setImmediate, not setTimeout(0), which waits a timer tick).
 */
export class RecordWriter {
  readonly #file: Deno.FsFile;
  #lines = 0;
  #bytes = 0;
  #full = false;
  #closed = false;
  #pending: (Noted | RecordLine)[] = [];
  #flushQueued = false;
  readonly #started = performance.now();
  /** Called once, when the bound is first reached (the proxy logs it). */
  onFull: () => void = () => {};
  readonly #onWriteFailed: (why: Text) => void;
  #failed = false;

  /**
   * Write into `file` (a new private file). `onWriteFailed` is called once,
   * with why, when a write of the record fails (a full disk: another user
   * can fill a shared `/tmp`): the record ends there, the session goes on.
   * It is given here, before the first line is queued, because that line
   * may be the first to fail.
   */
  constructor(file: Deno.FsFile, onWriteFailed: (why: Text) => void) {
    this.#file = file;
    this.#onWriteFailed = onWriteFailed;
  }

  /**
   * The wall-clock time of t = 0 in Unix milliseconds: the time origin of
   * this process plus its monotonic clock at the record's start, the clock
   * an agent record keeps too.
   */
  get origin(): number {
    return Math.round((performance.timeOrigin + this.#started) * 1000) / 1000;
  }

  /** Milliseconds since the record started. */
  now(): number {
    return Math.round((performance.now() - this.#started) * 10) / 10;
  }

  /** Whether the bound was reached (as of the last write). */
  get full(): boolean {
    return this.#full;
  }

  /**
   * Note a message that just passed: the message itself when small enough,
   * else its size; `at` is when it passed, when that was taken before now.
   */
  message(
    line: Noted["line"],
    text: string | null,
    msg?: unknown,
    at: number = this.now(),
  ): void {
    this.#queue({ t: at, line, text, msg });
  }

  /** Add one line (after the lines noted before it). */
  write(line: RecordLine): void {
    this.#queue(line);
  }

  #queue(entry: Noted | RecordLine): void {
    if (this.#closed) return;
    this.#pending.push(entry);
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      setImmediate(() => this.#flush());
    }
  }

  /** The bytes of one line, or null once the record is full. */
  #bytesOf(entry: Noted | RecordLine): Uint8Array | null {
    if (this.#full) return null;
    let line: RecordLine;
    if ("kind" in entry) line = entry;
    else {
      const bytes = entry.text === null ? 0 : encoder.encode(entry.text).length;
      line = {
        kind: "msg",
        t: entry.t,
        ...entry.line,
        bytes,
        ...(entry.msg !== undefined && bytes <= MAX_RECORDED_MESSAGE_BYTES
          ? { msg: entry.msg }
          : {}),
      };
    }
    const bytes = encoder.encode(JSON.stringify(line) + "\n");
    if (
      this.#lines + 2 > MAX_RECORD_LINES ||
      this.#bytes + bytes.length + 200 > MAX_RECORD_BYTES
    ) {
      this.#full = true;
      this.onFull();
      return null;
    }
    this.#lines++;
    this.#bytes += bytes.length;
    return bytes;
  }

  /** Serialize and write what is pending, in one write. */
  #flush(): void {
    this.#flushQueued = false;
    if (this.#pending.length === 0 || this.#closed) return;
    const parts: Uint8Array[] = [];
    let size = 0;
    for (const entry of this.#pending) {
      const bytes = this.#bytesOf(entry);
      if (bytes === null) continue;
      parts.push(bytes);
      size += bytes.length;
    }
    this.#pending = [];
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    this.#writeAll(all);
  }

  #writeAll(bytes: Uint8Array): void {
    if (this.#failed) return;
    try {
      while (bytes.length > 0) {
        bytes = bytes.subarray(this.#file.writeSync(bytes));
      }
    } catch (error) {
      // Thrown here, on a turn of its own, it would end the proxy and the
      // agent's session with it: a record that cannot be kept only ends.
      this.#failed = true;
      this.#full = true;
      this.#onWriteFailed(writeFailure(error));
    }
  }

  /** Close the record: what is pending, then its end line. */
  close(): void {
    if (this.#closed) return;
    this.#flush();
    this.#writeAll(
      encoder.encode(
        JSON.stringify({ kind: "end", t: this.now(), truncated: this.#full }) +
          "\n",
      ),
    );
    this.#closed = true;
    this.#file.close();
  }
}

/**
 * The lines of a record's text (bounded as a whole when it was read), or
 * the number of the first line that is not one.
 */
export function parseRecord(text: string): RecordLine[] | { bad: number } {
  const out: RecordLine[] = [];
  for (const line of jsonLinesIn(text, {})) {
    const bad = { bad: line.number };
    if ("problem" in line) return bad;
    const { value } = line;
    if (!["start", "msg", "effect", "end"].includes(value.kind as string)) {
      return bad;
    }
    if (out.length === 0 && value.kind !== "start") return bad;
    if (
      value.kind === "msg" &&
      (typeof value.dir !== "string" || typeof value.action !== "string" ||
        typeof value.t !== "number")
    ) {
      return bad;
    }
    if (value.kind === "effect" && !effectLineHolds(value)) return bad;
    if (
      value.kind === "start" &&
      !["oracle", "read_before_delivery"].every((f) =>
        value[f] === undefined || typeof value[f] === "boolean"
      )
    ) return bad;
    out.push(value as unknown as RecordLine);
  }
  return out.length === 0 ? { bad: 1 } : out;
}

/** Whether an effect line has the fields a view reads, of their types (a record is hostile input). */
function effectLineHolds(value: Record<string, unknown>): boolean {
  const call = (v: unknown) => typeof v === "number" && Number.isInteger(v);
  return typeof value.t === "number" && typeof value.tool === "string" &&
    typeof value.key === "string" && Array.isArray(value.calls) &&
    value.calls.every(call) &&
    (value.count === null || typeof value.count === "number") &&
    (value.before_delivery === undefined || call(value.before_delivery)) &&
    (value.after_cancel === undefined || call(value.after_cancel));
}

/** Why a write of the record failed, in words: a full disk named as such. */
function writeFailure(error: unknown): Text {
  const code = (error as { code?: unknown } | null)?.code;
  const why = code === "ENOSPC" ? P.noSpace : fill(P.writeFailed, {
    code: typeof code === "string" ? code : String(error),
  });
  return fill(P.recordUnwritable, { why });
}
