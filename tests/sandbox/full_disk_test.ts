/**
 * A classmate fills the shared temp folder (here a small tmpfs of mode
 * 1777, as `/tmp` is, in a private mount namespace; the victim keeps what
 * persists there with `--home`). What the victim then runs fails in one
 * line, leaves no half-written file, and leaves the ledger as it was: once
 * there is room again, it holds what it held and goes on.
 */
import assert from "node:assert/strict";
import {
  ATTACKER,
  inNamespace,
  steps,
  twoUsersMissing,
  VICTIM,
} from "../_helpers/namespace.ts";

const missing = twoUsersMissing();

/**
 * The victim's ledger made in their `home` on a small shared tmpfs (steps
 * `first`, `sum-before`), then the classmate fills that folder.
 */
function filled(home: string): string {
  return `
mkdir -m 1777 /tmp/shared && mount -t tmpfs -o size=1m,mode=1777 tmpfs /tmp/shared
as_user ${VICTIM} mkdir -m 700 ${home}
step first guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-001 --topic river --copies 2
step sum-before sha256sum ${home}/p/lab.sqlite
as_user ${ATTACKER} sh -c 'cat /dev/zero > /tmp/shared/fill 2>/dev/null; true'`;
}

Deno.test({
  name:
    "full disk: a classmate fills the shared folder; one line, no half file, the ledger kept" +
    (missing ? ` [ignored: ${missing}]` : ""),
  ignore: missing !== "",
  async fn() {
    const home = "/tmp/shared/v";
    const r = await inNamespace(`${filled(home)}
step config guardlab_as ${VICTIM} config lang zh --home ${home}
step run guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-002 --topic river --copies 1
step run2 guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-002 --topic river --copies 1
step home ls -A ${home}
step sum-after sha256sum ${home}/p/lab.sqlite
rm /tmp/shared/fill
step ledger guardlab_as ${VICTIM} ledger --ledger p --home ${home} --json
step again guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-002 --topic river --copies 1
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    assert.equal(all.get("first")!.code, 0, all.get("first")!.err.join("\n"));
    const config = all.get("config")!;
    assert.equal(config.code, 1);
    assert.deepEqual(config.out, []);
    assert.deepEqual(config.err, [
      "guardlab: failed: no space left on the device guardlab writes to (on " +
      "a shared /tmp, another user may have filled it); free some space " +
      "and run it again",
    ]);
    // The runs fail too, each in one line that names the disk, never one
    // that calls the ledger unusable.
    const run = all.get("run")!;
    assert.equal(run.code, 1);
    assert.deepEqual(run.err, [
      "guardlab: failed: SQLite could not write (disk I/O error); the " +
      "device guardlab writes to may be full (on a shared /tmp, another " +
      "user may have filled it); free some space and run it again",
    ]);
    const again = all.get("run2")!;
    assert.equal(again.code, 4);
    assert.deepEqual(again.err, [
      `guardlab: refused: ${home}/p/lab.sqlite could not be opened to write ` +
      "(SQLite: disk I/O error); the device that holds it may be full (on " +
      "a shared /tmp, another user may have filled it): free some space " +
      "and run it again; the ledger is as it was",
    ]);
    // No settings file half written, no temporary name left behind.
    assert.deepEqual(all.get("home")!.out, ["p"]);
    assert.deepEqual(all.get("sum-after")!.out, all.get("sum-before")!.out);
    const ledger = JSON.parse(all.get("ledger")!.out.join("\n"));
    assert.deepEqual(
      ledger.receipts.map((x: { job: string }) => x.job),
      ["JOB-001"],
    );
    assert.equal(all.get("again")!.code, 0, all.get("again")!.err.join("\n"));
  },
});

Deno.test({
  name:
    "full disk: a view of your own ledger on its proof still shows it, the ledger unchanged" +
    (missing ? ` [ignored: ${missing}]` : ""),
  ignore: missing !== "",
  async fn() {
    // Opened by name on its proof, the view needs SQLite's shared-memory
    // index beside the file, which a full device cannot hold: it reads
    // the file into memory instead, as it reads any other file.
    const home = "/tmp/shared/v";
    const r = await inNamespace(`${filled(home)}
step view guardlab_as ${VICTIM} ledger --ledger p --home ${home} --json
step sum-after sha256sum ${home}/p/lab.sqlite
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    assert.equal(all.get("first")!.code, 0, all.get("first")!.err.join("\n"));
    const view = all.get("view")!;
    assert.equal(view.code, 0, view.err.join("\n"));
    assert.deepEqual(view.err, []);
    const ledger = JSON.parse(view.out.join("\n"));
    assert.deepEqual(
      ledger.drafts.map((x: { job: string }) => x.job),
      ["JOB-001"],
    );
    assert.deepEqual(all.get("sum-after")!.out, all.get("sum-before")!.out);
  },
});
