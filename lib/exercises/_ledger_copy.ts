/**
 * The ledger copy: what an exercise judged from the ledger a session left
 * (an agent over `guardlab mcp`, or anything else) judges instead of an
 * answer that runs. It holds the rows of drafts (as job, topic, copies),
 * receipts, compensations and the MCP calls `guardlab mcp` recorded
 * (`mcp_calls`: which session and call wrote each receipt), as one bounded
 * line of JSON, made by `check --ledger NAME` from a read-only snapshot and
 * handed in as the answer. Nothing is re-run: the copy is what is judged
 * (again by `grade`). The call rows say a receipt came through `guardlab
 * mcp`, not which client sent it; whoever writes a ledger by hand can write
 * them too.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { Ledger } from "../timing/ledger.ts";
import { argsForDigest } from "../timing/reconcile.ts";
import { callItem, type Evidence, type Item, type Value } from "./_evidence.ts";
import { EVIDENCE_MESSAGES as M } from "./messages.ts";

const encoder = new TextEncoder();

/** The largest ledger file (plus its log) judged: 8 MiB, checked before it is read. */
export const MAX_LEDGER_FILE_BYTES = 8 << 20;

/** The most rows (drafts, receipts and compensations together) a copy holds. */
export const MAX_COPY_ROWS = 2000;

/** The most bytes a copy's text may be: 1 MiB. */
export const MAX_COPY_BYTES = 1 << 20;

/**
 * The value of a copy's `ledger_copy` field: its format version. Version 2
 * added the MCP calls; a version 1 copy (an older guardlab) is still read,
 * with no calls.
 */
export const LEDGER_COPY_VERSION = 2;

/** The copy format an older guardlab made: no `calls`. */
const OLDER_COPY_VERSION = 1;

const MAX_EVENTS = 32;
const MAX_FIELD = 64;

/** A reason a ledger or a copy cannot be judged. */
export type CopyRefusal = { reason: Text; overLimit: boolean };

const overCap = (reason: Text): CopyRefusal => ({ overLimit: true, reason });

/**
 * The copy of `ledger` (a read-only connection), or why it is not made:
 * more than `maxRows` rows (default {@linkcode MAX_COPY_ROWS}) or
 * {@linkcode MAX_COPY_BYTES} bytes.
 */
export function copyOfLedger(
  ledger: Ledger,
  maxRows: number = MAX_COPY_ROWS,
): { text: string } | CopyRefusal {
  // Counted before any row is read: a huge table is never held.
  const counted = ledger.countDrafts() + ledger.countReceipts() +
    ledger.countCalls();
  if (counted > maxRows) return overCap(M.tooManyRows(counted, maxRows));
  const compensations = ledger.compensations();
  const rows = counted + compensations.length;
  if (rows > maxRows) return overCap(M.tooManyRows(rows, maxRows));
  const drafts = ledger.drafts().map((d) => {
    const args = argsForDigest(d.job, d.digest);
    return args
      ? { job: d.job, topic: args.topic, copies: args.copies }
      : { job: d.job };
  });
  const text = JSON.stringify({
    ledger_copy: LEDGER_COPY_VERSION,
    drafts,
    receipts: ledger.receipts(),
    compensations,
    calls: ledger.calls().map(callItem),
  });
  if (encoder.encode(text).length > MAX_COPY_BYTES) {
    return overCap(M.rowsTooLarge(MAX_COPY_BYTES));
  }
  return { text };
}

/**
 * The bounded copy of the ledger file at `path` (it must exist), read
 * through a read-only snapshot that creates nothing; a file over
 * {@linkcode MAX_LEDGER_FILE_BYTES} (with its log) is refused before it is
 * read.
 */
export function ledgerCopy(
  path: string,
  trusted: readonly string[],
): { text: string } | CopyRefusal {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += Deno.lstatSync(file).size;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  if (bytes > MAX_LEDGER_FILE_BYTES) {
    return overCap(M.ledgerTooLarge(bytes, MAX_LEDGER_FILE_BYTES));
  }
  const ledger = Ledger.open(path, { mode: "read", trusted });
  try {
    return copyOfLedger(ledger);
  } finally {
    ledger.close();
  }
}

/** The reason a text is not a ledger copy (the judge adds the command that makes one). */
export const NOT_A_COPY: Text = M.notACopy;

class BadCopy extends Error {}

function short(v: unknown): string {
  if (typeof v !== "string" || v.length === 0 || v.length > MAX_FIELD) {
    throw new BadCopy();
  }
  return v;
}

/** `v` as rows with the space-separated `required` keys, and maybe the `optional` ones. */
function rowsOf(
  v: unknown,
  required: string,
  optional = "",
): Record<string, unknown>[] {
  const keys = required.split(" ");
  const known = optional === "" ? keys : [...keys, ...optional.split(" ")];
  if (!Array.isArray(v)) throw new BadCopy();
  return v.map((row) => {
    if (!isPlainRecord(row)) throw new BadCopy();
    for (const k of Object.keys(row)) {
      if (!known.includes(k)) throw new BadCopy();
    }
    for (const k of keys) if (!Object.hasOwn(row, k)) throw new BadCopy();
    return row;
  });
}

/**
 * The evidence a copy gives (ledger tables only, no steps), or why it is
 * not a copy: read strictly, every field typed and bounded.
 */
export function evidenceOfCopy(text: string): Evidence | CopyRefusal {
  if (encoder.encode(text).length > MAX_COPY_BYTES) {
    return overCap(M.copyTooLarge(MAX_COPY_BYTES));
  }
  const notACopy: CopyRefusal = { overLimit: false, reason: NOT_A_COPY };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return notACopy;
  }
  const version = isPlainRecord(data) ? data.ledger_copy : undefined;
  if (version !== LEDGER_COPY_VERSION && version !== OLDER_COPY_VERSION) {
    return notACopy;
  }
  try {
    const [top] = rowsOf(
      [data],
      "ledger_copy drafts receipts compensations" +
        (version === LEDGER_COPY_VERSION ? " calls" : ""),
    );
    const draftRows = rowsOf(top.drafts, "job", "topic copies");
    const receiptRows = rowsOf(
      top.receipts,
      "attempt job status effect_exists events",
    );
    const compRows = rowsOf(top.compensations, "job state receipts");
    const callRows = version === LEDGER_COPY_VERSION
      ? rowsOf(top.calls, "session call tool job receipt")
      : [];
    const rows = draftRows.length + receiptRows.length + compRows.length +
      callRows.length;
    if (rows > MAX_COPY_ROWS) {
      return overCap(M.tooManyRows(rows, MAX_COPY_ROWS));
    }
    const drafts: Item[] = draftRows.map((r) => {
      const item: Record<string, Value> = { job: short(r.job) };
      if (r.topic !== undefined) item.topic = short(r.topic);
      if (r.copies !== undefined) {
        if (!Number.isInteger(r.copies)) throw new BadCopy();
        item.copies = r.copies as number;
      }
      return item;
    });
    const seen = new Set<number>();
    const receipts: Item[] = receiptRows.map((r) => {
      const attempt = r.attempt;
      if (
        !Number.isSafeInteger(attempt) || (attempt as number) < 1 ||
        seen.has(attempt as number)
      ) throw new BadCopy();
      seen.add(attempt as number);
      if (typeof r.effect_exists !== "boolean") throw new BadCopy();
      if (!Array.isArray(r.events) || r.events.length > MAX_EVENTS) {
        throw new BadCopy();
      }
      return {
        attempt: attempt as number,
        job: r.job === null ? null : short(r.job),
        status: short(r.status),
        effect_exists: r.effect_exists,
        events: r.events.map(short),
      };
    });
    const compensations: Item[] = compRows.map((r) => {
      if (!Number.isSafeInteger(r.receipts)) throw new BadCopy();
      return {
        job: short(r.job),
        state: short(r.state),
        receipts: r.receipts as number,
      };
    });
    const count = (v: unknown) => {
      if (!Number.isSafeInteger(v) || (v as number) < 1) throw new BadCopy();
      return v as number;
    };
    const calls: Item[] = callRows.map((r) => ({
      session: count(r.session),
      call: count(r.call),
      tool: short(r.tool),
      job: r.job === null ? null : short(r.job),
      receipt: r.receipt === null ? null : count(r.receipt),
    }));
    return {
      steps: [],
      invalid: [],
      overLimit: null,
      ledger: {
        drafts,
        receipts,
        compensations,
        pending: [],
        policy_drafts: [],
        rule: [],
        calls,
      },
    };
  } catch (error) {
    if (!(error instanceof BadCopy)) throw error;
    return notACopy;
  }
}
