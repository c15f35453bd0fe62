/**
 * Read locks are as dangerous as writes. A classmate who can open a ledger
 * (or its `-shm`) can take an `fcntl` read lock on it: SQLite then cannot
 * fold the log back into the file when the victim's run ends (`-wal` and
 * `-shm` stay, and a copy of the file alone misses a draft), and a lock on
 * byte 120 of `-shm` (the log's write lock) stalls every later run. So a
 * ledger guardlab writes is readable by no one else, companions included,
 * even in a folder others can enter; one made otherwise (mode 0644 there)
 * is refused before a write, in one line, the way ssh refuses a readable
 * key, while a view of it (which reads it into memory and locks nothing)
 * still works. Two unprivileged users on one machine, as the attack is.
 */
import assert from "node:assert/strict";
import {
  ATTACKER,
  GUARDLAB_FLAGS,
  inNamespace,
  steps,
  twoUsersMissing,
  VICTIM,
} from "../_helpers/namespace.ts";

const missing = twoUsersMissing();
const IGNORED = missing ? ` [ignored: ${missing}]` : "";

/** The classmate's lock holder: `PATH START LENGTH READY`; it says in READY whether it got the lock. */
const LOCKER = `
import fcntl, os, sys, time
path, start, length, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
try:
    fd = os.open(path, os.O_RDONLY)
    fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, length, start)
    said = "locked"
except OSError as e:
    fd, said = None, "denied %d" % e.errno
with open(ready + ".tmp", "w") as f:
    f.write(said)
os.rename(ready + ".tmp", ready)
while fd is not None:
    time.sleep(3600)  # hold the lock until killed
`;

const job = (n: number) => `--job JOB-00${n} --topic river --copies 2`;

/** A command as `uid` in the background whose pid (the command's own, by exec) is `$var`. */
function background(uid: number, command: string, variable: string): string {
  return `(cd /tmp/src && exec setpriv --reuid=${uid} --regid=${uid} --clear-groups ` +
    `env -i PATH=/usr/bin:/bin HOME=/nonexistent NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 ` +
    `DENO_DIR=/tmp/.deno-${uid} ${command}) & ${variable}=$!`;
}

/** Wait until file `path` exists (an event: the other process wrote it). */
const waitFor = (path: string) => `while [ ! -e ${path} ]; do sleep 0.05; done`;

Deno.test({
  name:
    "two users: a classmate's read lock cannot reach a ledger guardlab writes" +
    IGNORED,
  ignore: missing !== "",
  async fn() {
    const guardlab = `"$DENO" ${GUARDLAB_FLAGS} main.ts`;
    const r = await inNamespace(`
cat > /tmp/locker.py <<'PY'
${LOCKER}
PY
chmod 644 /tmp/locker.py
# The victim's folder lets others in (0755), as a folder made by hand may.
as_user ${VICTIM} mkdir -m 755 /tmp/v
step first guardlab_as ${VICTIM} run --ledger-file /tmp/v/lab.sqlite ${job(1)}
step mode stat -c %a /tmp/v/lab.sqlite
# The classmate's read lock on the whole ledger, held during the next run.
${
      background(
        ATTACKER,
        "python3 /tmp/locker.py /tmp/v/lab.sqlite 0 0 /tmp/ready1",
        "locker",
      )
    }
${waitFor("/tmp/ready1")}
step lock1 cat /tmp/ready1
step second guardlab_as ${VICTIM} run --ledger-file /tmp/v/lab.sqlite ${job(2)}
kill "$locker"; wait "$locker" 2>/dev/null
step left1 ls -A /tmp/v
# A run that holds the ledger open after its commit: -wal and -shm exist.
${
      background(
        VICTIM,
        `${guardlab} run --ledger-file /tmp/v/lab.sqlite ${
          job(3)
        } --pause-at after_commit 2>/tmp/paused.tmp </dev/null`,
        "paused",
      )
    }
while ! grep -q paused /tmp/paused.tmp 2>/dev/null; do sleep 0.05; done
step companions stat -c %a /tmp/v/lab.sqlite-wal /tmp/v/lab.sqlite-shm
# The classmate's read lock on byte 120 of -shm: the log's write lock.
${
      background(
        ATTACKER,
        "python3 /tmp/locker.py /tmp/v/lab.sqlite-shm 120 1 /tmp/ready2",
        "locker2",
      )
    }
${waitFor("/tmp/ready2")}
step lock2 cat /tmp/ready2
kill -TERM "$paused"; wait "$paused"
step third guardlab_as ${VICTIM} run --ledger-file /tmp/v/lab.sqlite ${job(4)}
kill "$locker2" 2>/dev/null; wait "$locker2" 2>/dev/null
step left2 ls -A /tmp/v
# A copy of the file alone holds every draft.
as_user ${VICTIM} mkdir -m 700 /tmp/c
as_user ${VICTIM} cp /tmp/v/lab.sqlite /tmp/c/lab.sqlite
step copy guardlab_as ${VICTIM} ledger --ledger-file /tmp/c/lab.sqlite --json
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    const get = (name: string) => {
      const found = all.get(name);
      assert.ok(found, `no step ${name}: ${r.out}\n${r.err}`);
      return found;
    };
    assert.equal(get("first").code, 0, get("first").err.join("\n"));
    assert.deepEqual(
      get("mode").out,
      ["600"],
      "the ledger is the victim's alone",
    );
    assert.deepEqual(get("lock1").out, ["denied 13"], "EACCES: no lock");
    assert.equal(get("second").code, 0, get("second").err.join("\n"));
    assert.deepEqual(get("left1").out, ["lab.sqlite"], "no -wal, no -shm");
    assert.deepEqual(get("companions").out, ["600", "600"]);
    assert.deepEqual(get("lock2").out, ["denied 13"], "EACCES: no lock");
    assert.equal(get("third").code, 0, get("third").err.join("\n"));
    assert.deepEqual(get("left2").out, ["lab.sqlite"], "no -wal, no -shm");
    const copy = get("copy").out.join("\n");
    for (const n of [1, 2, 3, 4]) assert.match(copy, new RegExp(`JOB-00${n}`));
  },
});

Deno.test({
  name:
    "two users: a ledger others can open is refused before a write, still shown" +
    IGNORED,
  ignore: missing !== "",
  async fn() {
    const r = await inNamespace(`
as_user ${VICTIM} mkdir -m 755 /tmp/v /tmp/w
as_user ${VICTIM} mkdir -m 700 /tmp/p
# A ledger made 0644, in a folder others can enter, and in one they cannot.
for d in v p; do
  as_user ${VICTIM} cp /tmp/src/fixtures/reference-ledger.sqlite /tmp/$d/lab.sqlite
  as_user ${VICTIM} chmod 644 /tmp/$d/lab.sqlite
done
step sum-before sha256sum /tmp/v/lab.sqlite
step run guardlab_as ${VICTIM} run --ledger-file /tmp/v/lab.sqlite ${job(7)}
step compensate guardlab_as ${VICTIM} compensate --ledger-file /tmp/v/lab.sqlite --job JOB-001
step view guardlab_as ${VICTIM} ledger --ledger-file /tmp/v/lab.sqlite
step reconcile guardlab_as ${VICTIM} reconcile --ledger-file /tmp/v/lab.sqlite
step sum-after sha256sum /tmp/v/lab.sqlite
step left ls -A /tmp/v
step private guardlab_as ${VICTIM} run --ledger-file /tmp/p/lab.sqlite ${job(7)}
# A companion others can read, beside a ledger of the victim's alone.
step fresh guardlab_as ${VICTIM} run --ledger-file /tmp/w/lab.sqlite ${job(1)}
as_user ${VICTIM} sh -c 'umask 022; : > /tmp/w/lab.sqlite-journal'
step journal guardlab_as ${VICTIM} run --ledger-file /tmp/w/lab.sqlite ${job(2)}
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    for (const name of ["run", "compensate"]) {
      const s = all.get(name)!;
      assert.equal(s.code, 4, s.err.join("\n"));
      assert.deepEqual(s.out, []);
      assert.equal(s.err.length, 1, s.err.join("\n"));
      assert.match(
        s.err[0],
        /^guardlab: refused: \/tmp\/v\/lab\.sqlite can be opened by other users \(mode 0644, in a folder they can enter\): .*; make it yours alone \(chmod 600 \/tmp\/v\/lab\.sqlite\) or its folder \(chmod 700 \/tmp\/v\)$/,
      );
    }
    assert.equal(all.get("view")!.code, 0, all.get("view")!.err.join("\n"));
    assert.equal(all.get("reconcile")!.code, 3, "the reference has work");
    assert.deepEqual(all.get("sum-after")!.out, all.get("sum-before")!.out);
    assert.deepEqual(all.get("left")!.out, ["lab.sqlite"]);
    assert.equal(all.get("private")!.code, 0, all.get("private")!.err[0]);
    assert.equal(all.get("fresh")!.code, 0, all.get("fresh")!.err[0]);
    const journal = all.get("journal")!;
    assert.equal(journal.code, 4, journal.err.join("\n"));
    assert.match(
      journal.err[0],
      /\/tmp\/w\/lab\.sqlite-journal can be opened by other users \(mode 0644/,
    );
  },
});
