/**
 * The tools `guardlab mcp` serves, as data: names, descriptions in both
 * languages, JSON Schemas and annotations. The descriptions tell the model
 * the truth about the business key and what a retry does; the README says
 * what each annotation promises and what the ledger proves.
 *
 * The published input schemas describe the valid shape, but nothing
 * enforces them before the lab: the server registers low-level handlers, so
 * `{"job": 5}` reaches the lab's own validation, which writes its
 * `input_rejected` receipt.
 *
 * @module
 */
import { BATCH_LIMIT, COPIES_RANGE, TOPICS } from "../timing/args.ts";
import { STATUSES } from "../timing/stages.ts";
import { type Lang, LANGS, say, type Text } from "../base/i18n.ts";

/** A JSON Schema object, as MCP publishes it. */
export type JsonSchema = Record<string, unknown>;

/** MCP's tool annotations: hints a client may show or act on, never enforced. */
export interface ToolAnnotations {
  /** A title for people. */
  title: Text;
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** The tool may delete or overwrite (only meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches beyond a closed world (the web, other systems). */
  openWorldHint: boolean;
}

/** One tool as guardlab defines it. */
export interface ToolSpec {
  /** The name the client calls. */
  name: string;
  /** The description the model reads. */
  description: Text;
  /** The valid arguments (published, not enforced before the lab). */
  inputSchema: JsonSchema;
  /** The shape of `structuredContent`, refusals included. */
  outputSchema: JsonSchema;
  /** Hints, each true of what the tool does (see the README). */
  annotations: ToolAnnotations;
}

const JOB_SCHEMA = {
  type: "string",
  pattern: "^JOB-[0-9]{3}$",
  description: {
    en: "business key: JOB- and three digits, e.g. JOB-001",
    zh: "业务键：JOB- 加三位数字，例如 JOB-001",
  },
};

/** `structuredContent` of a refusal: the rule and what would have been valid. */
const REFUSAL_SCHEMA = {
  type: ["object", "null"],
  properties: {
    rule: { type: "string" },
    valid: { type: "string" },
  },
  required: ["rule", "valid"],
};

const STATUS_VALUES = [
  ...STATUSES,
  "cancelled",
  "audit_unavailable",
  "database_error",
];

/** `create_draft`. */
export const CREATE_DRAFT: ToolSpec = {
  name: "create_draft",
  description: {
    en:
      `Create the print draft for a job: one full attempt of the guardlab timing lab, recorded on its SQLite ledger (validate, input check, business write with its commit point, output check, audit receipt).
The business key is job. Retrying with the same job and the same topic and copies reuses the draft already committed: no second draft, the output check runs again and a new receipt is written (status accepted, events effect_reused). The same job with other arguments is refused as key_conflict and writes nothing. A job voided by compensate is refused as key_voided. If a call timed out or was cancelled and you do not know whether it took effect, ask the ledger tool with the same job before anything else: a cancel that arrives after the commit leaves the draft.
Valid arguments: job JOB-001..JOB-999, topic ${
        TOPICS.join(" or ")
      }, copies an integer ${COPIES_RANGE[0]}-${
        COPIES_RANGE[1]
      }; the input check allows at most ${BATCH_LIMIT} copies per call. A refusal is a result with isError true, its rule and the valid values.`,
    zh:
      `为一个任务创建打印草稿：guardlab 时序实验的一次完整调用，记录在它的 SQLite 账本上（参数校验、前检、带提交点的业务写入、后检、审计回执）。
业务键是 job。用同一 job、同样的 topic 和 copies 重试，会复用已经提交的草稿：不会有第二份草稿，后检重新运行，并写一张新回执（状态 accepted，事件 effect_reused）。同一 job 配其他参数会被拒绝为 key_conflict，什么也不写。被 compensate 作废的 job 会被拒绝为 key_voided。如果一次调用超时或被取消、你不知道它是否生效，先用同一 job 调用 ledger 工具查询：提交之后才到达的取消会留下草稿。
有效参数：job 为 JOB-001..JOB-999，topic 为 ${TOPICS.join(" 或 ")}，copies 为 ${
        COPIES_RANGE[0]
      }-${
        COPIES_RANGE[1]
      } 的整数；前检每次最多允许 ${BATCH_LIMIT} 份。拒绝以 isError 为 true 的结果返回，附规则和有效取值。`,
  },
  inputSchema: {
    type: "object",
    properties: {
      job: JOB_SCHEMA,
      topic: { type: "string", enum: [...TOPICS] },
      copies: {
        type: "integer",
        minimum: COPIES_RANGE[0],
        maximum: COPIES_RANGE[1],
        description: {
          en: `the input check allows at most ${BATCH_LIMIT}`,
          zh: `前检最多允许 ${BATCH_LIMIT}`,
        },
      },
    },
    required: ["job", "topic", "copies"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      call: {
        type: "integer",
        description: {
          en: "this tools/call's number",
          zh: "这次 tools/call 的序号",
        },
      },
      status: { type: "string", enum: STATUS_VALUES },
      job: { type: ["string", "null"] },
      effect_exists: {
        type: "boolean",
        description: {
          en: "whether a draft for job exists now",
          zh: "该 job 的草稿现在是否存在",
        },
      },
      events: { type: "array", items: { type: "string" } },
      receipt: {
        type: ["integer", "null"],
        description: {
          en: "the audit receipt's attempt number, null when none",
          zh: "审计回执的编号；没有回执时为 null",
        },
      },
      released: {
        type: ["object", "null"],
        description: {
          en: "the checked draft; only an accepted result releases it",
          zh: "经过检查的草稿；只有 accepted 的结果才放行",
        },
      },
      refusal: REFUSAL_SCHEMA,
      stored_arguments: {
        type: "object",
        description: {
          en: "on key_conflict: the arguments the key was created with",
          zh: "key_conflict 时：创建该业务键所用的参数",
        },
      },
    },
    required: ["call", "status", "job", "effect_exists", "events", "receipt"],
  },
  annotations: {
    title: {
      en: "Create a print draft (guardlab lab)",
      zh: "创建打印草稿（guardlab 实验）",
    },
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/** `ledger`. */
export const LEDGER: ToolSpec = {
  name: "ledger",
  description: {
    en:
      "Read the ledger: the drafts (the business effect) and the receipts (the audit trail), optionally for one job. Read-only, through a second connection. Use it after a timeout or a cancel to learn whether the draft exists before retrying.",
    zh:
      "读取账本：草稿（业务效果）和回执（审计记录），可只看一个 job。只读，经由第二个连接。超时或取消之后，先用它查清草稿是否存在，再决定是否重试。",
  },
  inputSchema: {
    type: "object",
    properties: { job: JOB_SCHEMA },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      drafts: { type: "array", items: { type: "object" } },
      receipts: { type: "array", items: { type: "object" } },
      omitted_receipts: { type: "integer" },
      refusal: REFUSAL_SCHEMA,
    },
  },
  annotations: {
    title: { en: "Read the ledger", zh: "读取账本" },
    readOnlyHint: true,
    openWorldHint: false,
  },
};

/** `reconcile`. */
export const RECONCILE: ToolSpec = {
  name: "reconcile",
  description: {
    en:
      "List every job whose draft exists but has no accepted receipt (including drafts with no receipt at all), with the safe next step: retry with the same job and arguments (the draft is reused), or compensate again. Read-only.",
    zh:
      "列出草稿存在却没有 accepted 回执的每个 job（包括完全没有回执的草稿），并给出安全的下一步：用同一 job 和同样参数重试（草稿被复用），或再次补偿。只读。",
  },
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  outputSchema: {
    type: "object",
    properties: {
      pending: { type: "array", items: { type: "object" } },
    },
  },
  annotations: {
    title: { en: "Reconcile the ledger", zh: "对账" },
    readOnlyHint: true,
    openWorldHint: false,
  },
};

/** `compensate`. */
export const COMPENSATE: ToolSpec = {
  name: "compensate",
  description: {
    en:
      "Undo a committed draft the business's own way: record the request, void the draft in its own transaction (the row stays, the void is recorded beside it), write the compensation's receipt. The job is then closed: create_draft refuses it as key_voided. Compensating again writes nothing.",
    zh:
      "用业务自己的流程撤销已提交的草稿：先记录补偿请求，再在自己的事务里作废草稿（草稿行保留，作废记录在旁边），然后写补偿回执。此后该 job 关闭：create_draft 会拒绝为 key_voided。再次补偿什么也不写。",
  },
  inputSchema: {
    type: "object",
    properties: { job: JOB_SCHEMA },
    required: ["job"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      job: { type: ["string", "null"] },
      status: { type: "string" },
      events: { type: "array", items: { type: "string" } },
      attempt: { type: ["integer", "null"] },
      refusal: REFUSAL_SCHEMA,
    },
  },
  annotations: {
    title: { en: "Compensate (void) a draft", zh: "补偿（作废）草稿" },
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/**
 * `schema` with each `description` that is a {@linkcode Text} said in
 * `lang`: the schemas hold both languages, a client gets one.
 */
export function localized(value: unknown, lang: Lang): unknown {
  if (Array.isArray(value)) return value.map((v) => localized(v, lang));
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (isText(record)) return say(record, lang);
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, localized(v, lang)]),
  );
}

function isText(
  record: Record<string, unknown>,
): record is Text & Record<string, unknown> {
  // Exactly the two language keys, each a string: a Text, not a schema.
  return Object.keys(record).sort().join(",") === LANGS.join(",") &&
    Object.values(record).every((v) => typeof v === "string");
}

/** Every tool, in the order `tools/list` gives them. */
export const TOOLS: readonly ToolSpec[] = [
  CREATE_DRAFT,
  LEDGER,
  RECONCILE,
  COMPENSATE,
];

/** What the server tells a client about itself at `initialize`. */
export const INSTRUCTIONS: Text = {
  en:
    "guardlab's timing lab as tools. create_draft has a side effect that is committed before its output check: a refusal after the commit does not take the draft back. Retry with the same job and arguments to reuse a draft; after a timeout, ask ledger by job first.",
  zh:
    "guardlab 的时序实验工具。create_draft 的副作用在后检之前就已提交：提交之后的拒绝收不回草稿。用同一 job 和同样参数重试即可复用草稿；超时之后，先按 job 调用 ledger 查询。",
};
