/**
 * Where a ledger file may be, said in one true line: a file directly in the
 * shared temp folder (or a dangling link there) is refused with the way out
 * (a folder of your own), never as a read of `/` the sandbox did not allow;
 * a `-wal` too large to show is named, with what to do about it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_VIEW_BYTES } from "../../lib/store/_snapshot.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  assertRefused,
  sharedPlace,
  snapshot,
} from "../_helpers/sandbox_fixtures.ts";
import { CAN_RUN, NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const POSIX = Deno.build.os !== "windows";

const OWN_FOLDER = {
  en:
    /directly in the shared folder .*; keep a ledger file in a folder of your own \(mkdir -m 700 /,
  zh: /直接放在共享目录 .*；请把账本文件放在你自己的目录里（mkdir -m 700 /,
};

Deno.test({
  name: "ledger place: a file directly in the shared folder, or a dangling " +
    "link there: one line, the way out",
  ignore: !POSIX,
  async fn(t) {
    await using p = await sharedPlace();
    await Deno.symlink(join(p.outside, "nope"), join(p.base, "dangling"));
    const before = await snapshot(p.base);
    for (const name of ["lab.sqlite", "dangling"]) {
      for (const lang of ["en", "zh"] as const) {
        await t.step(`${name} ${lang}`, async () => {
          const r = await cli(
            [
              "run",
              "--ledger-file",
              join(p.base, name),
              ...runFlags(),
              "--lang",
              lang,
            ],
            "",
            false,
            p.base,
          );
          assertRefused(r, OWN_FOLDER[lang]);
          assert.doesNotMatch(r.err[0], /read access|mode 1777/);
        });
      }
    }
    assert.deepEqual(await snapshot(p.base), before, "nothing created");
    assert.deepEqual([...Deno.readDirSync(p.outside)], []);
  },
});

Deno.test({
  name: "ledger place: under the sandbox's grant, /tmp/FILE is not " +
    'refused as a read of "/"' + NEEDS_RUN,
  ignore: !POSIX || !CAN_RUN,
  async fn() {
    const file = `/tmp/guardlab-place-${crypto.randomUUID()}.sqlite`;
    const r = await spawnGuardlab([
      "run",
      "--ledger-file",
      file,
      ...runFlags(),
    ]);
    assertRefused(r, OWN_FOLDER.en);
    assert.doesNotMatch(r.err[0], /read access/);
    assert.throws(() => Deno.lstatSync(file), Deno.errors.NotFound);
  },
});

Deno.test({
  name: "ledger place: a -wal too large to show is named, with what to do",
  ignore: !POSIX,
  async fn() {
    await using p = await sharedPlace();
    const dir = join(p.base, "w");
    await Deno.mkdir(dir, { mode: 0o700 });
    const ledger = join(dir, "lab.sqlite");
    const made = await cli(
      ["run", "--ledger-file", ledger, ...runFlags()],
      "",
      false,
      p.base,
    );
    assert.equal(made.code, 0, made.err.join("\n"));
    // A sparse log past the bound: no disk is used.
    using wal = await Deno.open(ledger + "-wal", {
      write: true,
      createNew: true,
      mode: 0o600,
    });
    await wal.truncate(MAX_VIEW_BYTES + 1);
    const before = await snapshot(dir);
    for (const lang of ["en", "zh"] as const) {
      const r = await cli(
        ["ledger", "--ledger-file", ledger, "--lang", lang],
        "",
        false,
        p.base,
      );
      assertRefused(
        r,
        lang === "en"
          ? /lab\.sqlite-wal is too large for guardlab to check \(over 256 MiB\); .*sqlite3 .*lab\.sqlite 'PRAGMA wal_checkpoint\(TRUNCATE\)'/
          : /lab\.sqlite-wal 太大，guardlab 无法检查（超过 256 MiB）；.*sqlite3 .*lab\.sqlite 'PRAGMA wal_checkpoint\(TRUNCATE\)'/,
      );
    }
    assert.deepEqual(await snapshot(dir), before, "nothing changed");
  },
});
