/**
 * The proxy's reads of the effect of each write, by key: which oracle
 * entry and key a write carries, and the reads of every key the session
 * wrote, one per key, once the client has gone (reads the agent never saw).
 *
 * @module
 */
import { type Oracle, pointerGet } from "./oracle.ts";
import type { RecordWriter } from "./record.ts";

/** The longest tool name or business key the proxy keeps for a call: 1024 characters (no real one is longer; a longer key is not read). */
export const MAX_KEPT_NAME = 1024;

/** The oracle's entry for a write, and its business key. */
export interface EffectTarget {
  /** The oracle's entry for the tool. */
  readonly spec: Oracle["tools"][number];
  /** The call's business key. */
  readonly key: string;
}

/** The oracle's entry for a write and its business key, or null when it has none (or one past {@linkcode MAX_KEPT_NAME}). */
export function writeKey(
  oracle: Oracle,
  tool: string,
  args: unknown,
): EffectTarget | null {
  const spec = oracle.tools.find((t) => t.tool === tool);
  if (spec === undefined) return null;
  const found = pointerGet(args, spec.key);
  if (
    !found.found ||
    (typeof found.value !== "string" && typeof found.value !== "number")
  ) return null;
  const key = String(found.value);
  return key.length > MAX_KEPT_NAME ? null : { spec, key };
}

/**
 * Read the effect of every key the session wrote (each with the calls that
 * wrote it): one read per key, through the server itself, after the
 * client has gone.
 */
export async function readEffects(
  keys: Iterable<EffectTarget & { readonly calls: readonly number[] }>,
  rec: RecordWriter,
  readCount: (
    spec: Oracle["tools"][number],
    key: string,
  ) => Promise<number | null>,
): Promise<number> {
  let n = 0;
  for (const { spec, key, calls } of keys) {
    const count = await readCount(spec, key);
    rec.write({
      kind: "effect",
      t: rec.now(),
      tool: spec.tool,
      key,
      calls: [...calls],
      count,
    });
    n++;
  }
  return n;
}
