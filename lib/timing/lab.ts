/**
 * The timing lab: one tool call laid out on one timeline, against a real
 * SQLite ledger. The timeline reads top to bottom in the order the stages
 * happen, the commit point between the business step and the output check,
 * and returns the attempt's record (`./attempt.ts`).
 *
 * @module
 */
import { checkedArgs, inputCheck, type ToolArgs } from "./args.ts";
import {
  type Attempt,
  attemptOf,
  type AttemptRecord,
  type DraftValue,
  outputOf,
  resultOf,
  type RunOutput,
  type RunResult,
  type WrittenReceipt,
} from "./attempt.ts";
import {
  AuditUnavailable,
  Cancelled,
  InjectedFailure,
  InputRejected,
  KeyConflict,
  KeyVoided,
  OutputRejected,
} from "./errors.ts";
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
import type * as Timers from "node:timers";
import { nodeBuiltin } from "../base/node_builtin.ts";
import { fingerprint } from "../store/wire.ts";
import { pythonJson } from "../base/json.ts";

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
  if (
    typeof record !== "object" || record === null || Array.isArray(record) ||
    !hasExactlyJobAndText(record) || record.job !== args.job ||
    record.text !== draftText(args)
  ) {
    throw new OutputRejected();
  }
}

/** Whether the own enumerable keys of `record` are `job` and `text`, no more (in either order; no sort per call). */
function hasExactlyJobAndText(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  return keys.length === 2 &&
    (keys[0] === "job"
      ? keys[1] === "text"
      : keys[0] === "text" && keys[1] === "job");
}

/**
 * Internal: where the attempt was stopped and by what. A cancellation
 * (`cancelled`) is recorded on a receipt and then handed back as it came,
 * never turned into a status; a failure is folded into `error`.
 */
class Stopped {
  constructor(
    readonly at: StopPoint,
    readonly cause: unknown,
    readonly cancelled = false,
  ) {}
}

/** The failure a trusted test injects at `at`. */
/**
 * The stored text of each sequence of stages seen, made once: a receipt's
 * events are one of a handful of sequences (the timeline's outcomes), so
 * the same Python JSON was built again for nearly every receipt. Bounded,
 * and keyed by the sequence's own JSON, so any sequence maps to its text.
 */
const eventsTexts = new Map<string, string>();
const MAX_EVENTS_TEXTS = 256;

function eventsText(events: readonly EventName[]): string {
  const key = JSON.stringify(events);
  let text = eventsTexts.get(key);
  if (text === undefined) {
    text = pythonJson(events);
    if (eventsTexts.size >= MAX_EVENTS_TEXTS) eventsTexts.clear();
    eventsTexts.set(key, text);
  }
  return text;
}

function injectedFailure(at: FailPoint): Stopped {
  return new Stopped(at, new InjectedFailure(at));
}

/**
 * The input check judged now, for a verdict delivered later: a parallel
 * input guardrail's verdict arrives after the business step.
 */
function lateVerdictOf(
  args: ToolArgs,
): { event: "input_allowed" | "input_tripwire"; rejection: unknown } {
  try {
    inputCheck(args);
    return { event: "input_allowed", rejection: null };
  } catch (error) {
    return { event: "input_tripwire", rejection: error };
  }
}

function statusFor(error: unknown): Status {
  if (error instanceof InputRejected) return "input_rejected";
  if (error instanceof OutputRejected) return "output_rejected";
  if (error instanceof KeyConflict) return "key_conflict";
  if (error instanceof KeyVoided) return "key_voided";
  // Anything else is folded without its text: a message is not a checked output.
  return "error";
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
    const record = await this.attempt(raw, faults, signal);
    if (record.outcome.kind === "thrown") throw record.outcome.error;
    return resultOf(record);
  }

  /**
   * One tool call, recorded: its events, the receipt it wrote (if any) and
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
    return await this.#timeline(raw, faults, signal);
  }

  /**
   * One tool call, read both ways: the output object (its result, or what
   * it raised) and the timeline view's input. An error with no `raised`
   * object propagates.
   */
  async observe(
    raw: unknown,
    faults: Faults = {},
    signal?: AbortSignal,
  ): Promise<{ output: RunOutput; attempt: Attempt }> {
    const record = await this.attempt(raw, faults, signal);
    const output = outputOf(record);
    // A result's receipt says whether the draft exists; after a throw,
    // the ledger is asked now.
    const job = (raw as { job?: unknown } | null)?.job;
    const draftExists = "raised" in output
      ? typeof job === "string" && this.ledger.draftExists(job)
      : output.effect_exists;
    return { output, attempt: attemptOf(record, output, draftExists) };
  }

  /**
   * The timeline, top to bottom: validate → input check → business (the
   * commit point) → output check → receipt. It returns the attempt's
   * record, whatever happened on the way.
   */
  async #timeline(
    raw: unknown,
    faults: Faults,
    signal: AbortSignal | undefined,
  ): Promise<AttemptRecord> {
    const events: EventName[] = [];
    let job: string | null = null;
    let status: Status = "error";
    let released: DraftValue | null = null;
    let stopped: Stopped | undefined;
    let refusal: string | undefined;
    try {
      const args = checkedArgs(raw);
      job = args.job;
      events.push("arguments_valid");
      // Sequential: the check runs here and the call waits for its verdict.
      // Parallel: the call goes on, and the verdict arrives later.
      const lateVerdict = faults.inputGuardrail === "parallel"
        ? lateVerdictOf(args)
        : undefined;
      if (lateVerdict === undefined) {
        inputCheck(args);
        events.push("input_allowed");
      }
      await this.#checkpoint("before_business", faults, signal);
      events.push("business_started");
      // The commit point: once the business step's COMMIT has returned (or
      // it found the same draft), no later check on this timeline can take
      // the draft back.
      const effect = this.#business(args, faults);
      events.push(effect.reused ? "effect_reused" : "effect_committed");
      if (!effect.reused && faults.failAt === "after_commit") {
        throw injectedFailure("after_commit");
      }
      if (lateVerdict !== undefined) {
        // A parallel input guardrail's verdict lands here, past the commit
        // point: a rejection now cannot take the draft back.
        events.push(lateVerdict.event);
        if (lateVerdict.rejection !== null) throw lateVerdict.rejection;
      }
      await this.#checkpoint("after_business", faults, signal);
      events.push("output_started");
      const value = faults.badOutput
        ? { ...effect.value, text: BAD_OUTPUT_TEXT }
        : effect.value;
      await this.#checkpoint("output_check", faults, signal);
      outputCheck(value, args);
      events.push("output_allowed");
      await faults.pause?.("after_output_check");
      status = "accepted";
      released = value;
    } catch (error) {
      stopped = error instanceof Stopped ? error : undefined;
      const cause = stopped ? stopped.cause : error;
      status = statusFor(cause);
      if (status !== "error") refusal = (cause as Error).message;
    }
    const recorded = (
      receipt: WrittenReceipt | null,
      outcome: AttemptRecord["outcome"],
    ): AttemptRecord => ({
      job,
      events,
      receipt,
      ...(stopped ? { stoppedAt: stopped.at } : {}),
      ...(refusal ? { refusal } : {}),
      ...(faults.inputGuardrail === "parallel"
        ? { inputGuardrail: "parallel" as const }
        : {}),
      outcome,
    });
    const cancellation = stopped?.cancelled ? stopped : undefined;
    // The receipt comes last, in its own later transaction: it records the
    // attempt as it ended and cannot undo the draft.
    try {
      if (cancellation) {
        // Recorded, then handed back as it came: never a status.
        const receipt = this.#receipt(
          job,
          "cancelled",
          events,
          faults,
          cancellation.cause,
        );
        return recorded(receipt, { kind: "thrown", error: cancellation.cause });
      }
      await faults.pause?.("before_receipt");
      const receiptWritten = this.#receipt(job, status, events, faults);
      return recorded(receiptWritten, { kind: "result", status, released });
    } catch (error) {
      // No receipt. An audit failure while cancelling wins over the
      // cancellation, which stays on record as its cause, as Python keeps
      // it in __context__.
      return recorded(null, {
        kind: "thrown",
        error,
        ...(cancellation ? { whileCancelling: cancellation.cause } : {}),
      });
    }
  }

  /**
   * Store the draft in one short transaction, reuse it for the same key and
   * arguments, or refuse other arguments under the same key.
   */
  #business(
    args: ToolArgs,
    faults: Faults,
  ): { reused: boolean; value: DraftValue } {
    const digest = fingerprint(args);
    return this.ledger.writeTransaction(() => {
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
      // Thrown inside the transaction: the insert is rolled back.
      if (faults.failAt === "inside_transaction") {
        throw injectedFailure("inside_transaction");
      }
      return { reused: false, value };
    });
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
    events: readonly EventName[],
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
        eventsText(events),
      );
      // The article's original code (`naive`) takes the last row id, with
      // no check that this INSERT added a row. Under RAISE(IGNORE) it
      // reports the id of the connection's last insert (the draft), and no
      // receipt exists.
      if (faults.receipt !== "naive" && row.changes !== 1) {
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

  /**
   * An awaited point where a cancellation can land, as asyncio delivers
   * one at an await; a trusted test injects one (or a failure) here.
   */
  async #checkpoint(
    name: Checkpoint,
    faults: Faults,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (faults.cancelAt === name) {
      throw new Stopped(name, new Cancelled(name), true);
    }
    if (faults.failAt === name) throw injectedFailure(name);
    const point = PAUSE_AT_CHECKPOINT[name];
    const held = point === undefined ? undefined : faults.pause?.(point);
    try {
      // A real abort is delivered while this await is pending, as asyncio
      // delivers Task.cancel() at an await.
      await abortable(held ?? (signal ? nextTurn() : undefined), signal, name);
    } catch (error) {
      throw error instanceof Stopped ? error : new Stopped(name, error);
    }
  }
}

function causeOption(cause: unknown): ErrorOptions | undefined {
  return cause === undefined ? undefined : { cause };
}

/**
 * One turn of the event loop: other tasks (a cancel read from a pipe, an
 * abort from a timer or another call) run before the attempt goes on. A
 * resolved promise would not do: it resumes before any other task runs, so a
 * real abort could never land here. `setImmediate` costs microseconds;
 * `setTimeout(0)` costs about 2 ms a turn in Deno.
 */
function nextTurn(): Promise<void> {
  // Loaded at the first turn: a run with no signal never takes one.
  const { setImmediate } = nodeBuiltin<typeof Timers>("node:timers");
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Await `waiting` unless `signal` aborts first, which stops the attempt at
 * `at`; `@std/async`'s `abortable` is the JSR equivalent.
 */
async function abortable(
  waiting: Promise<void> | void,
  signal: AbortSignal | undefined,
  at: Checkpoint,
): Promise<void> {
  if (signal === undefined) {
    await waiting;
    return;
  }
  const cancelled = () => new Stopped(at, signal.reason, true);
  if (signal.aborted) throw cancelled();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([waiting, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  if (signal.aborted) throw cancelled();
}
