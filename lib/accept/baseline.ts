/**
 * A baseline: a previous `accept --json` report whose failing verdicts a
 * team has accepted for now. A verdict fails a run when its class (in
 * `cases.ts`, the one place) is `unsafe` or `inconclusive`; a failing
 * verdict the baseline holds for the same write tool and case (the same
 * oracle entry) is excused, and no longer fails the run. Everything else
 * fails as it would without a baseline.
 *
 * What identifies the run a baseline belongs to: the server's name, as it
 * said at `initialize` (its version may change from release to release:
 * a known fault stays known until it is fixed), and the oracle's digest
 * (SHA-256 of its canonical JSON, guesses' notes left out): another oracle
 * calls and counts otherwise, so its verdicts excuse nothing here.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { fill, type Text } from "../base/i18n.ts";
import { canonicalJson, deeperThan, isPlainRecord } from "../base/json.ts";
import { TextError } from "../base/text_error.ts";
import {
  CASE_NAMES,
  type CaseName,
  isCaseName,
  type Verdict,
  VERDICT_CLASS,
  VERDICTS,
} from "./cases.ts";
import { BASELINE_MESSAGES as B } from "./ci_messages.ts";
import { MAX_ORACLE_TOOLS, MAX_REPORT_DEPTH } from "./limits.ts";
import type { Oracle } from "./oracle.ts";
import type { AcceptReport, CaseResult } from "./run.ts";

/** A baseline that cannot be used, with the one line that says why. */
export class BadBaseline extends TextError {}

/** Whether `verdict` fails a run: its class is unsafe (exit 5) or inconclusive (exit 6). */
export function isFailing(verdict: Verdict): boolean {
  const c = VERDICT_CLASS[verdict];
  return c === "unsafe" || c === "inconclusive";
}

/** One verdict of a baseline: which oracle entry and case, and what it was. */
export interface BaselineRow {
  /** The write tool. */
  readonly tool: string;
  /** Its entry in the oracle, from 1. */
  readonly entry: number;
  /** The case. */
  readonly case: CaseName;
  /** The verdict then. */
  readonly verdict: Verdict;
}

/** A baseline as guardlab uses it. */
export interface Baseline {
  /** The server it was made on. */
  readonly server: { readonly name: string; readonly version: string };
  /** The digest of the oracle it was made with. */
  readonly oracle_digest: string;
  /** Its verdicts. */
  readonly rows: readonly BaselineRow[];
}

/** The most results a baseline may hold: every case of every entry of the largest oracle. */
export const MAX_BASELINE_RESULTS = MAX_ORACLE_TOOLS * CASE_NAMES.length;

/**
 * The oracle's digest, `sha256:` and hex: SHA-256 of its canonical JSON,
 * the guesses' notes left out (they change nothing `accept` does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oracleDigest } from "./baseline.ts";
 * import { EXAMPLE_ORACLE } from "./example_oracle.ts";
 * assert.match(oracleDigest(EXAMPLE_ORACLE), /^sha256:[0-9a-f]{64}$/);
 * ```
 */
export function oracleDigest(oracle: Oracle): string {
  const tools = oracle.tools.map(({ guesses: _, ...rest }) => rest);
  return "sha256:" +
    createHash("sha256").update(canonicalJson({ tools })).digest("hex");
}

/**
 * The part every `accept --json` report has, read from `text` (the contents
 * of `file`, already bounded in size): its depth measured before it is
 * parsed, then an object with a server (name and version) and results.
 * What is not is refused with `Bad` (a baseline's or a judge's refusal),
 * in one line.
 */
export function reportHead(
  text: string,
  file: string,
  Bad: new (text: Text) => TextError,
): {
  raw: Record<string, unknown> & { results: unknown[] };
  server: { name: string; version: string };
} {
  const at = { file: JSON.stringify(file) };
  if (deeperThan(text, MAX_REPORT_DEPTH)) {
    throw new Bad(fill(B.tooDeep, { ...at, max: MAX_REPORT_DEPTH }));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Bad(fill(B.notJson, at));
  }
  const server = isPlainRecord(raw) ? raw.server : undefined;
  if (
    !isPlainRecord(raw) || !Array.isArray(raw.results) ||
    !isPlainRecord(server) || typeof server.name !== "string" ||
    typeof server.version !== "string"
  ) {
    throw new Bad(fill(B.notJson, at));
  }
  return {
    raw: raw as Record<string, unknown> & { results: unknown[] },
    server: { name: server.name, version: server.version },
  };
}

/**
 * The baseline in `text` (the contents of `file`, already bounded in size),
 * every verdict and case checked against this guardlab's names. Throws
 * {@linkcode BadBaseline}.
 */
export function parseBaseline(text: string, file: string): Baseline {
  const at = { file: JSON.stringify(file) };
  const { raw, server } = reportHead(text, file, BadBaseline);
  if (
    typeof raw.oracle_digest !== "string" ||
    !/^sha256:[0-9a-f]{64}$/.test(raw.oracle_digest)
  ) {
    throw new BadBaseline(fill(B.noDigest, at));
  }
  if (raw.results.length > MAX_BASELINE_RESULTS) {
    throw new BadBaseline(
      fill(B.tooMany, { ...at, max: MAX_BASELINE_RESULTS }),
    );
  }
  const rows: BaselineRow[] = [];
  const seen = new Set<string>();
  raw.results.forEach((r: unknown, n: number) => {
    const why = rowProblem(r);
    if (why !== null) {
      throw new BadBaseline(fill(B.badEntry, { ...at, n, why }));
    }
    const row = r as unknown as BaselineRow;
    const id = idOf(row);
    if (seen.has(id)) {
      throw new BadBaseline(fill(B.badEntry, { ...at, n, why: "repeated" }));
    }
    seen.add(id);
    rows.push({
      tool: row.tool,
      entry: row.entry,
      case: row.case,
      verdict: row.verdict,
    });
  });
  return {
    server: {
      name: server.name.slice(0, 80),
      version: server.version.slice(0, 40),
    },
    oracle_digest: raw.oracle_digest,
    rows,
  };
}

/** What is wrong with one result of a baseline, in `--json`'s field names, or null. */
function rowProblem(r: unknown): string | null {
  if (!isPlainRecord(r)) return "not an object";
  if (typeof r.tool !== "string" || r.tool === "" || r.tool.length > 128) {
    return "tool";
  }
  if (
    !Number.isInteger(r.entry) || (r.entry as number) < 1 ||
    (r.entry as number) > MAX_ORACLE_TOOLS
  ) return "entry";
  if (typeof r.case !== "string" || !isCaseName(r.case)) return "case";
  if (
    typeof r.verdict !== "string" ||
    !(VERDICTS as readonly string[]).includes(r.verdict)
  ) return "verdict";
  return null;
}

/** The identity of a row: its oracle entry and case (the entry names the tool). */
function idOf(r: { entry: number; case: string }): string {
  return `${r.entry}/${r.case}`;
}

/** Refuse a baseline made with another oracle (by digest), in one line: checked before the server starts. */
export function assertSameOracle(
  baseline: Baseline,
  digest: string,
  file: string,
): void {
  if (baseline.oracle_digest !== digest) {
    throw new BadBaseline(
      fill(B.otherOracle, {
        file: JSON.stringify(file),
        was: baseline.oracle_digest.slice(0, 19),
        now: digest.slice(0, 19),
      }),
    );
  }
}

/** Refuse a baseline made on another server (by the name it gave at initialize), in one line. */
export function assertSameServer(
  baseline: Baseline,
  report: AcceptReport,
  file: string,
): void {
  if (baseline.server.name !== report.server.name) {
    throw new BadBaseline(
      fill(B.otherServer, {
        file: JSON.stringify(file),
        was: JSON.stringify(baseline.server.name),
        now: JSON.stringify(report.server.name),
      }),
    );
  }
}

/**
 * What a row is against the baseline, the one definition of each:
 * - `excused`: failing, and the baseline holds this very verdict;
 * - `fixed`: failing in the baseline, not failing now;
 * - `worse`: failing in the baseline, and now another failing verdict
 *   (the baseline excuses the verdict it holds, not the case);
 * - `new`: failing now, and not failing in the baseline (or not in it);
 * - `null`: failing neither then nor now.
 */
export type BaselineStatus = "excused" | "fixed" | "worse" | "new";

/** The status of verdict `now` against `before` (the baseline's, if it has one). */
export function statusOf(
  now: Verdict,
  before: Verdict | undefined,
): BaselineStatus | null {
  const was = before !== undefined && isFailing(before);
  if (!isFailing(now)) return was ? "fixed" : null;
  if (!was) return "new";
  return now === before ? "excused" : "worse";
}

/** One row of this run against the baseline. */
export interface Compared {
  /** The row of this run. */
  readonly row: CaseResult;
  /** Its status. */
  readonly status: BaselineStatus;
  /** The baseline's verdict, when it held one. */
  readonly before?: Verdict;
}

/** This run against a baseline. */
export interface Comparison {
  /** The baseline's server, as it was then. */
  readonly server: Baseline["server"];
  /** Every row with a status, in the run's order. */
  readonly rows: readonly Compared[];
  /** Unsafe rows the baseline did not excuse. */
  readonly unsafe: number;
  /** Inconclusive rows the baseline did not excuse. */
  readonly inconclusive: number;
}

/** Compare `report` with `baseline` (already checked to be of the same run). */
export function compareWithBaseline(
  report: AcceptReport,
  baseline: Baseline,
): Comparison {
  const before = new Map(baseline.rows.map((r) => [idOf(r), r.verdict]));
  const rows: Compared[] = [];
  for (const row of report.results) {
    const was = before.get(idOf(row));
    const status = statusOf(row.verdict, was);
    if (status !== null) {
      rows.push({ row, status, ...(was === undefined ? {} : { before: was }) });
    }
  }
  const counted = (c: string) =>
    rows.filter((r) =>
      r.status !== "excused" && VERDICT_CLASS[r.row.verdict] === c
    ).length;
  return {
    server: baseline.server,
    rows,
    unsafe: counted("unsafe"),
    inconclusive: counted("inconclusive"),
  };
}
