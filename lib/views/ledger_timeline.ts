/**
 * What a ledger says happened, attempt by attempt: the timeline of every
 * receipt, each with its stage marks and what the commit point saw
 * (committed, reused, not reached). A draft whose committing attempt left no
 * receipt (a killed process, a failed audit, a naive receipt that claimed a
 * row it never wrote) is an attempt too, and is drawn as one: hiding it
 * would hide exactly what reconcile is for. Used by
 * `guardlab ledger --timeline`, e.g. after an agent's session over
 * `guardlab mcp`.
 *
 * The order is the order the attempts *started*. A receipt is written when
 * its attempt ends, so receipt numbers alone put a reuse before the commit
 * it reused whenever two calls overlapped. Over MCP each call is on record
 * with its session, its number and when it started and ended
 * (`mcp_calls`): those attempts are drawn by their start, each with the
 * calls it overlapped, and the read tools' calls (`ledger`, `reconcile`)
 * and `compensate` are drawn between them. An attempt with no such record
 * (made by `run` or `script`, one at a time) stands where its receipt was
 * written.
 *
 * @module
 */
import { joinTexts, type Lang, say, type Text } from "../base/i18n.ts";
import type { Attempt } from "../timing/attempt.ts";
import type { CallRow } from "../timing/ledger.ts";
import type { StopPoint } from "../timing/stages.ts";
import { wrap } from "../base/terminal.ts";
import {
  COMMIT_SHORT,
  LEDGER_CALL_MESSAGES as M,
  LEDGER_TIMELINE_MESSAGES,
  MARK_LABEL,
  SHORT_STAGE_LABEL,
  STAGE_LABEL,
  STATE_TEXTS,
} from "./_messages.ts";
import {
  PLAIN,
  type StageRow,
  type Style,
  SYMBOL,
  type Timeline,
  timelineOf,
} from "./timeline.ts";

/** At most this many attempts are drawn (the latest); the rest are counted. */
export const MAX_DRAWN_ATTEMPTS = 500;

/** One receipt row as the ledger holds it. */
export interface ReceiptFact {
  /** Attempt number. */
  attempt: number;
  /** Business key, or null. */
  job: string | null;
  /** Recorded status. */
  status: string;
  /** Whether the draft existed when the receipt was written. */
  effect_exists: boolean;
  /** The events up to the receipt. */
  events: readonly string[];
}

/** One MCP call on record: an `mcp_calls` row, as the ledger reads it. */
export type CallFact = CallRow;

/** Which MCP call something was, and the calls that ran beside it. */
export interface CallPlace {
  /** The session's number on the ledger. */
  session: number;
  /** The call's number in its session. */
  call: number;
  /**
   * The other calls it overlapped (started before it ended, ended after it
   * started), in order: the first {@linkcode MAX_OVERLAPS_KEPT} of them.
   */
  overlaps: {
    session: number;
    call: number;
    receipt: number | null;
    tool: string;
  }[];
  /** How many more it overlapped than are listed, when any. */
  more?: number;
}

/**
 * At most this many overlapping calls are kept beside one call; the rest
 * are counted ({@linkcode CallPlace.more}). A text view names fewer
 * ({@linkcode MAX_OVERLAPS_NAMED}).
 */
export const MAX_OVERLAPS_KEPT = 64;

/** One attempt on the ledger's timeline. */
export interface LedgerAttempt {
  /** The receipt's number, or null for a draft whose attempt left none. */
  receipt: number | null;
  /** Business key. */
  job: string | null;
  /** The receipt's status, or null when there is none. */
  status: string | null;
  /** The attempt, as the timeline view needs it. */
  attempt: Attempt;
  /** The stages, the commit point and what the ledger held afterwards. */
  timeline: Timeline;
  /** The MCP call it was, when one is on record. */
  by?: CallPlace;
}

/** An MCP call that wrote no receipt of the lab's: a read, or a compensation. */
export interface LedgerRead {
  /** The tool called. */
  tool: string;
  /** The business key it named, or null. */
  job: string | null;
  /** Which call it was. */
  by: CallPlace;
  /** How many of the drawn attempts come before it. */
  after: number;
}

/** The whole history of one ledger. */
export interface LedgerHistory {
  /**
   * Attempts in the order they started (see the module doc); without a
   * record of their start, by receipt number, each receipt-less one before
   * the first receipt of its key.
   */
  attempts: LedgerAttempt[];
  /** The other MCP calls, each placed among the attempts. */
  reads: LedgerRead[];
  /** The MCP sessions on record, by number, with the client each named. */
  sessions: { session: number; client: string }[];
  /** Attempts older than the ones drawn. */
  omitted: number;
  /** Compensations, by key. */
  compensations: { job: string; state: string; receipts: number }[];
}

function indexOf(events: readonly string[], name: string): number {
  return events.indexOf(name);
}

/** Where an attempt that was cancelled or failed stopped, read from its events. */
function stopPointOf(events: readonly string[]): StopPoint | undefined {
  if (events.includes("output_started")) return "output_check";
  if (events.includes("effect_committed") || events.includes("effect_reused")) {
    return "after_business";
  }
  if (events.includes("business_started")) return "inside_transaction";
  if (events.includes("arguments_valid")) return "before_business";
  return undefined;
}

/** The attempt a receipt records. */
export function attemptOfReceipt(r: ReceiptFact): Attempt {
  const events = r.events;
  const business = indexOf(events, "business_started");
  const parallel = events.includes("input_tripwire") ||
    (business >= 0 && indexOf(events, "input_allowed") > business);
  const stopped = r.status === "cancelled" || r.status === "error";
  const stoppedAt = stopped ? stopPointOf(events) : undefined;
  return {
    events,
    outcome: r.status === "cancelled"
      ? { kind: "raised", raised: "cancelled", message: "" }
      : {
        kind: "result",
        status: r.status,
        // Only an accepted result released a value; the receipt does not keep it.
        released: r.status === "accepted" ? {} : null,
      },
    draftExists: r.effect_exists,
    receiptAttempt: r.attempt,
    receiptStatus: r.status,
    ...(stoppedAt ? { stoppedAt } : {}),
    // The one rule a status names by itself (an input rejection does not
    // say which rule; the receipt keeps only the status).
    ...(r.status === "output_rejected" ? { refusal: "output_contract" } : {}),
    ...(parallel ? { inputGuardrail: "parallel" as const } : {}),
  };
}

/** The attempt that committed `job`'s draft and left no receipt. */
export function receiptlessAttempt(
  job: string,
): { attempt: Attempt; timeline: Timeline } {
  const events = [
    "arguments_valid",
    "business_started",
    "effect_committed",
  ];
  const attempt: Attempt = {
    events,
    outcome: { kind: "raised", raised: "no_receipt", message: "" },
    draftExists: true,
    receiptAttempt: null,
  };
  const row = (
    stage: StageRow["stage"],
    mark: StageRow["mark"],
    note: Text | null,
  ): StageRow => ({ stage, mark, note });
  const timeline: Timeline = {
    before: [
      row("arguments", "passed", LEDGER_TIMELINE_MESSAGES.validArguments(job)),
      row("input", "unknown", LEDGER_TIMELINE_MESSAGES.unknownInput),
      row("business", "passed", LEDGER_TIMELINE_MESSAGES.draftRowExists),
    ],
    commit: "committed",
    after: [
      row("output", "unknown", LEDGER_TIMELINE_MESSAGES.unknownInput),
      row("receipt", "failed", LEDGER_TIMELINE_MESSAGES.receiptMissing),
    ],
    state: {
      draft: true,
      receipt: STATE_TEXTS.noReceipt,
      caller: STATE_TEXTS.unknownCaller,
    },
  };
  return { attempt, timeline };
}

/** An attempt before it is drawn: what places it, and the row it draws from. */
interface Placed {
  /** The receipt's number, or null for a draft whose attempt left none. */
  receipt: number | null;
  /** Business key. */
  job: string | null;
  /** The receipt's row, or null. */
  row: ReceiptFact | null;
  /** The MCP call it was, when one is on record. */
  fact?: CallFact;
}

/** `p` drawn: its attempt and timeline made now, for an attempt that is kept. */
function drawn(p: Placed, by?: CallPlace): LedgerAttempt {
  const place = by === undefined ? {} : { by };
  if (p.row === null) {
    return {
      receipt: null,
      job: p.job,
      status: null,
      ...receiptlessAttempt(p.job!),
      ...place,
    };
  }
  const attempt = attemptOfReceipt(p.row);
  return {
    receipt: p.row.attempt,
    job: p.row.job,
    status: p.row.status,
    attempt,
    timeline: timelineOf(attempt),
    ...place,
  };
}

/**
 * The history of a ledger from its rows: every receipt as an attempt, and
 * for each draft that no receipt shows being committed, one attempt without
 * a receipt, placed before the first receipt of its key (the commit came
 * before any reuse); then, where `calls` records them, in the order the
 * attempts started, with the reads among them (see the module doc). Only
 * the attempts drawn (the latest {@linkcode MAX_DRAWN_ATTEMPTS}) are made
 * into timelines, and only their calls are placed among the others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyOf } from "./ledger_timeline.ts";
 * const h = historyOf(
 *   [{ attempt: 1, job: "JOB-001", status: "accepted", effect_exists: true,
 *      events: ["arguments_valid", "input_allowed", "business_started",
 *               "effect_reused", "output_started", "output_allowed"] }],
 *   ["JOB-001"],
 *   [],
 * );
 * // The draft was committed by an attempt that left no receipt.
 * assert.deepEqual(h.attempts.map((a) => a.receipt), [null, 1]);
 * ```
 */
export function historyOf(
  receipts: readonly ReceiptFact[],
  draftJobs: readonly string[],
  compensations: { job: string; state: string; receipts: number }[],
  calls: readonly CallFact[] = [],
  sessions: readonly { session: number; client: string }[] = [],
): LedgerHistory {
  const committedOnRecord = new Set(
    receipts.filter((r) =>
      r.job !== null && r.events.includes("effect_committed")
    )
      .map((r) => r.job!),
  );
  const missing = new Set(draftJobs.filter((j) => !committedOnRecord.has(j)));
  const all: Placed[] = [];
  const placed = new Set<string>();
  const placeMissing = (job: string) => {
    if (!missing.has(job) || placed.has(job)) return;
    placed.add(job);
    all.push({ receipt: null, job, row: null });
  };
  for (const r of receipts) {
    if (r.job !== null) placeMissing(r.job);
    all.push({ receipt: r.attempt, job: r.job, row: r });
  }
  // Drafts with no receipt at all: their order is unknown, so last.
  for (const job of [...missing].sort()) placeMissing(job);
  const { attempts, reads, placed: order } = inOrderStarted(all, calls);
  const omitted = Math.max(0, attempts.length - MAX_DRAWN_ATTEMPTS);
  const kept = attempts.slice(omitted);
  const keptReads = reads.filter((r) => r.after >= omitted);
  const placeOf = placesOf(order, [
    ...kept.flatMap((a) => a.fact ? [a.fact] : []),
    ...keptReads.map((r) => r.fact),
  ]);
  return {
    attempts: kept.map((a) => drawn(a, a.fact && placeOf.get(a.fact))),
    reads: keptReads.map((r) => ({
      tool: r.fact.tool,
      job: r.fact.job,
      by: placeOf.get(r.fact)!,
      after: r.after - omitted,
    })),
    sessions: sessions.map((s) => ({ session: s.session, client: s.client })),
    omitted,
    compensations,
  };
}

/** At most this many overlapping calls are named beside one (the rest are counted). */
export const MAX_OVERLAPS_NAMED = 5;

/**
 * `base` (in receipt order) reordered by when each attempt started, where
 * `calls` says, each with its call, and the calls that wrote no receipt
 * placed among them (`after`: how many attempts come before one); `placed`
 * is every call so placed, in that order.
 */
function inOrderStarted(
  base: Placed[],
  calls: readonly CallFact[],
): {
  attempts: Placed[];
  reads: { fact: CallFact; after: number }[];
  placed: CallFact[];
} {
  if (calls.length === 0) return { attempts: base, reads: [], placed: [] };
  const byReceipt = new Map<number, CallFact>();
  const receiptless = new Map<string, CallFact>();
  const others: CallFact[] = [];
  for (const c of calls) {
    if (c.tool === "create_draft") {
      if (c.receipt !== null) {
        if (!byReceipt.has(c.receipt)) byReceipt.set(c.receipt, c);
      } else if (c.job !== null && !receiptless.has(c.job)) {
        receiptless.set(c.job, c);
      }
    } else others.push(c);
  }
  // Each entry's start: its call's, or (with none on record) the latest end
  // among the recorded calls whose receipts came before it.
  type Entry = { key: number; rank: number; fact?: CallFact; at?: Placed };
  const entries: Entry[] = [];
  let latestEnd = -Infinity;
  base.forEach((at, rank) => {
    const fact = at.receipt !== null
      ? byReceipt.get(at.receipt)
      : at.job === null
      ? undefined
      : receiptless.get(at.job);
    if (fact) latestEnd = Math.max(latestEnd, fact.ended_us);
    entries.push({ key: fact ? fact.started_us : latestEnd, rank, fact, at });
  });
  for (const fact of others) {
    entries.push({ key: fact.started_us, rank: base.length, fact });
  }
  entries.sort((a, b) =>
    a.key - b.key || a.rank - b.rank ||
    (a.fact?.session ?? 0) - (b.fact?.session ?? 0) ||
    (a.fact?.call ?? 0) - (b.fact?.call ?? 0)
  );
  const attempts: Placed[] = [];
  const reads: { fact: CallFact; after: number }[] = [];
  for (const e of entries) {
    if (e.at) attempts.push(e.fact ? { ...e.at, fact: e.fact } : e.at);
    else if (e.fact) reads.push({ fact: e.fact, after: attempts.length });
  }
  return {
    attempts,
    reads,
    placed: entries.flatMap((e) => e.fact ? [e.fact] : []),
  };
}

/**
 * The place of each of `wanted` among the `calls` placed (in the order
 * they were placed): the calls it overlapped, the first
 * {@linkcode MAX_OVERLAPS_KEPT} by session and number, and how many more.
 * One pass over the calls for each call wanted (a view wants the calls of
 * the attempts it draws): what is held does not grow with the calls, and
 * however many overlap, the work is bounded.
 */
function placesOf(
  calls: readonly CallFact[],
  wanted: readonly CallFact[],
): Map<CallFact, CallPlace> {
  const sorted = [...calls].sort((a, b) => a.started_us - b.started_us);
  const rank = new Map(sorted.map((f, i) => [f, i]));
  const places = new Map<CallFact, CallPlace>();
  for (const a of wanted) {
    if (places.has(a)) continue;
    const at = rank.get(a)!;
    const overlaps: CallPlace["overlaps"] = [];
    let count = 0;
    sorted.forEach((b, i) => {
      if (i === at) return;
      // Of two calls, the one sorted first overlaps the other when the
      // other started before it ended.
      const [first, second] = i < at ? [b, a] : [a, b];
      if (second.started_us >= first.ended_us) return;
      count++;
      keepFirst(overlaps, {
        session: b.session,
        call: b.call,
        receipt: b.receipt,
        tool: b.tool,
      });
    });
    const more = count - overlaps.length;
    places.set(a, {
      session: a.session,
      call: a.call,
      overlaps,
      ...(more > 0 ? { more } : {}),
    });
  }
  return places;
}

/**
 * Put `o` in `list` (sorted by session, then call) if it is among the first
 * {@linkcode MAX_OVERLAPS_KEPT}.
 */
function keepFirst(
  list: CallPlace["overlaps"],
  o: CallPlace["overlaps"][number],
): void {
  const before = (x: typeof o) => x.session - o.session || x.call - o.call;
  let i = list.length;
  while (i > 0 && before(list[i - 1]) > 0) i--;
  if (i >= MAX_OVERLAPS_KEPT) return;
  list.splice(i, 0, o);
  if (list.length > MAX_OVERLAPS_KEPT) list.pop();
}

/**
 * The heading of one attempt: its receipt, key, status and what the commit
 * point saw, then which MCP call it was, when that is on record.
 */
export function attemptTitle(a: LedgerAttempt, lang: Lang): string {
  const job = a.job ?? say(LEDGER_TIMELINE_MESSAGES.noJob, lang);
  const commit = COMMIT_SHORT[a.timeline.commit];
  const title = a.receipt === null
    ? say(LEDGER_TIMELINE_MESSAGES.noReceiptTitle(job, commit), lang)
    : `#${a.receipt}  ${job}  ${a.status}  ${say(commit, lang)}`;
  return a.by === undefined
    ? title
    : `${title}  ${say(M.place(a.by.session, a.by.call), lang)}`;
}

/** The heading of a call that wrote no receipt of the lab's. */
function readTitle(r: LedgerRead, lang: Lang): string {
  const what = r.job === null ? r.tool : `${r.tool} ${r.job}`;
  return say(
    M.readTitle(
      what,
      r.tool !== "compensate",
      M.place(r.by.session, r.by.call),
    ),
    lang,
  );
}

/** The line naming the calls `by` overlapped, or none. */
function overlapLines(by: CallPlace | undefined, lang: Lang): string[] {
  if (by === undefined || by.overlaps.length === 0) return [];
  const named = by.overlaps.slice(0, MAX_OVERLAPS_NAMED).map((o) =>
    M.overlapped(
      o.session === by.session ? null : o.session,
      o.call,
      o.receipt === null ? o.tool : `#${o.receipt}`,
    )
  );
  const more = by.overlaps.length + (by.more ?? 0) - named.length;
  return wrap(say(M.overlaps(joinTexts(named, M.separator), more), lang), 80);
}

/** The marks of one attempt on one line (wrapped within 80 columns), the commit point as `|`. */
function marksLine(t: Timeline, style: Style, lang: Lang): string[] {
  // A parallel input guardrail is named as the run names it (its label).
  const mark = (r: StageRow) =>
    `${say(r.label ?? SHORT_STAGE_LABEL[r.stage], lang)} ${
      style.mark(r.mark, SYMBOL[r.mark])
    }`;
  const line = `    ${t.before.map(mark).join(" > ")} ${style.divider("|")} ${
    t.after.map(mark).join(" > ")
  }`;
  return wrap(line, 80);
}

/** The notes of one attempt worth reading (a refusal, a cancel after commit, a missing receipt). */
function notesOf(t: Timeline, lang: Lang): string[] {
  return [...t.before, ...t.after]
    .filter((r) => r.note !== null && r.mark !== "passed")
    .flatMap((r) =>
      wrap(
        say(
          // After the commit, and for a missing receipt, the note says the
          // stage and what happened itself: no label before it.
          r.stage === "after_commit" ||
            r.note === LEDGER_TIMELINE_MESSAGES.receiptMissing
            ? LEDGER_TIMELINE_MESSAGES.noteAlone(r.note!)
            : LEDGER_TIMELINE_MESSAGES.note(
              r.label ?? STAGE_LABEL[r.stage],
              MARK_LABEL[r.mark],
              r.note!,
            ),
          lang,
        ),
        80,
      )
    );
}

/** The history as lines of text, in `lang`, at most 80 columns wide. */
export function renderHistory(
  h: LedgerHistory,
  style: Style = PLAIN,
  lang: Lang = "en",
): string[] {
  const lines: string[] = [];
  const receipts = h.attempts.filter((a) => a.receipt !== null).length;
  const without = h.attempts.length - receipts;
  lines.push(...wrap(
    say(
      LEDGER_TIMELINE_MESSAGES.attemptsInOrder(
        h.attempts.length,
        receipts,
        without,
      ),
      lang,
    ),
    80,
  ));
  // The legend, from the same tables the marks come from.
  const legend = (marks: readonly (keyof typeof SYMBOL)[]) =>
    marks.map((m) => `${SYMBOL[m]} ${say(MARK_LABEL[m], lang)}`).join("  ");
  lines.push(
    `  | ${say(LEDGER_TIMELINE_MESSAGES.commitPoint, lang)}  ${
      legend(["passed", "refused", "failed", "cancelled"])
    }`,
    `  ${legend(["in parallel", "not reached", "unknown"])}`,
  );
  if (
    h.sessions.length > 0 || h.reads.length > 0 ||
    h.attempts.some((a) => a.by !== undefined)
  ) {
    lines.push(...wrap(say(M.legend, lang), 80));
    for (const s of h.sessions) {
      lines.push(...wrap(say(M.session(s.session, s.client), lang), 80));
    }
  }
  if (h.omitted > 0) {
    lines.push(say(LEDGER_TIMELINE_MESSAGES.omitted(h.omitted), lang));
  }
  const readsAfter = (n: number) =>
    h.reads.filter((r) => r.after === n).flatMap((r) => [
      ...wrap(readTitle(r, lang), 80),
      ...overlapLines(r.by, lang),
    ]);
  h.attempts.forEach((a, n) => {
    lines.push(...readsAfter(n));
    lines.push(...wrap(attemptTitle(a, lang), 80));
    lines.push(...marksLine(a.timeline, style, lang));
    lines.push(...notesOf(a.timeline, lang));
    lines.push(...overlapLines(a.by, lang));
  });
  lines.push(...readsAfter(h.attempts.length));
  for (const c of h.compensations) {
    lines.push(say(
      c.state === "voided"
        ? LEDGER_TIMELINE_MESSAGES.compensationVoided(c.job, c.receipts > 0)
        : LEDGER_TIMELINE_MESSAGES.compensationRequested(c.job),
      lang,
    ));
  }
  return lines;
}
