/**
 * What an answer did: its script is run in a fresh scratch ledger, step by
 * step, and then the ledger is read through a second, read-only connection.
 * Checkers judge this evidence by invariants, never by comparing text.
 *
 * @module
 */
import { labFilesIn } from "../sandbox/sandbox.ts";
import { openObserver } from "../store/db.ts";
import { InvalidStep, ScriptSession } from "../experiments/script.ts";
import { linesOf } from "../lines.ts";
import { parseJsonLikePython } from "../store/wire.ts";
import { MAX_ANSWER_STEPS, MAX_STEP_BYTES } from "./limits.ts";

/** The caps an answer runs under (tests may lower them). */
export interface Limits {
  /** Steps per answer. */
  steps: number;
  /** Bytes held per step: its line, and its output as JSON. */
  stepBytes: number;
}

/** The caps of every check and grade. */
export const LIMITS: Limits = {
  steps: MAX_ANSWER_STEPS,
  stepBytes: MAX_STEP_BYTES,
};

/** Why an answer was stopped before its end: which line, and which cap. */
export interface OverLimit {
  /** The input line where the cap was reached. */
  line: number;
  /** `steps`: more than {@linkcode MAX_ANSWER_STEPS}; `bytes`: a line or an output over {@linkcode MAX_STEP_BYTES}. */
  cap: "steps" | "bytes";
}

/** One step of the answer: the step as written, and what it printed. */
export interface StepEvidence {
  /** The input line number. */
  line: number;
  /** The parsed step (an object; anything else is an invalid step). */
  step: Record<string, unknown>;
  /** The JSON object the step printed. */
  output: Record<string, unknown>;
}

/** The committed state afterwards, read through a second connection. */
export interface LedgerEvidence {
  /** Drafts: job and the text of its body. */
  drafts: { job: string; text: string }[];
  /** Receipts in attempt order. */
  receipts: {
    attempt: number;
    job: string | null;
    status: string;
    events: string[];
  }[];
  /** Compensations by job. */
  compensations: { job: string; state: string; receipts: number }[];
  /** The policy rule now (null when the row is missing or never made). */
  rule: { revision: number; max_copies: number } | null;
  /** The policy lab's drafts: `[job, copies, checked_revision]`. */
  policyDrafts: [string, number, number][];
}

/** Everything a checker may look at. */
export interface Evidence {
  /** The steps, in order (blank lines skipped). */
  steps: StepEvidence[];
  /** Steps that could not run: line and reason. */
  invalid: { line: number; message: string }[];
  /** The ledger afterwards. */
  ledger: LedgerEvidence;
  /** Set when the answer went over a cap: it was stopped there, and proves nothing. */
  overLimit: OverLimit | null;
}

/** Run `answer` (JSON Lines) in a fresh ledger inside `folder` and gather the evidence. */
export async function gather(
  answer: ReadableStream<Uint8Array>,
  folder: string,
  trusted: readonly string[],
  limits: Limits = LIMITS,
): Promise<Evidence> {
  const files = { ...labFilesIn(folder), trusted };
  const session = new ScriptSession(files);
  const steps: StepEvidence[] = [];
  const invalid: Evidence["invalid"] = [];
  let overLimit: OverLimit | null = null;
  let count = 0;
  try {
    // Leaving the loop early cancels the stream: the rest is never read.
    for await (const line of linesOf(answer, limits.stepBytes)) {
      if ("tooLong" in line) {
        overLimit = { line: line.number, cap: "bytes" };
        break;
      }
      if (line.text.trim() === "") continue;
      if (++count > limits.steps) {
        overLimit = { line: line.number, cap: "steps" };
        break;
      }
      try {
        const { output } = await session.step(line.text);
        const held = encoder.encode(JSON.stringify(output)).length;
        if (held > limits.stepBytes) {
          overLimit = { line: line.number, cap: "bytes" };
          break;
        }
        steps.push({
          line: line.number,
          step: parseJsonLikePython(line.text) as Record<string, unknown>,
          output,
        });
      } catch (error) {
        if (!(error instanceof InvalidStep)) throw error;
        invalid.push({ line: line.number, message: error.message });
      }
    }
  } finally {
    session.close();
  }
  return {
    steps,
    invalid,
    ledger: readLedger(files.lab, files.policy),
    overLimit,
  };
}

const encoder = new TextEncoder();

function readLedger(lab: string, policy: string): LedgerEvidence {
  const db = openObserver(lab);
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type='table'")
        .all() as {
          name: string;
        }[]).map((t) => t.name),
    );
    const drafts = (db.prepare("SELECT job, body FROM drafts ORDER BY job")
      .all() as { job: string; body: string }[]).map((d) => ({
        job: d.job,
        text: textOf(d.body),
      }));
    const receipts = (db.prepare(
      "SELECT attempt, job, status, events FROM receipts ORDER BY attempt",
    ).all() as {
      attempt: number;
      job: string | null;
      status: string;
      events: string;
    }[]).map((r) => ({
      attempt: Number(r.attempt),
      job: r.job,
      status: r.status,
      events: listOf(r.events),
    }));
    const compensations = tables.has("compensations")
      ? (db.prepare(
        `SELECT c.job AS job, c.state AS state,
           (SELECT COUNT(*) FROM compensation_receipts r WHERE r.job=c.job) AS n
         FROM compensations c ORDER BY c.job`,
      ).all() as { job: string; state: string; n: number }[]).map((c) => ({
        job: c.job,
        state: c.state,
        receipts: Number(c.n),
      }))
      : [];
    return { drafts, receipts, compensations, ...readPolicy(policy) };
  } finally {
    db.close();
  }
}

function readPolicy(
  path: string,
): Pick<LedgerEvidence, "rule" | "policyDrafts"> {
  try {
    Deno.lstatSync(path);
  } catch {
    return { rule: null, policyDrafts: [] };
  }
  const db = openObserver(path);
  try {
    const rule = db.prepare(
      "SELECT revision, max_copies FROM policy WHERE singleton=1",
    ).get() as { revision: number; max_copies: number } | undefined;
    const drafts = (db.prepare(
      "SELECT job, copies, checked_revision FROM drafts ORDER BY job",
    ).all() as { job: string; copies: number; checked_revision: number }[])
      .map((
        r,
      ) =>
        [r.job, Number(r.copies), Number(r.checked_revision)] as [
          string,
          number,
          number,
        ]
      );
    return {
      rule: rule
        ? {
          revision: Number(rule.revision),
          max_copies: Number(rule.max_copies),
        }
        : null,
      policyDrafts: drafts,
    };
  } finally {
    db.close();
  }
}

function textOf(body: string): string {
  try {
    const parsed = JSON.parse(body);
    return typeof parsed?.text === "string" ? parsed.text : body;
  } catch {
    return body;
  }
}

function listOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
