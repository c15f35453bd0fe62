/**
 * Every built-in exercise judged against answers written by hand: its
 * correct answer, correct answers written differently, and near misses,
 * one per class of wrong verdict the engine must not give (an "accepted"
 * taken from the run instead of the ledger, a refusal with another cause,
 * a legitimate path refused, a pasted answer with another student's values,
 * ...). The expected statuses and feedback lines are written here by hand;
 * the answers run in a fresh scratch ledger and the engine reads the ledger
 * through a second connection.
 */
import assert from "node:assert/strict";
import { BUILTIN_COURSE } from "../../lib/exercises/course.ts";
import { judgeAnswer } from "../../lib/exercises/judge.ts";
import {
  defaultParams,
  type ExerciseParams,
} from "../../lib/exercises/params.ts";
import type { Verdict } from "../../lib/exercises/verdict.ts";
import { ACCEPTED_EVENTS, TEST_BASE, TEST_ROOT } from "../_helpers/helpers.ts";

const TRUSTED = [TEST_BASE, "/tmp"];
const J1 = "JOB-001";
const J2 = "JOB-002";

type Extra = Record<string, unknown>;
const run = (job: string, extra: Extra = {}, args: Extra = {}) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2, ...args },
    ...extra,
  });
const faults = (f: Extra, more: Extra = {}) => ({ faults: f, ...more });
const bad = faults({ bad_output: true });
const fixture = (fault: string) =>
  JSON.stringify({ op: "fixture", receipt_fault: fault });
const naive = { receipt: "naive" };
const pre = (job: string, copies: number, as = "s") =>
  JSON.stringify({ op: "policy.precheck", job, copies, as });
const change = (max: number) =>
  JSON.stringify({ op: "policy.change", max_copies: max });
const checked = (job: string, copies: number, snapshot = "s", more = {}) =>
  JSON.stringify({
    op: "policy.insert_checked",
    job,
    copies,
    snapshot,
    ...more,
  });
const naiveInsert = (job: string, copies: number, snapshot = "s") =>
  JSON.stringify({ op: "policy.insert_naive", job, copies, snapshot });
const compensate = (job: string, failAt?: string) =>
  JSON.stringify({
    op: "compensate",
    job,
    ...(failAt ? { faults: { fail_at: failAt } } : {}),
  });

/** Exercise 17 judges a ledger copy: hand-written rows, as `check --ledger` copies them. */
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
const receipt = (
  attempt: number,
  status: string,
  events: string[],
  job: string | null = "JOB-001",
) => ({ attempt, job, status, effect_exists: true, events });
const copy = (
  receipts: unknown[],
  drafts: unknown[] = [{ job: "JOB-001", topic: "river", copies: 2 }],
  compensations: unknown[] = [],
) => [JSON.stringify({ ledger_copy: 1, drafts, receipts, compensations })];

/**
 * One answer and what must come of it: the status of each finding in
 * order (`ok`, `no`, `--`), or `reason` when nothing can be judged; and
 * lines (English feedback) that must be printed exactly.
 */
interface Case {
  /** What the answer shows, or which class of miss it is. */
  name: string;
  steps: string[];
  expect: string;
  lines?: string[];
  params?: ExerciseParams;
}

const ok = (
  name: string,
  steps: string[],
  expect: string,
  lines?: string[],
) => ({ name, steps, expect, lines });
const miss = ok;

/** A classmate's values: a pasted answer written for the defaults must fail with these. */
const OTHER: ExerciseParams = {
  job: "JOB-417",
  otherJob: "JOB-052",
  topic: "forest",
  copies: 1,
  overCopies: 6,
  lowerLimit: 0,
};

const CASES: Record<number, { right: Case[]; wrong: Case[] }> = {
  1: {
    right: [
      ok("the bad output fault", [run(J1, bad)], "ok ok ok ok", [
        "[ok] a run of JOB-001 (river, 2 copies) ended output_rejected",
        "exercise 1: done",
      ]),
      ok("rejected twice, after another key", [
        run(J2),
        run(J1, bad),
        run(J1, bad),
        '{"op":"drafts"}',
      ], "ok ok ok ok"),
      ok("fault written with an empty cancel", [
        run(J1, faults({ bad_output: true, cancel_at: "" })),
        '{"op":"count"}',
      ], "ok ok ok ok"),
    ],
    wrong: [
      miss("a clean run", [run(J1)], "no -- -- --", [
        "[no] a run of JOB-001 (river, 2 copies) ended output_rejected",
        "[--] the ledger (second connection) still holds the draft of …",
        "exercise 1: not yet",
      ]),
      miss("refused earlier, by the input check", [
        run(J1, bad, { copies: 4 }),
      ], "no -- -- --"),
      miss("then accepted by a retry", [run(J1, bad), run(J1)], "ok ok ok no", [
        "[no] no receipt of JOB-001 says accepted",
      ]),
      miss(
        "receipt taken from the run, not the ledger",
        [
          fixture("ignore"),
          run(J1, { ...bad, ...naive }),
        ],
        "ok no ok ok",
        [
          "[no] the ledger holds that run's receipt: output_rejected, with the effect present",
        ],
      ),
      miss("another key", [run("JOB-007", bad)], "no -- -- --"),
    ],
  },
  2: {
    right: [
      ok("two keys", [
        run(J1, faults({ fail_at: "inside_transaction" })),
        run(J2, faults({ fail_at: "after_commit" })),
      ], "ok ok ok ok"),
      ok("one key: rollback, then a failure after commit", [
        run(J1, faults({ fail_at: "inside_transaction" })),
        run(J1, faults({ fail_at: "after_commit" })),
      ], "ok ok ok ok"),
      ok("a failure before business, and after commit", [
        run(J2, faults({ fail_at: "after_commit" })),
        run(J1, faults({ fail_at: "before_business" })),
      ], "ok ok ok ok"),
    ],
    wrong: [
      miss(
        "only one error",
        [
          run(J1, faults({ fail_at: "inside_transaction" })),
        ],
        "ok ok no --",
        [
          "[no] a run of JOB-001 or JOB-002 ended with status error after committing its draft, and right after it the draft was there",
          "[--] the ledger holds its receipt, status error, with the effect present",
        ],
      ),
      miss("both before the commit", [
        run(J1, faults({ fail_at: "before_business" })),
        run(J2, faults({ fail_at: "inside_transaction" })),
      ], "ok ok no --"),
      miss("no draft only because it was judged on the final ledger", [
        run(J1, faults({ fail_at: "after_commit" })),
        run(J1, faults({ fail_at: "before_business" })),
      ], "no -- ok ok"),
      miss("an output refusal is not an error", [
        run(J1, bad),
        run(J2, faults({ fail_at: "after_commit" })),
      ], "no -- ok ok"),
      miss("the error receipt was a naive lie", [
        run(J1, faults({ fail_at: "inside_transaction" })),
        fixture("ignore"),
        run(J2, faults({ fail_at: "after_commit" }, naive)),
      ], "ok ok ok no"),
      miss("other keys", [
        run("JOB-007", faults({ fail_at: "inside_transaction" })),
        run("JOB-008", faults({ fail_at: "after_commit" })),
      ], "no -- no --"),
    ],
  },
  3: {
    right: [
      ok(
        "rejected output, then a retry",
        [run(J1, bad), run(J1)],
        "ok ok ok ok ok",
        [
          "[ok] the ledger holds the retry's receipt: accepted, with effect_reused",
          "exercise 3: done",
        ],
      ),
      ok("audit_unavailable (draft, no receipt), then a retry", [
        run(J1, faults({ audit_failure: true })),
        run(J1),
      ], "ok ok ok ok ok"),
      ok("the article's recovery: IGNORE, drop the fixture, same request", [
        fixture("ignore"),
        run(J1),
        fixture("none"),
        run(J1),
      ], "ok ok ok ok ok"),
      ok("a failure after commit, then a retry", [
        run(J1, faults({ fail_at: "after_commit" })),
        '{"op":"exists","job":"JOB-001"}',
        run(J1),
      ], "ok ok ok ok ok"),
    ],
    wrong: [
      miss(
        "the first call was accepted",
        [run(J1), run(J1)],
        "ok no -- -- --",
        [
          "[no] the ledger holds no accepted receipt for that first attempt (line 1)",
        ],
      ),
      miss(
        "the retry used a new key",
        [run(J1, bad), run(J2)],
        "ok ok no -- --",
      ),
      miss("the retry's accepted came from a naive receipt", [
        run(J1, bad),
        fixture("ignore"),
        run(J1, naive),
      ], "ok ok ok ok no"),
      miss("the retry changed the arguments", [
        run(J1, bad),
        run(J1, {}, { copies: 3 }),
      ], "ok ok no -- --"),
      miss(
        "another key",
        [run("JOB-007", bad), run("JOB-007")],
        "no -- -- -- --",
      ),
    ],
  },
  4: {
    right: [
      ok("other copies", [run(J1), run(J1, {}, { copies: 3 })], "ok ok ok ok"),
      ok("other topic, after a rejected output", [
        run(J1, bad),
        run(J1, {}, { topic: "forest" }),
      ], "ok ok ok ok"),
      ok(
        "looked up in between",
        [
          run(J1),
          '{"op":"drafts"}',
          run(J1, {}, { copies: 1 }),
          '{"op":"receipts"}',
        ],
        "ok ok ok ok",
        [
          "[ok] the draft of JOB-001 is still the first call's (river, 2 copies)",
        ],
      ),
    ],
    wrong: [
      miss("the same arguments reuse", [run(J1), run(J1)], "ok no -- --"),
      miss("another key is no conflict", [
        run(J1),
        run(J2, {}, { copies: 3 }),
      ], "ok no -- --"),
      miss("the conflict's receipt was a naive lie", [
        run(J1),
        fixture("ignore"),
        run(J1, naive, { copies: 3 }),
      ], "ok ok no ok"),
      miss("another key", [
        run("JOB-007"),
        run("JOB-007", {}, { copies: 3 }),
      ], "no -- -- --"),
    ],
  },
  5: {
    right: [
      ok("two keys", [run(J1), run(J2)], "ok ok ok ok ok"),
      ok("the other key first", [run(J2), run(J1)], "ok ok ok ok ok"),
      ok(
        "the first accepted by a reuse",
        [run(J1, bad), run(J1), run(J2)],
        "ok ok ok ok ok",
      ),
    ],
    wrong: [
      miss("one key", [run(J1), run(J1)], "ok no -- -- --"),
      miss(
        "not the same text",
        [
          run(J1),
          run(J2, {}, { topic: "forest" }),
        ],
        "ok ok ok ok no",
        [
          "[no] the draft of JOB-002 has the same text as the draft of JOB-001",
        ],
      ),
      miss(
        "the second accepted came from a naive receipt",
        [
          run(J1),
          fixture("ignore"),
          run(J2, naive),
        ],
        "ok ok ok no ok",
        [
          "[no] the ledger holds an accepted receipt for the run of JOB-002 (line 3)",
        ],
      ),
      miss("other keys", [run("JOB-007"), run("JOB-008")], "no -- -- -- --"),
    ],
  },
  6: {
    right: [
      ok(
        "the lie, then the checked refusal",
        [
          fixture("ignore"),
          run(J1, naive),
          run(J2),
        ],
        "ok ok ok",
        [
          "[ok] the ledger holds no receipt row for that run (line 2): its accepted was a lie",
        ],
      ),
      ok("the checked refusal first", [
        fixture("ignore"),
        run(J1),
        run(J2, naive),
      ], "ok ok ok"),
      ok("on a reused draft", [
        run(J2),
        fixture("ignore"),
        run(J1, naive),
        run(J1),
      ], "ok ok ok"),
    ],
    wrong: [
      miss("no fixture", [run(J1, naive), run(J2)], "no -- no"),
      miss(
        "the checked receipt refused under another fault",
        [
          fixture("ignore"),
          run(J1, naive),
          fixture("none"),
          run(J2, faults({ audit_failure: true })),
        ],
        "ok ok no",
        [
          "[no] under the same IGNORE fixture, with no fault injected, a checked receipt refused with audit_unavailable",
        ],
      ),
      miss("only the lie", [fixture("ignore"), run(J1, naive)], "ok ok no"),
      miss("the ABORT fixture", [
        fixture("abort"),
        run(J1, naive),
        run(J2),
      ], "no -- no"),
      miss("other keys", [
        fixture("ignore"),
        run("JOB-007", naive),
        run("JOB-008"),
      ], "no -- no"),
    ],
  },
  7: {
    right: [
      ok(
        "after business",
        [run(J1, faults({ cancel_at: "after_business" }))],
        "ok ok ok",
      ),
      ok("at the output check", [
        run(J1, faults({ cancel_at: "output_check" })),
      ], "ok ok ok"),
      ok("with a bad output too, after another key", [
        run(J2),
        run(J1, faults({ cancel_at: "after_business", bad_output: true })),
      ], "ok ok ok"),
    ],
    wrong: [
      miss("cancelled before business", [
        run(J1, faults({ cancel_at: "before_business" })),
      ], "no -- --"),
      miss(
        "cancelled before business on a key committed earlier",
        [
          run(J1),
          run(J1, faults({ cancel_at: "before_business" })),
        ],
        "no -- --",
        [
          "[no] a run of JOB-001 was cancelled after it committed its draft",
        ],
      ),
      miss("a failure, not a cancel", [
        run(J1, faults({ fail_at: "after_business" })),
      ], "no -- --"),
      miss(
        "the cancelled receipt was a naive lie",
        [
          fixture("ignore"),
          run(J1, faults({ cancel_at: "after_business" }, naive)),
        ],
        "ok no ok",
        [
          "[no] the ledger holds its cancelled receipt, with the effect present",
        ],
      ),
      miss("another key", [
        run("JOB-007", faults({ cancel_at: "after_business" })),
      ], "no -- --"),
    ],
  },
  8: {
    right: [
      ok("cancel and audit failure", [
        run(J1, faults({ cancel_at: "after_business", audit_failure: true })),
      ], "ok ok"),
      ok("cancel under the IGNORE fixture", [
        fixture("ignore"),
        run(J1, faults({ cancel_at: "after_business" })),
      ], "ok ok"),
      ok("cancel before business and audit failure", [
        run(J1, faults({ cancel_at: "before_business", audit_failure: true })),
      ], "ok ok"),
    ],
    wrong: [
      miss("an audit failure with no cancel", [
        run(J1, faults({ audit_failure: true })),
      ], "no --"),
      miss("a cancel whose receipt was written", [
        run(J1, faults({ cancel_at: "after_business" })),
      ], "no --"),
      miss("a database error, not the audit", [
        fixture("abort"),
        run(J1, faults({ cancel_at: "after_business" })),
      ], "no --"),
      miss("another key", [
        run(
          "JOB-007",
          faults({ cancel_at: "after_business", audit_failure: true }),
        ),
      ], "no --"),
    ],
  },
  9: {
    right: [
      ok(
        "naive, then checked on another key",
        [
          pre(J1, 2),
          change(1),
          naiveInsert(J1, 2),
          checked(J2, 2),
        ],
        "ok ok ok ok ok ok",
        [
          "[ok] the ledger holds the draft of JOB-001, checked at revision 1 while the rule was at revision 2",
          "exercise 9: done",
        ],
      ),
      ok("checked first, named snapshot", [
        pre(J1, 2, "seen"),
        change(1),
        checked(J2, 2, "seen"),
        naiveInsert(J1, 2, "seen"),
        '{"op":"policy.rows"}',
      ], "ok ok ok ok ok ok"),
      ok("both on one key", [
        pre(J1, 2),
        change(1),
        naiveInsert(J1, 2),
        checked(J1, 2),
      ], "ok ok ok ok ok ok"),
      ok("the stale revision refuses before an injected fault can fire", [
        pre(J1, 2),
        change(1),
        naiveInsert(J1, 2),
        checked(J2, 2, "s", { fail_before_commit: true }),
      ], "ok ok ok ok ok ok"),
    ],
    wrong: [
      miss(
        "the refusal came from a fresh snapshot, on the limit",
        [
          pre(J1, 2),
          change(1),
          pre(J2, 1, "t"),
          naiveInsert(J1, 2),
          checked(J2, 2, "t"),
        ],
        "ok ok ok ok ok no",
        [
          "[no] after the change, a checked insert with the same old snapshot returned inserted false",
        ],
      ),
      miss(
        "the rule never changed",
        [
          pre(J1, 2),
          naiveInsert(J1, 2),
          checked(J2, 2),
        ],
        "ok no -- -- -- --",
        [
          "[no] the rule's limit was changed to 1",
          "[--] that change came after the snapshot (line 1)",
        ],
      ),
      miss("the naive insert came before the change", [
        pre(J1, 2),
        naiveInsert(J1, 2),
        change(1),
        checked(J2, 2),
      ], "ok ok ok no -- --"),
      miss("the checked insert failed by a fault, on a fresh snapshot", [
        pre(J1, 2),
        change(1),
        naiveInsert(J1, 2),
        pre(J2, 1, "t"),
        checked(J2, 1, "t", { fail_before_commit: true }),
      ], "ok ok ok ok ok no"),
      miss("another limit", [
        pre(J1, 2),
        change(2),
        naiveInsert(J1, 2),
        checked(J2, 2),
      ], "ok no -- -- -- --"),
    ],
  },
  10: {
    right: [
      ok(
        "down and back",
        [pre(J1, 2), change(1), change(3), checked(J1, 2)],
        "ok ok ok ok ok ok ok",
        [
          "[ok] but the revision was 3, newer than the snapshot's 1",
          "Why: Your snapshot saw limit 3 at revision 1. The limit went to 1 (revision 2) and back to 3 (revision 3). The condition is on the revision, not the value: 1 is not 3, so the insert was refused.",
        ],
      ),
      ok("another key, rows in between", [
        pre(J1, 2),
        change(1),
        '{"op":"policy.rows"}',
        change(3),
        checked(J2, 2),
      ], "ok ok ok ok ok ok ok"),
      ok("then a fresh check succeeds", [
        pre(J1, 2),
        change(1),
        change(3),
        checked(J1, 2),
        pre(J1, 2, "t"),
        checked(J1, 2, "t"),
      ], "ok ok ok ok ok ok ok"),
    ],
    wrong: [
      miss(
        "the limit never moved",
        [
          pre(J1, 2),
          change(3),
          change(3),
          checked(J1, 2),
        ],
        "ok no -- -- -- -- --",
        [
          "[no] after it, the limit changed from 3 to 1",
        ],
      ),
      miss(
        "it never came back",
        [pre(J1, 2), change(1), checked(J1, 2)],
        "ok ok no -- -- -- --",
      ),
      miss("inserted before the value came back", [
        pre(J1, 2),
        change(1),
        checked(J1, 2),
        change(3),
      ], "ok ok ok no -- -- --"),
      miss("a fresh snapshot after the restore", [
        pre(J1, 2),
        change(1),
        change(3),
        pre(J1, 2, "t"),
        checked(J1, 2, "t"),
      ], "ok ok ok no -- -- --"),
      miss(
        "the insert failed on a busy lock instead",
        [
          pre(J1, 2),
          change(1),
          change(3),
          '{"op":"policy.lock"}',
          checked(J1, 2),
        ],
        "ok ok ok ok no ok ok",
        ["[no] it was refused: inserted false"],
      ),
    ],
  },
  11: {
    right: [
      ok("the fault", [
        pre(J1, 2),
        checked(J1, 2, "s", { fail_before_commit: true }),
      ], "ok ok ok"),
      ok("then a retry that commits", [
        pre(J1, 2),
        checked(J1, 2, "s", { fail_before_commit: true }),
        '{"op":"policy.rows"}',
        checked(J1, 2),
      ], "ok ok ok"),
      ok("another snapshot first", [
        pre(J2, 1, "t"),
        pre(J1, 2),
        checked(J1, 2, "s", { fail_before_commit: true }),
      ], "ok ok ok"),
    ],
    wrong: [
      miss("no failure", [pre(J1, 2), checked(J1, 2)], "ok no --"),
      miss("a busy lock, not a failure before commit", [
        pre(J1, 2),
        '{"op":"policy.lock"}',
        checked(J1, 2),
      ], "ok no --"),
      miss("another key", [
        pre("JOB-007", 2),
        checked("JOB-007", 2, "s", { fail_before_commit: true }),
      ], "no -- --"),
      miss("a naive insert has no such fault", [
        pre(J1, 2),
        JSON.stringify({
          op: "policy.insert_naive",
          job: J1,
          copies: 2,
          snapshot: "s",
          fail_before_commit: true,
        }),
      ], "reason"),
    ],
  },
  12: {
    right: [
      ok("two keys", [
        run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
        run(J2, { input_guardrail: "sequential" }, { copies: 4 }),
      ], "ok ok ok ok ok"),
      ok("sequence by default, first", [
        run(J2, {}, { copies: 4 }),
        run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
      ], "ok ok ok ok ok"),
      ok("one key, sequence first", [
        run(J1, {}, { copies: 4 }),
        run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
      ], "ok ok ok ok ok"),
    ],
    wrong: [
      miss(
        "in sequence it was refused by argument validation",
        [
          run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
          JSON.stringify({
            op: "run",
            args: { job: J2, topic: "river", copies: 4, urgent: true },
          }),
        ],
        "ok no -- -- --",
        [
          "[no] the same request with the guardrail in sequence was refused by the input check itself (batch_limit), not by argument validation",
        ],
      ),
      miss("within the limit nothing is refused", [
        run(J1, { input_guardrail: "parallel" }),
        run(J2),
      ], "no -- -- -- --"),
      miss("not the same request", [
        run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
        run(J2, {}, { copies: 5 }),
      ], "ok no -- -- --"),
      miss("in sequence on the key the parallel run committed", [
        run(J1, { input_guardrail: "parallel" }, { copies: 4 }),
        run(J1, {}, { copies: 4 }),
      ], "ok ok ok no no"),
      miss("other keys", [
        run("JOB-007", { input_guardrail: "parallel" }, { copies: 4 }),
        run("JOB-008", {}, { copies: 4 }),
      ], "no -- -- -- --"),
    ],
  },
  13: {
    right: [
      ok("a retry reuses", [run(J1, bad), run(J1)], "ok ok ok ok ok"),
      ok("a confirmed void (the hint allows it)", [
        run(J1, bad),
        compensate(J1),
      ], "ok ok ok ok ok"),
      ok("audit_unavailable, then a retry", [
        run(J1, faults({ audit_failure: true })),
        run(J1),
      ], "ok ok ok ok ok"),
    ],
    wrong: [
      miss("a new key", [run(J1, bad), run(J2)], "ok ok no no no", [
        "[no] no second draft repeats the effect of JOB-001 under another key",
      ]),
      miss("accepted at once", [run(J1)], "ok no -- -- --"),
      miss("the retry's accepted was a naive lie", [
        run(J1, bad),
        fixture("ignore"),
        run(J1, naive),
      ], "ok ok no no ok"),
      miss("the compensation failed", [
        run(J1, bad),
        compensate(J1, "before_commit"),
      ], "ok ok no no ok"),
      miss("another key left open", [
        run(J1, bad),
        run(J1),
        run(J2, bad),
      ], "ok ok ok no no"),
    ],
  },
  14: {
    right: [
      ok(
        "before its commit",
        [run(J1, bad), compensate(J1, "before_commit")],
        "ok ok ok ok",
      ),
      ok("after its commit, on an accepted draft", [
        run(J1),
        compensate(J1, "after_commit"),
      ], "ok ok ok ok"),
      ok("looked at around it", [
        run(J1, bad),
        '{"op":"drafts"}',
        compensate(J1, "before_commit"),
        '{"op":"receipts"}',
      ], "ok ok ok ok"),
    ],
    wrong: [
      miss(
        "the compensation succeeded",
        [run(J1, bad), compensate(J1)],
        "ok no -- --",
      ),
      miss("a compensation of a key with no draft", [
        run(J1, bad),
        compensate("JOB-009", "before_commit"),
      ], "ok no -- --"),
      miss("compensated again, successfully", [
        run(J1, bad),
        compensate(J1, "before_commit"),
        compensate(J1),
      ], "ok ok no ok"),
      miss("another key", [
        run("JOB-007", bad),
        compensate("JOB-007", "before_commit"),
      ], "no -- -- --"),
    ],
  },
  15: {
    right: [
      ok(
        "the answer",
        ['{"outcome":"cancelled","draft":true,"receipts":1}'],
        "ok ok ok",
        [
          "[ok] receipts (how many receipt rows the ledger holds): you predicted 1",
          "What happened:",
          "  outcome: cancelled",
        ],
      ),
      ok("1.0 is 1, keys in any order", [
        '{"receipts": 1.0, "draft": true, "outcome": "cancelled"}',
      ], "ok ok ok"),
      ok("blank lines around it", [
        "",
        '  {"outcome":"cancelled","draft":true,"receipts":1}  ',
        "",
      ], "ok ok ok"),
    ],
    wrong: [
      miss(
        "the draft is there",
        ['{"outcome":"cancelled","draft":false,"receipts":1}'],
        "ok no ok",
        [
          "[no] draft (whether its draft exists afterwards): you predicted false",
        ],
      ),
      miss(
        "a missing field",
        ['{"outcome":"cancelled","draft":true}'],
        "ok ok no",
        [
          "[no] receipts (how many receipt rows the ledger holds): you predicted missing",
        ],
      ),
      miss(
        "two lines",
        [
          '{"outcome":"cancelled","draft":true,"receipts":1}',
          '{"outcome":"accepted","draft":true,"receipts":1}',
        ],
        "reason",
        [
          "not yet: a prediction is one line; line 2 is one too many",
        ],
      ),
      miss("not JSON", ["cancelled"], "reason"),
      miss("an unknown field", [
        '{"outcome":"cancelled","draft":true,"receipts":1,"why":"x"}',
      ], "reason"),
    ],
  },
  16: {
    right: [
      ok("the answer", [
        '{"outcome":"input_rejected","draft":true,"receipts":1}',
      ], "ok ok ok"),
      ok("spaced", [
        '{ "draft" : true , "receipts" : 1 , "outcome" : "input_rejected" }',
      ], "ok ok ok"),
      ok(
        "1.0",
        ['{"outcome":"input_rejected","draft":true,"receipts":1.0}'],
        "ok ok ok",
      ),
    ],
    wrong: [
      miss("the guardrail stopped it in time", [
        '{"outcome":"input_rejected","draft":false,"receipts":1}',
      ], "ok no ok"),
      miss(
        "accepted",
        ['{"outcome":"accepted","draft":true,"receipts":1}'],
        "no ok ok",
      ),
      miss("a string number", [
        '{"outcome":"input_rejected","draft":true,"receipts":"1"}',
      ], "ok ok no"),
      miss("a list", ['["input_rejected", true, 1]'], "reason"),
    ],
  },
  17: {
    right: [
      ok(
        "cancelled after the commit, then a retry that reused",
        copy([
          receipt(1, "cancelled", COMMITTED),
          receipt(2, "accepted", REUSED),
        ]),
        "ok ok ok ok",
        [
          "[ok] a receipt of JOB-001 committed the draft and did not end accepted",
          "exercise 17: done",
          "guardlab judges the ledger, not the agent: it cannot tell an agent's ledger from a script's, and it does not re-run the session.",
        ],
      ),
      ok(
        "output rejected, after another key's call",
        copy([
          receipt(1, "accepted", [...COMMITTED, "output_started"], "JOB-002"),
          receipt(2, "output_rejected", [
            ...COMMITTED,
            "output_started",
            "output_rejected",
          ]),
          receipt(3, "accepted", REUSED),
        ], [
          { job: "JOB-001", topic: "river", copies: 2 },
          { job: "JOB-002", topic: "river", copies: 2 },
        ]),
        "ok ok ok ok",
      ),
      ok(
        "a reuse that was cancelled too, then one accepted",
        copy([
          receipt(1, "cancelled", COMMITTED),
          receipt(2, "cancelled", REUSED.slice(0, 4)),
          receipt(3, "accepted", REUSED),
        ]),
        "ok ok ok ok",
      ),
    ],
    wrong: [
      miss(
        "no retry: only the cancelled call",
        copy([
          receipt(1, "cancelled", COMMITTED),
        ]),
        "ok no -- --",
      ),
      miss(
        "called twice, the first accepted (nothing was unclear)",
        copy([
          receipt(1, "accepted", [...COMMITTED, "output_started"]),
          receipt(2, "accepted", REUSED),
        ]),
        "no -- -- --",
      ),
      miss(
        "a new key: two drafts",
        copy([
          receipt(1, "cancelled", COMMITTED),
          receipt(2, "accepted", ACCEPTED_EVENTS, "JOB-002"),
        ], [
          { job: "JOB-001", topic: "river", copies: 2 },
          { job: "JOB-002", topic: "river", copies: 2 },
        ]),
        "ok no -- --",
      ),
      miss(
        "other arguments: key_conflict reuses nothing",
        copy([
          receipt(1, "cancelled", COMMITTED),
          receipt(2, "key_conflict", [
            "arguments_valid",
            "input_allowed",
            "business_started",
            "key_conflict",
          ]),
        ]),
        "ok no -- --",
      ),
      miss(
        "a reuse without a commit before it (only accepted once)",
        copy([
          receipt(1, "accepted", REUSED),
        ]),
        "no -- -- --",
      ),
      miss(
        "the reuse numbered before the commit",
        copy([
          receipt(1, "accepted", REUSED),
          receipt(2, "cancelled", COMMITTED),
        ]),
        "ok no -- --",
      ),
      miss(
        "voided afterwards",
        copy(
          [
            receipt(1, "cancelled", COMMITTED),
            receipt(2, "accepted", REUSED),
          ],
          undefined,
          [{ job: "JOB-001", state: "voided", receipts: 1 }],
        ),
        "ok ok ok no",
      ),
      miss(
        "the draft holds other arguments",
        copy([
          receipt(1, "cancelled", COMMITTED),
          receipt(2, "accepted", REUSED),
        ], [{ job: "JOB-001", topic: "forest", copies: 2 }]),
        "ok ok no ok",
      ),
      miss("script steps instead of a ledger copy", [
        '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
      ], "reason"),
      miss("a copy with an unknown field", [
        JSON.stringify({
          ledger_copy: 1,
          drafts: [],
          receipts: [{ ...receipt(1, "accepted", REUSED), step: 1 }],
          compensations: [],
        }),
      ], "reason"),
    ],
  },
};

function statuses(v: Verdict): string {
  if (v.reason) return "reason";
  return v.findings.map((f) =>
    f.status === "yes" ? "ok" : f.status === "no" ? "no" : "--"
  ).join(" ");
}

async function judged(n: number, steps: string[], params = defaultParams) {
  return await judgeAnswer(
    BUILTIN_COURSE.exercises[n - 1],
    steps.join("\n"),
    params,
    { scratch: TEST_ROOT, trusted: TRUSTED },
  );
}

Deno.test("exercise answers: every exercise, right answers and near misses, judged by cause", async (t) => {
  assert.deepEqual(
    Object.keys(CASES).map(Number),
    BUILTIN_COURSE.exercises.map((x) => x.n),
    "every exercise has its answers here",
  );
  for (const x of BUILTIN_COURSE.exercises) {
    await t.step(`${x.n} ${x.slug}`, async (t) => {
      const { right, wrong } = CASES[x.n];
      assert.ok(right.length >= 3, "the answer and two written differently");
      assert.ok(wrong.length >= 4, "at least four near misses");
      for (const c of [...right, ...wrong]) {
        await t.step(c.name, async () => {
          const v = await judged(x.n, c.steps, c.params);
          const english = v.feedback.map((l) => l.en);
          assert.equal(statuses(v), c.expect, english.join("\n"));
          assert.equal(v.passed, right.includes(c), english.join("\n"));
          for (const line of c.lines ?? []) {
            assert.ok(
              english.includes(line),
              `${line}\n---\n${english.join("\n")}`,
            );
          }
          // A line for every finding, in both languages, and nothing undefined.
          for (const l of v.feedback) {
            assert.doesNotMatch(
              l.en + l.zh,
              /undefined|\{[a-z]+[A-Za-z]*(\.[a-z_]+)?\}/,
            );
            assert.match(l.zh, /[\u4e00-\u9fff]|^\s*[a-z]+[:：]|^\[/);
          }
          if (right.includes(c)) {
            assert.ok(v.why, "a pass says why");
          } else {
            assert.equal(v.why, null);
          }
        });
      }
    });
  }
});

Deno.test("exercise answers: a pasted answer fails with another student's values", async (t) => {
  // A prediction has one right answer whatever the values: no signal there.
  for (const x of BUILTIN_COURSE.exercises.filter((x) => x.kind === "script")) {
    await t.step(`${x.n} ${x.slug}`, async () => {
      const mine = CASES[x.n].right[0].steps;
      const v = await judged(x.n, mine, OTHER);
      assert.equal(v.passed, false, v.feedback.map((l) => l.en).join("\n"));
    });
  }
  await t.step(
    "the same exercises pass when written with those values",
    async () => {
      const runO = (job: string, extra: Extra = {}, args: Extra = {}) =>
        run(job, extra, { topic: "forest", copies: 1, ...args });
      const answers: Record<number, string[]> = {
        1: [runO("JOB-417", bad)],
        5: [runO("JOB-417"), runO("JOB-052")],
        9: [
          pre("JOB-417", 1),
          change(0),
          naiveInsert("JOB-417", 1),
          checked("JOB-052", 1),
        ],
        10: [pre("JOB-417", 1), change(0), change(3), checked("JOB-417", 1)],
        12: [
          runO("JOB-052", { input_guardrail: "parallel" }, { copies: 6 }),
          runO("JOB-417", {}, { copies: 6 }),
        ],
        16: ['{"outcome":"input_rejected","draft":true,"receipts":1}'],
      };
      for (const [n, steps] of Object.entries(answers)) {
        const v = await judged(Number(n), steps, OTHER);
        assert.equal(v.passed, true, v.feedback.map((l) => l.en).join("\n"));
      }
      const why = await judged(10, answers[10], OTHER);
      assert.equal(
        why.why?.en,
        "Your snapshot saw limit 3 at revision 1. The limit went to 0 (revision 2) and back to 3 (revision 3). The condition is on the revision, not the value: 1 is not 3, so the insert was refused.",
      );
    },
  );
});

Deno.test("exercise answers: a prediction never shows what happened after a wrong guess, unless revealed", async () => {
  const x = BUILTIN_COURSE.exercises[14];
  const wrong = '{"outcome":"accepted","draft":true,"receipts":1}';
  const v = await judgeAnswer(x, wrong, defaultParams, {
    scratch: TEST_ROOT,
    trusted: TRUSTED,
  });
  assert.equal(v.revealed, null);
  const text = v.feedback.map((l) => l.en + l.zh).join("\n");
  assert.doesNotMatch(text, /cancelled/);
  const shown = await judgeAnswer(x, wrong, defaultParams, {
    scratch: TEST_ROOT,
    trusted: TRUSTED,
    reveal: true,
  });
  assert.deepEqual(shown.revealed?.map((l) => l.en), [
    "outcome: cancelled",
    "draft: true",
    "receipts: 1",
  ]);
  assert.equal(shown.passed, false);
  const nothing = await judgeAnswer(x, "", defaultParams, {
    scratch: TEST_ROOT,
    trusted: TRUSTED,
    reveal: true,
  });
  assert.equal(nothing.passed, false);
  assert.equal(nothing.revealed?.length, 3);
});

Deno.test("exercise answers: every script exercise refuses an empty answer and one with an invalid step", async () => {
  for (const x of BUILTIN_COURSE.exercises) {
    const empty = await judged(x.n, []);
    assert.equal(empty.passed, false);
    assert.ok(empty.reason, `${x.n}: empty`);
    if (x.kind !== "script") continue;
    if (x.judged === "ledger") {
      // Judged from a ledger copy: anything else is not a copy, never run.
      const mixed = await judged(x.n, [...CASES[x.n].right[0].steps, "{}"]);
      assert.equal(mixed.passed, false);
      assert.match(mixed.reason!.en, /^this is not a ledger copy/);
      continue;
    }
    const spoiled = await judged(x.n, [
      ...CASES[x.n].right[0].steps,
      '{"op":"nope"}',
    ]);
    assert.equal(spoiled.passed, false);
    assert.match(spoiled.reason!.en, /^line \d+ is not a step that can run/);
  }
});

Deno.test("exercise answers: the engine's work is bounded, and a premise nothing meets ends the search", async () => {
  // 200 steps and no naive insert at all: the answer to exercise 9 is judged
  // "no" at that premise, not "over the limit" after trying every pair.
  const steps: string[] = [];
  for (let i = 0; i < 66; i++) steps.push(pre(J1, 2, `s${i}`));
  for (let i = 0; i < 67; i++) steps.push(change(1));
  for (let i = 0; i < 67; i++) steps.push(checked(J2, 2, `s${i % 66}`));
  const v = await judged(9, steps);
  assert.equal(v.overLimit, false);
  assert.equal(statuses(v), "ok ok ok no -- --");
  // A cap on the work: past it, "over the limit" with the reason.
  const capped = await judgeAnswer(
    BUILTIN_COURSE.exercises[1],
    [
      run(J1, faults({ fail_at: "after_commit" })),
      run(J2, faults({ fail_at: "after_commit" })),
    ].join("\n"),
    defaultParams,
    { scratch: TEST_ROOT, trusted: TRUSTED, maxWork: 3 },
  );
  assert.equal(capped.overLimit, true);
  assert.equal(capped.passed, false);
  assert.equal(
    capped.reason?.en,
    "over the limit: judging this answer needs more than 3 checks; write fewer steps",
  );
});
