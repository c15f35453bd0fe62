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
import { MAX_MESSAGE_BYTES } from "./limits.ts";

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

/** Lines of `body`, each at most `maxBytes`; `tooLong` is called for a longer one. */
async function* boundedLines(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLong: () => void,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let line = "";
  let over = false;
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    let from = 0;
    for (
      let cut = text.indexOf("\n");
      cut >= 0;
      cut = text.indexOf("\n", from)
    ) {
      if (!over) line += text.slice(from, cut);
      if (over) tooLong();
      else yield line.endsWith("\r") ? line.slice(0, -1) : line;
      line = "";
      over = false;
      from = cut + 1;
    }
    if (!over) line += text.slice(from);
    if (line.length > maxBytes) {
      over = true;
      line = "";
    }
  }
  if (over) tooLong();
  else if (line !== "") yield line;
}

/**
 * A Streamable HTTP channel to `url`; `extra` headers (names already
 * checked, none of {@linkcode PROTOCOL_HEADERS}) go with every request.
 */
export function httpChannel(
  url: URL,
  extra: Readonly<Record<string, string>> = {},
): Channel {
  const open = new Set<AbortController>();
  let session: string | undefined;
  let protocol: string | undefined;
  let closed = false;
  const deliver = (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      channel.onproblem?.({ kind: "not-json", line: 0 });
      return;
    }
    for (const m of Array.isArray(value) ? value : [value]) {
      if (isPlainRecord(m) && m.jsonrpc === "2.0") channel.onmessage?.(m);
      else channel.onproblem?.({ kind: "not-message", line: 0 });
    }
  };
  const tooLong = () => channel.onproblem?.({ kind: "too-long", line: 0 });
  async function post(message: Message): Promise<void> {
    const abort = new AbortController();
    open.add(abort);
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
      if (!response.ok || response.body === null) {
        await response.body?.cancel();
        if (!response.ok && "id" in message && "method" in message) {
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
          const line of boundedLines(response.body, MAX_MESSAGE_BYTES, tooLong)
        ) {
          if (line === "") {
            if (data.length > 0) deliver(data.join("\n"));
            data = [];
            size = 0;
          } else if (line.startsWith("data:")) {
            const part = line.slice(5).replace(/^ /, "");
            size += part.length;
            if (size > MAX_MESSAGE_BYTES) {
              tooLong();
              data = [];
              size = 0;
            } else data.push(part);
          }
        }
        if (data.length > 0) deliver(data.join("\n"));
      } else {
        const lines: string[] = [];
        let size = 0;
        for await (
          const line of boundedLines(response.body, MAX_MESSAGE_BYTES, tooLong)
        ) {
          size += line.length;
          if (size > MAX_MESSAGE_BYTES) {
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
        })
          .then((r) => r.body?.cancel())
          .catch(() => {});
      }
      channel.onclose?.({ kind: "closed" });
    },
  };
  return channel;
}
