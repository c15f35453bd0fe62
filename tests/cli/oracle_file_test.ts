/**
 * The oracle file of `accept` and `proxy`: a missing file or a folder is one
 * line and exit 1, a malformed oracle a usage error naming the command, a
 * good one read as written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readOracleFile } from "../../lib/cli/oracle_file.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { UsageError } from "../../lib/cli/parser.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("oracle file: missing, a folder, malformed, good", async () => {
  await using dirFolder = await tempDir("gl-oracle-");
  const dir = dirFolder.path;
  const trusted = [dir];
  const io = memoryIo("", false, dir);
  const missing = join(dir, "nope.json");
  assert.equal(await readOracleFile(missing, trusted, io, "en", "proxy"), 1);
  assert.deepEqual(io.stderr, [
    `guardlab: cannot read the oracle from "${missing}": not a readable file`,
  ]);
  const zh = memoryIo("", false, dir);
  assert.equal(await readOracleFile(dir, trusted, zh, "zh", "accept"), 1);
  assert.deepEqual(zh.stderr, [
    `guardlab: 无法从 "${dir}" 读取该 oracle 文件：不是可读的文件`,
  ]);
  const bad = join(dir, "bad.json");
  await Deno.writeTextFile(bad, '{"tools": 3}', { mode: 0o600 });
  await assert.rejects(
    () => readOracleFile(bad, trusted, io, "en", "accept"),
    (e: unknown) => e instanceof UsageError && e.command === "accept",
  );
  const good = join(dir, "good.json");
  await Deno.writeTextFile(good, JSON.stringify(EXAMPLE_ORACLE), {
    mode: 0o600,
  });
  const oracle = await readOracleFile(good, trusted, io, "en", "accept");
  assert.ok(typeof oracle === "object");
  assert.deepEqual(
    oracle.tools.map((t) => t.tool),
    EXAMPLE_ORACLE.tools.map((t) => t.tool),
  );
});
