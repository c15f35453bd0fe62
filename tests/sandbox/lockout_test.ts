/**
 * Section 5 of "a sandbox no classmate can bend": a classmate who takes
 * `/tmp/guardlab-UID` first locks nobody out. What keeps nothing works
 * anyway; what would record something judges and says in one line that the
 * record could not be kept; what persists refuses in one line naming
 * `--home DIR`, and never a remedy the user cannot carry out. Run in process
 * against a stand-in for `/tmp`; `two_users_test.ts` runs it as two users.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { privateRootPath } from "../../lib/sandbox/sandbox.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  assertRefused,
  IS_ROOT,
  OTHER_UID,
  sharedPlace,
  snapshot,
} from "../_helpers/sandbox_fixtures.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const POSIX = Deno.build.os !== "windows";
const ignored = !POSIX || !IS_ROOT;
const why = IS_ROOT ? "" : " [ignored: chown to a second user needs root]";

/** No line tells the user to do what only the folder's owner can do. */
function noImpossibleRemedy(lines: string[]): void {
  for (const line of lines) {
    assert.doesNotMatch(line, /remove or rename|\brm \/|chmod/, line);
  }
}

/** A stand-in `/tmp` where another user made this user's private folder (0700). */
async function takenPlace() {
  const p = await sharedPlace();
  const root = privateRootPath(p.base);
  await Deno.mkdir(root, { mode: 0o700 });
  await Deno.chown(root, OTHER_UID, OTHER_UID);
  return Object.assign(p, { taken: root });
}

Deno.test({
  name: "lock-out: commands that keep nothing work anyway" + why,
  ignore: ignored,
  async fn() {
    await using p = await takenPlace();
    const before = await snapshot(p.base);
    const cases: [string[], number, string][] = [
      [["verify"], 0, ""],
      [["demo", "timing"], 0, ""],
      [["demo", "--format", "json"], 0, ""],
      [["explain", "retry_same_request"], 0, ""],
      [["explain", "retry_same_request", "--format", "svg"], 0, ""],
      [["exercise", "show", "1"], 0, ""],
      [["run", ...runFlags()], 0, ""],
      [["script"], 0, '{"op":"count"}\n'],
    ];
    for (const [args, code, input] of cases) {
      const r = await cli(args, input, false, p.base);
      assert.equal(r.code, code, `${args.join(" ")}: ${r.err.join("\n")}`);
      assert.ok(r.out.length > 0, args.join(" "));
      // The stored language could not be read: one line says so, and how.
      assert.equal(r.err.length, 1, `${args.join(" ")}: ${r.err.join("\n")}`);
      assert.match(
        r.err[0],
        /^guardlab: note: stored settings not read, so the default is used: .*guardlab-0 belongs to uid 65534, not to you \(uid 0\); another user made it, so only they or an administrator can remove it; .*--home DIR/,
      );
      noImpossibleRemedy(r.err);
      // With --lang, the settings are not needed, and nothing is said.
      const quiet = await cli([...args, "--lang", "en"], input, false, p.base);
      assert.equal(quiet.code, code);
      assert.deepEqual(quiet.err, []);
    }
    assert.deepEqual(await snapshot(p.base), before, "nothing left behind");
  },
});

Deno.test({
  name:
    "lock-out: what would record something judges and says it was not kept" +
    why,
  ignore: ignored,
  async fn() {
    await using p = await takenPlace();
    const before = await snapshot(p.base);
    for (
      const [args, code] of [
        [["exercise", "hint", "1"], 0],
        [["exercise", "check", "1"], 1],
        [["exercise", "list"], 0],
        [["exercise", "progress"], 0],
      ] as const
    ) {
      const r = await cli([...args, "--lang", "en"], "", false, p.base);
      assert.equal(r.code, code, `${args.join(" ")}: ${r.err.join("\n")}`);
      assert.ok(r.out.length > 0);
      assert.equal(r.err.length, 1, r.err.join("\n"));
      assert.match(
        r.err[0],
        /^guardlab: note: your progress could not be kept: .* belongs to uid 65534.*--home DIR/,
      );
      noImpossibleRemedy(r.err);
    }
    const zh = await cli(
      ["exercise", "hint", "1", "--lang", "zh"],
      "",
      false,
      p.base,
    );
    assert.match(zh.err[0], /^guardlab: 注意：你的进度无法保存：.*--home DIR/);
    assert.deepEqual(await snapshot(p.base), before);
  },
});

Deno.test({
  name: "lock-out: what persists refuses in one line that names --home" + why,
  ignore: ignored,
  async fn() {
    await using p = await takenPlace();
    const before = await snapshot(p.base);
    for (
      const args of [
        ["run", "--ledger", "mine", ...runFlags()],
        ["script", "--ledger", "mine"],
        ["ledger", "--ledger", "mine"],
        ["reconcile", "--ledger", "mine"],
        ["compensate", "--ledger", "mine", "--job", "JOB-001"],
        ["reset", "--ledger", "mine"],
        ["config", "lang", "zh"],
        ["exercise", "hand-in"],
      ]
    ) {
      const r = await cli(args, "", false, p.base);
      assertRefused(
        r,
        /guardlab-0 belongs to uid 65534, not to you \(uid 0\); another user made it, so only they or an administrator can remove it; to keep ledgers, settings and progress, pass --home DIR/,
      );
      noImpossibleRemedy(r.err);
    }
    const report = await cli(["sandbox", "--lang", "en"], "", false, p.base);
    assert.equal(report.code, 1);
    assert.match(
      report.out.at(-1)!,
      /^UNSAFE private folder: .*guardlab-0 belongs to uid 65534.*another user made it, so only they or an administrator can remove it; .*--home DIR/,
    );
    const zh = await cli(
      ["run", "--ledger", "mine", ...runFlags(), "--lang", "zh"],
      "",
      false,
      p.base,
    );
    assertRefused(zh, /其他用户建立的，只有对方或管理员能删除；.*--home DIR/);
    assert.deepEqual(await snapshot(p.base), before);
  },
});

Deno.test({
  name: "lock-out: --home DIR is the way out, on every command that persists" +
    why,
  ignore: ignored,
  async fn() {
    await using p = await takenPlace();
    const home = join(p.base, "alice-7f3");
    const h = ["--home", home];
    // Made 0700 on first use, like the private folder.
    let r = await cli(
      ["run", "--ledger", "mine", ...runFlags(), ...h],
      "",
      false,
      p.base,
    );
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.equal(Deno.lstatSync(home).mode! & 0o777, 0o700);
    r = await cli(["reconcile", "--ledger", "mine", ...h], "", false, p.base);
    assert.equal(r.code, 0, r.err.join("\n"));
    r = await cli(
      ["ledger", "--ledger", "mine", "--json", ...h],
      "",
      false,
      p.base,
    );
    assert.equal(r.code, 0, r.err.join("\n"));
    r = await cli(
      ["script", "--ledger", "mine", ...h],
      '{"op":"count"}\n',
      false,
      p.base,
    );
    assert.equal(r.code, 0, r.err.join("\n"));
    r = await cli(["config", "lang", "zh", ...h], "", false, p.base);
    assert.deepEqual([r.code, r.err], [0, []]);
    // The stored language is read from --home, without a note.
    r = await cli(["config", ...h], "", false, p.base);
    assert.deepEqual([r.code, r.out[0], r.err], [0, "lang zh", []]);
    r = await cli(["exercise", "hint", "1", ...h], "", false, p.base);
    assert.deepEqual([r.code, r.err], [0, []]);
    r = await cli(["exercise", "hint", "1", ...h, "--json"], "", false, p.base);
    r = await cli(["exercise", "progress", ...h], "", false, p.base);
    assert.equal(r.code, 0);
    assert.match(r.out[0], /已完成 0/);
    r = await cli(["config", "name", "Alice", ...h], "", false, p.base);
    assert.deepEqual([r.code, r.err], [0, []]);
    r = await cli(["exercise", "hand-in", ...h], "", false, p.base);
    assert.equal(r.code, 0, r.err.join("\n"));
    r = await cli(["reset", "--ledger", "mine", ...h], "", false, p.base);
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.deepEqual(
      [...Deno.readDirSync(home)].map((e) => e.name).sort(),
      ["exercises.json", "settings.json"],
    );
    // The taken folder was never touched.
    assert.deepEqual([...Deno.readDirSync(p.taken)], []);
  },
});

Deno.test({
  name: "lock-out: a --home that is not a folder of your own is refused",
  ignore: !POSIX,
  async fn(t) {
    await using p = await sharedPlace();
    await t.step(
      "open to others: chmod is named, and another --home",
      async () => {
        const home = join(p.base, "open");
        await Deno.mkdir(home);
        await Deno.chmod(home, 0o777);
        assertRefused(
          await cli(
            ["config", "lang", "zh", "--home", home],
            "",
            false,
            p.base,
          ),
          /open can be written by other users \(mode 0777\); make it yours alone \(chmod 700 .*open\), or choose another --home DIR/,
        );
      },
    );
    await t.step("below a folder others can write (not sticky)", async () => {
      const above = join(p.base, "above");
      await Deno.mkdir(join(above, "home"), { recursive: true, mode: 0o700 });
      await Deno.chmod(above, 0o777);
      assertRefused(
        await cli(
          [
            "run",
            "--ledger",
            "x",
            ...runFlags(),
            "--home",
            join(above, "home"),
          ],
          "",
          false,
          p.base,
        ),
        /above can be written by other users \(mode 0777\)/,
      );
      assert.deepEqual([...Deno.readDirSync(join(above, "home"))], []);
    });
    await t.step("a link", async () => {
      const link = join(p.base, "link");
      await Deno.symlink(p.outside, link);
      assertRefused(
        await cli(
          ["run", "--ledger", "x", ...runFlags(), "--home", link],
          "",
          false,
          p.base,
        ),
        /link is a symbolic link; guardlab never follows links; remove it \(rm .*link\), or choose another --home DIR/,
      );
      assert.deepEqual([...Deno.readDirSync(p.outside)], []);
    });
    await t.step(
      "missing, for a command that only shows: nothing made",
      async () => {
        const home = join(p.base, "not-yet");
        const r = await cli(
          ["ledger", "--ledger", "x", "--home", home],
          "",
          false,
          p.base,
        );
        assert.equal(r.code, 4);
        assert.match(r.err[0], /no ledger named x/);
        assert.throws(() => Deno.lstatSync(home), Deno.errors.NotFound);
      },
    );
    await t.step("an empty --home is a usage error", async () => {
      const r = await cli(["config", "--home", ""], "", false, p.base);
      assert.equal(r.code, 2);
    });
  },
});

Deno.test({
  name: "lock-out: your own folder in the way names what you can do",
  ignore: !POSIX,
  async fn(t) {
    await t.step("yours, open to others: chmod 700, or --home", async () => {
      await using p = await sharedPlace();
      const root = privateRootPath(p.base);
      await Deno.mkdir(root);
      await Deno.chmod(root, 0o777);
      assertRefused(
        await cli(["run", "--ledger", "a", ...runFlags()], "", false, p.base),
        /make it yours alone \(chmod 700 .*guardlab-\d+\), or to keep ledgers, settings and progress, pass --home DIR/,
      );
    });
    await t.step("your link: rm, or --home", async () => {
      await using p = await sharedPlace();
      await Deno.symlink(p.outside, privateRootPath(p.base));
      assertRefused(
        await cli(["run", "--ledger", "a", ...runFlags()], "", false, p.base),
        /remove it \(rm .*guardlab-\d+\), or to keep ledgers, settings and progress, pass --home DIR/,
      );
    });
  },
});
