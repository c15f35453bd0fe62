/**
 * The client end of the wire: a channel to an MCP server, one JSON-RPC
 * message at a time each way, and its stdio transport, over a child
 * process's stdin and stdout, read with a bound on every message. What is
 * not a message (a line that is not JSON, a line past the bound) is
 * reported as a problem and goes no further; a message nested past the
 * depth bound is read no further and noted (with the id it had, so the
 * request it answers gets no answer it could use); the child's exit closes
 * the channel. The child runs with the user's own rights: Deno's sandbox
 * covers guardlab, not the process it starts.
 *
 * @module
 */
import { linesOf } from "../base/lines.ts";
import { MAX_DEPTH, MAX_MESSAGE_BYTES } from "./limits.ts";
import { type Id, type Message, parseMessage } from "./message.ts";
import { drainAfterExit, startServerProcess } from "./server_process.ts";

export type { Message } from "./message.ts";

/** Something the server wrote that is not a message. */
export type ChannelProblem =
  | { readonly kind: "not-json"; readonly line: number }
  | { readonly kind: "too-long"; readonly line: number }
  | { readonly kind: "not-message"; readonly line: number };

/**
 * Something a server did that guardlab noted and set aside, which is no
 * fault of the protocol's:
 * - `discarded-body`: over Streamable HTTP, a body on the answer to a
 *   notification (the MCP SDK's client discards it unread, and so does
 *   guardlab);
 * - `too-deep`: a message nested deeper than guardlab reads ({@linkcode MAX_DEPTH}
 *   levels), read no further; `id` is the id it had, so the request it
 *   answers is known to have got no answer guardlab could read.
 */
export type ChannelNotice =
  | {
    readonly kind: "discarded-body";
    /** The HTTP status it came with. */
    readonly status: number;
    /** The notification it answered (guardlab's own: `notifications/…`). */
    readonly method: string;
  }
  | {
    readonly kind: "too-deep";
    /** The bound it passed. */
    readonly max: number;
    /** The id it had, when it had one. */
    readonly id: Id | null;
  };

/** Why a channel closed. */
export type CloseReason =
  | { readonly kind: "exited"; readonly code: number | null }
  | { readonly kind: "closed" };

/** A message channel to one server. */
export interface Channel {
  /** Send one message. */
  send(message: Message): void;
  /** Called with each message the server sends. */
  onmessage?: (message: Message) => void;
  /** Called with what the server wrote that is not a message. */
  onproblem?: (problem: ChannelProblem) => void;
  /** Called with what the server did that is noted, never judged. */
  onnotice?: (notice: ChannelNotice) => void;
  /** Called once when the channel closes (the server exited, or `close`). */
  onclose?: (why: CloseReason) => void;
  /**
   * guardlab no longer waits for the answer to request `id`: whatever still
   * reads for it (an HTTP body) stops. Optional: stdio has nothing per request.
   */
  forget?(id: number): void;
  /** The server's last lines on stderr (bounded), for a one-line diagnosis. */
  stderrTail(): string[];
  /**
   * What speaks at the other end when it is not an MCP server: `http-api`,
   * an HTTP API's write endpoint presented as a tool (`http_api.ts`).
   */
  readonly speaks?: "http-api";
  /**
   * Close the channel, every step bounded: end the server's input, give it
   * a grace to exit, end its process group, stop reading its pipes.
   */
  close(): Promise<void>;
  /**
   * End the server at once, as a crash would (SIGKILL to its process
   * group; an in-process example is dropped), then close the channel.
   */
  kill(): Promise<void>;
}

/**
 * Hand `text`, one message's text as it came off the wire, to `channel`:
 * a message to `onmessage`, a message nested past the depth bound to
 * `onnotice` (read no further), anything else to `onproblem` (`line` is
 * where it came, 0 when it came otherwise).
 */
export function receiveText(channel: Channel, text: string, line = 0): void {
  const parsed = parseMessage(text);
  if ("message" in parsed) channel.onmessage?.(parsed.message);
  else if (parsed.refused === "too-deep") {
    channel.onnotice?.({ kind: "too-deep", max: MAX_DEPTH, id: parsed.id });
  } else channel.onproblem?.({ kind: parsed.refused, line });
}

const encoder = new TextEncoder();

/** Lines of `stream`, each handed to `onLine`; a line past `maxBytes` to `onTooLong`. */
export async function pumpLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (text: string, number: number) => void,
  onTooLong: (number: number) => void,
  maxBytes: number = MAX_MESSAGE_BYTES,
): Promise<void> {
  try {
    for await (const line of linesOf(stream, maxBytes)) {
      if ("tooLong" in line) onTooLong(line.number);
      else if (line.text.trim() !== "") onLine(line.text, line.number);
    }
  } catch {
    // A pipe the other side broke is the end of its output.
  }
}

/**
 * Start `command` with `args` and speak MCP over its stdin and stdout. The
 * child gets only the grant's env list of this environment (see
 * `_server_process.ts`); its stderr is kept as a bounded tail. The channel
 * closes when the server exits and what it wrote is read, or a bounded
 * grace after it exits: a process it started may hold its stdout open.
 */
export function spawnChannel(
  command: string,
  args: readonly string[],
): Channel {
  const server = startServerProcess(command, args, "piped");
  const tail: string[] = [];
  let closed = false;
  // Messages sent in one turn leave in one write, as a client that sends
  // several calls at once puts them on the pipe together.
  let batch: string[] = [];
  const flush = () => {
    const text = batch.join("");
    batch = [];
    if (!closed) server.write(encoder.encode(text));
  };
  const channel: Channel = {
    send(message) {
      if (closed) return;
      if (batch.length === 0) queueMicrotask(flush);
      batch.push(JSON.stringify(message) + "\n");
    },
    stderrTail: () => [...tail],
    async close() {
      await server.end();
      await ended;
    },
    async kill() {
      closed = true;
      await server.kill();
      await ended;
    },
  };
  pumpLines(server.stderr!, (text) => {
    tail.push(text.length > 200 ? text.slice(0, 200) + "…" : text);
    if (tail.length > 20) tail.shift();
  }, () => {});
  const reading = pumpLines(
    server.stdout,
    (text, line) => receiveText(channel, text, line),
    (line) => channel.onproblem?.({ kind: "too-long", line }),
  );
  const ended = drainAfterExit(server, reading).then(async () => {
    closed = true;
    // Whatever still holds the pipes after the server exited is not read.
    server.stopReading();
    const code = await server.exited;
    channel.onclose?.({ kind: "exited", code });
  });
  return channel;
}
