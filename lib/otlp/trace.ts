/**
 * A trace as guardlab writes it, and its OTLP JSON form: the OpenTelemetry
 * protocol's JSON encoding of a `TracesData` (`resourceSpans`), one object
 * on one line, as the OTLP file exporter writes JSON Lines. Ids are hex,
 * times are nanoseconds since the Unix epoch written as decimal strings,
 * enums are numbers.
 *
 * Bounded, whatever it is given: every string is cut to
 * {@linkcode MAX_TEXT_CHARS} (names to {@linkcode MAX_NAME_CHARS}) and made
 * inert, as a screen shows it; a span keeps at most
 * {@linkcode MAX_ATTRIBUTES} attributes and {@linkcode MAX_EVENTS} events,
 * and says how many it dropped in OTLP's own `dropped…Count` fields; the
 * file holds at most {@linkcode MAX_SPANS} spans in
 * {@linkcode MAX_OTLP_BYTES}, and the first span (the root) says how many
 * were left out.
 *
 * @module
 */
import { inert } from "../base/terminal.ts";
import config from "../../deno.json" with { type: "json" };
import { GUARDLAB, OTEL, SEMCONV_VERSION } from "./semconv.ts";

/** A time: nanoseconds since the Unix epoch. */
export type Nanos = bigint;

/** An attribute's value: a string, an integer or other number, a flag, or strings. */
export type AttributeValue = string | number | boolean | readonly string[];

/** Attributes by name; an `undefined` value is left out. */
export type Attributes = Readonly<Record<string, AttributeValue | undefined>>;

/** OTLP's span kinds, as their numbers. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

/** A span's kind. */
export type SpanKind = keyof typeof SPAN_KIND;

/** Something that happened at one moment in a span. */
export interface SpanEvent {
  /** What happened. */
  readonly name: string;
  /** When. */
  readonly time: Nanos;
  /** What else to say. */
  readonly attributes?: Attributes;
}

/** A link to a span of another trace, or of this one. */
export interface SpanLink {
  /** The other span's trace. */
  readonly traceId: string;
  /** The other span. */
  readonly spanId: string;
  /** Why it is linked. */
  readonly attributes?: Attributes;
}

/** One span. */
export interface Span {
  /** Its trace. */
  readonly traceId: string;
  /** Its id. */
  readonly spanId: string;
  /** Its parent's id, unless it is a root. */
  readonly parentSpanId?: string;
  /** Its name. */
  readonly name: string;
  /** Its kind. */
  readonly kind: SpanKind;
  /** When it started. */
  readonly start: Nanos;
  /** When it ended (not before `start`). */
  readonly end: Nanos;
  /** What it is. */
  readonly attributes?: Attributes;
  /** What happened in it, in order. */
  readonly events?: readonly SpanEvent[];
  /** Spans it relates to. */
  readonly links?: readonly SpanLink[];
  /** When set, the span's status is ERROR with this message. */
  readonly error?: string;
}

/** A trace to write: what wrote it, and its spans, the root first. */
export interface Trace {
  /** The resource's attributes beside `service.name` and `service.version`. */
  readonly resource: Attributes;
  /** The spans; the first is the root, and is always written. */
  readonly spans: readonly Span[];
}

/** The most characters of a string value written (the rest cut, ending in "…"). */
export const MAX_TEXT_CHARS = 256;
/** The most characters of a span's or an event's name. */
export const MAX_NAME_CHARS = 128;
/** The most attributes of one span, event, link or resource. */
export const MAX_ATTRIBUTES = 32;
/** The most events of one span. */
export const MAX_EVENTS = 64;
/** The most links of one span. */
export const MAX_LINKS = 8;
/** The most spans of one file. */
export const MAX_SPANS = 10_000;
/** The most bytes of one file (with its line feed). */
export const MAX_OTLP_BYTES = 32 << 20;

/** What {@linkcode encodeTrace} wrote. */
export interface Encoded {
  /** The file's text: one JSON line, ending in a line feed. */
  readonly text: string;
  /** How many spans it holds. */
  readonly spans: number;
  /** How many spans its bounds left out. */
  readonly leftOut: number;
}

/** `ms` milliseconds since the epoch (a fraction kept to the microsecond) as {@linkcode Nanos}. */
export function nanosOfMillis(ms: number): Nanos {
  return BigInt(Math.round(ms * 1000)) * 1000n;
}

/** `us` microseconds since the epoch as {@linkcode Nanos}. */
export function nanosOfMicros(us: number): Nanos {
  return BigInt(Math.round(us)) * 1000n;
}

/**
 * `text` as written: cut to `max` characters (code points, so no character
 * is split), "…" after a cut, then made inert (`base/terminal.ts`): a
 * control or invisible character shows as `\uXXXX`, as on screen.
 */
export function shownText(text: string, max: number = MAX_TEXT_CHARS): string {
  // A huge string costs no more than its first 2 * max units.
  const head = text.length > 2 * max ? text.slice(0, 2 * max) : text;
  const chars = Array.from(head);
  const cut = chars.length > max || head.length < text.length;
  return inert(cut ? chars.slice(0, max).join("") + "…" : head);
}

type JsonValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: { stringValue: string }[] } };

function valueOf(v: AttributeValue): JsonValue {
  if (typeof v === "string") return { stringValue: shownText(v) };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") {
    return Number.isSafeInteger(v)
      ? { intValue: String(v) }
      : { doubleValue: Number.isFinite(v) ? v : 0 };
  }
  return {
    arrayValue: {
      values: v.slice(0, MAX_ATTRIBUTES).map((s) => ({
        stringValue: shownText(s),
      })),
    },
  };
}

/** `attrs` as OTLP key-value pairs, at most {@linkcode MAX_ATTRIBUTES}, and how many were dropped. */
function attributesOf(attrs: Attributes | undefined): {
  attributes: { key: string; value: JsonValue }[];
  dropped: number;
} {
  const all = Object.entries(attrs ?? {}).filter(([, v]) => v !== undefined);
  return {
    attributes: all.slice(0, MAX_ATTRIBUTES).map(([key, v]) => ({
      key: shownText(key, MAX_NAME_CHARS),
      value: valueOf(v!),
    })),
    dropped: Math.max(0, all.length - MAX_ATTRIBUTES),
  };
}

/** The OTLP JSON object of one span, its own bounds applied. */
function spanJson(span: Span): Record<string, unknown> {
  const { attributes, dropped } = attributesOf(span.attributes);
  const events = (span.events ?? []).slice(0, MAX_EVENTS).map((e) => {
    const a = attributesOf(e.attributes);
    return {
      timeUnixNano: String(e.time),
      name: shownText(e.name, MAX_NAME_CHARS),
      attributes: a.attributes,
      ...(a.dropped > 0 ? { droppedAttributesCount: a.dropped } : {}),
    };
  });
  const links = (span.links ?? []).slice(0, MAX_LINKS).map((l) => {
    const a = attributesOf(l.attributes);
    return {
      traceId: l.traceId,
      spanId: l.spanId,
      attributes: a.attributes,
      ...(a.dropped > 0 ? { droppedAttributesCount: a.dropped } : {}),
    };
  });
  const droppedEvents = (span.events?.length ?? 0) - events.length;
  const droppedLinks = (span.links?.length ?? 0) - links.length;
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === undefined
      ? {}
      : { parentSpanId: span.parentSpanId }),
    name: shownText(span.name, MAX_NAME_CHARS),
    kind: SPAN_KIND[span.kind],
    startTimeUnixNano: String(span.start),
    endTimeUnixNano: String(span.end < span.start ? span.start : span.end),
    attributes,
    ...(dropped > 0 ? { droppedAttributesCount: dropped } : {}),
    events,
    ...(droppedEvents > 0 ? { droppedEventsCount: droppedEvents } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(droppedLinks > 0 ? { droppedLinksCount: droppedLinks } : {}),
    // STATUS_CODE_ERROR is 2; a span without an error leaves it unset.
    ...(span.error === undefined
      ? {}
      : { status: { code: 2, message: shownText(span.error) } }),
  };
}

const encoder = new TextEncoder();

/**
 * `trace` as the OTLP file exporter's JSON Lines: one `TracesData` on one
 * line. The spans after the root are kept in order while the file stays
 * within {@linkcode MAX_SPANS} and {@linkcode MAX_OTLP_BYTES}; the root,
 * written first, says how many were left out
 * (`guardlab.otlp.spans_left_out`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeTrace } from "./trace.ts";
 * const { text, spans } = encodeTrace({
 *   resource: {},
 *   spans: [{
 *     traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7",
 *     name: "tools/call write_row", kind: "client", start: 1n, end: 2n,
 *   }],
 * });
 * assert.equal(spans, 1);
 * assert.equal(JSON.parse(text).resourceSpans[0].scopeSpans[0].spans[0].kind, 3);
 * ```
 */
export function encodeTrace(trace: Trace): Encoded {
  const [root, ...rest] = trace.spans;
  const kept: string[] = [];
  // Room kept for the root and the wrapping, each within its own bounds.
  let bytes = 256 << 10;
  for (const span of rest) {
    if (kept.length + 1 >= MAX_SPANS) break;
    const text = JSON.stringify(spanJson(span));
    const size = encoder.encode(text).length + 1;
    if (bytes + size > MAX_OTLP_BYTES) break;
    bytes += size;
    kept.push(text);
  }
  const leftOut = rest.length - kept.length;
  const spans = root === undefined ? [] : [
    JSON.stringify(spanJson(
      leftOut === 0 ? root : {
        ...root,
        attributes: { [GUARDLAB.spansLeftOut]: leftOut, ...root.attributes },
      },
    )),
    ...kept,
  ];
  const resource = attributesOf({
    [OTEL.serviceName]: "guardlab",
    [OTEL.serviceVersion]: config.version,
    ...trace.resource,
  });
  const head = JSON.stringify({
    resourceSpans: [{
      resource: {
        attributes: resource.attributes,
        ...(resource.dropped > 0
          ? { droppedAttributesCount: resource.dropped }
          : {}),
      },
      scopeSpans: [{
        scope: {
          name: "guardlab",
          version: config.version,
          attributes: attributesOf({ [GUARDLAB.semconv]: SEMCONV_VERSION })
            .attributes,
        },
        spans: [],
      }],
    }],
  });
  // The spans go where the empty list is, the last `[]` of the text (only
  // closing brackets follow it): each span was serialized once.
  const at = head.lastIndexOf("[]");
  const text = `${head.slice(0, at)}[${spans.join(",")}]${
    head.slice(at + 2)
  }\n`;
  return { text, spans: spans.length, leftOut };
}
