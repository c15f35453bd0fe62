/**
 * A hand-written MCP server for the accept tests, one behaviour per mode,
 * speaking JSON-RPC on stdin and stdout without the SDK (so each mode's
 * fault is exactly the one written here). Tools: `put_note {id, text}` and
 * `get_notes {id}`, as the example servers have, judged by the same oracle.
 *
 *   deno run fixture_server.ts MODE [NAME]
 *
 * Modes that get the effect wrong: correct, none, duplicates,
 * writes-then-rejects, false-failure, loses-updates, silent-conflict.
 * Modes that break the protocol: never-answers, answers-twice, unknown-ids,
 * exits-mid-call, non-json, huge-message, read-fails, banner.
 * Over Streamable HTTP (behaving as correct): http, http-sse, and
 * http-auth, which answers 401 to a request without its bearer token.
 * Listing its tools one a page (behaving as correct): paged, and
 * pages-forever, whose list never ends.
 */
import { setImmediate } from "node:timers";

const mode = Deno.args[0] ?? "correct";
/** The name it gives at initialize: `fixture-MODE`, or NAME (a baseline is kept per server name). */
const serverName = Deno.args[1] ?? `fixture-${mode}`;
/** The bearer token the `http-auth` mode asks every request for (the test writes it too). */
const FIXTURE_TOKEN = "Bearer fixture-s3cret-7f3a";
const encoder = new TextEncoder();
/** Where an answer goes: stdout, or (over HTTP) the request waiting for it. */
let out = (value: unknown) => writeLine(JSON.stringify(value));
function writeLine(text: string) {
  let bytes = encoder.encode(text + "\n");
  while (bytes.length > 0) bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
}
const ok = (value: unknown) => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});
const refused = (why: string) => ({
  content: [{ type: "text", text: why }],
  isError: true,
});

let notes: { id: string; text: string }[] = [];

/** What tools/list says: schemas and annotations, for accept init to draft from. */
const NOTE = {
  type: "object",
  properties: { id: { type: "string" }, text: { type: "string" } },
  required: ["id", "text"],
};
const TOOLS = [
  {
    name: "put_note",
    inputSchema: NOTE,
    annotations: { readOnlyHint: false },
  },
  {
    name: "get_notes",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
    },
    outputSchema: {
      type: "object",
      properties: { notes: { type: "array", items: NOTE } },
    },
    annotations: { readOnlyHint: true },
  },
];

async function put(id: string, text: string) {
  const bad = text === "";
  if (bad && mode !== "writes-then-rejects") {
    return refused("text must not be empty");
  }
  if (mode === "none") return ok({ written: null });
  if (mode === "writes-then-rejects" && bad) {
    // The write first, the check after: the refusal comes too late.
    notes.push({ id, text });
    return refused("text must not be empty");
  }
  if (mode === "duplicates") {
    notes.push({ id, text });
    return ok({ written: { id, text } });
  }
  if (mode === "loses-updates") {
    const copy = [...notes];
    await new Promise((r) => setImmediate(r));
    if (!copy.some((n) => n.id === id)) copy.push({ id, text });
    notes = copy;
    return ok({ written: { id, text } });
  }
  const old = notes.find((n) => n.id === id);
  if (old === undefined) {
    // "http", "http-sse" and "http-auth" behave as "correct".
    notes.push({ id, text });
    return ok({ written: { id, text } });
  }
  if (mode === "false-failure") return refused(`${id} already exists`);
  if (mode === "silent-conflict" || old.text === text) {
    return ok({ reused: old });
  }
  return refused(`conflict: ${id} exists with other text`);
}

async function handle(m: Record<string, unknown>) {
  const id = m.id;
  if (m.method === "initialize") {
    out({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: serverName, version: "1" },
      },
    });
    return;
  }
  if (m.method === "tools/list") {
    // "paged": one tool a page. "pages-forever": a next page every time.
    const cursor = (m.params as { cursor?: string } | undefined)?.cursor;
    const result = mode === "paged"
      ? cursor === "page-2" ? { tools: [TOOLS[1]] } : {
        tools: [TOOLS[0]],
        nextCursor: "page-2",
      }
      : mode === "pages-forever"
      ? { tools: [TOOLS[0]], nextCursor: "again" }
      : { tools: TOOLS };
    out({ jsonrpc: "2.0", id, result });
    return;
  }
  if (m.method !== "tools/call") return;
  const params = m.params as {
    name: string;
    arguments: Record<string, string>;
  };
  if (params.name === "get_notes") {
    if (mode === "read-fails") {
      out({
        jsonrpc: "2.0",
        id,
        result: refused("the notes store is unavailable"),
      });
    } else {
      out({
        jsonrpc: "2.0",
        id,
        result: ok({
          notes: notes.filter((n) => n.id === params.arguments.id),
        }),
      });
    }
    return;
  }
  if (params.name !== "put_note") {
    out({
      jsonrpc: "2.0",
      id,
      error: { code: -32602, message: "unknown tool" },
    });
    return;
  }
  if (mode === "exits-mid-call") Deno.exit(3);
  const result = await put(
    String(params.arguments.id),
    String(params.arguments.text ?? ""),
  );
  if (mode === "never-answers") return;
  if (mode === "non-json") {
    writeLine("put_note: writing a note (a log line on the wrong stream)");
  }
  if (mode === "huge-message") {
    // 50 MB in one line, before the real answer.
    const chunk = "x".repeat(1 << 20);
    const head = encoder.encode(
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"',
    );
    Deno.stdout.writeSync(head);
    for (let i = 0; i < 50; i++) {
      let bytes = encoder.encode(chunk);
      while (bytes.length > 0) {
        bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
      }
    }
    writeLine('"}}');
  }
  out({ jsonrpc: "2.0", id, result });
  if (mode === "answers-twice") out({ jsonrpc: "2.0", id, result });
  if (mode === "unknown-ids") out({ jsonrpc: "2.0", id: 9999, result });
}

if (mode === "http" || mode === "http-sse" || mode === "http-auth") {
  // Streamable HTTP on this machine's loopback, on a port the system picks
  // (written as the first line of stdout); the behaviour is "correct"'s.
  const waiting = new Map<unknown, (value: unknown) => void>();
  out = (value) => waiting.get((value as { id?: unknown }).id)?.(value);
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => writeLine(String(port)),
  }, async (request) => {
    // "http-auth": every request, the session's end included, must carry the token.
    if (
      mode === "http-auth" &&
      request.headers.get("authorization") !== FIXTURE_TOKEN
    ) {
      await request.body?.cancel();
      return new Response("no token", { status: 401 });
    }
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    const message = await request.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    const answered = new Promise((resolve) => waiting.set(message.id, resolve));
    handle(message);
    const answer = JSON.stringify(await answered);
    waiting.delete(message.id);
    const headers = { "mcp-session-id": "fixture-session" };
    return mode === "http-sse"
      ? new Response(`event: message\ndata: ${answer}\n\n`, {
        headers: { ...headers, "content-type": "text/event-stream" },
      })
      : new Response(answer, {
        headers: { ...headers, "content-type": "application/json" },
      });
  });
  await server.finished;
  Deno.exit(0);
}
if (mode === "banner") writeLine("fixture server starting (not JSON)");
if (mode === "dies-at-start") {
  console.error("fixture: cannot open its store");
  Deno.exit(2);
}
const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let cut;
  while ((cut = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, cut);
    buffer = buffer.slice(cut + 1);
    if (line.trim() !== "") handle(JSON.parse(line));
  }
}
