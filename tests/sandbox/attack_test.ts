/**
 * The sandbox as an attacker and a second user on a shared machine try it.
 * Each test builds its own base folder (standing in for the shared `/tmp`)
 * and runs the CLI in process with that base, so the real private folder is
 * never touched. Every refusal must be exit 4 with one line, and everything
 * outside the private folder, and the refused file itself, byte-identical.
 */
import { sharedPlace } from "../_helpers/sandbox_fixtures.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { Lab } from "../../lib/timing/lab.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { currentUid } from "../../lib/sandbox/safe_fs.ts";
import { privateRootPath } from "../../lib/sandbox/sandbox.ts";
import { shellQuote } from "../../lib/base/terminal.ts";
import {
  ARGS,
  cli,
  persistedCounts,
  persistedReceipts,
  TEST_BASE,
} from "../_helpers/helpers.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);
const RUN = runFlags();
const IS_ROOT = currentUid(TEST_BASE) === 0;

const place = sharedPlace;

/** `run`, `ledger` and `reconcile` on the same ledger are each refused with `why`. */
async function refusedByEveryOpener(
  base: string,
  ledger: string[],
  why: RegExp,
): Promise<void> {
  for (const command of ["run", "ledger", "reconcile"]) {
    const extra = command === "run" ? RUN : [];
    assertRefused(
      await cli([command, ...ledger, ...extra], "", false, base),
      why,
    );
  }
}

/** Every file below `dir` with its bytes (links as their target text). */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = join(d, entry.name);
      if (entry.isSymlink) seen.set(path, "-> " + await Deno.readLink(path));
      else if (entry.isDirectory) {
        seen.set(path, "dir");
        await walk(path);
      } else {
        const bytes = await Deno.readFile(path);
        seen.set(path, await sha256(bytes));
      }
    }
  };
  await walk(dir);
  return seen;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Exit 4, nothing on stdout, exactly one line on stderr matching `why`. */
function assertRefused(
  r: { code: number; out: string[]; err: string[] },
  why: RegExp,
): void {
  assert.equal(r.code, 4, [...r.out, ...r.err].join("\n"));
  assert.deepEqual(r.out, []);
  assert.equal(r.err.length, 1, r.err.join("\n"));
  assert.match(r.err[0], /^guardlab: refused/);
  assert.match(r.err[0], why);
}

Deno.test("attack: the private root", async (t) => {
  await t.step("is made 0700 and owned by this user on first use", async () => {
    await using p = await place();
    const r = await cli(["run", "--ledger", "mine", ...RUN], "", false, p.base);
    assert.equal(r.code, 0, r.err.join("\n"));
    if (Deno.build.os !== "windows") {
      const info = Deno.lstatSync(privateRootPath(p.base));
      assert.equal(info.mode! & 0o777, 0o700);
      assert.ok(info.isDirectory && !info.isSymlink);
    }
    assert.deepEqual(persistedCounts(join(p.root(), "mine", "lab.sqlite")), [
      1,
      1,
    ]);
  });

  await t.step(
    "a link in its place is refused; reset deletes nothing through it",
    async () => {
      await using p = await place();
      await Deno.mkdir(join(p.outside, "project"));
      await Deno.writeTextFile(
        join(p.outside, "project", "lab.sqlite"),
        "keep",
      );
      await Deno.symlink(p.outside, privateRootPath(p.base));
      const before = await snapshot(p.outside);
      for (
        const args of [
          ["reset", "--ledger", "project"],
          ["run", "--ledger", "project", ...RUN],
          ["ledger", "--ledger", "project"],
        ]
      ) {
        assertRefused(
          await cli(args, "", false, p.base),
          /guardlab-\d+ is a symbolic link; guardlab never follows links/,
        );
      }
      // What keeps nothing works in a scratch folder of its own instead.
      for (const args of [["demo", "timing"], ["script"]]) {
        const r = await cli(args, '{"op":"count"}\n', false, p.base);
        assert.equal(r.code, 0, r.err.join("\n"));
      }
      assert.deepEqual(await snapshot(p.outside), before);
    },
  );

  await t.step(
    "a root writable by others is refused",
    async () => {
      await using p = await place();
      await Deno.mkdir(privateRootPath(p.base));
      await Deno.chmod(privateRootPath(p.base), 0o777);
      assertRefused(
        await cli(["run", "--ledger", "a", ...RUN], "", false, p.base),
        /can be written by other users \(mode 0777\)/,
      );
      assert.deepEqual([...Deno.readDirSync(privateRootPath(p.base))], []);
    },
  );

  await t.step({
    name: "a root made by another user is refused" +
      (IS_ROOT ? "" : " [ignored: chown to a second user needs root]"),
    ignore: !IS_ROOT,
    fn: async () => {
      await using p = await place();
      const root = privateRootPath(p.base);
      await Deno.mkdir(root, { mode: 0o755 });
      await Deno.chown(root, 65534, 65534);
      assertRefused(
        await cli(["run", "--ledger", "a", ...RUN], "", false, p.base),
        /belongs to uid 65534, not to you \(uid 0\)/,
      );
      assert.deepEqual([...Deno.readDirSync(root)], []);
    },
  });
});

Deno.test("attack: links and hard links below the root", async (t) => {
  await t.step("a ledger folder that is a link", async () => {
    await using p = await place();
    await Deno.symlink(p.outside, join(p.root(), "mine"));
    for (
      const args of [
        ["run", "--ledger", "mine", ...RUN],
        ["script", "--ledger", "mine"],
        ["ledger", "--ledger", "mine"],
        ["reconcile", "--ledger", "mine"],
        ["reset", "--ledger", "mine"],
      ]
    ) {
      assertRefused(
        await cli(args, '{"op":"count"}\n', false, p.base),
        /mine is a symbolic link/,
      );
    }
    assert.deepEqual([...Deno.readDirSync(p.outside)], []);
  });

  for (
    const file of [
      "lab.sqlite",
      "lab.sqlite-wal",
      "lab.sqlite-journal",
      "policy.sqlite",
      "policy.sqlite-shm",
    ]
  ) {
    await t.step(`${file} as a link (dangling and to a file)`, async () => {
      await using p = await place();
      const folder = join(p.root(), "mine");
      await Deno.mkdir(folder, { mode: 0o700 });
      const target = join(p.outside, "target.sqlite");
      await Deno.symlink(target, join(folder, file));
      const steps = file.startsWith("policy")
        ? '{"op":"policy.rows"}\n'
        : '{"op":"count"}\n';
      const args = file.startsWith("policy")
        ? ["script", "--ledger", "mine"]
        : ["run", "--ledger", "mine", ...RUN];
      assertRefused(
        await cli(args, steps, false, p.base),
        /is a symbolic link/,
      );
      assert.deepEqual([...Deno.readDirSync(p.outside)], [], "dangling");
      await Deno.copyFile(REFERENCE_LEDGER, target);
      const before = await snapshot(p.outside);
      assertRefused(
        await cli(args, steps, false, p.base),
        /is a symbolic link/,
      );
      assert.deepEqual(await snapshot(p.outside), before, "to a file");
    });
  }

  await t.step("a hard link to a ledger", async () => {
    await using p = await place();
    const folder = join(p.root(), "mine");
    await Deno.mkdir(folder, { mode: 0o700 });
    const other = join(p.root(), "other.sqlite");
    await Deno.copyFile(REFERENCE_LEDGER, other);
    await Deno.link(other, join(folder, "lab.sqlite"));
    const before = await snapshot(p.root());
    await refusedByEveryOpener(
      p.base,
      ["--ledger", "mine"],
      /has 2 hard links/,
    );
    assert.deepEqual(await snapshot(p.root()), before);
  });

  await t.step("reset removes only what guardlab made", async () => {
    await using p = await place();
    assert.equal(
      (await cli(["run", "--ledger", "mine", ...RUN], "", false, p.base)).code,
      0,
    );
    const folder = join(p.root(), "mine");
    await Deno.symlink(p.outside, join(folder, "notes"));
    const before = await snapshot(p.root());
    assertRefused(
      await cli(["reset", "--ledger", "mine"], "", false, p.base),
      /notes is not a file guardlab made; nothing was removed/,
    );
    assert.deepEqual(await snapshot(p.root()), before);
    await Deno.remove(join(folder, "notes"));
    const r = await cli(["reset", "--ledger", "mine"], "", false, p.base);
    assert.deepEqual([r.code, r.out], [0, ["removed ledger mine"]]);
    assert.deepEqual([...Deno.readDirSync(p.root())], []);
  });
});

Deno.test("attack: --ledger-file and script FILE", async (t) => {
  await t.step("a --ledger-file in the shared folder itself", async () => {
    await using p = await place();
    const path = join(p.base, "mine.sqlite");
    assertRefused(
      await cli(["run", "--ledger-file", path, ...RUN], "", false, p.base),
      /is directly in the shared folder .*; keep a ledger file in a folder of your own/,
    );
    assert.deepEqual(
      [...Deno.readDirSync(p.base)].map((e) => e.name),
      [],
    );
  });

  await t.step("links: the file, a dangling one, a folder above", async () => {
    await using p = await place();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const target = join(p.outside, "foreign.sqlite");
    await Deno.copyFile(REFERENCE_LEDGER, target);
    await Deno.symlink(target, join(mine, "link.sqlite"));
    await Deno.symlink(
      join(p.outside, "new.sqlite"),
      join(mine, "dangling.sqlite"),
    );
    await Deno.symlink(p.outside, join(mine, "via"));
    const before = await snapshot(p.outside);
    for (
      const path of [
        join(mine, "link.sqlite"),
        join(mine, "dangling.sqlite"),
        join(mine, "via", "foreign.sqlite"),
      ]
    ) {
      await refusedByEveryOpener(
        p.base,
        ["--ledger-file", path],
        /is a symbolic link/,
      );
    }
    assert.deepEqual(await snapshot(p.outside), before);
  });

  await t.step("a script FILE that is a link or a hard link", async () => {
    await using p = await place();
    const secret = join(p.outside, "secret");
    await Deno.writeTextFile(secret, "top secret\n");
    const link = join(p.base, "steps");
    await Deno.symlink(secret, link);
    const r = await cli(["script", link], "", false, p.base);
    assertRefused(r, /steps is a symbolic link/);
    assert.ok(!r.err[0].includes("top secret"));
    const hard = join(p.base, "hard");
    await Deno.link(secret, hard);
    assertRefused(
      await cli(["script", hard], "", false, p.base),
      /has 2 hard links/,
    );
  });

  await t.step(
    "a suggested command is shell-quoted",
    async () => {
      await using p = await place();
      const odd = join(p.base, "odd", "a b;touch x'");
      await Deno.mkdir(odd, { recursive: true, mode: 0o700 });
      await Deno.chmod(join(p.base, "odd"), 0o700);
      const path = join(odd, "l.sqlite");
      await Deno.copyFile(REFERENCE_LEDGER, path);
      const r = await cli(
        ["reconcile", "--ledger-file", path],
        "",
        false,
        p.base,
      );
      assert.equal(r.code, 3);
      assert.ok(r.out[1].includes(`--ledger-file ${shellQuote(path)} `));
      // Closing quote, escaped quote, an empty quoted tail: one shell word.
      assert.equal(shellQuote("a b;touch x'"), `'a b;touch x'\\'''`);
      assert.equal(shellQuote("/tmp/plain-1.sqlite"), "/tmp/plain-1.sqlite");
    },
  );
});

Deno.test("attack: views only read", async (t) => {
  await t.step(
    "ledger and reconcile leave the reference ledger byte-identical",
    async () => {
      await using p = await place();
      const mine = join(p.base, "mine");
      await Deno.mkdir(mine, { mode: 0o700 });
      const path = join(mine, "reference.sqlite");
      await Deno.copyFile(REFERENCE_LEDGER, path);
      const before = await snapshot(mine);
      for (const command of ["ledger", "reconcile"]) {
        for (const json of [[], ["--json"]]) {
          const r = await cli(
            [command, "--ledger-file", path, ...json],
            "",
            false,
            p.base,
          );
          assert.ok(r.code === 0 || r.code === 3, r.err.join("\n"));
        }
      }
      // Same bytes, and no -wal, -shm or -journal beside it.
      assert.deepEqual(await snapshot(mine), before);
    },
  );

  await t.step("an empty file is not a ledger, and stays empty", async () => {
    await using p = await place();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const path = join(mine, "empty.sqlite");
    await Deno.writeFile(path, new Uint8Array());
    for (const command of ["ledger", "reconcile"]) {
      assertRefused(
        await cli([command, "--ledger-file", path], "", false, p.base),
        /is not a ledger \(it is empty\)/,
      );
    }
    assert.deepEqual(
      await snapshot(mine),
      new Map([[path, await sha256(new Uint8Array())]]),
    );
  });
});

/** Build a hostile ledger from the real schema plus `extra` SQL. */
function hostile(path: string, sql: string): void {
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
}

const GOOD_TABLES = LEDGER_SCHEMA.create;

Deno.test("attack: hostile ledgers are refused before any write", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "a trigger that ignores the draft insert",
      `${GOOD_TABLES} CREATE TRIGGER quiet BEFORE INSERT ON drafts BEGIN SELECT RAISE(IGNORE); END;`,
      /a trigger quiet guardlab did not install/,
    ],
    [
      "a trigger that rewrites receipts to accepted",
      `${GOOD_TABLES} CREATE TRIGGER liar AFTER INSERT ON receipts BEGIN UPDATE receipts SET status='accepted' WHERE attempt=NEW.attempt; END;`,
      /a trigger liar guardlab did not install/,
    ],
    [
      "the fixture trigger's name with other SQL",
      `${GOOD_TABLES} CREATE TRIGGER fixture_receipt_fault BEFORE INSERT ON drafts BEGIN SELECT RAISE(IGNORE); END;`,
      /a trigger fixture_receipt_fault guardlab did not install/,
    ],
    [
      "a view named drafts",
      `CREATE TABLE receipts(attempt INTEGER PRIMARY KEY AUTOINCREMENT, job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL, events TEXT NOT NULL);
       CREATE VIEW drafts AS SELECT 'JOB-001' AS job, 'x' AS digest, '{}' AS body;`,
      /a view named drafts/,
    ],
    [
      "job as an INTEGER PRIMARY KEY",
      `CREATE TABLE drafts(job INTEGER PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL);
       CREATE TABLE receipts(attempt INTEGER PRIMARY KEY AUTOINCREMENT, job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL, events TEXT NOT NULL);`,
      /table drafts is not defined as guardlab defines it/,
    ],
    [
      "drafts without a key",
      `CREATE TABLE drafts(job TEXT, digest TEXT NOT NULL, body TEXT NOT NULL);
       CREATE TABLE receipts(attempt INTEGER PRIMARY KEY AUTOINCREMENT, job TEXT, status TEXT NOT NULL, effect_exists INTEGER NOT NULL, events TEXT NOT NULL);`,
      /table drafts is not defined as guardlab defines it/,
    ],
    [
      "only one of the two tables",
      `CREATE TABLE drafts(job TEXT PRIMARY KEY, digest TEXT NOT NULL, body TEXT NOT NULL);`,
      /no table receipts/,
    ],
    [
      "an attempt number beyond 2^53",
      `${GOOD_TABLES} INSERT INTO receipts VALUES(9007199254740993, 'JOB-001', 'accepted', 1, '[]');`,
      /values guardlab cannot show exactly/,
    ],
    [
      "a next attempt number beyond 2^53",
      `${GOOD_TABLES} INSERT INTO receipts VALUES(1, 'JOB-001', 'accepted', 1, '[]');
       UPDATE sqlite_sequence SET seq=9007199254740991;`,
      /values guardlab cannot show exactly/,
    ],
    [
      "a compensation table not as guardlab defines it",
      `${GOOD_TABLES} CREATE TABLE compensations(job TEXT, state TEXT);`,
      /table compensations is not defined as guardlab defines it/,
    ],
    [
      "a blob where text belongs",
      `${GOOD_TABLES} INSERT INTO drafts VALUES('JOB-001', x'00', '{}');`,
      /values guardlab cannot show exactly/,
    ],
  ];
  for (const [label, sql, why] of cases) {
    await t.step(label, async () => {
      await using p = await place();
      const mine = join(p.base, "mine");
      await Deno.mkdir(mine, { mode: 0o700 });
      const path = join(mine, "hostile.sqlite");
      hostile(path, sql);
      const before = await snapshot(mine);
      await refusedByEveryOpener(p.base, ["--ledger-file", path], why);
      assert.deepEqual(await snapshot(mine), before);
    });
  }

  await t.step("a corrupted page", async () => {
    await using p = await place();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const path = join(mine, "corrupt.sqlite");
    const db = new DatabaseSync(path);
    db.exec(GOOD_TABLES);
    for (let i = 0; i < 200; i++) {
      db.prepare("INSERT INTO drafts VALUES(?, 'd', ?)").run(
        `JOB-${i}`,
        "x".repeat(200),
      );
    }
    db.close();
    const bytes = await Deno.readFile(path);
    // Scribble over the middle of the third page: a b-tree page of drafts.
    bytes.fill(0xa5, 4096 * 2 + 100, 4096 * 2 + 1200);
    await Deno.writeFile(path, bytes);
    const before = await snapshot(mine);
    await refusedByEveryOpener(
      p.base,
      ["--ledger-file", path],
      /damaged|malformed/,
    );
    assert.deepEqual(await snapshot(mine), before);
  });

  await t.step("a foreign policy database beside a ledger", async () => {
    await using p = await place();
    const folder = join(p.root(), "mine");
    await Deno.mkdir(folder, { mode: 0o700 });
    hostile(
      join(folder, "policy.sqlite"),
      "CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER)",
    );
    const before = await snapshot(folder);
    const r = await cli(
      ["script", "--ledger", "mine"],
      '{"op":"policy.rows"}\n',
      false,
      p.base,
    );
    assert.equal(r.code, 4, r.err.join("\n"));
    assert.match(r.err.at(-1)!, /not a guardlab policy database/);
    const after = await snapshot(folder);
    // The lab ledger was created by the script; the policy file is untouched.
    assert.equal(
      after.get(join(folder, "policy.sqlite")),
      before.get(join(folder, "policy.sqlite")),
    );
  });
});

Deno.test("attack: the draft insert is checked like the receipt", async () => {
  await using dirFolder = await tempDir("guardlab-draft-");
  const dir = dirFolder.path;
  const path = join(dir, "lab.sqlite");
  const lab = Lab.open(path);
  try {
    // Installed after the schema check, as a damaged SQLite could behave.
    // A second connection plants it; the lab's statements see the new schema.
    const planter = new DatabaseSync(path);
    planter.exec(
      "CREATE TRIGGER quiet BEFORE INSERT ON drafts BEGIN SELECT RAISE(IGNORE); END",
    );
    planter.close();
    const r = await lab.run(ARGS);
    assert.equal(r.status, "error");
    assert.equal(r.effect_exists, false);
    assert.equal(r.released, null);
    assert.ok(!r.events.includes("effect_committed"));
  } finally {
    lab.close();
  }
  assert.deepEqual(persistedCounts(path), [0, 1]);
  assert.deepEqual(persistedReceipts(path).map((r) => r.status), ["error"]);
});

Deno.test("attack: SQLite keeps its temporary storage in memory", async () => {
  await using dirFolder = await tempDir("guardlab-temp-");
  const dir = dirFolder.path;
  const lab = Lab.open(join(dir, "lab.sqlite"));
  try {
    assert.equal(lab.ledger.connectionSettings().tempStore, 2, "MEMORY");
  } finally {
    lab.close();
  }
});

Deno.test("attack: help on an inherited name is a usage error", async () => {
  for (
    const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]
  ) {
    for (const args of [["help", name], [name]]) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.out.join("\n")}`);
      assert.deepEqual(r.out, []);
    }
  }
});

Deno.test("attack: sandbox reports an unsafe private folder", async (t) => {
  await t.step("absent: not made by a command that only shows", async () => {
    await using p = await place();
    const r = await cli(["sandbox", "--json"], "", false, p.base);
    assert.deepEqual(JSON.parse(r.out[0]).root, {
      path: privateRootPath(p.base),
      state: "absent",
    });
    assert.deepEqual([...Deno.readDirSync(p.base)], []);
  });
  await t.step("writable by others: exit 1, in text and JSON", async () => {
    await using p = await place();
    await Deno.mkdir(privateRootPath(p.base));
    await Deno.chmod(privateRootPath(p.base), 0o777);
    const json = await cli(["sandbox", "--json"], "", false, p.base);
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.out[0]).root.state, "unsafe");
    const text = await cli(["sandbox"], "", false, p.base);
    assert.equal(text.code, 1);
    assert.match(
      text.out.at(-1)!,
      /^UNSAFE private folder: .* can be written by other users \(mode 0777\); make it yours alone \(chmod 700 .*\), or to keep ledgers, settings and progress, pass --home DIR/,
    );
  });
});

/** Why `chattr +i` (EPERM even for root) cannot be used here, or "". */
function immutableMissing(): string {
  if (!CAN_RUN) return "running chattr needs --allow-run; run `deno task test`";
  try {
    const probe = Deno.makeTempDirSync({ prefix: "guardlab-chattr-" });
    const on = new Deno.Command("chattr", { args: ["+i", probe] })
      .outputSync();
    new Deno.Command("chattr", { args: ["-i", probe] }).outputSync();
    Deno.removeSync(probe);
    return on.success ? "" : "chattr +i is not supported on this file system";
  } catch {
    return "chattr is not installed";
  }
}

const noImmutable = immutableMissing();

Deno.test({
  name: "attack: EPERM from the operating system is a refusal, exit 4" +
    (noImmutable ? ` [ignored: ${noImmutable}]` : ""),
  ignore: noImmutable !== "",
  async fn() {
    await using p = await place();
    const root = p.root();
    const chattr = (flag: string) =>
      new Deno.Command("chattr", { args: [flag, root] }).outputSync();
    assert.ok(chattr("+i").success);
    try {
      assertRefused(
        await cli(["run", "--ledger", "mine", ...RUN], "", false, p.base),
        /Operation not permitted/,
      );
    } finally {
      chattr("-i");
    }
    assert.deepEqual([...Deno.readDirSync(root)], []);
  },
});
