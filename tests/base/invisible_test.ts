/**
 * Keys that look the same must not look the same. A classmate's ledger
 * (guardlab's exact schema) holds drafts and receipts whose keys are
 * `JOB-001` plus one invisible code point each: zero-width characters,
 * joiners, the word joiner, the byte-order mark, tag characters, variation
 * selectors, the combining grapheme joiner, Hangul fillers, the Mongolian
 * vowel separator, bidirectional marks, spaces that are not U+0020, and
 * the noncharacters XML forbids. Every view, in text, SVG and JSON, shows
 * each of them as `\uXXXX`: no raw invisible character reaches stdout, no
 * two keys print alike, JSON reads back the very keys, and every SVG
 * parses as XML (checked by an XML parser and by XML's own `Char` rule).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { fingerprint } from "../../lib/store/wire.ts";
import { inert, inertOutput } from "../../lib/base/terminal.ts";
import { xmlEscape } from "../../lib/base/markup.ts";
import { cli } from "../_helpers/helpers.ts";
import { XMLValidator } from "../_helpers/deps.ts";
import { sharedPlace } from "../_helpers/sandbox_fixtures.ts";

/** Code points that show as nothing (or as a plain space), by name. */
const INVISIBLE: Record<string, string> = {
  "zero width space": "\u200b",
  "zero width non-joiner": "\u200c",
  "zero width joiner": "\u200d",
  "word joiner": "\u2060",
  "invisible times": "\u2062",
  "byte-order mark": "\ufeff",
  "soft hyphen": "\u00ad",
  "tag A": "\u{e0041}",
  "cancel tag": "\u{e007f}",
  "language tag": "\u{e0001}",
  "variation selector 16": "\ufe0f",
  "variation selector 17": "\u{e0100}",
  "combining grapheme joiner": "\u034f",
  "Hangul choseong filler": "\u115f",
  "Hangul jungseong filler": "\u1160",
  "Hangul filler": "\u3164",
  "halfwidth Hangul filler": "\uffa0",
  "Mongolian vowel separator": "\u180e",
  "Mongolian free variation selector": "\u180b",
  "left-to-right mark": "\u200e",
  "right-to-left mark": "\u200f",
  "Arabic letter mark": "\u061c",
  "no-break space": "\u00a0",
  "ideographic space": "\u3000",
  "braille blank": "\u2800",
  "noncharacter U+FFFE": "\ufffe",
  "noncharacter U+FFFF": "\uffff",
  "noncharacter U+FDD0": "\ufdd0",
};

/** What no screen may carry raw: written here apart from the code it tests. */
const RAW =
  // deno-lint-ignore no-control-regex -- the characters the test looks for
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u00a0\u2028\u2029\u3000\u2800]/u;

/** XML 1.0's `Char` production, whole. */
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

const KEYS = Object.values(INVISIBLE).map((c) => `JOB-001${c}`);

/** Guardlab's schema, a plain JOB-001 and one look-alike draft per invisible code point. */
function lookAlikes(path: string): void {
  const db = new DatabaseSync(path);
  db.exec(LEDGER_SCHEMA.create);
  const draft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
  const receipt = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  for (const job of ["JOB-001", ...KEYS]) {
    draft.run(
      job,
      fingerprint({ job, topic: "river", copies: 2 }),
      JSON.stringify({ job, text: `river / copies=2${job.slice(7)}` }),
    );
    receipt.run(
      job,
      job === "JOB-001" ? "accepted" : `output_rejected${job.slice(7)}`,
      JSON.stringify(["arguments_valid", `input_allowed${job.slice(7)}`]),
    );
  }
  db.close();
}

const VIEWS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "svg"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

Deno.test("invisible: each code point is shown as \\uXXXX and means the same in JSON", () => {
  for (const [name, c] of Object.entries(INVISIBLE)) {
    const shown = inert(`JOB-001${c}`);
    assert.doesNotMatch(shown, RAW, name);
    assert.notEqual(shown, "JOB-001", name);
    assert.match(shown, /^JOB-001(\\u[0-9a-f]{4}){1,2}$/, name);
    assert.equal(JSON.parse(`"${shown}"`), `JOB-001${c}`, name);
    assert.equal(inertOutput(`JOB-001${c}`, true), shown, name);
    assert.doesNotMatch(xmlEscape(`JOB-001${c}`), RAW, name);
  }
  // What a terminal needs stays: line feeds, tabs, colour, CJK, emoji.
  assert.equal(inertOutput("a\tb\n李雷 🙂", false), "a\tb\n李雷 🙂");
});

Deno.test("invisible: xmlEscape never writes what XML forbids", () => {
  const hostile = [
    "\ufffe",
    "\uffff",
    "\ud800",
    "x\udfffy",
    "\u0000\u0001\u001f",
    "\u0085\u009f",
    "\u{10ffff}",
    "<&>\"'",
  ];
  for (const text of hostile) {
    const escaped = xmlEscape(text);
    assert.match(escaped, XML_CHARS, JSON.stringify(text));
    const doc =
      `<svg xmlns="http://www.w3.org/2000/svg"><text a="${escaped}">${escaped}</text></svg>`;
    assert.equal(XMLValidator.validate(doc), true, JSON.stringify(text));
  }
});

Deno.test("invisible: every view of a ledger of look-alike keys", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const path = join(mine, "lab.sqlite");
  lookAlikes(path);
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
        for (const line of [...r.out, ...r.err]) {
          assert.doesNotMatch(line, RAW, JSON.stringify(line));
        }
        const text = r.out.join("\n");
        if (view.includes("svg")) {
          assert.match(text, XML_CHARS);
          assert.equal(XMLValidator.validate(text), true);
        } else if (view.includes("json") || view.includes("--json")) {
          // Read back, the keys are the very keys the ledger holds.
          const parsed = JSON.stringify(JSON.parse(text));
          for (const key of KEYS) {
            assert.ok(parsed.includes(JSON.stringify(key)), inert(key));
          }
        } else {
          // Every look-alike key is visibly not JOB-001.
          for (const key of KEYS) {
            assert.ok(text.includes(inert(key)), inert(key));
          }
        }
      });
    }
  }
});
