/**
 * Output amplification (issue 28, item 7): a ledger full of U+0001, which
 * every view shows as the six characters `\u0001`, must not make a view
 * print (or build) what its size allows. Every view of it ends with
 * exactly `MAX_VIEW_BYTES` or less, says that it is cut and how many rows
 * of each kind it left out, and stays what it is: JSON that parses, SVG
 * that is XML. Rows are left out whole: every line shown is a whole row.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli } from "../_helpers/helpers.ts";
import { XMLValidator } from "../_helpers/deps.ts";
import { sharedPlace } from "../_helpers/sandbox_fixtures.ts";
import { floodLedger } from "../_helpers/flood_ledger.ts";
import {
  MAX_VIEW_BYTES,
  MAX_VIEW_CHARS,
  ViewBudget,
} from "../../lib/views/view_bound.ts";

const ROWS = 24;
/** Each key, body and status carries this many U+0001: 24 rows hold about 1.2 MB. */
const CHARS = 16 << 10;

const VIEWS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "svg"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

const CUT = {
  en: "(cut: a view shows at most 524288 characters of stored text)",
  zh: "（已截断：一个视图最多显示 524288 个字符的存储文本）",
};
const NOT_SHOWN = { en: /^\(not shown: (.+)\)$/, zh: /^（未显示：(.+)）$/ };

const bytes = (lines: string[]) =>
  lines.reduce((n, l) => n + new TextEncoder().encode(l).length + 1, 0);

Deno.test("view bound: the bound is the one stated", () => {
  assert.equal(MAX_VIEW_CHARS, 524288);
  // The ledger below holds more than one view shows.
  assert.ok(ROWS * CHARS * 3 > 2 * MAX_VIEW_CHARS);
});

Deno.test("view bound: every view of a ledger full of U+0001 is cut, says so, and stays what it is", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const path = join(mine, "lab.sqlite");
  floodLedger(path, ROWS, CHARS);
  for (const view of VIEWS) {
    for (const lang of ["en", "zh"]) {
      await t.step(`${view.join(" ")} --lang ${lang}`, async () => {
        const r = await cli(
          [...view, "--ledger-file", path, "--lang", lang],
          "",
          false,
          p.base,
        );
        assert.ok(r.code === 0 || r.code === 3, r.err.join("\n"));
        assert.deepEqual(r.err, []);
        const printed = bytes(r.out);
        assert.ok(printed <= MAX_VIEW_BYTES, `${printed} bytes printed`);
        const text = r.out.join("\n");
        if (view.includes("svg")) {
          assert.equal(XMLValidator.validate(text), true);
          const notes = [...text.matchAll(/xml:space="preserve">([^<]*)</g)]
            .map((m) => m[1]);
          const at = notes.indexOf(CUT[lang as "en"]);
          assert.ok(at >= 0, notes.join("\n"));
          assert.match(notes[at + 1], NOT_SHOWN[lang as "en"]);
        } else if (view.includes("json") || view.includes("--json")) {
          const parsed = JSON.parse(text);
          assert.equal(parsed.cut.max_chars, MAX_VIEW_CHARS);
          const notShown = parsed.cut.not_shown as Record<string, number>;
          const shown = parsed.drafts ?? parsed.pending ?? parsed.attempts;
          const kind = parsed.drafts
            ? "drafts"
            : parsed.pending
            ? "keys"
            : "attempts";
          // What is shown and what is counted out make the whole ledger.
          assert.equal(shown.length + notShown[kind], ROWS, kind);
          assert.ok(shown.length < ROWS);
        } else {
          const at = r.out.indexOf(CUT[lang as "en"]);
          assert.ok(at >= 0, r.out.slice(-3).join("\n"));
          const m = NOT_SHOWN[lang as "en"].exec(r.out[at + 1]);
          assert.ok(m, r.out[at + 1]);
          if (view.length === 1 && view[0] === "ledger") {
            // Each draft shown is one whole line: its key and its text.
            const drafts = r.out.filter((l) => /^ {2}JOB-\d+/.test(l));
            drafts.forEach((d) => {
              const i = /^ {2}JOB-(\d+)/.exec(d)![1];
              // The stored body is not JSON, so it is shown as a JSON
              // string of its inert text: each \u0001 with its backslash
              // escaped.
              assert.equal(
                d,
                `  JOB-${i}${"\\u0001".repeat(CHARS)}  "{\\"text\\":\\"${
                  "\\\\u0001".repeat(CHARS)
                }\\"}"`,
              );
            });
            const counted = lang === "en"
              ? new RegExp(`^${ROWS - drafts.length} of ${ROWS} drafts, `)
              : new RegExp(`^${ROWS} 条草稿中的 ${ROWS - drafts.length} 条，`);
            assert.match(m[1], counted);
            assert.ok(drafts.length > 0 && drafts.length < ROWS);
          }
        }
      });
    }
  }
});

Deno.test("view bound: rows are taken whole, in order, and the first that does not fit ends the view", () => {
  const budget = new ViewBudget(1000);
  assert.deepEqual(budget.take("drafts", ["a", "b"]), ["a", "b"]);
  assert.deepEqual(budget.take("receipts", ["x".repeat(2000), "c"]), []);
  assert.deepEqual(budget.take("keys", ["d"]), []);
  assert.equal(budget.cut, true);
  assert.deepEqual(budget.cutJson(), {
    cut: { max_chars: 1000, not_shown: { receipts: 2, keys: 1 } },
  });
  assert.deepEqual(budget.cutLines(), [
    {
      en: "(cut: a view shows at most 1000 characters of stored text)",
      zh: "（已截断：一个视图最多显示 1000 个字符的存储文本）",
    },
    {
      en: "(not shown: 2 of 2 receipts, 1 of 1 keys)",
      zh: "（未显示：2 条回执中的 2 条，1 个业务键中的 1 个）",
    },
  ]);
  // A ledger of empty rows is bounded too: each row costs its line.
  const empty = new ViewBudget(1000);
  assert.ok(empty.take("drafts", Array(1000).fill("")).length < 20);
  // Nothing left out: nothing said.
  const small = new ViewBudget();
  small.take("drafts", ["JOB-001"]);
  assert.deepEqual(small.cutLines(), []);
  assert.deepEqual(small.cutJson(), {});
});

Deno.test("view bound: script --view stops drawing at the bound, runs every step, and says how many it did not draw", async () => {
  const steps = 160;
  const job = "\u0001".repeat(4 << 10);
  const line = JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2 },
  });
  const r = await cli(
    ["script", "--view"],
    `${line}\n`.repeat(steps),
  );
  // --view prints words, not JSON, on stdout (issue 29, item 12).
  assert.ok(!r.out.some((l) => l.startsWith("{")));
  assert.ok(bytes(r.out) <= MAX_VIEW_BYTES, `${bytes(r.out)} bytes`);
  const at = r.out.indexOf(CUT.en);
  assert.ok(at >= 0, r.out.slice(-2).join("\n"));
  const drawn = r.out.filter((l) => /^line \d+: run /.test(l)).length;
  assert.ok(drawn > 0 && drawn < steps, String(drawn));
  assert.equal(
    r.out[at + 1],
    `(not shown: ${
      steps - drawn
    } of ${steps} steps (each was run; script without --view prints one JSON line a step))`,
  );
});

Deno.test("view bound: a walk that ends before its total ended at a row too long to read, and the view ends there", () => {
  const budget = new ViewBudget(1000);
  // Two drafts of three were read: the third was too long to read at all.
  assert.deepEqual(budget.takeFrom("drafts", ["a", "b"], 3), ["a", "b"]);
  assert.deepEqual(budget.takeFrom("receipts", ["c"], 1), []);
  assert.deepEqual(budget.leftOut, [
    { kind: "drafts", shown: 2, total: 3 },
    { kind: "receipts", shown: 0, total: 1 },
  ]);
});
