/**
 * The fault schedule of `guardlab mcp --faults FILE`: JSON Lines, one fault
 * set per line, each for the `create_draft` calls its selector picks: a call
 * number (`"call": 2`), every call (`"call": "every"`), a business key
 * (`"job": "JOB-002"`), or a call number and a key together. Calls are
 * counted from 1 over every `tools/call` the server process receives,
 * whatever the tool (a malformed one, refused before it is read, is not
 * counted). A client that starts a fresh server for each call (the MCP
 * Inspector's CLI) only ever makes call 1: it selects by key or `"every"`.
 * When several lines pick a call, the first in the file wins. Faults are
 * never tool arguments: an agent cannot ask for one, the student schedules
 * them.
 *
 * @module
 */
import { type JsonLineProblem, jsonLinesOf } from "../base/jsonl.ts";
import { isPlainRecord } from "../base/json.ts";
import { JOB_PATTERN } from "../timing/args.ts";
import {
  type Checkpoint,
  CHECKPOINTS,
  FAIL_POINTS,
  type FailPoint,
  isOneOf,
} from "../timing/stages.ts";
import type { Text } from "../base/i18n.ts";
import { TextError } from "../base/text_error.ts";
import { FAULTS_MESSAGES } from "./_messages.ts";

/** Where a hold fault can wait for the client's cancel. */
export const HOLD_POINTS = ["before_business", "after_commit"] as const;

/** A hold point. */
export type HoldPoint = typeof HOLD_POINTS[number];

/**
 * How long a hold waits for a cancel unless the line says: 5 minutes, longer
 * than the default request timeout of the clients the docs show (the MCP
 * SDK's and the Agents SDK's 60 s), so their timeout, and the cancel it
 * sends, comes first and lands after the commit.
 */
export const DEFAULT_HOLD_MS = 300_000;

/** The longest hold a line may ask for: 10 minutes. */
export const MAX_HOLD_MS = 600_000;

/** The longest line of a faults file. */
export const MAX_FAULT_LINE_BYTES = 4096;

/** The most fault lines a file may hold. */
export const MAX_FAULT_LINES = 1000;

/** The fields that pick which calls a line is for. */
export const SELECTOR_FIELDS = ["call", "job"] as const;

/** The fields a fault line may have besides its selector. */
export const FAULT_FIELDS = [
  "cancel_at",
  "fail_at",
  "bad_output",
  "audit_failure",
  "hold_at",
  "hold_ms",
] as const;

/** The faults scheduled for one call. */
export interface CallFaults {
  /** Cancel at this checkpoint, as `run --cancel-at`. */
  cancelAt?: Checkpoint;
  /** Raise here, as `run --fail-at`. */
  failAt?: FailPoint;
  /** Corrupt the copy handed to the output check. */
  badOutput?: boolean;
  /** Make the receipt write fail. */
  auditFailure?: boolean;
  /** Wait here until the client cancels, at most `holdMs`. */
  holdAt?: HoldPoint;
  /** How long a hold waits before the call goes on. */
  holdMs?: number;
}

/** Which `create_draft` calls a line is for: all it names must match. */
export interface FaultSelector {
  /** A call number, or every call. */
  call?: number | "every";
  /** The business key in the call's arguments. */
  job?: string;
}

/** One line of a schedule: its selector, its faults and its line number. */
export interface ScheduledFaults {
  /** Which calls. */
  selector: FaultSelector;
  /** What happens to them. */
  faults: CallFaults;
  /** Where it stands in the file, from 1. */
  line: number;
}

/**
 * A fault schedule, in file order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFaults } from "./faults.ts";
 * const plan = await readFaults(
 *   new Blob(['{"job": "JOB-002", "bad_output": true}\n']).stream(),
 * );
 * assert.deepEqual(plan.faultsFor(1, { job: "JOB-002" }), { badOutput: true });
 * assert.equal(plan.faultsFor(1, { job: "JOB-001" }), undefined);
 * ```
 */
export class FaultSchedule {
  /** The lines, in file order. */
  readonly lines: readonly ScheduledFaults[];

  /** A schedule of `lines` (an empty one schedules nothing). */
  constructor(lines: readonly ScheduledFaults[] = []) {
    this.lines = lines;
  }

  /** The faults of `create_draft` call number `call` with `args`: the first line that picks it. */
  faultsFor(call: number, args: unknown): CallFaults | undefined {
    const job = isPlainRecord(args) ? args.job : undefined;
    return this.lines.find(({ selector }) =>
      (selector.call === undefined || selector.call === "every" ||
        selector.call === call) &&
      (selector.job === undefined || selector.job === job)
    )?.faults;
  }
}

/** A faults file that cannot be used: the line and what is wrong (`text`). */
export class BadFaultsFile extends TextError {}

function bad(line: number, what: Text): BadFaultsFile {
  return new BadFaultsFile(FAULTS_MESSAGES.badLine(line, what));
}

/** What a line the JSON Lines reader refused is, in this file's words. */
const LINE_PROBLEMS: Readonly<Record<JsonLineProblem, Text>> = {
  tooLong: FAULTS_MESSAGES.tooLong(MAX_FAULT_LINE_BYTES),
  tooMany: FAULTS_MESSAGES.tooMany(MAX_FAULT_LINES),
  notJson: FAULTS_MESSAGES.notJson,
  notObject: FAULTS_MESSAGES.notObject,
};

/** One line's selector and faults, or {@linkcode BadFaultsFile}. */
function faultLine(
  raw: Record<string, unknown>,
  line: number,
): ScheduledFaults {
  const selector: FaultSelector = {};
  if (Object.hasOwn(raw, "call")) {
    const call = raw.call;
    if (
      call !== "every" &&
      (typeof call !== "number" || !Number.isSafeInteger(call) || call < 1)
    ) {
      throw bad(line, FAULTS_MESSAGES.badCall);
    }
    selector.call = call;
  }
  if (Object.hasOwn(raw, "job")) {
    if (typeof raw.job !== "string" || !JOB_PATTERN.test(raw.job)) {
      throw bad(line, FAULTS_MESSAGES.badJob);
    }
    selector.job = raw.job;
  }
  if (selector.call === undefined && selector.job === undefined) {
    throw bad(line, FAULTS_MESSAGES.noSelector);
  }
  const faults: CallFaults = {};
  for (const [key, value] of Object.entries(raw)) {
    if (isOneOf(SELECTOR_FIELDS, key)) continue;
    if (!isOneOf(FAULT_FIELDS, key)) {
      throw bad(line, FAULTS_MESSAGES.unknownField(key, FAULT_FIELDS));
    }
    const choose = <T extends string>(allowed: readonly T[]): T => {
      if (!isOneOf(allowed, value)) {
        throw bad(line, FAULTS_MESSAGES.notOneOf(key, allowed));
      }
      return value;
    };
    const flag = (): boolean => {
      if (typeof value !== "boolean") {
        throw bad(line, FAULTS_MESSAGES.notBoolean(key));
      }
      return value;
    };
    if (key === "cancel_at") faults.cancelAt = choose(CHECKPOINTS);
    else if (key === "fail_at") faults.failAt = choose(FAIL_POINTS);
    else if (key === "hold_at") faults.holdAt = choose(HOLD_POINTS);
    else if (key === "bad_output") faults.badOutput = flag();
    else if (key === "audit_failure") faults.auditFailure = flag();
    else {
      if (
        typeof value !== "number" || !Number.isSafeInteger(value) ||
        value < 1 || value > MAX_HOLD_MS
      ) {
        throw bad(line, FAULTS_MESSAGES.badHoldMs(MAX_HOLD_MS));
      }
      faults.holdMs = value;
    }
  }
  if (faults.holdMs !== undefined && faults.holdAt === undefined) {
    throw bad(line, FAULTS_MESSAGES.holdMsAlone);
  }
  return { selector, faults, line };
}

/** How a selector reads in a refusal. */
function selectorText(s: FaultSelector): Text {
  const M = FAULTS_MESSAGES;
  const call = s.call === undefined
    ? undefined
    : s.call === "every"
    ? M.selectorEvery
    : M.selectorCall(s.call);
  const job = s.job === undefined ? undefined : M.selectorJob(s.job);
  return call && job ? M.selectorBoth(call, job) : (call ?? job)!;
}

/** The selector as one key, to refuse a line that repeats another's. */
function selectorKey(s: FaultSelector): string {
  return JSON.stringify([s.call ?? null, s.job ?? null]);
}

/**
 * Read a fault schedule. Blank lines are skipped; a line longer than
 * {@linkcode MAX_FAULT_LINE_BYTES}, more than {@linkcode MAX_FAULT_LINES}
 * lines, a selector given twice, or any bad field refuses the whole file
 * with its line number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFaults } from "./faults.ts";
 * const plan = await readFaults(
 *   new Blob(['{"call": 2, "bad_output": true}\n']).stream(),
 * );
 * assert.deepEqual(plan.faultsFor(2, {}), { badOutput: true });
 * assert.equal(plan.faultsFor(1, {}), undefined);
 * ```
 */
export async function readFaults(
  stream: ReadableStream<Uint8Array>,
): Promise<FaultSchedule> {
  const lines: ScheduledFaults[] = [];
  const seen = new Map<string, FaultSelector>();
  const bounds = {
    maxLineBytes: MAX_FAULT_LINE_BYTES,
    maxLines: MAX_FAULT_LINES,
  };
  for await (const line of jsonLinesOf(stream, bounds)) {
    if ("problem" in line) throw bad(line.number, LINE_PROBLEMS[line.problem]);
    const scheduled = faultLine(line.value, line.number);
    const key = selectorKey(scheduled.selector);
    if (seen.has(key)) {
      throw bad(
        line.number,
        FAULTS_MESSAGES.twice(selectorText(scheduled.selector)),
      );
    }
    seen.set(key, scheduled.selector);
    lines.push(scheduled);
  }
  return new FaultSchedule(lines);
}
