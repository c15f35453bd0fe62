/**
 * `guardlab mcp`'s server: the timing lab's tool over the Model Context
 * Protocol, on stdin and stdout. The SDK's low-level `Server` does the
 * JSON-RPC; guardlab's own validation judges every `tools/call` (no schema
 * check stands in front of the lab), a refusal is a tool result with
 * `isError: true`, and MCP's `notifications/cancelled` reaches the lab as
 * its `AbortSignal`. At most `MAX_CALLS_IN_FLIGHT` calls run at once; the
 * next waits in the client's pipe (`_gate.ts`). Every call to a
 * tool is recorded beside the receipts, with its session and number
 * (`../timing/call_schema.ts`).
 *
 * This module is loaded only by the `mcp` command, with a dynamic import.
 *
 * @module
 */
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  Server,
} from "./_sdk.ts";
import config from "../../deno.json" with { type: "json" };
import {
  hasFloatSyntax,
  isPlainRecord,
  parseJsonLikePython,
} from "../base/json.ts";
import { type Lang, say, type Text } from "../base/i18n.ts";
import type { Attempt, RunOutput } from "../timing/attempt.ts";
import { CALL_TOOLS, type CallTool } from "../timing/call_schema.ts";
import type { Faults, Lab } from "../timing/lab.ts";
import { type CallTag, microsNow } from "../timing/ledger.ts";
import { DEFAULT_HOLD_MS, type FaultSchedule } from "./faults.ts";
import { CallGate } from "./_gate.ts";
import { INSTRUCTIONS, SERVER_MESSAGES } from "./_messages.ts";
import { readTools } from "./_read_tools.ts";
import {
  draftResult,
  result,
  summaryOf,
  type ToolResult,
  validJob,
} from "./_results.ts";
import { LineTransport } from "../wire/line_transport.ts";
import { INVALID_PARAMS } from "../wire/message.ts";
import { CREATE_DRAFT, LEDGER, localized, RECONCILE, TOOLS } from "./_tools.ts";

/** The version member of a JSON-RPC message: its "2.0" is a string, never a number. */
const VERSION_MEMBER = /"jsonrpc"\s*:\s*"2\.0"/;
/** What the server needs from the command. */
export interface McpOptions {
  /** The lab, open on its ledger; the caller closes it. */
  lab: Lab;
  /** The ledger file, for the read-only second connection. */
  ledgerPath: string;
  /** Folders the ledger path is checked from. */
  trusted: readonly string[];
  /** The language of descriptions and messages. */
  lang: Lang;
  /** The faults, from `--faults`. */
  faults: FaultSchedule;
  /** The teaching switches every attempt runs with. */
  switches: Pick<Faults, "receipt" | "inputGuardrail">;
  /** The client's messages. */
  input: ReadableStream<Uint8Array>;
  /** Write one protocol line to the client. */
  write(line: string): void;
  /** Write one line of the server's log (stderr). */
  log(line: string): void;
}

/** A tool name fit for one log line. */
function printableName(name: string): string {
  return JSON.stringify(name.length > 40 ? name.slice(0, 40) + "…" : name);
}

/**
 * Resolve after `ms`, or as soon as `signal` aborts, at once if it already
 * has (a cancel that came before the hold began must not wait its time);
 * neither the timer nor the listener outlives it.
 */
export function hold(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Whether `value`, already a JSON-RPC message, is a `tools/call` request
 * (with an id the SDK accepts, a string or an integer): a notification of
 * that name reaches no handler, so it takes no place at the gate.
 */
function isToolsCallRequest(value: unknown): boolean {
  const message = value as { method?: unknown; id?: unknown };
  return message.method === "tools/call" &&
    (typeof message.id === "string" || Number.isInteger(message.id));
}

/** Whether `name` is one of the tools a call row may name. */
function isCallTool(name: string): name is CallTool {
  return (CALL_TOOLS as readonly string[]).includes(name);
}

/**
 * Serve MCP until the client closes its end, then let every call in flight
 * finish and answer (a call held by a fault has nobody left to cancel it: it
 * is cancelled then, and its receipt says so).
 *
 * Long: one session's state (its number, the call count, the gate, the
 * calls held and running) is shared by every handler as closures over it,
 * so no handler can reach another session's; the handlers themselves are
 * short and named (`callTool`, `createDraft`).
 */
export async function serveMcp(options: McpOptions): Promise<void> {
  const { lab, lang } = options;
  const server = new Server(
    { name: "guardlab", version: config.version },
    {
      capabilities: { tools: {} },
      instructions: say(INSTRUCTIONS, lang),
    },
  );
  const gate = new CallGate();
  const tools = readTools(options);
  let calls = 0;
  let session: number | undefined;
  /** Set when the client's input ended: a hold has nobody left to wait for. */
  let inputEnded = false;
  const holding = new Set<() => void>();
  const running = new Set<Promise<unknown>>();
  const log = (text: Text) => options.log(say(text, lang));

  /** This session's number on the ledger, made at its first call to a tool. */
  function sessionNumber(): number {
    if (session === undefined) {
      const client = server.getClientVersion();
      const name = `${client?.name ?? "?"} ${client?.version ?? ""}`.trim();
      session = lab.ledger.openSession(name);
      log(SERVER_MESSAGES.session(session, JSON.stringify(name)));
    }
    return session;
  }

  /** Record `tag`, a call that wrote no receipt; a failure is logged, never the answer. */
  function recordCall(tag: CallTag): void {
    try {
      lab.ledger.recordCall(tag);
    } catch (error) {
      log(SERVER_MESSAGES.notRecorded(tag.call, firstLine(error)));
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      description: say(t.description, lang),
      inputSchema: localized(t.inputSchema, lang),
      outputSchema: localized(t.outputSchema, lang),
      annotations: localized(t.annotations, lang),
    })),
  }));

  server.setRequestHandler(
    CallToolRequestSchema,
    (request: CallToolRequest, extra: { signal: AbortSignal }) => {
      const call = ++calls;
      // Every tools/call that reaches here took a place at the gate when
      // the transport handed it on; it gives the place back when it ends.
      const work = (async () => {
        try {
          return await callTool(call, request, extra.signal);
        } finally {
          gate.end();
        }
      })();
      running.add(work);
      work.finally(() => running.delete(work)).catch(() => {});
      return work as Promise<CallToolResult>;
    },
  );

  async function callTool(
    call: number,
    request: CallToolRequest,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const name = request.params.name;
    const args: unknown = request.params.arguments;
    if (!isCallTool(name)) {
      log(SERVER_MESSAGES.callLog(
        call,
        printableName(name),
        say(SERVER_MESSAGES.unknownToolLog, lang),
      ));
      throw new McpError(
        ErrorCode.InvalidParams,
        say(
          SERVER_MESSAGES.unknownTool(
            printableName(name),
            TOOLS.map((t) => t.name),
          ),
          lang,
        ),
      );
    }
    const tag: CallTag = {
      session: sessionNumber(),
      call,
      tool: name,
      job: validJob(args),
      startedUs: microsNow(),
    };
    if (name === CREATE_DRAFT.name) return await createDraft(tag, args, signal);
    const done = name === LEDGER.name
      ? tools.readLedger(args)
      : name === RECONCILE.name
      ? tools.reconcileNow()
      : tools.compensateNow(args);
    // A read leaves a trace too: "did my agent look before it retried?"
    recordCall(tag);
    log(SERVER_MESSAGES.callLog(call, name, done.content[0].text));
    return done;
  }

  async function createDraft(
    tag: CallTag,
    args: unknown,
    clientSignal: AbortSignal,
  ): Promise<ToolResult> {
    const { call } = tag;
    const plan = options.faults.faultsFor(call, args) ?? {};
    // The lab sees an AbortError, whatever reason the client gave.
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (clientSignal.aborted) abort();
    else clientSignal.addEventListener("abort", abort, { once: true });
    const holdAt = plan.holdAt;
    const faults: Faults = {
      ...options.switches,
      cancelAt: plan.cancelAt,
      failAt: plan.failAt,
      badOutput: plan.badOutput,
      auditFailure: plan.auditFailure,
      pause: holdAt === undefined ? undefined : (point) => {
        if (point !== holdAt) return undefined;
        // Nobody is left to send the cancel a hold waits for: treat the
        // end of the input as that cancel.
        if (inputEnded) {
          controller.abort();
          return undefined;
        }
        // The cancel is already here: there is nothing to wait for.
        if (controller.signal.aborted) return undefined;
        const ms = plan.holdMs ?? DEFAULT_HOLD_MS;
        log(SERVER_MESSAGES.held(call, holdAt, ms));
        holding.add(abort);
        // While it waits for the client, its place goes to the next call:
        // the cancel it waits for may be behind that call in the pipe.
        const lent = gate.lend();
        return hold(ms, controller.signal).finally(() => {
          holding.delete(abort);
          if (lent) gate.reclaim();
        });
      },
    };
    let observed: { output: RunOutput; attempt: Attempt };
    try {
      observed = await lab.ledger.taggedAs(
        tag,
        () => lab.observe(args, faults, controller.signal),
      );
    } finally {
      clientSignal.removeEventListener("abort", abort);
    }
    const structured = draftResult(lab, tag, args, observed, lang);
    // The receipt carried the call's row; without one, it is written alone.
    if (structured.receipt === null) recordCall(tag);
    const line = say(summaryOf(structured), lang);
    options.log(
      say(SERVER_MESSAGES.callLog(call, CREATE_DRAFT.name, line), lang) +
        (clientSignal.aborted
          ? say(SERVER_MESSAGES.clientCancelled, lang)
          : ""),
    );
    return result(structured, line, structured.status !== "accepted");
  }

  const transport = new LineTransport({
    input: options.input,
    write: options.write,
    isMessage: (value) => JSONRPCMessageSchema.safeParse(value).success,
    screen(value) {
      // The SDK would answer a malformed tools/call with -32603 (internal
      // error); it is the client's mistake: -32602, bad params. What passes
      // here the SDK hands to the handler, so its place at the gate is
      // always given back.
      const message = value as { method?: unknown; params?: unknown };
      if (message.method !== "tools/call") return null;
      const params = message.params;
      const ok = isPlainRecord(params) && typeof params.name === "string" &&
        (params.arguments === undefined || isPlainRecord(params.arguments)) &&
        params.task === undefined &&
        CallToolRequestSchema.safeParse(value).success;
      return ok ? null : {
        code: INVALID_PARAMS,
        message: say(SERVER_MESSAGES.invalidParams, lang),
      };
    },
    // A tools/call request waits here for a place; the transport reads no
    // further until it has one.
    admit: (value) => isToolsCallRequest(value) ? gate.admit() : undefined,
    async drain() {
      inputEnded = true;
      for (const release of holding) release();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    reparse: (text, value) => {
      // Tool arguments keep the reference's reading of numbers: 2.0 is a
      // float there, so the lab refuses it as copies, as `run --args` does.
      const message = value as { method?: unknown; params?: unknown };
      if (message.method !== "tools/call" || !isPlainRecord(message.params)) {
        return value;
      }
      // With no number written with a fraction or an exponent, the
      // reference's reading is JSON.parse's, which gave `value`: no second
      // parse. Every message holds "2.0" as its version, a string: left out
      // of the test (a number elsewhere still counts).
      if (!hasFloatSyntax(text.replace(VERSION_MEMBER, ""))) return value;
      const again = parseJsonLikePython(text) as {
        params: { arguments?: unknown };
      };
      return {
        ...message,
        params: { ...message.params, arguments: again.params.arguments },
      };
    },
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = () => {
    // A failed send to a client that went away: the ledger still says what happened.
  };
  await server.connect(transport);
  await closed;
  while (running.size > 0) await Promise.allSettled([...running]);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split(
    "\n",
  )[0];
}
