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
import { AuditUnavailable } from "../base/errors.ts";
import { JOB_PATTERN } from "../timing/args.ts";
import { isPlainRecord } from "../base/json.ts";
import { compensate } from "../timing/compensation.ts";
import type { Faults, Lab } from "../timing/lab.ts";
import { Ledger } from "../timing/ledger.ts";
import { raisedOf } from "../timing/outcome.ts";
import { argsForDigest, pendingKeys } from "../timing/reconcile.ts";
import { parseJsonLikePython } from "../base/json.ts";
import { type Lang, say, type Text } from "../base/i18n.ts";
import { RULES } from "../views/timeline.ts";
import { type CallFaults, DEFAULT_HOLD_MS } from "./faults.ts";
import { INVALID_PARAMS, LineTransport } from "./transport.ts";
import {
  CREATE_DRAFT,
  INSTRUCTIONS,
  LEDGER,
  localized,
  RECONCILE,
  TOOLS,
} from "./tools.ts";

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
  return {
    rule,
    valid: Object.hasOwn(RULES, rule) ? say(RULES[rule], lang) : "",
  };
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
  const receipt = s.receipt === null ? null : `#${s.receipt}`;
  const rec: Text = receipt === null
    ? { en: "no receipt was written", zh: "没有写下回执" }
    : { en: `receipt ${receipt}`, zh: `回执 ${receipt}` };
  const draft: Text = s.effect_exists
    ? { en: `the draft ${job} exists`, zh: `草稿 ${job} 存在` }
    : { en: `no draft ${job} exists`, zh: `草稿 ${job} 不存在` };
  const events = (s.events as string[] | undefined) ?? [];
  const refusal = s.refusal as { rule: string; valid: string } | undefined;
  const rule = refusal
    ? `${refusal.rule}${refusal.valid ? ` (${refusal.valid})` : ""}`
    : "";
  switch (s.status) {
    case "accepted":
      return events.includes("effect_reused")
        ? {
          en:
            `accepted: ${job} already existed and was reused, no second draft; ${rec.en}`,
          zh: `accepted：${job} 早已存在，本次复用，没有第二份草稿；${rec.zh}`,
        }
        : {
          en: `accepted: draft ${job} committed by this call; ${rec.en}`,
          zh: `accepted：本次调用提交了草稿 ${job}；${rec.zh}`,
        };
    case "input_rejected":
      return {
        en: `refused by the input check, nothing written: ${rule}; ${rec.en}`,
        zh: `被前检拒绝，什么也没写：${rule}；${rec.zh}`,
      };
    case "output_rejected":
      return {
        en:
          `the output check refused the result, but ${draft.en}: it was committed before the check; ${rec.en}. Retry with the same arguments to reuse it, or compensate it`,
        zh:
          `后检拒绝了结果，但${draft.zh}：它在检查之前就已提交；${rec.zh}。用同样参数重试可复用它，或对它补偿`,
      };
    case "key_conflict":
      return {
        en:
          `refused: ${job} exists with other arguments, nothing written (${rule}); ${rec.en}`,
        zh: `拒绝：${job} 已以其他参数存在，什么也没写（${rule}）；${rec.zh}`,
      };
    case "key_voided":
      return {
        en:
          `refused: ${job} was voided by a compensation and is not re-created; ${rec.en}`,
        zh: `拒绝：${job} 已被补偿作废，不会重新创建；${rec.zh}`,
      };
    case "cancelled":
      return {
        en: `cancelled; ${draft.en}; ${rec.en}`,
        zh: `已取消；${draft.zh}；${rec.zh}`,
      };
    case "audit_unavailable":
      return {
        en:
          `the audit receipt could not be written; ${draft.en}; ask reconcile`,
        zh: `审计回执写不进去；${draft.zh}；请调用 reconcile`,
      };
    default:
      return {
        en: `failed (${s.status}); ${draft.en}; ${rec.en}`,
        zh: `失败（${s.status}）；${draft.zh}；${rec.zh}`,
      };
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
        options.log(say({
          en: `call ${call} ${printableName(name)}: ${why.en}`,
          zh: `第 ${call} 次调用 ${printableName(name)}：${why.zh}`,
        }, lang));
      };
      if (!TOOLS.some((t) => t.name === name)) {
        refuse({
          en: "unknown tool (JSON-RPC error)",
          zh: "未知工具（JSON-RPC 错误）",
        });
        throw new McpError(
          ErrorCode.InvalidParams,
          say({
            en: `Unknown tool: ${printableName(name)} (tools: ${
              TOOLS.map((t) => t.name).join(", ")
            })`,
            zh: `未知工具：${printableName(name)}（可用工具：${
              TOOLS.map((t) => t.name).join("、")
            }）`,
          }, lang),
        );
      }
      if (inFlight >= MAX_CALLS_IN_FLIGHT) {
        refuse({ en: "busy (JSON-RPC error)", zh: "繁忙（JSON-RPC 错误）" });
        throw new McpError(
          BUSY,
          say({
            en:
              `busy: ${MAX_CALLS_IN_FLIGHT} tool calls already in flight; retry later`,
            zh:
              `繁忙：已有 ${MAX_CALLS_IN_FLIGHT} 个工具调用在进行中；请稍后重试`,
          }, lang),
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
          options.log(say({
            en: `call ${call} ${name}: ${done.content[0].text}`,
            zh: `第 ${call} 次调用 ${name}：${done.content[0].text}`,
          }, lang));
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
        options.log(say({
          en:
            `call ${call}: held at ${holdAt} until the client cancels (at most ${ms} ms)`,
          zh:
            `第 ${call} 次调用：停在 ${holdAt}，等客户端取消（最多 ${ms} 毫秒）`,
        }, lang));
        holding.add(abort);
        return hold(ms, controller.signal).finally(() => holding.delete(abort));
      },
    };
    const record = await lab.attempt(args, faults, controller.signal);
    clientSignal.removeEventListener("abort", abort);
    const job = typeof (args as { job?: unknown } | null)?.job === "string"
      ? (args as { job: string }).job
      : null;
    let structured: Record<string, unknown>;
    if (record.outcome.kind === "result") {
      const r = record.outcome.result;
      structured = {
        call,
        status: r.status,
        job: r.job,
        effect_exists: r.effect_exists,
        events: r.events,
        receipt: record.receipt && record.receipt.rowsInserted === 1
          ? r.attempt
          : null,
        released: r.released,
        ...(record.refusal ? { refusal: refusalOf(record.refusal, lang) } : {}),
      };
      if (r.status === "key_conflict" && r.job !== null) {
        const stored = lab.ledger.findDraft(r.job);
        const original = stored && argsForDigest(r.job, stored.digest);
        if (original) structured.stored_arguments = original;
      }
    } else {
      const raised = raisedOf(
        record.outcome.error,
        record.outcome.whileCancelling,
      );
      if (raised === undefined) throw record.outcome.error;
      structured = {
        call,
        status: raised.raised,
        job: JOB_PATTERN.test(job ?? "") ? job : null,
        effect_exists: job !== null && lab.ledger.draftExists(job),
        events: [...record.events],
        receipt: record.receipt?.attempt ?? null,
        released: null,
        ...(record.stoppedAt ? { stopped_at: record.stoppedAt } : {}),
      };
    }
    const line = say(summaryOf(structured), lang);
    options.log(
      say({
        en: `call ${call} create_draft: ${line}`,
        zh: `第 ${call} 次调用 create_draft：${line}`,
      }, lang) +
        (clientSignal.aborted
          ? say({
            en: " (the client cancelled: no reply is sent)",
            zh: "（客户端已取消：不发送回复）",
          }, lang)
          : ""),
    );
    return result(structured, line, structured.status !== "accepted");
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
        say({
          en: `refused: ${refusal.valid}${
            required ? "" : " (or no arguments)"
          }`,
          zh: `拒绝：${refusal.valid}${required ? "" : "（或不给参数）"}`,
        }, lang),
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
      const line = job === null
        ? say({
          en: `${drafts.length} drafts, ${all.length} receipts`,
          zh: `${drafts.length} 份草稿，${all.length} 张回执`,
        }, lang)
        : drafts.length === 0
        ? say({
          en: `no draft ${job}; ${all.length} receipts for it`,
          zh: `草稿 ${job} 不存在；它有 ${all.length} 张回执`,
        }, lang)
        : say({
          en:
            `the draft ${job} exists; ${all.length} receipts for it, the last: ${
              all.at(-1)?.status ?? "none"
            }`,
          zh: `草稿 ${job} 存在；它有 ${all.length} 张回执，最后一张：${
            all.at(-1)?.status ?? "无"
          }`,
        }, lang);
      return result(structured, line, false);
    });
  }

  function reconcileNow(): ToolResult {
    return observe((ledger) => {
      const pending = pendingKeys(ledger);
      const line = pending.length === 0
        ? say({
          en: "nothing to reconcile: every live draft has an accepted receipt",
          zh: "无需对账：每份有效草稿都有 accepted 回执",
        }, lang)
        : say({
          en: `${pending.length} keys need attention: ${
            pending.map((p) => `${p.job} ${p.state}`).join(", ")
          }`,
          zh: `${pending.length} 个业务键需要处理：${
            pending.map((p) => `${p.job} ${p.state}`).join("、")
          }`,
        }, lang);
      return result({ pending }, line, false);
    });
  }

  function compensateNow(args: unknown): ToolResult {
    const asked = jobArgument(args, true);
    if ("content" in asked) return asked;
    const job = asked.job!;
    try {
      const done = compensate(lab.ledger, job);
      const line = done.status === "voided"
        ? say({
          en:
            `${job} voided (the draft row stays); compensation receipt #${done.attempt}`,
          zh: `${job} 已作废（草稿行保留）；补偿回执 #${done.attempt}`,
        }, lang)
        : done.status === "already_voided"
        ? say({
          en: `${job} was already voided; nothing written`,
          zh: `${job} 早已作废；什么也没写`,
        }, lang)
        : say({
          en: `no draft ${job}; nothing to compensate`,
          zh: `草稿 ${job} 不存在；无需补偿`,
        }, lang);
      return result({ ...done }, line, false);
    } catch (error) {
      if (!(error instanceof AuditUnavailable)) throw error;
      return result(
        { job, status: "audit_unavailable", events: [], attempt: null },
        say({
          en: `the compensation failed (${error.message}); ask reconcile`,
          zh: `补偿失败（${error.message}）；请调用 reconcile`,
        }, lang),
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
        message: say({
          en:
            "Invalid params: tools/call needs params.name (a string) and params.arguments (an object, if given)",
          zh:
            "参数无效：tools/call 需要 params.name（字符串），给出 params.arguments 时它必须是对象",
        }, lang),
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
