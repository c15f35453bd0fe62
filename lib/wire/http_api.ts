/**
 * An HTTP API's endpoints presented to `accept` as tools: a channel that
 * answers `initialize` and `tools/list` itself, and turns each
 * `tools/call` into one HTTP request, so the acceptance test's cases, its
 * session and its history run unchanged against an API that promises the
 * `Idempotency-Key` contract. A call's arguments are the request
 * (`{"method", "path", "body"}`), its `params.idempotencyKey` goes in the
 * key header; the answer is a tool result whose text is the response's
 * body, `isError` when the status is not 2xx, and the status in
 * {@linkcode HTTP_STATUS_META}. Every body is read to
 * {@linkcode MAX_MESSAGE_BYTES} and no further, every request ends when
 * guardlab stops waiting for it, and a request never leaves the API's own
 * origin (a path is a path, never a URL).
 *
 * With a command, guardlab starts the API itself, on a free port of this
 * machine's loopback it names in `PORT` and in `{port}` of the command's
 * arguments, waits (bounded) until the port takes a connection, and ends
 * the API's process group with SIGTERM, then SIGKILL. The API runs with
 * the user's own rights: Deno's sandbox covers guardlab, not the child.
 *
 * @module
 */
import { linesOf } from "../base/lines.ts";
import type {
  Channel,
  ChannelNotice,
  ChannelProblem,
  CloseReason,
} from "./channel.ts";
import { HTTP_CLOSE_MS, MAX_MESSAGE_BYTES } from "./limits.ts";
import {
  errorResponse,
  INVALID_PARAMS,
  isRequest,
  type Message,
  METHOD_NOT_FOUND,
} from "./message.ts";
import { startServerProcess, within } from "./server_process.ts";
import { boundedLines, TOO_LONG } from "./http.ts";
import { isPlainRecord } from "../base/json.ts";

/** Where a tool result this channel hands on carries the response's HTTP status (in `_meta`). */
export const HTTP_STATUS_META = "guardlab/http-status";

/** The methods a request may use. */
export const HTTP_METHODS = ["POST", "PUT", "PATCH", "DELETE", "GET"] as const;

/** How often a started API's port is tried until it takes a connection. */
const PORT_POLL_MS = 25;

/** What an HTTP API's channel needs beside its base URL. */
export interface HttpApiOptions {
  /** The header that carries the key (`Idempotency-Key`). */
  readonly keyHeader: string;
  /** Headers sent with every request (`--header`, `--header-env`): never shown or recorded. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The name the API gives at `initialize`, as the report shows it. */
  readonly name: string;
  /** Its version, as the report shows it. */
  readonly version: string;
}

/**
 * A path is the part after the origin: it starts with one `/`, and the
 * URL it makes with `base` keeps `base`'s origin (else `null`).
 */
export function urlOf(base: URL, path: unknown): URL | null {
  if (
    typeof path !== "string" || !path.startsWith("/") ||
    path.startsWith("//") || path.includes("\\") || path.length > 2048
  ) return null;
  try {
    const url = new URL(base.pathname.replace(/\/$/, "") + path, base);
    return url.origin === base.origin ? url : null;
  } catch {
    return null;
  }
}

/**
 * A channel to the HTTP API at `base`: its endpoints as tools, each call
 * one request, each response read within the bound.
 */
export function httpApiChannel(base: URL, options: HttpApiOptions): Channel {
  return new HttpApiChannel(base, options);
}

/**
 * Start the HTTP API `command` with `args` on a free loopback port (named
 * in `PORT` and in every `{port}` of `args`), and wait until the port
 * takes a connection, within `startTimeoutMs`; throws when the API exits
 * first or the wait ends (its process group ended).
 */
export async function startHttpApi(
  command: string,
  args: readonly string[],
  options: Omit<HttpApiOptions, "name" | "version"> & {
    readonly startTimeoutMs: number;
  },
): Promise<Channel> {
  const port = freePort();
  const server = startServerProcess(
    command,
    args.map((a) => a.replaceAll("{port}", String(port))),
    "piped",
    { PORT: String(port) },
  );
  const tail: string[] = [];
  const keep = (stream: ReadableStream<Uint8Array>) =>
    (async () => {
      try {
        for await (const line of linesOf(stream, 4096)) {
          if ("text" in line) {
            tail.push(line.text.slice(0, 200));
            if (tail.length > 20) tail.shift();
          }
        }
      } catch {
        // A pipe the other side broke is the end of its output.
      }
    })();
  keep(server.stdout);
  keep(server.stderr!);
  let exited = false;
  server.exited.then(() => (exited = true));
  const deadline = performance.now() + options.startTimeoutMs;
  while (!(await takesConnection(port))) {
    if (exited || performance.now() > deadline) {
      // Why, taken before the kill: the killed API exits too.
      const why = exited ? "exited" : "no-port";
      await server.kill();
      throw new ApiNotStarted(why, tail.at(-1));
    }
    await within(server.exited, PORT_POLL_MS, undefined);
  }
  const channel = new HttpApiChannel(
    new URL(`http://127.0.0.1:${port}`),
    {
      ...options,
      name: "http-api",
      version: "started by guardlab",
    },
    {
      close: () => server.terminate(),
      kill: () => server.kill(),
      tail: () => [...tail],
    },
  );
  server.exited.then((code) => channel.exited(code));
  return channel;
}

/** A started API that exited, or whose port took no connection in time, before it could be tested. */
export class ApiNotStarted extends Error {
  /** Why, and the last line it wrote. */
  constructor(
    readonly why: "exited" | "no-port",
    readonly tail: string | undefined,
  ) {
    super(why);
  }
}

/** A port of this machine's loopback that nothing listens on now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Whether the loopback port takes a connection now. */
async function takesConnection(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** The process behind a channel of an API guardlab started. */
interface Started {
  close(): Promise<unknown>;
  kill(): Promise<void>;
  tail(): string[];
}

/** One endpoint call, as a tool call's arguments give it. */
interface ApiRequest {
  readonly method: typeof HTTP_METHODS[number];
  readonly url: URL;
  readonly body?: unknown;
}

/** The HTTP API's end of the wire: one request per call, each body bounded. */
class HttpApiChannel implements Channel {
  onmessage?: (message: Message) => void;
  onproblem?: (problem: ChannelProblem) => void;
  onnotice?: (notice: ChannelNotice) => void;
  onclose?: (why: CloseReason) => void;
  readonly speaks = "http-api" as const;
  readonly #base: URL;
  readonly #options: HttpApiOptions;
  readonly #started: Started | undefined;
  readonly #byId = new Map<unknown, AbortController>();
  #closed = false;

  constructor(base: URL, options: HttpApiOptions, started?: Started) {
    this.#base = base;
    this.#options = options;
    this.#started = started;
  }

  send(message: Message): void {
    if (this.#closed || !isRequest(message)) return;
    const id = message.id;
    const answer = (result: Message) =>
      queueMicrotask(() =>
        this.#closed || this.onmessage?.({ jsonrpc: "2.0", id, result })
      );
    if (message.method === "initialize") {
      const params = isPlainRecord(message.params) ? message.params : {};
      this.#initialize(id, String(params.protocolVersion ?? ""));
    } else if (message.method === "tools/list") answer({ tools: [] });
    else if (message.method === "tools/call") this.#call(message);
    else {
      queueMicrotask(() =>
        this.onmessage?.(
          errorResponse(id, METHOD_NOT_FOUND, "Method not found"),
        )
      );
    }
  }

  forget(id: number): void {
    this.#byId.get(id)?.abort();
  }

  stderrTail(): string[] {
    return this.#started?.tail() ?? [];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#end();
    await this.#started?.close();
    this.onclose?.({ kind: "closed" });
  }

  async kill(): Promise<void> {
    if (this.#closed) return;
    this.#end();
    await this.#started?.kill();
    this.onclose?.({ kind: "closed" });
  }

  /** The API guardlab started exited (with `code`, or null for a signal). */
  exited(code: number | null): void {
    if (this.#closed) return;
    this.#end();
    this.onclose?.({ kind: "exited", code });
  }

  #end(): void {
    this.#closed = true;
    for (const a of this.#byId.values()) a.abort();
  }

  /** Answer `initialize` once the API's origin takes a connection; close the channel when it does not. */
  async #initialize(id: unknown, protocolVersion: string): Promise<void> {
    const port = Number(this.#base.port) ||
      (this.#base.protocol === "https:" ? 443 : 80);
    const conn = await within(
      Deno.connect({
        hostname: this.#base.hostname.replace(/^\[|\]$/g, ""),
        port,
      })
        .catch(() => null),
      HTTP_CLOSE_MS * 5,
      null,
    );
    if (conn === null) {
      // Nothing answers there: as a server gone before initialize.
      if (!this.#closed) this.exited(null);
      return;
    }
    conn.close();
    if (this.#closed) return;
    this.onmessage?.({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion,
        capabilities: { tools: {} },
        serverInfo: {
          name: this.#options.name,
          version: this.#options.version,
        },
      },
    });
  }

  /** A tool call as one request; its response as the call's answer. */
  async #call(message: Message): Promise<void> {
    const id = message.id;
    const params = isPlainRecord(message.params) ? message.params : {};
    const request = this.#requestOf(params.arguments);
    if (request === null) {
      queueMicrotask(() =>
        this.onmessage?.(
          errorResponse(
            id,
            INVALID_PARAMS,
            "not a request: {method, path, body} with a path on the API's origin",
          ),
        )
      );
      return;
    }
    const key = typeof params.idempotencyKey === "string"
      ? params.idempotencyKey
      : undefined;
    const abort = new AbortController();
    this.#byId.set(id, abort);
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: {
          ...this.#options.headers,
          "accept": "application/json",
          ...(request.body === undefined
            ? {}
            : { "content-type": "application/json" }),
          ...(key === undefined ? {} : { [this.#options.keyHeader]: key }),
        },
        body: request.body === undefined
          ? undefined
          : JSON.stringify(request.body),
        redirect: "manual",
        signal: abort.signal,
      });
      const text = await boundedText(response, abort.signal);
      if (text === undefined) return;
      if (text === null) {
        abort.abort();
        this.onproblem?.({ kind: "too-long", line: 0 });
        return;
      }
      if (this.#closed) return;
      const ok = response.status >= 200 && response.status < 300;
      this.onmessage?.({
        jsonrpc: "2.0",
        id,
        result: {
          content: [{ type: "text", text }],
          ...(ok ? {} : { isError: true }),
          _meta: { [HTTP_STATUS_META]: response.status },
        },
      });
    } catch {
      // Aborted (guardlab stopped waiting, or the channel closed): the
      // call waits out its bound. Refused or reset: the API is gone.
      if (!abort.signal.aborted && !this.#closed && !this.#started) {
        this.exited(null);
      }
    } finally {
      this.#byId.delete(id);
    }
  }

  /** A call's arguments as a request on this API's origin, or null. */
  #requestOf(args: unknown): ApiRequest | null {
    if (!isPlainRecord(args)) return null;
    const method = args.method;
    if (!(HTTP_METHODS as readonly unknown[]).includes(method)) return null;
    const url = urlOf(this.#base, args.path);
    if (url === null) return null;
    return {
      method: method as ApiRequest["method"],
      url,
      ...(args.body === undefined || method === "GET"
        ? {}
        : { body: args.body }),
    };
  }
}

/**
 * A response's body as text, read to {@linkcode MAX_MESSAGE_BYTES} and no
 * further (null past it: the body is cancelled), stopping when `signal`
 * is aborted (undefined then: nothing to hand on).
 */
async function boundedText(
  response: Response,
  signal: AbortSignal,
): Promise<string | null | undefined> {
  if (response.body === null) return "";
  const lines: string[] = [];
  let size = 0;
  for await (
    const line of boundedLines(response.body, MAX_MESSAGE_BYTES, signal)
  ) {
    if (line === TOO_LONG) return null;
    size += line.length + 1;
    if (size > MAX_MESSAGE_BYTES) return null;
    lines.push(line);
  }
  return signal.aborted ? undefined : lines.join("\n");
}
