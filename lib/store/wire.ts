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
  const text = canonicalJson(args);
  let digest = known.get(text);
  if (digest === undefined) {
    digest = sha256Hex(text);
    // Bounded: a script of a million distinct keys holds no more than this.
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(text, digest);
  }
  return digest;
}

/**
 * SHA-256 hex of `text`, a request already in canonical form: what
 * {@linkcode fingerprint} hashes, for a caller that puts many such texts
 * together from parts it made once (reconciliation's candidates), with no
 * object to make canonical and nothing kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { digestOfCanonical, fingerprint } from "./wire.ts";
 * const args = { job: "JOB-001", topic: "river", copies: 2 };
 * assert.equal(
 *   digestOfCanonical('{"copies":2,"job":"JOB-001","topic":"river"}'),
 *   fingerprint(args),
 * );
 * ```
 */
export function digestOfCanonical(text: string): string {
  return sha256Hex(text);
}

/**
 * The digests of the canonical texts seen last (at most {@linkcode MAX_KNOWN}):
 * a key's attempts and retries hash the same text again, and SHA-256 written
 * in JavaScript is a few microseconds of each `run` step.
 */
const known = new Map<string, string>();
const MAX_KNOWN = 4096;
