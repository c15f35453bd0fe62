/**
 * The tools `guardlab mcp` serves, as data: names, descriptions (their
 * texts live in `./_messages.ts`), JSON Schemas and annotations. The
 * descriptions tell the model the truth about the business key and what a
 * retry does; the README says what each annotation promises and what the
 * ledger proves.
 *
 * The published input schemas describe the valid shape, but nothing
 * enforces them before the lab: the server registers low-level handlers, so
 * `{"job": 5}` reaches the lab's own validation, which writes its
 * `input_rejected` receipt.
 *
 * @module
 */
import { COPIES_RANGE, TOPICS } from "../timing/args.ts";
import { STATUSES } from "../timing/stages.ts";
import { type Lang, LANGS, say, type Text } from "../base/i18n.ts";
import { TOOL_TEXTS } from "./_messages.ts";

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
  description: TOOL_TEXTS.job,
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
  description: TOOL_TEXTS.createDraft,
  inputSchema: {
    type: "object",
    properties: {
      job: JOB_SCHEMA,
      topic: { type: "string", enum: [...TOPICS] },
      copies: {
        type: "integer",
        minimum: COPIES_RANGE[0],
        maximum: COPIES_RANGE[1],
        description: TOOL_TEXTS.copies,
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
        description: TOOL_TEXTS.call,
      },
      session: {
        type: "integer",
        description: TOOL_TEXTS.session,
      },
      status: { type: "string", enum: STATUS_VALUES },
      job: { type: ["string", "null"] },
      effect_exists: {
        type: "boolean",
        description: TOOL_TEXTS.effectExists,
      },
      events: { type: "array", items: { type: "string" } },
      receipt: {
        type: ["integer", "null"],
        description: TOOL_TEXTS.receipt,
      },
      released: {
        type: ["object", "null"],
        description: TOOL_TEXTS.released,
      },
      refusal: REFUSAL_SCHEMA,
      stored_arguments: {
        type: "object",
        description: TOOL_TEXTS.storedArguments,
      },
    },
    required: [
      "call",
      "session",
      "status",
      "job",
      "effect_exists",
      "events",
      "receipt",
    ],
  },
  annotations: {
    title: TOOL_TEXTS.createDraftTitle,
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/** `ledger`. */
export const LEDGER: ToolSpec = {
  name: "ledger",
  description: TOOL_TEXTS.ledger,
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
    title: TOOL_TEXTS.ledgerTitle,
    readOnlyHint: true,
    openWorldHint: false,
  },
};

/** `reconcile`. */
export const RECONCILE: ToolSpec = {
  name: "reconcile",
  description: TOOL_TEXTS.reconcile,
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  outputSchema: {
    type: "object",
    properties: {
      pending: { type: "array", items: { type: "object" } },
    },
  },
  annotations: {
    title: TOOL_TEXTS.reconcileTitle,
    readOnlyHint: true,
    openWorldHint: false,
  },
};

/** `compensate`. */
export const COMPENSATE: ToolSpec = {
  name: "compensate",
  description: TOOL_TEXTS.compensate,
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
    title: TOOL_TEXTS.compensateTitle,
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
