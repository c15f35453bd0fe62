/**
 * The rules that turn what a case counted and what the client was told
 * into a verdict, each in one place and free of any server: a verdict is
 * never more confident than what guardlab saw.
 *
 * @module
 */
import type { Verdict } from "./cases.ts";
import { DEFAULT_CANCEL_AFTER_MS } from "./limits.ts";
import type { CancelPlan } from "./_report.ts";
import type { Answer, Outcome } from "./session.ts";

/** The verdict for "the call should have had exactly one effect". */
export function onceVerdict(n: number | null, last: Answer): Verdict {
  if (n === null || n === 0) return "NONE";
  if (n >= 2) return "DUPLICATED";
  return last.outcome === "success" ? "ONCE" : "FALSE-FAILURE";
}

/**
 * The verdict for N calls with distinct keys, each answered and counted:
 * a key counted twice is a duplicate; a success with no effect, a lost
 * update; an error with an effect, a false failure; an error with no
 * effect, an honest refusal.
 */
export function keptVerdict(
  per: readonly { outcome: Outcome; n: number | null }[],
): Verdict {
  if (per.some((p) => p.n !== null && p.n > 1)) return "DUPLICATED";
  if (per.some((p) => p.outcome === "success" && p.n === 0)) return "LOST";
  if (per.some((p) => p.outcome !== "success" && (p.n ?? 0) > 0)) {
    return "FALSE-FAILURE";
  }
  return per.every((p) => p.outcome === "success")
    ? "ALL-KEPT"
    : "SOME-REFUSED";
}

/** How many answers said error while their effect exists. */
export function toldFailed(
  per: readonly { outcome: Outcome; n: number | null }[],
): number {
  return per.filter((p) =>
    (p.outcome === "tool-error" || p.outcome === "rpc-error") && (p.n ?? 0) > 0
  ).length;
}

/** Where cancel-after-send places its cancel: the flag; else half the median measured; else the default. */
export function cancelPlan(
  flag: number | undefined,
  measured: readonly number[],
): Omit<CancelPlan, "sent"> {
  if (flag !== undefined) return { after_ms: flag, from: "flag" };
  if (measured.length === 0) {
    return { after_ms: DEFAULT_CANCEL_AFTER_MS, from: "default" };
  }
  const sorted = [...measured].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1
    ? sorted[mid]
    : (sorted[mid - 1] + sorted[mid]) / 2;
  return {
    after_ms: Math.floor(median / 2),
    from: "measured",
    median_ms: Math.round(median * 10) / 10,
  };
}

/** same-key-other-arguments: `old` of the first arguments' effect left, `other` of the other's, after the `second` call. */
export function otherVerdict(
  old: number,
  other: number,
  second: Answer,
): Verdict {
  if (old > 1 || other > 1 || (old >= 1 && other >= 1)) return "DUPLICATED";
  if (other === 1) {
    // The old effect is gone and the other took its place.
    return second.outcome === "success" ? "OVERWRITTEN" : "FALSE-FAILURE";
  }
  if (old === 0) return "NONE";
  return second.outcome === "success" ? "SILENT-CONFLICT" : "CONFLICT-REPORTED";
}
