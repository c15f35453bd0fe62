/**
 * Section 1 of "a sandbox no classmate can bend": no folder on the way to a
 * file guardlab opens may be one another user can rename inside. Run in
 * process against a stand-in for `/tmp`; the two-user race is in
 * `two_users_test.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPlainFile } from "../../lib/sandbox/plain_file.ts";
import { trustedFolders } from "../../lib/sandbox/sandbox.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  assertRefused,
  IS_ROOT,
  OTHER_UID,
  sharedPlace,
  snapshot,
} from "../_helpers/sandbox_fixtures.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);
const POSIX = Deno.build.os !== "windows";

/** Every command that opens a `--ledger-file`, with what it needs besides. */
const OPENERS: string[][] = [
  ["run", ...runFlags()],
  ["ledger"],
  ["reconcile"],
  ["compensate", "--job", "JOB-001"],
];

/** `base/above` (mode `mode`) holding `mine` (0700) with the reference ledger and a script. */
async function ledgerBelow(base: string, mode: number) {
  const above = join(base, "above");
  const mine = join(above, "mine");
  await Deno.mkdir(mine, { recursive: true, mode: 0o700 });
  await Deno.chmod(above, mode);
  const ledger = join(mine, "lab.sqlite");
  await Deno.copyFile(REFERENCE_LEDGER, ledger);
  const steps = join(above, "steps.jsonl");
  await Deno.writeTextFile(steps, '{"op":"count"}\n');
  return { above, mine, ledger, steps };
}

Deno.test({
  name: "chain: a folder above that others can write and is not sticky",
  ignore: !POSIX,
  async fn() {
    await using p = await sharedPlace();
    const { above, ledger, steps } = await ledgerBelow(p.base, 0o777);
    const before = await snapshot(above);
    for (const args of OPENERS) {
      const [command, ...rest] = args;
      assertRefused(
        await cli(
          [command, "--ledger-file", ledger, ...rest],
          "",
          false,
          p.base,
        ),
        /above can be written by other users \(mode 0777\); use a folder of your own/,
      );
    }
    assertRefused(
      await cli(["script", steps], "", false, p.base),
      /above can be written by other users \(mode 0777\)/,
    );
    assert.deepEqual(await snapshot(above), before, "byte-identical");
  },
});

Deno.test({
  name: "chain: a sticky folder of your own above is fine (the control)",
  ignore: !POSIX,
  async fn() {
    await using p = await sharedPlace();
    const { ledger, steps } = await ledgerBelow(p.base, 0o1777);
    const r = await cli(
      ["reconcile", "--ledger-file", ledger],
      "",
      false,
      p.base,
    );
    assert.equal(r.code, 3, r.err.join("\n"));
    const s = await cli(["script", steps], "", false, p.base);
    assert.equal(s.code, 0, s.err.join("\n"));
  },
});

Deno.test({
  name: "chain: a sticky folder that another user owns" +
    (IS_ROOT ? "" : " [ignored: chown to a second user needs root]"),
  ignore: !POSIX || !IS_ROOT,
  async fn() {
    await using p = await sharedPlace();
    const { above, mine, ledger, steps } = await ledgerBelow(p.base, 0o1777);
    // Everything below is yours; only the folder above is the classmate's.
    await Deno.chown(above, OTHER_UID, OTHER_UID);
    const before = await snapshot(above);
    const why = new RegExp(
      `above belongs to uid ${OTHER_UID}, not to you \\(uid 0\\) or root; ` +
        "its owner can rename anything inside it",
    );
    for (const args of OPENERS) {
      const [command, ...rest] = args;
      assertRefused(
        await cli(
          [command, "--ledger-file", ledger, ...rest],
          "",
          false,
          p.base,
        ),
        why,
      );
      // A new ledger there is not created either.
      if (command === "run") {
        assertRefused(
          await cli(
            ["run", "--ledger-file", join(mine, "new.sqlite"), ...rest],
            "",
            false,
            p.base,
          ),
          why,
        );
      }
    }
    assertRefused(await cli(["script", steps], "", false, p.base), why);
    assert.deepEqual(await snapshot(above), before, "byte-identical");
    // The refusal never suggests removing what the user cannot remove.
    const r = await cli(
      ["run", "--ledger-file", ledger, ...runFlags()],
      "",
      false,
      p.base,
    );
    assert.doesNotMatch(r.err[0], /\brm\b|remove/);
  },
});

Deno.test("chain: a script FILE replaced between the check and the open", async (t) => {
  await t.step("by another file", async () => {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const steps = join(mine, "steps.jsonl");
    const other = join(mine, "other.jsonl");
    await Deno.writeTextFile(steps, '{"op":"count"}\n');
    await Deno.writeTextFile(other, "not what was checked\n");
    await assert.rejects(
      openPlainFile(steps, trustedFolders(p.base), {
        beforeOpen: () => Deno.renameSync(other, steps),
      }),
      /steps\.jsonl was replaced while guardlab opened it/,
    );
  });
  await t.step("by a link to a file outside", async () => {
    await using p = await sharedPlace();
    const steps = join(p.base, "steps.jsonl");
    const secret = join(p.outside, "secret");
    await Deno.writeTextFile(steps, '{"op":"count"}\n');
    await Deno.writeTextFile(secret, "top secret\n");
    await assert.rejects(
      openPlainFile(steps, trustedFolders(p.base), {
        beforeOpen: () => {
          Deno.removeSync(steps);
          Deno.symlinkSync(secret, steps);
        },
      }),
      /was replaced while guardlab opened it/,
    );
  });
  await t.step("not replaced: the file opens (the control)", async () => {
    await using p = await sharedPlace();
    const steps = join(p.base, "steps.jsonl");
    await Deno.writeTextFile(steps, "x\n");
    let called = false;
    const file = await openPlainFile(steps, trustedFolders(p.base), {
      beforeOpen: () => void (called = true),
    });
    file.close();
    assert.ok(called);
  });
});
