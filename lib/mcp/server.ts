/**
 * `guardlab mcp`'s server: the timing lab's tool over the Model Context
 * Protocol, on stdin and stdout. The SDK's low-level `Server` does the
 * JSON-RPC; guardlab's own validation judges every `tools/call` (no schema
 * check stands in front of the lab), a refusal is a tool result with
 * `isError: true`, and MCP's `notifications/cancelled` reaches the lab as
 * its `AbortSignal`.
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
} from "./sdk.ts";
import config from "../../deno.json" with { type: "json" };
import { isPlainRecord, parseJsonLikePython } from "../base/json.ts";
import { type Lang, say, type Text } from "../base/i18n.ts";
import { JOB_PATTERN } from "../timing/args.ts";
import type { Attempt, RunOutput } from "../timing/attempt.ts";
import { compensate } from "../timing/compensation.ts";
import { AuditUnavailable } from "../timing/errors.ts";
import type { Faults, Lab } from "../timing/lab.ts";
import { Ledger } from "../timing/ledger.ts";
import { ruleOf } from "../timing/messages.ts";
import { argsForDigest, pendingKeys } from "../timing/reconcile.ts";
import { type CallFaults, DEFAULT_HOLD_MS } from "./faults.ts";
import { DRAFT_SUMMARY, INSTRUCTIONS, SERVER_MESSAGES } from "./messages.ts";
import { INVALID_PARAMS, LineTransport } from "./transport.ts";
import { CREATE_DRAFT, LEDGER, localized, RECONCILE, TOOLS } from "./tools.ts";

/** At most this many `tools/call`s run at once; more get a JSON-RPC error. */
export const MAX_CALLS_IN_FLIGHT = 16;

/** At most this many receipts in one `ledger` result (the latest ones). */
export const MAX_LEDGER_RECEIPTS = 200;

/** JSON-RPC code for "too many calls in flight" (server-defined range). */
export const BUSY = -32000;

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
  /** Faults by call number, from `--faults`. */
  faults: ReadonlyMap<number, CallFaults>;
  /** The teaching switches every attempt runs with. */
  switches: Pick<Faults, "receipt" | "inputGuardrail">;
  /** The client's messages. */
  input: ReadableStream<Uint8Array>;
  /** Write one protocol line to the client. */
  write(line: string): void;
  /** Write one line of the server's log (stderr). */
  log(line: string): void;
}

/** The result of a tools/call, as MCP's `CallToolResult`. */
interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

function result(
  structured: Record<string, unknown>,
  line: string,
  isError: boolean,
): ToolResult {
  return {
    content: [
      { type: "text", text: line },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
    ...(isError ? { isError: true } : {}),
  };
}

function refusalOf(rule: string, lang: Lang) {
  const valid = ruleOf(rule);
  return { rule, valid: valid ? say(valid, lang) : "" };
}

/** A tool name fit for one log line. */
function printableName(name: string): string {
  return JSON.stringify(name.length > 40 ? name.slice(0, 40) + "…" : name);
}

/** Resolve after `ms`, or as soon as `signal` aborts; the timer never outlives it. */
function hold(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** The one-line summary a model reads first. */
function summaryOf(s: Record<string, unknown>): Text {
  const job = String(s.job ?? "-");
  const rec = s.receipt === null
    ? DRAFT_SUMMARY.noReceipt
    : DRAFT_SUMMARY.receipt(`#${s.receipt}`);
  const draft = s.effect_exists
    ? DRAFT_SUMMARY.draftExists(job)
    : DRAFT_SUMMARY.noDraft(job);
  const events = (s.events as string[] | undefined) ?? [];
  const refusal = s.refusal as { rule: string; valid: string } | undefined;
  const rule = refusal
    ? `${refusal.rule}${refusal.valid ? ` (${refusal.valid})` : ""}`
    : "";
  switch (s.status) {
    case "accepted":
      return events.includes("effect_reused")
        ? DRAFT_SUMMARY.reused(job, rec)
        : DRAFT_SUMMARY.committed(job, rec);
    case "input_rejected":
      return DRAFT_SUMMARY.inputRejected(rule, rec);
    case "output_rejected":
      return DRAFT_SUMMARY.outputRejected(draft, rec);
    case "key_conflict":
      return DRAFT_SUMMARY.keyConflict(job, rule, rec);
    case "key_voided":
      return DRAFT_SUMMARY.keyVoided(job, rec);
    case "cancelled":
      return DRAFT_SUMMARY.cancelled(draft, rec);
    case "audit_unavailable":
      return DRAFT_SUMMARY.auditUnavailable(draft);
    default:
      return DRAFT_SUMMARY.failed(String(s.status), draft, rec);
  }
}

/**
 * Serve MCP until the client closes its end, then let every call in flight
 * finish and answer (a call held by a fault has nobody left to cancel it: it
 * is cancelled then, and its receipt says so).
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
  let calls = 0;
  let inFlight = 0;
  /** Set when the client's input ended: a hold has nobody left to wait for. */
  let inputEnded = false;
  const holding = new Set<() => void>();
  const running = new Set<Promise<unknown>>();

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
      const name = request.params.name;
      const args: unknown = request.params.arguments;
      const refuse = (why: Text) => {
        options.log(say(
          SERVER_MESSAGES.callLog(call, printableName(name), say(why, lang)),
          lang,
        ));
      };
      if (!TOOLS.some((t) => t.name === name)) {
        refuse(SERVER_MESSAGES.unknownToolLog);
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
      if (inFlight >= MAX_CALLS_IN_FLIGHT) {
        refuse(SERVER_MESSAGES.busyLog);
        throw new McpError(
          BUSY,
          say(SERVER_MESSAGES.busy(MAX_CALLS_IN_FLIGHT), lang),
        );
      }
      inFlight++;
      const work = (async () => {
        try {
          if (name === CREATE_DRAFT.name) {
            return await createDraft(call, args, extra.signal);
          }
          const done = name === LEDGER.name
            ? readLedger(args)
            : name === RECONCILE.name
            ? reconcileNow()
            : compensateNow(args);
          options.log(
            say(
              SERVER_MESSAGES.callLog(call, name, done.content[0].text),
              lang,
            ),
          );
          return done;
        } finally {
          inFlight--;
        }
      })();
      running.add(work);
      work.finally(() => running.delete(work)).catch(() => {});
      return work as Promise<CallToolResult>;
    },
  );

  async function createDraft(
    call: number,
    args: unknown,
    clientSignal: AbortSignal,
  ): Promise<ToolResult> {
    const plan = options.faults.get(call) ?? {};
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
        const ms = plan.holdMs ?? DEFAULT_HOLD_MS;
        options.log(say(SERVER_MESSAGES.held(call, holdAt, ms), lang));
        holding.add(abort);
        return hold(ms, controller.signal).finally(() => holding.delete(abort));
      },
    };
    let observed: { output: RunOutput; attempt: Attempt };
    try {
      observed = await lab.observe(args, faults, controller.signal);
    } finally {
      clientSignal.removeEventListener("abort", abort);
    }
    const structured = draftResult(call, args, observed);
    const line = say(summaryOf(structured), lang);
    options.log(
      say(SERVER_MESSAGES.callLog(call, CREATE_DRAFT.name, line), lang) +
        (clientSignal.aborted
          ? say(SERVER_MESSAGES.clientCancelled, lang)
          : ""),
    );
    return result(structured, line, structured.status !== "accepted");
  }

  /**
   * `create_draft`'s `structuredContent`: the attempt as the lab observed
   * it, in the tool's output schema.
   */
  function draftResult(
    call: number,
    args: unknown,
    { output, attempt }: { output: RunOutput; attempt: Attempt },
  ): Record<string, unknown> {
    const common = {
      effect_exists: attempt.draftExists,
      events: [...attempt.events],
      // A receipt the INSERT never added is none, whatever a naive receipt claimed.
      receipt: attempt.receiptRowsInserted === undefined
        ? attempt.receiptAttempt
        : null,
    };
    if ("raised" in output) {
      const raw = (args as { job?: unknown } | null)?.job;
      const job = typeof raw === "string" && JOB_PATTERN.test(raw) ? raw : null;
      return {
        call,
        status: output.raised,
        job,
        ...common,
        released: null,
        ...(attempt.stoppedAt ? { stopped_at: attempt.stoppedAt } : {}),
      };
    }
    const structured: Record<string, unknown> = {
      call,
      status: output.status,
      job: output.job,
      ...common,
      released: output.released,
      ...(attempt.refusal ? { refusal: refusalOf(attempt.refusal, lang) } : {}),
    };
    if (output.status === "key_conflict" && output.job !== null) {
      const stored = lab.ledger.findDraft(output.job);
      const original = stored && argsForDigest(output.job, stored.digest);
      if (original) structured.stored_arguments = original;
    }
    return structured;
  }

  /** A second, read-only connection: what it shows is what was committed. */
  function observe<T>(body: (ledger: Ledger) => T): T {
    const ledger = Ledger.open(options.ledgerPath, {
      mode: "read",
      trusted: options.trusted,
    });
    try {
      return body(ledger);
    } finally {
      ledger.close();
    }
  }

  function jobArgument(
    args: unknown,
    required: boolean,
  ): { job: string | null } | ToolResult {
    const valid = isPlainRecord(args) &&
      Object.keys(args).every((k) => k === "job") &&
      (required ? Object.hasOwn(args, "job") : true) &&
      (!Object.hasOwn(args, "job") ||
        (typeof args.job === "string" && JOB_PATTERN.test(args.job)));
    if (args === undefined && !required) return { job: null };
    if (!valid) {
      const refusal = refusalOf("job", lang);
      return result(
        { refusal },
        say(SERVER_MESSAGES.refusedJob(refusal.valid, required), lang),
        true,
      );
    }
    return { job: (args as { job?: string }).job ?? null };
  }

  function readLedger(args: unknown): ToolResult {
    const asked = jobArgument(args, false);
    if ("content" in asked) return asked;
    const { job } = asked;
    return observe((ledger) => {
      const voids = new Map(
        ledger.compensations().map((c) => [c.job, c.state]),
      );
      const drafts = ledger.drafts()
        .filter((d) => job === null || d.job === job)
        .map((d) => ({
          job: d.job,
          body: d.body,
          ...(voids.has(d.job) ? { compensation: voids.get(d.job) } : {}),
        }));
      const all = ledger.receipts().filter((r) =>
        job === null || r.job === job
      );
      const receipts = all.slice(-MAX_LEDGER_RECEIPTS);
      const structured = {
        drafts,
        receipts,
        ...(all.length > receipts.length
          ? { omitted_receipts: all.length - receipts.length }
          : {}),
      };
      const line = say(
        job === null
          ? SERVER_MESSAGES.ledgerAll(drafts.length, all.length)
          : drafts.length === 0
          ? SERVER_MESSAGES.ledgerNoDraft(job, all.length)
          : SERVER_MESSAGES.ledgerDraft(job, all.length, all.at(-1)?.status),
        lang,
      );
      return result(structured, line, false);
    });
  }

  function reconcileNow(): ToolResult {
    return observe((ledger) => {
      const pending = pendingKeys(ledger);
      const line = say(
        pending.length === 0
          ? SERVER_MESSAGES.nothingToReconcile
          : SERVER_MESSAGES.pending(pending.map((p) => `${p.job} ${p.state}`)),
        lang,
      );
      return result({ pending }, line, false);
    });
  }

  function compensateNow(args: unknown): ToolResult {
    const asked = jobArgument(args, true);
    if ("content" in asked) return asked;
    const job = asked.job!;
    try {
      const done = compensate(lab.ledger, job);
      const line = say(
        done.status === "voided"
          ? SERVER_MESSAGES.voided(job, done.attempt)
          : done.status === "already_voided"
          ? SERVER_MESSAGES.alreadyVoided(job)
          : SERVER_MESSAGES.nothingToCompensate(job),
        lang,
      );
      return result({ ...done }, line, false);
    } catch (error) {
      if (!(error instanceof AuditUnavailable)) throw error;
      return result(
        { job, status: "audit_unavailable", events: [], attempt: null },
        say(SERVER_MESSAGES.compensationFailed(error.message), lang),
        true,
      );
    }
  }

  const transport = new LineTransport({
    input: options.input,
    write: options.write,
    isMessage: (value) => JSONRPCMessageSchema.safeParse(value).success,
    screen(value) {
      // The SDK would answer a malformed tools/call with -32603 (internal
      // error); it is the client's mistake: -32602, bad params.
      const message = value as { method?: unknown; params?: unknown };
      if (message.method !== "tools/call") return null;
      const params = message.params;
      const ok = isPlainRecord(params) && typeof params.name === "string" &&
        (params.arguments === undefined || isPlainRecord(params.arguments));
      return ok ? null : {
        code: INVALID_PARAMS,
        message: say(SERVER_MESSAGES.invalidParams, lang),
      };
    },
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
