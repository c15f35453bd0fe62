/**
 * The proxy's faults: JSON Lines, one line per call it applies to, chosen
 * by tool name and call number, never by the tool's arguments (an agent
 * cannot ask for a fault; the engineer schedules it):
 *
 * ```json
 * {"tool": "create_entities", "call": 2, "drop_response": true}
 * {"tool": "create_entities", "call": 3, "delay_response_ms": 1500}
 * {"call": 5, "cancel_after_ms": 200}
 * {"tool": "edit_file", "call": 1, "deliver_twice": true}
 * {"tool": "add_observations", "call": 1, "fanout": 10}
 * ```
 *
 * With `tool`, `call` counts that tool's calls; without it, every
 * `tools/call` of the session, from 1.
 *
 * @module
 */
import { fill } from "../base/i18n.ts";
import { jsonLinesIn } from "../base/jsonl.ts";
import { TextError } from "../base/text_error.ts";
import { MAX_DELAY_MS, MAX_FANOUT, MAX_FAULT_LINES } from "./limits.ts";
import { FAULT_MESSAGES } from "./proxy_messages.ts";

/** The fault names, as a faults line spells them. */
export const FAULT_NAMES = [
  "drop_response",
  "delay_response_ms",
  "cancel_after_ms",
  "deliver_twice",
  "fanout",
] as const;

/** One line of a faults file. */
export interface ProxyFault {
  /** The tool it applies to, or every tool. */
  readonly tool?: string;
  /** The call number: of that tool's calls, or of all calls. */
  readonly call: number;
  /** The server's answer never reaches the client. */
  readonly drop_response?: boolean;
  /** The server's answer reaches the client this much later. */
  readonly delay_response_ms?: number;
  /** This long after forwarding, guardlab cancels the call at the server and answers the client with an error. */
  readonly cancel_after_ms?: number;
  /** The call reaches the server twice. */
  readonly deliver_twice?: boolean;
  /** The call reaches the server this many times at once. */
  readonly fanout?: number;
}

/** A faults file that cannot be used, with the line that says why. */
export class BadFaults extends TextError {}

/** Parse a faults file's text (bounded as a whole when it was read). */
export function parseFaults(text: string): ProxyFault[] {
  const faults: ProxyFault[] = [];
  for (const line of jsonLinesIn(text, { maxLines: MAX_FAULT_LINES })) {
    const where = { line: line.number };
    if ("problem" in line) {
      throw new BadFaults(
        line.problem === "tooMany"
          ? fill(FAULT_MESSAGES.tooManyFaults, { max: MAX_FAULT_LINES })
          : line.problem === "notJson"
          ? fill(FAULT_MESSAGES.faultNotJson, where)
          : fill(FAULT_MESSAGES.faultNotObject, where),
      );
    }
    const { value } = line;
    const fault: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "tool") {
        if (typeof v !== "string" || v === "") {
          throw new BadFaults(fill(FAULT_MESSAGES.faultTool, where));
        }
      } else if (k === "call") {
        if (!Number.isSafeInteger(v) || (v as number) < 1) {
          throw new BadFaults(fill(FAULT_MESSAGES.faultCall, where));
        }
      } else if (k === "drop_response" || k === "deliver_twice") {
        if (v !== true) {
          throw new BadFaults(
            fill(FAULT_MESSAGES.faultTrue, { ...where, field: k }),
          );
        }
      } else if (k === "delay_response_ms" || k === "cancel_after_ms") {
        if (
          !Number.isSafeInteger(v) || (v as number) < 0 ||
          (v as number) > MAX_DELAY_MS
        ) {
          throw new BadFaults(
            fill(FAULT_MESSAGES.faultMs, {
              ...where,
              field: k,
              max: MAX_DELAY_MS,
            }),
          );
        }
      } else if (k === "fanout") {
        if (
          !Number.isSafeInteger(v) || (v as number) < 2 ||
          (v as number) > MAX_FANOUT
        ) {
          throw new BadFaults(
            fill(FAULT_MESSAGES.faultFanout, { ...where, max: MAX_FANOUT }),
          );
        }
      } else {
        throw new BadFaults(
          fill(FAULT_MESSAGES.faultField, {
            ...where,
            field: JSON.stringify(k),
            names: FAULT_NAMES.join(", "),
          }),
        );
      }
      fault[k] = v;
    }
    if (fault.call === undefined) {
      throw new BadFaults(fill(FAULT_MESSAGES.faultCall, where));
    }
    if (!FAULT_NAMES.some((n) => n in fault)) {
      throw new BadFaults(
        fill(FAULT_MESSAGES.faultNone, {
          ...where,
          names: FAULT_NAMES.join(", "),
        }),
      );
    }
    faults.push(fault as unknown as ProxyFault);
  }
  return faults;
}

/** The faults for the `ofAll`-th call of the session, the `ofTool`-th of `tool`; several lines merge. */
export function faultsFor(
  faults: readonly ProxyFault[],
  tool: string,
  ofAll: number,
  ofTool: number,
): Omit<ProxyFault, "tool" | "call"> {
  const merged: Record<string, unknown> = {};
  for (const f of faults) {
    const hit = f.tool === undefined
      ? f.call === ofAll
      : f.tool === tool && f.call === ofTool;
    if (!hit) continue;
    for (const [k, v] of Object.entries(f)) {
      if (k !== "tool" && k !== "call") merged[k] = v;
    }
  }
  return merged;
}
