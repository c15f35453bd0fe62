/**
 * OpenTelemetry traces of guardlab's timelines: the OTLP JSON form
 * (`trace.ts`), trace and span ids and W3C trace context (`ids.ts`), and
 * the attribute names, OpenTelemetry's as semantic conventions 1.41 name
 * them and guardlab's own (`semconv.ts`). What each timeline becomes is
 * said where that timeline is drawn: a ledger's in
 * `views/ledger_otlp.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeTrace, randomSpanId, randomTraceId } from "./mod.ts";
 * const traceId = randomTraceId();
 * const { text } = encodeTrace({
 *   resource: {},
 *   spans: [{ traceId, spanId: randomSpanId(), name: "root", kind: "internal", start: 0n, end: 1n }],
 * });
 * assert.equal(JSON.parse(text).resourceSpans[0].scopeSpans[0].spans[0].traceId, traceId);
 * ```
 *
 * @module
 */
export * from "./ids.ts";
export * from "./semconv.ts";
export * from "./trace.ts";
