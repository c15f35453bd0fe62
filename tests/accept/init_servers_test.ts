/**
 * `accept init` on real servers nobody here wrote, offline (pinned in
 * deno.lock): on `@modelcontextprotocol/server-memory`, whose hand-written
 * oracle the chapter shows, and on `@allpepper/memory-bank-mcp` 0.2.2, a
 * server never seen before this walk-through (chapter 8): its draft, the
 * first matrix from the draft as confirmed, and the matrix from the oracle
 * an engineer wrote after reading it (`tests/accept/oracles/memory-bank.json`).
 * Every expectation is written by hand, from the servers' code; the
 * verdicts are checked against the memory bank's own files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BROKEN_VERDICTS,
  CASE_NAMES,
  type Verdict,
} from "../../lib/accept/cases.ts";
import {
  CAN_START,
  NEEDS_START,
  privateDir,
  ROOT,
  runEngineer,
} from "../_helpers/accept_helpers.ts";
import { SERVER_MEMORY, SERVER_MEMORY_BANK } from "../_helpers/deps.ts";
import { blockAfter, chapter8 } from "../_helpers/accept_reports.ts";
import { npmServer } from "../_helpers/reference_servers.ts";

/** The memory bank, its files under `dir`/bank. */
function memoryBank(dir: string): string[] {
  return [
    "env",
    `MEMORY_BANK_ROOT=${join(dir, "bank")}`,
    ...npmServer(SERVER_MEMORY_BANK, [
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      "--allow-env",
      // fs-extra asks for the uid.
      "--allow-sys=uid",
    ]),
  ];
}

interface Row {
  tool: string;
  entry: number;
  case: string;
  verdict: string;
  info: string[];
  run: string;
  effect_before_retry?: number | null;
  cancel?: { sent: boolean };
}

/**
 * `tool#entry case: VERDICT`. A cancel may land after the count, or the
 * answer come before the cancel: the information says what guardlab saw;
 * and where `expected` names two verdicts (`A|B`) for a cancel row, either
 * one is the server's (memory_bank_read answers an error for a file not
 * there yet, so a read right behind a cancel sent with the call can fail).
 */
function matrix(stdout: string, expected: string[] = []): string[] {
  return (JSON.parse(stdout).results as Row[]).map((r, i) => {
    const line = `${r.tool}#${r.entry} ${r.case}: ${r.verdict}`;
    if (r.case !== "cancel-after-send") return line;
    const sent = r.cancel?.sent === true;
    // A verdict of a broken case (READ-FAILED, …) carries no information.
    const judged = !BROKEN_VERDICTS.includes(r.verdict as Verdict);
    assert.equal(r.info.includes("CANCEL-TOO-LATE"), judged && !sent, line);
    assert.equal(
      r.info.includes("EFFECT-DESPITE-CANCEL"),
      judged && sent && (r.effect_before_retry ?? 0) > 0,
      line,
    );
    const allowed = (expected[i] ?? "").split(": ")[1]?.split("|") ?? [];
    return allowed.includes(r.verdict) ? expected[i] : line;
  });
}

/** The row of `case` for entry `entry`. */
function rowOf(stdout: string, entry: number, name: string): Row {
  return (JSON.parse(stdout).results as Row[]).find((r) =>
    r.entry === entry && r.case === name
  )!;
}

Deno.test({
  name:
    "init servers: server-memory: create_entities drafted as the chapter's hand-written oracle has it" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-init-memory-");
    const r = await runEngineer([
      "accept",
      "init",
      "--",
      "env",
      `MEMORY_FILE_PATH=${join(dir.path, "memory.jsonl")}`,
      ...npmServer(SERVER_MEMORY, [
        `--allow-read=${dir.path}`,
        `--allow-write=${dir.path}`,
        "--allow-env",
      ]),
    ]);
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.deepEqual(r.err.slice(0, 3), [
      "guardlab accept init: memory-server 0.6.3, 9 tools listed",
      "draft oracle on stdout (write tools: 6)",
      "read-only (readOnlyHint: true), not drafted: read_graph, search_nodes, open_nodes",
    ]);
    const create = JSON.parse(r.stdout).tools[0];
    const { guesses, ...entry } = create;
    assert.deepEqual(Object.keys(guesses), [
      "key",
      "read",
      "count",
      "other_count",
    ]);
    const entity = {
      name: "gl-name-{run}-{n:3}",
      entityType: "gl-entitytype-{run}-{n:3}",
      observations: ["gl-observations-{run}-{n:3}"],
    };
    assert.deepEqual(entry, {
      tool: "create_entities",
      call: { entities: [entity] },
      key: "/entities/0/name",
      read: { tool: "open_nodes", arguments: { names: ["{key}"] } },
      count: { json: "/entities", match: { name: "{key}" } },
      bad_call: {
        entities: [{ name: entity.name, observations: entity.observations }],
      },
      other_call: {
        entities: [{
          ...entity,
          entityType: "gl-other-entitytype-{run}-{n:3}",
        }],
      },
      other_count: {
        json: "/entities",
        match: { name: "{key}", entityType: "gl-other-entitytype-{run}-{n:3}" },
      },
    });
  },
});

Deno.test({
  name:
    "init servers: memory-bank 0.2.2, never seen: the draft, the first matrix from it, and the matrix once the oracle is fixed, checked against its files" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-init-bank-");
    const draftFile = join(dir.path, "oracle.json");
    const init = await runEngineer([
      "accept",
      "init",
      "--output",
      draftFile,
      "--",
      ...memoryBank(dir.path),
    ]);
    assert.equal(init.code, 0, init.err.join("\n"));
    assert.deepEqual(init.out.slice(2), [
      "the server marks no tool readOnlyHint: true, so every tool was drafted as a write tool",
      "not drafted: list_projects: its arguments hold no string that could carry a fresh key",
      "guesses to confirm (accept refuses the oracle until each is deleted from its guesses):",
      "  list_project_files: tool, key, read, count",
      "  memory_bank_read: tool, key, read, count, other_count",
      "  memory_bank_write: key, read, count, other_count",
      "  memory_bank_update: key, read, count, other_count",
      "next: check each guess in the file, delete it from guesses, then run guardlab accept --oracle FILE with the same server",
    ]);
    // The chapter's screen, in both languages (its file in /tmp/bank-demo).
    const shown = (lang: "en" | "zh") =>
      blockAfter(
        chapter8(lang),
        lang === "en" ? "On the screen:" : "屏幕上是：",
      )
        .map((l) => l.replace("/tmp/bank-demo/oracle.json", draftFile));
    assert.deepEqual(init.out, shown("en"));
    const zhFile = join(dir.path, "oracle-zh.json");
    const zh = await runEngineer([
      "accept",
      "init",
      "--lang",
      "zh",
      "--output",
      zhFile,
      "--",
      ...memoryBank(dir.path),
    ]);
    assert.deepEqual(
      zh.out,
      shown("zh").map((l) => l.replace(draftFile, zhFile)),
    );
    // And the refusal of the draft the chapter shows.
    const refused = await runEngineer([
      "accept",
      "--oracle",
      draftFile,
      "--",
      ...memoryBank(dir.path),
    ]);
    assert.equal(refused.code, 2);
    assert.equal(
      refused.err[0],
      blockAfter(chapter8("en"), "until every guess is")[0]
        ?.replace("/tmp/bank-demo/oracle.json", draftFile),
    );
    // The first matrix: the two tools that only read deleted (their "tool"
    // guess was right), every other guess confirmed as drafted.
    const draft = JSON.parse(Deno.readTextFileSync(draftFile));
    const kept = draft.tools.filter((t: { tool: string }) =>
      t.tool === "memory_bank_write" || t.tool === "memory_bank_update"
    );
    for (const t of kept) delete t.guesses;
    const firstFile = join(dir.path, "first.json");
    Deno.writeTextFileSync(firstFile, JSON.stringify({ tools: kept }));
    const first = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      firstFile,
      "--",
      ...memoryBank(dir.path),
    ]);
    assert.equal(first.code, 5, first.err.join("\n"));
    const firstExpected = [
      "memory_bank_write#1 once: ONCE",
      // The read of a file that does not exist is an error, not "nothing".
      "memory_bank_write#1 rejected: READ-FAILED",
      "memory_bank_write#1 lost-reply-retry: ONCE",
      // The same read, right behind a cancel sent with the call.
      "memory_bank_write#1 cancel-after-send: ONCE|READ-FAILED",
      "memory_bank_write#1 concurrent-distinct: ALL-KEPT",
      "memory_bank_write#1 concurrent-same: ONCE",
      "memory_bank_write#1 same-key-other-arguments: SILENT-CONFLICT",
      // One file a key: two processes keep all ten; a kill loses none.
      "memory_bank_write#1 two-processes: ALL-KEPT",
      "memory_bank_write#1 crash-after-commit: ONCE",
      // It declares no hints at all.
      "memory_bank_write#1 annotations: NOTHING-PROMISED",
      // An update of a file nobody wrote: every call refused, every read too.
      ...CASE_NAMES.filter((c) => c !== "annotations").map((c) =>
        `memory_bank_update#2 ${c}: READ-FAILED`
      ),
      "memory_bank_update#2 annotations: NOTHING-PROMISED",
    ];
    assert.deepEqual(matrix(first.stdout, firstExpected), firstExpected);
    // The silent conflict, in the bank's own file: the first content stayed.
    const conflict = rowOf(first.stdout, 1, "same-key-other-arguments");
    assert.equal(
      Deno.readTextFileSync(
        join(
          dir.path,
          "bank",
          `gl-projectname-${conflict.run}-001`,
          `gl-filename-${conflict.run}-001`,
        ),
      ),
      `gl-content-${conflict.run}-001`,
    );
    // The oracle the engineer wrote after reading the first matrix.
    const oracle = join(dir.path, "memory-bank.json");
    Deno.copyFileSync(
      join(ROOT, "tests/accept/oracles/memory-bank.json"),
      oracle,
    );
    const fixed = await runEngineer([
      "accept",
      "--json",
      "--oracle",
      oracle,
      "--",
      ...memoryBank(dir.path),
    ]);
    assert.equal(fixed.code, 5, fixed.err.join("\n"));
    const fixedExpected = [
      "memory_bank_write#1 once: ONCE",
      "memory_bank_write#1 rejected: NOT-RUN",
      "memory_bank_write#1 lost-reply-retry: ONCE",
      "memory_bank_write#1 cancel-after-send: ONCE|READ-FAILED",
      "memory_bank_write#1 concurrent-distinct: ALL-KEPT",
      "memory_bank_write#1 concurrent-same: ONCE",
      "memory_bank_write#1 same-key-other-arguments: SILENT-CONFLICT",
      "memory_bank_write#1 two-processes: ALL-KEPT",
      "memory_bank_write#1 crash-after-commit: ONCE",
      "memory_bank_write#1 annotations: NOTHING-PROMISED",
      "memory_bank_write#2 once: ONCE",
      "memory_bank_write#2 rejected: NO-EFFECT",
      "memory_bank_write#2 lost-reply-retry: ONCE",
      "memory_bank_write#2 cancel-after-send: ONCE",
      "memory_bank_write#2 concurrent-distinct: ALL-KEPT",
      "memory_bank_write#2 concurrent-same: ONCE",
      "memory_bank_write#2 same-key-other-arguments: NOT-RUN",
      "memory_bank_write#2 two-processes: ALL-KEPT",
      "memory_bank_write#2 crash-after-commit: ONCE",
      "memory_bank_write#2 annotations: NOTHING-PROMISED",
      "memory_bank_update#3 once: ONCE",
      "memory_bank_update#3 rejected: NO-EFFECT",
      "memory_bank_update#3 lost-reply-retry: ONCE",
      "memory_bank_update#3 cancel-after-send: ONCE",
      "memory_bank_update#3 concurrent-distinct: LOST",
      "memory_bank_update#3 concurrent-same: ONCE",
      "memory_bank_update#3 same-key-other-arguments: NOT-RUN",
      // Two processes updating one file: as ten at once in one.
      "memory_bank_update#3 two-processes: LOST",
      "memory_bank_update#3 crash-after-commit: ONCE",
      "memory_bank_update#3 annotations: NOTHING-PROMISED",
    ];
    assert.deepEqual(matrix(fixed.stdout, fixedExpected), fixedExpected);
    // Ten concurrent updates of one file, each answered success: the file
    // holds one of them.
    const lost = rowOf(fixed.stdout, 3, "concurrent-distinct");
    const text = Deno.readTextFileSync(
      join(
        dir.path,
        "bank",
        `gl-projectname-${lost.run}`,
        `gl-filename-${lost.run}`,
      ),
    );
    assert.match(text, new RegExp(`^gl-content-${lost.run}-0\\d\\d$`));
    // Ten concurrent writes of ten files: all ten are there.
    const kept10 = rowOf(fixed.stdout, 2, "concurrent-distinct");
    const files = [
      ...Deno.readDirSync(
        join(dir.path, "bank", `gl-projectname-${kept10.run}`),
      ),
    ].filter((f) => f.name.startsWith("gl-filename-"));
    assert.equal(files.length, 10);
  },
});
