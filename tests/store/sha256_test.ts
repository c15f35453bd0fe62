/**
 * The draft digest's SHA-256 against the published test vectors (FIPS 180-4
 * examples, NIST's byte-oriented vectors) and against `node:crypto` on
 * random texts of every length around the block boundaries, so a ledger
 * written by either implementation keeps its digests.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex } from "../../lib/store/_sha256.ts";
import { fc } from "../_helpers/deps.ts";

const nodeSha256 = (text: string) =>
  createHash("sha256").update(text).digest("hex");

Deno.test("sha256: the published test vectors", () => {
  const vectors: [string, string][] = [
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    [
      "abc",
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    [
      "a".repeat(1_000_000),
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    ],
  ];
  for (const [text, digest] of vectors) {
    assert.equal(sha256Hex(text), digest, `${text.length} characters`);
  }
});

Deno.test("sha256: the same digest as node:crypto, every length around a block and any text", () => {
  // Lengths where the padding changes shape: 55, 56 and 64 bytes, and more.
  for (let n = 0; n <= 200; n++) {
    const text = "x".repeat(n);
    assert.equal(sha256Hex(text), nodeSha256(text), `${n} bytes`);
  }
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
      assert.equal(sha256Hex(text), nodeSha256(text));
    }),
    { numRuns: 500 },
  );
  // Unpaired surrogates are encoded as U+FFFD by both.
  for (const text of ["\ud800", "a\udfffb", "\ud83d"]) {
    assert.equal(sha256Hex(text), nodeSha256(text), JSON.stringify(text));
  }
});
