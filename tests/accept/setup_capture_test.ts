/**
 * A setup call's answer feeds the case's calls (`{setup.NAME}`, from a
 * JSON Pointer the setup call declares in its `capture`), for a tool that
 * needs an id the server assigns. The fixture `assigns-id` really refuses a
 * note whose notebook it did not hand out; every verdict is checked against
 * its own store, and the saved report is judged again from its histories.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { judgeReport } from "../../lib/accept/judge.ts";
import { BadOracle, parseOracle } from "../../lib/accept/oracle.ts";
import {
  CAN_START,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  runEngineer,
  storedNotes,
} from "../_helpers/accept_helpers.ts";

const [TOOL] = EXAMPLE_ORACLE.tools;

/** The example entry, its calls in the notebook `notebook`, after `setup`. */
function entry(notebook: string, setup?: unknown[]) {
  const withBook = (a: Record<string, unknown>) => ({ ...a, notebook });
  return {
    ...TOOL,
    call: withBook(TOOL.call),
    bad_call: withBook(TOOL.bad_call!),
    other_call: withBook(TOOL.other_call!),
    ...(setup === undefined ? {} : { setup }),
  };
}

/** `accept --json` on assigns-id with `tool`, cases `cases`: the report and the store after. */
async function run(tool: unknown, cases: string) {
  using dir = privateDir("gl-setup-capture-");
  const store = join(dir.path, "notes.jsonl");
  const oracle = join(dir.path, "oracle.json");
  Deno.writeTextFileSync(oracle, JSON.stringify({ tools: [tool] }));
  const out = await runEngineer([
    "accept",
    "--json",
    "--oracle",
    oracle,
    "--cases",
    cases,
    "--",
    ...fixtureCommand("assigns-id", store),
  ]);
  return { out, report: JSON.parse(out.stdout), notes: storedNotes(store) };
}

const OPEN = {
  tool: "open_notebook",
  arguments: {},
  capture: { notebook: "/id" },
};

Deno.test({
  name:
    "setup capture: {setup.notebook} takes the id open_notebook assigned: once ONCE, rejected NO-EFFECT, one note in that notebook; the history keeps the capture and judge gives the same verdicts" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const { out, report, notes } = await run(
      entry("{setup.notebook}", [OPEN]),
      "once,rejected",
    );
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      report.results.map((r: { verdict: string }) => r.verdict),
      ["ONCE", "NO-EFFECT"],
    );
    // The server's own store: the once case's note, in a notebook it
    // handed out (never the placeholder's text).
    assert.equal(notes.length, 1);
    assert.equal(notes[0].id, report.results[0].key);
    const records = report.results[0].history.records;
    const setup = records.find((r: { op: string }) => r.op === "setup");
    assert.match(setup.captured.notebook, /^nb-[0-9a-f-]{36}$/);
    const call = records.find((r: { op: string }) => r.op === "call");
    assert.equal(call.arguments.notebook, setup.captured.notebook);
    // Each case asks for its own notebook.
    const second = report.results[1].history.records.find((
      r: { op: string },
    ) => r.op === "setup");
    assert.notEqual(second.captured.notebook, setup.captured.notebook);
    const judged = judgeReport(out.stdout, "r.json");
    assert.deepEqual(judged.changed, []);
    assert.deepEqual(
      judged.report.results.map((r) => r.verdict),
      ["ONCE", "NO-EFFECT"],
    );
  },
});

Deno.test({
  name:
    "setup capture: without the assigned id the valid call is refused and nothing is written; a capture the answer does not hold is SETUP-FAILED, no call made" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    // A valid call left no effect under its key (NONE): the notebook was
    // not one the server handed out.
    const made = await run(entry("nb-made-up"), "once");
    assert.deepEqual(
      made.report.results.map((r: { verdict: string }) => r.verdict),
      ["NONE"],
    );
    assert.deepEqual(made.notes, []);
    const lost = await run(
      entry("{setup.notebook}", [{ ...OPEN, capture: { notebook: "/nope" } }]),
      "once",
    );
    assert.deepEqual(
      lost.report.results.map((r: { verdict: string }) => r.verdict),
      ["SETUP-FAILED"],
    );
    const records = lost.report.results[0].history.records;
    assert.equal(
      records.find((r: { op: string }) => r.op === "setup").missing,
      "notebook",
    );
    assert.ok(!records.some((r: { op: string }) => r.op === "call"));
    assert.deepEqual(lost.notes, []);
    assert.deepEqual(judgeReport(lost.out.stdout, "r.json").changed, []);
  },
});

Deno.test("setup capture: an oracle that uses {setup.NAME} no setup call captures, or a capture that is not a pointer, is refused in one line", () => {
  const refused = (tool: unknown) => {
    try {
      parseOracle(JSON.stringify({ tools: [tool] }));
    } catch (error) {
      assert.ok(error instanceof BadOracle);
      return error.text.en;
    }
    assert.fail("accepted");
  };
  assert.equal(
    refused(entry("{setup.book}", [OPEN])),
    "tools[0] uses {setup.book}, which no setup call captures (give that setup call a capture)",
  );
  assert.equal(
    refused(
      entry("{setup.notebook}", [{ ...OPEN, capture: { notebook: "id" } }]),
    ),
    'tools[0].setup[0].capture.notebook must be a JSON Pointer ("" or starting with /)',
  );
  // A capture on a read is not a setup call's.
  assert.match(
    refused({ ...entry("x"), read: { ...TOOL.read, capture: { a: "/a" } } }),
    /^tools\[0\]\.read: unknown field capture/,
  );
});
