/**
 * Backpressure for `tools/call`: at most {@linkcode MAX_CALLS_IN_FLIGHT}
 * calls run at once, and the next one waits for a call to end instead of
 * being refused. The transport asks the gate before it hands a call on and
 * reads no further input while it waits, so the rest stays in the client's
 * pipe: every request is answered, and what the server holds stays bounded.
 *
 * A call held by a fault waits for the client's cancel, which is still in
 * that pipe: while it waits it lends its place back (at most
 * {@linkcode MAX_CALLS_HELD} at once), so the cancel can be read.
 *
 * @module
 */

/** At most this many `tools/call`s run at once; the next waits for one to end. */
export const MAX_CALLS_IN_FLIGHT = 16;

/** At most this many calls held by a fault lend their place while they wait. */
export const MAX_CALLS_HELD = 64;

/**
 * The count of calls in flight, and the one call waiting to start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CallGate } from "./_gate.ts";
 * const gate = new CallGate(1);
 * assert.equal(gate.admit(), undefined); // a place was free: taken
 * let started = false;
 * const next = gate.admit()!.then(() => (started = true));
 * gate.end(); // the first call ended: the next one takes its place
 * await next;
 * assert.equal(started, true);
 * ```
 */
export class CallGate {
  readonly #limit: number;
  readonly #heldLimit: number;
  #running = 0;
  #held = 0;
  /** Callers waiting for a place, oldest first (the transport keeps it to one). */
  readonly #waiting: (() => void)[] = [];

  /** A gate for `limit` calls at once, of which up to `heldLimit` may lend their place. */
  constructor(limit = MAX_CALLS_IN_FLIGHT, heldLimit = MAX_CALLS_HELD) {
    this.#limit = limit;
    this.#heldLimit = heldLimit;
  }

  /** Calls running now (held ones that lent their place not counted). */
  get running(): number {
    return this.#running;
  }

  /**
   * Take a place for one call: at once when one is free (nothing to await),
   * else a promise that settles when a call ends and this one has its place.
   */
  admit(): Promise<void> | undefined {
    if (this.#running < this.#limit && this.#waiting.length === 0) {
      this.#running++;
      return undefined;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** A call ended: its place goes to the oldest waiting call. */
  end(): void {
    this.#running--;
    this.#wake();
  }

  /**
   * A call starts waiting for the client: it lends its place, unless
   * {@linkcode MAX_CALLS_HELD} already do. Returns whether it did; a call
   * that lent its place calls {@linkcode reclaim} when the wait ends.
   */
  lend(): boolean {
    if (this.#held >= this.#heldLimit) return false;
    this.#held++;
    this.end();
    return true;
  }

  /** A held call goes on: it takes its place back, even past the limit for a moment. */
  reclaim(): void {
    this.#held--;
    this.#running++;
  }

  #wake(): void {
    while (this.#running < this.#limit && this.#waiting.length > 0) {
      this.#running++;
      this.#waiting.shift()!();
    }
  }
}
