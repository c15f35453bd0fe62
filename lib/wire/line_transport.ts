/**
 * The stdio server end of the wire (`guardlab mcp`'s transport), on
 * guardlab's own bounded line reader and the one message parser. The SDK's
 * `StdioServerTransport` buffers up to 10 MiB and then closes the
 * connection, and it drops a line that is not JSON without a reply. This
 * one answers a line that is not JSON with `-32700`, a line that is JSON but
 * not a JSON-RPC message with `-32600`, and a line longer than the limit
 * with `-32600` (its bytes are discarded as they arrive), a message nested
 * deeper than {@linkcode MAX_DEPTH} with `-32600` before its schema is checked; then it
 * reads on. It reads no further while the server says a message must wait
 * (`admit`): the rest stays in the client's pipe. The SDK still does all of
 * the JSON-RPC: requests, notifications, errors.
 *
 * @module
 */
import { linesOf, MAX_LINE_BYTES } from "../base/lines.ts";
import { MAX_DEPTH } from "./limits.ts";
import {
  errorResponse,
  type Id,
  idOf,
  INVALID_REQUEST,
  type Message,
  PARSE_ERROR,
  parseJson,
} from "./message.ts";

/** The part of the SDK's `Transport` interface this transport fills. */
export interface LineTransportOptions {
  /** The bytes to read, one JSON-RPC message per line. */
  input: ReadableStream<Uint8Array>;
  /** Write one line (the transport adds no newline of its own). */
  write(line: string): void;
  /** Whether a parsed value is a JSON-RPC message (the SDK's own schema). */
  isMessage(value: unknown): boolean;
  /** The longest line read; longer ones are refused. */
  maxBytes?: number;
  /**
   * Awaited when the input ends, before the close is reported: the server
   * lets the calls in flight finish and answer (a client that closes its
   * end first still reads the replies).
   */
  drain?(): Promise<void>;
  /**
   * Look at a JSON-RPC message before the SDK does: an error returned here
   * is the reply (with the message's id), and the message goes no further.
   */
  screen?(value: unknown): { code: number; message: string } | null;
  /** Give a parsed message a second reading of its line (e.g. of its numbers). */
  reparse?(text: string, value: unknown): unknown;
  /**
   * Awaited before a message is handed on, when it returns a promise: the
   * transport reads nothing more until it settles (backpressure).
   */
  admit?(value: unknown): Promise<void> | undefined;
}

/**
 * A `Transport` (in the SDK's sense) over lines of `input`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineTransport } from "./line_transport.ts";
 * const written: string[] = [];
 * const t = new LineTransport({
 *   input: new Blob(["not json\n"]).stream(),
 *   write: (line) => written.push(line),
 *   isMessage: () => true,
 * });
 * const closed = new Promise<void>((resolve) => (t.onclose = resolve));
 * await t.start();
 * await closed;
 * assert.equal(JSON.parse(written[0]).error.code, -32700);
 * ```
 */
export class LineTransport {
  /** Called when the input ends or the transport is closed. */
  onclose?: () => void;
  /** Called with a problem the SDK may want to log. */
  onerror?: (error: Error) => void;
  /** Called with each JSON-RPC message read. */
  onmessage?: (message: Message) => void;
  readonly #options: LineTransportOptions;
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #closed = false;

  /** Build the transport; nothing is read before {@linkcode start}. */
  constructor(options: LineTransportOptions) {
    this.#options = options;
  }

  /** Start reading in the background. */
  start(): Promise<void> {
    const reader = this.#options.input.getReader();
    this.#reader = reader;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          // A pipe the client broke is the end of the input.
          controller.close();
        }
      },
    });
    this.#pump(stream)
      .then(() => this.#options.drain?.())
      .catch((error) => this.onerror?.(error))
      .finally(() => this.close());
    return Promise.resolve();
  }

  async #pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const limit = this.#options.maxBytes ?? MAX_LINE_BYTES;
    for await (const line of linesOf(stream, limit)) {
      if (this.#closed) return;
      if ("tooLong" in line) {
        this.#reply(
          null,
          INVALID_REQUEST,
          `message longer than ${limit} bytes`,
        );
        continue;
      }
      if (line.text.trim() === "") continue;
      // JSON.parse itself does not recurse; the schema check and a second
      // reading would. A message nested too deep is refused here, with the
      // id it had.
      const parsed = parseJson(line.text, MAX_DEPTH);
      if ("refused" in parsed) {
        if (parsed.refused === "not-json") {
          this.#reply(null, PARSE_ERROR, "Parse error: not JSON");
        } else {
          this.#reply(
            parsed.id,
            INVALID_REQUEST,
            `Invalid Request: nested deeper than ${MAX_DEPTH}`,
          );
        }
        continue;
      }
      let value = parsed.value;
      if (!this.#options.isMessage(value)) {
        this.#reply(
          idOf(value),
          INVALID_REQUEST,
          "Invalid Request: not a JSON-RPC 2.0 message",
        );
        continue;
      }
      try {
        const refused = this.#options.screen?.(value) ?? null;
        if (refused !== null) {
          this.#reply(idOf(value), refused.code, refused.message);
          continue;
        }
        if (this.#options.reparse) {
          value = this.#options.reparse(line.text, value);
        }
      } catch {
        // A second reading that cannot finish (e.g. nesting too deep for a
        // recursive reviver) refuses this message, not the connection.
        this.#reply(
          idOf(value),
          INVALID_REQUEST,
          "Invalid Request: nested too deeply",
        );
        continue;
      }
      // While the server has no room, nothing more is read: the client's
      // pipe holds the rest.
      const room = this.#options.admit?.(value);
      if (room !== undefined) await room;
      if (this.#closed) return;
      try {
        this.onmessage?.(value as Message);
      } catch (error) {
        this.onerror?.(
          error instanceof Error ? error : new Error(String(error)),
        );
      }
    }
  }

  #reply(id: Id | null, code: number, message: string): void {
    this.#options.write(JSON.stringify(errorResponse(id, code, message)));
  }

  /** Write one message as one line. */
  send(message: unknown): Promise<void> {
    if (!this.#closed) this.#options.write(JSON.stringify(message));
    return Promise.resolve();
  }

  /** Stop reading and report the close once. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#reader?.cancel().catch(() => {});
    this.onclose?.();
    return Promise.resolve();
  }
}
