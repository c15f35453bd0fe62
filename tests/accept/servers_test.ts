/**
 * `accept` as an engineer runs it, through the CLI under the engineer grant
 * (`deno task guardlab-engineer`): against guardlab's own `guardlab mcp`
 * (every verdict safe) and against a real MCP server someone else wrote,
 * `@modelcontextprotocol/server-memory` and `server-filesystem` 2026.8.31,
 * pinned in deno.lock and run offline. The memory server's matrix is what it is: these
 * expectations were written from the server's source (a read-modify-write
 * of one file per call, and a create that skips existing names silently),
 * and the docs show the same matrix.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sandboxCommand } from "../_helpers/spawn.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
  ROOT,
  runEngineer,
} from "../_helpers/accept_helpers.ts";
import { SERVER_FILESYSTEM, SERVER_MEMORY } from "../_helpers/deps.ts";

const ORACLES = join(ROOT, "tests/accept/oracles");

/** The oracle `name` copied into `dir`: guardlab reads files under the temp folder only. */
function oracleIn(dir: string, name: string): string {
  const path = join(dir, name);
  Deno.copyFileSync(join(ORACLES, name), path);
  return path;
}

interface Row {
  tool: string;
  case: string;
  verdict: string;
  info: string[];
  effect_before_retry?: number | null;
}

/**
 * The matrix of an `accept --json` run as `tool case: VERDICT`. Where a
 * real server's cancel falls relative to its own write is up to the server
 * (it finishes a cancelled call or not, sooner or later): for
 * cancel-after-send the expectation may name two verdicts (`A|B`), and the
 * information must match what guardlab counted after the cancel.
 */
function matrix(stdout: string, expected: string[]): string[] {
  const report = JSON.parse(stdout) as { results: Row[] };
  return report.results.map((r, i) => {
    const line = `${r.tool} ${r.case}: ${r.verdict}${
      r.info.length ? ` +${r.info.join(",")}` : ""
    }`;
    if (r.case !== "cancel-after-send") return line;
    const after = r.effect_before_retry ?? 0;
    assert.equal(r.info.includes("EFFECT-DESPITE-CANCEL"), after > 0, line);
    const allowed = (expected[i] ?? "").split(": ")[1]?.split("|") ?? [];
    return allowed.includes(r.verdict) ? expected[i] : line;
  });
}

Deno.test({
  name:
    "accept servers: guardlab's own guardlab mcp: every verdict safe, exit 0" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const { program, args } = sandboxCommand();
    using dir = privateDir("gl-accept-self-");
    const r = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracleIn(dir.path, "guardlab-mcp.json"),
      "--",
      program,
      ...args,
      "mcp",
    ]);
    assert.equal(r.code, 0, r.err.join("\n"));
    const selfExpected = [
      "create_draft once: ONCE",
      "create_draft rejected: NO-EFFECT",
      "create_draft lost-reply-retry: ONCE",
      // The lab stops at its next checkpoint if the cancel comes first.
      "create_draft cancel-after-send: ONCE",
      "create_draft concurrent-distinct: ALL-KEPT",
      "create_draft concurrent-same: ONCE",
      "create_draft same-key-other-arguments: CONFLICT-REPORTED",
    ];
    assert.deepEqual(matrix(r.stdout, selfExpected), selfExpected);
  },
});

/** The command that runs the memory server offline, its file in `dir`. */
function memoryServer(dir: string): string[] {
  return [
    "env",
    `MEMORY_FILE_PATH=${join(dir, "memory.jsonl")}`,
    Deno.execPath(),
    "run",
    "-q",
    `--lock=${join(ROOT, "deno.lock")}`,
    "--frozen",
    "--cached-only",
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    "--allow-env",
    SERVER_MEMORY,
  ];
}

Deno.test({
  name:
    "accept servers: @modelcontextprotocol/server-memory 2026.8.31, as found: lost concurrent updates, a silent conflict" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-memory-");
    const r = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracleIn(dir.path, "server-memory.json"),
      "--",
      ...memoryServer(dir.path),
    ]);
    assert.equal(r.code, 5, r.err.join("\n"));
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.server, {
      name: "memory-server",
      version: "0.6.3",
    });
    const memoryExpected = [
      "create_entities once: ONCE",
      "create_entities rejected: NO-EFFECT",
      "create_entities lost-reply-retry: ONCE",
      "create_entities cancel-after-send: ONCE",
      "create_entities concurrent-distinct: LOST",
      "create_entities concurrent-same: ONCE",
      "create_entities same-key-other-arguments: SILENT-CONFLICT",
      "add_observations once: ONCE",
      "add_observations rejected: NO-EFFECT",
      "add_observations lost-reply-retry: ONCE",
      "add_observations cancel-after-send: ONCE",
      "add_observations concurrent-distinct: LOST",
      "add_observations concurrent-same: ONCE",
      "add_observations same-key-other-arguments: NOT-RUN",
    ];
    assert.deepEqual(matrix(r.stdout, memoryExpected), memoryExpected);
    // Each of the ten concurrent creates was answered "created"; fewer were kept.
    const lost = report.results.find((x: { case: string }) =>
      x.case === "concurrent-distinct"
    );
    assert.deepEqual(lost.client_saw, Array(10).fill("success"));
    assert.ok(lost.effect < 10, String(lost.effect));
    // The read tool, asked by guardlab, is what says so: the file agrees.
    const file = Deno.readTextFileSync(join(dir.path, "memory.jsonl"));
    const names = file.split("\n").filter((l) =>
      l.includes(`"gl-${lost.run}-`)
    ).length;
    assert.equal(names, lost.effect);
  },
});

Deno.test({
  name:
    "accept servers: @modelcontextprotocol/server-filesystem 2026.8.31, as found: a retried edit duplicates its line, a retried replace reports a false failure" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-fs-");
    // The oracle names files by absolute path: the template's folder becomes this test's.
    const oracle = join(dir.path, "oracle.json");
    const root = join(dir.path, "root");
    Deno.mkdirSync(root, { mode: 0o700 });
    Deno.writeTextFileSync(
      oracle,
      Deno.readTextFileSync(join(ORACLES, "server-filesystem.json")).replaceAll(
        "/tmp/fs-demo",
        root,
      ),
    );
    const r = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracle,
      "--",
      Deno.execPath(),
      "run",
      "-q",
      `--lock=${join(ROOT, "deno.lock")}`,
      "--frozen",
      "--cached-only",
      `--allow-read=${root}`,
      `--allow-write=${root}`,
      "--allow-env",
      "--allow-sys",
      SERVER_FILESYSTEM,
      root,
    ]);
    assert.equal(r.code, 5, r.err.join("\n"));
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.server, {
      name: "secure-filesystem-server",
      version: "0.2.0",
    });
    const fsExpected = [
      "edit_file once: ONCE",
      "edit_file rejected: NO-EFFECT",
      "edit_file lost-reply-retry: DUPLICATED",
      // A cancelled edit the server finished late meets the retry's edit
      // in one read-modify-write of the file: one line or two.
      "edit_file cancel-after-send: DUPLICATED|ONCE",
      "edit_file concurrent-distinct: LOST",
      "edit_file concurrent-same: ONCE",
      "edit_file same-key-other-arguments: NOT-RUN",
      "edit_file once: ONCE",
      "edit_file rejected: NOT-RUN",
      "edit_file lost-reply-retry: FALSE-FAILURE",
      // The retry fails if the cancelled replace had already been applied.
      "edit_file cancel-after-send: FALSE-FAILURE|ONCE",
      "edit_file concurrent-distinct: LOST",
      "edit_file concurrent-same: ONCE",
      "edit_file same-key-other-arguments: NOT-RUN",
    ];
    assert.deepEqual(matrix(r.stdout, fsExpected), fsExpected);
    // The file itself agrees with the read tool: the retried line is there twice.
    const retried = report.results[2];
    const text = Deno.readTextFileSync(join(root, `${retried.run}.txt`));
    assert.equal(text.split(retried.key.split("\n")[1]).length - 1, 2, text);
  },
});
