/**
 * `accept judge` of a saved `accept host --json` report: every row judged
 * again from its history alone, offline. The report is input like any
 * other: its depth is measured before it is parsed, every record of every
 * history is checked field by field and rebuilt (a text made inert again),
 * and a report that is not one is refused in one line. The rows are
 * rebuilt by the checker; a verdict the report states that its history
 * does not give is named.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { deeperThan, isPlainRecord } from "../base/json.ts";
import { inert } from "../base/terminal.ts";
import { BASELINE_MESSAGES as B, JUDGE_MESSAGES as J } from "./ci_messages.ts";
import {
  HOST_VARIANTS,
  isHostCaseName,
  type Verdict,
  VERDICT_CLASS,
  VERDICTS,
} from "./cases.ts";
import { HISTORY_VERSION } from "./_history.ts";
import type { HostHistory, HostRecord } from "./_host_history.ts";
import { judgeHostCase } from "./_host_checker.ts";
import type { HostCaseResult, HostReport } from "./host_report.ts";
import { BadReport, epochOf } from "./judge.ts";
import { MAX_HOST_RECORDS, MAX_REPORT_DEPTH, MAX_TOLD_TEXT } from "./limits.ts";
import { MAX_BASELINE_RESULTS } from "./baseline.ts";

/** One row whose stated verdict its history does not give. */
export interface HostChanged {
  /** The case and the variant, `case/variant`. */
  readonly row: string;
  /** What the report said. */
  readonly was: Verdict;
  /** What its history gives. */
  readonly now: Verdict;
}

/** Whether `text` (already bounded in size) is an `accept host` report: its `kind` says so. */
export function isHostReport(text: string): boolean {
  if (deeperThan(text, MAX_REPORT_DEPTH)) return false;
  try {
    const raw = JSON.parse(text);
    return isPlainRecord(raw) && raw.kind === "accept-host";
  } catch {
    return false;
  }
}

/**
 * Parse `text` (the contents of `file`, bounded in size) as an `accept
 * host --json` report and judge every row again. Throws
 * {@linkcode BadReport}.
 */
export function judgeHostReport(
  text: string,
  file: string,
): { report: HostReport; changed: HostChanged[] } {
  const at = { file: JSON.stringify(file) };
  if (deeperThan(text, MAX_REPORT_DEPTH)) {
    throw new BadReport(fill(B.tooDeep, { ...at, max: MAX_REPORT_DEPTH }));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BadReport(fill(B.notJson, at));
  }
  if (
    !isPlainRecord(raw) || raw.kind !== "accept-host" ||
    !Array.isArray(raw.results) || !isPlainRecord(raw.host) ||
    typeof raw.host.program !== "string" ||
    (raw.transport !== "stdio" && raw.transport !== "http") ||
    !Number.isSafeInteger(raw.case_ms)
  ) throw new BadReport(fill(B.notJson, at));
  if (raw.results.length > MAX_BASELINE_RESULTS) {
    throw new BadReport(
      fill(B.tooMany, { ...at, max: MAX_BASELINE_RESULTS }),
    );
  }
  const changed: HostChanged[] = [];
  const results = raw.results.map((r: unknown, n: number) => {
    const bad = (why: string) => fill(J.badRow, { file: at.file, n, why });
    const row = rowOf(r, bad, fill(J.noHistory, { file: at.file, n }));
    const judged = judgeHostCase(row.history);
    if (judged.verdict !== row.verdict) {
      changed.push({
        row: `${row.case}/${row.variant}`,
        was: row.verdict,
        now: judged.verdict,
      });
    }
    return { ...row, ...judged, verdict: judged.verdict };
  });
  return {
    report: {
      kind: "accept-host",
      host: { program: inert(raw.host.program.slice(0, 200)) },
      transport: raw.transport,
      ...(raw.in_process === true ? { in_process: true as const } : {}),
      case_ms: raw.case_ms as number,
      results,
      unsafe: results.filter((r) => VERDICT_CLASS[r.verdict] === "unsafe")
        .length,
      inconclusive:
        results.filter((r) => VERDICT_CLASS[r.verdict] === "inconclusive")
          .length,
    },
    changed,
  };
}

const text = (v: unknown, max: number) =>
  typeof v === "string" && v.length <= max;
const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const ms = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const optional = (v: unknown, ok: (v: unknown) => boolean) =>
  v === undefined || ok(v);
const oneOf = (v: unknown, names: readonly string[]) =>
  typeof v === "string" && names.includes(v);
const id = (v: unknown) => text(v, 64) || ms(v);

/** Row `r` of a report, checked; its history rebuilt. */
function rowOf(
  r: unknown,
  bad: (why: string) => Text,
  noHistory: Text,
): Omit<HostCaseResult, "class" | "info"> & { verdict: Verdict } {
  if (!isPlainRecord(r)) throw new BadReport(bad("not an object"));
  if (typeof r.case !== "string" || !isHostCaseName(r.case)) {
    throw new BadReport(bad("case"));
  }
  if (!oneOf(r.variant, HOST_VARIANTS)) throw new BadReport(bad("variant"));
  if (!oneOf(r.verdict, VERDICTS)) throw new BadReport(bad("verdict"));
  if (!text(r.key, 256) || !text(r.new_key, 256)) {
    throw new BadReport(bad("key"));
  }
  if (r.history === undefined) {
    throw new BadReport(noHistory);
  }
  const history = historyOf(r.history, (why) => bad(`history: ${why}`));
  const judged = judgeHostCase(history);
  const strings = (v: unknown) =>
    Array.isArray(v) && v.length <= 64 && v.every((s) => text(s, 400))
      ? (v as string[]).map((s) => inert(s))
      : [];
  return {
    ...judged,
    case: r.case,
    variant: r.variant as HostCaseResult["variant"],
    transport: history.records[0].op === "plan"
      ? history.records[0].transport
      : "stdio",
    verdict: r.verdict as Verdict,
    clients: strings(r.clients),
    key: r.key as string,
    new_key: r.new_key as string,
    ms: ms(r.ms) ? r.ms as number : 0,
    host_output: strings(r.host_output),
    history,
  };
}

/** The fields each kind of record keeps, with the check of each (an absent optional field passes). */
const FIELDS: Readonly<
  Record<HostRecord["op"], Record<string, (v: unknown) => boolean>>
> = {
  plan: {
    case: (v) => typeof v === "string" && isHostCaseName(v),
    variant: (v) => oneOf(v, HOST_VARIANTS),
    transport: (v) => oneOf(v, ["stdio", "http"]),
    tool: (v) => text(v, 128),
    hints: (v) =>
      isPlainRecord(v) &&
      Object.values(v).every((x) => typeof x === "boolean"),
    key: (v) => text(v, 256),
    new_key: (v) => text(v, 256),
  },
  call: {
    call: count,
    conn: count,
    id,
    key: (v) => v === null || text(v, 256),
    arguments: (v) => optional(v, () => true),
    arguments_bytes: (v) => optional(v, count),
    effect: (v) => oneOf(v, ["written", "reused", "refused"]),
    reply: (v) =>
      oneOf(v, [
        "ok",
        "error",
        "none",
        "late",
        "killed",
        "http-503",
        "reset",
        "expired",
      ]),
  },
  model: {
    request: count,
    stream: (v) => optional(v, (x) => x === true),
    offered: (v) => typeof v === "boolean",
    offered_as: (v) => optional(v, (x) => text(x, 128)),
    results: (v) =>
      Array.isArray(v) && v.length <= 64 &&
      v.every((x) =>
        isPlainRecord(x) && (x.call === 1 || x.call === 2 || x.call === null) &&
        text(x.text, MAX_TOLD_TEXT)
      ),
    reply: (v) => oneOf(v, ["call-1", "call-2", "done", "refused"]),
  },
  cancel: {
    conn: count,
    id: (v) => v === null || id(v),
    call: (v) => v === null || count(v),
    reason: (v) => optional(v, (x) => text(x, 200)),
  },
  fault: {
    fault: (v) =>
      oneOf(v, [
        "withhold",
        "error",
        "kill",
        "http-503",
        "reset",
        "expire",
        "release",
      ]),
    call: count,
    after: (v) =>
      optional(v, (x) => oneOf(x, ["cancel", "told", "resend", "closed"])),
  },
  process: {
    who: (v) => oneOf(v, ["host", "tool"]),
    event: (v) =>
      oneOf(v, [
        "start",
        "start-failed",
        "initialized",
        "exit",
        "limit",
        "closed",
        "killed",
        "expired",
      ]),
    conn: (v) => optional(v, count),
    code: (v) => optional(v, (x) => x === null || Number.isSafeInteger(x)),
    client: (v) => optional(v, (x) => text(x, 80)),
  },
  read: {
    key: (v) => text(v, 256),
    count: (v) => v === null || count(v),
  },
  listed: { conn: count },
  problem: {
    where: (v) => oneOf(v, ["model", "tool"]),
    problem: (v) =>
      oneOf(v, [
        "not-json",
        "too-long",
        "too-deep",
        "not-message",
        "unauthorized",
      ]),
  },
};

/** A host history checked record by record and rebuilt; `bad` makes the line for what is wrong. */
function historyOf(h: unknown, bad: (why: string) => Text): HostHistory {
  if (!isPlainRecord(h) || h.version !== HISTORY_VERSION) {
    throw new BadReport(
      bad(`version (this guardlab reads ${HISTORY_VERSION})`),
    );
  }
  if (h.subject !== "agent-host") throw new BadReport(bad("subject"));
  if (!Array.isArray(h.records) || h.records.length > MAX_HOST_RECORDS + 8) {
    throw new BadReport(bad("records"));
  }
  const records = h.records.map((r: unknown, i: number) => {
    if (!isPlainRecord(r) || !Object.hasOwn(FIELDS, r.op as string)) {
      throw new BadReport(bad(`records[${i}].op`));
    }
    if (!ms(r.at_ms)) throw new BadReport(bad(`records[${i}].at_ms`));
    const fields = FIELDS[r.op as HostRecord["op"]];
    const kept: Record<string, unknown> = { op: r.op, at_ms: r.at_ms };
    for (const [k, ok] of Object.entries(fields)) {
      if (!ok(r[k])) throw new BadReport(bad(`records[${i}].${k}`));
      if (r[k] !== undefined) kept[k] = inertAll(r[k]);
    }
    return kept as unknown as HostRecord;
  });
  if (records[0]?.op !== "plan") throw new BadReport(bad("records[0].op"));
  return {
    version: HISTORY_VERSION,
    subject: "agent-host",
    ...epochOf(h),
    records,
    ...(count(h.dropped) ? { dropped: h.dropped as number } : {}),
  };
}

/** A value with every string in it made inert (a report may have been edited by hand). */
function inertAll(v: unknown): unknown {
  if (typeof v === "string") return inert(v);
  if (Array.isArray(v)) return v.map(inertAll);
  if (isPlainRecord(v)) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, inertAll(x)]),
    );
  }
  return v;
}
