/**
 * Trust by provenance, attacked. A ledger guardlab wrote in the private
 * folder is opened on its proof (no whole-file read, no check on the
 * worker); every way another hand could have changed it since sends it
 * back through the full check, and a hostile schema planted that way is
 * refused: a second connection writing it at rest, or while guardlab holds
 * it open; the file swapped for another, before the open or between the
 * proof's check and SQLite's open; a hard link written through; a copy with
 * the same size and times, moved into place or written into the same file;
 * a log left beside it; a new file that reuses its inode in the same
 * second; a forged, linked or foreign proof. A file outside
 * the private folder is checked in full every time. Which way each open
 * went is read from the store's own counts (`openCounts`), and every
 * refusal is asserted by its words.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { LedgerUnusable } from "../../lib/base/errors.ts";
import { openCounts } from "../../lib/store/db.ts";
import { Lab } from "../../lib/timing/lab.ts";
import {
  Ledger,
  LEDGER_SCHEMA,
  type LedgerOptions,
} from "../../lib/timing/ledger.ts";
import {
  ledgerFolder,
  privateRoot,
  trustedFolders,
} from "../../lib/sandbox/sandbox.ts";
import { PROOF_SUFFIX } from "../../lib/sandbox/safe_fs.ts";
import { seal, stateOf } from "../../lib/store/_proof.ts";
import { TRIPWIRE } from "./hostile_schemas.ts";
import { cli } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };

/** A trigger no guardlab ledger holds, that fails if anything fires it. */
const HOSTILE =
  `CREATE TRIGGER planted AFTER INSERT ON receipts BEGIN SELECT ${TRIPWIRE}; END`;
const REFUSED = /trigger planted/;

/** A private folder of the test's own with ledger `p` in it, written once by guardlab. */
async function written(): Promise<
  { base: string; path: string; trusted: string[] } & AsyncDisposable
> {
  const base = await Deno.makeTempDir({ prefix: "gl-provenance-" });
  const root = privateRoot(base)!;
  const path = ledgerFolder(root, "p")!.lab;
  const trusted = trustedFolders(base);
  const lab = Lab.open(path, { trusted });
  await lab.run(ARGS);
  lab.close();
  return {
    base,
    path,
    trusted,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

/** How `open` opened: how many full checks and proven opens it made. */
function counted<T>(open: () => T): { inspected: number; proven: number } {
  const before = openCounts();
  open();
  const after = openCounts();
  return {
    inspected: after.inspected - before.inspected,
    proven: after.proven - before.proven,
  };
}

/** Open and close at once: `mode` write (a run) or read (a view). */
function openClose(path: string, options: LedgerOptions): void {
  Ledger.open(path, options).close();
}

/** A second connection, outside guardlab, that runs `sql` on `path`. */
function writeOutside(path: string, sql: string): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** The refusal `open` gives: full check counted, the hostile trigger named. */
function assertCheckedAndRefused(open: () => void): void {
  const before = openCounts().inspected;
  assert.throws(
    open,
    (e) => e instanceof LedgerUnusable && REFUSED.test(e.message),
  );
  assert.equal(openCounts().inspected, before + 1, "the full check ran");
}

/** A hostile copy of the ledger at `path`, the same size, in `dir`. */
function hostileCopy(path: string, dir: string): string {
  const copy = join(dir, "copy.sqlite");
  Deno.copyFileSync(path, copy);
  writeOutside(copy, HOSTILE);
  const db = new DatabaseSync(copy);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  assert.equal(
    Deno.statSync(copy).size,
    Deno.statSync(path).size,
    "the trigger fits in the schema's page: same size",
  );
  return copy;
}

/** Wait until the file system's clock has passed the second of `ms` (ctime is whole seconds in Deno). */
function fsClockPast(dir: string, ms: number): void {
  const probe = join(dir, "clock-probe");
  Deno.writeTextFileSync(probe, "");
  const until = Date.now() + 5_000;
  while (Deno.lstatSync(probe).ctime!.getTime() <= ms) {
    assert.ok(Date.now() < until, "the clock moved within 5 s");
    Deno.chmodSync(probe, 0o600);
    Deno.chmodSync(probe, 0o644);
  }
  Deno.removeSync(probe);
}

Deno.test("provenance: a ledger guardlab wrote opens on its proof, run and view alike", async () => {
  await using l = await written();
  assert.ok(Deno.lstatSync(l.path + PROOF_SUFFIX).isFile, "the proof is kept");
  const { trusted } = l;
  assert.deepEqual(counted(() => openClose(l.path, { trusted })), {
    inspected: 0,
    proven: 1,
  });
  assert.deepEqual(
    counted(() => openClose(l.path, { mode: "read", trusted })),
    { inspected: 0, proven: 1 },
  );
  // A run renews it: the next run opens on it too.
  const lab = Lab.open(l.path, { trusted });
  const result = await lab.run(ARGS);
  assert.equal(result.status, "accepted");
  lab.close();
  assert.deepEqual(counted(() => openClose(l.path, { trusted })), {
    inspected: 0,
    proven: 1,
  });
  // What the view reads is what was committed.
  const view = Ledger.open(l.path, { mode: "read", trusted });
  assert.equal(view.countReceipts(), 2);
  view.close();
});

Deno.test("provenance: a write by another process at rest is checked, a hostile schema refused", async (t) => {
  await t.step("a plain write: checked once, then trusted again", async () => {
    await using l = await written();
    writeOutside(
      l.path,
      `INSERT INTO receipts(job,status,effect_exists,events)
       VALUES('JOB-002','accepted',0,'[]')`,
    );
    assert.deepEqual(
      counted(() => openClose(l.path, { trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
    // That writer checked it in full from a state it could pin: proven again.
    assert.deepEqual(
      counted(() => openClose(l.path, { trusted: l.trusted })),
      { inspected: 0, proven: 1 },
    );
  });
  await t.step("a hostile trigger: refused by a run and a view", async () => {
    await using l = await written();
    writeOutside(l.path, HOSTILE);
    assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
    assertCheckedAndRefused(() =>
      openClose(l.path, { mode: "read", trusted: l.trusted })
    );
  });
});

Deno.test("provenance: a write by another connection while guardlab holds it open is not sealed", async () => {
  await using l = await written();
  const lab = Lab.open(l.path, { trusted: l.trusted });
  writeOutside(l.path, HOSTILE);
  // guardlab's own commit after it: the log now holds both.
  const result = await lab.run({ ...ARGS, job: "JOB-002" }).catch((e) => e);
  lab.close();
  assert.ok(
    result instanceof Error,
    "the planted trigger fired on the open connection",
  );
  assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
});

Deno.test("provenance: a file swapped in is checked and refused", async (t) => {
  await t.step("swapped before the open (another inode)", async () => {
    await using l = await written();
    const copy = hostileCopy(l.path, l.base);
    Deno.renameSync(copy, l.path);
    assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
  });
  await t.step(
    "swapped between the proof's check and SQLite's open",
    async () => {
      await using l = await written();
      const copy = hostileCopy(l.path, l.base);
      let swapped = false;
      assertCheckedAndRefused(() =>
        openClose(l.path, {
          trusted: l.trusted,
          // An exchange: the file that matched keeps a name (and its one
          // link), and the name leads to another file.
          beforeProvenOpen: () => {
            Deno.renameSync(l.path, join(l.base, "aside.sqlite"));
            Deno.renameSync(copy, l.path);
            swapped = true;
          },
        })
      );
      assert.ok(swapped, "the proof had matched the original");
    },
  );
  await t.step("the same, for a view", async () => {
    await using l = await written();
    const copy = hostileCopy(l.path, l.base);
    assertCheckedAndRefused(() =>
      openClose(l.path, {
        mode: "read",
        trusted: l.trusted,
        beforeProvenOpen: () => Deno.renameSync(copy, l.path),
      })
    );
  });
});

Deno.test("provenance: a hard link written through is checked, and refused while it stands", async () => {
  await using l = await written();
  const outside = join(l.base, "outside");
  await Deno.mkdir(outside);
  const link = join(outside, "link.sqlite");
  Deno.linkSync(l.path, link);
  // While the second name stands, the file is refused as it always was.
  assert.throws(
    () => openClose(l.path, { trusted: l.trusted }),
    /has 2 hard links/,
  );
  writeOutside(link, HOSTILE);
  Deno.removeSync(link);
  assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
});

Deno.test("provenance: a copy with the same size and times is checked and refused", async (t) => {
  await t.step("moved into place (another inode)", async () => {
    await using l = await written();
    const copy = hostileCopy(l.path, l.base);
    const { atime, mtime } = Deno.statSync(l.path);
    Deno.utimeSync(copy, atime!, mtime!);
    Deno.renameSync(copy, l.path);
    assert.equal(Deno.statSync(l.path).mtime!.getTime(), mtime!.getTime());
    assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
  });
  await t.step("written into the same file, its times set back", async () => {
    await using l = await written();
    const copy = hostileCopy(l.path, l.base);
    const before = Deno.statSync(l.path);
    // Setting times back changes the change time, which Deno reports in
    // whole seconds: the forgery is caught once it falls in a later second
    // than the proof (the chapter states the one second it cannot see).
    fsClockPast(l.base, before.ctime!.getTime());
    Deno.writeFileSync(l.path, Deno.readFileSync(copy));
    Deno.utimeSync(l.path, before.atime!, before.mtime!);
    const after = Deno.statSync(l.path);
    assert.equal(after.ino, before.ino);
    assert.equal(after.size, before.size);
    assert.equal(after.mtime!.getTime(), before.mtime!.getTime());
    assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
  });
  await t.step(
    "written into the same file, its times left as the write set them",
    async () => {
      await using l = await written();
      const copy = hostileCopy(l.path, l.base);
      Deno.writeFileSync(l.path, Deno.readFileSync(copy));
      assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
    },
  );
});

/**
 * Whether this file system hands a new file the inode just freed (ext4
 * does): only there can the next test plant a file with the proof's inode.
 */
function inodesReused(): boolean {
  const dir = Deno.makeTempDirSync({ prefix: "gl-inode-" });
  try {
    const path = join(dir, "f");
    Deno.writeFileSync(path, new Uint8Array(1));
    const { ino } = Deno.statSync(path);
    Deno.removeSync(path);
    Deno.writeFileSync(path, new Uint8Array(1));
    return Deno.statSync(path).ino === ino && ino !== null;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const REUSED = inodesReused();

Deno.test({
  name:
    "provenance: a new file that reuses the ledger's inode in the same second, with its size and times, is checked and refused" +
    (REUSED ? "" : " [ignored: this file system does not reuse inodes]"),
  ignore: !REUSED,
  async fn() {
    // The old proof (device, inode, size, times, mode, owner) matched such
    // a file: unlink the ledger, make a hostile one of the same size in its
    // place within the second of the seal, set its modification time to the
    // proof's. Its birth time is later: the proof holds it.
    let planted = 0;
    for (let round = 0; round < 20 && planted === 0; round++) {
      await using l = await written();
      const copy = hostileCopy(l.path, l.base);
      const bytes = Deno.readFileSync(copy);
      const before = Deno.statSync(l.path);
      Deno.removeSync(l.path);
      Deno.writeFileSync(l.path, bytes, { mode: 0o600, createNew: true });
      Deno.utimeSync(l.path, before.atime!, before.mtime!);
      const after = Deno.statSync(l.path);
      // The conditions the old proof could not tell apart; else try again.
      if (
        after.ino !== before.ino ||
        after.ctime!.getTime() !== before.ctime!.getTime()
      ) continue;
      assert.equal(after.size, before.size);
      assert.equal(after.mtime!.getTime(), before.mtime!.getTime());
      assert.equal(after.mode, before.mode);
      assert.ok(after.birthtime!.getTime() > before.birthtime!.getTime());
      planted++;
      assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
      assertCheckedAndRefused(() =>
        openClose(l.path, { trusted: l.trusted, mode: "read" })
      );
    }
    assert.equal(planted, 1, "the inode was reused within the second");
  },
});

/**
 * A ledger of the private folder made by another program, as SQLite makes
 * a file by default: with a rollback journal, which guardlab's first
 * writer switches to WAL.
 */
async function madeElsewhere(): Promise<
  { path: string; trusted: string[] } & AsyncDisposable
> {
  const base = await Deno.makeTempDir({ prefix: "gl-provenance-" });
  const path = ledgerFolder(privateRoot(base)!, "p")!.lab;
  writeOutside(path, LEDGER_SCHEMA.create);
  Deno.chmodSync(path, 0o600);
  return {
    path,
    trusted: trustedFolders(base),
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

Deno.test("provenance: a ledger another program made in rollback mode is sealed by its first writer", async () => {
  await using l = await madeElsewhere();
  const { path, trusted } = l;
  const header = (p: string) => Deno.readFileSync(p).subarray(18, 20);
  assert.deepEqual([...header(path)], [1, 1], "rollback mode");
  assert.deepEqual(counted(() => openClose(path, { trusted })), {
    inspected: 1,
    proven: 0,
  });
  assert.deepEqual([...header(path)], [2, 2], "switched to WAL");
  // The switch was the first writer's own: it sealed what it checked.
  for (const mode of ["read", "write"] as const) {
    assert.deepEqual(counted(() => openClose(path, { trusted, mode })), {
      inspected: 0,
      proven: 1,
    });
  }
});

Deno.test("provenance: a write by another program between the check and the switch to WAL is not sealed", async () => {
  await using l = await madeElsewhere();
  const { path, trusted } = l;
  // Written once the check has read the file, before guardlab switches
  // it: a row the check never saw, of the same size.
  const beforeSwitch = () =>
    writeOutside(path, "INSERT INTO drafts VALUES('JOB-009', 'd', 'b')");
  assert.deepEqual(
    counted(() => openClose(path, { trusted, beforeSwitch })),
    { inspected: 1, proven: 0 },
  );
  assert.deepEqual(counted(() => openClose(path, { trusted })), {
    inspected: 1,
    proven: 0,
  });
});

Deno.test("provenance: a log left beside the file is checked", async () => {
  await using l = await written();
  // A crash-left log: another connection's commit, its connection gone
  // without the close that folds it in.
  const copy = join(l.base, "keep");
  await Deno.mkdir(copy);
  const db = new DatabaseSync(l.path);
  db.exec("PRAGMA journal_mode=WAL");
  db.exec(HOSTILE);
  Deno.copyFileSync(l.path + "-wal", join(copy, "wal"));
  db.close();
  Deno.copyFileSync(join(copy, "wal"), l.path + "-wal");
  assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
});

Deno.test("provenance: a proof that is not guardlab's own proves nothing", async (t) => {
  await t.step("forged to match a hostile file", async () => {
    await using l = await written();
    const proof = JSON.parse(Deno.readTextFileSync(l.path + PROOF_SUFFIX));
    writeOutside(l.path, HOSTILE);
    // A proof that lies about the state is only believed if the state is
    // the one it names: here it still names the old one.
    Deno.writeTextFileSync(l.path + PROOF_SUFFIX, JSON.stringify(proof));
    assertCheckedAndRefused(() => openClose(l.path, { trusted: l.trusted }));
  });
  await t.step("malformed, or a link", async () => {
    await using l = await written();
    const good = Deno.readTextFileSync(l.path + PROOF_SUFFIX);
    // Views only, from here on: they renew no proof, so `good` stays true.
    Deno.writeTextFileSync(l.path + PROOF_SUFFIX, good.slice(0, -5));
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
    const elsewhere = join(l.base, "proof");
    Deno.writeTextFileSync(elsewhere, good);
    Deno.removeSync(l.path + PROOF_SUFFIX);
    Deno.symlinkSync(elsewhere, l.path + PROOF_SUFFIX);
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
    // A second name for the proof file (one file, two links).
    Deno.removeSync(l.path + PROOF_SUFFIX);
    Deno.linkSync(elsewhere, l.path + PROOF_SUFFIX);
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
    // And the same proof as a plain file of its own: believed.
    Deno.removeSync(l.path + PROOF_SUFFIX);
    Deno.writeTextFileSync(l.path + PROOF_SUFFIX, good);
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 0, proven: 1 },
    );
  });
  await t.step("made against another schema", async () => {
    await using l = await written();
    const proof = JSON.parse(Deno.readTextFileSync(l.path + PROOF_SUFFIX));
    Deno.writeTextFileSync(
      l.path + PROOF_SUFFIX,
      JSON.stringify({ ...proof, schema: "0-0000000000000000" }),
    );
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
  });
});

Deno.test("provenance: a file outside the private folder is checked in full every time", async () => {
  await using dirFolder = await tempDir("gl-provenance-foreign-");
  const dir = dirFolder.path;
  const path = join(dir, "lab.sqlite");
  const lab = Lab.open(path, { trusted: [dir] });
  await lab.run(ARGS);
  lab.close();
  assert.throws(
    () => Deno.lstatSync(path + PROOF_SUFFIX),
    Deno.errors.NotFound,
    "no proof is kept for it",
  );
  for (const mode of ["write", "read", "write"] as const) {
    assert.deepEqual(
      counted(() => openClose(path, { mode, trusted: [dir] })),
      { inspected: 1, proven: 0 },
    );
  }
});

Deno.test("provenance: a commit waiting in the log when guardlab opens sends it to the full check", async () => {
  await using l = await written();
  let other: DatabaseSync | undefined;
  try {
    assertCheckedAndRefused(() =>
      openClose(l.path, {
        trusted: l.trusted,
        // After the proof matched the file: a connection outside guardlab
        // commits, and stays open, so its commit waits in the log.
        beforeProvenOpen: () => {
          other = new DatabaseSync(l.path);
          other.exec(HOSTILE);
        },
      })
    );
  } finally {
    other?.close();
  }
});

Deno.test("provenance: sealing sets the modification time one millisecond back, through the file", async () => {
  await using dirFolder = await tempDir("gl-provenance-seal-");
  const dir = dirFolder.path;
  const path = join(dir, "f");
  Deno.writeTextFileSync(path, "x");
  const state = stateOf(Deno.statSync(path))!;
  const proof = seal(path, state, "key")!;
  assert.equal(proof.mtimeMs, state.mtimeMs - 1);
  assert.equal(Deno.statSync(path).mtime!.getTime(), state.mtimeMs - 1);
  assert.equal(proof.schema, "key");
  // Not the file it was told of (the old one kept aside, so the new one
  // cannot reuse its inode): nothing is set.
  Deno.renameSync(path, join(dir, "aside"));
  Deno.writeTextFileSync(path, "y");
  const other = Deno.statSync(path).mtime!.getTime();
  assert.equal(seal(path, state, "key"), null);
  assert.equal(Deno.statSync(path).mtime!.getTime(), other);
});

Deno.test("provenance: a write between the look at the file and its seal is not sealed", async () => {
  await using dirFolder = await tempDir("gl-provenance-seal-");
  const dir = dirFolder.path;
  const path = join(dir, "f");
  Deno.writeTextFileSync(path, "x");
  // An old time, so that the write below moves it whatever the clock's grain.
  Deno.utimeSync(path, new Date(1_000_000), new Date(1_000_000));
  const seen = stateOf(Deno.statSync(path))!;
  // Another program writes the file in place, the same size.
  using file = Deno.openSync(path, { write: true });
  file.writeSync(new TextEncoder().encode("y"));
  const written = Deno.statSync(path).mtime!.getTime();
  assert.notEqual(written, seen.mtimeMs);
  assert.equal(seal(path, seen, "key"), null);
  assert.equal(Deno.statSync(path).mtime!.getTime(), written, "not set back");
});

Deno.test("provenance: the seal leaves a modification time no later write can leave", async () => {
  await using l = await written();
  const probe = join(l.base, "probe");
  for (let i = 0; i < 25; i++) {
    const lab = Lab.open(l.path, { trusted: l.trusted });
    await lab.run(ARGS);
    lab.close();
    // Whatever writes the file next, its time is the file system's now.
    Deno.writeTextFileSync(probe, String(i));
    const sealed = Deno.statSync(l.path).mtime!.getTime();
    const later = Deno.statSync(probe).mtime!.getTime();
    assert.ok(sealed < later, `sealed ${sealed}, a later write ${later}`);
  }
});

Deno.test("provenance: run and ledger on a named ledger open it on its proof", async () => {
  await using baseFolder = await tempDir("gl-provenance-cli-");
  const base = baseFolder.path;
  const run = [
    "run",
    "--ledger",
    "mine",
    ...runFlags(),
    "--json",
  ];
  assert.equal((await cli(run, "", false, base)).code, 0);
  const before = openCounts();
  const again = await cli(run, "", false, base);
  assert.equal(again.code, 0, again.err.join("\n"));
  const shown = await cli(
    ["ledger", "--ledger", "mine", "--json"],
    "",
    false,
    base,
  );
  assert.equal(shown.code, 0, shown.err.join("\n"));
  assert.equal(JSON.parse(shown.out.join("\n")).receipts.length, 2);
  const after = openCounts();
  assert.deepEqual(
    {
      inspected: after.inspected - before.inspected,
      proven: after.proven - before.proven,
    },
    { inspected: 0, proven: 2 },
  );
});

Deno.test({
  name: "provenance: a FIFO at the proof's name is passed over unread" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    await using l = await written();
    Deno.removeSync(l.path + PROOF_SUFFIX);
    const made = await new Deno.Command("mkfifo", {
      args: [l.path + PROOF_SUFFIX],
    }).output();
    assert.ok(made.success, "mkfifo made it");
    // Opening a FIFO to read waits for a writer: this must not.
    assert.deepEqual(
      counted(() => openClose(l.path, { mode: "read", trusted: l.trusted })),
      { inspected: 1, proven: 0 },
    );
  },
});
