/**
 * A channel to an MCP server over Streamable HTTP: each message is POSTed,
 * and the answer comes back as JSON or as a server-sent event stream, read
 * with the same bound on every message as stdio. The server's session id
 * is kept and sent back; `close` ends the session and every request still
 * open. The engineer grant reaches this machine's loopback only; another
 * host is reached only over https, and only by a guardlab run with a grant
 * that names that host (never by default). Extra headers (a bearer token)
 * go with every request and nowhere else: not to a screen, a report or a
 * record.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import type { Channel, Message } from "./channel.ts";
import { HTTP_CLOSE_MS, MAX_MESSAGE_BYTES } from "./limits.ts";
import { within } from "./_server_process.ts";

/** The host names `--url` may use: this machine's loopback only. */
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

/** The URL when it is `http://` on a loopback host, else `null`. */
export function loopbackUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname) &&
      url.username === "" &&
      url.password === ""
    ? url
    : null;
}

/**
 * The URL when it is `https://` on any host, without a user or password in
 * it, else `null`: a host off this machine, which guardlab reaches only
 * under a grant that names it.
 */
export function remoteUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === "https:" && url.username === "" &&
      url.password === ""
    ? url
    : null;
}

/** Whether `url` names this machine's loopback. */
export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.includes(url.hostname);
}

/** The host and port Deno's net permission is asked for, for `url` (the scheme's port when none is written). */
export function netHostOf(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

/**
 * The headers `accept` itself sends: a header given with `--header` may
 * not replace one of them (nor the ones fetch sets).
 */
export const PROTOCOL_HEADERS: readonly string[] = [
  "accept",
  "connection",
  "content-length",
  "content-type",
  "host",
  "mcp-protocol-version",
  "mcp-session-id",
  "transfer-encoding",
];

/** What {@linkcode boundedLines} yields for a line past its bound: the body is read no further. */
const TOO_LONG = Symbol("too long");

/**
 * Lines of `body`, each at most `maxBytes`; a longer one yields
 * {@linkcode TOO_LONG} and ends the reading (which cancels the body), as
 * soon as it is past the bound. Ends too as soon as `signal` is aborted:
 * Deno 2.9.6 may go on handing out the chunks of a body that arrives
 * faster than it is read after its request's signal was aborted, so a body
 * that never ends would be read for ever.
 */
async function* boundedLines(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  signal: AbortSignal,
): AsyncGenerator<string | typeof TOO_LONG> {
  const decoder = new TextDecoder();
  let line = "";
  for await (const chunk of body) {
    if (signal.aborted) return;
    const text = decoder.decode(chunk, { stream: true });
    let from = 0;
    for (
      let cut = text.indexOf("\n");
      cut >= 0;
      cut = text.indexOf("\n", from)
    ) {
      line += text.slice(from, cut);
      if (line.length > maxBytes) {
        yield TOO_LONG;
        return;
      }
      yield line.endsWith("\r") ? line.slice(0, -1) : line;
      line = "";
      from = cut + 1;
    }
    line += text.slice(from);
    if (line.length > maxBytes) {
      yield TOO_LONG;
      return;
    }
  }
  if (line !== "") yield line;
}

/** Whether `message` is a request (it has a method and an id): only a request's answer body is read. */
function isRequest(message: Message): boolean {
  return "method" in message && message.id !== undefined &&
    message.id !== null;
}

/**
 * The first bytes of `body`, read within {@linkcode HTTP_CLOSE_MS}, then
 * the body cancelled: whether it carried anything, never what.
 */
async function hadBody(body: ReadableStream<Uint8Array>): Promise<boolean> {
  const reader = body.getReader();
  const first = await within(
    reader.read().catch(() => null),
    HTTP_CLOSE_MS,
    null,
  );
  await within(reader.cancel().catch(() => {}), HTTP_CLOSE_MS, undefined);
  return first !== null && !first.done && first.value.length > 0;
}

/**
 * A Streamable HTTP channel to `url`; `extra` headers (names already
 * checked, none of {@linkcode PROTOCOL_HEADERS}) go with every request.
 * Every body is bounded: a request's event stream is cancelled once it has
 * carried that request's answer, or when guardlab stops waiting for it; a
 * body on the answer to a notification is cancelled unread (as the MCP
 * SDK's client does) and noted; `close` aborts every request still open
 * and waits at most {@linkcode HTTP_CLOSE_MS} for the DELETE that ends the
 * session.
 */
export function httpChannel(
  url: URL,
  extra: Readonly<Record<string, string>> = {},
): Channel {
  const open = new Set<AbortController>();
  const byId = new Map<unknown, AbortController>();
  let session: string | undefined;
  let protocol: string | undefined;
  let closed = false;
  /** Hand on each message in `text`; true when one answers request `id`. */
  const deliver = (text: string, id?: unknown): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      channel.onproblem?.({ kind: "not-json", line: 0 });
      return false;
    }
    let answered = false;
    for (const m of Array.isArray(value) ? value : [value]) {
      if (isPlainRecord(m) && m.jsonrpc === "2.0") {
        if (id !== undefined && m.id === id && !("method" in m)) {
          answered = true;
        }
        channel.onmessage?.(m);
      } else channel.onproblem?.({ kind: "not-message", line: 0 });
    }
    return answered;
  };
  const tooLong = () => channel.onproblem?.({ kind: "too-long", line: 0 });
  async function post(message: Message): Promise<void> {
    const abort = new AbortController();
    const request = isRequest(message);
    open.add(abort);
    if (request) byId.set(message.id, abort);
    try {
      const headers: Record<string, string> = {
        ...extra,
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
      };
      if (session) headers["mcp-session-id"] = session;
      if (protocol) headers["mcp-protocol-version"] = protocol;
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(message),
        signal: abort.signal,
        redirect: "manual",
      });
      session = response.headers.get("mcp-session-id") ?? session;
      const type = response.headers.get("content-type") ?? "";
      if (!request) {
        // A notification or an answer of guardlab's: whatever the status,
        // its body is no message for anyone (the SDK's client reads none).
        // One that carries something is noted, never judged.
        if (response.body !== null && await hadBody(response.body)) {
          channel.onnotice?.({
            kind: "discarded-body",
            status: response.status,
            method: String(message.method ?? "a response"),
          });
        }
        return;
      }
      if (!response.ok || response.body === null) {
        await within(
          response.body?.cancel().catch(() => {}) ?? Promise.resolve(),
          HTTP_CLOSE_MS,
          undefined,
        );
        if (!response.ok) {
          channel.onmessage?.({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: -32000, message: `HTTP ${response.status}` },
          });
        }
        return;
      }
      if (type.includes("text/event-stream")) {
        let data: string[] = [];
        let size = 0;
        for await (
          const line of boundedLines(
            response.body,
            MAX_MESSAGE_BYTES,
            abort.signal,
          )
        ) {
          if (line === TOO_LONG) {
            // A line past the bound: the stream is broken, and is read no
            // further (leaving the loop cancels it).
            tooLong();
            return;
          }
          if (line === "") {
            const answered = data.length > 0 &&
              deliver(data.join("\n"), message.id);
            data = [];
            size = 0;
            // The stream has done its work: leaving the loop cancels it.
            if (answered) break;
          } else if (line.startsWith("data:")) {
            const part = line.slice(5).replace(/^ /, "");
            size += part.length;
            if (size > MAX_MESSAGE_BYTES) {
              // An event past the bound, the same.
              tooLong();
              return;
            }
            data.push(part);
          }
        }
        if (data.length > 0) deliver(data.join("\n"));
      } else {
        const lines: string[] = [];
        let size = 0;
        for await (
          const line of boundedLines(
            response.body,
            MAX_MESSAGE_BYTES,
            abort.signal,
          )
        ) {
          // Each line feed counts: a body of empty lines is bounded too.
          size += line === TOO_LONG ? Infinity : line.length + 1;
          if (line === TOO_LONG || size > MAX_MESSAGE_BYTES) {
            tooLong();
            return;
          }
          lines.push(line);
        }
        if (lines.join("").trim() !== "") deliver(lines.join("\n"));
      }
    } catch {
      // An aborted or refused request: its call gets no answer, and waits out its bound.
    } finally {
      open.delete(abort);
      if (request && byId.get(message.id) === abort) byId.delete(message.id);
    }
  }
  const channel: Channel = {
    send(message) {
      if (closed) return;
      if (message.method === "initialize") {
        protocol = String(
          (message.params as { protocolVersion?: unknown })?.protocolVersion ??
            "",
        );
      }
      post(message);
    },
    forget(id) {
      // Nobody waits for this answer any more: its request and body end.
      byId.get(id)?.abort();
    },
    stderrTail: () => [],
    async close() {
      if (closed) return;
      closed = true;
      for (const a of open) a.abort();
      if (session) {
        await fetch(url, {
          method: "DELETE",
          headers: { ...extra, "mcp-session-id": session },
          redirect: "manual",
          signal: AbortSignal.timeout(HTTP_CLOSE_MS),
        })
          .then((r) =>
            within(r.body?.cancel() ?? Promise.resolve(), HTTP_CLOSE_MS, 0)
          )
          .catch(() => {});
      }
      channel.onclose?.({ kind: "closed" });
    },
    // guardlab did not start this server, so it cannot end it: it ends its session.
    kill: () => channel.close(),
  };
  return channel;
}
