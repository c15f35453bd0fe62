/**
 * The proxy's reads of the effect of each write, by key: which oracle
 * entry and key a write carries, and the reads of every key the session
 * wrote, one per key, once the client has gone (reads the agent never saw).
 *
 * @module
 */
import { type Oracle, pointerGet } from "./oracle.ts";
import type { RecordWriter } from "./record.ts";

/** The oracle's entry for a write and its business key, or null when it has none. */
export function writeKey(
  oracle: Oracle,
  tool: string,
  args: unknown,
): { spec: Oracle["tools"][number]; key: string } | null {
  const spec = oracle.tools.find((t) => t.tool === tool);
  if (spec === undefined) return null;
  const found = pointerGet(args, spec.key);
  if (
    !found.found ||
    (typeof found.value !== "string" && typeof found.value !== "number")
  ) return null;
  return { spec, key: String(found.value) };
}

/**
 * Read the effect of every write the session made, by key: one read per
 * key, through the server itself, after the client has gone.
 */
export async function readEffects(
  oracle: Oracle,
  writes: readonly { call: number; tool: string; args: unknown }[],
  rec: RecordWriter,
  readCount: (
    spec: Oracle["tools"][number],
    key: string,
  ) => Promise<number | null>,
): Promise<number> {
  const keys = new Map<
    string,
    { spec: Oracle["tools"][number]; key: string; calls: number[] }
  >();
  for (const w of writes) {
    const target = writeKey(oracle, w.tool, w.args);
    if (target === null) continue;
    const at = `${w.tool}\u0000${target.key}`;
    const entry = keys.get(at) ?? { ...target, calls: [] };
    entry.calls.push(w.call);
    keys.set(at, entry);
  }
  for (const { spec, key, calls } of keys.values()) {
    const count = await readCount(spec, key);
    rec.write({
      kind: "effect",
      t: rec.now(),
      tool: spec.tool,
      key,
      calls,
      count,
    });
  }
  return keys.size;
}
