/**
 * A view creates, changes and deletes nothing: `ledger` and `reconcile`, in
 * both languages, as text and JSON, refusals included, leave the ledger's
 * folder with the same names and the same SHA-256 of every file. And what
 * a view shows of a log SQLite has not folded back yet is what SQLite itself
 * reads from it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { Lab } from "../../lib/timing/lab.ts";
import { privateRoot } from "../../lib/sandbox/sandbox.ts";
import {
  BadImage,
  committedFrames,
  databaseImage,
} from "../../lib/store/_wal.ts";
import { cli } from "../_helpers/helpers.ts";
import { listing } from "../_helpers/files.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir, tempDirSync } from "../_helpers/tmp.ts";

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);

/** A stand-in for the shared temp folder, with a private folder `mine` in it. */
async function place(): Promise<
  { base: string; mine: string } & AsyncDisposable
> {
  const top = await Deno.makeTempDir({ prefix: "guardlab-view-" });
  const base = join(top, "tmp");
  await Deno.mkdir(base);
  await Deno.chmod(base, 0o1777);
  const mine = join(base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  return {
    base,
    mine,
    async [Symbol.asyncDispose]() {
      await Deno.remove(top, { recursive: true });
    },
  };
}

const VIEWS = [
  ["ledger"],
  ["ledger", "--json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

/**
 * Run every view on `target` in both languages; the folder `watched` must
 * list the same files with the same hashes after each. Returns the outputs.
 */
async function viewsChangeNothing(
  base: string,
  watched: string,
  target: string[],
): Promise<{ code: number; out: string[]; err: string[] }[]> {
  const before = await listing(watched);
  const results = [];
  for (const view of VIEWS) {
    for (const lang of ["en", "zh"]) {
      const r = await cli(
        [...view, ...target, "--lang", lang],
        "",
        false,
        base,
      );
      results.push(r);
      assert.deepEqual(
        await listing(watched),
        before,
        `${view.join(" ")} --lang ${lang} changed the folder`,
      );
    }
  }
  return results;
}

/** Every draft and receipt `db` holds, as `d:JOB` and `r:ATTEMPT`; none without the tables. */
function rowsOf(db: DatabaseSync): string[] {
  const tables = db.prepare(
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN ('drafts','receipts')",
  ).get() as { n: number };
  if (Number(tables.n) !== 2) return [];
  return (db.prepare(
    `SELECT 'd:' || job AS row FROM drafts
     UNION ALL SELECT 'r:' || attempt FROM receipts ORDER BY 1`,
  ).all() as { row: string }[]).map((r) => r.row);
}

/** Rows through a connection of SQLite's own, on a copy (which it may change). */
function sqliteReads(files: Record<string, Uint8Array>): string[] {
  using dirFolder = tempDirSync("guardlab-sqlite-");
  const dir = dirFolder.path;
  for (const [name, bytes] of Object.entries(files)) {
    Deno.writeFileSync(join(dir, name), bytes);
  }
  const db = new DatabaseSync(join(dir, "lab.sqlite"));
  try {
    return rowsOf(db);
  } finally {
    db.close();
  }
}

/** Rows as the view's in-memory image shows them. */
function imageReads(main: Uint8Array, wal: Uint8Array | null): string[] {
  const db = new DatabaseSync(":memory:");
  try {
    db.deserialize(databaseImage(main, wal, 1 << 28));
    return rowsOf(db);
  } finally {
    db.close();
  }
}

/**
 * A crash leftover: a guardlab ledger whose last `jobs` drafts are committed
 * in its `-wal` only, copied (file and log, no `-shm`) while the writer is
 * still open, as a killed process leaves them.
 */
async function crashLeftover(
  dir: string,
  jobs: string[],
): Promise<{ main: Uint8Array; wal: Uint8Array }> {
  await using scratchFolder = await tempDir("guardlab-crash-");
  const scratch = scratchFolder.path;
  const path = join(scratch, "lab.sqlite");
  const lab = Lab.open(path);
  try {
    for (const job of jobs) {
      await lab.run({ job, topic: "river", copies: 2 }, { badOutput: true });
    }
    const main = await Deno.readFile(path);
    const wal = await Deno.readFile(path + "-wal");
    await Deno.writeFile(join(dir, "lab.sqlite"), main, { mode: 0o600 });
    await Deno.writeFile(join(dir, "lab.sqlite-wal"), wal, { mode: 0o600 });
    return { main, wal };
  } finally {
    lab.close();
  }
}

Deno.test("view: a view creates, changes and deletes nothing", async (t) => {
  await t.step("a WAL ledger guardlab wrote (ledger file)", async () => {
    await using p = await place();
    const path = join(p.mine, "lab.sqlite");
    const run = await cli(
      [
        "run",
        "--ledger-file",
        path,
        ...runFlags(),
        "--bad-output",
      ],
      "",
      false,
      p.base,
    );
    assert.equal(run.code, 0, run.err.join("\n"));
    // At rest: one file, in WAL mode (header bytes 18-19 are 2).
    assert.deepEqual(Object.keys(await listing(p.mine)), [path]);
    assert.equal((await Deno.readFile(path))[18], 2);
    const results = await viewsChangeNothing(p.base, p.mine, [
      "--ledger-file",
      path,
    ]);
    // ledger exits 0; reconcile 3: JOB-001 needs a retry.
    assert.deepEqual(results.map((r) => r.code), [0, 0, 0, 0, 3, 3, 3, 3]);
    assert.match(results[0].out.join("\n"), /JOB-001/);
  });

  await t.step(
    "a named ledger with its policy database, the whole private folder",
    async () => {
      await using p = await place();
      const steps = [
        { op: "run", args: { job: "JOB-001", topic: "river", copies: 2 } },
        { op: "policy.precheck", job: "JOB-009", copies: 2, as: "s" },
        {
          op: "policy.insert_checked",
          job: "JOB-009",
          copies: 2,
          snapshot: "s",
        },
      ].map((s) => JSON.stringify(s)).join("\n");
      const made = await cli(
        ["script", "--ledger", "v-named"],
        steps,
        false,
        p.base,
      );
      assert.equal(made.code, 0, made.err.join("\n"));
      const root = privateRoot(p.base)!;
      const results = await viewsChangeNothing(p.base, root, [
        "--ledger",
        "v-named",
      ]);
      const shown = JSON.parse(results[2].out[0]);
      assert.equal(shown.drafts[0].job, "JOB-001");
      assert.deepEqual(shown.policy.drafts, [["JOB-009", 2, 1]]);
    },
  );

  await t.step(
    "a live -wal holding committed rows: shown, and left as it was",
    async () => {
      await using p = await place();
      const { main } = await crashLeftover(p.mine, ["JOB-001", "JOB-002"]);
      // The rows are in the log only: the file alone holds none.
      assert.deepEqual(imageReads(main, null), []);
      const path = join(p.mine, "lab.sqlite");
      const results = await viewsChangeNothing(p.base, p.mine, [
        "--ledger-file",
        path,
      ]);
      const shown = JSON.parse(results[2].out[0]);
      assert.deepEqual(shown.drafts.map((d: { job: string }) => d.job), [
        "JOB-001",
        "JOB-002",
      ]);
      assert.equal(shown.receipts.length, 2);
      const pending = JSON.parse(results[6].out[0]).pending;
      assert.deepEqual(pending.map((x: { job: string }) => x.job), [
        "JOB-001",
        "JOB-002",
      ]);
    },
  );

  await t.step(
    "an empty lab.sqlite with a -wal beside it: refused, the -wal untouched",
    async () => {
      await using p = await place();
      await crashLeftover(p.mine, ["JOB-001"]);
      const path = join(p.mine, "lab.sqlite");
      await Deno.writeFile(path, new Uint8Array());
      const results = await viewsChangeNothing(p.base, p.mine, [
        "--ledger-file",
        path,
      ]);
      for (const r of results) {
        assert.equal(r.code, 4, r.out.join("\n"));
        assert.deepEqual(r.out, []);
        assert.equal(r.err.length, 1, r.err.join("\n"));
        assert.match(r.err[0], /-wal/);
      }
      assert.match(results[0].err[0], /it is empty; .*-wal beside it is left/);
    },
  );

  await t.step("the reference ledger", async () => {
    await using p = await place();
    const path = join(p.mine, "reference.sqlite");
    await Deno.copyFile(REFERENCE_LEDGER, path);
    const results = await viewsChangeNothing(p.base, p.mine, [
      "--ledger-file",
      path,
    ]);
    assert.ok(results.every((r) => r.code === 0 || r.code === 3));
  });

  await t.step(
    "a hot rollback journal beside the file: refused, both untouched",
    async () => {
      await using p = await place();
      const path = join(p.mine, "reference.sqlite");
      await Deno.copyFile(REFERENCE_LEDGER, path);
      // The header of a journal a rollback-mode writer (the reference lab)
      // leaves when it is killed inside a transaction.
      const journal = new Uint8Array(512);
      journal.set([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
      await Deno.writeFile(path + "-journal", journal, { mode: 0o600 });
      const results = await viewsChangeNothing(p.base, p.mine, [
        "--ledger-file",
        path,
      ]);
      for (const r of results) {
        assert.equal(r.code, 4, r.out.join("\n"));
        assert.equal(r.err.length, 1, r.err.join("\n"));
        assert.match(r.err[0], /-journal/);
      }
    },
  );

  await t.step("a refused foreign file", async () => {
    await using p = await place();
    const path = join(p.mine, "notes.sqlite");
    const db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode=WAL; CREATE TABLE notes(x)");
    db.close();
    const results = await viewsChangeNothing(p.base, p.mine, [
      "--ledger-file",
      path,
    ]);
    assert.ok(results.every((r) => r.code === 4 && r.err.length === 1));
  });
});

Deno.test("view: the in-memory image reads a -wal as SQLite does", async (t) => {
  await using p = await place();
  const { main, wal } = await crashLeftover(p.mine, [
    "JOB-001",
    "JOB-002",
    "JOB-003",
  ]);
  const rows = ["d:JOB-001", "d:JOB-002", "d:JOB-003", "r:1", "r:2", "r:3"];

  await t.step("every committed frame", () => {
    assert.deepEqual(
      sqliteReads({ "lab.sqlite": main, "lab.sqlite-wal": wal }),
      rows,
    );
    assert.deepEqual(imageReads(main, wal), rows);
  });

  await t.step("no log, an empty log, a foreign log: the file alone", () => {
    assert.deepEqual(imageReads(main, null), []);
    assert.deepEqual(imageReads(main, new Uint8Array()), []);
    assert.deepEqual(imageReads(main, new Uint8Array(4096).fill(7)), []);
  });

  await t.step("a damaged last frame drops its transaction, not more", () => {
    const { pageSize } = committedFrames(wal);
    const damaged = wal.slice();
    damaged[damaged.length - pageSize + 100] ^= 0xff;
    const theirs = sqliteReads({
      "lab.sqlite": main,
      "lab.sqlite-wal": damaged,
    });
    assert.deepEqual(imageReads(main, damaged), theirs);
    assert.ok(theirs.length < rows.length, "the damage cost the last commit");
    assert.ok(theirs.length > 0, "earlier commits remain");
  });

  await t.step("an image over the bound is refused, not built", () => {
    assert.throws(() => databaseImage(main, wal, 4096), BadImage);
  });

  await t.step("a log cut in the middle of a frame", () => {
    const { pageSize } = committedFrames(wal);
    const cut = wal.subarray(0, wal.length - pageSize / 2);
    assert.deepEqual(
      imageReads(main, cut),
      sqliteReads({ "lab.sqlite": main, "lab.sqlite-wal": cut }),
    );
  });

  await t.step("a frame whose salt is not the header's ends the log", () => {
    const { pageSize } = committedFrames(wal);
    const stale = wal.slice();
    // The salt of the second frame: frames after it do not count.
    stale[32 + 24 + pageSize + 8] ^= 1;
    assert.deepEqual(
      imageReads(main, stale),
      sqliteReads({ "lab.sqlite": main, "lab.sqlite-wal": stale }),
    );
  });
});
