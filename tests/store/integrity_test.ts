/**
 * An index that disagrees with its table: a drafts row that says JOB-777
 * under a primary-key index that still says JOB-001. SQLite's quick check
 * passes it; guardlab checks a file it did not just write with the
 * integrity check, so every command that opens it refuses, and `run --job
 * JOB-777` never adds a second row for one primary key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Lab } from "../../lib/timing/lab.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { cli } from "../_helpers/helpers.ts";
import { listing } from "../_helpers/files.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

/**
 * A ledger at rest (one file) with draft JOB-001, whose table row is then
 * edited in place to JOB-777: the bytes of the key in the table's b-tree
 * page change, those in the index's page do not.
 */
async function skewed(path: string): Promise<void> {
  const lab = Lab.open(path);
  await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
  lab.close();
  // A read-only open leaves an empty -wal and a -shm beside the file: a
  // refusal must leave those as they are too.
  const db = new DatabaseSync(path, { readOnly: true });
  const { rootpage } = db.prepare(
    "SELECT rootpage FROM sqlite_master WHERE name='drafts'",
  ).get() as { rootpage: number };
  const { page_size } = db.prepare("PRAGMA page_size").get() as {
    page_size: number;
  };
  db.close();
  const bytes = await Deno.readFile(path);
  const start = (Number(rootpage) - 1) * Number(page_size);
  const page = bytes.subarray(start, start + Number(page_size));
  const key = new TextEncoder().encode("JOB-001");
  const at = page.findIndex((_, i) => key.every((b, j) => page[i + j] === b));
  assert.ok(at >= 0, "the key is in the table's page");
  page.set(new TextEncoder().encode("JOB-777"), at);
  await Deno.writeFile(path, bytes);
}

function pragma(path: string, name: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, string>;
    return Object.values(row)[0];
  } finally {
    db.close();
  }
}

Deno.test("integrity: an index that disagrees with its table", async (t) => {
  const top = await Deno.makeTempDir({ prefix: "guardlab-skew-" });
  const base = join(top, "tmp");
  await Deno.mkdir(base);
  await Deno.chmod(base, 0o1777);
  const mine = join(base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const path = join(mine, "lab.sqlite");
  try {
    await skewed(path);
    // Reading the crafted file with SQLite's own checks proves it is what
    // the attack needs; the copy keeps -wal and -shm away from `mine`.
    const probe = join(top, "probe.sqlite");
    await Deno.copyFile(path, probe);

    await t.step(
      "the quick check passes it, the integrity check does not",
      () => {
        assert.equal(pragma(probe, "quick_check"), "ok");
        assert.notEqual(pragma(probe, "integrity_check"), "ok");
      },
    );

    await t.step("every opener refuses it with one line, exit 4", async () => {
      const before = await listing(mine);
      const run = [
        "run",
        "--ledger-file",
        path,
        ...runFlags({ job: "JOB-777" }),
      ];
      for (const args of [run, ["ledger", "--ledger-file", path]]) {
        for (const lang of ["en", "zh"]) {
          const r = await cli([...args, "--lang", lang], "", false, base);
          assert.equal(r.code, 4, [...r.out, ...r.err].join("\n"));
          assert.deepEqual(r.out, []);
          assert.equal(r.err.length, 1, r.err.join("\n"));
          assert.match(r.err[0], /damaged|已损坏/);
        }
      }
      for (const command of ["reconcile", "compensate"]) {
        const extra = command === "compensate" ? ["--job", "JOB-777"] : [];
        const r = await cli(
          [command, "--ledger-file", path, ...extra],
          "",
          false,
          base,
        );
        assert.equal(r.code, 4, r.err.join("\n"));
      }
      assert.deepEqual(await listing(mine), before, "the file is unchanged");
    });

    await t.step("the library refuses it too, in every mode", () => {
      for (const mode of ["read", "write"] as const) {
        assert.throws(() => Ledger.open(path, { mode }), /damaged/);
      }
    });

    await t.step(
      "without the check, run would add a second JOB-777",
      () => {
        // What the refusal prevents: the same run on a copy, past the check.
        const db = new DatabaseSync(probe);
        db.prepare("INSERT INTO drafts VALUES(?, 'd', '{}')").run("JOB-777");
        const n = db.prepare(
          "SELECT COUNT(*) AS n FROM drafts NOT INDEXED WHERE job='JOB-777'",
        )
          .get() as { n: number };
        db.close();
        assert.equal(Number(n.n), 2, "two rows for one primary key");
      },
    );
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("integrity: a view's connection never writes", async () => {
  await using dirFolder = await tempDir("guardlab-ro-");
  const dir = dirFolder.path;
  const path = join(dir, "lab.sqlite");
  Lab.open(path).close();
  for (const mode of ["read", "observe"] as const) {
    const writer = mode === "observe" ? Ledger.open(path) : undefined;
    const ledger = Ledger.open(path, { mode });
    try {
      assert.throws(
        () => ledger.setReceiptFault("ignore"),
        /readonly|read-only|query_only/i,
        mode,
      );
    } finally {
      ledger.close();
      writer?.close();
    }
  }
});
