/**
 * Ledger files the CLI must not trust: not a ledger, cannot be opened, or
 * edited by hand; each refused in one line and left as it was, or read
 * without a crash.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ledgerFolder, removeLedger } from "../../lib/sandbox/sandbox.ts";
import { cli, persistedCounts, TEST_ROOT } from "../_helpers/helpers.ts";
import { REFERENCE_LEDGER } from "../_helpers/cli_fixtures.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("cli: ledger files that are not ledgers are refused and left untouched", async (t) => {
  await using dirFolder = await tempDir("guardlab-foreign-");
  const dir = dirFolder.path;
  const sqliteHeader = new TextEncoder().encode("SQLite format 3\0");
  const cases: [string, Uint8Array | (() => Promise<void>)][] = [
    [
      "not sqlite",
      new TextEncoder().encode("hello, this is a text file\n".repeat(200)),
    ],
    ["truncated", (await Deno.readFile(REFERENCE_LEDGER)).slice(0, 1500)],
    ["header only", sqliteHeader],
  ];
  for (const [label, bytes] of cases) {
    await t.step(label, async () => {
      const path = join(dir, `${label.replaceAll(" ", "-")}.sqlite`);
      await Deno.writeFile(path, bytes as Uint8Array);
      for (const command of ["run", "ledger", "reconcile"]) {
        const extra = command === "run" ? runFlags({ copies: 1 }) : [];
        const r = await cli([command, "--ledger-file", path, ...extra]);
        assert.equal(r.code, 4, `${command}: ${r.err.join(" | ")}`);
        assert.equal(r.err.length, 1);
        assert.match(
          r.err[0],
          /^guardlab: refused: .* is not a usable SQLite ledger/,
        );
      }
      assert.deepEqual(await Deno.readFile(path), bytes);
      assert.deepEqual(
        [...Deno.readDirSync(dir)].map((e) => e.name).sort().filter((n) =>
          n.startsWith(label.replaceAll(" ", "-"))
        ),
        [`${label.replaceAll(" ", "-")}.sqlite`],
      );
    });
  }
  await t.step("foreign schema", async () => {
    const path = join(dir, "foreign.sqlite");
    const db = new DatabaseSync(path);
    db.exec(
      "CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER); INSERT INTO accounts VALUES(1, 100)",
    );
    db.close();
    const before = await Deno.readFile(path);
    const r = await cli([
      "run",
      "--ledger-file",
      path,
      ...runFlags({ copies: 1 }),
    ]);
    assert.equal(r.code, 4);
    assert.match(
      r.err[0],
      /not a guardlab ledger \(a foreign table accounts\)/,
    );
    assert.deepEqual(await Deno.readFile(path), before);
  });
});

Deno.test("cli: a ledger path that cannot be opened is refused in one line", async () => {
  await using dirFolder = await tempDir("guardlab-open-");
  const dir = dirFolder.path;
  const cases: [string, string][] = [
    [join(dir, "missing", "lab.sqlite"), "which does not exist"],
    [join(dir, "folder.sqlite"), "is not a regular file"],
  ];
  await Deno.mkdir(join(dir, "folder.sqlite"));
  for (const [path, why] of cases) {
    const r = await cli([
      "run",
      "--ledger-file",
      path,
      ...runFlags({ copies: 1 }),
    ]);
    assert.equal(r.code, 4);
    assert.equal(r.err.length, 1);
    assert.ok(r.err[0].startsWith(`guardlab: refused: ${path} `), r.err[0]);
    assert.ok(r.err[0].includes(why), r.err[0]);
  }
  await assert.rejects(Deno.stat(join(dir, "missing")), Deno.errors.NotFound);
});

Deno.test("cli: a hand-edited ledger is listed, reconciled and retried without a crash", async () => {
  const name = `t-edit-${crypto.randomUUID().slice(0, 6)}`;
  try {
    const { lab } = ledgerFolder(TEST_ROOT, name)!;
    const args = [
      "--ledger",
      name,
      ...runFlags(),
    ];
    assert.equal((await cli(["run", ...args, "--bad-output"])).code, 0);
    const db = new DatabaseSync(lab);
    db.exec(
      "UPDATE drafts SET body='not json'; UPDATE receipts SET events='garbage'",
    );
    db.close();
    const listing = await cli(["ledger", "--ledger", name]);
    assert.equal(listing.code, 0);
    assert.match(listing.out.join("\n"), /JOB-001 {2}"not json"[\s\S]*garbage/);
    const pending = await cli(["reconcile", "--ledger", name]);
    assert.equal(pending.code, 3);
    // The arguments come from the stored digest, not from the edited text.
    // Too long for 80 columns: one command continued with a backslash.
    assert.deepEqual(pending.out.slice(1, 3), [
      `  next: guardlab run --ledger ${name} \\`,
      "          --job JOB-001 --topic river --copies 2",
    ]);
    // The stored body cannot be read back: the retry folds that into status error.
    const retry =
      JSON.parse((await cli(["run", ...args, "--json"])).out[0]).result;
    assert.equal(retry.status, "error");
    assert.deepEqual(persistedCounts(lab), [1, 2]);
    // With the digest edited too, no valid arguments match: say so plainly.
    const edit = new DatabaseSync(lab);
    edit.exec("UPDATE drafts SET digest='not a digest'");
    edit.close();
    const unknown = await cli(["reconcile", "--ledger", name]);
    assert.match(
      unknown.out[1],
      /retry JOB-001 with the arguments that created it/,
    );
  } finally {
    removeLedger(TEST_ROOT, name);
  }
});
