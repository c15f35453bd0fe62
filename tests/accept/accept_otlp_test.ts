/**
 * `accept --otlp FILE`: the run as a trace, decoded with OpenTelemetry's
 * own classes. The lost-reply-retry case against the example server that
 * duplicates on retry: the run's root, the case's span with its verdict,
 * the withheld call and the retry as the client's spans, the first read
 * that saw the effect as the commit point, each at the time its history
 * gives. The history is the report's own (`--json`, the same run).
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

  // The history, as written: the withheld call, a read, the retry, a read.
  const calls = history.records.filter((x) => x.op === "call");
  const reads = history.records.filter((x) => x.op === "read");
  assert.equal(calls.length, 2);
  assert.equal(reads.length, 2);
  // The first read saw the effect (1): the commit point, on the case (no
  // call was out); the second counted the duplicate.
  assert.deepEqual(names(kase), [
    "guardlab.effect_visible",
    "guardlab.effect_read",
  ]);
  assert.deepEqual(
    kase.events.map((e) => [e.timeUnixNano, attributesOf(e.attributes)]),
    [
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
    "guardlab.outcome": "ok",
    "guardlab.outcome.known": true,
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
