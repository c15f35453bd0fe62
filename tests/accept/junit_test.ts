/**
 * `accept --junit`: the report as every CI reads it. A report written by
 * hand is rendered to XML written by hand; real runs against the fixture
 * servers are validated against the two JUnit schemas CI systems read
 * (fixtures/junit/, sources in its README) with libxml2's own xmllint
 * (xmllint-wasm, offline), parsed back, and their counts checked against
 * the matrix; whatever a server or an oracle named (controls, characters
 * XML forbids, bidirectional overrides) stays one valid document.
 */
import assert from "node:assert/strict";
import { CASE_NAMES } from "../../lib/accept/cases.ts";
import {
  compareWithBaseline,
  oracleDigest,
} from "../../lib/accept/baseline.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { type AcceptReport, runAccept } from "../../lib/accept/run.ts";
import { junitXml } from "../../lib/accept/views/accept_junit.ts";
import { loadXmllint, XMLParser } from "../_helpers/deps.ts";
import {
  CAN_START,
  fixtureChannel,
  NEEDS_START,
} from "../_helpers/accept_helpers.ts";
import { reportOf, rowOf } from "../_helpers/accept_reports.ts";

const SCHEMAS = ["junit-10.xsd", "JUnit.xsd"].map((name) => ({
  fileName: name,
  contents: Deno.readTextFileSync(
    new URL(`../../fixtures/junit/${name}`, import.meta.url),
  ),
}));

/** Validate `xml` against both schemas; the errors, none when valid. */
async function schemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = await loadXmllint();
  const errors: string[] = [];
  for (const schema of SCHEMAS) {
    const r = await validateXML({
      xml: { fileName: "report.xml", contents: xml },
      schema,
    });
    if (!r.valid) {
      errors.push(
        ...r.errors.map((e) => `${schema.fileName}: ${e.rawMessage}`),
      );
    }
  }
  return errors;
}

const AT = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const DIGEST = "sha256:" + "ab".repeat(32);

Deno.test("junit: a hand-written report's XML, written by hand: failure, error, skipped, passed", async () => {
  const report = reportOf([
    rowOf("put_note", 1, "once", "ONCE", { ms: 12 }),
    rowOf("put_note", 1, "lost-reply-retry", "DUPLICATED", {
      saw: ["no-answer", "success"],
      effect: 2,
      before: 1,
      ms: 40,
    }),
    rowOf("put_note", 1, "concurrent-same", "NO-ANSWER", {
      saw: ["no-answer"],
      effect: null,
      ms: 1500,
    }),
    rowOf("put_note", 1, "same-key-other-arguments", "NOT-RUN", {
      saw: [],
      effect: null,
    }),
  ]);
  const xml = junitXml(report, {
    lang: "en",
    at: AT,
    oracleDigest: DIGEST,
    exit: 5,
  });
  assert.equal(
    xml,
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="guardlab accept: notes-server 2.0" package="guardlab.accept" id="0" timestamp="2026-01-02T03:04:05" hostname="localhost" tests="4" failures="1" errors="1" skipped="1" time="1.552">
    <properties>
      <property name="server" value="notes-server"/>
      <property name="server_version" value="2.0"/>
      <property name="oracle_digest" value="${DIGEST}"/>
      <property name="exit" value="5"/>
    </properties>
    <testcase name="put_note/once" classname="guardlab.accept.put_note" time="0.012"/>
    <testcase name="put_note/lost-reply-retry" classname="guardlab.accept.put_note" time="0.040">
      <failure type="DUPLICATED" message="verdict: DUPLICATED: more than one effect for one key: a retry, a copy or other arguments wrote again beside the first">verdict: DUPLICATED: more than one effect for one key: a retry, a copy or other arguments wrote again beside the first
client saw: no answer, then success
effect: 2 (1 before)
article: sending again on a timeout alone may duplicate the effect</failure>
    </testcase>
    <testcase name="put_note/concurrent-same" classname="guardlab.accept.put_note" time="1.500">
      <error type="NO-ANSWER" message="verdict: NO-ANSWER: the server did not answer within the wait, or its answer was past what guardlab reads: nothing can be said about the effect">verdict: NO-ANSWER: the server did not answer within the wait, or its answer was past what guardlab reads: nothing can be said about the effect
client saw: no answer
effect: ?
article: after a timeout, query by the stable business key first</error>
    </testcase>
    <testcase name="put_note/same-key-other-arguments" classname="guardlab.accept.put_note" time="0.000">
      <skipped message="NOT-RUN: the oracle gives no arguments for it">verdict: NOT-RUN: not run: this case tested nothing
the oracle gives no arguments for it
client saw: -
effect: -
article: accept refusals, check errors, call errors, cancels and retries one by one</skipped>
    </testcase>
    <system-out></system-out>
    <system-err></system-err>
  </testsuite>
</testsuites>
`,
  );
  assert.deepEqual(await schemaErrors(xml), []);
  // The same report in Chinese: the words change, the structure does not.
  const zh = junitXml(report, {
    lang: "zh",
    at: AT,
    oracleDigest: DIGEST,
    exit: 5,
  });
  assert.match(
    zh,
    /<failure type="DUPLICATED" message="结论：DUPLICATED：同一业务键出现多个效果：重试、重复投递或其他参数又写了一次，与第一次并存">/,
  );
  assert.match(zh, /客户端看到：无应答，然后成功/);
  assert.deepEqual(await schemaErrors(zh), []);
});

Deno.test("junit: what a server and an oracle name is escaped, controls and characters XML forbids included, and the document stays valid", async () => {
  const hostile = "a<b>&\"'\u0000\u0007\u001b[2J\u202e\uffff\ud800z";
  const report = reportOf(
    [rowOf(hostile, 1, "once", "DUPLICATED", { effect: 2 })],
    { name: hostile, version: "]]><x/>" },
  );
  const xml = junitXml(report, {
    lang: "en",
    at: AT,
    oracleDigest: DIGEST,
    exit: 5,
  });
  assert.deepEqual(await schemaErrors(xml), []);
  assert.ok(!xml.includes("\u0000") && !xml.includes("\u202e"));
  assert.ok(xml.includes(
    'name="a&lt;b&gt;&amp;&quot;&apos;\\u0000\\u0007\\u001b[2J\\u202e\\uffff\\ud800z/once"',
  ));
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
  assert.equal(
    parsed.testsuites.testsuite.properties.property[1]["@_value"],
    "]]><x/>",
  );
});

Deno.test("junit: a failing verdict the baseline excused is skipped, saying so; one it did not is still a failure", async () => {
  const before = reportOf([
    rowOf("put_note", 1, "lost-reply-retry", "DUPLICATED"),
    rowOf("put_note", 1, "concurrent-distinct", "LOST"),
  ]);
  const now = reportOf([
    rowOf("put_note", 1, "lost-reply-retry", "DUPLICATED"),
    rowOf("put_note", 1, "concurrent-distinct", "DUPLICATED"),
  ]);
  const comparison = compareWithBaseline(now, {
    server: before.server,
    oracle_digest: DIGEST,
    rows: before.results,
  });
  const xml = junitXml(now, {
    lang: "en",
    at: AT,
    oracleDigest: DIGEST,
    exit: 5,
    comparison,
  });
  assert.match(xml, /tests="2" failures="1" errors="0" skipped="1"/);
  assert.match(
    xml,
    /<testcase name="put_note\/lost-reply-retry"[^>]*>\n {6}<skipped message="excused by the baseline: DUPLICATED">/,
  );
  assert.match(
    xml,
    /<testcase name="put_note\/concurrent-distinct"[^>]*>\n {6}<failure type="DUPLICATED"/,
  );
  assert.deepEqual(await schemaErrors(xml), []);
});

/** The counts the matrix gives: its rows by their class, and NOT-RUN. */
function matrixCounts(report: AcceptReport) {
  const rows = report.results;
  return {
    tests: rows.length,
    failures: rows.filter((r) => r.class === "unsafe").length,
    errors: rows.filter((r) => r.class === "inconclusive").length,
    skipped: rows.filter((r) => r.verdict === "NOT-RUN").length,
  };
}

for (
  const mode of ["correct", "duplicates", "never-answers", "false-failure"]
) {
  Deno.test({
    name:
      `junit: a real run against the fixture (${mode}): valid under both schemas, one testcase per case, counts as the matrix` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      // Without other_call, same-key-other-arguments is NOT-RUN (skipped).
      const { other_call: _, other_count: __, ...single } =
        EXAMPLE_ORACLE.tools[0];
      const oracle = mode === "correct" ? { tools: [single] } : EXAMPLE_ORACLE;
      const report: AcceptReport = await runAccept(fixtureChannel(mode), {
        oracle,
        cases: CASE_NAMES,
        copies: 4,
        timeoutMs: mode === "never-answers" ? 300 : 10_000,
        cancelAfterMs: 20,
      });
      const xml = junitXml(report, {
        lang: "en",
        at: new Date(),
        oracleDigest: oracleDigest(oracle),
        exit: 5,
      });
      assert.deepEqual(await schemaErrors(xml), []);
      const parsed = new XMLParser({
        ignoreAttributes: false,
        isArray: (name) => name === "testcase",
      }).parse(xml);
      const suite = parsed.testsuites.testsuite;
      const want = matrixCounts(report);
      assert.deepEqual(
        {
          tests: Number(suite["@_tests"]),
          failures: Number(suite["@_failures"]),
          errors: Number(suite["@_errors"]),
          skipped: Number(suite["@_skipped"]),
        },
        want,
      );
      const cases = suite.testcase as Record<string, unknown>[];
      assert.deepEqual(
        cases.map((c) => c["@_name"]),
        CASE_NAMES.map((c) => `put_note/${c}`),
      );
      cases.forEach((c, i) => {
        const verdict = report.results[i].verdict;
        const tag = ["failure", "error", "skipped"].find((t) => t in c);
        if (tag === "failure" || tag === "error") {
          assert.equal((c[tag] as Record<string, string>)["@_type"], verdict);
        }
      });
      // same-key-other-arguments, and (no second server to start from a
      // channel alone) two-processes and crash-after-commit.
      if (mode === "correct") assert.equal(want.skipped, 3);
      if (mode === "duplicates") assert.ok(want.failures >= 2);
      if (mode === "never-answers") assert.ok(want.errors >= 1);
    },
  });
}
