/**
 * The timing lab: one tool call laid out on one timeline, against a real
 * SQLite ledger. {@linkcode Lab.run} reads top to bottom in the order the
 * stages happen; the commit point sits inside {@linkcode Lab.business}.
 *
 * @module
 */
import { checkedArgs, inputCheck, type ToolArgs } from "./args.ts";
import {
  AuditUnavailable,
  Cancelled,
  InjectedFailure,
  InputRejected,
  KeyConflict,
  KeyVoided,
  OutputRejected,
} from "../base/errors.ts";
import { Ledger, type LedgerOptions } from "./ledger.ts";
import {
  type Checkpoint,
  type EventName,
  type FailPoint,
  PAUSE_AT_CHECKPOINT,
  type PausePoint,
  type ReceiptStatus,
  type Status,
  type StopPoint,
} from "./stages.ts";
import { fingerprint } from "../store/wire.ts";
import { pythonJson } from "../base/json.ts";

/** What the business step stores and the caller may receive. */
export interface DraftValue {
  /** Business key. */
  job: string;
  /** The fixed template text, e.g. `river / copies=2`. */
  text: string;
}

/**
 * How the receipt is written: `checked` (exactly one row, or the run fails)
 * or `naive` (the article's original code, trusting the last row id).
 */
export const RECEIPT_MODES = ["checked", "naive"] as const;

/** How the agent-level input guardrail is scheduled beside the call. */
export const INPUT_GUARDRAIL_MODES = ["sequential", "parallel"] as const;

/** Faults a trusted test injects: where the run is cancelled or breaks. */
export interface InjectedFaults {
  /** Cancel at this checkpoint. */
  cancelAt?: Checkpoint;
  /** Raise an unexpected error here. */
  failAt?: FailPoint;
  /** Corrupt the copy of the result handed to the output check (the stored draft stays intact). */
  badOutput?: boolean;
  /** Make the receipt write fail before it touches the database. */
  auditFailure?: boolean;
}

/**
 * Teaching switches: the lab run the way the article's first versions ran
 * it, to show what goes wrong. Never the default, never a tool argument.
 */
export interface TeachingSwitches {
  /**
   * Like the policy lab's `PolicyLab.insertNaive`: `naive` writes the receipt as the
   * article's original code did, trusting the last row id without checking
   * that the INSERT added a row.
   */
  receipt?: typeof RECEIPT_MODES[number];
  /**
   * How the agent-level input guardrail is scheduled (OpenAI Agents SDK's
   * `run_in_parallel`, as the article describes v0.23.1): `sequential`
   * (the default here) checks before the business step; `parallel` lets the
   * call go on and delivers the verdict right after the business step, past
   * the commit point.
   */
  inputGuardrail?: typeof INPUT_GUARDRAIL_MODES[number];
}

/** The harness hook: a test or the CLI holds the run at a pause point. */
export interface HarnessHook {
  /**
   * Awaited at each pause point; a harness uses it to hold the run there.
   * While held at `before_business` or `after_commit` the run can be aborted.
   */
  pause?: (point: PausePoint) => Promise<void> | void;
}

/**
 * Everything a trusted caller may set beside the tool arguments, three kinds
 * kept apart by type: injected faults, teaching switches and the harness
 * hook. None of it is ever part of the tool arguments: the arguments come
 * from the caller, these come from the test.
 */
export type Faults = InjectedFaults & TeachingSwitches & HarnessHook;

/** The result of a run that was not cancelled, in the reference's key order. */
export interface RunResult {
  /** The receipt's attempt number. */
  attempt: number;
  /** Business key, `null` when the arguments had none that was valid. */
  job: string | null;
  /** How the call ended. */
  status: Status;
  /** Whether a draft for `job` exists now (maybe from an earlier attempt). */
  effect_exists: boolean;
  /** The stages this attempt passed, in order. */
  events: EventName[];
  /** What the caller may use: only an accepted result releases a value. */
  released: DraftValue | null;
}

/** The text a bad-output fault puts in place of the real one. */
export const BAD_OUTPUT_TEXT = "SYNTHETIC-BAD-OUTPUT";

/** The text the business step writes for `args`. */
export function draftText(args: ToolArgs): string {
  return `${args.topic} / copies=${args.copies}`;
}

/**
 * Throw {@linkcode OutputRejected} unless `value` is exactly the draft `args` asked for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputCheck } from "../mod.ts";
 *
 * const args = { job: "JOB-001", topic: "river", copies: 2 } as const;
 * outputCheck({ job: "JOB-001", text: "river / copies=2" }, args);
 * assert.throws(() => outputCheck({ job: "JOB-001", text: "SYNTHETIC-BAD-OUTPUT" }, args));
 * ```
 */
export function outputCheck(value: unknown, args: ToolArgs): void {
  const record = value as Record<string, unknown> | null;
  const keys =
    typeof record === "object" && record !== null && !Array.isArray(record)
      ? Object.keys(record).sort().join(",")
      : "";
  if (
    keys !== "job,text" || record!.job !== args.job ||
    record!.text !== draftText(args)
  ) {
    throw new OutputRejected();
  }
}

/** Internal marker: a cancellation reached a checkpoint; `reason` is re-thrown after the receipt. */
class CancelRequested {
  constructor(readonly reason: unknown) {}
}

function statusFor(error: unknown): Status {
  if (error instanceof InputRejected) return "input_rejected";
  if (error instanceof OutputRejected) return "output_rejected";
  if (error instanceof KeyConflict) return "key_conflict";
  if (error instanceof KeyVoided) return "key_voided";
  // Anything else is folded without its text: a message is not a checked output.
  return "error";
}

/** A receipt row this attempt wrote. */
export interface WrittenReceipt {
  /** The attempt number SQLite assigned. */
  attempt: number;
  /** The status recorded, `cancelled` included. */
  status: ReceiptStatus;
  /** Whether a draft for the key existed when the receipt was written. */
  effect_exists: boolean;
  /** How many rows the receipt INSERT really added (a naive receipt may claim one with 0). */
  rowsInserted: number;
}

/**
 * Everything one attempt did, returned to its caller and kept nowhere else:
 * two overlapping attempts on one lab each get their own.
 */
export interface AttemptRecord {
  /** The stages the attempt passed, in order, as far as it got. */
  events: readonly EventName[];
  /** The receipt it wrote, or `null`: then `outcome` says why (it threw). */
  receipt: WrittenReceipt | null;
  /** Where a cancellation or an injected failure stopped it, if one did. */
  stoppedAt?: StopPoint;
  /** The rule that refused it (e.g. `batch_limit`), if a check said no. */
  refusal?: string;
  /** `parallel` when the input guardrail ran beside the call. */
  inputGuardrail?: "parallel";
  /** The result the caller received, or what was thrown instead. */
  outcome:
    | { kind: "result"; result: RunResult }
    | {
      kind: "thrown";
      error: unknown;
      /** The cancellation that was being recorded when `error` happened. */
      whileCancelling?: unknown;
    };
}

/** Where the timeline leaves what it wrote, for {@linkcode Lab.attempt}. */
interface Trace {
  events: EventName[];
  receipt: WrittenReceipt | null;
  whileCancelling?: unknown;
  stoppedAt?: StopPoint;
  refusal?: string;
}

/**
 * A lab bound to one ledger file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab } from "../mod.ts";
 * // A folder of your own: a ledger in the shared /tmp itself is refused.
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * const result = await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
 * assert.equal(result.status, "accepted");
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class Lab {
  /** The ledger this lab writes. */
  readonly ledger: Ledger;

  /** Wrap an open ledger. */
  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  /** Open the ledger at `path` and wrap it. */
  static open(path: string, options?: LedgerOptions): Lab {
    return new Lab(Ledger.open(path, options));
  }

  /** Close the ledger connection. */
  close(): void {
    this.ledger.close();
  }

  /**
   * One tool call, as the reference's `run()`: the receipt-backed result, or
   * the cancellation re-thrown after a `cancelled` receipt (never turned
   * into a status), or an audit or database failure.
   */
  async run(
    raw: unknown,
    faults: Faults = {},
    signal?: AbortSignal,
  ): Promise<RunResult> {
    const { outcome } = await this.attempt(raw, faults, signal);
    if (outcome.kind === "thrown") throw outcome.error;
    return outcome.result;
  }

  /**
   * One tool call, described: its events, the receipt it wrote (if any) and
   * how it ended. Nothing of it is left on the lab.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Lab } from "../mod.ts";
   * const dir = Deno.makeTempDirSync();
   * const lab = Lab.open(`${dir}/lab.sqlite`);
   * const record = await lab.attempt(
   *   { job: "JOB-001", topic: "river", copies: 2 },
   *   { cancelAt: "after_business" },
   * );
   * assert.equal(record.outcome.kind, "thrown");
   * assert.equal(record.receipt?.status, "cancelled");
   * lab.close();
   * Deno.removeSync(dir, { recursive: true });
   * ```
   */
  async attempt(
    raw: unknown,
    faults: Faults = {},
    signal?: AbortSignal,
  ): Promise<AttemptRecord> {
    const trace: Trace = { events: [], receipt: null };
    const seen = () => ({
      events: trace.events,
      receipt: trace.receipt,
      ...(trace.stoppedAt ? { stoppedAt: trace.stoppedAt } : {}),
      ...(trace.refusal ? { refusal: trace.refusal } : {}),
      ...(faults.inputGuardrail === "parallel"
        ? { inputGuardrail: "parallel" as const }
        : {}),
    });
    try {
      const result = await this.#timeline(raw, faults, signal, trace);
      return { ...seen(), outcome: { kind: "result", result } };
    } catch (error) {
      return {
        ...seen(),
        outcome: {
          kind: "thrown",
          error,
          ...("whileCancelling" in trace
            ? { whileCancelling: trace.whileCancelling }
            : {}),
        },
      };
    }
  }

  /**
   * The timeline, top to bottom: validate → input check → business (commit
   * point) → output check → receipt.
   */
  async #timeline(
    raw: unknown,
    faults: Faults,
    signal: AbortSignal | undefined,
    trace: Trace,
  ): Promise<RunResult> {
    const events = trace.events;
    let job: string | null = null;
    let status: Status = "error";
    let released: DraftValue | null = null;
    try {
      const args = checkedArgs(raw);
      job = args.job;
      events.push("arguments_valid");
      // Sequential: the check runs here and the call waits for its verdict.
      // Parallel: the call goes on, and the verdict arrives later.
      const inputVerdict = this.#inputGuardrail(args, events, faults);
      await this.#checkpoint("before_business", faults, signal, trace);
      events.push("business_started");
      // The commit point: once this returns with effect_committed, no later
      // check on this timeline can take the draft back.
      let value = this.#business(args, trace, faults);
      // A parallel input guardrail's verdict lands here, past the commit
      // point: a rejection now cannot take the draft back.
      inputVerdict.deliver();
      await this.#checkpoint("after_business", faults, signal, trace);
      events.push("output_started");
      if (faults.badOutput) value = { ...value, text: BAD_OUTPUT_TEXT };
      await this.#checkpoint("output_check", faults, signal, trace);
      outputCheck(value, args);
      events.push("output_allowed");
      await faults.pause?.("after_output_check");
      status = "accepted";
      released = value;
    } catch (error) {
      if (error instanceof CancelRequested) {
        // The audit failure wins over the cancellation, which stays on
        // record as its cause, as Python keeps it in __context__.
        trace.whileCancelling = error.reason;
        trace.receipt = this.#receipt(
          job,
          "cancelled",
          events,
          faults,
          error.reason,
        );
        delete trace.whileCancelling;
        throw error.reason;
      }
      status = statusFor(error);
      if (status !== "error") trace.refusal = (error as Error).message;
    }
    await faults.pause?.("before_receipt");
    const receiptWritten = this.#receipt(job, status, events, faults);
    trace.receipt = receiptWritten;
    return {
      attempt: receiptWritten.attempt,
      job,
      status,
      effect_exists: receiptWritten.effect_exists,
      events: [...events],
      released,
    };
  }

  /**
   * The input check, scheduled as `faults.inputGuardrail` says. Sequential:
   * judged now (a rejection throws before anything is written). Parallel:
   * judged now but delivered by `deliver()`, which the timeline calls after
   * the business step, deterministically, with no sleep and no race.
   */
  #inputGuardrail(
    args: ToolArgs,
    events: EventName[],
    faults: Faults,
  ): { deliver(): void } {
    if (faults.inputGuardrail !== "parallel") {
      inputCheck(args);
      events.push("input_allowed");
      return { deliver() {} };
    }
    let rejection: unknown = null;
    try {
      inputCheck(args);
    } catch (error) {
      rejection = error;
    }
    return {
      deliver() {
        if (rejection !== null) {
          events.push("input_tripwire");
          throw rejection;
        }
        events.push("input_allowed");
      },
    };
  }

  /**
   * Store the draft in one short transaction, reuse it for the same key and
   * arguments, or refuse other arguments under the same key.
   */
  #business(args: ToolArgs, trace: Trace, faults: Faults): DraftValue {
    const digest = fingerprint(args);
    const outcome = this.ledger.writeTransaction(() => {
      const old = this.ledger.findDraft(args.job);
      if (old !== undefined) {
        // A compensated key is closed: neither reused nor re-created.
        if (this.ledger.compensationState(args.job) === "voided") {
          throw new KeyVoided();
        }
        if (old.digest !== digest) throw new KeyConflict();
        return { reused: true, value: JSON.parse(old.body) as DraftValue };
      }
      const value = { job: args.job, text: draftText(args) };
      this.ledger.insertDraft(args.job, digest, pythonJson(value));
      if (faults.failAt === "inside_transaction") {
        trace.stoppedAt = "inside_transaction";
        throw new InjectedFailure("inside_transaction");
      }
      return { reused: false, value };
    });
    // COMMIT has returned (or nothing was written): only now is the effect a fact.
    trace.events.push(outcome.reused ? "effect_reused" : "effect_committed");
    if (!outcome.reused && faults.failAt === "after_commit") {
      trace.stoppedAt = "after_commit";
      throw new InjectedFailure("after_commit");
    }
    return outcome.value;
  }

  /**
   * Write the audit receipt in its own later transaction. It fails loudly
   * unless exactly one row was inserted: a trigger doing `RAISE(IGNORE)`
   * makes the INSERT a silent no-op, and the last row id is no proof.
   * While cancelling, an {@linkcode AuditUnavailable} carries the
   * cancellation as its `cause`.
   */
  #receipt(
    job: string | null,
    status: ReceiptStatus,
    events: EventName[],
    faults: Faults,
    cancellation?: unknown,
  ): WrittenReceipt {
    if (faults.auditFailure) {
      throw new AuditUnavailable(
        "audit write unavailable",
        causeOption(cancellation),
      );
    }
    return this.ledger.writeTransaction(() => {
      const present = job !== null && this.ledger.draftExists(job);
      const row = this.ledger.insertReceipt(
        job,
        status,
        present,
        pythonJson(events),
      );
      if (faults.receipt === "naive") {
        // The article's original code: the last row id, with no check that
        // this INSERT added a row. Under RAISE(IGNORE) it reports the id of
        // the connection's last insert (the draft), and no receipt exists.
        return {
          attempt: row.attempt,
          status,
          effect_exists: present,
          rowsInserted: row.changes,
        };
      }
      if (row.changes !== 1) {
        throw new AuditUnavailable(
          "audit insert did not create one row",
          causeOption(cancellation),
        );
      }
      return {
        attempt: row.attempt,
        status,
        effect_exists: present,
        rowsInserted: row.changes,
      };
    });
  }

  async #checkpoint(
    name: Checkpoint,
    faults: Faults,
    signal: AbortSignal | undefined,
    trace: Trace,
  ): Promise<void> {
    if (faults.cancelAt === name || faults.failAt === name) {
      trace.stoppedAt = name;
      if (faults.cancelAt === name) {
        throw new CancelRequested(new Cancelled(name));
      }
      throw new InjectedFailure(name);
    }
    const point = PAUSE_AT_CHECKPOINT[name];
    const held = point === undefined ? undefined : faults.pause?.(point);
    try {
      // A real abort is delivered while this await is pending, as asyncio
      // delivers Task.cancel() at an await.
      await abortable(held ?? (signal ? nextTurn() : undefined), signal);
    } catch (error) {
      trace.stoppedAt = name;
      throw error;
    }
  }
}

function causeOption(cause: unknown): ErrorOptions | undefined {
  return cause === undefined ? undefined : { cause };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Await `waiting` unless `signal` aborts first; `@std/async`'s `abortable` is the JSR equivalent. */
async function abortable(
  waiting: Promise<void> | void,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) {
    await waiting;
    return;
  }
  if (signal.aborted) throw new CancelRequested(signal.reason);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CancelRequested(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([waiting, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  if (signal.aborted) throw new CancelRequested(signal.reason);
}
