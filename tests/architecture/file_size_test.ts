/**
 * Files small enough to read in one sitting: no file in `lib/` over 600
 * lines, none under `lib/cli/` over 300 (a command parses its flags and
 * calls the layers below; anything longer is logic in the wrong room).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { libFiles, ROOT } from "../_helpers/source.ts";

/** The most lines a file in `lib/` may have, and a file under `lib/cli/`. */
const MAX_LINES = { lib: 600, cli: 300 } as const;

Deno.test("file size: lib/ files within 600 lines, lib/cli/ files within 300", () => {
  const over: string[] = [];
  for (const path of libFiles()) {
    const text = Deno.readTextFileSync(join(ROOT, "lib", path));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const max = path.startsWith("cli/") ? MAX_LINES.cli : MAX_LINES.lib;
    if (lines > max) over.push(`lib/${path}: ${lines} lines (at most ${max})`);
  }
  assert.deepEqual(over, []);
});
