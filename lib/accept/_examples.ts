/**
 * Small example servers built into guardlab, for `accept --example NAME`:
 * real MCP servers (the SDK's own `Server`) that run in this process over
 * the SDK's in-memory transport, so a student runs the whole matrix under
 * the temp-only grant without starting anything. Each keeps notes by id in
 * memory and gets it right or wrong in one way:
 *
 * - `idempotent`: a note is written once per id; the same id with the
 *   same text is reused, with other text refused as a conflict.
 * - `duplicates-on-retry`: every call appends a note, whatever its id.
 * - `loses-updates`: reads all notes, awaits, then writes them all back,
 *   so calls that overlap overwrite each other's notes.
 * - `false-failure`: writes once per id, but answers a repeat with an
 *   error, though the note it asked for exists.
 *
 * Each declares hints in tools/list: `idempotent` keeps them;
 * `duplicates-on-retry` and `false-failure` say `idempotentHint: true`
 * and do not keep it; `loses-updates` declares none. Every server over one
 * store shares it: a second server (`two-processes`) or a restart
 * (`crash-after-commit`) sees the notes the first wrote.
 *
 * @module
 */
import { setImmediate } from "node:timers";
import { type Channel, receiveText } from "../wire/channel.ts";
import type { ExampleName } from "./cases.ts";
import {
  CallToolRequestSchema,
  InMemoryTransport,
  ListToolsRequestSchema,
  Server,
} from "./_sdk.ts";

interface Note {
  id: string;
  text: string;
}

type Result = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const ok = (value: Record<string, unknown>): Result => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});
const refused = (why: string): Result => ({
  content: [{ type: "text", text: why }],
  isError: true,
});

/** Let every message already delivered run first, as another request would on a real server. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The notes a server holds. */
interface Store {
  notes: Note[];
}

/** How each example writes a note: the one place they differ. */
const WRITERS: Readonly<
  Record<ExampleName, (store: Store, note: Note) => Result | Promise<Result>>
> = {
  idempotent(store, note) {
    const old = store.notes.find((n) => n.id === note.id);
    if (old === undefined) {
      store.notes.push(note);
      return ok({ written: note });
    }
    return old.text === note.text
      ? ok({ reused: old })
      : refused(`conflict: ${note.id} exists with other text`);
  },
  "duplicates-on-retry"(store, note) {
    store.notes.push(note);
    return ok({ written: note });
  },
  async "loses-updates"(store, note) {
    // Read, await, write back: what an overlapping call wrote meanwhile is lost.
    const copy = [...store.notes];
    await turn();
    if (!copy.some((n) => n.id === note.id)) copy.push(note);
    store.notes = copy;
    return ok({ written: note });
  },
  "false-failure"(store, note) {
    if (store.notes.some((n) => n.id === note.id)) {
      return refused(`failed: ${note.id} already exists`);
    }
    store.notes.push(note);
    return ok({ written: note });
  },
};

/** What each example's put_note declares in tools/list: the hints a host reads before it retries. */
const PUT_HINTS: Readonly<Record<ExampleName, Record<string, boolean>>> = {
  // It keeps its word.
  idempotent: {
    readOnlyHint: false,
    idempotentHint: true,
    destructiveHint: false,
  },
  // Both say a retry is safe; neither is (chapter 8 shows what accept says).
  "duplicates-on-retry": { readOnlyHint: false, idempotentHint: true },
  "false-failure": { readOnlyHint: false, idempotentHint: true },
  // Declares nothing, for put_note or get_notes.
  "loses-updates": {},
};

/** The tools of example `name`, with the hints it declares. */
function toolsOf(name: ExampleName) {
  const hinted = Object.keys(PUT_HINTS[name]).length > 0;
  return [
    {
      name: "put_note",
      description: "Write a note by id.",
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string" },
          text: { type: "string", minLength: 1 },
        },
        required: ["id", "text"],
      },
      ...(hinted ? { annotations: PUT_HINTS[name] } : {}),
    },
    {
      name: "get_notes",
      description: "The notes with this id.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
      },
      ...(hinted ? { annotations: { readOnlyHint: true } } : {}),
    },
  ];
}

/**
 * Example `name` over one store: each `open` starts a server of its own in
 * this process (as a second process, or a restart, would be) over the
 * same notes, and returns a channel to it.
 */
export function exampleServer(
  name: ExampleName,
): { open(): Promise<Channel> } {
  const store: Store = { notes: [] };
  return { open: () => exampleOver(name, store) };
}

/** Start example `name` in this process, over a store of its own, and return a channel to it. */
export function exampleChannel(name: ExampleName): Promise<Channel> {
  return exampleServer(name).open();
}

async function exampleOver(name: ExampleName, store: Store): Promise<Channel> {
  const server = new Server(
    { name: `guardlab-example-${name}`, version: "1" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsOf(name),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (
      request: {
        params: { name: string; arguments?: Record<string, unknown> };
      },
    ) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (request.params.name === "get_notes") {
        return ok({ notes: store.notes.filter((n) => n.id === args.id) });
      }
      if (request.params.name !== "put_note") return refused("unknown tool");
      if (
        typeof args.id !== "string" || typeof args.text !== "string" ||
        args.text === ""
      ) {
        return refused("refused: id and a non-empty text are needed");
      }
      return await WRITERS[name](store, { id: args.id, text: args.text });
    },
  );
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(theirs);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await ours.close();
  };
  const channel: Channel = {
    send(message) {
      if (closed) return;
      // Each message crosses as on a wire: a copy, delivered after this turn.
      const copy = structuredClone(message);
      queueMicrotask(() =>
        ours.send(copy as Parameters<typeof ours.send>[0]).catch(() => {})
      );
    },
    stderrTail: () => [],
    close,
    // In process, a crash is the server dropped mid-session: its store,
    // like a file, stays.
    kill: close,
  };
  // What the server says is read as any server's: its text, through the
  // one message parser and its bounds.
  ours.onmessage = (message: unknown) =>
    receiveText(channel, JSON.stringify(message));
  ours.onclose = () => channel.onclose?.({ kind: "closed" });
  await ours.start();
  return channel;
}
