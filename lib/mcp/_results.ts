/**
 * What a `tools/call` answers: MCP's `CallToolResult` with the one-line
 * summary a model reads first and the result object in `structuredContent`,
 * for `create_draft` built from the lab's observation of the attempt.
 *
 * @module
 */
import { type Lang, say, type Text } from "../base/i18n.ts";
import { JOB_PATTERN } from "../timing/args.ts";
import type { Attempt, RunOutput } from "../timing/attempt.ts";
import type { Lab } from "../timing/lab.ts";
import { ruleOf } from "../timing/messages.ts";
import { argsForDigest } from "../timing/reconcile.ts";
import { DRAFT_SUMMARY } from "./_messages.ts";

/** The result of a tools/call, as MCP's `CallToolResult`. */
export interface ToolResult {
  [key: string]: unknown;
  /** The summary line, then the result object as JSON text. */
  content: { type: "text"; text: string }[];
  /** The result object. */
  structuredContent: Record<string, unknown>;
  /** Set on a refusal or a failure. */
  isError?: boolean;
}

/** A tool result: `line` first, then `structured` as text and as `structuredContent`. */
export function result(
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

/** A refusal's rule and what would have been valid, in `lang`. */
export function refusalOf(
  rule: string,
  lang: Lang,
): { rule: string; valid: string } {
  const valid = ruleOf(rule);
  return { rule, valid: valid ? say(valid, lang) : "" };
}

/** The business key in `args`, when it is a valid one. */
export function validJob(args: unknown): string | null {
  const raw = (args as { job?: unknown } | null)?.job;
  return typeof raw === "string" && JOB_PATTERN.test(raw) ? raw : null;
}

/** The one-line summary of a `create_draft` result, the line a model reads first. */
export function summaryOf(s: Record<string, unknown>): Text {
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
    ? DRAFT_SUMMARY.rule(refusal.rule, refusal.valid)
    : DRAFT_SUMMARY.rule("", "");
  switch (s.status) {
    case "accepted":
      return events.includes("effect_reused")
        ? DRAFT_SUMMARY.reused(job, rec)
        : DRAFT_SUMMARY.committed(job, rec);
    case "input_rejected":
      // Said where it happened: the argument check, the input check, or a
      // parallel guardrail whose verdict came after the draft was committed.
      return !events.includes("arguments_valid")
        ? DRAFT_SUMMARY.argumentsRejected(rule, rec)
        : events.includes("input_tripwire")
        ? DRAFT_SUMMARY.inputRejectedLate(rule, draft, rec)
        : DRAFT_SUMMARY.inputRejected(rule, rec);
    case "output_rejected":
      return DRAFT_SUMMARY.outputRejected(draft, rec);
    case "key_conflict":
      // The sentence says what the rule's text would: only its name here.
      return DRAFT_SUMMARY.keyConflict(
        job,
        DRAFT_SUMMARY.rule(refusal?.rule ?? "", ""),
        rec,
      );
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

/** Where an MCP call stands: its session on the ledger and its number there. */
export interface CallPlace {
  /** The session's number on this ledger. */
  session: number;
  /** The tools/call number, from 1. */
  call: number;
}

/**
 * `create_draft`'s `structuredContent`: the attempt as the lab observed
 * it, in the tool's output schema.
 */
export function draftResult(
  lab: Lab,
  place: CallPlace,
  args: unknown,
  { output, attempt }: { output: RunOutput; attempt: Attempt },
  lang: Lang,
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
    return {
      call: place.call,
      session: place.session,
      status: output.raised,
      job: validJob(args),
      ...common,
      released: null,
      ...(attempt.stoppedAt ? { stopped_at: attempt.stoppedAt } : {}),
    };
  }
  const structured: Record<string, unknown> = {
    call: place.call,
    session: place.session,
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
