/**
 * A tool's declared hints (MCP's `annotations` in tools/list), checked
 * against what the cases of this run saw it do. A host may retry a call
 * because the tool says it is idempotent, or skip a confirmation because
 * it says it is read-only: a hint the behaviour contradicts is a fault.
 * Only a declared `true` (or, for `destructiveHint`, a declared `false`)
 * promises anything; an absent hint promises nothing.
 *
 * @module
 */
import { BROKEN_VERDICTS, type CaseName, type Verdict } from "./cases.ts";
import type { ToolHints } from "./session.ts";

/** One declared hint a verdict of this run contradicts. */
export interface Contradiction {
  /** The hint, by its name in `annotations`. */
  readonly hint: keyof ToolHints;
  /** What the tool declared. */
  readonly declared: boolean;
  /** The case whose verdict contradicts it. */
  readonly case: CaseName;
  /** That verdict. */
  readonly verdict: Verdict;
  /** The effect that case counted. */
  readonly effect: number | null;
}

/** The cases that call the tool again with the same arguments: what `idempotentHint: true` promises about. */
export const REPEAT_CASES: readonly CaseName[] = [
  "lost-reply-retry",
  "cancel-after-send",
  "concurrent-same",
  "crash-after-commit",
];

/** What a repeat may not do under `idempotentHint: true`: write again, or answer an error for an effect it has. */
const NOT_IDEMPOTENT: readonly Verdict[] = ["DUPLICATED", "FALSE-FAILURE"];

/** Whether `hints` promise anything a case can check: idempotentHint or readOnlyHint true, destructiveHint false. */
export function promises(hints: ToolHints): boolean {
  return hints.idempotentHint === true || hints.readOnlyHint === true ||
    hints.destructiveHint === false;
}

/** The part of a matrix row the check reads. */
export interface JudgedRow {
  /** The case. */
  readonly case: CaseName;
  /** Its verdict. */
  readonly verdict: Verdict;
  /** The effect it counted. */
  readonly effect: number | null;
}

/** Whether a row's verdict says something about the effect (not a broken server, not a case that tested nothing). */
function judged(row: JudgedRow): boolean {
  return row.verdict !== "NOT-RUN" && !BROKEN_VERDICTS.includes(row.verdict);
}

/**
 * Each declared hint the rows contradict, and whether any declared hint
 * could be checked at all by the rows that ran:
 * - `idempotentHint: true`: a repeat (a retry, a copy) that duplicated, or
 *   that answered an error for an effect that exists;
 * - `readOnlyHint: true`: any effect counted;
 * - `destructiveHint: false`: other arguments that replaced the effect
 *   (OVERWRITTEN: the old effect is gone).
 */
export function contradictions(
  hints: ToolHints,
  rows: readonly JudgedRow[],
): { found: Contradiction[]; checked: boolean } {
  const found: Contradiction[] = [];
  let checked = false;
  const seen = rows.filter(judged);
  const against = (hint: keyof ToolHints, row: JudgedRow) =>
    found.push({
      hint,
      declared: hints[hint]!,
      case: row.case,
      verdict: row.verdict,
      effect: row.effect,
    });
  if (hints.idempotentHint === true) {
    for (const row of seen.filter((r) => REPEAT_CASES.includes(r.case))) {
      checked = true;
      if (NOT_IDEMPOTENT.includes(row.verdict)) against("idempotentHint", row);
    }
  }
  if (hints.readOnlyHint === true) {
    for (const row of seen.filter((r) => r.effect !== null)) {
      checked = true;
      if (row.effect! > 0) against("readOnlyHint", row);
    }
  }
  if (hints.destructiveHint === false) {
    for (
      const row of seen.filter((r) => r.case === "same-key-other-arguments")
    ) {
      checked = true;
      if (row.verdict === "OVERWRITTEN") against("destructiveHint", row);
    }
  }
  return { found, checked };
}
