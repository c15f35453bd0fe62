/**
 * A channel to an MCP server: one JSON-RPC message at a time each way, over
 * a child process's stdin and stdout, read with a bound on every message.
 * What is not a message (a line that is not JSON, a line past the bound)
 * is reported as a problem and goes no further; the child's exit closes the
 * channel. The child runs with the user's own rights: Deno's sandbox covers
 * guardlab, not the process it starts.
 *
 * @module
 */
import config from "../../deno.json" with { type: "json" };
import { linesOf } from "../base/lines.ts";
import { isPlainRecord } from "../base/json.ts";
import { MAX_MESSAGE_BYTES } from "./limits.ts";

/** Something the server wrote that is not a message. */
export type ChannelProblem =
  | { readonly kind: "not-json"; readonly line: number }
  | { readonly kind: "too-long"; readonly line: number }
  | { readonly kind: "not-message"; readonly line: number };

/** Why a channel closed. */
export type CloseReason =
  | { readonly kind: "exited"; readonly code: number | null }
  | { readonly kind: "closed" };

/** One JSON-RPC message. */
export type Message = Record<string, unknown>;

/** A message channel to one server. */
export interface Channel {
  /** Send one message. */
  send(message: Message): void;
  /** Called with each message the server sends. */
  onmessage?: (message: Message) => void;
  /** Called with what the server wrote that is not a message. */
  onproblem?: (problem: ChannelProblem) => void;
  /** Called once when the channel closes (the server exited, or `close`). */
  onclose?: (why: CloseReason) => void;
  /** The server's last lines on stderr (bounded), for a one-line diagnosis. */
  stderrTail(): string[];
  /** Close the channel: end the server's input, then stop it. */
  close(): Promise<void>;
}

/**
 * The environment a started server gets, when set: the engineer grant's
 * env list for this system (the MCP SDK's own default list), read from
 * deno.json, the one place the grant is stated. Its pattern
 * `GUARDLAB_HEADER_*` is guardlab's own (the values of `--header-env`)
 * and never reaches the child.
 */
export const CHILD_ENV: readonly string[] = config.permissions[
  Deno.build.os === "windows"
    ? "guardlab-engineer-windows"
    : "guardlab-engineer"
].env.filter((name) => !name.endsWith("*"));

/** The variables of {@linkcode CHILD_ENV} this process may read and has set. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of CHILD_ENV) {
    if (
      Deno.permissions.querySync({ name: "env", variable: name }).state !==
        "granted"
    ) continue;
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Parse one line as a JSON-RPC message, or say what it is instead. */
export function messageOf(
  text: string,
): Message | "not-json" | "not-message" {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not-json";
  }
  if (!isPlainRecord(value) || value.jsonrpc !== "2.0") return "not-message";
  return value;
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
 * child gets only {@linkcode CHILD_ENV} of this environment; its stderr is
 * kept as a bounded tail.
 */
export function spawnChannel(
  command: string,
  args: readonly string[],
): Channel {
  const child = new Deno.Command(command, {
    args: [...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: childEnv(),
  }).spawn();
  const writer = child.stdin.getWriter();
  const tail: string[] = [];
  let closed = false;
  // Messages sent in one turn leave in one write, as a client that sends
  // several calls at once puts them on the pipe together.
  let batch: string[] = [];
  const flush = () => {
    const text = batch.join("");
    batch = [];
    if (!closed) writer.write(encoder.encode(text)).catch(() => {});
  };
  const channel: Channel = {
    send(message) {
      if (closed) return;
      if (batch.length === 0) queueMicrotask(flush);
      batch.push(JSON.stringify(message) + "\n");
    },
    stderrTail: () => [...tail],
    async close() {
      if (!closed) {
        await writer.close().catch(() => {});
      }
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => {
          const t = setTimeout(() => resolve(false), 2000);
          child.status.finally(() => clearTimeout(t));
        }),
      ]);
      if (!exited) {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        await child.status;
      }
    },
  };
  pumpLines(child.stderr, (text) => {
    tail.push(text.length > 200 ? text.slice(0, 200) + "…" : text);
    if (tail.length > 20) tail.shift();
  }, () => {});
  const reading = pumpLines(
    child.stdout,
    (text, line) => {
      const message = messageOf(text);
      if (typeof message === "string") {
        channel.onproblem?.({ kind: message, line });
      } else channel.onmessage?.(message);
    },
    (line) => channel.onproblem?.({ kind: "too-long", line }),
  );
  Promise.all([reading, child.status]).then(([, status]) => {
    closed = true;
    channel.onclose?.({
      kind: "exited",
      code: status.signal ? null : status.code,
    });
  });
  return channel;
}
