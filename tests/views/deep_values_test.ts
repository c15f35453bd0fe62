/**
 * Stored values nested 5,000 deep (issue 49: a 10 KB valid ledger, the red
 * team's size): a draft body that is an object inside an object 5,000
 * times, and receipt events that are a list inside a list 5,000 times. They
 * crashed four of eight views with `internal error` (a recursion out of
 * stack) and sent `ledger` into a wrap that never ended. Every view now
 * gives its screen: such a value is read as its stored text (it is nested
 * deeper than the 64 levels a value is read to), shown exactly as stored.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cli } from "../_helpers/helpers.ts";
import { sharedPlace } from "../_helpers/sandbox_fixtures.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { fingerprint } from "../../lib/store/wire.ts";
import { MAX_STORED_DEPTH } from "../../lib/base/json.ts";
import { ledgerFolder, privateRoot } from "../../lib/sandbox/sandbox.ts";

const DEPTH = 5000;
const BODY = '{"text":' + "[".repeat(DEPTH - 1) + "]".repeat(DEPTH - 1) + "}";
const EVENTS = "[".repeat(DEPTH) + "]".repeat(DEPTH);

/** A ledger whose one draft (JOB-001) or one receipt holds the deep value. */
function deepLedger(path: string, where: "body" | "events"): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(LEDGER_SCHEMA.create);
    const args = { job: "JOB-001", topic: "river", copies: 2 };
    db.prepare("INSERT INTO drafts VALUES(?,?,?)").run(
      "JOB-001",
      fingerprint(args),
      where === "body" ? BODY : '{"job": "JOB-001", "text": "river"}',
    );
    db.prepare(
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
    ).run(
      "JOB-001",
      "output_rejected",
      where === "events" ? EVENTS : '["arguments_valid"]',
    );
  } finally {
    db.close();
  }
}

const VIEWS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "svg"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
  ["script", "--view"],
];

Deno.test("deep values: the red team's depth is past the depth a value is read to", () => {
  assert.equal(MAX_STORED_DEPTH, 64);
  assert.ok(DEPTH > MAX_STORED_DEPTH);
  assert.ok(BODY.length + EVENTS.length < 21_000, "a ledger of a few pages");
});

Deno.test("deep values: every view of a draft body or receipt events nested 5,000 deep gives its screen", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  for (const where of ["body", "events"] as const) {
    const path = join(mine, `${where}.sqlite`);
    deepLedger(path, where);
    // script keeps a named ledger: the same file, in the private folder.
    const named = ledgerFolder(privateRoot(p.base)!, where)!.lab;
    deepLedger(named, where);
    Deno.chmodSync(named, 0o600);
    for (const view of VIEWS) {
      for (const lang of ["en", "zh"]) {
        await t.step(`${where}: ${view.join(" ")} --lang ${lang}`, async () => {
          // script reads the ledger through its own steps.
          const script = view[0] === "script";
          const input = script ? '{"op":"drafts"}\n{"op":"receipts"}\n' : "";
          const which = script ? ["--ledger", where] : ["--ledger-file", path];
          const r = await cli(
            [...view, ...which, "--lang", lang],
            input,
            false,
            p.base,
          );
          assert.deepEqual(r.err, [], r.err.join("\n"));
          assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}`);
          const text = r.out.join("\n");
          assert.ok(text.length > 0);
          if (view.includes("--json") && view[0] === "ledger") {
            // Shown exactly as stored: the text, whole.
            const json = JSON.parse(text);
            if (where === "body") assert.equal(json.drafts[0].body, BODY);
            else assert.deepEqual(json.receipts[0].events, [EVENTS]);
          } else if (view[0] === "reconcile") {
            // It lists the key; it never shows a body or events.
            assert.equal(r.code, 3);
            assert.match(text, /JOB-001/);
          } else if (view.length === 1 || script) {
            // The whole text, made inert, wrapped where the view wraps.
            const all = text.replaceAll(/\n +/g, "");
            assert.ok(all.includes("[[[[[[[[[[") && all.includes("]]]]]]]]]]"));
          }
        });
      }
    }
  }
});
