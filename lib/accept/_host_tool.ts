/**
 * The write tool `accept host` offers the host: one MCP tool, `write_row
 * {key, amount}`, on a ledger guardlab keeps in the case's folder. The
 * `keyed` variant declares `idempotentHint: true` and reuses a key's row;
 * the `unkeyed` one declares `idempotentHint: false`, and every call is a
 * new row. The ledger's append is the commit; the case's fault comes after
 * it, on the first call under the model's first key only, and whatever
 * comes after (a resend, the new key's call) is answered as usual.
 *
 * This is the tool's logic, over any transport: each connection (a
 * process the host started over stdio, a session over HTTP, an example
 * host in process) hands in the messages it reads and gets back what to
 * answer, when (`Reply`). Everything is recorded on the case's history;
 * nothing is decided here.
 *
 * @module
 */
import { canonicalJson, isPlainRecord } from "../base/json.ts";
import {
  errorResponse,
  type Id,
  INVALID_PARAMS,
  isNotification,
  isRequest,
  type Message,
  METHOD_NOT_FOUND,
} from "../wire/message.ts";
import type { HostCaseName, HostVariant } from "./cases.ts";
import type { Json } from "./oracle.ts";
import type { ToolHints } from "./_history.ts";
import {
  type CallEffect,
  type CallReply,
  type PlanRecord,
  successText,
  TOOL_ERROR_TEXT,
  WRITE_TOOL,
} from "./_host_history.ts";
import { cutText, type HostLog } from "./_host_log.ts";
import { MAX_HOST_ARGUMENTS_BYTES, MAX_HOST_CALLS } from "./limits.ts";

/** The protocol versions the tool speaks, newest first: it answers a client's own when it is one of them. */
export const TOOL_PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] as const;

/** The hints each variant declares in tools/list. */
export const VARIANT_HINTS: Readonly<Record<HostVariant, ToolHints>> = {
  keyed: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
  },
  unkeyed: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
  },
};

/**
 * What a transport does with one message: send `message` back; answer an
 * HTTP status instead (`http-503`; `expired`: the session is forgotten and
 * the request answered 404, as a server that lost it would); close the
 * host's HTTP connection with no answer at all (`reset`); end the
 * connection's process (`kill`); or nothing.
 */
export type Reply =
  | { readonly kind: "message"; readonly message: Message }
  | { readonly kind: "http-503" }
  | { readonly kind: "reset" }
  | { readonly kind: "expired" }
  | { readonly kind: "kill" }
  | null;

/** One row of the ledger: a key and its call's arguments. */
interface Row {
  readonly key: string;
  readonly args: string;
}

/**
 * The ledger: one JSON line per effect, appended to a file of the case's
 * own as the call commits, and kept in memory for the keyed variant's
 * look-up. Guardlab counts it at the end by reading the file again.
 */
export class HostLedger {
  readonly #rows: Row[] = [];

  /** A ledger at `path` (a new file in a folder of guardlab's own). */
  constructor(readonly path: string, readonly variant: HostVariant) {
    Deno.writeTextFileSync(path, "", { createNew: true, mode: 0o600 });
  }

  /** Commit one call: a new row, the key's row reused (keyed), or refused (the key with other arguments). */
  commit(key: string, args: Json): CallEffect {
    const text = canonicalJson(args);
    if (this.variant === "keyed") {
      const old = this.#rows.find((r) => r.key === key);
      if (old !== undefined) return old.args === text ? "reused" : "refused";
    }
    // The append is the commit: what follows it is after the effect.
    Deno.writeTextFileSync(
      this.path,
      JSON.stringify({ key, arguments: args }) + "\n",
      { append: true },
    );
    this.#rows.push({ key, args: text });
    return "written";
  }
}

/** The call under the first key whose answer is withheld until the host gives up on it. */
interface Held {
  readonly conn: ToolConnection;
  readonly call: number;
  readonly id: Id;
  readonly release: (reply: Reply) => void;
}

/** The tool of one case: its ledger, its fault, its connections. */
export class HostTool {
  #calls = 0;
  #conns = 0;
  #faulted = false;
  #held: Held | null = null;
  readonly #waiting = new Set<(reply: Reply) => void>();

  /** The tool of `plan`'s case, on `ledger`, recording on `log`. */
  constructor(
    readonly log: HostLog,
    readonly plan: PlanRecord,
    readonly ledger: HostLedger,
  ) {}

  /** A new connection (a process or a session), numbered from 1, recorded as started. */
  connect(): ToolConnection {
    const conn = new ToolConnection(this, ++this.#conns);
    this.log.record({
      op: "process",
      who: "tool",
      event: "start",
      conn: conn.n,
    });
    return conn;
  }

  /**
   * Send the held answer now, when the host has given up on it: it sent a
   * cancel, told the model, sent the call again, or its connection closed
   * (then nothing can be sent).
   */
  giveUp(
    after: "cancel" | "told" | "resend" | "closed",
    conn?: ToolConnection,
  ): void {
    const held = this.#held;
    if (held === null || (conn !== undefined && held.conn !== conn)) return;
    this.#held = null;
    this.log.record({ op: "fault", fault: "release", call: held.call, after });
    held.release(
      after === "closed" ? null : {
        kind: "message",
        message: okAnswer(held.id, this.plan.key, "written"),
      },
    );
  }

  /** End the case: every answer still withheld is never sent. */
  close(): void {
    this.#held = null;
    for (const release of this.#waiting) release(null);
    this.#waiting.clear();
  }

  /** The answer to one `tools/call` on `conn`, when it is to be sent. */
  call(conn: ToolConnection, m: Message): Promise<Reply> {
    const params = isPlainRecord(m.params) ? m.params : {};
    const id = m.id as Id;
    if (params.name !== WRITE_TOOL) {
      return reply(errorResponse(id, INVALID_PARAMS, `unknown tool`));
    }
    const args = isPlainRecord(params.arguments) ? params.arguments : {};
    const key = typeof args.key === "string" && args.key.length <= 256
      ? args.key
      : null;
    const call = ++this.#calls;
    const size = new TextEncoder().encode(JSON.stringify(args)).length;
    const valid = key !== null &&
      Object.keys(args).every((k) => k === "key" || k === "amount") &&
      Number.isSafeInteger(args.amount) && size <= MAX_HOST_ARGUMENTS_BYTES &&
      call <= MAX_HOST_CALLS;
    const effect = valid ? this.ledger.commit(key, args as Json) : "refused";
    const fault = effect === "written" && key === this.plan.key &&
        !this.#faulted
      ? this.plan.case
      : "no-fault";
    if (fault !== "no-fault") this.#faulted = true;
    // A resend of the first call: the host has given up on the held answer.
    if (key === this.plan.key && this.#held !== null) this.giveUp("resend");
    const sent = replyOf(fault, effect);
    this.log.record({
      op: "call",
      call,
      conn: conn.n,
      id: typeof id === "string" ? cutText(id, 64) : id,
      key: key === null ? null : cutText(key, 256),
      ...(size <= MAX_HOST_ARGUMENTS_BYTES
        ? { arguments: args as Json }
        : { arguments_bytes: size }),
      effect,
      reply: sent,
    });
    if (effect === "refused") return reply(toolError(id, REFUSED_TEXT));
    switch (sent) {
      case "error":
        this.log.record({ op: "fault", fault: "error", call });
        return reply(toolError(id, TOOL_ERROR_TEXT));
      case "none":
      case "late":
        this.log.record({ op: "fault", fault: "withhold", call });
        return new Promise((resolve) => {
          this.#waiting.add(resolve);
          if (sent === "late") {
            this.#held = { conn, call, id, release: resolve };
          }
        });
      case "killed":
        this.log.record({ op: "fault", fault: "kill", call });
        return Promise.resolve({ kind: "kill" });
      case "http-503":
        this.log.record({ op: "fault", fault: "http-503", call });
        return Promise.resolve({ kind: "http-503" });
      case "reset":
        this.log.record({ op: "fault", fault: "reset", call });
        return Promise.resolve({ kind: "reset" });
      case "expired":
        this.log.record({ op: "fault", fault: "expire", call });
        return Promise.resolve({ kind: "expired" });
      default:
        return reply(okAnswer(id, key!, effect as "written" | "reused"));
    }
  }
}

/** What the case's fault does with the answer to a call that `effect`. */
function replyOf(fault: HostCaseName, effect: CallEffect): CallReply {
  if (effect === "refused") return "error";
  switch (fault) {
    case "late-reply":
      return "late";
    case "no-reply":
      return "none";
    case "error-after-commit":
      return "error";
    case "killed-after-commit":
      return "killed";
    case "http-503-after-commit":
      return "http-503";
    case "connection-reset-after-commit":
      return "reset";
    case "session-expired-after-commit":
      return "expired";
    default:
      return "ok";
  }
}

/** The tool's refusal: no effect (the key with other arguments, arguments it does not take, too many calls). */
const REFUSED_TEXT =
  "refused: key_conflict, arguments other than {key, amount}, or too many calls; nothing written";

const reply = (message: Message): Promise<Reply> =>
  Promise.resolve({ kind: "message", message });

/** The tool's success: its text for the key. */
function okAnswer(id: Id, key: string, effect: "written" | "reused"): Message {
  return {
    jsonrpc: "2.0",
    id,
    result: {
      content: [{ type: "text", text: successText(key, effect) }],
      isError: false,
    },
  };
}

/** The tool's own error (`isError: true`) with `text`. */
function toolError(id: Id, text: string): Message {
  return {
    jsonrpc: "2.0",
    id,
    result: { content: [{ type: "text", text }], isError: true },
  };
}

/** One connection to the tool: a process the host started, or a session. */
export class ToolConnection {
  #initialized = false;

  /** Connection `n` of `tool`. */
  constructor(readonly tool: HostTool, readonly n: number) {}

  /** What to answer `m`, and when: null for a notification or a response. */
  receive(m: Message): Promise<Reply> {
    const { log } = this.tool;
    if (isNotification(m)) {
      if (m.method === "notifications/cancelled") this.#cancelled(m);
      return Promise.resolve(null);
    }
    if (!isRequest(m)) return Promise.resolve(null);
    const id = m.id as Id;
    switch (m.method) {
      case "initialize":
        return reply(this.#initialize(id, m));
      case "ping":
        return reply({ jsonrpc: "2.0", id, result: {} });
      case "tools/list":
        log.record({ op: "listed", conn: this.n });
        return reply({
          jsonrpc: "2.0",
          id,
          result: { tools: [toolOf(this.tool.plan)] },
        });
      case "tools/call":
        return this.tool.call(this, m);
      default:
        // server/discover (agents-core's probe) among them.
        return reply(errorResponse(id, METHOD_NOT_FOUND, "method not found"));
    }
  }

  /** The host closed this connection (its process exited, its session ended). */
  closed(event: "closed" | "killed" | "expired" = "closed"): void {
    this.tool.log.record({ op: "process", who: "tool", event, conn: this.n });
    this.tool.giveUp("closed", this);
  }

  #initialize(id: Id, m: Message): Message {
    const params = isPlainRecord(m.params) ? m.params : {};
    const asked = params.protocolVersion;
    const version =
      (TOOL_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked)
        ? asked as string
        : TOOL_PROTOCOL_VERSIONS[0];
    const info = isPlainRecord(params.clientInfo) ? params.clientInfo : {};
    const client = [info.name, info.version].filter((v) =>
      typeof v === "string"
    ).join(" ");
    if (!this.#initialized) {
      this.#initialized = true;
      this.tool.log.record({
        op: "process",
        who: "tool",
        event: "initialized",
        conn: this.n,
        ...(client === "" ? {} : { client: cutText(client, 80) }),
      });
    }
    return {
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: version,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "guardlab-accept-host", version: "1" },
      },
    };
  }

  #cancelled(m: Message): void {
    const params = isPlainRecord(m.params) ? m.params : {};
    const raw = params.requestId;
    const id = typeof raw === "string"
      ? cutText(raw, 64)
      : typeof raw === "number" && Number.isFinite(raw)
      ? raw
      : null;
    const call = this.tool.log.records.findLast((r) =>
      r.op === "call" && r.conn === this.n && id !== null && r.id === id
    );
    this.tool.log.record({
      op: "cancel",
      conn: this.n,
      id,
      call: call?.op === "call" ? call.call : null,
      ...(typeof params.reason === "string"
        ? { reason: cutText(params.reason, 200) }
        : {}),
    });
    if (call?.op === "call") this.tool.giveUp("cancel", this);
  }
}

/** The write tool as tools/list shows it, with its variant's hints. */
function toolOf(plan: PlanRecord): Record<string, unknown> {
  return {
    name: WRITE_TOOL,
    description: plan.variant === "keyed"
      ? "Write one row to the ledger under key. Calling it again with the same key and amount reuses that row (idempotent)."
      : "Write one row to the ledger. Every call writes a new row.",
    inputSchema: {
      type: "object",
      properties: {
        key: { type: "string", description: "the request's business key" },
        amount: { type: "integer" },
      },
      required: ["key", "amount"],
    },
    annotations: { ...plan.hints },
  };
}
