/**
 * The checker judged on histories written by hand: no server, no run.
 * Each history below is what a server could have done, written record by
 * record, with the verdict it must get; the last test holds that every
 * verdict name of lib/accept/cases.ts is reached by one of them (as the
 * verdict, or as information beside it).
 */
import assert from "node:assert/strict";
import {
  type CaseName,
  HOST_INFO,
  HOST_VERDICTS,
  type Verdict,
  VERDICTS,
} from "../../lib/accept/cases.ts";
import { judgeCase, type JudgedRow } from "../../lib/accept/_checker.ts";
import type {
  CaseHistory,
  HistoryAnswer,
  HistoryRecord,
} from "../../lib/accept/_history.ts";

/** A record before its time is given. */
type Rec = HistoryRecord extends infer R
  ? R extends unknown ? Omit<R, "at_ms"> : never
  : never;

/** A history of `records`, each a millisecond after the one before. */
function history(...records: Rec[]): CaseHistory {
  return {
    version: 1,
    subject: "mcp-server",
    records: records.map((r, i) => ({ ...r, at_ms: i }) as HistoryRecord),
  };
}

const OK: HistoryAnswer = { outcome: "ok", text: "written" };
const TOOL_ERROR: HistoryAnswer = {
  outcome: "error",
  error: "tool",
  text: "already exists",
};
const RPC_ERROR: HistoryAnswer = {
  outcome: "error",
  error: "rpc",
  text: "Invalid params",
};
const NONE: HistoryAnswer = { outcome: "none" };
const UNKNOWN: HistoryAnswer = { outcome: "unknown" };

/** Client call `n` under `key`, answered `answer`. */
function call(
  n: number,
  answer: HistoryAnswer = OK,
  more: { key?: string | null; retry?: true; process?: number } = {},
): Rec {
  return {
    op: "call",
    call: n,
    tool: "put_note",
    arguments: { id: more.key ?? "k-1", text: "t" },
    key: more.key === undefined ? "k-1" : more.key,
    ...(more.retry ? { retry: true } : {}),
    ...(more.process === undefined ? {} : { process: more.process }),
    answer,
  } as Rec;
}

/** A read by key that counted `count`. */
function read(
  count: number | null,
  more: { key?: string; other?: true; in_flight?: true; process?: number } = {},
): Rec {
  return {
    op: "read",
    tool: "get_notes",
    key: more.key ?? "k-1",
    count,
    ...more,
  } as Rec;
}

const withhold = (n: number) =>
  ({ op: "fault", fault: "withhold", call: n }) as const;
const start = (process: number) =>
  ({ op: "process", event: "start", process }) as const;
const startFailed = (process: number) =>
  ({ op: "process", event: "start-failed", process }) as const;
const close = (process: number) =>
  ({ op: "process", event: "close", process }) as const;
const kill = (process: number) =>
  ({ op: "fault", fault: "kill", process }) as const;
const cancel = (sent: boolean) =>
  ({
    op: "fault",
    fault: "cancel",
    call: 1,
    sent,
    after_ms: 1,
    from: "measured",
    median_ms: 2.2,
  }) as const;

/** A lost answer, a read, the retry, a read: the shape of lost-reply-retry. */
function lostThenRetried(
  before: number | null,
  retry: HistoryAnswer,
  after: number | null,
): Rec[] {
  return [
    withhold(1),
    call(1),
    read(before),
    call(2, retry, { retry: true }),
    read(after),
  ];
}

/** N calls with distinct keys answered `answers`, then one read per key counting `counts`. */
function distinct(
  answers: HistoryAnswer[],
  counts: (number | null)[],
): Rec[] {
  return [
    ...answers.map((a, i) => call(i + 1, a, { key: `k-${i + 1}` })),
    ...counts.map((c, i) => read(c, { key: `k-${i + 1}` })),
  ];
}

/** A history of an HTTP API's endpoint: as {@linkcode history}, its subject `http-api`. */
function httpHistory(...records: Rec[]): CaseHistory {
  return { ...history(...records), subject: "http-api" };
}

/** What the oracle declared of the contract, as the case recorded it. */
function contract(c: Omit<Extract<Rec, { op: "contract" }>, "op">): Rec {
  return { op: "contract", ...c } as Rec;
}

/** A digest that stands for answer `name`'s body: two answers with one are the same answer. */
function digestOf(name: string): string {
  return "sha256:" + [...name].map((c) => c.charCodeAt(0).toString(16))
    .join("").padEnd(64, "0").slice(0, 64);
}

/** `answer` with the digest of body `name`. */
function digested(answer: HistoryAnswer, name: string): HistoryAnswer {
  return { ...answer, digest: digestOf(name) };
}

/** An HTTP API's response: `status`, and the digest of body `name`. */
function http(status: number, name: string): HistoryAnswer {
  return status >= 200 && status < 300
    ? { outcome: "ok", status, digest: digestOf(name) }
    : { outcome: "error", error: "http", status, digest: digestOf(name) };
}

/** The copy refused while the first is in flight: a JSON-RPC error with code -32010. */
const IN_FLIGHT: HistoryAnswer = {
  outcome: "error",
  error: "rpc",
  code: -32010,
  text: "in progress: retry",
};

/** Call 1 sent without its key, answered `answer`. */
function keyless(answer: HistoryAnswer): Rec {
  return { ...call(1, answer), keyless: true } as Rec;
}

interface Example {
  readonly name: string;
  readonly case: CaseName;
  readonly history: CaseHistory;
  readonly earlier?: readonly JudgedRow[];
  readonly verdict: Verdict;
  readonly info?: readonly Verdict[];
}

const EXAMPLES: readonly Example[] = [
  {
    name: "one call, one effect, success",
    case: "once",
    history: history(call(1), read(1)),
    verdict: "ONCE",
  },
  {
    name: "one call answered success, nothing under the key",
    case: "once",
    history: history(call(1), read(0)),
    verdict: "NONE",
  },
  {
    name: "one call, two effects",
    case: "once",
    history: history(call(1), read(2)),
    verdict: "DUPLICATED",
  },
  {
    name: "one effect, the client told it failed",
    case: "once",
    history: history(call(1, TOOL_ERROR), read(1)),
    verdict: "FALSE-FAILURE",
  },
  {
    name: "the bad call refused, nothing written",
    case: "rejected",
    history: history(call(1, TOOL_ERROR), read(0)),
    verdict: "NO-EFFECT",
  },
  {
    name: "the bad call refused after its write",
    case: "rejected",
    history: history(call(1, RPC_ERROR), read(1)),
    verdict: "EFFECT-DESPITE-REJECTION",
  },
  {
    name: "the bad call answered success, and written",
    case: "rejected",
    history: history(call(1), read(1)),
    verdict: "ACCEPTED-BAD-CALL",
  },
  {
    // task-orchestrator's {"success": false, …} with no isError: before,
    // ACCEPTED-BAD-CALL, which said it took the arguments.
    name: "the bad call refused in words only (no isError), nothing written",
    case: "rejected",
    history: history(
      call(1, {
        outcome: "ok",
        text: '{"success":false,"message":"CHECK constraint failed"}',
      }),
      read(0),
    ),
    verdict: "REFUSAL-AS-SUCCESS",
  },
  {
    name: "the same refusal, with the oracle's refusal mark: a refusal",
    case: "rejected",
    history: history(
      call(1, {
        outcome: "error",
        error: "marked",
        text: '{"success":false,"message":"CHECK constraint failed"}',
      }),
      read(0),
    ),
    verdict: "NO-EFFECT",
  },
  {
    // dbhub echoes its SELECT: before, DUPLICATED on a single write.
    name: "a read that counts a key no call had used, before any call",
    case: "once",
    history: history(
      { ...read(1), fresh: true, text: "SELECT … WHERE id = 'k-1'" } as Rec,
      call(1),
      read(2),
    ),
    verdict: "NOT-JUDGED",
  },
  {
    name: "the fresh read counted 0: the count stands",
    case: "once",
    history: history({ ...read(0), fresh: true } as Rec, call(1), read(1)),
    verdict: "ONCE",
  },
  {
    // A read tool that errors on a key it has never seen (memory-bank's
    // read of a file that does not exist): no echo, nothing to fail.
    name: "the fresh read could not count: the count stands",
    case: "once",
    history: history({ ...read(null), fresh: true } as Rec, call(1), read(1)),
    verdict: "ONCE",
  },
  {
    name: "no bad call in the oracle",
    case: "rejected",
    history: history({ op: "skip", reason: "no-arguments" }),
    verdict: "NOT-RUN",
  },
  {
    name: "a retry after a lost answer, reused",
    case: "lost-reply-retry",
    history: history(...lostThenRetried(1, OK, 1)),
    verdict: "ONCE",
  },
  {
    name: "a retry after a lost answer, written again",
    case: "lost-reply-retry",
    history: history(...lostThenRetried(1, OK, 2)),
    verdict: "DUPLICATED",
  },
  {
    name: "a cancel sent, the effect there all the same",
    case: "cancel-after-send",
    history: history(
      withhold(1),
      call(1, { outcome: "cancelled" }),
      cancel(true),
      read(1),
      call(2, OK, { retry: true }),
      read(1),
    ),
    verdict: "ONCE",
    info: ["EFFECT-DESPITE-CANCEL"],
  },
  {
    name: "the answer came before the cancel was due",
    case: "cancel-after-send",
    history: history(
      withhold(1),
      call(1),
      cancel(false),
      read(1),
      call(2, OK, { retry: true }),
      read(1),
    ),
    verdict: "ONCE",
    info: ["CANCEL-TOO-LATE"],
  },
  {
    name: "N calls at once, all kept",
    case: "concurrent-distinct",
    history: history(...distinct([OK, OK, OK], [1, 1, 1])),
    verdict: "ALL-KEPT",
  },
  {
    name: "N calls at once, a success lost",
    case: "concurrent-distinct",
    history: history(...distinct([OK, OK, OK], [1, 0, 1])),
    verdict: "LOST",
  },
  {
    name: "N calls at once, one refused and it left nothing",
    case: "concurrent-distinct",
    history: history(...distinct([OK, TOOL_ERROR, OK], [1, 0, 1])),
    verdict: "SOME-REFUSED",
  },
  {
    name: "N identical calls, one effect, one told it failed",
    case: "concurrent-same",
    history: history(call(1), call(2, TOOL_ERROR), call(3), read(1)),
    verdict: "FALSE-FAILURE",
  },
  {
    name: "the same key with other arguments, refused",
    case: "same-key-other-arguments",
    history: history(
      call(1),
      read(1),
      read(0, { other: true }),
      call(2, TOOL_ERROR),
      read(1),
      read(0, { other: true }),
    ),
    verdict: "CONFLICT-REPORTED",
  },
  {
    name: "the same key with other arguments, answered success, ignored",
    case: "same-key-other-arguments",
    history: history(
      call(1),
      read(1),
      read(0, { other: true }),
      call(2),
      read(1),
      read(0, { other: true }),
    ),
    verdict: "SILENT-CONFLICT",
  },
  {
    name: "the same key with other arguments, the first replaced",
    case: "same-key-other-arguments",
    history: history(
      call(1),
      read(1),
      read(0, { other: true }),
      call(2),
      read(1),
      read(1, { other: true }),
    ),
    verdict: "OVERWRITTEN",
  },
  {
    name: "two processes over one store, a success lost",
    case: "two-processes",
    history: history(
      start(1),
      start(2),
      call(1, OK, { key: "k-1", process: 1 }),
      call(2, OK, { key: "k-2", process: 2 }),
      close(1),
      close(2),
      start(3),
      read(0, { key: "k-1", process: 3 }),
      read(1, { key: "k-2", process: 3 }),
    ),
    verdict: "LOST",
  },
  {
    name: "a kill after the read saw the effect, gone after the restart",
    case: "crash-after-commit",
    history: history(
      start(1),
      withhold(1),
      call(1, UNKNOWN, { process: 1 }),
      read(0, { in_flight: true, process: 1 }),
      read(1, { in_flight: true, process: 1 }),
      kill(1),
      start(2),
      read(0, { process: 2 }),
      call(2, OK, { retry: true, process: 2 }),
      read(1, { process: 2 }),
    ),
    verdict: "LOST-ON-RESTART",
  },
  {
    name: "a kill after the answer, the retry reused the effect",
    case: "crash-after-commit",
    history: history(
      start(1),
      withhold(1),
      call(1, OK, { process: 1 }),
      read(1, { process: 1 }),
      kill(1),
      start(2),
      read(1, { process: 2 }),
      call(2, OK, { retry: true, process: 2 }),
      read(1, { process: 2 }),
    ),
    verdict: "ONCE",
  },
  {
    name: "no promise to check: hints that promise nothing",
    case: "annotations",
    history: history({
      op: "listed",
      role: "write",
      tool: "put_note",
      hints: { idempotentHint: false },
    }, {
      op: "listed",
      role: "read",
      tool: "get_notes",
      hints: {},
    }),
    verdict: "NOTHING-PROMISED",
    info: ["READ-HINT-MISSING"],
  },
  {
    name: "idempotentHint: true, and a retry duplicated",
    case: "annotations",
    history: history({
      op: "listed",
      role: "write",
      tool: "put_note",
      hints: { idempotentHint: true },
    }, {
      op: "listed",
      role: "read",
      tool: "get_notes",
      hints: { readOnlyHint: true },
    }),
    earlier: [{ case: "lost-reply-retry", verdict: "DUPLICATED", effect: 2 }],
    verdict: "ANNOTATION-CONTRADICTED",
  },
  {
    name: "idempotentHint: true, and every retry reused",
    case: "annotations",
    history: history({
      op: "listed",
      role: "write",
      tool: "put_note",
      hints: { idempotentHint: true },
    }),
    earlier: [{ case: "lost-reply-retry", verdict: "ONCE", effect: 1 }],
    verdict: "HINTS-HOLD",
  },
  {
    name: "a call never answered within the bound",
    case: "once",
    history: history(call(1, NONE), read(0)),
    verdict: "NO-ANSWER",
  },
  {
    name: "the server exited with the call out",
    case: "once",
    history: history(call(1, UNKNOWN), { op: "process", event: "exit" }),
    verdict: "SERVER-EXITED",
  },
  {
    name: "the server answered an id it never got",
    case: "once",
    history: history(
      call(1),
      { op: "problem", problem: "unknown-id", id: 99 },
      read(1),
    ),
    verdict: "PROTOCOL-VIOLATION",
  },
  {
    name: "the read tool failed",
    case: "once",
    history: history(call(1), read(null)),
    verdict: "READ-FAILED",
  },
  {
    name: "a setup call failed",
    case: "once",
    history: history({ op: "setup", tool: "make_project", answer: RPC_ERROR }),
    verdict: "SETUP-FAILED",
  },
  {
    name:
      "N identical calls, the copies in flight refused with the declared conflict, the retry after it answered: one effect",
    case: "concurrent-same",
    history: history(
      contract({ conflict: { code: -32010 } }),
      call(1),
      call(2, IN_FLIGHT),
      call(3, IN_FLIGHT),
      call(4, OK, { retry: true }),
      read(1),
    ),
    verdict: "ONCE-AFTER-CONFLICT",
  },
  {
    name:
      "N identical calls, the same refusal, no conflict declared: a copy told it failed",
    case: "concurrent-same",
    history: history(call(1), call(2, IN_FLIGHT), call(3, IN_FLIGHT), read(1)),
    verdict: "FALSE-FAILURE",
  },
  {
    name:
      "N identical calls, the declared conflict, and the retry after it refused too",
    case: "concurrent-same",
    history: history(
      contract({ conflict: { code: -32010 } }),
      call(1),
      call(2, IN_FLIGHT),
      call(3, IN_FLIGHT, { retry: true }),
      read(1),
    ),
    verdict: "FALSE-FAILURE",
  },
  {
    name:
      "N identical calls over HTTP, a 409 declared, the retry answered: one effect",
    case: "concurrent-same",
    history: httpHistory(
      contract({ key_in: "header", conflict: { status: 409 } }),
      call(1, http(201, "a")),
      call(2, http(409, "b")),
      call(3, http(201, "a"), { retry: true }),
      read(1),
    ),
    verdict: "ONCE-AFTER-CONFLICT",
  },
  {
    name:
      "N identical calls, a conflict declared as a value in the tool result, seen there",
    case: "concurrent-same",
    history: history(
      contract({
        conflict: { json: "/structuredContent/error", value: "busy" },
      }),
      call(1),
      call(2, { ...TOOL_ERROR, pointed: "busy" }),
      call(3, OK, { retry: true }),
      read(1),
    ),
    verdict: "ONCE-AFTER-CONFLICT",
  },
  {
    name: "completed, sent again: the first answer back as it was",
    case: "replay-after-completion",
    history: history(
      call(1, digested(OK, "a")),
      read(1),
      call(2, digested(OK, "a"), { retry: true }),
      read(1),
    ),
    verdict: "REPLAYED",
  },
  {
    name: "completed, sent again: one effect, another answer",
    case: "replay-after-completion",
    history: history(
      call(1, digested(OK, "a")),
      read(1),
      call(2, digested(OK, "b"), { retry: true }),
      read(1),
    ),
    verdict: "ONCE",
  },
  {
    name: "completed, sent again: a second effect",
    case: "replay-after-completion",
    history: history(
      call(1, digested(OK, "a")),
      read(1),
      call(2, digested(OK, "a"), { retry: true }),
      read(2),
    ),
    verdict: "DUPLICATED",
  },
  {
    name: "an error after the write, sent again: the same error, no new effect",
    case: "replay-error",
    history: httpHistory(
      call(1, http(500, "e")),
      read(1),
      call(2, http(500, "e"), { retry: true }),
      read(1),
    ),
    verdict: "ERROR-REPLAYED",
  },
  {
    name:
      "an error after the write, sent again: the same answer, and a second effect behind it",
    case: "replay-error",
    history: httpHistory(
      call(1, http(500, "e")),
      read(1),
      call(2, http(500, "e"), { retry: true }),
      read(2),
    ),
    verdict: "ERROR-RE-RUN",
  },
  {
    name:
      "an error after the write, sent again: another answer and a second effect",
    case: "replay-error",
    history: httpHistory(
      call(1, http(500, "e")),
      read(1),
      call(2, http(500, "e2"), { retry: true }),
      read(2),
    ),
    verdict: "ERROR-NOT-STORED",
  },
  {
    name:
      "an error after the write, sent again: another answer, no second effect",
    case: "replay-error",
    history: httpHistory(
      call(1, http(500, "e")),
      read(1),
      call(2, http(201, "ok"), { retry: true }),
      read(1),
    ),
    verdict: "ERROR-NOT-REPLAYED",
  },
  {
    name: "no key: refused with 400, nothing written",
    case: "missing-key",
    history: httpHistory(
      contract({ key_in: "header" }),
      keyless(http(400, "no key")),
      read(0),
    ),
    verdict: "KEY-REQUIRED",
  },
  {
    name: "no key: refused with 422, nothing written",
    case: "missing-key",
    history: httpHistory(
      contract({ key_in: "header" }),
      keyless(http(422, "no key")),
      read(0),
    ),
    verdict: "KEY-REQUIRED",
    info: ["OTHER-STATUS"],
  },
  {
    name: "no key: processed",
    case: "missing-key",
    history: httpHistory(
      contract({ key_in: "header" }),
      keyless(http(201, "ok")),
      read(1),
    ),
    verdict: "KEY-NOT-REQUIRED",
  },
  {
    name: "no key: refused after the write",
    case: "missing-key",
    history: httpHistory(
      contract({ key_in: "header" }),
      keyless(http(400, "no key")),
      read(1),
    ),
    verdict: "EFFECT-DESPITE-REJECTION",
  },
  {
    name: "the same key with other arguments, refused with 409 over HTTP",
    case: "same-key-other-arguments",
    history: httpHistory(
      call(1, http(201, "a")),
      read(1),
      read(0, { other: true }),
      call(2, http(409, "conflict")),
      read(1),
      read(0, { other: true }),
    ),
    verdict: "CONFLICT-REPORTED",
    info: ["OTHER-STATUS"],
  },
  {
    name: "the same key with other arguments, refused with 422 over HTTP",
    case: "same-key-other-arguments",
    history: httpHistory(
      call(1, http(201, "a")),
      read(1),
      read(0, { other: true }),
      call(2, http(422, "conflict")),
      read(1),
      read(0, { other: true }),
    ),
    verdict: "CONFLICT-REPORTED",
  },
  {
    name: "a retry inside the stated lifetime, reused",
    case: "key-lifetime",
    history: history(
      contract({ lifetime_ms: 200 }),
      call(1),
      { op: "fault", fault: "wait", ms: 100 },
      read(1),
      call(2, OK, { retry: true }),
      read(1),
    ),
    verdict: "KEY-KEPT",
  },
  {
    name: "a retry inside the stated lifetime, written again",
    case: "key-lifetime",
    history: history(
      contract({ lifetime_ms: 200 }),
      call(1),
      { op: "fault", fault: "wait", ms: 100 },
      read(1),
      call(2, OK, { retry: true }),
      read(2),
    ),
    verdict: "KEY-FORGOTTEN",
  },
];

for (const e of EXAMPLES) {
  Deno.test(`checker: ${e.case}: ${e.name}: ${e.verdict}`, () => {
    const judged = judgeCase(e.case, e.history, e.earlier);
    assert.equal(judged.verdict, e.verdict);
    assert.deepEqual(judged.info, e.info ?? []);
  });
}

Deno.test("checker: every verdict name is reached by a history written by hand", () => {
  const reached = new Set<Verdict>();
  for (const e of EXAMPLES) {
    const judged = judgeCase(e.case, e.history, e.earlier);
    reached.add(judged.verdict);
    for (const i of judged.info) reached.add(i);
  }
  assert.deepEqual(
    // accept host's own verdicts are reached by its checker's histories
    // (tests/accept/host_checker_test.ts); READ-FAILED is both's.
    VERDICTS.filter((v) =>
      !reached.has(v) &&
      (v === "READ-FAILED" ||
        ![...HOST_VERDICTS, ...HOST_INFO].includes(v))
    ),
    [],
    "verdicts no hand-written history reaches",
  );
});

Deno.test("checker: what a row rests on comes from the history too: client saw, effect, counts, the cancel's place", () => {
  const lost = judgeCase(
    "lost-reply-retry",
    history(...lostThenRetried(1, OK, 2)),
  );
  assert.deepEqual(lost.client_saw, ["no-answer", "success"]);
  assert.equal(lost.effect, 2);
  assert.deepEqual(lost.extra, { effect_before_retry: 1 });
  // The server's answers, the withheld one included, in call order.
  assert.deepEqual(lost.answers, [
    { call: 1, outcome: "success", text: "written" },
    { call: 2, outcome: "success", text: "written" },
  ]);
  const cancelled = judgeCase(
    "cancel-after-send",
    history(
      withhold(1),
      call(1, { outcome: "cancelled" }),
      cancel(true),
      read(1),
      call(2, OK, { retry: true }),
      read(1),
    ),
  );
  // A call cancelled and never answered is no answer the server gave.
  assert.deepEqual(cancelled.answers.map((a) => a.call), [2]);
  assert.deepEqual(cancelled.extra.cancel, {
    after_ms: 1,
    from: "measured",
    median_ms: 2.2,
    sent: true,
  });
  const some = judgeCase(
    "concurrent-distinct",
    history(...distinct([OK, TOOL_ERROR, RPC_ERROR], [1, 1, 0])),
  );
  assert.equal(some.verdict, "FALSE-FAILURE");
  assert.deepEqual(some.extra, { copies: 3, told_failed: 1 });
  assert.equal(some.effect, 2);
});

Deno.test("checker: a history that lacks what its case needs is judged on what it has, never more confidently", () => {
  // No read at all: nothing was counted.
  assert.equal(judgeCase("once", history(call(1))).verdict, "READ-FAILED");
  // No answer to a call the case needed.
  assert.equal(
    judgeCase("lost-reply-retry", history(withhold(1), call(1), read(1)))
      .verdict,
    "NO-ANSWER",
  );
  // Fewer reads than calls.
  assert.equal(
    judgeCase("concurrent-distinct", history(...distinct([OK, OK], [1])))
      .verdict,
    "READ-FAILED",
  );
  // Reads made while a call was in flight decide nothing on their own.
  assert.equal(
    judgeCase("once", history(call(1), read(null, { in_flight: true })))
      .verdict,
    "READ-FAILED",
  );
  // The other count counting the first arguments' effect: the two
  // cannot be told apart.
  assert.equal(
    judgeCase(
      "same-key-other-arguments",
      history(call(1), read(1), read(1, { other: true })),
    ).verdict,
    "READ-FAILED",
  );
  // A server a case starts that could not be started.
  assert.equal(
    judgeCase("two-processes", history(start(1), startFailed(1))).verdict,
    "SERVER-EXITED",
  );
  // The run's server gone before the case: not judged, whatever follows.
  assert.equal(
    judgeCase("once", history({ op: "process", event: "gone" }, call(1)))
      .verdict,
    "SERVER-EXITED",
  );
});

Deno.test("checker: the same history gives the same judgement (a pure function)", () => {
  const h = history(...lostThenRetried(1, TOOL_ERROR, 1));
  const a = judgeCase("lost-reply-retry", h);
  const b = judgeCase("lost-reply-retry", structuredClone(h));
  assert.deepEqual(a, b);
  assert.equal(a.verdict, "FALSE-FAILURE");
});
