/**
 * `accept judge`: a saved `accept --json` report judged again, offline,
 * from each case's history alone. The report is input like any other (a
 * colleague's, a CI artifact): its depth is measured before it is parsed,
 * every record of every history is checked field by field, and a report
 * that is not one of this guardlab's is refused in one line. Nothing the
 * report says beside its histories is trusted: the rows are rebuilt from
 * the histories by the checker, and a verdict the report states that its
 * history does not give is named.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { inert } from "../base/terminal.ts";
import { TextError } from "../base/text_error.ts";
import { type CaseName, isCaseName, type Verdict, VERDICTS } from "./cases.ts";
import { judgeCase, type JudgedRow, judgedRow } from "./_checker.ts";
import {
  type CaseHistory,
  HISTORY_VERSION,
  type HistoryAnswer,
  type HistoryRecord,
} from "./_history.ts";
import { MAX_CASE_CALLS, MAX_ORACLE_TOOLS } from "./limits.ts";
import { MAX_BASELINE_RESULTS, reportHead } from "./baseline.ts";
import { BASELINE_MESSAGES, JUDGE_MESSAGES as J } from "./ci_messages.ts";
import type { AcceptReport, CaseResult, NotRunReason } from "./_report.ts";
import { HINT_NAMES, type ProblemKind, type ToolHints } from "./session.ts";

/** A report that cannot be judged, with the one line that says why. */
export class BadReport extends TextError {}

/** The most records one history may hold. */
export const MAX_HISTORY_RECORDS = 10_000;

/** One row whose verdict the report states otherwise than its history gives. */
export interface Changed {
  /** The write tool. */
  readonly tool: string;
  /** Its oracle entry. */
  readonly entry: number;
  /** The case. */
  readonly case: CaseName;
  /** What the report said. */
  readonly was: Verdict;
  /** What its history gives. */
  readonly now: Verdict;
}

/** A report judged again: rebuilt from its histories, and where it said otherwise. */
export interface Judged {
  /** The report, each row rebuilt from its history. */
  readonly report: AcceptReport;
  /** The oracle digest the report names, when it names one (so it can serve as a baseline). */
  readonly oracle_digest?: string;
  /** The rows whose stated verdict is not what their history gives. */
  readonly changed: readonly Changed[];
}

/**
 * Parse `text` (the contents of `file`, already bounded in size) as an
 * `accept --json` report and judge every row again from its history.
 * Throws {@linkcode BadReport}.
 */
export function judgeReport(text: string, file: string): Judged {
  const at = { file: JSON.stringify(file) };
  const { raw, server } = reportHead(text, file, BadReport);
  if (raw.results.length > MAX_BASELINE_RESULTS) {
    throw new BadReport(
      fill(BASELINE_MESSAGES.tooMany, { ...at, max: MAX_BASELINE_RESULTS }),
    );
  }
  const rows: CaseResult[] = [];
  const changed: Changed[] = [];
  raw.results.forEach((r: unknown, n: number) => {
    const row = rowOf(r, n, at.file);
    const earlier: JudgedRow[] = rows.filter((x) => x.entry === row.entry);
    const judged = judgeCase(row.case, row.history, earlier);
    rows.push(
      judgedRow({ case: row.case, tool: row.tool, entry: row.entry }, judged, {
        notices: [],
        run: row.run,
        key: row.key,
        timeline: [],
        history: row.history,
      }),
    );
    if (row.verdict !== judged.verdict) {
      changed.push({
        tool: row.tool,
        entry: row.entry,
        case: row.case,
        was: row.verdict,
        now: judged.verdict,
      });
    }
  });
  const hints: Record<string, ToolHints> = {};
  for (const row of rows) {
    for (const r of row.history.records) {
      if (r.op === "listed") hints[r.tool] = r.hints;
    }
  }
  return {
    report: {
      server: {
        name: server.name.slice(0, 80),
        version: server.version.slice(0, 40),
      },
      startup_problems: [],
      unlisted: [],
      hints,
      results: rows,
      unsafe: rows.filter((r) => r.class === "unsafe").length,
      inconclusive: rows.filter((r) => r.class === "inconclusive").length,
    },
    ...(typeof raw.oracle_digest === "string" &&
        /^sha256:[0-9a-f]{64}$/.test(raw.oracle_digest)
      ? { oracle_digest: raw.oracle_digest }
      : {}),
    changed,
  };
}

/** What a row of a report must hold to be judged again. */
interface SavedRow {
  tool: string;
  entry: number;
  case: CaseName;
  verdict: Verdict;
  run: string;
  key: string;
  history: CaseHistory;
}

/** Result `n` of a report, checked (`file` names the report in the one line of what is wrong with it). */
function rowOf(r: unknown, n: number, file: string): SavedRow {
  const bad = (why: string) => fill(J.badRow, { file, n, why });
  if (!isPlainRecord(r)) throw new BadReport(bad("not an object"));
  const text = (v: unknown, max = 1024) =>
    typeof v === "string" && v.length <= max;
  if (!text(r.tool, 128) || r.tool === "") throw new BadReport(bad("tool"));
  if (
    !Number.isInteger(r.entry) || (r.entry as number) < 1 ||
    (r.entry as number) > MAX_ORACLE_TOOLS
  ) throw new BadReport(bad("entry"));
  if (typeof r.case !== "string" || !isCaseName(r.case)) {
    throw new BadReport(bad("case"));
  }
  if (!(VERDICTS as readonly unknown[]).includes(r.verdict)) {
    throw new BadReport(bad("verdict"));
  }
  if (!text(r.run, 64)) throw new BadReport(bad("run"));
  if (!text(r.key, 4096)) throw new BadReport(bad("key"));
  if (r.history === undefined) {
    throw new BadReport(fill(J.noHistory, { file, n }));
  }
  const history = historyOf(r.history, (why) => bad(`history: ${why}`));
  return {
    tool: r.tool as string,
    entry: r.entry as number,
    case: r.case,
    verdict: r.verdict as Verdict,
    run: r.run as string,
    key: r.key as string,
    history,
  };
}

/** The names a field may take, each listed once (the type says which). */
const OUTCOMES: Record<HistoryAnswer["outcome"], true> = {
  ok: true,
  error: true,
  none: true,
  unknown: true,
  cancelled: true,
};
const PROBLEMS: Record<ProblemKind, true> = {
  "answered-twice": true,
  "unknown-id": true,
  "not-json": true,
  "too-long": true,
  "not-message": true,
  "flood": true,
};
const REASONS: Record<NotRunReason, true> = {
  "no-arguments": true,
  "not-started": true,
  "nothing-to-check": true,
  "not-listed": true,
  "no-lifetime": true,
  "key-is-argument": true,
  "read-needs-key": true,
  "not-an-error": true,
};
const KEY_PLACES = ["arguments", "_meta", "idempotencyKey", "header"];
const PROCESS_EVENTS = ["start", "start-failed", "close", "exit", "gone"];
const CANCEL_FROM = ["flag", "measured", "default"];

/** A history checked record by record; `bad` makes the line for what is wrong. */
function historyOf(h: unknown, bad: (why: string) => Text): CaseHistory {
  if (!isPlainRecord(h) || h.version !== HISTORY_VERSION) {
    throw new BadReport(
      bad(`version (this guardlab reads ${HISTORY_VERSION})`),
    );
  }
  if (h.subject !== "mcp-server" && h.subject !== "http-api") {
    throw new BadReport(bad("subject"));
  }
  if (!Array.isArray(h.records) || h.records.length > MAX_HISTORY_RECORDS) {
    throw new BadReport(bad("records"));
  }
  const records = h.records.map((r: unknown, i: number) => {
    const why = recordProblem(r);
    if (why !== null) throw new BadReport(bad(`records[${i}].${why}`));
    return recordOf(r as Record<string, unknown>);
  });
  if (records.filter((r) => r.op === "call").length > MAX_CASE_CALLS) {
    throw new BadReport(bad("records (more calls than any case makes)"));
  }
  return {
    version: HISTORY_VERSION,
    subject: h.subject,
    ...epochOf(h),
    records,
  };
}

/** The latest wall-clock start a history may state (Unix ms: the year 5138). */
const MAX_EPOCH_MS = 1e14;

/**
 * When a saved history's case began on the wall clock, `{epoch_ms}`, kept
 * as given when it is one (a trace's times, never judged on); else nothing.
 */
export function epochOf(h: Record<string, unknown>): { epoch_ms?: number } {
  return typeof h.epoch_ms === "number" && Number.isFinite(h.epoch_ms) &&
      h.epoch_ms > 0 && h.epoch_ms < MAX_EPOCH_MS
    ? { epoch_ms: h.epoch_ms }
    : {};
}

const count = (v: unknown, max = Number.MAX_SAFE_INTEGER) =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
const ms = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const optional = (v: unknown, ok: (v: unknown) => boolean) =>
  v === undefined || ok(v);
const name = (v: unknown) => typeof v === "string" && v.length <= 1024;
const processNo = (v: unknown) => optional(v, (p) => count(p, 64));
/** A setup record's captured values: at most 8 names, each a string of at most 4096 characters. */
const capturedValues = (v: unknown) =>
  isPlainRecord(v) && Object.keys(v).length <= 8 &&
  Object.values(v).every((x) => typeof x === "string" && x.length <= 4096);

/** What is wrong with one record, by its field's name, or null. */
function recordProblem(r: unknown): string | null {
  if (!isPlainRecord(r)) return "op";
  if (!ms(r.at_ms)) return "at_ms";
  switch (r.op) {
    case "call":
      if (!count(r.call, MAX_CASE_CALLS)) return "call";
      if (!name(r.tool)) return "tool";
      if (
        r.key !== null && !(typeof r.key === "string" && r.key.length <= 4096)
      ) return "key";
      if (!optional(r.retry, (v) => v === true)) return "retry";
      if (!optional(r.keyless, (v) => v === true)) return "keyless";
      if (!optional(r.meta, isPlainRecord)) return "meta";
      if (!optional(r.arguments_bytes, count)) return "arguments_bytes";
      if (!processNo(r.process)) return "process";
      return answerProblem(r.answer);
    case "read":
      if (!name(r.tool)) return "tool";
      if (!(typeof r.key === "string" && r.key.length <= 4096)) return "key";
      if (r.count !== null && !count(r.count)) return "count";
      if (!optional(r.other, (v) => v === true)) return "other";
      if (!optional(r.in_flight, (v) => v === true)) return "in_flight";
      if (!optional(r.fresh, (v) => v === true)) return "fresh";
      if (!optional(r.text, (t) => typeof t === "string" && t.length <= 4096)) {
        return "text";
      }
      return processNo(r.process) ? null : "process";
    case "setup":
      if (!name(r.tool)) return "tool";
      if (!optional(r.captured, capturedValues)) return "captured";
      if (
        !optional(r.missing, (v) => typeof v === "string" && v.length <= 64)
      ) {
        return "missing";
      }
      return answerProblem(r.answer);
    case "fault":
      if (r.fault === "withhold") {
        return count(r.call, MAX_CASE_CALLS) ? null : "call";
      }
      if (r.fault === "kill") return count(r.process, 64) ? null : "process";
      if (r.fault === "wait") return count(r.ms) ? null : "ms";
      if (r.fault !== "cancel") return "fault";
      if (!count(r.call, MAX_CASE_CALLS)) return "call";
      if (typeof r.sent !== "boolean") return "sent";
      if (!count(r.after_ms)) return "after_ms";
      if (!CANCEL_FROM.includes(r.from as string)) return "from";
      return optional(r.median_ms, ms) ? null : "median_ms";
    case "process":
      if (!PROCESS_EVENTS.includes(r.event as string)) return "event";
      return processNo(r.process) ? null : "process";
    case "problem":
      if (
        typeof r.problem !== "string" || !Object.hasOwn(PROBLEMS, r.problem)
      ) {
        return "problem";
      }
      if (!optional(r.id, Number.isInteger)) return "id";
      return processNo(r.process) ? null : "process";
    case "skip":
      return typeof r.reason === "string" && Object.hasOwn(REASONS, r.reason)
        ? null
        : "reason";
    case "contract":
      if (!optional(r.key_in, (v) => KEY_PLACES.includes(v as string))) {
        return "key_in";
      }
      if (!optional(r.lifetime_ms, count)) return "lifetime_ms";
      return optional(r.conflict, conflictOk) ? null : "conflict";
    case "listed":
      if (r.role !== "write" && r.role !== "read") return "role";
      if (!name(r.tool)) return "tool";
      return isPlainRecord(r.hints) &&
          Object.entries(r.hints).every(([k, v]) =>
            (HINT_NAMES as readonly string[]).includes(k) &&
            typeof v === "boolean"
          )
        ? null
        : "hints";
    default:
      return "op";
  }
}

/** Whether a recorded conflict mark is one guardlab writes: a status, a code, or a pointer and a scalar. */
function conflictOk(c: unknown): boolean {
  if (!isPlainRecord(c)) return false;
  const keys = Object.keys(c).sort().join(",");
  return (keys === "status" && count(c.status, 599)) ||
    (keys === "code" && Number.isInteger(c.code)) ||
    (keys === "json,value" && typeof c.json === "string" &&
      c.json.length <= 1024 && scalar(c.value));
}

const scalar = (v: unknown) =>
  v === null || typeof v === "number" || typeof v === "boolean" ||
  (typeof v === "string" && v.length <= 1024);

/** What is wrong with a call's answer, or null. */
function answerProblem(a: unknown): string | null {
  if (!isPlainRecord(a)) return "answer";
  if (typeof a.outcome !== "string" || !Object.hasOwn(OUTCOMES, a.outcome)) {
    return "answer.outcome";
  }
  if (
    a.outcome === "error" && a.error !== "tool" && a.error !== "rpc" &&
    a.error !== "http" && a.error !== "marked"
  ) {
    return "answer.error";
  }
  if (!optional(a.status, (v) => count(v, 999))) return "answer.status";
  if (!optional(a.code, Number.isInteger)) return "answer.code";
  if (
    !optional(
      a.digest,
      (v) => typeof v === "string" && /^sha256:[0-9a-f]{64}$/.test(v),
    )
  ) return "answer.digest";
  if (!optional(a.pointed, scalar)) return "answer.pointed";
  if (!optional(a.text, (t) => typeof t === "string" && t.length <= 4096)) {
    return "answer.text";
  }
  if (!optional(a.refused, (v) => v === "too-deep")) return "answer.refused";
  return optional(a.at_ms, ms) && optional(a.ms, ms) ? null : "answer.at_ms";
}

/** The fields each kind of record keeps (an answer and hints are rebuilt apart). */
const FIELDS: Readonly<Record<HistoryRecord["op"], readonly string[]>> = {
  call: [
    "call",
    "tool",
    "arguments",
    "arguments_bytes",
    "key",
    "retry",
    "keyless",
    "meta",
    "process",
  ],
  read: [
    "tool",
    "key",
    "count",
    "other",
    "in_flight",
    "fresh",
    "text",
    "process",
  ],
  setup: ["tool", "captured", "missing"],
  fault: [
    "fault",
    "call",
    "sent",
    "after_ms",
    "from",
    "median_ms",
    "process",
    "ms",
  ],
  contract: ["key_in", "conflict", "lifetime_ms"],
  process: ["event", "process"],
  problem: ["problem", "id", "process"],
  skip: ["reason"],
  listed: ["role", "tool"],
};

/**
 * A checked record, rebuilt field by field: nothing the report adds is
 * kept, and an answer's text is made inert again (a report may have been
 * edited by hand).
 */
function recordOf(r: Record<string, unknown>): HistoryRecord {
  const op = r.op as HistoryRecord["op"];
  const kept: Record<string, unknown> = { op, at_ms: r.at_ms };
  for (const k of FIELDS[op]) if (r[k] !== undefined) kept[k] = r[k];
  if (isPlainRecord(r.answer)) kept.answer = answerOf(r.answer);
  if (isPlainRecord(r.hints)) kept.hints = { ...r.hints };
  // A read's words, as an answer's: inert again.
  if (typeof kept.text === "string") kept.text = inert(kept.text);
  return kept as unknown as HistoryRecord;
}

/** A checked answer, rebuilt: its text inert (and bounded by the check). */
function answerOf(a: Record<string, unknown>): HistoryAnswer {
  return {
    outcome: a.outcome as HistoryAnswer["outcome"],
    ...(a.error === undefined
      ? {}
      : { error: a.error as "tool" | "rpc" | "http" | "marked" }),
    ...(a.status === undefined ? {} : { status: a.status as number }),
    ...(a.code === undefined ? {} : { code: a.code as number }),
    ...(a.digest === undefined ? {} : { digest: a.digest as string }),
    ...(a.pointed === undefined
      ? {}
      : { pointed: a.pointed as string | number | boolean | null }),
    ...(a.text === undefined ? {} : { text: inert(a.text as string) }),
    ...(a.refused === undefined ? {} : { refused: "too-deep" as const }),
    ...(a.at_ms === undefined ? {} : { at_ms: a.at_ms as number }),
    ...(a.ms === undefined ? {} : { ms: a.ms as number }),
  };
}
