/**
 * The draft digest, byte-exact with the reference Python lab, so that one
 * ledger file can be continued by either implementation (the text forms it
 * hashes are in `base/json.ts`).
 *
 * @module
 */
import { canonicalJson } from "../base/json.ts";
import { sha256Hex } from "./_sha256.ts";

/**
 * SHA-256 hex of the canonical JSON of `args`: equal digests mean equal requests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprint } from "../mod.ts";
 *
 * // Key order does not matter: the JSON is canonical (sorted, compact).
 * assert.equal(
 *   fingerprint({ job: "JOB-001", topic: "river", copies: 2 }),
 *   fingerprint({ copies: 2, topic: "river", job: "JOB-001" }),
 * );
 * ```
 */
export function fingerprint(args: unknown): string {
  return sha256Hex(canonicalJson(args));
}
