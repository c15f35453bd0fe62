/**
 * A ledger's schema is data until it is proven exact. Each crafted ledger
 * of `hostile_schemas.ts` hides a tripwire (an expression that fails the
 * moment it is evaluated) in one schema object: every opener refuses it
 * with one line naming that object, so the whole schema was compared with
 * what SQLite reports for guardlab's own before any row was evaluated (the
 * integrity check included), and the file stays byte-identical. Files that
 * are guardlab's own, written with other white space (the reference lab's)
 * or with the allowed fixture trigger, still open.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { Ledger } from "../../lib/timing/ledger.ts";
import { ARGS, cli } from "../_helpers/helpers.ts";
import { sharedPlace, snapshot } from "../_helpers/sandbox_fixtures.ts";
import { buildHostile, HOSTILE, TRIPWIRE } from "./hostile_schemas.ts";

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);

/** The commands that open a ledger file, with what each needs. */
const OPENERS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["reconcile"],
  ["run", "--job", ARGS.job, "--topic", ARGS.topic, "--copies", "2"],
  ["compensate", "--job", "JOB-00001"],
];

for (const hostile of HOSTILE) {
  Deno.test(`schema: ${hostile.name} is refused before it is evaluated`, async () => {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const path = join(mine, "lab.sqlite");
    buildHostile(path, hostile.name, TRIPWIRE);
    const before = await snapshot(mine);
    for (const opener of OPENERS) {
      for (const lang of ["en", "zh"]) {
        const [command, ...rest] = opener;
        const r = await cli(
          [command, "--ledger-file", path, ...rest, "--lang", lang],
          "",
          false,
          p.base,
        );
        const said = [...r.out, ...r.err].join("\n");
        assert.equal(r.code, 4, `${opener.join(" ")}: ${said}`);
        assert.deepEqual(r.out, []);
        assert.equal(r.err.length, 1, said);
        if (lang === "en") assert.match(r.err[0], hostile.why);
        else {assert.match(
            r.err[0],
            /不是 guardlab 的账本|不是可用的 SQLite 账本/,
          );}
        assert.doesNotMatch(r.err[0], /overflow/, "nothing was evaluated");
      }
    }
    for (const mode of ["read", "write"] as const) {
      assert.throws(() => Ledger.open(path, { mode }), hostile.why);
    }
    assert.deepEqual(await snapshot(mine), before, "the file is unchanged");
  });
}

Deno.test("schema: guardlab's own, in other white space or with the fixture trigger, opens", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });

  await t.step("the reference lab's ledger", async () => {
    const path = join(mine, "reference.sqlite");
    await Deno.copyFile(REFERENCE_LEDGER, path);
    const r = await cli(["ledger", "--ledger-file", path], "", false, p.base);
    assert.equal(r.code, 0, r.err.join("\n"));
  });

  await t.step("the fixture trigger, written with other spaces", () => {
    const path = join(mine, "fixture.sqlite");
    Ledger.open(path).close();
    const db = new DatabaseSync(path);
    db.exec(
      "CREATE TRIGGER fixture_receipt_fault\n  BEFORE INSERT ON receipts\n" +
        "  BEGIN SELECT RAISE(IGNORE);  END",
    );
    db.close();
    const ledger = Ledger.open(path, { mode: "read" });
    ledger.close();
  });

  await t.step("the compensation tables", async () => {
    const path = join(mine, "compensated.sqlite");
    Ledger.open(path).close();
    const r = await cli(
      ["compensate", "--ledger-file", path, "--job", "JOB-001"],
      "",
      false,
      p.base,
    );
    assert.notEqual(r.code, 4, r.err.join("\n"));
    Ledger.open(path, { mode: "read" }).close();
  });
});
