/**
 * A hand-written MCP server for the accept tests, one behaviour per mode,
 * speaking JSON-RPC on stdin and stdout without the SDK (so each mode's
 * fault is exactly the one written here). Tools: `put_note {id, text}` and
 * `get_notes {id}`, as the example servers have, judged by the same oracle.
 *
 *   deno run fixture_server.ts MODE [--store=STORE] [NAME]
 *
 * It gives its name at initialize as `fixture-MODE`, or NAME (a baseline
 * is kept per server name). With STORE (a file), the notes are kept there, one JSON line per note,
 * and a test counts them in that file, the server's own store: read at
 * every call and appended to (a second process over the same file sees
 * every note), except in the modes that keep them in memory (`cache`,
 * `buffered`). Without it, in memory.
 *
 * echo-read (correct, but get_notes answers the query it ran, key and
 * all, before the notes it found, with no structured content),
 * echo-read-bare (echo-read, and its tools/list, as dbhub's, gives
 * get_notes no output schema and put_note only the id and an enum `kind`,
 * stored as the note's text: the draft can count nothing but the key),
 * assigns-id (correct, but put_note also takes a `notebook` that must be
 * an id this process handed out: open_notebook answers `{"id": "nb-…"}`,
 * a fresh id each time; any other notebook is refused, nothing written),
 * quiet-refusal (refuses an empty text in its words only, `{"success":
 * false, …}` with no isError, and writes nothing).
 * Modes that get the effect wrong: correct, none, duplicates,
 * writes-then-rejects, accepts-bad, false-failure, loses-updates,
 * silent-conflict, overwrites, loud-refusal (refuses every put with a long
 * text that would drive a terminal), claims-read-only (correct, but says
 * put_note is read-only), cache (reads its store once, at start, and
 * writes all it holds back at every call: two processes overwrite each
 * other's notes), buffered (writes its store only when its input ends: a
 * kill loses what it answered), late-load (as cache, but what it loads at
 * start lands only when the first get_notes after a put_note comes (a read
 * before any write sees the store as it is), as a load at start that
 * nothing awaits lands whenever it does, and is written back then: a put
 * answered success before that is undone, in the store too). Modes that
 * hold an answer until an event:
 * holds-until-cancelled (commits a new note, then answers nothing until the
 * call is cancelled; a repeat is answered at once), deaf (the same, and it
 * does not exit when its input ends). The hints each mode
 * declares in tools/list are in TOOLS and HINTS. Modes that break the
 * protocol: never-answers, answers-twice,
 * unknown-ids, exits-mid-call, non-json, huge-message, read-fails,
 * deep-read (answers get_notes with each note's id nested 100,000 levels
 * deep), banner,
 * orphan (starts a process that keeps its stdout open after it exits, and
 * writes that process's id to STORE.pid). Over stdio with a STORE, each
 * writes its own process id to STORE.server.pid. Modes over Streamable HTTP:
 * http, http-sse (correct), http-auth (correct, and it answers 401 to a
 * request without its bearer token), http-echo-auth (correct, and it says
 * the request's Authorization header back: whole and split across its
 * serverInfo's name and version, and in put_note's answer, twice, the
 * second across the 200th character), http-202-null (false-failure, and a
 * notification's 202 carries the body `null`), http-init-stream (answers
 * initialize with an event stream that never carries the answer and never
 * ends, and never answers the DELETE that ends the session), http-sse-flood
 * and http-json-flood (answer put_note with a body that never ends and never
 * carries the answer, sent as fast as it is read: the data lines of an event
 * that never closes, or empty lines of JSON).
 * in-flight-conflict (correct, but a put_note for an id whose first put is
 * still in flight is refused with the JSON-RPC error IN_FLIGHT_CODE, a
 * conflict a client may retry after, as the idempotency-key draft's 409;
 * the first put is held until such a copy comes, or for at most a second
 * when none does). in-flight-conflict-result (the same, but the copy is
 * refused with a tool result marked isError whose structuredContent says
 * `{"error": {"code": "IN_FLIGHT"}}`, as a protocol that reports its
 * errors in the result does: an oracle declares it with a pointer).
 * key-aside (correct, but its key is not an argument: put_note takes it from
 * `params._meta.idempotencyKey` or `params.idempotencyKey`, refuses a call
 * with neither, and answers a key it has seen with that key's first result,
 * in memory).
 * Listing its tools one a page (behaving as correct): paged, and
 * pages-forever, whose list never ends; list-fails (correct, with the
 * hints of correct, but its tools/list answers an error).
 * Modes that flood (commit put_note's note, then never answer it, and
 * write as fast as they are read until their stdout is closed): flood-non-json
 * (lines that are not JSON), flood-ping (ping requests), flood-unknown-ids
 * (answers to ids nobody asked).
 * Modes that stop at a phase, for a test that signals guardlab there
 * (correct until then): hold-initialize, hold-tools/list, hold-put_note,
 * hold-get_notes (the request of that method, or that tool's call, is never
 * answered); with a digit N after them (hold-initialize-3), only the Nth
 * process started over the same STORE holds (a restart). On reaching it, the server
 * writes STORE.reached (the event the test waits for), and it does not
 * exit when its input ends: only the end of its process group ends it.
 */
import { setImmediate } from "node:timers";
import { PROTOCOL_VERSION } from "../_helpers/mcp_wire.ts";

const mode = Deno.args[0] ?? "correct";
/** `--store=FILE`: where the notes are kept. */
const storeFile: string | undefined = Deno.args.slice(1)
  .find((a) => a.startsWith("--store="))?.slice("--store=".length);
/** The name it gives at initialize: `fixture-MODE`, or NAME (a baseline is kept per server name). */
const serverName = Deno.args.slice(1).find((a) => !a.startsWith("--")) ??
  `fixture-${mode}`;
/** The bearer token the `http-auth` mode asks every request for (the test writes it too). */
const FIXTURE_TOKEN = "Bearer fixture-s3cret-7f3a";
/** What a mode does with a note, when it does what another mode does (the HTTP ones, and those that only differ elsewhere). */
const BEHAVES_AS: Record<string, string> = {
  "http": "correct",
  "http-sse": "correct",
  "http-auth": "correct",
  "http-echo-auth": "correct",
  "http-202-null": "false-failure",
  "http-init-stream": "correct",
  "http-sse-flood": "correct",
  "http-json-flood": "correct",
  "claims-read-only": "correct",
  "echo-read": "correct",
  "echo-read-bare": "correct",
  "assigns-id": "correct",
  "holds-until-cancelled": "correct",
  "deaf": "correct",
  "paged": "correct",
  "list-fails": "correct",
  "deep-read": "correct",
  "pages-forever": "correct",
  "in-flight-conflict": "correct",
  "in-flight-conflict-result": "correct",
  "key-aside": "correct",
};
/** assigns-id: the notebook ids this process handed out. */
const notebooks = new Set<string>();
/** key-aside: the first result of each key it has seen. */
const byKey = new Map<string, unknown>();
/** in-flight-conflict: the JSON-RPC error code of a copy sent while the first is in flight (the test's oracle declares it). */
const IN_FLIGHT_CODE = -32010;
/** in-flight-conflict: the puts in flight, by id: each lets its put go on. */
const inFlight = new Map<string, () => void>();
/** in-flight-conflict: the longest a first put waits for a copy of it. */
const HOLD_MS = 1000;
/** hold-…: the phase it stops at, and in which process over the store (1: the first). */
const hold = mode.startsWith("hold-")
  ? {
    phase: mode.slice("hold-".length).replace(/-\d$/, ""),
    process: Number(/-(\d)$/.exec(mode)?.[1] ?? 1),
  }
  : undefined;
const behaviour = hold !== undefined ? "correct" : BEHAVES_AS[mode] ?? mode;
const encoder = new TextEncoder();
/** http-echo-auth: the Authorization header of the request being answered. */
let authorization = "";
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

interface Note {
  id: string;
  text: string;
}

/** The notes kept in memory: all of them, or (cache, buffered) those read at start plus this process's own. */
const inMemory = storeFile === undefined || mode === "cache" ||
  mode === "buffered" || mode === "late-load";
let memory: Note[] = storeFile !== undefined && inMemory ? load() : [];
/** late-load: what it loaded at start, not yet landed (it lands at the first get_notes). */
let landing: Note[] | undefined =
  mode === "late-load" && storeFile !== undefined ? [...memory] : undefined;

/** Whether this process has been sent a put_note (late-load lands at the first get_notes after one). */
let putSeen = false;

/** The modes that write all they hold back at every put. */
const writesThrough = mode === "cache" || mode === "late-load";

function load(): Note[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(storeFile!);
  } catch {
    return [];
  }
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}
function save(notes: Note[]) {
  Deno.writeTextFileSync(
    storeFile!,
    notes.map((n) => JSON.stringify(n) + "\n").join(""),
  );
}
/** The notes as this server sees them now. */
function notes(): Note[] {
  return inMemory ? memory : load();
}
/** Add one note: one appended line, so a second process's notes stay. */
function add(note: Note) {
  if (!inMemory) {
    Deno.writeTextFileSync(storeFile!, JSON.stringify(note) + "\n", {
      append: true,
    });
    return;
  }
  memory.push(note);
  if (storeFile !== undefined && writesThrough) save(memory);
}
/** Replace every note. */
function replace(all: Note[]) {
  if (!inMemory) return save(all);
  memory = all;
  if (storeFile !== undefined && writesThrough) save(memory);
}

/** What loud-refusal says to every put: words that would drive a terminal, and far too many of them. */
const LOUD = "refused\u001b[2J\u202eUNIQUE\u200b " + "x".repeat(1000);

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
  if (behaviour === "loud-refusal") return refused(LOUD);
  const bad = text === "";
  if (behaviour === "quiet-refusal" && bad) {
    // A refusal in its words only, with no isError, and nothing written
    // (as task-orchestrator answers a CHECK constraint).
    return {
      content: [{
        type: "text",
        text: JSON.stringify({
          success: false,
          message: "CHECK constraint failed: length(text) > 0",
        }),
      }],
    };
  }
  if (
    bad && behaviour !== "writes-then-rejects" && behaviour !== "accepts-bad"
  ) {
    return refused("text must not be empty");
  }
  if (behaviour === "none") return ok({ written: null });
  if (behaviour === "writes-then-rejects" && bad) {
    // The write first, the check after: the refusal comes too late.
    add({ id, text });
    return refused("text must not be empty");
  }
  if (behaviour === "accepts-bad" && bad) {
    // No check at all: the bad call is written and answered success.
    add({ id, text });
    return ok({ written: { id, text } });
  }
  if (behaviour === "duplicates") {
    add({ id, text });
    return ok({ written: { id, text } });
  }
  if (behaviour === "loses-updates") {
    const copy = [...notes()];
    await new Promise((r) => setImmediate(r));
    if (!copy.some((n) => n.id === id)) copy.push({ id, text });
    replace(copy);
    return ok({ written: { id, text } });
  }
  const old = notes().find((n) => n.id === id);
  if (old === undefined) {
    add({ id, text });
    return ok({ written: { id, text } });
  }
  if (behaviour === "false-failure") {
    return refused(`UNIQUE constraint failed: notes.id (${id} already exists)`);
  }
  if (behaviour === "overwrites" && old.text !== text) {
    // The other text takes the old note's place.
    replace(notes().map((n) => n.id === id ? { id, text } : n));
    return ok({ written: { id, text } });
  }
  if (behaviour === "silent-conflict" || old.text === text) {
    return ok({ reused: old });
  }
  return refused(`conflict: ${id} exists with other text`);
}

/**
 * What a mode declares beyond TOOLS' own hints: more for put_note (over its
 * `readOnlyHint: false`), and in place of get_notes' (its `readOnlyHint:
 * true`) when given. `correct` keeps its word; the others say what they do
 * not do.
 */
const HINTS: Record<string, [object, object?]> = {
  correct: [{ idempotentHint: true, destructiveHint: false }],
  "list-fails": [{ idempotentHint: true, destructiveHint: false }],
  duplicates: [{ idempotentHint: true }],
  // Nor does it say its read tool is read-only.
  overwrites: [{ destructiveHint: false }, {}],
  "claims-read-only": [{ readOnlyHint: true }],
};

/** Which process over the store this one is (1: the first), for hold-…-N. */
let processNumber = 1;

async function handle(m: Record<string, unknown>) {
  const id = m.id;
  const tool = (m.params as { name?: unknown } | undefined)?.name;
  if (
    hold !== undefined && processNumber === hold.process &&
    (m.method === hold.phase ||
      (m.method === "tools/call" && tool === hold.phase))
  ) {
    // The phase is reached: say so, and never answer.
    // Written aside, then renamed: the test never reads a half-written
    // (empty) marker, as it did under load.
    Deno.writeTextFileSync(`${storeFile}.reached.part`, hold.phase);
    Deno.renameSync(`${storeFile}.reached.part`, `${storeFile}.reached`);
    return;
  }
  // A cancel: the SDK's way, a cancelled call gets no answer at all (and a
  // held one never had one coming).
  if (m.method === "notifications/cancelled") return;
  if (m.method === "initialize") {
    out({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: { tools: {} },
        // http-echo-auth: the header whole in the name, and split in two
        // across name and version.
        serverInfo: mode === "http-echo-auth"
          ? {
            name: `echo authorization=${authorization} ${
              authorization.slice(0, authorization.length >> 1)
            }`,
            version: authorization.slice(authorization.length >> 1),
          }
          : { name: serverName, version: "1" },
      },
    });
    return;
  }
  if (m.method === "tools/list" && mode === "list-fails") {
    out({
      jsonrpc: "2.0",
      id,
      error: { code: -32603, message: "tool registry unavailable" },
    });
    return;
  }
  if (m.method === "tools/list") {
    // Each mode's own hints over TOOLS' (see HINTS).
    const [put, get] = HINTS[mode] ?? [{}];
    const tools = [
      { ...TOOLS[0], annotations: { ...TOOLS[0].annotations, ...put } },
      { ...TOOLS[1], annotations: get ?? TOOLS[1].annotations },
    ];
    if (mode === "echo-read-bare") {
      tools[0] = {
        ...tools[0],
        inputSchema: {
          type: "object",
          properties: {
            id: { type: "string" },
            kind: { type: "string", enum: ["note", "task"] },
          },
          required: ["id", "kind"],
        } as unknown as typeof NOTE,
      };
      const { outputSchema: _, ...bare } = tools[1];
      tools[1] = bare as typeof tools[1];
    }
    if (mode === "assigns-id") {
      tools.push(
        {
          name: "open_notebook",
          inputSchema: { type: "object", properties: {}, required: [] },
          annotations: { readOnlyHint: false },
        } as unknown as typeof tools[0],
      );
    }
    // "paged": one tool a page. "pages-forever": a next page every time.
    const cursor = (m.params as { cursor?: string } | undefined)?.cursor;
    const result = mode === "paged"
      ? cursor === "page-2" ? { tools: [tools[1]] } : {
        tools: [tools[0]],
        nextCursor: "page-2",
      }
      : mode === "pages-forever"
      ? { tools: [tools[0]], nextCursor: "again" }
      : { tools };
    out({ jsonrpc: "2.0", id, result });
    return;
  }
  if (m.method !== "tools/call") return;
  const params = m.params as {
    name: string;
    arguments: Record<string, string>;
  };
  if (mode === "assigns-id" && params.name === "open_notebook") {
    const notebook = `nb-${crypto.randomUUID()}`;
    notebooks.add(notebook);
    out({ jsonrpc: "2.0", id, result: ok({ id: notebook }) });
    return;
  }
  if (
    mode === "assigns-id" && params.name === "put_note" &&
    !notebooks.has(params.arguments.notebook)
  ) {
    out({ jsonrpc: "2.0", id, result: refused("no such notebook") });
    return;
  }
  if (params.name === "get_notes") {
    if (landing !== undefined && putSeen) {
      // The load at start lands: it takes the place of what this process
      // wrote since, and is written back, as a shared state saved whole is.
      memory = landing;
      landing = undefined;
      save(memory);
    }
    if (mode === "deep-read") {
      // Each note's id nested 100,000 levels deep: a count that compares
      // ids cannot find the note it wrote.
      const deep = "[".repeat(100_000) + "]".repeat(100_000);
      const found = notes().filter((n) => n.id === params.arguments.id);
      writeLine(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":` +
          `[{"type":"text","text":"notes"}],"structuredContent":{"notes":[` +
          found.map(() => `{"id":${deep}}`).join(",") + "]}}}",
      );
    } else if (mode === "echo-read" || mode === "echo-read-bare") {
      // The query it ran, then what it found (as dbhub echoes its SELECT):
      // a count by text finds the key in the query itself.
      const found = notes().filter((n) => n.id === params.arguments.id);
      out({
        jsonrpc: "2.0",
        id,
        result: {
          content: [{
            type: "text",
            text: `SELECT * FROM notes WHERE id = '${params.arguments.id}'\n` +
              JSON.stringify(found),
          }],
        },
      });
    } else if (mode === "read-fails") {
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
          notes: notes().filter((n) => n.id === params.arguments.id),
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
  putSeen = true;
  if (mode === "exits-mid-call") Deno.exit(3);
  if (mode === "key-aside") {
    const p = m.params as { _meta?: { idempotencyKey?: unknown } } & {
      idempotencyKey?: unknown;
    };
    const key = p._meta?.idempotencyKey ?? p.idempotencyKey;
    if (typeof key !== "string" || key === "") {
      out({
        jsonrpc: "2.0",
        id,
        result: refused("an idempotency key is required"),
      });
      return;
    }
    const result = byKey.get(key) ??
      await put(
        String(params.arguments.id),
        String(params.arguments.text ?? ""),
      );
    if (!byKey.has(key)) byKey.set(key, result);
    out({ jsonrpc: "2.0", id, result });
    return;
  }
  if (mode === "in-flight-conflict" || mode === "in-flight-conflict-result") {
    const noteId = String(params.arguments.id);
    const first = inFlight.get(noteId);
    if (first !== undefined) {
      // A copy while the first is in flight: refused, retryable; the first
      // goes on now that a copy has seen it in flight.
      const message = `a put_note for ${noteId} is in progress: retry`;
      out(
        mode === "in-flight-conflict"
          ? {
            jsonrpc: "2.0",
            id,
            error: { code: IN_FLIGHT_CODE, message },
          }
          : {
            jsonrpc: "2.0",
            id,
            result: {
              content: [{ type: "text", text: message }],
              structuredContent: { error: { code: "IN_FLIGHT" } },
              isError: true,
            },
          },
      );
      first();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, HOLD_MS);
      inFlight.set(noteId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    inFlight.delete(noteId);
  }
  if (mode.startsWith("flood-")) {
    // Commits the note, then sends as fast as it is read, forever, and
    // never answers: lines that are not JSON, pings (each one a request
    // guardlab answers, on an input this server never reads again), or
    // answers to ids nobody asked.
    await put(String(params.arguments.id), String(params.arguments.text));
    for (let n = 1_000_000;; n++) {
      writeLine(
        mode === "flood-non-json"
          ? `log line ${n}: not JSON`
          : mode === "flood-ping"
          ? `{"jsonrpc":"2.0","id":${n},"method":"ping"}`
          : `{"jsonrpc":"2.0","id":${n},"result":{"content":[]}}`,
      );
    }
  }
  const result = await put(
    String(params.arguments.id),
    // echo-read-bare's put_note takes a kind where the others take a text.
    String(params.arguments.text ?? params.arguments.kind ?? ""),
  );
  if (mode === "never-answers") return;
  if (mode === "http-echo-auth") {
    // The header in the answer's words: twice, the second from the 196th
    // character on, across the 200th, where guardlab cuts what it shows
    // (5 of its characters before the cut: fewer than a piece it finds).
    const head = `seen ${authorization}; `;
    const words = head + "x".repeat(195 - head.length) + authorization;
    (result as { content: { text: string }[] }).content[0].text = words;
  }
  const wrote = (result as { structuredContent?: { written?: unknown } })
    .structuredContent?.written;
  if (
    (mode === "holds-until-cancelled" || mode === "deaf") &&
    wrote !== undefined
  ) {
    // A new note is committed; its answer waits for an event (the call's
    // cancel, after which none comes), never for time. A repeat is answered
    // at once.
    return;
  }
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

if (mode.startsWith("http")) {
  // Streamable HTTP on this machine's loopback, on a port the system picks
  // (written as the first line of stdout).
  const waiting = new Map<unknown, (value: unknown) => void>();
  out = (value) => waiting.get((value as { id?: unknown }).id)?.(value);
  const headers = { "mcp-session-id": "fixture-session" };
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => writeLine(String(port)),
  }, async (request) => {
    // "http-auth": every request, the session's end included, must carry the token.
    authorization = request.headers.get("authorization") ?? "";
    if (
      mode === "http-auth" &&
      request.headers.get("authorization") !== FIXTURE_TOKEN
    ) {
      await request.body?.cancel();
      return new Response("no token", { status: 401 });
    }
    if (request.method === "DELETE") {
      // http-init-stream never answers the end of its session either.
      return mode === "http-init-stream"
        ? await new Promise<Response>(() => {})
        : new Response(null, { status: 200 });
    }
    const message = await request.json();
    if (message.id === undefined) {
      handle(message);
      // The spec says no body; this mode sends `null`, as some servers do.
      return new Response(mode === "http-202-null" ? "null" : null, {
        status: 202,
        headers: mode === "http-202-null"
          ? { "content-type": "application/json" }
          : {},
      });
    }
    if (mode === "http-init-stream" && message.method === "initialize") {
      // An event stream that carries a comment now and then, never the
      // answer, and never ends.
      let timer: ReturnType<typeof setInterval>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(
            () => controller.enqueue(encoder.encode(": still here\n\n")),
            50,
          );
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, {
        headers: { ...headers, "content-type": "text/event-stream" },
      });
    }
    if (
      (mode === "http-sse-flood" || mode === "http-json-flood") &&
      message.params?.name === "put_note"
    ) {
      // A body that never ends and never carries the answer, sent as fast
      // as it is taken: data lines of one event that never closes, or
      // empty lines of JSON. It ends only when the client cancels it.
      const chunk = encoder.encode(
        mode === "http-sse-flood"
          ? `data: ${"x".repeat(1000)}\n`.repeat(64)
          : "\n".repeat(65536),
      );
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(chunk);
          },
          // The test waits for this line: the client stopped reading.
          cancel() {
            writeLine("body cancelled");
          },
        }),
        {
          headers: {
            ...headers,
            "content-type": mode === "http-sse-flood"
              ? "text/event-stream"
              : "application/json",
          },
        },
      );
    }
    const answered = new Promise((resolve) => waiting.set(message.id, resolve));
    handle(message);
    const answer = JSON.stringify(await answered);
    waiting.delete(message.id);
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
// Its own process id beside its store, for a test that checks it has ended.
if (storeFile !== undefined) {
  Deno.writeTextFileSync(`${storeFile}.server.pid`, String(Deno.pid));
  Deno.writeTextFileSync(`${storeFile}.starts`, `${Deno.pid}\n`, {
    append: true,
  });
  processNumber = Deno.readTextFileSync(`${storeFile}.starts`).split("\n")
    .filter((l) => l !== "").length;
}
if (mode === "banner") writeLine("fixture server starting (not JSON)");
if (mode === "dies-at-start") {
  console.error("fixture: cannot open its store");
  Deno.exit(2);
}
if (mode === "orphan") {
  // A process of its own that keeps this server's stdout open long after
  // the server exits (as a helper a server starts may).
  const helper = new Deno.Command(Deno.execPath(), {
    args: ["eval", "setTimeout(() => {}, 600_000)"],
    stdin: "null",
    stdout: "inherit",
    stderr: "null",
  }).spawn();
  Deno.writeTextFileSync(`${storeFile}.pid`, String(helper.pid));
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
// Its input ended: a buffered server writes its store now, and only now.
if (mode === "buffered" && storeFile !== undefined) save(memory);
// deaf lives on after its input ends: only a signal ends it.
if (mode === "deaf" || hold !== undefined) setInterval(() => {}, 60_000);
else Deno.exit(0);
