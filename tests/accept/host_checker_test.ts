/**
 * `accept host`'s checker judged on histories written by hand: no host, no
 * model, no tool. Each history is what an agent host could have done after
 * a lost reply, record by record, with the verdict it must get; the last
 * test holds that every verdict `accept host` can give is reached by one of
 * them (as the verdict, or as information beside it).
 */
import assert from "node:assert/strict";
import {
  HOST_INFO,
  HOST_VERDICTS,
  type HostCaseName,
  type Verdict,
} from "../../lib/accept/cases.ts";
import { judgeHostCase, toldOf } from "../../lib/accept/_host_checker.ts";
import type {
  HostHistory,
  HostRecord,
} from "../../lib/accept/_host_history.ts";

/** A record before its time is given. */
type Rec = HostRecord extends infer R
  ? R extends unknown ? Omit<R, "at_ms"> : never
  : never;

const K1 = "k-abc-1";
const K2 = "k-abc-2";

/** A history of `case` on the unkeyed tool: the plan, then `records`, each a millisecond after the one before. */
function history(c: HostCaseName, ...records: Rec[]): HostHistory {
  const plan: Rec = {
    op: "plan",
    case: c,
    variant: "unkeyed",
    transport: "stdio",
    tool: "write_row",
    hints: { idempotentHint: false },
    key: K1,
    new_key: K2,
  };
  return {
    version: 1,
    subject: "agent-host",
    records: [plan, ...records].map((r, i) =>
      ({ ...r, at_ms: i }) as HostRecord
    ),
  };
}

const start: Rec = { op: "process", who: "host", event: "start" };
const exit: Rec = { op: "process", who: "host", event: "exit", code: 0 };
const limit: Rec = { op: "process", who: "host", event: "limit" };
const asked: Rec = {
  op: "model",
  request: 1,
  offered: true,
  results: [],
  reply: "call-1",
};
/** A call of the write tool under `key`, on connection `conn`, with what the tool did and answered. */
function call(
  n: number,
  effect: "written" | "reused" | "refused",
  reply: "ok" | "error" | "none" | "late" | "killed" | "http-503" | "expired",
  more: { key?: string; conn?: number; amount?: number } = {},
): Rec {
  const key = more.key ?? K1;
  return {
    op: "call",
    call: n,
    conn: more.conn ?? 1,
    id: n + 1,
    key,
    arguments: { key, amount: more.amount ?? 5 },
    effect,
    reply,
  };
}
/** The model's request `n` carrying the host's result `text` for the first call. */
function told(n: number, text: string, reply: "call-2" | "done"): Rec {
  return {
    op: "model",
    request: n,
    offered: true,
    results: [{ call: 1, text }],
    reply,
  };
}
const read = (key: string, count: number | null): Rec => ({
  op: "read",
  key,
  count,
});
const cancel: Rec = { op: "cancel", conn: 1, id: 2, call: 1 };

interface Example {
  readonly name: string;
  readonly history: HostHistory;
  readonly verdict: Verdict;
  readonly info?: readonly Verdict[];
}

const EXAMPLES: readonly Example[] = [
  {
    name: "the tool's success handed on: one effect",
    history: history(
      "no-fault",
      start,
      asked,
      call(1, "written", "ok"),
      told(2, `ok: row for ${K1} written`, "done"),
      exit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "TOLD-SUCCESS",
  },
  {
    name:
      "resent the same call after its own timeout; the keyed tool reused: one effect, the model told success",
    history: history(
      "late-reply",
      start,
      asked,
      call(1, "written", "late"),
      cancel,
      call(2, "reused", "ok"),
      told(2, `ok: row for ${K1} reused`, "done"),
      exit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "RESENT-REUSED",
    info: ["CANCELLED-AFTER-COMMIT"],
  },
  {
    name:
      "resent the same call to a new server process: the unkeyed tool wrote twice, the model told success",
    history: history(
      "killed-after-commit",
      start,
      asked,
      call(1, "written", "killed"),
      { op: "process", who: "tool", event: "killed", conn: 1 },
      call(2, "written", "ok", { conn: 2 }),
      told(2, `ok: row for ${K1} written`, "done"),
      exit,
      read(K1, 2),
      read(K2, 0),
    ),
    verdict: "RESENT-DUPLICATED",
  },
  {
    name:
      "a resend with other arguments is not a reuse: the tool refused it, the model told a failure",
    history: history(
      "no-reply",
      start,
      asked,
      call(1, "written", "none"),
      call(2, "refused", "error", { amount: 6 }),
      told(2, "refused", "call-2"),
      exit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "TOLD-FAILED",
  },
  {
    name:
      "no resend, the model told the outcome is unknown; the naive model's new key doubled the effect",
    history: history(
      "no-reply",
      start,
      asked,
      call(1, "written", "none"),
      cancel,
      told(
        2,
        "MCP tool execution may have completed before the connection failed.",
        "call-2",
      ),
      call(2, "written", "ok", { key: K2 }),
      exit,
      read(K1, 1),
      read(K2, 1),
    ),
    verdict: "TOLD-UNKNOWN",
    info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
  },
  {
    name: "no resend, the model told to try again while the effect exists",
    history: history(
      "late-reply",
      start,
      asked,
      call(1, "written", "late"),
      cancel,
      told(
        2,
        "An error occurred while running the tool. Please try again.",
        "call-2",
      ),
      call(2, "written", "ok", { key: K2 }),
      exit,
      read(K1, 1),
      read(K2, 1),
    ),
    verdict: "TOLD-FAILED",
    info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
  },
  {
    name: "the tool's own error after its commit, handed on as it came",
    history: history(
      "error-after-commit",
      start,
      asked,
      call(1, "written", "error"),
      told(
        2,
        '[{"type":"text","text":"error: the ledger failed after writing the row; try again"}]',
        "call-2",
      ),
      exit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "PASSED-ON-ERROR",
  },
  {
    name:
      "the run ended without telling the model anything (agents-core after a lost server)",
    history: history(
      "killed-after-commit",
      start,
      asked,
      call(1, "written", "killed"),
      exit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "RUN-ABORTED",
  },
  {
    name:
      "still waiting for the reply at the case's limit (a host with no tool timeout)",
    history: history(
      "no-reply",
      start,
      asked,
      call(1, "written", "none"),
      limit,
      read(K1, 1),
      read(K2, 0),
    ),
    verdict: "STILL-WAITING",
  },
  {
    name:
      "the host never called the tool (not pointed at it, or the tool not offered)",
    history: history(
      "no-reply",
      start,
      { op: "model", request: 1, offered: false, results: [], reply: "done" },
      exit,
      read(K1, 0),
      read(K2, 0),
    ),
    verdict: "HOST-NOT-REACHED",
  },
  {
    name: "the ledger could not be read at the end",
    history: history(
      "no-fault",
      start,
      asked,
      call(1, "written", "ok"),
      told(2, `ok: row for ${K1} written`, "done"),
      exit,
      read(K1, null),
      read(K2, 0),
    ),
    verdict: "READ-FAILED",
  },
];

for (const e of EXAMPLES) {
  Deno.test(`host checker: ${e.name}: ${e.verdict}`, () => {
    const judged = judgeHostCase(e.history);
    assert.equal(judged.verdict, e.verdict);
    assert.deepEqual(judged.info, e.info ?? []);
  });
}

Deno.test("host checker: every verdict accept host gives is reached by a history written by hand", () => {
  const reached = new Set<Verdict>();
  for (const e of EXAMPLES) {
    const judged = judgeHostCase(e.history);
    reached.add(judged.verdict);
    for (const i of judged.info) reached.add(i);
  }
  assert.deepEqual(
    [...HOST_VERDICTS, ...HOST_INFO].filter((v) => !reached.has(v)),
    [],
  );
});

Deno.test("host checker: the facts a row rests on come from the history: resends, same arguments, cancel, what was told, effects by key, the host's end", () => {
  const j = judgeHostCase(EXAMPLES[1].history);
  assert.equal(j.reached, true);
  assert.equal(j.resent, 1);
  assert.equal(j.resent_same_arguments, true);
  assert.equal(j.cancelled, true);
  assert.equal(j.told, "success");
  assert.equal(j.told_text, `ok: row for ${K1} reused`);
  assert.equal(j.new_key_called, false);
  assert.deepEqual([j.effects, j.effects_key, j.effects_new_key], [1, 1, 0]);
  assert.deepEqual([j.host_end, j.host_code], ["exit", 0]);
  const other = judgeHostCase(EXAMPLES[3].history);
  assert.equal(other.resent_same_arguments, false);
  const waiting = judgeHostCase(EXAMPLES[8].history);
  assert.deepEqual([waiting.host_end, waiting.told], ["limit", "nothing"]);
  assert.equal("host_code" in waiting, false);
});

Deno.test("host checker: a second effect under the first key is a duplicate even when the host told the model success", () => {
  // The host's resend wrote again on the unkeyed tool; what it told the
  // model (the second attempt's success) hides the first effect.
  const j = judgeHostCase(EXAMPLES[2].history);
  assert.equal(j.told, "success");
  assert.equal(j.verdict, "RESENT-DUPLICATED");
});

Deno.test("host checker: what a tool result says, as guardlab reads it", () => {
  assert.equal(
    toldOf(`{"content":"ok: row for ${K1} written"}`, K1),
    "success",
  );
  // The success of another key is not this call's.
  assert.equal(toldOf(`ok: row for ${K2} written`, K1), "failure");
  assert.equal(
    toldOf(
      "ToolException: error: the ledger failed after writing the row; try again",
      K1,
    ),
    "tool-error",
  );
  assert.equal(toldOf("Request timed out", K1), "failure");
  assert.equal(toldOf("Unknown error", K1), "failure");
  assert.equal(
    toldOf(
      "Do not retry automatically; verify the outcome before trying again.",
      K1,
    ),
    "unknown",
  );
  assert.equal(toldOf("The outcome is UNKNOWN", K1), "unknown");
});

Deno.test("host checker: a history that does not open with its plan is refused", () => {
  const h = history("no-fault", start);
  assert.throws(() => judgeHostCase({ ...h, records: h.records.slice(1) }));
});

Deno.test("host checker: a cancel after guardlab's limit answers guardlab's stop, not the host's choice: not counted; one before it is", () => {
  // late-reply, the call in flight, then `between`, then the ledger read.
  const lateReply = (...between: Rec[]) =>
    judgeHostCase(history(
      "late-reply",
      start,
      asked,
      call(1, "written", "late"),
      ...between,
      read(K1, 1),
      read(K2, 0),
    ));
  // A host run in process is stopped through its AbortSignal, and its MCP
  // client then cancels the call in flight with the abort's reason.
  const stopped = lateReply(limit, {
    ...cancel,
    reason: "AbortError: The signal has been aborted",
  });
  assert.equal(stopped.cancelled, false);
  assert.equal(stopped.verdict, "STILL-WAITING");
  assert.deepEqual(stopped.info, []);
  assert.equal(stopped.host_end, "limit");
  // The host's own cancel, before the limit, still counts.
  const own = lateReply(cancel, limit);
  assert.equal(own.cancelled, true);
  assert.deepEqual(own.info, ["CANCELLED-AFTER-COMMIT"]);
});
