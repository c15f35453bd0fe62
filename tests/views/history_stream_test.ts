/**
 * A ledger's history from facts read a batch of keys at a time
 * (`historyFrom` of `Ledger.historyFacts`, what `ledger --timeline` uses
 * when no MCP call is on record) is the history worked out from every row
 * at once (`historyOf`): on ledgers made to find where they could part
 * (receipt-less drafts before the first receipt of their key, drafts with
 * no receipt at all, keys with no draft, receipts with no key), from empty
 * to three times the number of attempts drawn; and the facts SQLite reads
 * are the ones worked out from every row, however many batches the keys
 * take.
 */
import assert from "node:assert/strict";
import {
  historyOf,
  MAX_DRAWN_ATTEMPTS,
  type ReceiptFact,
} from "../../lib/views/ledger_timeline.ts";
import { historyFrom, summaryOf } from "../../lib/views/ledger_history.ts";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "../../lib/timing/ledger.ts";
import { historyFacts, keyRanges } from "../../lib/timing/_key_ranges.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EVENTS = [
  ["arguments_valid", "input_allowed", "business_started", "effect_committed"],
  ["arguments_valid", "input_allowed", "business_started", "effect_reused"],
  ["arguments_valid"],
  [],
];
const STATUSES = ["accepted", "output_rejected", "cancelled", "error", "x"];

function ledger(seed: number, receipts: number, keys: number) {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) =>
    list[Math.floor(next() * list.length)];
  const job = () =>
    next() < 0.1
      ? null
      : `JOB-${String(Math.floor(next() * keys)).padStart(3, "0")}`;
  const rows: ReceiptFact[] = Array.from({ length: receipts }, (_, i) => ({
    attempt: i + 1,
    job: job(),
    status: pick(STATUSES),
    effect_exists: next() < 0.5,
    events: pick(EVENTS),
  }));
  const drafts = Array.from(
    { length: keys + 5 },
    (_, k) => `JOB-${String(k).padStart(3, "0")}`,
  ).filter(() => next() < 0.6).sort();
  return { rows, drafts };
}

Deno.test("history: from facts of the latest receipts, the same history as from every row", () => {
  let compared = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const receipts = [
      0,
      1,
      7,
      MAX_DRAWN_ATTEMPTS - 1,
      MAX_DRAWN_ATTEMPTS,
      3 * MAX_DRAWN_ATTEMPTS,
    ][seed % 6];
    const keys = [1, 4, 40, 700][seed % 4];
    const { rows, drafts } = ledger(seed, receipts, keys);
    const compensations = drafts.slice(0, 2).map((job) => ({
      job,
      state: "voided",
      receipts: 1,
    }));
    const sessions = [{ session: 1, client: "c" }];
    assert.deepEqual(
      historyFrom(summaryOf(rows, drafts), compensations, sessions),
      historyOf(rows, drafts, compensations, [], sessions),
      `seed ${seed}: ${receipts} receipts, ${keys} keys`,
    );
    compared++;
  }
  assert.equal(compared, 60);
});

Deno.test("history: more drafts without a receipt than are drawn", () => {
  const drafts = Array.from(
    { length: MAX_DRAWN_ATTEMPTS + 3 },
    (_, k) => `JOB-${String(k).padStart(4, "0")}`,
  );
  const rows: ReceiptFact[] = [{
    attempt: 1,
    job: null,
    status: "error",
    effect_exists: false,
    events: [],
  }];
  assert.deepEqual(
    historyFrom(summaryOf(rows, drafts), []),
    historyOf(rows, drafts, []),
  );
});

Deno.test("history: the ledger's summary, read by SQLite, is the one worked out from every row", async () => {
  await using dirFolder = await tempDir("gl-summary-");
  const dir = dirFolder.path;
  const path = `${dir}/lab.sqlite`;
  Ledger.open(path, { trusted: [dir] }).close();
  const db = new DatabaseSync(path);
  const add = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  // Events a crafted ledger may hold: escapes, nesting, not JSON at all.
  const texts = [
    '["arguments_valid", "effect_committed"]',
    '["effect_reused"]',
    '["\\u0065ffect_committed"]',
    '[["effect_committed"]]',
    "effect_committed",
    '"effect_committed"',
    '["effect_committed_not"]',
    "[1, 2]",
    "{}",
  ];
  for (let i = 0; i < 3 * MAX_DRAWN_ATTEMPTS + 7; i++) {
    const job = i % 11 === 0
      ? null
      : `JOB-${String((i * 7) % 40).padStart(3, "0")}`;
    add.run(job, i % 3 ? "accepted" : "error", texts[i % texts.length]);
  }
  // One key for each text alone: whether it shows the draft committed
  // rests on that text only.
  texts.forEach((text, k) => add.run(`KEY-${k}`, "error", text));
  const drafts = [
    ...texts.map((_, k) => `KEY-${k}`),
    "JOB-001",
    "JOB-039",
    "JOB-100",
  ].sort();
  for (const job of drafts) {
    db.prepare("INSERT INTO drafts VALUES(?, 'd', '{}')").run(job);
  }
  db.close();
  const ledger = Ledger.open(path, { mode: "read", trusted: [dir] });
  try {
    const facts = ledger.historyFacts(MAX_DRAWN_ATTEMPTS);
    assert.deepEqual(facts, summaryOf(ledger.receipts(), drafts));
    assert.ok(facts.firstAttempt.size > 0, "some draft is uncommitted");
    // Whether a key's draft shows committed rests on its text alone.
    assert.deepEqual(
      [...ledger.committedAmong(texts.map((_, k) => `KEY-${k}`))].sort(),
      [0, 2, 3, 4, 5].map((k) => `KEY-${k}`),
    );
  } finally {
    ledger.close();
  }
});

Deno.test("history: facts found a range of keys at a time are the facts of every row", async () => {
  await using dirFolder = await tempDir("gl-ranges-");
  const dir = dirFolder.path;
  const path = `${dir}/lab.sqlite`;
  Ledger.open(path, { trusted: [dir] }).close();
  const db = new DatabaseSync(path);
  const keys = Array.from(
    { length: 5000 },
    (_, k) => `KEY-${String(k).padStart(6, "0")}`,
  );
  const next = random(7);
  db.exec("BEGIN");
  const draft = db.prepare("INSERT INTO drafts VALUES(?, 'd', '{}')");
  const add = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  for (const job of keys) draft.run(job);
  for (let i = 0; i < 2000; i++) {
    // Most keys have no receipt; some a committing one, some only reuses,
    // and the last keys' receipts come last.
    const job = i < 1990
      ? keys[Math.floor(next() * keys.length)]
      : keys.at(-1 - (i % 3))!;
    add.run(job, "error", JSON.stringify(EVENTS[Math.floor(next() * 2)]));
  }
  db.exec("COMMIT");
  // A bound of about 770 keys a range: the walk takes several.
  const bound = 20_000;
  const ranges = [...keyRanges(db, false, bound)];
  assert.ok(ranges.length >= 6, `${ranges.length} ranges`);
  for (const walk of [ranges, [...keyRanges(db, true, bound)].reverse()]) {
    // The ranges cover the index, each key once, in order.
    assert.equal(walk.reduce((n, r) => n + r.count, 0), keys.length);
    assert.equal(walk[0].lo, keys[0]);
    assert.equal(walk.at(-1)!.hi, keys.at(-1));
    walk.forEach((r, i) => {
      assert.ok(r.lo <= r.hi);
      if (i > 0) assert.ok(walk[i - 1].hi < r.lo, "no key twice");
    });
  }
  const ledger = Ledger.open(path, { mode: "read", trusted: [dir] });
  try {
    assert.deepEqual(
      historyFacts(db, MAX_DRAWN_ATTEMPTS, bound),
      summaryOf(ledger.receipts(), keys),
    );
    // And with the bound every view has.
    assert.deepEqual(
      ledger.historyFacts(MAX_DRAWN_ATTEMPTS),
      summaryOf(ledger.receipts(), keys),
    );
  } finally {
    ledger.close();
    db.close();
  }
});
