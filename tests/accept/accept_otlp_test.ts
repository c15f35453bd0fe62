/**
 * `accept --otlp FILE`: the run as a trace, decoded with OpenTelemetry's
 * own classes. The lost-reply-retry case against the example server that
 * duplicates on retry: the run's root, the case's span with its verdict,
 * the withheld call and the retry as the client's spans, the first read
 * that saw the effect as the commit point, each at the time its history
 * gives. The history is the report's own (`--json`, the same run). And
 * historyTrace (the seam another subject's histories use) on a history
 * written by hand: a cancelled call whose effect a read in flight saw.
 */
import assert from "node:assert/strict";
import { cli } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";
import {
  attributesOf,
  type DecodedSpan,
  decodeOtlpFile,
  spansOf,
} from "../_helpers/otlp.ts";
import type { AcceptReport } from "../../lib/accept/run.ts";
import type { CaseHistory } from "../../lib/accept/mod.ts";
import { historyTrace } from "../../lib/accept/views/accept_otlp.ts";
import { encodeTrace } from "../../lib/otlp/trace.ts";

/** `ms` Unix milliseconds (a tenth kept) as OTLP writes them. */
const ns = (ms: number) => String(BigInt(Math.round(ms * 1000)) * 1000n);

function names(s: DecodedSpan) {
  return s.events.map((e) => e.name);
}

Deno.test("accept --otlp: the lost reply and its retry, each span and the first read that saw the effect, at the history's times", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/run.jsonl`;
  const r = await cli([
    "accept",
    "--example",
    "duplicates-on-retry",
    "--cases",
    "lost-reply-retry",
    "--json",
    "--otlp",
    file,
  ]);
  assert.equal(r.code, 5, r.err.join("\n"));
  const report = JSON.parse(r.out.join("\n")) as AcceptReport;
  const [row] = report.results;
  const { history } = row;
  const epoch = history.epoch_ms!;
  assert.equal(typeof epoch, "number");
  const spans = spansOf(decodeOtlpFile(Deno.readTextFileSync(file)));
  const [root, kase, call1, call2, ...rest] = spans;
  assert.deepEqual(rest, []);
  assert.ok(spans.every((s) => s.traceId === root.traceId));

  assert.deepEqual([root.name, root.kind, root.parentSpanId], [
    "accept",
    1,
    "",
  ]);
  assert.deepEqual(attributesOf(root.attributes), {
    "guardlab.source": "accept",
    "guardlab.server": "guardlab-example-duplicates-on-retry 1",
    "guardlab.unsafe": 1,
    "guardlab.inconclusive": 0,
  });

  // The case: its verdict, unsafe, so its status is an error.
  assert.deepEqual(
    [kase.name, kase.parentSpanId, kase.startTimeUnixNano],
    ["case lost-reply-retry", root.spanId, ns(epoch)],
  );
  assert.deepEqual(attributesOf(kase.attributes), {
    "guardlab.case": "lost-reply-retry",
    "gen_ai.tool.name": "put_note",
    "guardlab.verdict": row.verdict,
    "guardlab.verdict.class": "unsafe",
    "guardlab.job": row.key,
  });
  assert.deepEqual(kase.status, { code: 2, message: row.verdict });

  // The history, as written: the fresh key's read, the withheld call, a
  // read, the retry, a read.
  const calls = history.records.filter((x) => x.op === "call");
  const [fresh, ...reads] = history.records.filter((x) => x.op === "read");
  assert.equal(calls.length, 2);
  assert.equal(reads.length, 2);
  assert.equal(fresh.fresh, true);
  // The case's own key, read before any call used it.
  assert.equal(fresh.key, row.key);
  // The fresh read proved the count (0 for a key no call used); the next
  // read saw the effect (1): the commit point, on the case (no call was
  // out); the last counted the duplicate.
  assert.deepEqual(names(kase), [
    "guardlab.fresh_read",
    "guardlab.effect_visible",
    "guardlab.effect_read",
  ]);
  assert.deepEqual(
    kase.events.map((e) => [e.timeUnixNano, attributesOf(e.attributes)]),
    [
      [ns(epoch + fresh.at_ms), {
        "gen_ai.tool.name": "get_notes",
        "guardlab.job": row.key,
        "guardlab.effect.count": 0,
      }],
      [ns(epoch + reads[0].at_ms), {
        "gen_ai.tool.name": "get_notes",
        "guardlab.job": row.key,
        "guardlab.effect.count": 1,
      }],
      [ns(epoch + reads[1].at_ms), {
        "gen_ai.tool.name": "get_notes",
        "guardlab.job": row.key,
        "guardlab.effect.count": 2,
      }],
    ],
  );

  // Call 1: the server answered; guardlab kept the answer from the client.
  for (
    const [span, record] of [[call1, calls[0]], [call2, calls[1]]] as const
  ) {
    assert.deepEqual(
      [span.name, span.kind, span.parentSpanId],
      ["tools/call put_note", 3, kase.spanId],
    );
    assert.equal(span.startTimeUnixNano, ns(epoch + record.at_ms));
    assert.equal(span.endTimeUnixNano, ns(epoch + record.answer.at_ms!));
  }
  assert.deepEqual(attributesOf(call1.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "guardlab.call": 1,
    "guardlab.job": row.key,
    // The server answered; the client never got it.
    "guardlab.outcome": "ok",
    "guardlab.outcome.known": false,
    "guardlab.reply.withheld": true,
  });
  assert.deepEqual(names(call1), ["guardlab.fault.withhold"]);
  assert.deepEqual(attributesOf(call2.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "guardlab.call": 2,
    "guardlab.job": row.key,
    "guardlab.retry": true,
    "guardlab.outcome": "ok",
    "guardlab.outcome.known": true,
  });
  assert.deepEqual(names(call2), []);
});

Deno.test("accept --otlp: a name that is taken is refused before the server starts", async () => {
  await using dir = await tempDir();
  const taken = `${dir.path}/taken.jsonl`;
  Deno.writeTextFileSync(taken, "mine\n");
  const r = await cli([
    "accept",
    "--example",
    "idempotent",
    "--otlp",
    taken,
  ]);
  assert.equal(r.code, 4);
  assert.deepEqual(r.out, []);
  assert.equal(r.err.length, 1);
  assert.match(r.err[0], /exists already/);
  assert.equal(Deno.readTextFileSync(taken), "mine\n");
});

/** When the hand-written case began, Unix ms. */
const EPOCH = 1_765_000_000_000;
const T = "4bf92f3577b34da6a3ce929d0e0e4736";
/** Span ids in the order historyTrace asks for them: root, case, calls. */
const [ROOT, CASE, C1, C2] = [1, 2, 3, 4].map((n) => `00000000000000a${n}`);

/**
 * A cancel case as written by hand: the server's process 1 started; call
 * 1 (a tool name with an invisible override) read twice while it was out,
 * the second read seeing the effect; the cancel; the server answers twice
 * and is killed; a read after; the retry, refused by the tool.
 */
const CANCELLED: CaseHistory = {
  version: 1,
  subject: "mcp-server",
  epoch_ms: EPOCH,
  records: [
    { op: "process", at_ms: 0, event: "start", process: 1 },
    {
      op: "call",
      at_ms: 2,
      call: 1,
      tool: "put_note\u202e",
      key: "k-1",
      process: 1,
      answer: { outcome: "cancelled", at_ms: 40 },
    },
    {
      op: "read",
      at_ms: 15,
      tool: "get_notes",
      key: "k-1",
      count: 0,
      in_flight: true,
      process: 1,
    },
    {
      op: "read",
      at_ms: 20,
      tool: "get_notes",
      key: "k-1",
      count: 1,
      in_flight: true,
      process: 1,
    },
    {
      op: "fault",
      at_ms: 25,
      fault: "cancel",
      call: 1,
      sent: true,
      after_ms: 23,
      from: "flag",
    },
    { op: "problem", at_ms: 30, problem: "answered-twice", id: 1, process: 1 },
    { op: "fault", at_ms: 35, fault: "kill", process: 1 },
    { op: "process", at_ms: 36, event: "exit", process: 1 },
    { op: "read", at_ms: 50, tool: "get_notes", key: "k-1", count: 1 },
    {
      op: "call",
      at_ms: 60,
      call: 2,
      tool: "put_note",
      key: "k-1",
      retry: true,
      answer: { outcome: "error", error: "tool", text: "exists", at_ms: 70 },
    },
  ],
};

Deno.test("historyTrace: a history written by hand, the commit point on the call in flight when it was read, an outcome the client cannot know, each record where it happened", () => {
  let n = 0;
  const ids = { traceId: T, spanId: () => [ROOT, CASE, C1, C2][n++] };
  const trace = historyTrace("host", { "guardlab.source": "host" }, [{
    name: "cancel",
    tool: "put_note",
    verdict: "EFFECT-AFTER-CANCEL",
    class: "unsafe",
    key: "k-1",
    history: CANCELLED,
  }], ids);
  const spans = spansOf(decodeOtlpFile(encodeTrace(trace).text));
  const [root, kase, c1, c2, ...rest] = spans;
  assert.deepEqual(rest, []);
  const ms = (t: number) => ns(EPOCH + t);
  const read = (count: number, process?: number) => ({
    "gen_ai.tool.name": "get_notes",
    "guardlab.job": "k-1",
    "guardlab.effect.count": count,
    ...(process === undefined ? {} : { "guardlab.process": process }),
  });
  const p1 = { "guardlab.process": 1 };

  assert.deepEqual(
    [root.traceId, root.spanId, root.parentSpanId, root.name],
    [T, ROOT, "", "host"],
  );
  assert.deepEqual([root.startTimeUnixNano, root.endTimeUnixNano], [
    ms(0),
    ms(70),
  ]);
  assert.deepEqual(attributesOf(root.attributes), {
    "guardlab.source": "host",
  });

  assert.deepEqual(
    [kase.spanId, kase.parentSpanId, kase.name, kase.kind],
    [CASE, ROOT, "case cancel", 1],
  );
  assert.deepEqual([kase.startTimeUnixNano, kase.endTimeUnixNano], [
    ms(0),
    ms(70),
  ]);
  assert.deepEqual(kase.status, { code: 2, message: "EFFECT-AFTER-CANCEL" });
  // Everything no call was out for: the process's life, the server's
  // problem, the kill, the read after.
  assert.deepEqual(
    kase.events.map((
      e,
    ) => [e.name, e.timeUnixNano, attributesOf(e.attributes)]),
    [
      ["guardlab.process.start", ms(0), p1],
      ["guardlab.problem", ms(30), {
        "guardlab.problem": "answered-twice",
        "jsonrpc.request.id": "1",
      }],
      ["guardlab.fault.kill", ms(35), p1],
      ["guardlab.process.exit", ms(36), p1],
      ["guardlab.effect_read", ms(50), read(1)],
    ],
  );

  // Call 1: cancelled, so the client cannot know how it ended; the
  // commit point is on it, at the read that first saw the effect.
  assert.deepEqual(
    [c1.spanId, c1.parentSpanId, c1.name, c1.kind],
    [C1, CASE, "tools/call put_note\\u202e", 3],
  );
  assert.deepEqual([c1.startTimeUnixNano, c1.endTimeUnixNano], [
    ms(2),
    ms(40),
  ]);
  assert.deepEqual(attributesOf(c1.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note\\u202e",
    "gen_ai.operation.name": "execute_tool",
    "guardlab.call": 1,
    "guardlab.job": "k-1",
    "guardlab.process": 1,
    "guardlab.outcome": "cancelled",
    "guardlab.outcome.known": false,
  });
  assert.equal(c1.status?.code ?? 0, 0);
  assert.deepEqual(
    c1.events.map((e) => [e.name, e.timeUnixNano, attributesOf(e.attributes)]),
    [
      ["guardlab.effect_read", ms(15), read(0, 1)],
      ["guardlab.effect_visible", ms(20), read(1, 1)],
      ["guardlab.fault.cancel", ms(25), {
        "guardlab.sent": true,
        "guardlab.after_ms": 23,
        "guardlab.from": "flag",
      }],
    ],
  );

  // Call 2: the retry, refused by the tool, in the tool's words.
  assert.deepEqual([c2.spanId, c2.parentSpanId], [C2, CASE]);
  assert.deepEqual([c2.startTimeUnixNano, c2.endTimeUnixNano], [
    ms(60),
    ms(70),
  ]);
  assert.deepEqual(attributesOf(c2.attributes), {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "put_note",
    "gen_ai.operation.name": "execute_tool",
    "error.type": "tool_error",
    "guardlab.call": 2,
    "guardlab.job": "k-1",
    "guardlab.retry": true,
    "guardlab.outcome": "error",
    "guardlab.outcome.known": true,
  });
  assert.deepEqual(c2.status, { code: 2, message: "exists" });
  assert.deepEqual(c2.events, []);
});
