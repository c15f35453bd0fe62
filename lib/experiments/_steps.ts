/**
 * The steps of the `script` contract as data, the stuff every scenario is
 * made of. A step's JSON form is the `script` line that replays it, so a
 * scenario written with these runs the same in the demo, in `explain` and
 * under `guardlab script`. `script.ts` reads the same steps from untrusted
 * lines; these are the trusted ones the program itself writes.
 *
 * @module
 */
import type { CompensationFault } from "../timing/compensation.ts";
import type { Checkpoint, FailPoint } from "../timing/stages.ts";

/** The request every scenario sends unless it says otherwise. */
export const DEMO_ARGS = { job: "JOB-001", topic: "river", copies: 2 } as const;

/** A tool call's arguments, as a `run` step sends them. */
export interface RunArgs {
  /** The business key. */
  readonly job: string;
  /** The topic. */
  readonly topic: string;
  /** How many copies. */
  readonly copies: number;
}

/** The faults a `run` step injects, spelt as the `script` contract spells them. */
export interface RunFaults {
  /** Cancel the call at this checkpoint. */
  readonly cancel_at?: Checkpoint;
  /** Fail the call at this point. */
  readonly fail_at?: FailPoint;
  /** Corrupt the result handed to the output check. */
  readonly bad_output?: true;
  /** Make the receipt write fail. */
  readonly audit_failure?: true;
}

/** One tool call of the timing lab. */
export interface RunStep {
  /** The op. */
  readonly op: "run";
  /** The call's arguments. */
  readonly args: RunArgs;
  /** Injected faults. */
  readonly faults?: RunFaults;
  /** The receipt code: the article's original (`naive`) or the checked one. */
  readonly receipt?: "checked" | "naive";
  /** How the Agent input guardrail is scheduled. */
  readonly input_guardrail?: "sequential" | "parallel";
}

/**
 * One `policy.*` step. The reader pre-checks and inserts; the editor
 * changes, locks or deletes the rule and reads the drafts.
 */
export type PolicyScriptStep =
  | {
    readonly op: "policy.precheck";
    readonly job: string;
    readonly copies: number;
    /** Remember the snapshot under this name. */
    readonly as?: string;
  }
  | { readonly op: "policy.change"; readonly max_copies: number }
  | {
    readonly op: "policy.insert_naive";
    readonly job: string;
    readonly copies: number;
    readonly snapshot: string;
  }
  | {
    readonly op: "policy.insert_checked";
    readonly job: string;
    readonly copies: number;
    readonly snapshot: string;
    /** Inject a failure after the INSERT, before the COMMIT. */
    readonly fail_before_commit?: true;
  }
  | { readonly op: "policy.lock" }
  | { readonly op: "policy.unlock" }
  | { readonly op: "policy.delete" }
  | { readonly op: "policy.rows" };

/** One step of the `script` contract (the table in `script.ts`'s `STEP_FIELDS`). */
export type ScriptStep =
  | RunStep
  | { readonly op: "count" }
  | { readonly op: "exists"; readonly job: string }
  | { readonly op: "fixture"; readonly receipt_fault: "ignore" | "none" }
  | {
    readonly op: "compensate";
    readonly job: string;
    readonly faults?: { readonly fail_at: CompensationFault };
  }
  | PolicyScriptStep;

/**
 * A `run` step: the demo request with `changes`, and the step's own
 * switches (faults, receipt code, guardrail scheduling).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStep, scriptLine } from "./_steps.ts";
 * assert.equal(
 *   scriptLine(runStep({ copies: 4 }, { input_guardrail: "parallel" })),
 *   '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":4},' +
 *     '"input_guardrail":"parallel"}',
 * );
 * ```
 */
export function runStep(
  changes: Partial<RunArgs> = {},
  switches: Omit<RunStep, "op" | "args"> = {},
): RunStep {
  return { op: "run", args: { ...DEMO_ARGS, ...changes }, ...switches };
}

/** The `script` line that replays `step`. */
export function scriptLine(step: ScriptStep): string {
  return JSON.stringify(step);
}
