/**
 * `--baseline`: what identifies the run a baseline belongs to (the
 * server's name and the oracle's digest), each way a baseline file is
 * refused in one line, and the one definition of excused, fixed, worse
 * and new, checked over every pair of verdicts this guardlab has.
 */
import assert from "node:assert/strict";
import { VERDICT_CLASS, VERDICTS } from "../../lib/accept/cases.ts";
import {
  assertSameOracle,
  assertSameServer,
  BadBaseline,
  compareWithBaseline,
  isFailing,
  MAX_BASELINE_RESULTS,
  oracleDigest,
  parseBaseline,
  statusOf,
} from "../../lib/accept/baseline.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { parseOracle } from "../../lib/accept/oracle.ts";
import { reportOf, rowOf } from "../_helpers/accept_reports.ts";

const DIGEST = oracleDigest(EXAMPLE_ORACLE);

/** A --json report as accept writes it, of `rows`. */
function reportText(
  rows: unknown[],
  more: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    server: { name: "notes-server", version: "2.0" },
    startup_problems: [],
    unlisted: [],
    results: rows,
    unsafe: 0,
    inconclusive: 0,
    oracle_digest: DIGEST,
    exit: 0,
    ...more,
  });
}

Deno.test("baseline: the one definition, written by hand for each kind of pair", () => {
  assert.equal(statusOf("LOST", "LOST"), "excused");
  assert.equal(statusOf("NO-ANSWER", "NO-ANSWER"), "excused");
  assert.equal(statusOf("ALL-KEPT", "LOST"), "fixed");
  assert.equal(statusOf("NOT-RUN", "DUPLICATED"), "fixed");
  assert.equal(statusOf("DUPLICATED", "LOST"), "worse");
  assert.equal(statusOf("DUPLICATED", "NO-ANSWER"), "worse");
  assert.equal(statusOf("LOST", "ALL-KEPT"), "new");
  assert.equal(statusOf("SILENT-CONFLICT", "OVERWRITTEN"), "new");
  assert.equal(statusOf("LOST", undefined), "new");
  assert.equal(statusOf("ONCE", undefined), null);
  assert.equal(statusOf("ONCE", "ONCE"), null);
  assert.equal(statusOf("OVERWRITTEN", "ONCE"), null);
});

Deno.test("baseline: over every pair of verdicts, a failing verdict is excused only by itself, and only a failing one fails", () => {
  for (const now of VERDICTS) {
    assert.equal(
      isFailing(now),
      ["unsafe", "inconclusive"].includes(VERDICT_CLASS[now]),
      now,
    );
    for (const before of [...VERDICTS, undefined]) {
      const s = statusOf(now, before);
      if (s === "excused") assert.ok(now === before && isFailing(now));
      if (s === "fixed") assert.ok(!isFailing(now) && isFailing(before!));
      if (s === "worse") assert.ok(isFailing(now) && now !== before);
      if (s === "new") {
        assert.ok(
          isFailing(now) && (before === undefined || !isFailing(before)),
        );
      }
      assert.equal(
        s === null,
        !isFailing(now) && !(before && isFailing(before)),
      );
    }
  }
});

Deno.test("baseline: a run against its baseline: counts only what the baseline did not excuse", () => {
  const baseline = parseBaseline(
    reportText([
      rowOf("put_note", 1, "lost-reply-retry", "DUPLICATED"),
      rowOf("put_note", 1, "concurrent-distinct", "LOST"),
      rowOf("put_note", 1, "concurrent-same", "NO-ANSWER"),
      rowOf("put_note", 1, "once", "ONCE"),
    ]),
    "/tmp/b.json",
  );
  const now = reportOf([
    rowOf("put_note", 1, "once", "NONE"),
    rowOf("put_note", 1, "lost-reply-retry", "DUPLICATED"),
    rowOf("put_note", 1, "concurrent-distinct", "ALL-KEPT"),
    rowOf("put_note", 1, "concurrent-same", "DUPLICATED"),
    rowOf("put_note", 1, "rejected", "NO-EFFECT"),
  ]);
  const c = compareWithBaseline(now, baseline);
  assert.deepEqual(
    c.rows.map((r) => `${r.row.case} ${r.status} ${r.before ?? "-"}`),
    [
      "once new ONCE",
      "lost-reply-retry excused DUPLICATED",
      "concurrent-distinct fixed LOST",
      "concurrent-same worse NO-ANSWER",
    ],
  );
  assert.equal(c.unsafe, 2);
  assert.equal(c.inconclusive, 0);
  // The same tool under another oracle entry is another row.
  const other = compareWithBaseline(
    reportOf([rowOf("put_note", 2, "lost-reply-retry", "DUPLICATED")]),
    baseline,
  );
  assert.deepEqual(other.rows.map((r) => r.status), ["new"]);
});

Deno.test("baseline: each file that is not a baseline of this guardlab is one line", () => {
  const refused = (text: string, re: RegExp) =>
    assert.throws(
      () => parseBaseline(text, "/tmp/b.json"),
      (e) =>
        e instanceof BadBaseline && re.test(e.text.en) &&
        e.text.zh !== e.text.en && !e.text.en.includes("\n"),
      re.source,
    );
  refused("{", /"\/tmp\/b.json" is not a guardlab accept --json report/);
  refused("[".repeat(41) + "]".repeat(41), /nests deeper than 40 levels/);
  refused(JSON.stringify({ results: [] }), /is not a guardlab accept/);
  refused(reportText([], { oracle_digest: undefined }), /names no oracle/);
  refused(reportText([], { oracle_digest: "md5:x" }), /names no oracle/);
  refused(
    reportText([{ ...rowOf("put", 1, "once", "ONCE"), verdict: "GREAT" }]),
    /results\[0\] is not a verdict of this guardlab \(verdict\)/,
  );
  refused(
    reportText([{ ...rowOf("put", 1, "once", "ONCE"), case: "twice" }]),
    /results\[0\].*\(case\)/,
  );
  refused(
    reportText([{ ...rowOf("put", 1, "once", "ONCE"), entry: 0 }]),
    /results\[0\].*\(entry\)/,
  );
  refused(
    reportText([
      rowOf("put", 1, "once", "ONCE"),
      rowOf("put", 1, "once", "NONE"),
    ]),
    /results\[1\].*\(repeated\)/,
  );
  refused(
    reportText(
      Array.from({ length: MAX_BASELINE_RESULTS + 1 }, () => ({})),
    ),
    /holds more than \d+ results/,
  );
});

Deno.test("baseline: another server (by name) or another oracle (by digest) is refused; another version of the server is not", () => {
  const baseline = parseBaseline(reportText([]), "/tmp/b.json");
  assertSameServer(
    baseline,
    reportOf([], { name: "notes-server", version: "2.1" }),
    "/tmp/b.json",
  );
  assert.throws(
    () =>
      assertSameServer(
        baseline,
        reportOf([], { name: "other", version: "2.0" }),
        "/tmp/b.json",
      ),
    (e) =>
      e instanceof BadBaseline &&
      e.text.en ===
        '"/tmp/b.json" is a baseline of server "notes-server", not of "other": a baseline excuses the verdicts of the server it was made on',
  );
  assertSameOracle(baseline, DIGEST, "/tmp/b.json");
  const changed = parseOracle(
    JSON.stringify({
      tools: [{
        ...EXAMPLE_ORACLE.tools[0],
        call: { id: "x-{run}", text: "y" },
      }],
    }),
  );
  assert.throws(
    () => assertSameOracle(baseline, oracleDigest(changed), "/tmp/b.json"),
    (e) =>
      e instanceof BadBaseline &&
      /was made with another oracle/.test(e.text.en),
  );
});

Deno.test("baseline: the oracle's digest is of what accept does: not its spacing, key order or guesses' notes", () => {
  const tool = EXAMPLE_ORACLE.tools[0];
  const spaced = parseOracle(JSON.stringify({ tools: [tool] }, null, 4));
  const reordered = parseOracle(
    JSON.stringify({
      tools: [Object.fromEntries(Object.entries(tool).reverse())],
    }),
  );
  const noted = parseOracle(
    JSON.stringify({ tools: [{ ...tool, guesses: {} }] }),
  );
  assert.equal(oracleDigest(spaced), DIGEST);
  assert.equal(oracleDigest(reordered), DIGEST);
  assert.equal(oracleDigest(noted), DIGEST);
  assert.match(DIGEST, /^sha256:[0-9a-f]{64}$/);
});
