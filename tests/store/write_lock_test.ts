/**
 * A write transaction takes the write lock at BEGIN (`BEGIN IMMEDIATE`),
 * shown in process with two connections to one file: while the first is
 * inside its transaction, even before it has read or written anything, a
 * second writer is refused at once (SQLITE_BUSY with no busy timeout). With
 * a plain `BEGIN` the second writer would get in, and the first would go on
 * deciding on a read that is no longer true.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Ledger } from "../../lib/mod.ts";
import { PolicyLab } from "../../lib/mod.ts";
import { tempDir } from "../_helpers/tmp.ts";

const BUSY = /database is locked|SQLITE_BUSY|busy/i;

Deno.test("write lock: a second writer is refused while a write transaction is open", async (t) => {
  await using dirFolder = await tempDir("guardlab-lock-");
  const dir = dirFolder.path;
  const path = join(dir, "lab.sqlite");
  const first = Ledger.open(path, { busyTimeoutMs: 0 });
  const second = Ledger.open(path, { busyTimeoutMs: 0 });
  try {
    await t.step(
      "refused at BEGIN, before the first has touched a row",
      () => {
        first.writeTransaction(() => {
          assert.throws(() => second.writeTransaction(() => {}), BUSY);
        });
      },
    );
    await t.step("refused while the first reads before it writes", () => {
      first.writeTransaction(() => {
        assert.equal(first.findDraft("JOB-001"), undefined);
        assert.throws(
          () =>
            second.writeTransaction(() =>
              second.insertDraft("JOB-001", "d", "{}")
            ),
          BUSY,
        );
        first.insertDraft("JOB-001", "digest", "{}");
      });
      assert.equal(second.countDrafts(), 1);
    });
    await t.step("the lock ends with the transaction", () => {
      second.writeTransaction(() => second.insertDraft("JOB-002", "d", "{}"));
      assert.equal(first.countDrafts(), 2);
    });
  } finally {
    first.close();
    second.close();
  }
});

Deno.test("write lock: the policy lab's connections take the write lock at BEGIN too", async () => {
  await using dirFolder = await tempDir("guardlab-lock-");
  const dir = dirFolder.path;
  const path = join(dir, "policy.sqlite");
  const reader = PolicyLab.open(path, { trusted: [dir] });
  const editor = PolicyLab.open(path, { trusted: [dir] });
  try {
    reader.initialize();
    const snapshot = reader.precheck({ job: "JOB-001", copies: 2 });
    // The editor tries to change the rule from inside the reader's
    // transaction: it must be refused, not slip in between check and write.
    let editorGotIn = false;
    reader.writeTransaction(() => {
      try {
        editor.holdWriteLock();
        editorGotIn = true;
        editor.releaseWriteLock();
      } catch (error) {
        assert.match(String(error), BUSY);
      }
    });
    assert.equal(editorGotIn, false);
    assert.equal(
      reader.insertChecked({ job: "JOB-001", copies: 2 }, snapshot),
      true,
    );
  } finally {
    reader.close();
    editor.close();
  }
});
