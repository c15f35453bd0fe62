/**
 * The HTTP client end of the wire: a channel to an MCP server over
 * Streamable HTTP. Each message is POSTed,
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
import type {
  Channel,
  ChannelNotice,
  ChannelProblem,
  CloseReason,
} from "./channel.ts";
import { HTTP_CLOSE_MS, MAX_DEPTH, MAX_MESSAGE_BYTES } from "./limits.ts";
import {
  errorResponse,
  isRequest,
  type Message,
  parseBatch,
  SERVER_ERROR,
} from "./message.ts";
import { within } from "./server_process.ts";

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
export const TOO_LONG: unique symbol = Symbol("too long");

/**
 * Lines of `body`, each at most `maxBytes`; a longer one yields
 * {@linkcode TOO_LONG} and ends the reading (which cancels the body), as
 * soon as it is past the bound. Ends too as soon as `signal` is aborted:
 * Deno 2.9.6 may go on handing out the chunks of a body that arrives
 * faster than it is read after its request's signal was aborted, so a body
 * that never ends would be read for ever.
 */
export async function* boundedLines(
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
  return new HttpChannel(url, extra);
}

/** The HTTP client end of the wire: one POST per message, each body bounded. */
class HttpChannel implements Channel {
  onmessage?: (message: Message) => void;
  onproblem?: (problem: ChannelProblem) => void;
  onnotice?: (notice: ChannelNotice) => void;
  onclose?: (why: CloseReason) => void;
  readonly #url: URL;
  readonly #extra: Readonly<Record<string, string>>;
  readonly #open = new Set<AbortController>();
  readonly #byId = new Map<unknown, AbortController>();
  #session: string | undefined;
  #protocol: string | undefined;
  #closed = false;

  constructor(url: URL, extra: Readonly<Record<string, string>>) {
    this.#url = url;
    this.#extra = extra;
  }

  send(message: Message): void {
    if (this.#closed) return;
    if (message.method === "initialize") {
      this.#protocol = String(
        (message.params as { protocolVersion?: unknown })?.protocolVersion ??
          "",
      );
    }
    this.#post(message);
  }

  forget(id: number): void {
    // Nobody waits for this answer any more: its request and body end.
    this.#byId.get(id)?.abort();
  }

  stderrTail(): string[] {
    return [];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const a of this.#open) a.abort();
    if (this.#session) {
      await fetch(this.#url, {
        method: "DELETE",
        headers: { ...this.#extra, "mcp-session-id": this.#session },
        redirect: "manual",
        signal: AbortSignal.timeout(HTTP_CLOSE_MS),
      })
        .then((r) =>
          within(r.body?.cancel() ?? Promise.resolve(), HTTP_CLOSE_MS, 0)
        )
        .catch(() => {});
    }
    this.onclose?.({ kind: "closed" });
  }

  /** guardlab did not start this server, so it cannot end it: it ends its session. */
  kill(): Promise<void> {
    return this.close();
  }

  /** POST one message; a request's answer is read from the body, whatever else is bounded and set aside. */
  async #post(message: Message): Promise<void> {
    const abort = new AbortController();
    const request = isRequest(message);
    this.#open.add(abort);
    if (request) this.#byId.set(message.id, abort);
    try {
      const response = await fetch(this.#url, {
        method: "POST",
        headers: this.#headers(),
        body: JSON.stringify(message),
        signal: abort.signal,
        redirect: "manual",
      });
      this.#session = response.headers.get("mcp-session-id") ?? this.#session;
      if (!request) await this.#noBodyExpected(response, message);
      else if (!response.ok || response.body === null) {
        await this.#noAnswer(response, message);
      } else if (
        (response.headers.get("content-type") ?? "").includes(
          "text/event-stream",
        )
      ) await this.#readEvents(response.body, message.id, abort.signal);
      else await this.#readJson(response.body, abort.signal);
    } catch {
      // An aborted or refused request: its call gets no answer, and waits out its bound.
    } finally {
      this.#open.delete(abort);
      if (request && this.#byId.get(message.id) === abort) {
        this.#byId.delete(message.id);
      }
    }
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.#extra,
      "content-type": "application/json",
      "accept": "application/json, text/event-stream",
    };
    if (this.#session) headers["mcp-session-id"] = this.#session;
    if (this.#protocol) headers["mcp-protocol-version"] = this.#protocol;
    return headers;
  }

  /**
   * A notification or an answer of guardlab's: whatever the status, its
   * body is no message for anyone (the SDK's client reads none). One that
   * carries something is noted, never judged.
   */
  async #noBodyExpected(response: Response, message: Message): Promise<void> {
    if (response.body !== null && await hadBody(response.body)) {
      this.onnotice?.({
        kind: "discarded-body",
        status: response.status,
        method: String(message.method ?? "a response"),
      });
    }
  }

  /** A request answered with an HTTP error or no body: the body cancelled (bounded); an error status is the request's answer. */
  async #noAnswer(response: Response, message: Message): Promise<void> {
    await within(
      response.body?.cancel().catch(() => {}) ?? Promise.resolve(),
      HTTP_CLOSE_MS,
      undefined,
    );
    if (!response.ok) {
      this.onmessage?.(
        errorResponse(message.id, SERVER_ERROR, `HTTP ${response.status}`),
      );
    }
  }

  /**
   * A request's event stream: each event's data handed on; read until an
   * event carries the request's answer (leaving the loop cancels the
   * stream), or a line or an event is past the bound (the stream is broken,
   * and read no further).
   */
  async #readEvents(
    body: ReadableStream<Uint8Array>,
    id: unknown,
    signal: AbortSignal,
  ): Promise<void> {
    let data: string[] = [];
    let size = 0;
    for await (const line of boundedLines(body, MAX_MESSAGE_BYTES, signal)) {
      if (line === TOO_LONG) return this.#tooLong();
      if (line === "") {
        const answered = data.length > 0 && this.#deliver(data.join("\n"), id);
        data = [];
        size = 0;
        // The stream has done its work: leaving the loop cancels it.
        if (answered) return;
      } else if (line.startsWith("data:")) {
        const part = line.slice(5).replace(/^ /, "");
        size += part.length;
        if (size > MAX_MESSAGE_BYTES) return this.#tooLong();
        data.push(part);
      }
    }
    if (data.length > 0) this.#deliver(data.join("\n"));
  }

  /** A request's JSON body, read whole within the bound (each line feed counts: a body of empty lines is bounded too). */
  async #readJson(
    body: ReadableStream<Uint8Array>,
    signal: AbortSignal,
  ): Promise<void> {
    const lines: string[] = [];
    let size = 0;
    for await (const line of boundedLines(body, MAX_MESSAGE_BYTES, signal)) {
      size += line === TOO_LONG ? Infinity : line.length + 1;
      if (line === TOO_LONG || size > MAX_MESSAGE_BYTES) {
        return this.#tooLong();
      }
      lines.push(line);
    }
    if (lines.join("").trim() !== "") this.#deliver(lines.join("\n"));
  }

  #tooLong(): void {
    this.onproblem?.({ kind: "too-long", line: 0 });
  }

  /** Hand on each message in `text` (one, or a batch); true when one answers request `id`. */
  #deliver(text: string, id?: unknown): boolean {
    const parsed = parseBatch(text);
    if (!Array.isArray(parsed)) {
      if (parsed.refused === "not-json") {
        this.onproblem?.({ kind: "not-json", line: 0 });
        return false;
      }
      // Read no further: if it answered the request, that request has its
      // (unreadable) answer, and its stream is done.
      this.onnotice?.({ kind: "too-deep", max: MAX_DEPTH, id: parsed.id });
      return id !== undefined && parsed.id === id;
    }
    let answered = false;
    for (const m of parsed) {
      if (m === "not-message") {
        this.onproblem?.({ kind: "not-message", line: 0 });
        continue;
      }
      if (id !== undefined && m.id === id && !("method" in m)) answered = true;
      this.onmessage?.(m);
    }
    return answered;
  }
}
