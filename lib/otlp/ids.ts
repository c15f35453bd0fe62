/**
 * Trace and span ids, and W3C trace context. An id is either derived (a
 * SHA-256 of what it names, so the same input always gives the same ids:
 * a ledger exported twice is the same trace) or random (the Web Crypto
 * generator: a proxy's span, made once as the call passes and kept in the
 * record). OTLP JSON writes ids as lowercase hex: 32 digits for a trace, 16
 * for a span; neither may be all zeros.
 *
 * @module
 */

/** A trace id: 32 lowercase hex digits, not all zeros. */
const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
/** A span id: 16 lowercase hex digits, not all zeros. */
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

/** Whether `value` is a valid trace id. */
export function isTraceId(value: unknown): value is string {
  return typeof value === "string" && TRACE_ID.test(value);
}

/** Whether `value` is a valid span id. */
export function isSpanId(value: unknown): value is string {
  return typeof value === "string" && SPAN_ID.test(value);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `n` random bytes as hex, never all zeros. */
function randomHex(n: number): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    if (bytes.some((b) => b !== 0)) return hex(bytes);
  }
}

/** A new random trace id. */
export function randomTraceId(): string {
  return randomHex(16);
}

/** A new random span id. */
export function randomSpanId(): string {
  return randomHex(8);
}

/**
 * The first `n` bytes of SHA-256 of `parts` (joined by NUL, which no part
 * holds where it matters: the parts are guardlab's own words and numbers
 * beside one stored string), as hex; an all-zero result (2^-64 at worst)
 * is hashed again.
 */
async function derivedHex(
  n: number,
  parts: readonly string[],
): Promise<string> {
  let input = new TextEncoder().encode(parts.join("\0"));
  for (;;) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
    const bytes = digest.subarray(0, n);
    if (bytes.some((b) => b !== 0)) return hex(bytes);
    input = digest;
  }
}

/**
 * A trace id derived from `parts`: the same parts, the same id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { derivedTraceId } from "./ids.ts";
 * const a = await derivedTraceId(["ledger", "/tmp/x/lab.sqlite"]);
 * assert.equal(a, await derivedTraceId(["ledger", "/tmp/x/lab.sqlite"]));
 * assert.match(a, /^[0-9a-f]{32}$/);
 * ```
 */
export function derivedTraceId(parts: readonly string[]): Promise<string> {
  return derivedHex(16, ["trace", ...parts]);
}

/** A span id derived from its trace and `parts`: the same input, the same id. */
export function derivedSpanId(
  traceId: string,
  parts: readonly string[],
): Promise<string> {
  return derivedHex(8, ["span", traceId, ...parts]);
}

/** A W3C trace context: the trace, the parent span, and whether it was sampled. */
export interface TraceContext {
  /** The trace id. */
  traceId: string;
  /** The parent's span id. */
  parentId: string;
  /** Whether the caller sampled it (the flags' low bit). */
  sampled: boolean;
}

/**
 * W3C Trace Context's `traceparent`: version, trace id, parent id, flags.
 * A version other than `00` may carry more fields after a dash; `ff` is
 * never valid.
 */
const TRACEPARENT =
  /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The longest `traceparent` read (a later version may be longer than 55). */
export const MAX_TRACEPARENT_CHARS = 512;

/**
 * The trace context in a `traceparent` value, or null when it is not one
 * (wrong shape, version `ff`, an all-zero id, a version `00` with more).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTraceparent } from "./ids.ts";
 * assert.deepEqual(
 *   parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
 *   { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7", sampled: true },
 * );
 * assert.equal(parseTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"), null);
 * ```
 */
export function parseTraceparent(value: unknown): TraceContext | null {
  if (typeof value !== "string" || value.length > MAX_TRACEPARENT_CHARS) {
    return null;
  }
  const m = TRACEPARENT.exec(value);
  if (m === null) return null;
  const [, version, traceId, parentId, flags, rest] = m;
  if (version === "ff" || (version === "00" && rest !== undefined)) {
    return null;
  }
  if (!isTraceId(traceId) || !isSpanId(parentId)) return null;
  return { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` (version 00) of span `spanId` in trace `traceId`, sampled. */
export function traceparentOf(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
