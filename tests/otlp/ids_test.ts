/** Trace and span ids, random and derived, and W3C `traceparent`. */
import assert from "node:assert/strict";
import {
  derivedSpanId,
  derivedTraceId,
  isSpanId,
  isTraceId,
  parseTraceparent,
  randomSpanId,
  randomTraceId,
  traceparentOf,
} from "../../lib/otlp/ids.ts";

Deno.test("otlp ids: random ids are hex of the right length, and differ", () => {
  const traces = new Set(Array.from({ length: 100 }, randomTraceId));
  const spans = new Set(Array.from({ length: 100 }, randomSpanId));
  assert.equal(traces.size, 100);
  assert.equal(spans.size, 100);
  assert.ok([...traces].every(isTraceId));
  assert.ok([...spans].every(isSpanId));
});

Deno.test("otlp ids: derived ids are the same for the same input, and differ otherwise", async () => {
  const a = await derivedTraceId(["ledger", "/tmp/a/lab.sqlite", "1"]);
  assert.equal(a, await derivedTraceId(["ledger", "/tmp/a/lab.sqlite", "1"]));
  assert.notEqual(
    a,
    await derivedTraceId(["ledger", "/tmp/b/lab.sqlite", "1"]),
  );
  assert.ok(isTraceId(a));
  const s = await derivedSpanId(a, ["receipt", "1"]);
  assert.ok(isSpanId(s));
  assert.equal(s, await derivedSpanId(a, ["receipt", "1"]));
  assert.notEqual(s, await derivedSpanId(a, ["receipt", "2"]));
});

Deno.test("otlp ids: traceparent is read as W3C Trace Context says", () => {
  const T = "4bf92f3577b34da6a3ce929d0e0e4736";
  const P = "00f067aa0ba902b7";
  assert.deepEqual(parseTraceparent(`00-${T}-${P}-01`), {
    traceId: T,
    parentId: P,
    sampled: true,
  });
  assert.deepEqual(parseTraceparent(`00-${T}-${P}-00`)?.sampled, false);
  // A later version may carry more after a dash; version 00 may not.
  assert.equal(parseTraceparent(`01-${T}-${P}-01-what-next`)?.traceId, T);
  for (
    const bad of [
      `00-${T}-${P}-01-more`,
      `ff-${T}-${P}-01`,
      `00-${"0".repeat(32)}-${P}-01`,
      `00-${T}-${"0".repeat(16)}-01`,
      `00-${T.toUpperCase()}-${P}-01`,
      `00-${T}-${P.slice(1)}-01`,
      `00-${T}-${P}`,
      "",
      42,
      null,
      `01-${T}-${P}-01-${"x".repeat(600)}`,
    ]
  ) {
    assert.equal(parseTraceparent(bad), null, String(bad));
  }
  assert.equal(traceparentOf(T, P), `00-${T}-${P}-01`);
});
