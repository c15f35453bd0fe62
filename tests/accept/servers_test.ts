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
import { BROKEN_VERDICTS, type Verdict } from "../../lib/accept/cases.ts";
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
import {
  filesystemOracle,
  filesystemServer,
  memoryServer,
} from "../_helpers/reference_servers.ts";

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
  cancel?: { sent: boolean };
}

/**
 * The matrix of an `accept --json` run as `tool case: VERDICT`. Where a
 * real server's cancel falls relative to its own write is up to the server
 * (it finishes a cancelled call or not, sooner or later), and whether its
 * answer comes before the cancel is its own speed: for cancel-after-send
 * the expectation may name two verdicts (`A|B`) and leaves the information
 * out, which must match what guardlab saw: CANCEL-TOO-LATE when no cancel
 * was sent, EFFECT-DESPITE-CANCEL when one was and the count after it saw
 * the effect.
 */
function matrix(stdout: string, expected: string[]): string[] {
  const report = JSON.parse(stdout) as { results: Row[] };
  return report.results.map((r, i) => {
    const line = `${r.tool} ${r.case}: ${r.verdict}${
      r.info.length ? ` +${r.info.join(",")}` : ""
    }`;
    // An expected "A|B" names the verdicts the scheduler can pick between.
    const allowed = (expected[i] ?? "").split(": ")[1]?.split("|") ?? [];
    const picked = allowed.includes(r.verdict) ? expected[i] : line;
    if (r.case !== "cancel-after-send") {
      return allowed.length > 1 && r.info.length === 0 ? picked : line;
    }
    const sent = r.cancel?.sent === true;
    const after = r.effect_before_retry ?? 0;
    // A verdict of a broken case (READ-FAILED, …) carries no information.
    const judged = !BROKEN_VERDICTS.includes(r.verdict as Verdict);
    assert.equal(r.info.includes("CANCEL-TOO-LATE"), judged && !sent, line);
    assert.equal(
      r.info.includes("EFFECT-DESPITE-CANCEL"),
      judged && sent && after > 0,
      line,
    );
    return picked;
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
    // A ledger file of its own: the second process and the restart of
    // two-processes and crash-after-commit open the same one.
    const r = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracleIn(dir.path, "guardlab-mcp.json"),
      "--",
      program,
      ...args,
      "mcp",
      "--ledger-file",
      join(dir.path, "ledger.sqlite"),
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
      // SQLite in one file: the second process waits for the first's write.
      "create_draft two-processes: ALL-KEPT",
      "create_draft crash-after-commit: ONCE",
      // It declares idempotentHint: true, destructiveHint: false; both hold.
      "create_draft annotations: HINTS-HOLD",
    ];
    assert.deepEqual(matrix(r.stdout, selfExpected), selfExpected);
  },
});

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
      ...memoryServer(SERVER_MEMORY, dir.path),
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
      // Each process reads the whole file, awaits, writes it back.
      "create_entities two-processes: LOST",
      // The file is written before the answer: the restart finds the entity.
      "create_entities crash-after-commit: ONCE",
      // destructiveHint: false, and the other arguments replaced nothing.
      "create_entities annotations: HINTS-HOLD",
      "add_observations once: ONCE",
      "add_observations rejected: NO-EFFECT",
      "add_observations lost-reply-retry: ONCE",
      "add_observations cancel-after-send: ONCE",
      "add_observations concurrent-distinct: LOST",
      "add_observations concurrent-same: ONCE",
      "add_observations same-key-other-arguments: NOT-RUN",
      "add_observations two-processes: LOST",
      "add_observations crash-after-commit: ONCE",
      // destructiveHint: false, and no other_call to check it with.
      "add_observations annotations: NOT-RUN",
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
    const entities = (run: string) =>
      file.split("\n").filter((l) =>
        l.includes('"type":"entity"') && l.includes(`"gl-${run}-`)
      ).length;
    assert.equal(entities(lost.run), lost.effect);
    // Two processes over one file: ten answered "created", the file keeps fewer.
    const [two, crash] = ["two-processes", "crash-after-commit"].map((c) =>
      report.results.find((x: { case: string; tool: string }) =>
        x.case === c && x.tool === "create_entities"
      )
    );
    assert.deepEqual(two.client_saw, Array(10).fill("success"));
    assert.equal(entities(two.run), two.effect);
    assert.ok(two.effect < 10, String(two.effect));
    // Killed once its entity showed, started again: the file has it once.
    assert.equal(crash.effect_before_kill, 1);
    assert.equal(entities(crash.run), 1);
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
    Deno.writeTextFileSync(oracle, filesystemOracle(root));
    const r = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracle,
      "--",
      ...filesystemServer(SERVER_FILESYSTEM, root),
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
      "edit_file two-processes: LOST",
      // The restart finds the line, and the retried edit appends it again.
      "edit_file crash-after-commit: DUPLICATED",
      // idempotentHint: false, destructiveHint: true: it promises nothing.
      "edit_file annotations: NOTHING-PROMISED",
      "edit_file once: ONCE",
      "edit_file rejected: NOT-RUN",
      "edit_file lost-reply-retry: FALSE-FAILURE",
      // The retry fails if the cancelled replace had already been applied.
      "edit_file cancel-after-send: FALSE-FAILURE|ONCE",
      "edit_file concurrent-distinct: LOST",
      // Identical replaces read the file together (both succeed, one
      // effect) or one after the other (the later cannot find its anchor
      // and says it failed, over the effect): the scheduler picks.
      "edit_file concurrent-same: ONCE|FALSE-FAILURE",
      "edit_file same-key-other-arguments: NOT-RUN",
      "edit_file two-processes: LOST",
      // The restart finds the replacement; the retry cannot find its anchor.
      "edit_file crash-after-commit: FALSE-FAILURE",
      "edit_file annotations: NOTHING-PROMISED",
    ];
    assert.deepEqual(matrix(r.stdout, fsExpected), fsExpected);
    // The file itself agrees with the read tool: the retried line is there
    // twice, after a lost answer and after a kill and a restart.
    for (const retried of [report.results[2], report.results[8]]) {
      const text = Deno.readTextFileSync(join(root, `${retried.run}.txt`));
      assert.equal(text.split(retried.key.split("\n")[1]).length - 1, 2, text);
    }
  },
});
