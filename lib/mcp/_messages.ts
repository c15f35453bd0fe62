/**
 * Every text `guardlab mcp` speaks, in both languages: what the tools tell
 * the model (descriptions, schema notes, titles), the one-line summaries of
 * tool results, the server's log lines and JSON-RPC errors, and the faults
 * file's refusals.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { BATCH_LIMIT, COPIES_RANGE, TOPICS } from "../timing/args.ts";

/** `1 receipt`, `2 receipts`: a count as English says it (Chinese counts with 条 or 份). */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What the server tells a client about itself at `initialize`. */
export const INSTRUCTIONS: Text = {
  en:
    "guardlab's timing lab as tools. create_draft has a side effect that is committed before its output check: a refusal after the commit does not take the draft back. Retry with the same job and arguments to reuse a draft; after a timeout, ask ledger by job first.",
  zh:
    "guardlab 的时间线实验工具。create_draft 的副作用在后检之前就已提交：提交之后的拒绝收不回草稿。用同一 job 和同样参数重试即可复用草稿；超时之后，先按 job 调用 ledger 查询。",
};

/** The tools' descriptions, schema notes and titles, as the model reads them. */
export const TOOL_TEXTS = {
  job: {
    en: "business key: JOB- and three digits, e.g. JOB-001",
    zh: "业务键：JOB- 加三位数字，例如 JOB-001",
  },
  createDraft: {
    en:
      `Create the print draft for a job: one full attempt of the guardlab timing lab, recorded on its SQLite ledger (validate, input check, business write with its commit point, output check, audit receipt).
The business key is job. Retrying with the same job and the same topic and copies reuses the draft already committed: no second draft, the output check runs again and a new receipt is written (status accepted, events effect_reused). The same job with other arguments is refused as key_conflict and writes nothing. A job voided by compensate is refused as key_voided. If a call timed out or was cancelled and you do not know whether it took effect, ask the ledger tool with the same job before anything else: a cancel that arrives after the commit leaves the draft.
Valid arguments: job JOB-001..JOB-999, topic ${
        TOPICS.join(" or ")
      }, copies an integer ${COPIES_RANGE[0]}-${
        COPIES_RANGE[1]
      }; the input check allows at most ${BATCH_LIMIT} copies per call. A refusal is a result with isError true, its rule and the valid values.`,
    zh:
      `为一个任务创建打印草稿：guardlab 时间线实验的一次完整调用，记录在它的 SQLite 账本上（参数校验、前检、带提交点的业务写入、后检、审计回执）。
业务键是 job。用同一 job、同样的 topic 和 copies 重试，会复用已经提交的草稿：不会有第二份草稿，后检重新运行，并写一条新回执（状态 accepted，事件 effect_reused）。同一 job 换了参数会被拒绝（key_conflict），什么也不写。被 compensate 作废的 job 会被拒绝（key_voided）。如果一次调用超时或被取消、你不知道它是否生效，先用同一 job 调用 ledger 工具查询：提交之后才到达的取消会留下草稿。
有效参数：job 为 JOB-001..JOB-999，topic 为 ${TOPICS.join(" 或 ")}，copies 为 ${
        COPIES_RANGE[0]
      }-${
        COPIES_RANGE[1]
      } 的整数；前检每次最多允许 ${BATCH_LIMIT} 份。拒绝以 isError 为 true 的结果返回，附规则和有效取值。`,
  },
  copies: {
    en: `the input check allows at most ${BATCH_LIMIT}`,
    zh: `前检最多允许 ${BATCH_LIMIT}`,
  },
  call: {
    en: "this tools/call's number in its session",
    zh: "这次 tools/call 在本会话中的序号",
  },
  session: {
    en: "this server session's number on the ledger",
    zh: "本服务器会话在账本上的编号",
  },
  effectExists: {
    en: "whether a draft for job exists now",
    zh: "该 job 的草稿现在是否存在",
  },
  receipt: {
    en: "the audit receipt's attempt number, null when none",
    zh: "审计回执的编号；没有回执时为 null",
  },
  released: {
    en: "the checked draft; only an accepted result releases it",
    zh: "经过检查的草稿；只有 accepted 的结果才放行",
  },
  storedArguments: {
    en: "on key_conflict: the arguments the key was created with",
    zh: "key_conflict 时：创建该业务键所用的参数",
  },
  createDraftTitle: {
    en: "Create a print draft (guardlab lab)",
    zh: "创建打印草稿（guardlab 实验）",
  },
  ledger: {
    en:
      "Read the ledger: the drafts (the business effect) and the receipts (the audit trail), optionally for one job. Read-only, through a second connection. Use it after a timeout or a cancel to learn whether the draft exists before retrying.",
    zh:
      "读取账本：草稿（业务效果）和回执（审计记录），可只看一个 job。只读，经由第二个连接。超时或取消之后，先用它查清草稿是否存在，再决定是否重试。",
  },
  ledgerTitle: { en: "Read the ledger", zh: "读取账本" },
  reconcile: {
    en:
      "List every job whose draft exists but has no accepted receipt (including drafts with no receipt at all), with the safe next step: retry with the same job and arguments (the draft is reused), or compensate again. Read-only.",
    zh:
      "列出草稿存在却没有 accepted 回执的每个 job（包括完全没有回执的草稿），并给出安全的下一步：用同一 job 和同样参数重试（草稿被复用），或再次补偿。只读。",
  },
  reconcileTitle: { en: "Reconcile the ledger", zh: "对账" },
  compensate: {
    en:
      "Undo a committed draft the business's own way: record the request, void the draft in its own transaction (the row stays, the void is recorded beside it), write the compensation's receipt. The job is then closed: create_draft refuses it as key_voided. Compensating again writes nothing.",
    zh:
      "用业务自己的流程撤销已提交的草稿：先记录补偿请求，再在自己的事务里作废草稿（草稿行保留，作废记录在旁边），然后写补偿回执。此后该 job 关闭：create_draft 会拒绝它（key_voided）。再次补偿什么也不写。",
  },
  compensateTitle: { en: "Compensate (void) a draft", zh: "补偿（作废）草稿" },
} as const satisfies Record<string, Text>;

/**
 * The parts of a `create_draft` result's one-line summary, the line a model
 * reads first: `rec` is the receipt part, `draft` the draft part, `rule`
 * the refusal's rule.
 */
export const DRAFT_SUMMARY = {
  noReceipt: { en: "no receipt was written", zh: "没有写下回执" },
  receipt: (receipt: string): Text => ({
    en: `receipt ${receipt}`,
    zh: `回执 ${receipt}`,
  }),
  draftExists: (job: string): Text => ({
    en: `the draft ${job} exists`,
    zh: `草稿 ${job} 存在`,
  }),
  noDraft: (job: string): Text => ({
    en: `no draft ${job} exists`,
    zh: `草稿 ${job} 不存在`,
  }),
  reused: (job: string, rec: Text): Text => ({
    en:
      `accepted: ${job} already existed and was reused, no second draft; ${rec.en}`,
    zh: `accepted：${job} 早已存在，本次复用，没有第二份草稿；${rec.zh}`,
  }),
  committed: (job: string, rec: Text): Text => ({
    en: `accepted: draft ${job} committed by this call; ${rec.en}`,
    zh: `accepted：本次调用提交了草稿 ${job}；${rec.zh}`,
  }),
  /** The refusal's rule with what would be valid, once (`batch_limit: at most 3 …`). */
  rule: (rule: string, valid: string): Text =>
    valid === "" || valid.startsWith(`${rule}:`) ||
      valid.startsWith(`${rule}：`)
      ? { en: valid || rule, zh: valid || rule }
      : { en: `${rule} (${valid})`, zh: `${rule}（${valid}）` },
  argumentsRejected: (rule: Text, rec: Text): Text => ({
    en:
      `refused by argument validation, nothing written: ${rule.en}; ${rec.en}`,
    zh: `参数校验拒绝，什么也没写：${rule.zh}；${rec.zh}`,
  }),
  inputRejected: (rule: Text, rec: Text): Text => ({
    en: `refused by the input check, nothing written: ${rule.en}; ${rec.en}`,
    zh: `被前检拒绝，什么也没写：${rule.zh}；${rec.zh}`,
  }),
  // The parallel input guardrail's verdict arrived after the commit point.
  inputRejectedLate: (rule: Text, draft: Text, rec: Text): Text => ({
    en:
      `the input guardrail, running in parallel, refused after the commit point (${rule.en}), but ${draft.en}: it was committed before the verdict and stays until it is compensated (the same request is refused again on a retry); ${rec.en}`,
    zh:
      `并行的输入护栏在提交点之后才拒绝（${rule.zh}），但${draft.zh}：它在结论到达之前就已提交，在被补偿之前一直留着（同一请求重试仍会被拒绝）；${rec.zh}`,
  }),
  outputRejected: (draft: Text, rec: Text): Text => ({
    en:
      `the output check refused the result, but ${draft.en}: it was committed before the check; ${rec.en}. Retry with the same arguments to reuse it, or compensate it`,
    zh:
      `后检拒绝了结果，但${draft.zh}：它在检查之前就已提交；${rec.zh}。用同样参数重试可复用它，或对它补偿`,
  }),
  keyConflict: (job: string, rule: Text, rec: Text): Text => ({
    en:
      `refused: ${job} exists with other arguments, nothing written (${rule.en}); ${rec.en}`,
    zh: `拒绝：${job} 已以其他参数存在，什么也没写（${rule.zh}）；${rec.zh}`,
  }),
  keyVoided: (job: string, rec: Text): Text => ({
    en:
      `refused: ${job} was voided by a compensation and is not re-created; ${rec.en}`,
    zh: `拒绝：${job} 已被补偿作废，不会重新创建；${rec.zh}`,
  }),
  cancelled: (draft: Text, rec: Text): Text => ({
    en: `cancelled; ${draft.en}; ${rec.en}`,
    zh: `已取消；${draft.zh}；${rec.zh}`,
  }),
  auditUnavailable: (draft: Text): Text => ({
    en: `the audit receipt could not be written; ${draft.en}; ask reconcile`,
    zh: `审计回执写不进去；${draft.zh}；请调用 reconcile`,
  }),
  failed: (status: string, draft: Text, rec: Text): Text => ({
    en: `failed (${status}); ${draft.en}; ${rec.en}`,
    zh: `失败（${status}）；${draft.zh}；${rec.zh}`,
  }),
} as const;

/** The server's log lines (stderr), JSON-RPC errors and the other tools' one-line results. */
export const SERVER_MESSAGES = {
  /** One log line about call number `call`. */
  callLog: (call: number, name: string, line: string): Text => ({
    en: `call ${call} ${name}: ${line}`,
    zh: `第 ${call} 次调用 ${name}：${line}`,
  }),
  unknownToolLog: {
    en: "unknown tool (JSON-RPC error)",
    zh: "未知工具（JSON-RPC 错误）",
  },
  unknownTool: (name: string, tools: readonly string[]): Text => ({
    en: `Unknown tool: ${name} (tools: ${tools.join(", ")})`,
    zh: `未知工具：${name}（可用工具：${tools.join("、")}）`,
  }),
  session: (session: number, client: string): Text => ({
    en:
      `guardlab mcp: session ${session} of this ledger (client ${client}); each call's number is in its result and on the ledger's timeline`,
    zh:
      `guardlab mcp：这是该账本的第 ${session} 个会话（客户端 ${client}）；每次调用的序号写在结果里，也在账本的时间线上`,
  }),
  notRecorded: (call: number, why: string): Text => ({
    en: `call ${call}: not recorded on the ledger's timeline (${why})`,
    zh: `第 ${call} 次调用：没能记在账本的时间线上（${why}）`,
  }),
  held: (call: number, point: string, ms: number): Text => ({
    en:
      `call ${call}: held at ${point} until the client cancels (at most ${ms} ms)`,
    zh: `第 ${call} 次调用：停在 ${point}，等客户端取消（最多 ${ms} 毫秒）`,
  }),
  clientCancelled: {
    en: " (the client cancelled: no reply is sent)",
    zh: "（客户端已取消：不发送回复）",
  },
  refusedJob: (valid: string, required: boolean): Text => ({
    en: `refused: ${valid}${required ? "" : " (or no arguments)"}`,
    zh: `拒绝：${valid}${required ? "" : "（或不给参数）"}`,
  }),
  ledgerAll: (drafts: number, receipts: number): Text => ({
    en: `${count(drafts, "draft")}, ${count(receipts, "receipt")}`,
    zh: `${drafts} 份草稿，${receipts} 条回执`,
  }),
  ledgerNoDraft: (job: string, receipts: number): Text => ({
    en: `no draft ${job}; ${count(receipts, "receipt")} for it`,
    zh: `草稿 ${job} 不存在；它有 ${receipts} 条回执`,
  }),
  ledgerDraft: (job: string, receipts: number, last?: string): Text => ({
    en: `the draft ${job} exists; ${
      count(receipts, "receipt")
    } for it, the last: ${last ?? "none"}`,
    zh: `草稿 ${job} 存在；它有 ${receipts} 条回执，最后一条：${last ?? "无"}`,
  }),
  nothingToReconcile: {
    en: "nothing to reconcile: every live draft has an accepted receipt",
    zh: "无需对账：每份有效草稿都有 accepted 回执",
  },
  pending: (keys: readonly string[]): Text => ({
    en: `${count(keys.length, "key")} ${
      keys.length === 1 ? "needs" : "need"
    } attention: ${keys.join(", ")}`,
    zh: `${keys.length} 个业务键需要处理：${keys.join("、")}`,
  }),
  voided: (job: string, attempt: number | null): Text => ({
    en: `${job} voided (the draft row stays); compensation receipt #${attempt}`,
    zh: `${job} 已作废（草稿行保留）；补偿回执 #${attempt}`,
  }),
  alreadyVoided: (job: string): Text => ({
    en: `${job} was already voided; nothing written`,
    zh: `${job} 早已作废；什么也没写`,
  }),
  nothingToCompensate: (job: string): Text => ({
    en: `no draft ${job}; nothing to compensate`,
    zh: `草稿 ${job} 不存在；无需补偿`,
  }),
  compensationFailed: (message: string): Text => ({
    en: `the compensation failed (${message}); ask reconcile`,
    zh: `补偿失败（${message}）；请调用 reconcile`,
  }),
  invalidParams: {
    en:
      "Invalid params: tools/call needs params.name (a string) and params.arguments (an object, if given); task-augmented calls are not supported",
    zh:
      "参数无效：tools/call 需要 params.name（字符串），给出 params.arguments 时它必须是对象；不支持带 task 的调用",
  },
} as const;

/** What is wrong with a line of a faults file (`mcp --faults`). */
export const FAULTS_MESSAGES = {
  /** The line number and what is wrong with it. */
  badLine: (line: number, what: Text): Text => ({
    en: `faults file line ${line}: ${what.en}`,
    zh: `故障文件第 ${line} 行：${what.zh}`,
  }),
  notJson: { en: "not JSON", zh: "不是 JSON" },
  notObject: { en: "must be a JSON object", zh: "必须是 JSON 对象" },
  badCall: {
    en:
      'field "call" must be an integer from 1 (the tools/call number) or "every"',
    zh: '字段 "call" 必须是从 1 起的整数（第几次 tools/call）或 "every"',
  },
  badJob: {
    en: 'field "job" must be a business key: JOB- and three digits',
    zh: '字段 "job" 必须是业务键：JOB- 加三位数字',
  },
  noSelector: {
    en: 'a line needs "call" (a number or "every"), "job", or both',
    zh: '每行需要 "call"（序号或 "every"）、"job"，或两者都给',
  },
  unknownField: (key: string, known: readonly string[]): Text => ({
    en: `unknown field ${JSON.stringify(key)} (known: call, job, ${
      known.join(", ")
    })`,
    zh: `未知字段 ${JSON.stringify(key)}（可用：call、job、${
      known.join("、")
    }）`,
  }),
  notOneOf: (key: string, allowed: readonly string[]): Text => ({
    en: `field ${key} must be one of ${allowed.join(", ")}`,
    zh: `字段 ${key} 只能是 ${allowed.join("、")} 之一`,
  }),
  notBoolean: (key: string): Text => ({
    en: `field ${key} must be true or false`,
    zh: `字段 ${key} 必须是 true 或 false`,
  }),
  badHoldMs: (max: number): Text => ({
    en: `field hold_ms must be an integer from 1 to ${max}`,
    zh: `字段 hold_ms 必须是 1 到 ${max} 的整数`,
  }),
  holdMsAlone: {
    en: "hold_ms needs hold_at",
    zh: "hold_ms 需要同时给出 hold_at",
  },
  tooLong: (bytes: number): Text => ({
    en: `longer than ${bytes} bytes`,
    zh: `超过 ${bytes} 字节`,
  }),
  tooMany: (lines: number): Text => ({
    en: `more than ${lines} fault lines`,
    zh: `故障行超过 ${lines} 行`,
  }),
  /** `what` is one of the selector texts below. */
  twice: (what: Text): Text => ({
    en: `${what.en} is scheduled twice`,
    zh: `${what.zh}被安排了两次`,
  }),
  selectorCall: (call: number): Text => ({
    en: `call ${call}`,
    zh: `第 ${call} 次调用`,
  }),
  selectorEvery: { en: "every call", zh: "每次调用" },
  selectorJob: (job: string): Text => ({
    en: `job ${job}`,
    zh: `业务键 ${job}`,
  }),
  selectorBoth: (call: Text, job: Text): Text => ({
    en: `${call.en} with ${job.en}`,
    zh: `${call.zh}、${job.zh}`,
  }),
} as const;
