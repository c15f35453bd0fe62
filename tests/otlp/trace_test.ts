/**
 * The OTLP JSON encoder: what it writes decodes with OpenTelemetry's own
 * classes field for field, and its bounds hold whatever it is given (a
 * string cut and made inert as on screen, attributes, events and spans
 * dropped and counted, the file's bytes).
 */
import assert from "node:assert/strict";
import {
  encodeTrace,
  MAX_ATTRIBUTES,
  MAX_EVENTS,
  MAX_OTLP_BYTES,
  MAX_SPANS,
  MAX_TEXT_CHARS,
  shownText,
  type Span,
} from "../../lib/otlp/trace.ts";
import config from "../../deno.json" with { type: "json" };
import { attributesOf, decodeOtlpFile, spansOf } from "../_helpers/otlp.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const ROOT = "00f067aa0ba902b7";
const CHILD = "b7ad6b7169203331";

function span(over: Partial<Span> = {}): Span {
  return {
    traceId: TRACE,
    spanId: CHILD,
    parentSpanId: ROOT,
    name: "tools/call write_row",
    kind: "client",
    start: 1_765_000_000_000_000_000n,
    end: 1_765_000_000_250_000_000n,
    ...over,
  };
}

const root: Span = {
  traceId: TRACE,
  spanId: ROOT,
  name: "root",
  kind: "internal",
  start: 1_765_000_000_000_000_000n,
  end: 1_765_000_001_000_000_000n,
};

Deno.test("otlp: a trace decodes with OpenTelemetry's classes, as written", () => {
  const { text, spans, leftOut } = encodeTrace({
    resource: { "guardlab.source": "proxy" },
    spans: [
      root,
      span({
        attributes: {
          "mcp.method.name": "tools/call",
          "guardlab.call": 2,
          "guardlab.ratio": 0.5,
          "guardlab.reply.withheld": true,
          "guardlab.list": ["a", "b"],
          "guardlab.left": undefined,
        },
        events: [{
          name: "guardlab.effect_committed",
          time: 1_765_000_000_100_000_000n,
          attributes: { "guardlab.effect.count": 1 },
        }],
        links: [{ traceId: TRACE, spanId: ROOT, attributes: { why: "x" } }],
        error: "tool_error",
      }),
    ],
  });
  assert.deepEqual([spans, leftOut], [2, 0]);
  assert.equal(text.split("\n").length, 2, "one line, ending in a line feed");
  const file = decodeOtlpFile(text);
  const [rs] = file[0].resourceSpans;
  assert.deepEqual(attributesOf(rs.resource.attributes), {
    "service.name": "guardlab",
    "service.version": config.version,
    "guardlab.source": "proxy",
  });
  assert.equal(rs.scopeSpans[0].scope.name, "guardlab");
  assert.deepEqual(attributesOf(rs.scopeSpans[0].scope.attributes), {
    "guardlab.semconv": "1.41.1",
  });
  const [r, s] = spansOf(file);
  assert.deepEqual(
    [r.traceId, r.spanId, r.parentSpanId, r.name, r.kind],
    [TRACE, ROOT, "", "root", 1],
  );
  assert.deepEqual(
    [s.traceId, s.spanId, s.parentSpanId, s.name, s.kind],
    [TRACE, CHILD, ROOT, "tools/call write_row", 3],
  );
  assert.deepEqual(
    [s.startTimeUnixNano, s.endTimeUnixNano],
    ["1765000000000000000", "1765000000250000000"],
  );
  assert.deepEqual(attributesOf(s.attributes), {
    "mcp.method.name": "tools/call",
    "guardlab.call": 2,
    "guardlab.ratio": 0.5,
    "guardlab.reply.withheld": true,
    "guardlab.list": ["a", "b"],
  });
  assert.deepEqual(
    s.events.map((e) => [e.name, e.timeUnixNano, attributesOf(e.attributes)]),
    [["guardlab.effect_committed", "1765000000100000000", {
      "guardlab.effect.count": 1,
    }]],
  );
  assert.deepEqual(s.links.map((l) => [l.traceId, l.spanId]), [[TRACE, ROOT]]);
  // STATUS_CODE_ERROR is 2; the root has no status.
  assert.deepEqual(s.status, { code: 2, message: "tool_error" });
  assert.equal(r.status ?? null, null);
});

Deno.test("otlp: a string is cut by characters and shown inert, as on screen", () => {
  const hostile = "a\x1b[2J" + "x".repeat(400);
  assert.equal(
    shownText(hostile),
    "a\\u001b[2J" + "x".repeat(MAX_TEXT_CHARS - 5) + "…",
  );
  // A character past U+FFFF is one character, never split in two.
  assert.equal(shownText("😀".repeat(300)), "😀".repeat(MAX_TEXT_CHARS) + "…");
  assert.equal(shownText("JOB-001\u200b"), "JOB-001\\u200b");
  assert.equal(shownText("short"), "short");
  const { text } = encodeTrace({
    resource: {},
    spans: [
      root,
      span({ name: "tools/call \u202etxt.exe", attributes: { k: hostile } }),
    ],
  });
  const [, s] = spansOf(decodeOtlpFile(text));
  assert.equal(s.name, "tools/call \\u202etxt.exe");
  assert.equal(attributesOf(s.attributes).k, shownText(hostile));
});

Deno.test("otlp: a span keeps at most its bound of attributes and events, and counts the rest", () => {
  const attributes = Object.fromEntries(
    Array.from({ length: MAX_ATTRIBUTES + 3 }, (_, i) => [`k${i}`, i]),
  );
  const events = Array.from({ length: MAX_EVENTS + 5 }, (_, i) => ({
    name: `e${i}`,
    time: 1n + BigInt(i),
  }));
  const { text } = encodeTrace({
    resource: {},
    spans: [root, span({ attributes, events })],
  });
  const [, s] = spansOf(decodeOtlpFile(text));
  assert.equal(s.attributes.length, MAX_ATTRIBUTES);
  assert.equal(s.droppedAttributesCount, 3);
  assert.equal(s.events.length, MAX_EVENTS);
  assert.equal(s.droppedEventsCount, 5);
  assert.equal(s.events.at(-1)!.name, `e${MAX_EVENTS - 1}`);
});

Deno.test("otlp: past the bound of spans, the rest are left out and the root says how many", () => {
  const many = Array.from(
    { length: MAX_SPANS + 49 },
    (_, i) => span({ spanId: (i + 1).toString(16).padStart(16, "0") }),
  );
  const { text, spans, leftOut } = encodeTrace({
    resource: {},
    spans: [root, ...many],
  });
  assert.deepEqual([spans, leftOut], [MAX_SPANS, 50]);
  const decoded = spansOf(decodeOtlpFile(text));
  assert.equal(decoded.length, MAX_SPANS);
  assert.equal(
    attributesOf(decoded[0].attributes)["guardlab.otlp.spans_left_out"],
    50,
  );
  assert.equal(
    decoded.at(-1)!.spanId,
    (MAX_SPANS - 1).toString(16).padStart(16, "0"),
  );
});

Deno.test("otlp: the file stays within its bytes, however large each span is", () => {
  // Each value is 256 control characters, six bytes each once inert.
  const heavy = "\x01".repeat(MAX_TEXT_CHARS);
  const attributes = Object.fromEntries(
    Array.from({ length: MAX_ATTRIBUTES }, (_, i) => [`k${i}`, heavy]),
  );
  const spansIn = Array.from({ length: 1_000 }, () => span({ attributes }));
  const { text, spans, leftOut } = encodeTrace({
    resource: {},
    spans: [root, ...spansIn],
  });
  const bytes = new TextEncoder().encode(text).length;
  assert.ok(bytes <= MAX_OTLP_BYTES, `${bytes} bytes`);
  assert.ok(leftOut > 0 && spans + leftOut === 1_001, `${spans} + ${leftOut}`);
  const decoded = spansOf(decodeOtlpFile(text));
  assert.equal(
    attributesOf(decoded[0].attributes)["guardlab.otlp.spans_left_out"],
    leftOut,
  );
});

Deno.test("otlp: a span that ends before it starts ends when it starts", () => {
  const { text } = encodeTrace({
    resource: {},
    spans: [span({ start: 10n, end: 5n })],
  });
  const [s] = spansOf(decodeOtlpFile(text));
  assert.deepEqual([s.startTimeUnixNano, s.endTimeUnixNano], ["10", "10"]);
});

Deno.test("otlp: the decoder the tests use refuses what protobufjs alone would let pass", () => {
  const { text } = encodeTrace({ resource: {}, spans: [root] });
  const changed = (change: (s: Record<string, unknown>) => void) => {
    const json = JSON.parse(text);
    change(json.resourceSpans[0].scopeSpans[0].spans[0]);
    return JSON.stringify(json) + "\n";
  };
  const cases: [string, (s: Record<string, unknown>) => void][] = [
    ["a misspelled key", (s) => {
      s.spanID = s.spanId;
      delete s.spanId;
    }],
    ["an id that is not hex", (s) => {
      s.traceId = "zz".repeat(16);
    }],
    ["an id of the wrong length", (s) => {
      s.spanId = "00f067aa";
    }],
    ["an enum by name", (s) => {
      s.kind = "SPAN_KIND_BOGUS";
    }],
  ];
  for (const [what, change] of cases) {
    assert.throws(() => decodeOtlpFile(changed(change)), what);
  }
  assert.doesNotThrow(() => decodeOtlpFile(changed(() => {})));
});
