/**
 * Reconciliation: the keys whose effect exists but whose outcome was never
 * accepted on record, and the safe next step for each. The drafts are read
 * a batch of keys at a time, in key order (`_ledger_reads.ts`): what is
 * held is one batch and the keys a view shows, never the ledger, and a
 * signal ends the walk between batches.
 *
 * @module
 */
import { COPIES_RANGE, type ToolArgs, TOPICS } from "./args.ts";
import type { Ledger, ListedKey } from "./ledger.ts";
import { canonicalJson } from "../base/json.ts";
import { digestOfCanonical } from "../store/wire.ts";
import { exitOnSignal } from "../base/exit_hooks.ts";
import { watchWhenLarge } from "./_key_ranges.ts";

/** One key that needs attention. */
export interface Pending {
  /** Business key. */
  job: string;
  /**
   * `unaccepted`: the effect is there and no receipt says accepted;
   * `compensation_requested`: a compensation was asked for and never
   * confirmed; `voided`: compensated and on record (settled, shown for
   * completeness).
   */
  state: "unaccepted" | "compensation_requested" | "voided";
  /** Its receipts so far (possibly none: effect present, receipt missing). */
  receipts: { attempt: number; status: string }[];
  /** The arguments whose digest is the stored one, or null if none is valid. */
  retry: ToolArgs | null;
  /** The safe next step. */
  next: "retry_same_arguments" | "compensate_again" | "none";
  /** For a voided key: whether the compensation's own receipt exists. */
  compensationReceipt?: boolean;
}

/** Whether `p` needs a person: everything but a settled void. */
export function needsAttention(p: Pending): boolean {
  return p.state !== "voided";
}

const [FEWEST, MOST] = COPIES_RANGE;

/**
 * Every valid request but its key, as the two ends of its canonical text
 * (`{"copies":N,"job":` … `,"topic":"T"}`, the keys in canonical order):
 * made once, so a key's candidates cost one hash each and nothing else.
 */
const CANDIDATES = TOPICS.flatMap((topic) =>
  Array.from({ length: MOST - FEWEST + 1 }, (_, i) => {
    const copies = FEWEST + i;
    return {
      topic,
      copies,
      head: `{"copies":${canonicalJson(copies)},"job":`,
      tail: `,"topic":${canonicalJson(topic)}}`,
    };
  })
);

/** What a digest looks like: 64 lowercase hex digits (anything else matches no request). */
const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The arguments that created a draft, found from what the ledger holds: the
 * one valid candidate for `job` whose digest equals the stored `digest`.
 * Nothing is parsed out of the draft's text. `null` when none matches (a
 * hand-edited row). Each candidate is hashed once, from its canonical text
 * put together from parts made once (the same text `fingerprint` hashes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argsForDigest } from "./reconcile.ts";
 * import { fingerprint } from "../store/wire.ts";
 * const args = { job: "JOB-002", topic: "forest", copies: 3 } as const;
 * assert.deepEqual(argsForDigest("JOB-002", fingerprint(args)), args);
 * assert.equal(argsForDigest("JOB-002", "not a digest"), null);
 * ```
 */
export function argsForDigest(job: string, digest: string): ToolArgs | null {
  if (!DIGEST.test(digest)) return null;
  const key = canonicalJson(job);
  for (const { topic, copies, head, tail } of CANDIDATES) {
    if (digestOfCanonical(head + key + tail) === digest) {
      return { job, topic, copies };
    }
  }
  return null;
}

/** What reconciling a ledger found, and what of it a view took. */
export interface Reconciliation {
  /** The keys listed, in key order, as far as the view took them. */
  shown: Pending[];
  /** How many keys are listed in all. */
  listed: number;
  /** How many of them need a person ({@linkcode needsAttention}). */
  open: number;
}

/** How a view takes what reconciliation lists. */
export interface ReconcileOptions {
  /**
   * Whether the view shows `p` (and counts it as shown). The first key it
   * does not show ends the showing: the keys after it are only counted,
   * their receipts never read and no digest worked out for them.
   */
  show?: (p: Pending) => boolean;
  /** The most keys the view could show: no more are read for it. */
  maxShown?: number;
  /**
   * The most receipts of listed keys held at once. A key whose receipts
   * would pass it is not shown either; a view passes the most its bound
   * could show, so no key it could show is left out.
   */
  maxHeldReceipts?: number;
  /** For tests: a smaller bound on the keys SQLite holds at once (`Ledger.keyRanges`). */
  maxRangeChars?: number;
}

/**
 * Reconcile the ledger: every draft without an `accepted` receipt, and
 * every compensated one, in key order, each with its receipts and the
 * request that made it, taken by the view while it shows them
 * ({@linkcode ReconcileOptions}); and how many keys are listed, and how
 * many need a person, counted over every draft. The drafts are read a
 * range of keys at a time (`Ledger.keyRanges`); SQLite reads the receipts
 * once for each range, and once more for the receipts of the keys a range
 * shows.
 */
export function reconcileLedger(
  ledger: Ledger,
  options: ReconcileOptions = {},
): Reconciliation {
  const { show = () => true, maxShown, maxHeldReceipts, maxRangeChars } =
    options;
  watchWhenLarge(ledger.countDrafts() + ledger.countReceipts());
  const shown: Pending[] = [];
  let listed = 0;
  let open = 0;
  let showing = true;
  for (const range of ledger.keyRanges(false, maxRangeChars)) {
    // While the view shows keys, the first of this range that it could
    // show (no more than its bound holds); after, a count.
    const limit = showing ? Math.min(maxShown ?? Infinity, range.count) : 0;
    const found = ledger.reconcileRange(range, limit);
    listed += found.listed;
    open += found.listed - found.voided;
    if (showing && found.first.length > 0) {
      showing = showKeys(ledger, found.first, shown, show, maxHeldReceipts) &&
        found.first.length === found.listed;
    }
    exitOnSignal();
  }
  return { shown, listed, open };
}

/**
 * The listed `keys` of one range as {@linkcode Pending}, put in `shown`
 * while the view takes them; whether it took them all.
 */
function showKeys(
  ledger: Ledger,
  keys: readonly ListedKey[],
  shown: Pending[],
  show: (p: Pending) => boolean,
  maxHeld?: number,
): boolean {
  const jobs = keys.map((k) => k.job);
  const { lists, dropped } = ledger.receiptsByKey(jobs, maxHeld);
  const voided = keys.filter((k) => k.state === "voided").map((k) => k.job);
  const voidReceipts = voided.length === 0
    ? new Map<string, number>()
    : ledger.compensationReceiptsOf(voided);
  for (const { job, digest, state } of keys) {
    if (dropped.has(job)) return false;
    const receipts = lists.get(job) ?? [];
    const retry = argsForDigest(job, digest);
    const p: Pending = state === "voided"
      ? {
        job,
        state: "voided",
        receipts,
        retry,
        next: "none",
        compensationReceipt: (voidReceipts.get(job) ?? 0) > 0,
      }
      : state === "requested"
      ? {
        job,
        state: "compensation_requested",
        receipts,
        retry,
        next: "compensate_again",
      }
      : {
        job,
        state: "unaccepted",
        receipts,
        retry,
        next: "retry_same_arguments",
      };
    if (!show(p)) return false;
    shown.push(p);
  }
  return true;
}

/**
 * Every draft without an `accepted` receipt, ordered by job (all of them:
 * a view bounds what it shows with {@linkcode reconcileLedger}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab, pendingKeys } from "../mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * await lab.run({ job: "JOB-001", topic: "river", copies: 2 }, { badOutput: true });
 * const [pending] = pendingKeys(lab.ledger);
 * assert.equal(pending.job, "JOB-001");
 * assert.deepEqual(pending.retry, { job: "JOB-001", topic: "river", copies: 2 });
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function pendingKeys(ledger: Ledger): Pending[] {
  return reconcileLedger(ledger).shown;
}
