/**
 * One case's record as `accept host` plays it: the model, the tool and
 * the host's process each add what happened, stamped with the time since
 * the case began, into one history. Bounded: past
 * {@linkcode MAX_HOST_RECORDS} a record is counted, not kept, unless it is
 * one the checker cannot do without (the plan, the host's own start and
 * end, the ledger's count at the end).
 *
 * @module
 */
import { inert } from "../base/terminal.ts";
import { MAX_HOST_RECORDS } from "./limits.ts";
import {
  HISTORY_VERSION,
  type HostHistory,
  type HostRecord,
} from "./_host_history.ts";
import { tenths } from "./_history.ts";

/** A record as it is handed in: its time is the log's. */
export type Unstamped<R> = R extends HostRecord ? Omit<R, "at_ms"> : never;

/** A text a host sent, kept inert and at most `max` characters (a longer one ends in "…"). */
export function cutText(text: string, max: number): string {
  const chars = [...text];
  const kept = chars.length > max
    ? chars.slice(0, max - 1).join("") + "…"
    : text;
  return inert(kept);
}

/** One case's history as it is recorded. */
export class HostLog {
  readonly #start = performance.now();
  readonly #records: HostRecord[] = [];
  #dropped = 0;

  /** Milliseconds since the case began, to a tenth. */
  now(): number {
    return tenths(performance.now() - this.#start);
  }

  /** Add `record`, stamped now; past the bound, only an essential one is kept. */
  record(record: Unstamped<HostRecord>): void {
    const essential = record.op === "plan" || record.op === "read" ||
      (record.op === "process" && record.who === "host");
    if (!essential && this.#records.length >= MAX_HOST_RECORDS) {
      this.#dropped++;
      return;
    }
    this.#records.push({ ...record, at_ms: this.now() } as HostRecord);
  }

  /** The records so far, in order. */
  get records(): readonly HostRecord[] {
    return this.#records;
  }

  /** The history so far. */
  history(): HostHistory {
    return {
      version: HISTORY_VERSION,
      subject: "agent-host",
      epoch_ms: tenths(performance.timeOrigin + this.#start),
      records: [...this.#records],
      ...(this.#dropped > 0 ? { dropped: this.#dropped } : {}),
    };
  }
}
