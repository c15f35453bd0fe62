/**
 * A timeline puts attempts in the order their MCP calls started only for a
 * ledger of at most `MAX_ORDERED_ROWS` rows (receipts, calls and drafts
 * together): that order takes every row in memory at once. A larger one is
 * drawn in receipt order, from facts read a range of keys at a time, and
 * the view says so in one line, in both languages (and in JSON).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cli } from "../_helpers/helpers.ts";
import { sharedPlace } from "../_helpers/sandbox_fixtures.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { CREATE_CALL_TABLES_IF_MISSING } from "../../lib/timing/call_schema.ts";
import { MAX_ORDERED_ROWS } from "../../lib/views/ledger_history.ts";

/** A ledger of `receipts` receipts of JOB-001 and one MCP call that wrote the first. */
function withCalls(path: string, receipts: number): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(LEDGER_SCHEMA.create);
    db.exec(CREATE_CALL_TABLES_IF_MISSING);
    db.exec(`INSERT INTO drafts VALUES('JOB-001', 'd', '{}');
      INSERT INTO mcp_sessions VALUES(1, 'client', 10);
      INSERT INTO mcp_calls VALUES(1, 1, 'create_draft', 'JOB-001', 1, 10, 20);
      WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq
        WHERE x < ${receipts})
      INSERT INTO receipts(job, status, effect_exists, events)
        SELECT 'JOB-001', 'accepted', 1,
          '["arguments_valid", "effect_committed"]' FROM seq;`);
  } finally {
    db.close();
  }
}

const LINE = {
  en: `(drawn in receipt order: this ledger records 1 MCP call, and a ` +
    `timeline orders attempts by their calls' start only up to ` +
    `${MAX_ORDERED_ROWS} rows of receipts, calls and drafts together)`,
  zh: `（按回执顺序画出：这个账本记录了 1 次 MCP 调用，而时间线只在回执、` +
    `调用和草稿合计不超过 ${MAX_ORDERED_ROWS} 行时按调用开始的顺序排列调用）`,
};

Deno.test("timeline order: past the rows ordered by their calls, one line says the attempts are in receipt order", async (t) => {
  assert.equal(MAX_ORDERED_ROWS, 65_536);
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const over = join(mine, "over.sqlite");
  const under = join(mine, "under.sqlite");
  // One row past the bound: 65,534 receipts, one call, one draft.
  withCalls(over, MAX_ORDERED_ROWS - 1);
  withCalls(under, MAX_ORDERED_ROWS - 2);
  for (const lang of ["en", "zh"] as const) {
    await t.step(lang, async () => {
      const r = await cli(
        ["ledger", "--timeline", "--ledger-file", over, "--lang", lang],
        "",
        false,
        p.base,
      );
      assert.equal(r.code, 0, r.err.join("\n"));
      // Wrapped lines joined again: with a space in English, none in Chinese.
      const text = r.out.join("\n").replaceAll(
        /\n */g,
        lang === "en" ? " " : "",
      );
      assert.ok(text.includes(LINE[lang]), r.out.slice(0, 6).join("\n"));
      const at = await cli(
        ["ledger", "--timeline", "--ledger-file", under, "--lang", lang],
        "",
        false,
        p.base,
      );
      assert.equal(at.code, 0);
      assert.ok(!at.out.join(" ").includes(LINE[lang].slice(0, 12)));
    });
  }
  await t.step("--format json", async () => {
    const r = await cli(
      ["ledger", "--timeline", "--format", "json", "--ledger-file", over],
      "",
      false,
      p.base,
    );
    const json = JSON.parse(r.out.join("\n"));
    assert.deepEqual(json.unordered, { calls: 1, max_rows: MAX_ORDERED_ROWS });
    assert.equal(json.reads, undefined);
    assert.equal(json.attempts.at(-1).receipt, MAX_ORDERED_ROWS - 1);
    const under_ = await cli(
      ["ledger", "--timeline", "--format", "json", "--ledger-file", under],
      "",
      false,
      p.base,
    );
    const ordered = JSON.parse(under_.out.join("\n"));
    assert.equal(ordered.unordered, undefined);
    // Ordered by the calls: the sessions are part of it.
    assert.deepEqual(ordered.sessions, [{ session: 1, client: "client" }]);
  });
});
