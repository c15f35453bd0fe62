/**
 * A refusal's remedy is one the user can carry out: a link another user
 * owns in a sticky folder cannot be removed by this user, so no `rm` is
 * suggested for it; a command that is suggested is shell-quoted; a path is
 * shown inert (a control character visible as \uXXXX), and a command is
 * withheld for a name a terminal cannot show as it is.
 */
import assert from "node:assert/strict";
import { lchownSync } from "node:fs";
import { join } from "node:path";
import { refusalLine } from "../../lib/sandbox/sandbox.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  assertRefused,
  IS_ROOT,
  OTHER_UID,
  sharedPlace,
  snapshot,
} from "../_helpers/sandbox_fixtures.ts";

const POSIX = Deno.build.os !== "windows";

/** The one word a shell reads from `quoted`: plain, or in single quotes with `'\''`. */
function shellWord(quoted: string): string {
  if (/^[A-Za-z0-9_\/.:=@%+,-]+$/.test(quoted)) return quoted;
  const m = /^'((?:[^']|'\\'')*)'$/.exec(quoted);
  assert.ok(m, `not one shell-quoted word: ${quoted}`);
  return m[1].replaceAll(`'\\''`, "'");
}

/** No raw control or bidirectional character reaches the line. */
function assertInertLine(line: string): void {
  assert.doesNotMatch(
    line,
    // deno-lint-ignore no-control-regex -- the characters it must not hold
    /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/,
    JSON.stringify(line),
  );
}

Deno.test({
  name: "remedy: another user's link in a sticky folder gets no rm advice" +
    (IS_ROOT ? "" : " [ignored: lchown to a second user needs root]"),
  ignore: !POSIX || !IS_ROOT,
  async fn(t) {
    await using p = await sharedPlace();
    const link = join(p.base, "x;touch PWNED;#.json");
    await Deno.symlink("/etc/passwd", link);
    lchownSync(link, OTHER_UID, OTHER_UID);
    const before = await snapshot(p.base);
    // grade reads other users' files (the students'), so it does not ask
    // who owns a hand-in; who may remove a link is another question.
    for (const command of [["script"], ["exercise", "grade"]]) {
      for (const lang of ["en", "zh"] as const) {
        await t.step(`${command.join(" ")}, ${lang}`, async () => {
          const r = await cli(
            [...command, link, "--lang", lang],
            "",
            false,
            p.base,
          );
          assertRefused(r, /uid 65534/);
          assert.doesNotMatch(r.err[0], /\brm\b/, r.err[0]);
          assert.match(
            r.err[0],
            lang === "en"
              ? /only they or an administrator can remove it; .*folder of your own/
              : /只有对方或管理员能删除它；.*你自己的目录/,
          );
        });
      }
    }
    assert.deepEqual(await snapshot(p.base), before, "nothing changed");
  },
});

Deno.test({
  name: "remedy: your own link: rm, shell-quoted, naming exactly that link",
  ignore: !POSIX,
  async fn() {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const link = join(mine, "x; touch PWNED #'q'.json");
    await Deno.symlink("/etc/passwd", link);
    const r = await cli(["script", link, "--lang", "en"], "", false, p.base);
    assertRefused(r, /is a symbolic link/);
    const m = /remove the link \(rm (.+)\)$/.exec(r.err[0]);
    assert.ok(m, r.err[0]);
    assert.equal(shellWord(m[1]), link, "the word the shell reads is the link");
    const zh = await cli(["script", link, "--lang", "zh"], "", false, p.base);
    const mz = /请删除这个链接（rm (.+)）$/.exec(zh.err[0]);
    assert.ok(mz, zh.err[0]);
    assert.equal(shellWord(mz[1]), link);
  },
});

Deno.test({
  name: "remedy: a path with control characters is shown inert, one line, " +
    "and no command is suggested for it",
  ignore: !POSIX,
  async fn(t) {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const names = [
      "\x1b]0;PWN\x07\x1b[2J.json",
      "a\nguardlab: nothing to reconcile.json",
      "\x9b31m\u202eevil.json",
      "cr\r\x7f.json",
    ];
    for (const name of names) {
      await t.step(JSON.stringify(name), async () => {
        const link = join(mine, name);
        await Deno.symlink("/etc/passwd", link);
        for (const lang of ["en", "zh"] as const) {
          const r = await cli(
            ["script", link, "--lang", lang],
            "",
            false,
            p.base,
          );
          assertRefused(r, /symbolic link|符号链接/);
          assertInertLine(r.err[0]);
          assert.match(r.err[0], /\\u00(1b|0a|9b|0d)/);
          assert.doesNotMatch(r.err[0], /\brm\b/, r.err[0]);
          assert.match(
            r.err[0],
            lang === "en" ? /control characters/ : /控制字符/,
          );
        }
      });
    }
  },
});

Deno.test({
  name:
    "remedy: a --ledger-file whose name holds a line feed is refused in one line: empty, not a ledger, absent",
  ignore: !POSIX,
  async fn(t) {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    // A forged second line, as a classmate would name a file they hand over.
    const name = "a\nguardlab: nothing to reconcile";
    const shown = "a\\u000aguardlab: nothing to reconcile";
    const files = {
      empty: new Uint8Array(),
      "not a ledger": new TextEncoder().encode("not SQLite ".repeat(100)),
      absent: null,
    };
    for (const [kind, bytes] of Object.entries(files)) {
      await t.step(kind, async () => {
        const file = join(mine, `${kind} ${name}`);
        if (bytes !== null) await Deno.writeFile(file, bytes, { mode: 0o600 });
        for (const command of ["ledger", "reconcile"]) {
          const r = await cli(
            [command, "--ledger-file", file, "--lang", "en"],
            "",
            false,
            p.base,
          );
          assertRefused(r, /ledger/);
          assert.ok(r.err[0].includes(`/${kind} ${shown}`), r.err[0]);
          assertInertLine(r.err[0]);
        }
      });
    }
  },
});

Deno.test("remedy: a sandbox refusal shows its path inert", () => {
  const error = new Deno.errors.NotCapable(
    'Requires read access to "/etc/\x1b]52;c;eA==\x07\u202ex"',
  );
  for (const lang of ["en", "zh"] as const) {
    const line = refusalLine(error)[lang];
    assertInertLine(line);
    assert.match(line, /\\u001b\]52;c;eA==\\u0007\\u202ex/);
  }
});
