/**
 * `accept host --otlp FILE`: a report's host histories as a trace,
 * decoded with OpenTelemetry's own classes (@opentelemetry/otlp-transformer
 * 0.216.0), each span, event and attribute checked against what is written
 * here by hand. Two cases: a host that resends a late call over stdio
 * (the unkeyed tool writes it twice), and one over HTTP that passes the
 * tool's error on, so the naive model calls again under a new key.
 */
import assert from "node:assert/strict";
import {
  attributesOf,
  type DecodedSpan,
  decodeOtlpFile,
  spansOf,
} from "../_helpers/otlp.ts";
import type { HostHistory } from "../../lib/accept/_host_history.ts";
import { judgeHostCase } from "../../lib/accept/_host_checker.ts";
import type {
  HostCaseResult,
  HostReport,
} from "../../lib/accept/host_report.ts";
import { hostTrace, randomIds } from "../../lib/accept/host_otlp.ts";
import { judgeHostReport } from "../../lib/accept/host_judge.ts";
import { encodeTrace } from "../../lib/otlp/trace.ts";

/** When the first case began, Unix ms; the second began a minute later. */
const EPOCH = 1_765_000_000_000;
const EPOCH2 = EPOCH + 60_000;
const T = "4bf92f3577b34da6a3ce929d0e0e4736";
/** A dummy key as accept host makes them, said back by a host. */
const DUMMY = "guardlab-dummy-0123abcd-4567-89ab-cdef-0123456789ab";
const HINTS_UNKEYED = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
};
const ARGS = { key: "k-1", amount: 5 };

/**
 * Over stdio, unkeyed, late-reply: the model asks for call 1; the tool
 * writes it and withholds the answer; the host cancels it, sends it again
 * by itself (a second row), and hands the model the resend's success.
 */
const RESENDS: HostHistory = {
  version: 1,
  subject: "agent-host",
  epoch_ms: EPOCH,
  records: [
    {
      op: "plan",
      at_ms: 0,
      case: "late-reply",
      variant: "unkeyed",
      transport: "stdio",
      tool: "write_row",
      hints: HINTS_UNKEYED,
      key: "k-1",
      new_key: "k-2",
    },
    { op: "process", at_ms: 0.5, who: "host", event: "start" },
    { op: "process", at_ms: 10, who: "tool", event: "start", conn: 1 },
    {
      op: "process",
      at_ms: 11,
      who: "tool",
      event: "initialized",
      conn: 1,
      client: "fixture-host 1.0.0",
    },
    { op: "listed", at_ms: 12, conn: 1 },
    {
      op: "model",
      at_ms: 20,
      request: 1,
      offered: true,
      results: [],
      reply: "call-1",
    },
    {
      op: "call",
      at_ms: 30,
      call: 1,
      conn: 1,
      id: 2,
      key: "k-1",
      arguments: ARGS,
      effect: "written",
      reply: "late",
    },
    { op: "fault", at_ms: 30.5, fault: "withhold", call: 1 },
    {
      op: "cancel",
      at_ms: 3030,
      conn: 1,
      id: 2,
      call: 1,
      reason: "timed out",
    },
    {
      op: "fault",
      at_ms: 3030.2,
      fault: "release",
      call: 1,
      after: "cancel",
    },
    {
      op: "call",
      at_ms: 3040,
      call: 2,
      conn: 1,
      id: 3,
      key: "k-1",
      arguments: { amount: 5, key: "k-1" },
      effect: "written",
      reply: "ok",
    },
    {
      op: "model",
      at_ms: 3050,
      request: 2,
      stream: true,
      offered: true,
      results: [{ call: 1, text: "ok: row for k-1 written" }],
      reply: "done",
    },
    { op: "process", at_ms: 3060, who: "host", event: "exit", code: 0 },
    { op: "read", at_ms: 3070, key: "k-1", count: 2 },
    { op: "read", at_ms: 3071, key: "k-2", count: 0 },
  ],
};

/**
 * Over HTTP, keyed, error-after-commit: the tool writes call 1 and answers
 * its error; the host passes it on (with the dummy key in it); the naive
 * model calls again under the new key, which writes a second row; a
 * request without the run's key; the host exits 1 with a session still
 * open.
 */
const PASSES_ERROR: HostHistory = {
  version: 1,
  subject: "agent-host",
  epoch_ms: EPOCH2,
  records: [
    {
      op: "plan",
      at_ms: 0,
      case: "error-after-commit",
      variant: "keyed",
      transport: "http",
      tool: "write_row",
      hints: { ...HINTS_UNKEYED, idempotentHint: true },
      key: "j-1",
      new_key: "j-2",
    },
    { op: "process", at_ms: 0, who: "host", event: "start" },
    { op: "process", at_ms: 5, who: "tool", event: "start", conn: 1 },
    {
      op: "model",
      at_ms: 10,
      request: 1,
      offered: true,
      offered_as: "mcp__guardlab__write_row",
      results: [],
      reply: "call-1",
    },
    {
      op: "call",
      at_ms: 20,
      call: 1,
      conn: 1,
      id: `a\u202e ${DUMMY}`,
      key: "j-1",
      arguments: { key: "j-1", amount: 5 },
      effect: "written",
      reply: "error",
    },
    { op: "fault", at_ms: 20.1, fault: "error", call: 1 },
    {
      op: "model",
      at_ms: 40,
      request: 2,
      offered: true,
      offered_as: "mcp__guardlab__write_row",
      results: [{
        call: 1,
        text:
          `error: the ledger failed after writing the row; try again (${DUMMY})`,
      }],
      reply: "call-2",
    },
    {
      op: "call",
      at_ms: 50,
      call: 2,
      conn: 1,
      id: 7,
      key: "j-2",
      arguments: { key: "j-2", amount: 5 },
      effect: "written",
      reply: "ok",
    },
    {
      op: "call",
      at_ms: 55,
      call: 3,
      conn: 1,
      id: 8,
      key: "j-2",
      arguments: { key: "j-2", amount: 5 },
      effect: "reused",
      reply: "ok",
    },
    {
      op: "model",
      at_ms: 60,
      request: 3,
      offered: true,
      offered_as: "mcp__guardlab__write_row",
      results: [
        {
          call: 1,
          text:
            `error: the ledger failed after writing the row; try again (${DUMMY})`,
        },
        { call: 2, text: "ok: row for j-2 written" },
        { call: null, text: "something else" },
      ],
      reply: "done",
    },
    { op: "problem", at_ms: 70, where: "model", problem: "unauthorized" },
    { op: "process", at_ms: 80, who: "host", event: "exit", code: 1 },
    { op: "read", at_ms: 90, key: "j-1", count: 1 },
    { op: "read", at_ms: 91, key: "j-2", count: 1 },
  ],
};

/** A row as accept host makes it: the checker's facts, the history, and what the host wrote. */
function rowOf(history: HostHistory): HostCaseResult {
  const plan = history.records[0];
  assert.equal(plan.op, "plan");
  return {
    ...judgeHostCase(history),
    case: plan.case,
    variant: plan.variant,
    transport: plan.transport,
    clients: plan.transport === "stdio" ? ["fixture-host 1.0.0"] : [],
    key: plan.key,
    new_key: plan.new_key,
    ms: 3100,
    // The host's output is the report's, never the trace's.
    host_output: [`node /home/eng/secret-host.mjs --key ${DUMMY}`],
    history,
  };
}

const REPORT: HostReport = {
  kind: "accept-host",
  host: { program: "secret-host-program" },
  transport: "stdio",
  case_ms: 60000,
  results: [rowOf(RESENDS), rowOf(PASSES_ERROR)],
  unsafe: 1,
  inconclusive: 0,
};

/** Span ids in the order hostTrace asks for them: the root, then each case and its spans in order. */
const IDS = Array.from(
  { length: 13 },
  (_, n) => (n + 1).toString(16).padStart(16, "0"),
);

/** An event that names a key and its rows, as `events` gives it. */
const effect = (name: string, at: string, job: string, count: number) => [
  name,
  at,
  { "guardlab.job": job, "guardlab.effect.count": count },
];

function events(s: DecodedSpan) {
  return s.events.map((e) => [
    e.name,
    e.timeUnixNano,
    attributesOf(e.attributes),
  ]);
}

/** `ms` Unix milliseconds (a tenth kept) as OTLP writes them. */
const ns = (ms: number) => String(BigInt(Math.round(ms * 1000)) * 1000n);
const a = (t: number) => ns(EPOCH + t);
const b = (t: number) => ns(EPOCH2 + t);

function traced() {
  let n = 0;
  const text = encodeTrace(
    hostTrace(REPORT, { traceId: T, spanId: () => IDS[n++] }),
  ).text;
  assert.equal(n, 13);
  return { text, spans: spansOf(decodeOtlpFile(text)) };
}

const STDIO = { "network.transport": "pipe" };
const HTTP = { "network.transport": "tcp", "network.protocol.name": "http" };
const TOOLS_CALL = {
  "mcp.method.name": "tools/call",
  "gen_ai.tool.name": "write_row",
  "gen_ai.operation.name": "execute_tool",
};

Deno.test("hostTrace: the tree, the run and the cases, written by hand", () => {
  const { text, spans } = traced();
  // Nothing of the host's command, its output or the dummy key.
  for (const never of ["secret", "0123abcd", "/home/eng", "--key"]) {
    assert.equal(text.includes(never), false, never);
  }
  assert.ok(text.includes("guardlab-dummy-…"), "the key said back, masked");
  assert.ok(spans.every((s) => s.traceId === T));
  assert.deepEqual(
    spans.map((s) => [s.spanId, s.parentSpanId, s.name, s.kind]),
    [
      [IDS[0], "", "accept host", 1],
      [IDS[1], IDS[0], "case late-reply/unkeyed", 1],
      [IDS[2], IDS[1], "chat", 2],
      [IDS[3], IDS[1], "tools/call write_row", 2],
      [IDS[4], IDS[1], "tools/call write_row", 2],
      [IDS[5], IDS[1], "chat", 2],
      [IDS[6], IDS[0], "case error-after-commit/keyed", 1],
      [IDS[7], IDS[6], "chat", 2],
      [IDS[8], IDS[6], "tools/call write_row", 2],
      [IDS[9], IDS[6], "chat", 2],
      [IDS[10], IDS[6], "tools/call write_row", 2],
      [IDS[11], IDS[6], "tools/call write_row", 2],
      [IDS[12], IDS[6], "chat", 2],
    ],
  );
  const [root, case1] = spans;
  const case2 = spans[6];
  assert.deepEqual([root.startTimeUnixNano, root.endTimeUnixNano], [
    a(0),
    b(91),
  ]);
  assert.deepEqual(attributesOf(root.attributes), {
    "guardlab.source": "accept host",
    "guardlab.transport": "stdio",
    "guardlab.case_ms": 60000,
    "guardlab.unsafe": 1,
    "guardlab.inconclusive": 0,
  });
  assert.equal(root.status?.code ?? 0, 0);

  assert.deepEqual([case1.startTimeUnixNano, case1.endTimeUnixNano], [
    a(0),
    a(3071),
  ]);
  assert.deepEqual(attributesOf(case1.attributes), {
    "guardlab.case": "late-reply",
    "guardlab.variant": "unkeyed",
    "guardlab.transport": "stdio",
    "gen_ai.tool.name": "write_row",
    "guardlab.verdict": "RESENT-DUPLICATED",
    "guardlab.verdict.class": "unsafe",
    "guardlab.verdict.info": ["CANCELLED-AFTER-COMMIT"],
    "guardlab.job": "k-1",
    "guardlab.job.new": "k-2",
    "guardlab.clients": ["fixture-host 1.0.0"],
  });
  assert.deepEqual(case1.status, { code: 2, message: "RESENT-DUPLICATED" });
  assert.deepEqual(events(case1), [
    ["guardlab.host.start", a(0.5), {}],
    ["guardlab.tool.start", a(10), { "guardlab.conn": 1 }],
    ["guardlab.tool.initialized", a(11), {
      "guardlab.conn": 1,
      "guardlab.client": "fixture-host 1.0.0",
    }],
    ["guardlab.listed", a(12), { "guardlab.conn": 1 }],
    ["guardlab.host.exit", a(3060), { "process.exit.code": 0 }],
    effect("guardlab.effect_read", a(3070), "k-1", 2),
    effect("guardlab.effect_read", a(3071), "k-2", 0),
  ]);

  assert.deepEqual([case2.startTimeUnixNano, case2.endTimeUnixNano], [
    b(0),
    b(91),
  ]);
  assert.deepEqual(attributesOf(case2.attributes), {
    "guardlab.case": "error-after-commit",
    "guardlab.variant": "keyed",
    "guardlab.transport": "http",
    "gen_ai.tool.name": "write_row",
    "guardlab.verdict": "PASSED-ON-ERROR",
    "guardlab.verdict.class": "info",
    "guardlab.verdict.info": ["NEW-KEY-DOUBLED"],
    "guardlab.job": "j-1",
    "guardlab.job.new": "j-2",
  });
  assert.equal(case2.status?.code ?? 0, 0);
  assert.deepEqual(events(case2), [
    ["guardlab.host.start", b(0), {}],
    ["guardlab.tool.start", b(5), { "guardlab.conn": 1 }],
    ["guardlab.problem", b(70), {
      "guardlab.problem": "unauthorized",
      "guardlab.problem.where": "model",
    }],
    ["guardlab.host.exit", b(80), { "process.exit.code": 1 }],
    effect("guardlab.effect_read", b(90), "j-1", 1),
    effect("guardlab.effect_read", b(91), "j-2", 1),
  ]);
});

Deno.test("hostTrace: a resent late call, the commit on each call that made it, the cancel and the fault on the call they name", () => {
  const [, , model1, call1, call2, model2] = traced().spans;
  assert.deepEqual([model1.startTimeUnixNano, model1.endTimeUnixNano], [
    a(20),
    a(20),
  ]);
  assert.deepEqual(attributesOf(model1.attributes), {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.stream": false,
    "gen_ai.response.id": "chatcmpl-guardlab-1",
    "gen_ai.response.finish_reasons": ["tool_calls"],
    "guardlab.model.reply": "call-1",
    "guardlab.model.call": 1,
    "guardlab.tool.offered": true,
  });
  assert.deepEqual(events(model1), []);

  // Call 1: written (the commit point, 1 row), its answer withheld until
  // the host cancelled it, then released: the host never knew.
  assert.deepEqual([call1.startTimeUnixNano, call1.endTimeUnixNano], [
    a(30),
    a(3030.2),
  ]);
  assert.deepEqual(attributesOf(call1.attributes), {
    ...TOOLS_CALL,
    "jsonrpc.request.id": "2",
    ...STDIO,
    "guardlab.call": 1,
    "guardlab.conn": 1,
    "guardlab.job": "k-1",
    "guardlab.model.call": 1,
    "guardlab.effect": "written",
    "guardlab.reply": "late",
    "guardlab.reply.withheld": true,
    "guardlab.outcome.known": false,
  });
  assert.equal(call1.status?.code ?? 0, 0);
  assert.deepEqual(events(call1), [
    effect("guardlab.effect_visible", a(30), "k-1", 1),
    ["guardlab.fault.withhold", a(30.5), {}],
    ["guardlab.cancelled", a(3030), {
      "mcp.method.name": "notifications/cancelled",
      "jsonrpc.request.id": "2",
      "guardlab.conn": 1,
      "guardlab.reason": "timed out",
    }],
    ["guardlab.fault.release", a(3030.2), { "guardlab.after": "cancel" }],
  ]);

  // Call 2: the host's own resend, the same arguments in another order;
  // the unkeyed tool wrote it again: the second row.
  assert.deepEqual([call2.startTimeUnixNano, call2.endTimeUnixNano], [
    a(3040),
    a(3040),
  ]);
  assert.deepEqual(attributesOf(call2.attributes), {
    ...TOOLS_CALL,
    "jsonrpc.request.id": "3",
    ...STDIO,
    "guardlab.call": 2,
    "guardlab.conn": 1,
    "guardlab.job": "k-1",
    "guardlab.model.call": 1,
    "guardlab.retry": true,
    "guardlab.arguments.same": true,
    "guardlab.effect": "written",
    "guardlab.reply": "ok",
    "guardlab.outcome.known": true,
  });
  assert.deepEqual(events(call2), [
    effect("guardlab.effect_visible", a(3040), "k-1", 2),
  ]);

  // What the model was told: the resend's success, streamed.
  assert.deepEqual(attributesOf(model2.attributes), {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.stream": true,
    "gen_ai.response.id": "chatcmpl-guardlab-2",
    "gen_ai.response.finish_reasons": ["stop"],
    "guardlab.model.reply": "done",
    "guardlab.tool.offered": true,
  });
  assert.deepEqual(events(model2), [
    ["guardlab.model.told", a(3050), {
      "guardlab.model.call": 1,
      "gen_ai.tool.call.result": "ok: row for k-1 written",
      "guardlab.told.as": "success",
    }],
  ]);
});

Deno.test("hostTrace: the tool's error passed on, the naive model's new key, each result told once on the request that first carried it", () => {
  const spans = traced().spans;
  const [model1, call1, model2, call2, call3, model3] = spans.slice(7);
  const offered = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.stream": false,
    "guardlab.tool.offered": true,
    "guardlab.tool.offered_as": "mcp__guardlab__write_row",
  };
  assert.deepEqual(attributesOf(model1.attributes), {
    ...offered,
    "gen_ai.response.id": "chatcmpl-guardlab-1",
    "gen_ai.response.finish_reasons": ["tool_calls"],
    "guardlab.model.reply": "call-1",
    "guardlab.model.call": 1,
  });

  // Call 1: written, then the tool's error answered after the commit.
  assert.deepEqual([call1.startTimeUnixNano, call1.endTimeUnixNano], [
    b(20),
    b(20.1),
  ]);
  assert.deepEqual(attributesOf(call1.attributes), {
    ...TOOLS_CALL,
    "jsonrpc.request.id": "a\\u202e guardlab-dummy-…",
    ...HTTP,
    "error.type": "tool_error",
    "guardlab.call": 1,
    "guardlab.conn": 1,
    "guardlab.job": "j-1",
    "guardlab.model.call": 1,
    "guardlab.effect": "written",
    "guardlab.reply": "error",
    "guardlab.outcome.known": true,
  });
  assert.deepEqual(call1.status, { code: 2, message: "tool_error" });
  assert.deepEqual(events(call1), [
    effect("guardlab.effect_visible", b(20), "j-1", 1),
    ["guardlab.fault.error", b(20.1), {}],
  ]);

  // The model is told the tool's error (the key said back, masked) and
  // asks again under the new key.
  assert.deepEqual(attributesOf(model2.attributes), {
    ...offered,
    "gen_ai.response.id": "chatcmpl-guardlab-2",
    "gen_ai.response.finish_reasons": ["tool_calls"],
    "guardlab.model.reply": "call-2",
    "guardlab.model.call": 2,
  });
  assert.deepEqual(events(model2), [
    ["guardlab.model.told", b(40), {
      "guardlab.model.call": 1,
      "gen_ai.tool.call.result":
        "error: the ledger failed after writing the row; try again (guardlab-dummy-…)",
      "guardlab.told.as": "tool-error",
    }],
  ]);

  // The new key's call writes a second row; a call under it again is
  // answered from that row.
  assert.deepEqual(attributesOf(call2.attributes), {
    ...TOOLS_CALL,
    "jsonrpc.request.id": "7",
    ...HTTP,
    "guardlab.call": 2,
    "guardlab.conn": 1,
    "guardlab.job": "j-2",
    "guardlab.model.call": 2,
    "guardlab.effect": "written",
    "guardlab.reply": "ok",
    "guardlab.outcome.known": true,
  });
  assert.deepEqual(events(call2), [
    effect("guardlab.effect_visible", b(50), "j-2", 1),
  ]);
  assert.deepEqual(
    [attributesOf(call3.attributes)["guardlab.effect"], events(call3)],
    ["reused", [effect("guardlab.effect_reused", b(55), "j-2", 1)]],
  );
  assert.equal(attributesOf(call3.attributes)["guardlab.retry"], undefined);

  // The third request carries the first result again: told once, above.
  assert.deepEqual(events(model3), [
    ["guardlab.model.told", b(60), {
      "guardlab.model.call": 2,
      "gen_ai.tool.call.result": "ok: row for j-2 written",
      "guardlab.told.as": "success",
    }],
    ["guardlab.model.told", b(60), {
      "gen_ai.tool.call.result": "something else",
    }],
  ]);
});

/** A case with one call under the first key, answered as `reply` (its fault at 40), ending at 100. */
function oneCall(
  reply: "none" | "killed" | "http-503" | "reset" | "expired" | "error",
  effect: "written" | "refused" = "written",
): HostHistory {
  const fault = {
    none: "withhold",
    killed: "kill",
    "http-503": "http-503",
    reset: "reset",
    expired: "expire",
    error: "error",
  } as const;
  return {
    version: 1,
    subject: "agent-host",
    epoch_ms: EPOCH,
    records: [
      { ...RESENDS.records[0], case: "no-reply" } as HostHistory["records"][0],
      {
        op: "call",
        at_ms: 30,
        call: 1,
        conn: 1,
        id: 2,
        key: "k-1",
        arguments: ARGS,
        effect,
        reply,
      },
      ...(effect === "refused"
        ? []
        : [{ op: "fault", at_ms: 40, fault: fault[reply], call: 1 } as const]),
      { op: "cancel", at_ms: 50, conn: 1, id: 99, call: null },
      { op: "process", at_ms: 100, who: "host", event: "limit" },
    ],
  };
}

Deno.test("hostTrace: each way a reply is lost, as the host met it: when the call's span ends, its error, what the host could know", () => {
  const cases = [
    // reply, effect, end, error.type, withheld, known, events on the call
    ["none", "written", 100, undefined, true, false, "withhold"],
    ["killed", "written", 40, undefined, undefined, false, "kill"],
    ["http-503", "written", 40, "503", undefined, false, "http-503"],
    // A connection closed with no answer has no status, as a killed process.
    ["reset", "written", 40, undefined, undefined, false, "reset"],
    ["expired", "written", 40, "404", undefined, false, "expire"],
    ["error", "refused", 30, "tool_error", undefined, true, undefined],
  ] as const;
  for (const [reply, effect, end, error, withheld, known, fault] of cases) {
    const history = oneCall(reply, effect);
    let n = 0;
    const [, kase, call, ...rest] = spansOf(decodeOtlpFile(
      encodeTrace(hostTrace({
        ...REPORT,
        results: [{ ...rowOf(history), clients: [] }],
      }, { traceId: T, spanId: () => IDS[n++] })).text,
    ));
    assert.deepEqual(rest, [], reply);
    assert.equal(call.endTimeUnixNano, a(end), reply);
    const attrs = attributesOf(call.attributes);
    assert.deepEqual(
      [
        attrs["error.type"],
        attrs["guardlab.reply"],
        attrs["guardlab.reply.withheld"],
        attrs["guardlab.outcome.known"],
        attrs["guardlab.effect"],
        call.status?.code ?? 0,
      ],
      [error, reply, withheld, known, effect, error === undefined ? 0 : 2],
      reply,
    );
    assert.deepEqual(
      call.events.map((e) => e.name),
      effect === "refused"
        ? []
        : ["guardlab.effect_visible", `guardlab.fault.${fault}`],
      reply,
    );
    // A cancel that names no call of the tool's is the case's; so is the
    // end at the case's limit.
    assert.deepEqual(
      kase.events.map((e) => [e.name, e.timeUnixNano]),
      [["guardlab.cancelled", a(50)], ["guardlab.host.limit", a(100)]],
      reply,
    );
  }
});

Deno.test("accept judge keeps a host history's start on the wall clock when it is one, and drops it otherwise", () => {
  for (
    const [given, kept] of [
      [EPOCH, EPOCH],
      [1e20, undefined],
      [-5, undefined],
      ["soon", undefined],
    ] as const
  ) {
    const saved = structuredClone(REPORT) as unknown as {
      results: { history: { epoch_ms?: unknown } }[];
    };
    saved.results[0].history.epoch_ms = given;
    const { report } = judgeHostReport(JSON.stringify(saved), "r.json");
    assert.equal(report.results[0].history.epoch_ms, kept, String(given));
    assert.equal(report.results[1].history.epoch_ms, EPOCH2);
  }
});

Deno.test("hostTrace: a run past the trace's bound keeps 10,000 spans, and the root says how many it left out", () => {
  // Three cases of 4,000 model requests each (a host's record holds at
  // most 5,000): 1 + 3 + 12,000 spans made.
  const flood: HostHistory = {
    ...PASSES_ERROR,
    records: [
      PASSES_ERROR.records[0],
      ...Array.from({ length: 4000 }, (_, n) => ({
        op: "model" as const,
        at_ms: n,
        request: n + 1,
        offered: true,
        results: [],
        reply: "done" as const,
      })),
    ],
  };
  const row = rowOf(flood);
  const encoded = encodeTrace(
    hostTrace({ ...REPORT, results: [row, row, row] }, randomIds()),
  );
  assert.deepEqual([encoded.spans, encoded.leftOut], [10_000, 2_004]);
  const spans = spansOf(decodeOtlpFile(encoded.text));
  assert.equal(spans.length, 10_000);
  assert.equal(
    attributesOf(spans[0].attributes)["guardlab.otlp.spans_left_out"],
    2_004,
  );
});
