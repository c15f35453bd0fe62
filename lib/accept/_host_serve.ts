/**
 * How the host reaches guardlab's model and tool: HTTP on loopback (the
 * model's chat completions, the tool's Streamable HTTP end) and, for a
 * tool offered over stdio, a relay. The host starts `guardlab accept
 * host-tool DIR` as its MCP server; that process connects back here over
 * loopback, proves it is the case's own (a token only the case's private
 * folder holds), and carries the host's lines both ways. So the tool, its
 * ledger and its faults stay in this process, on the case's one clock,
 * while the host sees a server process of its own that it starts, stops
 * and can lose (`killed-after-commit` ends it with SIGKILL).
 *
 * Every listener is on 127.0.0.1 only; every line and body is bounded
 * before it is parsed; every close is bounded.
 *
 * @module
 */
import { linesOf } from "../base/lines.ts";
import { isPlainRecord } from "../base/json.ts";
import { readStreamUpTo } from "../sandbox/read_bounded.ts";
import {
  errorResponse,
  INVALID_REQUEST,
  isRequest,
  type Message,
  PARSE_ERROR,
  parseBatch,
  parseJson,
  parseMessage,
  SERVER_ERROR,
} from "../wire/message.ts";
import { HTTP_CLOSE_MS, MAX_MESSAGE_BYTES } from "../wire/limits.ts";
import { within } from "../wire/server_process.ts";
import { RELAY_HELLO_MS } from "./limits.ts";
import type { HostTool, Reply, ToolConnection } from "./_host_tool.ts";

/** A server on loopback: its origin (`http://127.0.0.1:PORT`) and its bounded end. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Stop listening and end every connection, within a bound. */
  close(): Promise<void>;
}

/** A request handler that may be told which connection a request came on. */
type Handler = (
  request: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
) => Promise<Response>;

/** Serve `handler` on 127.0.0.1 at `port` (0: one the system picks). */
export function serveLoopback(
  handler: Handler,
  port = 0,
): LoopbackServer {
  const stop = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port,
    signal: stop.signal,
    onListen: () => {},
    onError: () => new Response(null, { status: 500 }),
  }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async close() {
      stop.abort();
      await within(server.finished, HTTP_CLOSE_MS, undefined);
    },
  };
}

/** A JSON-RPC body. */
const jsonBody = (value: unknown, status = 200, headers = {}) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

/** The answer the MCP SDK's server gives a session it does not know. */
const sessionNotFound = () =>
  jsonBody({
    jsonrpc: "2.0",
    error: { code: -32001, message: "Session not found" },
    id: null,
  }, 404);

/**
 * The tool's Streamable HTTP end at `path`: a POST with `initialize` opens
 * a session (its `Mcp-Session-Id`, a connection of the tool's own); every
 * other POST names its session; answers are JSON (the transport allows a
 * server to answer so); GET offers no event stream (405); DELETE ends the
 * session. A fault answers 503, forgets the session and answers 404, or
 * (`drop`, served behind {@linkcode serveDroppable}) closes the host's
 * connection with no answer at all.
 */
export function toolHttpHandler(
  tool: HostTool,
  path: string,
): (request: Request, drop?: () => void) => Promise<Response> {
  const sessions = new Map<string, ToolConnection>();
  return async (request, drop) => {
    if (new URL(request.url).pathname !== path) {
      await request.body?.cancel().catch(() => {});
      return new Response("not found", { status: 404 });
    }
    const sid = request.headers.get("mcp-session-id");
    const conn = sid === null ? undefined : sessions.get(sid);
    if (request.method === "DELETE") {
      if (conn === undefined || sid === null) return sessionNotFound();
      sessions.delete(sid);
      conn.closed();
      return new Response(null, { status: 200 });
    }
    if (request.method !== "POST") {
      await request.body?.cancel().catch(() => {});
      return new Response("method not allowed", {
        status: 405,
        headers: { allow: "POST, DELETE" },
      });
    }
    const { bytes, more } = await readStreamUpTo(
      request.body ?? new Blob([]).stream(),
      MAX_MESSAGE_BYTES,
    );
    if (more) {
      tool.log.record({ op: "problem", where: "tool", problem: "too-long" });
      return jsonBody(errorResponse(null, INVALID_REQUEST, "too long"), 413);
    }
    const text = new TextDecoder().decode(bytes);
    const batch = parseBatch(text);
    if (!Array.isArray(batch)) {
      tool.log.record({ op: "problem", where: "tool", problem: batch.refused });
      return jsonBody(errorResponse(null, PARSE_ERROR, "not JSON-RPC"), 400);
    }
    const messages = batch.filter((m): m is Message => m !== "not-message");
    let session = conn;
    let opened: string | undefined;
    if (messages.some((m) => isRequest(m, "initialize"))) {
      session = tool.connect();
      opened = crypto.randomUUID();
      sessions.set(opened, session);
    } else if (sid === null) {
      return jsonBody(
        errorResponse(
          null,
          SERVER_ERROR,
          "Bad Request: Server not initialized",
        ),
        400,
      );
    } else if (session === undefined) {
      return sessionNotFound();
    }
    const replies = await Promise.all(messages.map((m) => session!.receive(m)));
    if (replies.some((r) => r?.kind === "expired")) {
      sessions.delete(opened ?? sid!);
      session!.closed("expired");
      return sessionNotFound();
    }
    if (replies.some((r) => r?.kind === "reset") && drop !== undefined) {
      // The host's connection is closed before this answer can reach it.
      drop();
      return new Response(null, { status: 204 });
    }
    if (replies.some((r) => r?.kind !== undefined && r?.kind !== "message")) {
      return new Response("unavailable", { status: 503 });
    }
    const answers = replies.flatMap((r) =>
      r?.kind === "message" ? [r.message] : []
    );
    const headers: Record<string, string> = opened === undefined
      ? {}
      : { "mcp-session-id": opened };
    if (answers.length === 0) {
      return new Response(null, { status: 202, headers });
    }
    // A batch is answered with a batch, one message with one.
    return jsonBody(
      text.trimStart().startsWith("[") ? answers : answers[0],
      200,
      headers,
    );
  };
}

/**
 * Serve `handler` on 127.0.0.1 at `port` behind a TCP front of its own, so
 * that a request can lose its connection with no answer at all (`drop`):
 * Deno.serve itself answers every request, with a 500 at worst. The front
 * carries each host connection to an inner server and finds it again by
 * the port of the front's own connection to that server.
 */
export function serveDroppable(
  handler: (request: Request, drop: () => void) => Promise<Response>,
  port = 0,
): LoopbackServer {
  const hosts = new Map<number, Deno.Conn>();
  const open = new Set<Deno.Conn>();
  const inner = serveLoopback(
    (request, info) =>
      handler(request, () => closeQuietly(hosts.get(info.remoteAddr.port))),
  );
  const innerPort = Number(new URL(inner.url).port);
  const listener = Deno.listen({ hostname: "127.0.0.1", port });
  const carry = async (host: Deno.Conn) => {
    open.add(host);
    let up: Deno.Conn | undefined;
    try {
      up = await Deno.connect({ hostname: "127.0.0.1", port: innerPort });
      open.add(up);
      const key = (up.localAddr as Deno.NetAddr).port;
      hosts.set(key, host);
      // Either side's end ends both: the host's close, the inner server's, or a drop.
      await Promise.race([
        host.readable.pipeTo(up.writable).catch(() => {}),
        up.readable.pipeTo(host.writable).catch(() => {}),
      ]);
      hosts.delete(key);
    } catch {
      // The inner server had closed: the host's connection ends too.
    } finally {
      for (const c of [host, up]) {
        closeQuietly(c);
        if (c !== undefined) open.delete(c);
      }
    }
  };
  const serving = (async () => {
    for await (const host of listener) carry(host);
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    async close() {
      listener.close();
      for (const c of open) closeQuietly(c);
      await inner.close();
      await within(serving, HTTP_CLOSE_MS, undefined);
    },
  };
}

/** Close `conn` unless it is gone. */
function closeQuietly(conn: Deno.Conn | undefined): void {
  try {
    conn?.close();
  } catch {
    // Closed already.
  }
}

/** The relay listener of one case: its port, and its bounded end. */
export interface RelayListener {
  /** The port on 127.0.0.1. */
  readonly port: number;
  /** Stop listening and close every relay's connection. */
  close(): Promise<void>;
}

/**
 * Listen on 127.0.0.1 for the relays the host starts. Each says who it is
 * in its first line (`{"token": …, "pid": …}`, within
 * {@linkcode RELAY_HELLO_MS}); one without the case's token is closed and
 * counted. Then its lines are the host's messages, each bounded and
 * parsed, each answered when the tool says; the relay's process is the
 * one `kill` ends.
 */
export function relayListener(tool: HostTool, token: string): RelayListener {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const serving = (async () => {
    for await (const socket of listener) {
      open.add(socket);
      relayed(tool, token, socket).finally(() => {
        open.delete(socket);
        try {
          socket.close();
        } catch {
          // Closed already.
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const socket of open) {
        try {
          socket.close();
        } catch {
          // Closed already.
        }
      }
      await within(serving, HTTP_CLOSE_MS, undefined);
    },
  };
}

/** One relay's connection, from its hello to its end. */
async function relayed(
  tool: HostTool,
  token: string,
  socket: Deno.Conn,
): Promise<void> {
  const lines = linesOf(socket.readable, MAX_MESSAGE_BYTES);
  const hello = await within(lines.next(), RELAY_HELLO_MS, null);
  const said = hello === null || hello.done || !("text" in hello.value)
    ? undefined
    : parseJson(hello.value.text, 2);
  const who = said !== undefined && "value" in said ? said.value : {};
  if (
    !isPlainRecord(who) || who.token !== token ||
    !Number.isSafeInteger(who.pid) || (who.pid as number) <= 0
  ) {
    tool.log.record({ op: "problem", where: "tool", problem: "unauthorized" });
    return;
  }
  const pid = who.pid as number;
  const conn = tool.connect();
  const writer = socket.writable.getWriter();
  const encoder = new TextEncoder();
  let killed = false;
  const send = (m: Message) =>
    writer.write(encoder.encode(JSON.stringify(m) + "\n")).catch(() => {});
  const deliver = (reply: Reply) => {
    if (reply?.kind === "message") send(reply.message);
    else if (reply !== null && !killed) {
      // killed-after-commit: the tool's process dies with the call out.
      killed = true;
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // It had gone already.
      }
      conn.closed("killed");
    }
  };
  try {
    for await (const line of lines) {
      if (!("text" in line)) {
        tool.log.record({ op: "problem", where: "tool", problem: "too-long" });
        send(errorResponse(null, INVALID_REQUEST, "line too long"));
        continue;
      }
      const parsed = parseMessage(line.text);
      if ("refused" in parsed) {
        tool.log.record({
          op: "problem",
          where: "tool",
          problem: parsed.refused,
        });
        send(errorResponse(
          "id" in parsed ? parsed.id : null,
          parsed.refused === "not-json" ? PARSE_ERROR : INVALID_REQUEST,
          parsed.refused,
        ));
        continue;
      }
      // Not awaited: a withheld answer must not hold the next message (a cancel).
      conn.receive(parsed.message).then(deliver);
    }
  } catch {
    // The connection broke: the relay's process ended.
  } finally {
    if (!killed) conn.closed();
  }
}
