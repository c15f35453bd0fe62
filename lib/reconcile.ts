/**
 * Reconciliation: the keys whose effect exists but whose outcome was never
 * accepted on record, and the safe next step for each.
 *
 * @module
 */
import type { ToolArgs } from "./args.ts";
import type { Ledger } from "./ledger.ts";

/** One key that needs attention. */
export interface Pending {
  /** Business key. */
  job: string;
  /** Its receipts so far (possibly none: effect present, receipt missing). */
  receipts: { attempt: number; status: string }[];
  /** The arguments that reproduce the stored draft, when its body says them. */
  retry: ToolArgs | null;
  /** The safe next step. */
  next: "retry_same_arguments";
}

const BODY_TEXT = /^(river|forest) \/ copies=([1-9])$/;

/** The arguments that created `body`, read back from its text, or null. */
export function argsFromDraft(job: string, body: unknown): ToolArgs | null {
  const text = (body as { text?: unknown } | null)?.text;
  const match = typeof text === "string" ? BODY_TEXT.exec(text) : null;
  if (match === null) return null;
  return {
    job,
    topic: match[1] as ToolArgs["topic"],
    copies: Number(match[2]),
  };
}

/** Every draft without an `accepted` receipt, ordered by job. */
export function pendingKeys(ledger: Ledger): Pending[] {
  const receipts = ledger.receipts();
  return ledger.drafts()
    .map((draft) => ({
      draft,
      mine: receipts.filter((r) => r.job === draft.job),
    }))
    .filter(({ mine }) => !mine.some((r) => r.status === "accepted"))
    .map(({ draft, mine }) => ({
      job: draft.job,
      receipts: mine.map((r) => ({ attempt: r.attempt, status: r.status })),
      retry: argsFromDraft(draft.job, draft.body),
      next: "retry_same_arguments" as const,
    }));
}
