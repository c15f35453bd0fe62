/**
 * A bounded copy of a ledger's rows, for an exercise judged from the ledger
 * a session left (an agent over `guardlab mcp`, or anything else): the rows
 * of drafts (as job, topic, copies), receipts and compensations, as one
 * line of JSON. `check --ledger NAME` makes it from a read-only snapshot;
 * the hand-in carries it as the answer; `grade` reads it back strictly and
 * judges it by the same invariants. Nothing is re-run: the copy is what is
 * judged, and it cannot say who or what made the rows.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import type { Ledger } from "../timing/ledger.ts";
import { argsForDigest } from "../timing/reconcile.ts";
import type { Evidence, Item, Value } from "./evidence.ts";

/** The largest ledger file (plus its log) judged: 8 MiB, checked before it is read. */
export const MAX_LEDGER_FILE_BYTES = 8 << 20;

/** The most rows (drafts, receipts and compensations together) a copy holds. */
export const MAX_COPY_ROWS = 2000;

/** The most bytes a copy's text may be: 1 MiB. */
export const MAX_COPY_BYTES = 1 << 20;

/** The value of a copy's `ledger_copy` field: its format version. */
export const LEDGER_COPY_VERSION = 1;

const MAX_EVENTS = 32;
const MAX_FIELD = 64;

/** What a verdict from a ledger cannot claim, in both languages. */
export const LEDGER_NOT_AGENT: Text = {
  en: "guardlab judges the ledger, not the agent: it cannot tell an " +
    "agent's ledger from a script's, and it does not re-run the session.",
  zh: "guardlab 判定的是账本，不是 Agent：它分不清账本出自 Agent 还是脚本，" +
    "也不会重跑会话。",
};

/** How grade marks an exercise judged from a ledger copy, in both languages. */
export const SESSION_NOT_RERUN: Text = {
  en: "ledger copy re-judged, session not re-run",
  zh: "已重新判定账本副本，未重跑会话",
};

/** A reason a ledger or a copy cannot be judged. */
export type CopyRefusal = { reason: Text; overLimit: boolean };

/** Rows over the cap, in both languages. */
function tooManyRows(rows: number, max = MAX_COPY_ROWS): CopyRefusal {
  return {
    overLimit: true,
    reason: {
      en: `over the limit: the ledger has ${rows} rows, more than ` +
        `${max} to judge; use a fresh ledger for this exercise`,
      zh: `超出限制：账本有 ${rows} 行，超过可判定的 ${max} 行；` +
        "请为这个练习用一个新账本",
    },
  };
}

/** A file over {@linkcode MAX_LEDGER_FILE_BYTES}, in both languages. */
export function ledgerTooLarge(bytes: number): CopyRefusal {
  return {
    overLimit: true,
    reason: {
      en: `over the limit: the ledger is ${bytes} bytes, more than ` +
        `${MAX_LEDGER_FILE_BYTES} to judge; use a fresh ledger`,
      zh: `超出限制：账本有 ${bytes} 字节，超过可判定的 ` +
        `${MAX_LEDGER_FILE_BYTES} 字节；请用一个新账本`,
    },
  };
}

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
  const counted = ledger.countDrafts() + ledger.countReceipts();
  if (counted > maxRows) return tooManyRows(counted, maxRows);
  const compensations = ledger.compensations();
  const rows = counted + compensations.length;
  if (rows > maxRows) return tooManyRows(rows, maxRows);
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
  });
  if (new TextEncoder().encode(text).length > MAX_COPY_BYTES) {
    return {
      overLimit: true,
      reason: {
        en: `over the limit: the ledger's rows are more than ` +
          `${MAX_COPY_BYTES} bytes; use a fresh ledger`,
        zh: `超出限制：账本的行超过 ${MAX_COPY_BYTES} 字节；请用一个新账本`,
      },
    };
  }
  return { text };
}

class BadCopy extends Error {}

function short(v: unknown): string {
  if (typeof v !== "string" || v.length === 0 || v.length > MAX_FIELD) {
    throw new BadCopy();
  }
  return v;
}

function rowsOf(
  v: unknown,
  keys: readonly string[],
  optional: readonly string[],
): Record<string, unknown>[] {
  if (!Array.isArray(v)) throw new BadCopy();
  return v.map((row) => {
    if (!isPlainRecord(row)) throw new BadCopy();
    for (const k of Object.keys(row)) {
      if (!keys.includes(k) && !optional.includes(k)) throw new BadCopy();
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
  if (new TextEncoder().encode(text).length > MAX_COPY_BYTES) {
    return {
      overLimit: true,
      reason: {
        en: `over the limit: the ledger copy is more than ${MAX_COPY_BYTES} ` +
          "bytes",
        zh: `超出限制：账本副本超过 ${MAX_COPY_BYTES} 字节`,
      },
    };
  }
  const notACopy: CopyRefusal = {
    overLimit: false,
    reason: {
      en: "this is not a ledger copy guardlab made: run " +
        "guardlab exercise check N --ledger NAME",
      zh: "这不是 guardlab 生成的账本副本：请运行 " +
        "guardlab exercise check N --ledger NAME",
    },
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return notACopy;
  }
  if (!isPlainRecord(data) || data.ledger_copy !== LEDGER_COPY_VERSION) {
    return notACopy;
  }
  try {
    const top = rowsOf([data], [
      "ledger_copy",
      "drafts",
      "receipts",
      "compensations",
    ], [])[0];
    const draftRows = rowsOf(top.drafts, ["job"], ["topic", "copies"]);
    const receiptRows = rowsOf(top.receipts, [
      "attempt",
      "job",
      "status",
      "effect_exists",
      "events",
    ], []);
    const compRows = rowsOf(
      top.compensations,
      ["job", "state", "receipts"],
      [],
    );
    const rows = draftRows.length + receiptRows.length + compRows.length;
    if (rows > MAX_COPY_ROWS) return tooManyRows(rows);
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
      },
    };
  } catch (error) {
    if (!(error instanceof BadCopy)) throw error;
    return notACopy;
  }
}
