/**
 * What an answer did, as the engine's evidence: its steps are run one by
 * one in a fresh scratch ledger, and after each step the ledger is read
 * through a second, read-only connection, so that a run's receipt is the
 * row the ledger really holds, never what the run returned. Afterwards the
 * whole ledger is read the same way.
 *
 * Evidence keeps named fields only (never a step's whole output), so what
 * it holds per step is bounded by the line.
 *
 * An exercise judged from the ledger a session left has a ledger copy
 * instead (`_ledger_copy.ts`), read into the same tables.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { isPlainRecord, parseJsonLikePython } from "../base/json.ts";
import { jsonLinesOf } from "../base/jsonl.ts";
import { labFilesIn } from "../sandbox/sandbox.ts";
import { type CallRow, Ledger } from "../timing/ledger.ts";
import { argsForDigest, pendingKeys } from "../timing/reconcile.ts";
import type { Attempt } from "../timing/attempt.ts";
import { PolicyLab } from "../policy/policy.ts";
import {
  InvalidStep,
  lineRefusal,
  ScriptSession,
} from "../experiments/script.ts";
import { EVIDENCE_MESSAGES as M } from "./messages.ts";

/** A value a field of the evidence can hold. */
export type Value = string | number | boolean | null | readonly string[];

/** One item of the evidence: a step, or a ledger row. A field that is absent is "missing". */
export type Item = Readonly<Record<string, Value>>;

/** The ledger tables the engine can look up, read through a second connection. */
export const LEDGER_TABLES = [
  "drafts",
  "receipts",
  "compensations",
  "pending",
  "policy_drafts",
  "rule",
  "calls",
] as const;

/** A ledger table's name. */
export type LedgerTable = typeof LEDGER_TABLES[number];

/** Everything the engine may look at. */
export interface Evidence {
  /** The steps that ran, in order (`step` 1, 2, ...). */
  steps: Item[];
  /** The ledger afterwards, by table. */
  ledger: Record<LedgerTable, Item[]>;
  /** Steps that could not run: line, reason, and the Snapshot named that was never taken. */
  invalid: { line: number; message: Text; snapshot?: string }[];
  /** Why gathering stopped at a bound, or null. */
  overLimit: Text | null;
}

/** Bounds for {@linkcode gather}: the judge's (`_judge.ts` states them). */
export interface GatherLimits {
  /** The most steps to run. */
  readonly maxSteps: number;
  /** The most bytes held for one step: its line, and again what it printed. */
  readonly maxStepBytes: number;
}

/** A scalar of a step as the student wrote it: numbers by value, anything else but a scalar is dropped. */
function scalar(value: unknown): Value | undefined {
  if (value instanceof Number) return value.valueOf();
  if (
    value === null || typeof value === "string" ||
    typeof value === "number" || typeof value === "boolean"
  ) return value;
  return undefined;
}

function put(
  item: Record<string, Value>,
  name: string,
  value: unknown,
): void {
  const v = Array.isArray(value)
    ? value.every((x) => typeof x === "string") ? value as string[] : undefined
    : scalar(value);
  if (v !== undefined) item[name] = v;
}

/** `put` each of the space-separated `names` from `from`. */
function putAll(
  item: Record<string, Value>,
  names: string,
  from: Record<string, unknown>,
): void {
  for (const name of names.split(" ")) put(item, name, from[name]);
}

function record(value: unknown): Record<string, unknown> {
  return isPlainRecord(value) ? value : {};
}

/** What the second connections see, between steps. */
class Observer {
  /** The lab ledger, read-only. */
  readonly lab: Ledger;
  #policy?: PolicyLab;
  #lastAttempt = 0;
  readonly #policyPath: string;
  readonly #trusted: readonly string[];
  /** The step during which each receipt row appeared. */
  readonly receiptStep = new Map<number, number>();

  constructor(lab: string, policy: string, trusted: readonly string[]) {
    this.lab = Ledger.open(lab, { mode: "observe", trusted });
    this.#policyPath = policy;
    this.#trusted = trusted;
  }

  close(): void {
    this.lab.close();
    this.#policy?.close();
  }

  /** The receipt rows written since the last look, now attributed to `step`. */
  newReceipts(step: number): void {
    for (const r of this.lab.receiptsAfter(this.#lastAttempt)) {
      const attempt = Number(r.attempt);
      this.receiptStep.set(attempt, step);
      this.#lastAttempt = Math.max(this.#lastAttempt, attempt);
    }
  }

  draftExists(job: Value | undefined): boolean {
    return typeof job === "string" && this.lab.draftExists(job);
  }

  /** The policy database, once a step has made it. */
  policy(): PolicyLab | undefined {
    if (this.#policy === undefined) {
      try {
        Deno.lstatSync(this.#policyPath);
      } catch {
        return undefined;
      }
      this.#policy = PolicyLab.observe(this.#policyPath, this.#trusted);
    }
    return this.#policy;
  }

  rule(): { revision: number; max_copies: number } | undefined {
    const rule = this.policy()?.currentPolicy();
    return rule
      ? { revision: rule.revision, max_copies: rule.max_copies }
      : undefined;
  }

  policyDraftExists(job: Value | undefined): boolean {
    const db = this.policy();
    return db !== undefined && typeof job === "string" &&
      db.rows().some(([drafted]) => drafted === job);
  }
}

/** What the steps so far left for the next: the fixture, the snapshots, and the second connections. */
interface StepContext {
  fixture: string;
  snapshots: Map<string, { step: number; revision: number }>;
  readonly seen: Observer;
}

/** One step as it ran: as written, what it printed, and its attempt (a `run`). */
interface Ran {
  readonly s: Record<string, unknown>;
  readonly output: Record<string, unknown>;
  readonly attempt: Attempt | undefined;
}

function runItem(
  item: Record<string, Value>,
  { s, output, attempt }: Ran,
  ctx: StepContext,
): void {
  const args = record(s.args);
  putAll(item, "job topic copies", args);
  const faults = record(s.faults);
  item.cancel_at = "";
  item.fail_at = "";
  item.bad_output = false;
  item.audit_failure = false;
  putAll(item, "cancel_at fail_at bad_output audit_failure", faults);
  item.receipt = typeof s.receipt === "string" ? s.receipt : "checked";
  item.input_guardrail = typeof s.input_guardrail === "string"
    ? s.input_guardrail
    : "sequential";
  item.fixture = ctx.fixture;
  putAll(item, "status raised cause attempt effect_exists message", output);
  // The events the attempt passed, whether it returned or raised.
  put(item, "events", [...(attempt?.events ?? [])]);
  const outcome = output.status ?? output.raised;
  if (typeof outcome === "string") item.outcome = outcome;
  if (attempt?.refusal !== undefined) item.refusal = attempt.refusal;
  ctx.seen.newReceipts(item.step as number);
  item.draft = ctx.seen.draftExists(item.job);
}

function policyItem(
  op: string,
  item: Record<string, Value>,
  { s, output }: Ran,
  ctx: StepContext,
): void {
  putAll(item, "job copies max_copies as", s);
  putAll(item, "inserted raised rejected message", output);
  if (op === "policy.precheck") {
    const snap = record(output.snapshot);
    put(item, "revision", snap.revision);
    put(item, "max_copies", snap.max_copies);
    if (typeof s.as === "string" && s.as !== "" && "snapshot" in output) {
      ctx.snapshots.set(s.as, {
        step: item.step as number,
        revision: Number(snap.revision),
      });
    }
  }
  if (op === "policy.change") {
    put(item, "revision", record(output.policy).revision);
  }
  if (op === "policy.insert_checked" || op === "policy.insert_naive") {
    put(item, "snapshot", s.snapshot);
    item.fail_before_commit = s.fail_before_commit === true;
    const snap = typeof s.snapshot === "string"
      ? ctx.snapshots.get(s.snapshot)
      : undefined;
    if (snap) {
      item.snapshot_step = snap.step;
      item.snapshot_revision = snap.revision;
    }
    item.draft = ctx.seen.policyDraftExists(item.job);
  }
  const rule = ctx.seen.rule();
  if (rule) {
    item.rule_revision = rule.revision;
    item.rule_max_copies = rule.max_copies;
  }
}

const encoder = new TextEncoder();

/** One step's item: the step as written (named fields) and what came of it. */
function itemOf(
  n: number,
  line: number,
  ran: Ran,
  ctx: StepContext,
): Item {
  const { s, output } = ran;
  const op = String(s.op);
  const item: Record<string, Value> = { step: n, line, op };
  if (op === "run") runItem(item, ran, ctx);
  else if (op.startsWith("policy.")) policyItem(op, item, ran, ctx);
  else if (op === "fixture") {
    put(item, "receipt_fault", s.receipt_fault);
    if (typeof s.receipt_fault === "string") ctx.fixture = s.receipt_fault;
  } else if (op === "compensate") {
    put(item, "job", s.job);
    item.fail_at = "";
    put(item, "fail_at", record(s.faults).fail_at);
    putAll(item, "status raised message attempt", output);
    item.draft = ctx.seen.draftExists(item.job);
  } else if (op === "exists") put(item, "job", s.job);
  return item;
}

/**
 * Run `answer` (JSON Lines) in a fresh ledger inside `folder` and gather
 * the evidence, stopping at the first step past a bound.
 */
export async function gather(
  answer: ReadableStream<Uint8Array>,
  folder: string,
  trusted: readonly string[],
  limits: GatherLimits,
): Promise<Evidence> {
  const { maxSteps, maxStepBytes: maxBytes } = limits;
  const files = { ...labFilesIn(folder), trusted };
  const session = new ScriptSession(files);
  const seen = new Observer(files.lab, files.policy, trusted);
  const steps: Item[] = [];
  const invalid: Evidence["invalid"] = [];
  const ctx: StepContext = { fixture: "none", snapshots: new Map(), seen };
  let overLimit: Text | null = null;
  const bounds = {
    maxLineBytes: maxBytes,
    maxLines: maxSteps,
    parse: parseJsonLikePython,
  };
  try {
    // Leaving the loop early cancels the stream: the rest is never read.
    for await (const line of jsonLinesOf(answer, bounds)) {
      if ("problem" in line) {
        const { problem, number } = line;
        if (problem === "tooLong") overLimit = M.overBytes(number, maxBytes);
        else if (problem === "tooMany") {
          overLimit = M.overSteps(maxSteps, number);
        } else {
          const { text: message, snapshot } = lineRefusal(problem, maxBytes);
          invalid.push({ line: number, message, snapshot });
          continue;
        }
        break;
      }
      try {
        const result = await session.stepObject(line.value);
        // What a step printed is held while it runs: it is capped too.
        if (encoder.encode(JSON.stringify(result.output)).length > maxBytes) {
          overLimit = M.overBytes(line.number, maxBytes);
          break;
        }
        const ran: Ran = {
          s: line.value,
          output: result.output,
          attempt: result.run?.attempt,
        };
        steps.push(itemOf(steps.length + 1, line.number, ran, ctx));
      } catch (error) {
        if (!(error instanceof InvalidStep)) throw error;
        const { text: message, snapshot } = error;
        invalid.push({ line: line.number, message, snapshot });
      }
    }
    return { steps, invalid, overLimit, ledger: readLedger(seen) };
  } finally {
    seen.close();
    session.close();
  }
}

/** The whole ledger afterwards, through the second connections. */
function readLedger(seen: Observer): Record<LedgerTable, Item[]> {
  const lab = seen.lab;
  const drafts = lab.drafts().map((d) => {
    const item: Record<string, Value> = { job: d.job };
    const body = record(d.body);
    if (typeof body.text === "string") item.text = body.text;
    const args = argsForDigest(d.job, d.digest);
    if (args) {
      item.topic = args.topic;
      item.copies = args.copies;
    }
    return item;
  });
  const receipts = lab.receipts().map((r) => {
    // A receipt row is attempt, job, status, effect_exists and events.
    const item: Record<string, Value> = { ...r };
    const step = seen.receiptStep.get(r.attempt);
    if (step !== undefined) item.step = step;
    return item;
  });
  const compensations = lab.compensations()
    .map(({ job, state, receipts }) => ({ job, state, receipts }));
  const pending = pendingKeys(lab).map((p) => ({
    job: p.job,
    state: p.state,
    settled: p.state === "voided" && p.compensationReceipt === true,
  }));
  const db = seen.policy();
  const policyDrafts = db
    ? db.rows().map(([job, copies, checked_revision]) => ({
      job,
      copies,
      checked_revision,
    }))
    : [];
  const rule = seen.rule();
  return {
    drafts,
    receipts,
    compensations,
    pending,
    policy_drafts: policyDrafts,
    rule: rule ? [rule] : [],
    // A script's scratch ledger has no MCP session: always empty here.
    calls: lab.calls().map(callItem),
  };
}

/** An `mcp_calls` row as an item: which session and call, the tool, the key, the receipt it wrote. */
export function callItem(c: CallRow): Item {
  return {
    session: c.session,
    call: c.call,
    tool: c.tool,
    job: c.job,
    receipt: c.receipt,
  };
}

/** The fields each kind of item may carry, for the form's checks and the README. */
export const ITEM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  steps: fieldsOf(
    "step line op job topic copies cancel_at fail_at bad_output audit_failure",
    "receipt input_guardrail fixture status raised cause outcome attempt",
    "effect_exists events message refusal draft receipt_fault max_copies as",
    "inserted rejected revision snapshot fail_before_commit snapshot_step",
    "snapshot_revision rule_revision rule_max_copies",
    // An example server's acceptance matrix (_accept_evidence.ts): one per case.
    "case verdict class info effect",
    // An agent host run in process (_host_evidence.ts): one step.
    "variant resent cancelled told rows host_end",
  ),
  drafts: fieldsOf("job text topic copies"),
  receipts: fieldsOf("attempt job status effect_exists events step"),
  compensations: fieldsOf("job state receipts"),
  pending: fieldsOf("job state settled"),
  policy_drafts: fieldsOf("job copies checked_revision"),
  rule: fieldsOf("revision max_copies"),
  calls: fieldsOf("session call tool job receipt"),
};

function fieldsOf(...lines: string[]): readonly string[] {
  return lines.join(" ").split(" ");
}
