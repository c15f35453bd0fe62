/**
 * The attribute names a guardlab trace carries: OpenTelemetry's, as
 * semantic conventions 1.41 define them (the npm package
 * `@opentelemetry/semantic-conventions` 1.41.1, the newest in which the MCP
 * names are current: from 1.42.0 they are marked as moved to the GenAI
 * conventions' own repository, with the same strings), and guardlab's own,
 * under `guardlab.`. The MCP and GenAI conventions are at status
 * Development: a later release may rename them, so the version followed is
 * stated here once and in the trace (`guardlab.semconv`).
 * `tests/otlp/semconv_test.ts` holds each OpenTelemetry name to the
 * package's constant.
 *
 * @module
 */

/** The semantic conventions release whose names a trace follows. */
export const SEMCONV_VERSION = "1.41.1";

/** OpenTelemetry's names, as {@linkcode SEMCONV_VERSION} defines them. */
export const OTEL = {
  /** The service that wrote the spans (a resource attribute). */
  serviceName: "service.name",
  /** Its version (a resource attribute). */
  serviceVersion: "service.version",
  /** The MCP method: `tools/call`. */
  mcpMethodName: "mcp.method.name",
  /** The MCP session (`Mcp-Session-Id`), when the transport has one. */
  mcpSessionId: "mcp.session.id",
  /** The MCP protocol version the session agreed. */
  mcpProtocolVersion: "mcp.protocol.version",
  /** The tool called. */
  genAiToolName: "gen_ai.tool.name",
  /** What the span does: `execute_tool` for a tool call. */
  genAiOperationName: "gen_ai.operation.name",
  /** The model's id for one tool call (the agent's `callId`). */
  genAiToolCallId: "gen_ai.tool.call.id",
  /** The agent's name (on the agent's spans). */
  genAiAgentName: "gen_ai.agent.name",
  /** The JSON-RPC id of the request, as a string. */
  jsonrpcRequestId: "jsonrpc.request.id",
  /** The class of error a call ended with (`tool_error` for `isError`). */
  errorType: "error.type",
  /** How an MCP message travelled: `pipe` (stdio) or `tcp` (HTTP). */
  networkTransport: "network.transport",
  /** The protocol over the transport: `http` for Streamable HTTP. */
  networkProtocolName: "network.protocol.name",
  /** The id a model's answer carried (`chatcmpl-…`). */
  genAiResponseId: "gen_ai.response.id",
  /** Why the model stopped: `tool_calls` or `stop`. */
  genAiResponseFinishReasons: "gen_ai.response.finish_reasons",
  /** Whether the model was asked for a stream. */
  genAiRequestStream: "gen_ai.request.stream",
  /** A tool call's result, as the model received it. */
  genAiToolCallResult: "gen_ai.tool.call.result",
  /** A process's exit code (the agent host's). */
  processExitCode: "process.exit.code",
} as const;

/** Values of OpenTelemetry's attributes. */
export const OTEL_VALUE = {
  /** `mcp.method.name` of a tool call. */
  toolsCall: "tools/call",
  /** `gen_ai.operation.name` of a tool call. */
  executeTool: "execute_tool",
  /** `gen_ai.operation.name` of a model call (an agent's turn). */
  chat: "chat",
  /** `mcp.method.name` of a cancel. */
  notificationsCancelled: "notifications/cancelled",
  /** `network.transport` of stdio. */
  pipe: "pipe",
  /** `network.transport` of HTTP. */
  tcp: "tcp",
  /** `network.protocol.name` of Streamable HTTP. */
  http: "http",
  /** `error.type` of a result with `isError: true`. */
  toolError: "tool_error",
  /** `error.type` when no better class is known. */
  other: "_OTHER",
} as const;

/**
 * guardlab's own names, each said once. What each holds is written in the
 * chapters (`docs/en/03-ledger.md` for a ledger's, chapter 9 for the
 * proxy's).
 */
export const GUARDLAB = {
  /** The semantic conventions release followed (a scope attribute). */
  semconv: "guardlab.semconv",
  /** What the trace was made from: `ledger`, `proxy` or `accept`. */
  source: "guardlab.source",
  /** The ledger a trace shows. */
  ledger: "guardlab.ledger",
  /** Whether a span's times were recorded, or only its order is known. */
  timeSource: "guardlab.time.source",
  /** A receipt's number. */
  receipt: "guardlab.receipt",
  /** The business key. */
  job: "guardlab.job",
  /** A receipt's status, as stored. */
  status: "guardlab.status",
  /** What the commit point saw: committed, reused, not reached. */
  commit: "guardlab.commit",
  /** A stage of the timeline. */
  stage: "guardlab.stage",
  /** What happened there: passed, refused, failed, cancelled, ... */
  mark: "guardlab.mark",
  /** Why, in the language asked for. */
  note: "guardlab.note",
  /** How many rows of the effect the store held when it was seen. */
  effectCount: "guardlab.effect.count",
  /** Whether the caller got an answer that says how the call ended. */
  outcomeKnown: "guardlab.outcome.known",
  /** The MCP session's number on a ledger. */
  mcpSession: "guardlab.mcp.session",
  /** The call's number in its session (on a ledger), or in a record. */
  call: "guardlab.call",
  /** How many other calls ran at the same time. */
  overlaps: "guardlab.overlaps",
  /** The client that opened a session. */
  client: "guardlab.client",
  /** A compensation's state. */
  compensation: "guardlab.compensation",
  /** How many receipts a compensation wrote. */
  receipts: "guardlab.receipts",
  /** Attempts older than the ones the view draws. */
  attemptsOmitted: "guardlab.attempts.omitted",
  /** What a view's bound left out, one `kind: shown of total` each. */
  leftOut: "guardlab.left_out",
  /** Spans the file's own bound left out. */
  spansLeftOut: "guardlab.otlp.spans_left_out",
  /** Why the attempts are in the order they are, when it is not by start. */
  order: "guardlab.order",
  /** What guardlab did with a message (forwarded, dropped, held, ...). */
  action: "guardlab.action",
  /** Which way a message went. */
  direction: "guardlab.direction",
  /** How many copies of a request were sent. */
  copies: "guardlab.copies",
  /** Whether a reply was withheld from the client. */
  replyWithheld: "guardlab.reply.withheld",
  /** How many answers the server gave one call past the first (to copies, or late): none reached the client. */
  replyDuplicated: "guardlab.reply.duplicates",
  /** Whether the read of the effect came before the reply went on. */
  beforeDelivery: "guardlab.effect.before_delivery",
  /** Where the parent came from: `client` (its `_meta`) or `proxy`. */
  traceparentFrom: "guardlab.traceparent.from",
  /** A guardrail's name (on an agent's span). */
  guardrail: "guardlab.guardrail",
  /** A guardrail's verdict. */
  verdict: "guardlab.verdict",
  /** The proxy record a trace shows. */
  record: "guardlab.record",
  /** The server's program (its command's first word). */
  server: "guardlab.server",
  /** The calls of a key so far. */
  calls: "guardlab.calls",
  /** What the model is told of a call (the function span's output). */
  told: "guardlab.told",
  /** A model turn's number. */
  turn: "guardlab.turn",
  /** How an MCP call ended, as the agent saw it. */
  outcome: "guardlab.outcome",
  /** An accept case's name. */
  case: "guardlab.case",
  /** A verdict's class: safe, unsafe, info, inconclusive. */
  verdictClass: "guardlab.verdict.class",
  /** A call sent again (a retry of an earlier one). */
  retry: "guardlab.retry",
  /** Which server process, in a case that starts its own. */
  process: "guardlab.process",
  /** A read counted the other arguments' effect. */
  other: "guardlab.effect.other",
  /** Whether a cancel was sent. */
  sent: "guardlab.sent",
  /** After how many ms a cancel was placed. */
  afterMs: "guardlab.after_ms",
  /** Where a cancel's delay came from. */
  from: "guardlab.from",
  /** What a server did wrong. */
  problem: "guardlab.problem",
  /** Which tool of the oracle: write or read. */
  role: "guardlab.role",
  /** How many verdicts were unsafe. */
  unsafe: "guardlab.unsafe",
  /** How many cases could not be judged. */
  inconclusive: "guardlab.inconclusive",
  /** A record's own bound was reached: what followed was not recorded. */
  truncated: "guardlab.record.truncated",
  /** Verdicts reported beside a case's verdict, as information. */
  verdictInfo: "guardlab.verdict.info",
  /** The variant of accept host's tool: keyed or unkeyed. */
  variant: "guardlab.variant",
  /** How accept host offered its tool: stdio or http. */
  transport: "guardlab.transport",
  /** The key the naive model's second call carries. */
  jobNew: "guardlab.job.new",
  /** Which connection to the tool (a process over stdio, a session over HTTP), from 1. */
  conn: "guardlab.conn",
  /** What the tool did with a call at its commit: written, reused, refused. */
  effect: "guardlab.effect",
  /** What guardlab did with the tool's answer (ok, error, none, late, killed, http-503, expired). */
  reply: "guardlab.reply",
  /** Which of the model's calls a tool call or a result carries: 1 (the first key) or 2 (the new key). */
  modelCall: "guardlab.model.call",
  /** What the model answered: call-1, call-2 or done. */
  modelReply: "guardlab.model.reply",
  /** Whether a resend carried the first call's arguments. */
  argumentsSame: "guardlab.arguments.same",
  /** Whether the write tool was among the tools a model request offered. */
  toolOffered: "guardlab.tool.offered",
  /** The name the host gave the write tool, when not its own. */
  toolOfferedAs: "guardlab.tool.offered_as",
  /** What a tool result told the model: success, unknown, tool-error, failure. */
  toldAs: "guardlab.told.as",
  /** Where a problem was: the model or the tool. */
  problemWhere: "guardlab.problem.where",
  /** A cancel's reason, as the host gave it. */
  reason: "guardlab.reason",
  /** What the host did before a late answer was released. */
  after: "guardlab.after",
  /** The clients a host named at initialize. */
  clients: "guardlab.clients",
  /** The limit of each case, in ms. */
  caseMs: "guardlab.case_ms",
} as const;
