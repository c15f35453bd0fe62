/**
 * The grant: the student binary (temp folder only) runs the examples but
 * refuses to start a server, in one line that names the grant needed; the
 * engineer grant starts one. And every file `accept` and `proxy` read is
 * refused in one line (exit 4) when it is a link, too big, or outside the
 * sandbox, and left byte-identical.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnGuardlab } from "../_helpers/spawn.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
  runEngineer,
} from "../_helpers/accept_helpers.ts";
import { MAX_ORACLE_BYTES } from "../../lib/accept/limits.ts";
import { cli } from "../_helpers/helpers.ts";
import { listing } from "../_helpers/files.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";

Deno.test({
  name:
    "grant: under the student grant, accept and proxy refuse an outside command in one line naming the grant" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-grant-");
    const oracle = join(dir.path, "o.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    for (
      const args of [
        ["accept", "--oracle", oracle, "--", "true"],
        ["accept", "--oracle", oracle, "--url", "http://127.0.0.1:9/mcp"],
        ["proxy", "--", "true"],
      ]
    ) {
      const r = await spawnGuardlab(args);
      assert.equal(r.code, 4, args.join(" "));
      assert.deepEqual(r.out, []);
      assert.equal(r.err.length, 1, r.err.join("\n"));
      assert.match(r.err[0], /needs the engineer grant .*-P=guardlab-engineer/);
    }
    const zh = await spawnGuardlab(["proxy", "--lang", "zh", "--", "true"]);
    assert.match(zh.err[0], /需要工程师权限/);
    // A file outside the temp folder is the sandbox's refusal.
    const outside = await spawnGuardlab(["proxy", "show", "/etc/hostname"]);
    assert.equal(outside.code, 4);
    assert.match(outside.err[0], /refused by the sandbox/);
    // The examples need nothing beyond the temp folder.
    const example = await spawnGuardlab(["accept", "--example", "idempotent"]);
    assert.equal(example.code, 0, example.err.join("\n"));
  },
});

Deno.test({
  name:
    "grant: under the engineer grant, the server starts, and it gets only the environment the child needs" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-grant-env-");
    const oracle = join(dir.path, "o.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    // A server that writes its whole environment to a file, then dies before
    // initialize: accept reports it in one line, exit 6.
    const envFile = join(dir.path, "env.txt");
    const r = await runEngineer(
      [
        "accept",
        "--oracle",
        oracle,
        "--",
        "sh",
        "-c",
        `env > ${envFile}; echo the server cannot start >&2; exit 3`,
      ],
      "",
      { GUARDLAB_HEADER_TOKEN: "Bearer not-for-the-child" },
    );
    assert.equal(r.code, 6, r.err.join("\n"));
    assert.deepEqual(r.err, [
      "guardlab: the server exited before initialize was answered; nothing was tested (its last line on stderr: the server cannot start)",
    ]);
    const names = Deno.readTextFileSync(envFile).split("\n").filter((l) =>
      l !== ""
    ).map((l) => l.split("=")[0])
      .filter((n) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(n)).sort();
    // NO_COLOR and GUARDLAB_HEADER_TOKEN (which the grant lets guardlab
    // read, for --header-env) were in guardlab's environment, and are not
    // in the child's.
    assert.ok(
      names.every((n) =>
        ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"].includes(n)
      ),
      names.join(),
    );
    const missing = await runEngineer([
      "accept",
      "--oracle",
      oracle,
      "--",
      "no-such-program-here",
    ]);
    assert.equal(missing.code, 1);
    assert.deepEqual(missing.err, [
      'guardlab: cannot start "no-such-program-here": no such program',
    ]);
  },
});

Deno.test("grant: files accept and proxy read: a link, a file over its bound, a bad oracle, a missing file; each one line, nothing changed", async () => {
  using dir = privateDir("gl-grant-files-");
  const good = join(dir.path, "good.json");
  Deno.writeTextFileSync(good, JSON.stringify(EXAMPLE_ORACLE));
  const link = join(dir.path, "link.json");
  Deno.symlinkSync(good, link);
  const big = join(dir.path, "big.json");
  Deno.writeTextFileSync(big, " ".repeat(MAX_ORACLE_BYTES + 1));
  const bad = join(dir.path, "bad.json");
  Deno.writeTextFileSync(bad, JSON.stringify({ tools: [{ tool: "x" }] }));
  const record = join(dir.path, "r.jsonl");
  Deno.writeTextFileSync(
    record,
    JSON.stringify({ kind: "start", guardlab_proxy: 1, command: ["x"] }) + "\n",
  );
  const before = await listing(dir.path);
  // proxy show reads the oracle without starting anything, under any grant.
  const show = (oracle: string) =>
    cli(["proxy", "show", record, "--oracle", oracle]);
  const linked = await show(link);
  assert.equal(linked.code, 4);
  assert.equal(linked.err.length, 1);
  assert.match(
    linked.err[0],
    /is a symbolic link; guardlab never follows links/,
  );
  const tooBig = await show(big);
  assert.equal(tooBig.code, 4);
  assert.match(tooBig.err[0], /is larger than 262144 bytes; not read/);
  const broken = await show(bad);
  assert.equal(broken.code, 2);
  assert.match(
    broken.err[0],
    /bad\.json": tools\[0\]\.call must be a JSON object/,
  );
  const missing = await show(join(dir.path, "none.json"));
  assert.equal(missing.code, 1);
  assert.match(missing.err[0], /cannot read the oracle from/);
  const notRecord = await cli(["proxy", "show", good]);
  assert.equal(notRecord.code, 2);
  assert.match(notRecord.err[0], /is not a guardlab proxy record \(line 1\)/);
  assert.deepEqual(await listing(dir.path), before);
});
