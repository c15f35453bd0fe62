/**
 * The three tools beside `create_draft`: `ledger` and `reconcile` read the
 * ledger through a second, read-only connection (what they show is what was
 * committed), `compensate` voids a draft the business's own way. Each
 * refuses bad arguments as a tool result with the rule.
 *
 * @module
 */
import { type Lang, say } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { JOB_PATTERN } from "../timing/args.ts";
import { compensate } from "../timing/compensation.ts";
import { AuditUnavailable } from "../timing/errors.ts";
import type { Lab } from "../timing/lab.ts";
import { Ledger } from "../timing/ledger.ts";
import { pendingKeys } from "../timing/reconcile.ts";
import { SERVER_MESSAGES } from "./_messages.ts";
import { refusalOf, result, type ToolResult } from "./_results.ts";

/** At most this many receipts in one `ledger` result (the latest ones). */
export const MAX_LEDGER_RECEIPTS = 200;

/** What the read tools need: the lab, its ledger file and the folders it is checked from. */
export interface ReadToolsOptions {
  /** The lab, open on its ledger (compensate writes through it). */
  lab: Lab;
  /** The ledger file, for the read-only second connection. */
  ledgerPath: string;
  /** Folders the ledger path is checked from. */
  trusted: readonly string[];
  /** The language of the results. */
  lang: Lang;
}

/** The `job` argument of a read tool, or the refusal to answer with. */
export function jobArgument(
  args: unknown,
  required: boolean,
  lang: Lang,
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

/** The `ledger`, `reconcile` and `compensate` tools over `options`. */
export function readTools(options: ReadToolsOptions): {
  readLedger(args: unknown): ToolResult;
  reconcileNow(): ToolResult;
  compensateNow(args: unknown): ToolResult;
} {
  const { lab, lang } = options;

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

  function readLedger(args: unknown): ToolResult {
    const asked = jobArgument(args, false, lang);
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
    const asked = jobArgument(args, true, lang);
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

  return { readLedger, reconcileNow, compensateNow };
}
