/**
 * guardlab's OTLP files, read with OpenTelemetry's own decoder, not a
 * parser of the project's: each line of the JSON Lines file goes through
 * the protobufjs classes generated from the OTLP `.proto` files
 * (`TracesData.fromObject`, `verify`, an encode and decode round trip,
 * `toObject`), which `@opentelemetry/otlp-transformer` 0.216.0 ships.
 *
 * Three things protobufjs would let pass are refused here first, as the
 * research for issue 50 found them (`/work/notes/RESEARCH-46-47-50.md` C.1):
 * OTLP JSON writes ids as hex where proto3 JSON would read base64, so ids
 * are turned into bytes by hand (and must be hex); `fromObject` drops an
 * unknown key without a word, so every key is checked against the
 * generated class; an unknown enum name becomes 0, so OTLP's numeric enums
 * are checked to be numbers.
 */
import assert from "node:assert/strict";
import { otlpProtoRoot } from "./deps.ts";

/** A protobufjs generated message class, as far as these tests use it. */
interface MessageClass {
  fromObject(object: unknown): object;
  verify(message: unknown): string | null;
  encode(message: object): { finish(): Uint8Array };
  decode(bytes: Uint8Array): object;
  toObject(message: object, options: Record<string, unknown>): unknown;
}

const TracesData = (otlpProtoRoot as unknown as {
  opentelemetry: {
    proto: { trace: { v1: { TracesData: MessageClass } } };
  };
}).opentelemetry.proto.trace.v1.TracesData;

/** An attribute's value, as `toObject` gives it. */
export type DecodedValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: DecodedValue[] } };

/** A key-value pair. */
export interface DecodedAttribute {
  key: string;
  value: DecodedValue;
}

/** A span event, decoded. */
export interface DecodedEvent {
  timeUnixNano: string;
  name: string;
  attributes: DecodedAttribute[];
  droppedAttributesCount: number;
}

/** A span, decoded: ids as hex again. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: DecodedAttribute[];
  droppedAttributesCount: number;
  events: DecodedEvent[];
  droppedEventsCount: number;
  links: { traceId: string; spanId: string; attributes: DecodedAttribute[] }[];
  status?: { code: number; message: string };
}

/** One line of the file, decoded. */
export interface DecodedTraces {
  resourceSpans: {
    resource: { attributes: DecodedAttribute[] };
    scopeSpans: {
      scope: { name: string; version: string; attributes: DecodedAttribute[] };
      spans: DecodedSpan[];
    }[];
  }[];
}

const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);
const ID_HEX = { traceId: 32, spanId: 16, parentSpanId: 16 } as const;

function hexToBytes(key: string, hex: string): Uint8Array {
  assert.match(hex, /^([0-9a-f]{2})*$/, `${key} is lowercase hex: ${hex}`);
  assert.equal(hex.length, ID_HEX[key as keyof typeof ID_HEX], `${key} length`);
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/** `value` with every id turned from OTLP JSON's hex into bytes. */
function idsToBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(idsToBytes);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        ID_FIELDS.has(k) && typeof v === "string"
          ? hexToBytes(k, v)
          : idsToBytes(v),
      ]),
    );
  }
  return value;
}

/** Every key of `json` the generated message `message` has no field for. */
function unknownKeys(json: unknown, message: unknown, path = "$"): string[] {
  const bad: string[] = [];
  if (Array.isArray(json)) {
    json.forEach((x, i) =>
      bad.push(
        ...unknownKeys(
          x,
          (message as unknown[] | undefined)?.[i],
          `${path}[${i}]`,
        ),
      )
    );
  } else if (
    json !== null && typeof json === "object" && message !== null &&
    typeof message === "object" && !(message instanceof Uint8Array)
  ) {
    for (const [k, v] of Object.entries(json)) {
      if (!(k in message)) bad.push(`${path}.${k}`);
      else {
        bad.push(
          ...unknownKeys(
            v,
            (message as Record<string, unknown>)[k],
            `${path}.${k}`,
          ),
        );
      }
    }
  }
  return bad;
}

/** Every enum of OTLP JSON (a span's kind, a status's code) must be a number. */
function assertNumericEnums(json: DecodedTraces): void {
  for (const rs of json.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        assert.equal(typeof span.kind, "number", `${span.name}: kind`);
        if (span.status !== undefined) {
          assert.equal(
            typeof span.status.code,
            "number",
            `${span.name}: status`,
          );
        }
      }
    }
  }
}

function bytesToHex(bytes: unknown): string {
  return Array.isArray(bytes)
    ? bytes.map((b: number) => b.toString(16).padStart(2, "0")).join("")
    : "";
}

/** `decoded` with its ids as hex again, for comparing with what was written. */
function idsToHex(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(idsToHex);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        ID_FIELDS.has(k) ? bytesToHex(v) : idsToHex(v),
      ]),
    );
  }
  return value;
}

/** One line of OTLP JSON, decoded by OpenTelemetry's classes (see the module doc). */
export function decodeTracesLine(line: string): DecodedTraces {
  const json = JSON.parse(line);
  assertNumericEnums(json);
  const message = TracesData.fromObject(idsToBytes(json));
  assert.deepEqual(unknownKeys(json, message), [], "every key is OTLP's");
  assert.equal(TracesData.verify(message), null, "OTLP verifies");
  const again = TracesData.decode(TracesData.encode(message).finish());
  return idsToHex(
    TracesData.toObject(again, {
      longs: String,
      enums: Number,
      bytes: Array,
      defaults: true,
      arrays: true,
    }),
  ) as DecodedTraces;
}

/**
 * An OTLP file exporter's JSON Lines file, decoded line by line; each line
 * must end in a line feed.
 */
export function decodeOtlpFile(text: string): DecodedTraces[] {
  assert.ok(text.endsWith("\n"), "the last line ends in a line feed");
  return text.slice(0, -1).split("\n").map(decodeTracesLine);
}

/** The spans of a decoded file, in order. */
export function spansOf(file: DecodedTraces[]): DecodedSpan[] {
  return file.flatMap((t) =>
    t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
  );
}

/** An attribute's value as a plain value: strings, numbers (ints as numbers), flags, string lists. */
export function plainValue(v: DecodedValue): unknown {
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return v.doubleValue;
  if ("boolValue" in v) return v.boolValue;
  return v.arrayValue.values.map(plainValue);
}

/** Attributes as a plain object (each key once). */
export function attributesOf(
  attrs: DecodedAttribute[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of attrs) {
    assert.ok(!(a.key in out), `attribute ${a.key} once`);
    out[a.key] = plainValue(a.value);
  }
  return out;
}
