/**
 * The fault schedule of `guardlab mcp --faults FILE`: JSON Lines, one fault
 * set per line, each for one call number. Calls are counted from 1 over
 * every `tools/call` the server process receives, whatever the tool (a
 * malformed one, refused before it is read, is not counted). Faults
 * are never tool arguments: an agent cannot ask for one, the student
 * schedules them.
 *
 * @module
 */
import { linesOf } from "../base/lines.ts";
import { isPlainRecord } from "../base/json.ts";
import {
  type Checkpoint,
  CHECKPOINTS,
  FAIL_POINTS,
  type FailPoint,
  isOneOf,
} from "../timing/stages.ts";
import type { Text } from "../base/i18n.ts";
import { TextError } from "../base/text_error.ts";
import { FAULTS_MESSAGES } from "./messages.ts";

/** Where a hold fault can wait for the client's cancel. */
export const HOLD_POINTS = ["before_business", "after_commit"] as const;

/** A hold point. */
export type HoldPoint = typeof HOLD_POINTS[number];

/** How long a hold waits for a cancel unless the line says: 60 s. */
export const DEFAULT_HOLD_MS = 60_000;

/** The longest hold a line may ask for: 10 minutes. */
export const MAX_HOLD_MS = 600_000;

/** The longest line of a faults file. */
export const MAX_FAULT_LINE_BYTES = 4096;

/** The most fault lines a file may hold. */
export const MAX_FAULT_LINES = 1000;

/** The fields a fault line may have besides `call`. */
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

/** A faults file that cannot be used: the line and what is wrong (`text`). */
export class BadFaultsFile extends TextError {}

function bad(line: number, what: Text): BadFaultsFile {
  return new BadFaultsFile(FAULTS_MESSAGES.badLine(line, what));
}

/** One line's faults, or {@linkcode BadFaultsFile}. */
function faultLine(text: string, line: number): [number, CallFaults] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad(line, FAULTS_MESSAGES.notJson);
  }
  if (!isPlainRecord(raw)) {
    throw bad(line, FAULTS_MESSAGES.notObject);
  }
  const call = raw.call;
  if (typeof call !== "number" || !Number.isSafeInteger(call) || call < 1) {
    throw bad(line, FAULTS_MESSAGES.badCall);
  }
  const faults: CallFaults = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "call") continue;
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
  return [call, faults];
}

/**
 * Read a fault schedule: call number → its faults. Blank lines are skipped;
 * a line longer than {@linkcode MAX_FAULT_LINE_BYTES}, more than
 * {@linkcode MAX_FAULT_LINES} lines, a call number given twice, or any bad
 * field refuses the whole file with its line number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFaults } from "./faults.ts";
 * const plan = await readFaults(
 *   new Blob(['{"call": 2, "bad_output": true}\n']).stream(),
 * );
 * assert.deepEqual(plan.get(2), { badOutput: true });
 * ```
 */
export async function readFaults(
  stream: ReadableStream<Uint8Array>,
): Promise<Map<number, CallFaults>> {
  const plan = new Map<number, CallFaults>();
  let count = 0;
  for await (const line of linesOf(stream, MAX_FAULT_LINE_BYTES)) {
    if ("tooLong" in line) {
      throw bad(line.number, FAULTS_MESSAGES.tooLong(MAX_FAULT_LINE_BYTES));
    }
    if (line.text.trim() === "") continue;
    if (++count > MAX_FAULT_LINES) {
      throw bad(line.number, FAULTS_MESSAGES.tooMany(MAX_FAULT_LINES));
    }
    const [call, faults] = faultLine(line.text, line.number);
    if (plan.has(call)) {
      throw bad(line.number, FAULTS_MESSAGES.twice(call));
    }
    plan.set(call, faults);
  }
  return plan;
}
