/**
 * The checker of `accept host`: every verdict about an agent host, judged
 * from one case's history alone (`_host_history.ts`). Nothing here talks
 * to the host, the model or the tool: the code that plays them only
 * records, so a saved report is judged again offline (`accept judge`),
 * and every verdict is reached from a history written by hand
 * (`tests/accept/host_checker_test.ts`).
 *
 * What it reads: the calls that reached the tool under the model's first
 * key (one the model asked for; any more the host sent by itself), the
 * cancels before guardlab's limit, the first tool result the host handed the model for that call
 * and what it said, and the ledger counted by key at the end.
 *
 * @module
 */
import { canonicalJson } from "../base/json.ts";
import { type Verdict, VERDICT_CLASS, type VerdictClass } from "./cases.ts";
import {
  type HostCallRecord,
  type HostHistory,
  type HostRecord,
  type ModelResult,
  type PlanRecord,
  successMark,
  TOOL_ERROR_TEXT,
  UNKNOWN_PHRASES,
} from "./_host_history.ts";

/**
 * What the host told the model of its first call: the tool's `success`;
 * that the outcome is `unknown`; the tool's own error (`tool-error`, as
 * the tool answered it); anything else, read as `failure` (as a naive
 * model reads it); or `nothing`: no tool result for the call reached the
 * model.
 */
export type Told = "success" | "unknown" | "tool-error" | "failure" | "nothing";

/** How the host's process ended: it exited (`code`), or guardlab ended it at the case's limit. */
export type HostEnd = "exit" | "limit" | "running";

/** What the checker says of one case: the verdict, and the facts it rests on (the row's fields). */
export interface HostJudgement {
  /** The verdict. */
  readonly verdict: Verdict;
  /** Its class. */
  readonly class: VerdictClass;
  /** Verdicts reported beside it, as information. */
  readonly info: readonly Verdict[];
  /** Whether the model's first call reached the tool. */
  readonly reached: boolean;
  /** How many times the host sent that call again by itself. */
  readonly resent: number;
  /** Whether every such resend carried the first call's arguments (null: none was sent). */
  readonly resent_same_arguments: boolean | null;
  /** Whether the host sent `notifications/cancelled` for the first call. */
  readonly cancelled: boolean;
  /** What the host told the model of the first call. */
  readonly told: Told;
  /** The tool result it handed the model, as the model received it (cut, inert). */
  readonly told_text?: string;
  /** Whether the model's call under the new key reached the tool. */
  readonly new_key_called: boolean;
  /** The effects under both keys at the end: the same request's effects (null: not counted). */
  readonly effects: number | null;
  /** The effects under the first key. */
  readonly effects_key: number | null;
  /** The effects under the new key. */
  readonly effects_new_key: number | null;
  /** How the host's process ended. */
  readonly host_end: HostEnd;
  /** Its exit code, when it exited (null: a signal ended it). */
  readonly host_code?: number | null;
}

/**
 * What a tool result that answers a call under `key` says, as guardlab
 * reads it: the tool's success text for that key; the tool's own error
 * text; one of {@linkcode UNKNOWN_PHRASES}; anything else: a failure.
 */
export function toldOf(text: string, key: string): Exclude<Told, "nothing"> {
  if (text.includes(successMark(key))) return "success";
  if (text.includes(TOOL_ERROR_TEXT)) return "tool-error";
  const lower = text.toLowerCase();
  if (UNKNOWN_PHRASES.some((p) => lower.includes(p))) return "unknown";
  return "failure";
}

/** The case's plan: the first record of every history (`accept judge` refuses one without it). */
export function planOf(history: HostHistory): PlanRecord {
  const plan = history.records[0];
  if (plan?.op !== "plan") {
    throw new TypeError("a host history opens with its plan");
  }
  return plan;
}

/**
 * Judge one case of `accept host` from its history. Pure: the same
 * history gives the same judgement. The order matters: a second effect
 * under one key is a duplicate however it came (the host sent the call
 * again, or asked the model again); a resend that found the key's effect
 * reused it; otherwise what the host told the model decides, and with
 * nothing told, whether the host gave up (it ended the run) or was still
 * waiting at the case's limit.
 */
export function judgeHostCase(history: HostHistory): HostJudgement {
  const plan = planOf(history);
  const r = new HostReading(history.records);
  const calls = r.callsUnder(plan.key);
  const asked =
    r.records.filter((x) => x.op === "model" && x.reply === "call-1")
      .length;
  const resends = calls.slice(Math.max(1, asked));
  const same = resends.length === 0
    ? null
    : resends.every((c) =>
      c.arguments !== undefined && calls[0].arguments !== undefined &&
      canonicalJson(c.arguments) === canonicalJson(calls[0].arguments)
    );
  const result = r.firstResult(1);
  const told: Told = result === undefined
    ? "nothing"
    : toldOf(result.text, plan.key);
  const key = r.count(plan.key);
  const newKey = r.count(plan.new_key);
  const end = r.hostEnd();
  const facts = {
    reached: calls.some((c) => c.effect !== "refused"),
    resent: resends.length,
    resent_same_arguments: same,
    cancelled: calls.length > 0 && r.cancelled(calls[0]),
    told,
    ...(result === undefined ? {} : { told_text: result.text }),
    new_key_called: r.callsUnder(plan.new_key).length > 0,
    effects: key === null || newKey === null ? null : key + newKey,
    effects_key: key,
    effects_new_key: newKey,
    host_end: end.end,
    ...(end.code === undefined ? {} : { host_code: end.code }),
  };
  const verdict = hostVerdict(facts);
  const judged = !["HOST-NOT-REACHED", "READ-FAILED"].includes(verdict);
  const info: Verdict[] = [];
  if (judged && facts.cancelled) info.push("CANCELLED-AFTER-COMMIT");
  if (judged && (newKey ?? 0) > 0 && (key ?? 0) > 0) {
    info.push("NEW-KEY-DOUBLED");
  }
  return { verdict, class: VERDICT_CLASS[verdict], info, ...facts };
}

/** The verdict the facts give, in the order {@linkcode judgeHostCase} says. */
function hostVerdict(f: {
  reached: boolean;
  resent: number;
  resent_same_arguments: boolean | null;
  told: Told;
  effects_key: number | null;
  effects_new_key: number | null;
  host_end: HostEnd;
}): Verdict {
  if (!f.reached) return "HOST-NOT-REACHED";
  if (f.effects_key === null || f.effects_new_key === null) {
    return "READ-FAILED";
  }
  if (f.effects_key >= 2) return "RESENT-DUPLICATED";
  if (f.resent > 0 && f.resent_same_arguments === true) return "RESENT-REUSED";
  switch (f.told) {
    case "success":
      return "TOLD-SUCCESS";
    case "unknown":
      return "TOLD-UNKNOWN";
    case "tool-error":
      return "PASSED-ON-ERROR";
    case "failure":
      return "TOLD-FAILED";
    default:
      return f.host_end === "exit" ? "RUN-ABORTED" : "STILL-WAITING";
  }
}

/** The questions the checker asks of a host history. */
class HostReading {
  constructor(readonly records: readonly HostRecord[]) {}

  /** The calls under `key`, in the order they reached the tool. */
  callsUnder(key: string): HostCallRecord[] {
    return this.records.filter((r): r is HostCallRecord =>
      r.op === "call" && r.key === key
    );
  }

  /** The first tool result a model request carried for the model's call `n`. */
  firstResult(n: 1 | 2): ModelResult | undefined {
    for (const r of this.records) {
      if (r.op !== "model") continue;
      const found = r.results.find((x) => x.call === n);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The ledger's count under `key` (its last read), or null when it was not counted. */
  count(key: string): number | null {
    const read = this.records.findLast((r) => r.op === "read" && r.key === key);
    return read?.op === "read" ? read.count : null;
  }

  /**
   * Whether the host cancelled `call` (a cancel names its connection and
   * id) before guardlab's limit: a cancel after it answers guardlab's own
   * stop (a host run in process is aborted through its signal), not a
   * choice of the host's.
   */
  cancelled(call: HostCallRecord): boolean {
    const limit = this.records.findIndex((r) =>
      r.op === "process" && r.who === "host" && r.event === "limit"
    );
    return this.records.slice(0, limit === -1 ? undefined : limit).some((r) =>
      r.op === "cancel" && r.conn === call.conn && r.call === call.call
    );
  }

  /** How the host's process ended, as the history last says. */
  hostEnd(): { end: HostEnd; code?: number | null } {
    const last = this.records.findLast((r) =>
      r.op === "process" && r.who === "host" &&
      (r.event === "exit" || r.event === "limit")
    );
    if (last?.op !== "process") return { end: "running" };
    return last.event === "limit"
      ? { end: "limit" }
      : { end: "exit", code: last.code ?? null };
  }
}
