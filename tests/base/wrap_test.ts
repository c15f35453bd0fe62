/**
 * A run of closing punctuation wider than a line (receipt events stored as
 * `[[[…]]]`, shown as their text) is cut where the line is full. The cut
 * used to move back over the run to keep it with the character before it,
 * into the continuation's indent: every next line started with the indent
 * again and grew, and `ledger` ran until it was out of memory.
 */
import assert from "node:assert/strict";
import { wrap } from "../../lib/base/terminal.ts";

Deno.test("wrap: a run of closing punctuation wider than a line is cut where the line is full", () => {
  for (const [open, close] of [["[", "]"], ["(", ")"], ["（", "）"]]) {
    const text = open.repeat(300) + close.repeat(300);
    const lines = wrap(`      ${text}`, 80);
    // Every character is there, in order, each line within 80 columns.
    assert.equal(lines.map((l) => l.trimStart()).join(""), text);
    assert.ok(lines.every((l) => [...l].length <= 80), lines.join("\n"));
    assert.ok(lines.length < 20, `${lines.length} lines`);
  }
});
