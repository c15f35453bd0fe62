/**
 * The ledger's timeline with MCP calls on record: attempts in the order they
 * started, the calls each overlapped, the read tools' calls among them, and
 * attempts with no record (made by `run` or `script`) where their receipts
 * were written. Built from rows written by hand.
 */
import assert from "node:assert/strict";
import {
  type CallFact,
  historyOf,
  MAX_OVERLAPS_KEPT,
  MAX_OVERLAPS_NAMED,
  type ReceiptFact,
  renderHistory,
} from "../../lib/views/ledger_timeline.ts";

const COMMITTED = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
];
const REUSED = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_reused",
  "output_started",
  "output_allowed",
];

function receipt(
  attempt: number,
  job: string,
  status: string,
  events: string[],
): ReceiptFact {
  return { attempt, job, status, effect_exists: true, events };
}

function call(
  n: number,
  tool: string,
  receiptNo: number | null,
  started: number,
  ended: number,
  job: string | null = "JOB-001",
  session = 1,
): CallFact {
  return {
    session,
    call: n,
    tool,
    job,
    receipt: receiptNo,
    started_us: started,
    ended_us: ended,
  };
}

Deno.test("ledger timeline: with calls on record, attempts are drawn by their start, reads among them", () => {
  // Receipt #1 (run, no record), then over MCP: call 1 commits JOB-002 and
  // is held (receipt #3 at its end), call 2 reads, call 3 reuses (#2).
  const receipts = [
    receipt(1, "JOB-001", "accepted", [
      ...COMMITTED,
      "output_started",
      "output_allowed",
    ]),
    receipt(2, "JOB-002", "accepted", REUSED),
    receipt(3, "JOB-002", "cancelled", COMMITTED),
  ];
  const calls = [
    call(1, "create_draft", 3, 100, 900, "JOB-002"),
    call(2, "ledger", null, 200, 250, "JOB-002"),
    call(3, "create_draft", 2, 300, 400, "JOB-002"),
  ];
  const h = historyOf(receipts, ["JOB-001", "JOB-002"], [], calls, [
    { session: 1, client: "test 1" },
  ]);
  assert.deepEqual(h.attempts.map((a) => a.receipt), [1, 3, 2]);
  assert.deepEqual(h.reads.map((r) => [r.tool, r.after]), [["ledger", 2]]);
  assert.deepEqual(
    h.attempts[1].by?.overlaps.map((o) => o.call),
    [2, 3],
    "call 1 overlapped both",
  );
  assert.equal(h.attempts[0].by, undefined, "a run's attempt has no call");
  assert.deepEqual(h.reads[0].by.overlaps.map((o) => o.call), [1]);
  const text = renderHistory(h);
  assert.deepEqual(text.slice(5), [
    "#1  JOB-001  accepted  committed",
    "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
    "#3  JOB-002  cancelled  committed  (session 1, call 1)",
    "    args [ok] > input [ok] > business [ok] | after commit [xx] > output [ ] >",
    "        receipt [ok]",
    "      cancel arrived after commit: draft stays",
    "      overlapped: call 2 (ledger), call 3 (#2)",
    "read: ledger JOB-002  (session 1, call 2)",
    "      overlapped: call 1 (#3)",
    "#2  JOB-002  accepted  reused  (session 1, call 3)",
    "    args [ok] > input [ok] > business [ok] | output [ok] > receipt [ok]",
    "      overlapped: call 1 (#3)",
  ]);
  assert.equal(text[4], '  session 1: client "test 1"');
});

Deno.test("ledger timeline: no calls on record, the order of the receipts as before", () => {
  const receipts = [
    receipt(1, "JOB-001", "accepted", REUSED),
    receipt(2, "JOB-001", "cancelled", COMMITTED),
  ];
  const h = historyOf(receipts, ["JOB-001"], []);
  assert.deepEqual(h.attempts.map((a) => a.receipt), [1, 2]);
  assert.deepEqual(h.reads, []);
  assert.ok(!renderHistory(h).some((l) => /session/.test(l)));
});

Deno.test("ledger timeline: an attempt that wrote no receipt stands at its call's start; another session is named; many overlaps are counted", () => {
  const receipts = [receipt(1, "JOB-001", "accepted", REUSED)];
  const calls = [
    // Session 2's call 1 committed and wrote no receipt (an audit failure).
    call(1, "create_draft", null, 50, 60, "JOB-001", 2),
    call(1, "create_draft", 1, 100, 1000),
    ...Array.from(
      { length: MAX_OVERLAPS_NAMED + 2 },
      (_, i) => call(i + 2, "reconcile", null, 200 + i, 210 + i, null),
    ),
  ];
  const h = historyOf(receipts, ["JOB-001"], [], calls);
  assert.deepEqual(h.attempts.map((a) => [a.receipt, a.by?.session]), [
    [null, 2],
    [1, 1],
  ]);
  const lines = renderHistory(h);
  assert.match(
    lines.join("\n"),
    /overlapped: call 2 \(reconcile\), call 3 \(reconcile\), call 4 \(reconcile\),\n\s+call 5 \(reconcile\), call 6 \(reconcile\), and 2 more/,
  );
  assert.ok(lines.includes("read: reconcile  (session 1, call 2)"));
});

Deno.test("ledger timeline: a call overlapped by more calls than are kept lists the first and counts the rest", () => {
  const receipts = [receipt(1, "JOB-001", "accepted", COMMITTED)];
  const extra = MAX_OVERLAPS_KEPT + 36;
  const calls = [
    call(1, "create_draft", 1, 100, 100_000),
    // Listed in reverse: the first kept are the lowest numbers all the same.
    ...Array.from(
      { length: extra },
      (_, i) =>
        call(extra + 1 - i, "ledger", null, 200 + 10 * i, 205 + 10 * i, null),
    ),
  ];
  const h = historyOf(receipts, ["JOB-001"], [], calls);
  const by = h.attempts[0].by!;
  assert.deepEqual(
    by.overlaps.map((o) => o.call),
    Array.from({ length: MAX_OVERLAPS_KEPT }, (_, i) => i + 2),
  );
  assert.equal(by.more, 36);
  // Each read overlapped the attempt only: one listed, none more.
  assert.ok(h.reads.every((r) => r.by.overlaps.length === 1 && !r.by.more));
  assert.match(
    renderHistory(h).join("\n"),
    new RegExp(`and ${extra - MAX_OVERLAPS_NAMED} more`),
  );
});
