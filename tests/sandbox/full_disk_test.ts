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

Deno.test({
  name:
    "full disk: a classmate fills the shared folder; one line, no half file, the ledger kept" +
    (missing ? ` [ignored: ${missing}]` : ""),
  ignore: missing !== "",
  async fn() {
    const home = "/tmp/shared/v";
    const r = await inNamespace(`
mkdir -m 1777 /tmp/shared && mount -t tmpfs -o size=1m,mode=1777 tmpfs /tmp/shared
as_user ${VICTIM} mkdir -m 700 ${home}
step first guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-001 --topic river --copies 2
step sum-before sha256sum ${home}/p/lab.sqlite
as_user ${ATTACKER} sh -c 'cat /dev/zero > /tmp/shared/fill 2>/dev/null; true'
step config guardlab_as ${VICTIM} config lang zh --home ${home}
step run guardlab_as ${VICTIM} run --ledger p --home ${home} --job JOB-002 --topic river --copies 1
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
    // The run fails too, in one line; nothing it began is kept.
    const run = all.get("run")!;
    assert.notEqual(run.code, 0);
    assert.equal(run.err.length, 1, run.err.join("\n"));
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
