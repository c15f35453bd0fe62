/**
 * `accept judge`: a saved report judged again from its histories, offline.
 * The reports of chapter 8's three reference servers (recorded by
 * scripts/chapter8_reports.ts, as the chapter's matrices were made) are
 * judged again, and every verdict is held to the one the chapter prints,
 * written here by hand from its tables; a report edited by hand is judged
 * on its histories; a report is refused like any input.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { judgeReport } from "../../lib/accept/judge.ts";
import { MAX_CASE_CALLS, MAX_REPORT_BYTES } from "../../lib/accept/limits.ts";
import { cli } from "../_helpers/helpers.ts";
import { privateDir, ROOT } from "../_helpers/accept_helpers.ts";
import { NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";

const REPORTS = join(ROOT, "fixtures/accept/chapter8");

/** Chapter 8's report of `name`, as text. */
const reportText = (name: string) =>
  Deno.readTextFileSync(join(REPORTS, `${name}.json`));

/**
 * The verdicts chapter 8 prints for each reference server, row by row in
 * the order accept runs them (its tables "The matrix it produced, as
 * found" and the paragraph on guardlab mcp), written here by hand.
 */
const CHAPTER_8: Record<string, string[]> = {
  // "finds every verdict safe: ONCE, NO-EFFECT, ONCE, ONCE (…),
  // ALL-KEPT, ONCE, CONFLICT-REPORTED, ALL-KEPT (…), ONCE (…), HINTS-HOLD"
  "guardlab-mcp": [
    "create_draft once ONCE",
    "create_draft rejected NO-EFFECT",
    "create_draft lost-reply-retry ONCE",
    "create_draft cancel-after-send ONCE",
    "create_draft concurrent-distinct ALL-KEPT",
    "create_draft concurrent-same ONCE",
    "create_draft same-key-other-arguments CONFLICT-REPORTED",
    "create_draft two-processes ALL-KEPT",
    "create_draft crash-after-commit ONCE",
    "create_draft annotations HINTS-HOLD",
  ],
  // The memory server's table: create_entities, then add_observations.
  "server-memory": [
    "create_entities once ONCE",
    "create_entities rejected NO-EFFECT",
    "create_entities lost-reply-retry ONCE",
    "create_entities cancel-after-send ONCE",
    "create_entities concurrent-distinct LOST",
    "create_entities concurrent-same ONCE",
    "create_entities same-key-other-arguments SILENT-CONFLICT",
    "create_entities two-processes LOST",
    "create_entities crash-after-commit ONCE",
    "create_entities annotations HINTS-HOLD",
    "add_observations once ONCE",
    "add_observations rejected NO-EFFECT",
    "add_observations lost-reply-retry ONCE",
    "add_observations cancel-after-send ONCE",
    "add_observations concurrent-distinct LOST",
    "add_observations concurrent-same ONCE",
    "add_observations same-key-other-arguments NOT-RUN",
    "add_observations two-processes LOST",
    "add_observations crash-after-commit ONCE",
    "add_observations annotations NOT-RUN",
  ],
  // The filesystem server's table: edit_file append, then edit_file replace.
  "server-filesystem": [
    "edit_file once ONCE",
    "edit_file rejected NO-EFFECT",
    "edit_file lost-reply-retry DUPLICATED",
    "edit_file cancel-after-send DUPLICATED",
    "edit_file concurrent-distinct LOST",
    "edit_file concurrent-same ONCE",
    "edit_file same-key-other-arguments NOT-RUN",
    "edit_file two-processes LOST",
    "edit_file crash-after-commit DUPLICATED",
    "edit_file annotations NOTHING-PROMISED",
    "edit_file once ONCE",
    "edit_file rejected NOT-RUN",
    "edit_file lost-reply-retry FALSE-FAILURE",
    "edit_file cancel-after-send FALSE-FAILURE",
    "edit_file concurrent-distinct LOST",
    "edit_file concurrent-same ONCE",
    "edit_file same-key-other-arguments NOT-RUN",
    "edit_file two-processes LOST",
    "edit_file crash-after-commit FALSE-FAILURE",
    "edit_file annotations NOTHING-PROMISED",
  ],
};

/** The information chapter 8 allows beside the cancel rows: it depends on when the answer comes (the chapter says so). */
const CANCEL_INFO = [["EFFECT-DESPITE-CANCEL"], ["CANCEL-TOO-LATE"]];

for (const [name, expected] of Object.entries(CHAPTER_8)) {
  Deno.test(`accept judge: chapter 8's ${name} report, judged again from its histories, gives the verdicts the chapter prints`, () => {
    const text = reportText(name);
    const saved = JSON.parse(text);
    const { report, changed } = judgeReport(text, `${name}.json`);
    assert.deepEqual(
      report.results.map((r) => `${r.tool} ${r.case} ${r.verdict}`),
      expected,
    );
    assert.deepEqual(changed, []);
    // What each row rests on comes back the same from the history: what
    // the client saw, the answers, the effect, the counts, the information.
    report.results.forEach((r, i) => {
      const s = saved.results[i];
      for (
        const field of [
          "client_saw",
          "answers",
          "effect",
          "effect_before_retry",
          "effect_before_kill",
          "effect_other",
          "effect_old",
          "told_failed",
          "copies",
          "cancel",
          "counted_under",
          "hints",
          "read_hints",
          "contradicted",
          "not_run",
          "info",
          "class",
        ] as const
      ) {
        assert.deepEqual(r[field], s[field], `${name} ${i} ${field}`);
      }
      if (r.case === "cancel-after-send") {
        assert.ok(
          CANCEL_INFO.some((info) =>
            JSON.stringify(info) === JSON.stringify(r.info)
          ),
          `${name} ${r.info}`,
        );
      }
    });
    assert.equal(report.unsafe, saved.unsafe);
    assert.equal(report.inconclusive, saved.inconclusive);
  });
}

Deno.test("accept judge: a verdict edited by hand is named, and the history's verdict decides the exit code", async () => {
  using dir = privateDir("gl-judge-edited-");
  const saved = JSON.parse(reportText("server-memory"));
  // The lost update edited into a safe verdict, the report's counts too.
  const lost = saved.results.findIndex((r: { case: string }) =>
    r.case === "concurrent-distinct"
  );
  saved.results[lost].verdict = "ALL-KEPT";
  saved.results[lost].class = "safe";
  saved.unsafe = 0;
  const file = join(dir.path, "edited.json");
  Deno.writeTextFileSync(file, JSON.stringify(saved));
  const r = await cli(["accept", "judge", file]);
  assert.equal(r.code, 5, r.err.join("\n"));
  assert.deepEqual(r.err, []);
  assert.equal(
    r.out[1] + " " + r.out[2].trim(),
    `judged again from "${file}": nothing was started; each verdict comes from its case's history alone`,
  );
  assert.deepEqual(r.out.slice(-4), [
    "the report states other verdicts than its histories give:",
    "  create_entities#1/concurrent-distinct: the report says ALL-KEPT; its history",
    "    gives LOST",
    "exit 5: at least one verdict is unsafe",
  ]);
  const json = await cli(["accept", "judge", file, "--json"]);
  assert.equal(json.code, 5);
  const out = JSON.parse(json.out.join("\n"));
  assert.deepEqual(out.changed, [{
    tool: "create_entities",
    entry: 1,
    case: "concurrent-distinct",
    was: "ALL-KEPT",
    now: "LOST",
  }]);
  assert.equal(out.exit, 5);
  assert.equal(out.judged_from, file);
  assert.match(out.oracle_digest, /^sha256:[0-9a-f]{64}$/);
});

Deno.test("accept judge: a history edited by hand is what is judged: the count a read saw decides", () => {
  const saved = JSON.parse(reportText("guardlab-mcp"));
  const row = saved.results.findIndex((r: { case: string }) =>
    r.case === "lost-reply-retry"
  );
  // The read after the retry now counts two effects under the key.
  const records = saved.results[row].history.records;
  records.findLast((r: { op: string }) => r.op === "read").count = 2;
  const { report, changed } = judgeReport(JSON.stringify(saved), "r.json");
  assert.equal(report.results[row].verdict, "DUPLICATED");
  assert.equal(report.results[row].effect, 2);
  assert.deepEqual(changed.map((c) => `${c.case} ${c.was}>${c.now}`), [
    "lost-reply-retry ONCE>DUPLICATED",
    // The tool declares idempotentHint: true: a duplicating retry now
    // contradicts it.
    "annotations HINTS-HOLD>ANNOTATION-CONTRADICTED",
  ]);
});

Deno.test("accept judge: a report that is not one of this guardlab's is a usage error in one line, naming what is wrong", async () => {
  using dir = privateDir("gl-judge-bad-");
  const write = (name: string, text: string) => {
    const file = join(dir.path, name);
    Deno.writeTextFileSync(file, text);
    return file;
  };
  const saved = JSON.parse(reportText("guardlab-mcp"));
  const withoutHistory = structuredClone(saved);
  delete withoutHistory.results[3].history;
  // The first call of the once case: records[1], its fresh read before it.
  const firstCall = saved.results[0].history.records.findIndex((
    r: { op: string },
  ) => r.op === "call");
  const badRecord = structuredClone(saved);
  badRecord.results[0].history.records[firstCall].answer.outcome = "maybe";
  const tooManyCalls = structuredClone(saved);
  tooManyCalls.results[0].history.records = Array.from(
    { length: MAX_CASE_CALLS + 1 },
    () => saved.results[0].history.records[firstCall],
  );
  const newer = structuredClone(saved);
  newer.results[0].history.version = 2;
  for (
    const [name, text, line] of [
      ["not-json.json", "{not json", /is not a guardlab accept --json report$/],
      [
        "deep.json",
        "[".repeat(41) + "]".repeat(41),
        /nests deeper than 40 levels$/,
      ],
      [
        "old.json",
        JSON.stringify(withoutHistory),
        /results\[3\] holds no history \(a report of a guardlab before histories\): run accept --json again$/,
      ],
      [
        "record.json",
        JSON.stringify(badRecord),
        /results\[0\] cannot be judged: history: records\[1\]\.answer\.outcome$/,
      ],
      [
        "calls.json",
        JSON.stringify(tooManyCalls),
        /results\[0\] cannot be judged: history: records \(more calls than any case makes\)$/,
      ],
      [
        "newer.json",
        JSON.stringify(newer),
        /results\[0\] cannot be judged: history: version \(this guardlab reads 1\)$/,
      ],
    ] as const
  ) {
    const file = write(name, text);
    const r = await cli(["accept", "judge", file]);
    assert.equal(r.code, 2, `${name}: ${r.err.join("\n")}`);
    assert.deepEqual(r.out, [], name);
    assert.match(r.err[0], line, name);
    assert.ok(r.err[0].startsWith(`guardlab: "${file}`), r.err[0]);
  }
  const usage = await cli([
    "accept",
    "judge",
    write("a.json", "{}"),
    "--cases",
    "once",
  ]);
  assert.equal(usage.code, 2);
  assert.match(
    usage.err[0],
    /accept judge takes only REPORT\.json and --json; got --cases/,
  );
  const none = await cli(["accept", "judge"]);
  assert.equal(none.code, 2);
  assert.match(none.err[0], /accept judge needs one report/);
});

Deno.test("accept judge: a link is refused (exit 4) and left as it was; a file over 16 MiB is refused before it is read; a missing file or a folder is one line, exit 1", async () => {
  using dir = privateDir("gl-judge-files-");
  const target = join(dir.path, "target.json");
  Deno.writeTextFileSync(target, reportText("guardlab-mcp"));
  const link = join(dir.path, "link.json");
  Deno.symlinkSync(target, link);
  const r = await cli(["accept", "judge", link]);
  assert.equal(r.code, 4, r.err.join("\n"));
  assert.equal(r.err.length, 1, r.err.join("\n"));
  assert.match(
    r.err[0],
    /^guardlab: refused: .*is a symbolic link; guardlab never follows links/,
  );
  assert.equal(Deno.readTextFileSync(target), reportText("guardlab-mcp"));
  assert.ok(Deno.lstatSync(link).isSymlink);
  // A sparse file over the bound: refused on its size, nothing read.
  const big = join(dir.path, "big.json");
  using f = Deno.openSync(big, { write: true, createNew: true, mode: 0o600 });
  f.truncateSync(MAX_REPORT_BYTES + 1);
  const tooBig = await cli(["accept", "judge", big]);
  assert.equal(tooBig.code, 4, tooBig.err.join("\n"));
  assert.equal(tooBig.err.length, 1);
  assert.match(tooBig.err[0], /^guardlab: refused: /);
  for (const file of [join(dir.path, "missing.json"), dir.path]) {
    const gone = await cli(["accept", "judge", file]);
    assert.equal(gone.code, 1, gone.err.join("\n"));
    assert.equal(gone.err.length, 1);
    assert.match(gone.err[0], /an accept --json report/);
  }
});

Deno.test({
  name:
    "accept judge: under the student grant (no run, no net), the same verdicts, exit as the report's" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    using dir = privateDir("gl-judge-grant-");
    const file = join(dir.path, "report.json");
    Deno.writeTextFileSync(file, reportText("server-filesystem"));
    const r = await spawnGuardlab(["accept", "judge", file, "--json"]);
    assert.equal(r.code, 5, r.err.join("\n"));
    const out = JSON.parse(r.out.join("\n"));
    assert.deepEqual(
      out.results.map((x: { tool: string; case: string; verdict: string }) =>
        `${x.tool} ${x.case} ${x.verdict}`
      ),
      CHAPTER_8["server-filesystem"],
    );
    assert.deepEqual(out.changed, []);
  },
});

Deno.test("accept judge: a history's epoch_ms (its start on the wall clock, for a trace) is kept when it is one, dropped when it is not, and never judged on", () => {
  const saved = JSON.parse(reportText("guardlab-mcp"));
  const given = [
    1_765_000_000_000.5,
    -5,
    0,
    1e15,
    "1765000000000",
    Number.MAX_VALUE,
    null,
  ];
  given.forEach((e, n) => saved.results[n].history.epoch_ms = e);
  const { report, changed } = judgeReport(JSON.stringify(saved), "r.json");
  assert.deepEqual(
    report.results.slice(0, given.length).map((r) => r.history.epoch_ms),
    [
      1_765_000_000_000.5,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ],
  );
  assert.deepEqual(changed, []);
});

Deno.test("accept judge: chapter 8's reports of guardlab mcp and server-memory were recorded with the fresh read: each case that calls first reads a key never used, and it counted 0", () => {
  for (const name of ["guardlab-mcp", "server-memory"]) {
    const saved = JSON.parse(reportText(name));
    for (const r of saved.results) {
      const records = r.history.records as { op: string; fresh?: boolean }[];
      if (!records.some((x) => x.op === "call")) continue;
      const first = records.find((x) => x.op === "read" || x.op === "call");
      assert.deepEqual(
        first,
        { ...first, op: "read", fresh: true, count: 0 },
        `${name} ${r.tool} ${r.case}`,
      );
    }
  }
});
