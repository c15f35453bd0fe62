/**
 * The attacks of "a sandbox no classmate can bend" (sections 1 and 5) as
 * they happen on a lab machine: two unprivileged users, a victim (uid 10001)
 * and a classmate (uid 10002), no accounts needed (`setpriv`), in a private
 * mount namespace whose `/tmp` is a fresh tmpfs, each with a `DENO_DIR` of
 * their own, guardlab run under the binary's grant. A root victim would make
 * the owner checks meaningless, so nothing here runs guardlab as root.
 *
 * The swap race is real: the classmate's loop calls `renameat2` with
 * `RENAME_EXCHANGE` through FFI (`attacker_swap.ts`, the only process given
 * `--allow-ffi`), tens of thousands of times, while the victim runs
 * guardlab against the folder being swapped.
 *
 * Where the machine cannot do this (not Linux, not root, no `unshare` or
 * `setpriv`), the tests are ignored with the reason; the same attacks run in
 * process in `chain_test.ts` and `lockout_test.ts`.
 */
import assert from "node:assert/strict";
import {
  ATTACKER,
  inNamespace,
  type Step,
  steps,
  twoUsersMissing,
  uidTaken,
  VICTIM,
} from "../_helpers/namespace.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const missing = twoUsersMissing();
const IGNORED = missing ? ` [ignored: ${missing}]` : "";
const RUN = runFlags().join(" ");
const SWAP_MS = 3000;

/** The victim's home, outside the grant: a tmpfs of its own on /mnt, 0700. */
const HOME_SETUP = [
  "mount -t tmpfs -o mode=755 tmpfs /mnt",
  "mkdir -m 700 /mnt/home",
  `chown ${VICTIM}:${VICTIM} /mnt/home`,
].join("\n");

/** The swap loop as the classmate, in the background; `$swapper` is its pid. */
function swapLoop(a: string, b: string): string {
  return `(cd /tmp/src && as_user ${ATTACKER} "$DENO" run -q --no-lock --cached-only ` +
    `--allow-ffi tests/_helpers/attacker_swap.ts ${a} ${b} ${SWAP_MS} ` +
    `>/tmp/.swaps 2>&1) & swapper=$!`;
}

/** Run `command` as the victim again and again while the swap loop lives. */
function whileSwapping(label: string, command: string): string {
  return [
    "n=0",
    'while kill -0 "$swapper" 2>/dev/null; do',
    "  n=$((n+1))",
    `  step "${label}-$n" guardlab_as ${VICTIM} ${command}`,
    "done",
    'wait "$swapper"',
    `echo "@@swaps-${label}	0	$(base64 -w0 </tmp/.swaps)	"`,
  ].join("\n");
}

function runsOf(all: Map<string, Step>, label: string): Step[] {
  return [...all].filter(([name]) => name.startsWith(`${label}-`))
    .map(([, s]) => s);
}

function swapsOf(all: Map<string, Step>, label: string) {
  const report = all.get(`swaps-${label}`);
  assert.ok(report, `no swap report for ${label}`);
  return JSON.parse(report.out[0]) as {
    swaps: number;
    refused: number;
    errno: number;
  };
}

Deno.test({
  name: "two users: a uid an account has here is never borrowed" + NEEDS_RUN,
  ignore: !CAN_RUN,
  fn() {
    // Its user could enter the namespace's /tmp through /proc/PID/root.
    assert.match(uidTaken(0), /^uid 0 is an account here \(root\): /);
    if (missing === "") {
      assert.equal(uidTaken(VICTIM), "");
      assert.equal(uidTaken(ATTACKER), "");
    }
  },
});

Deno.test({
  name: "two users: a classmate's sticky folder, swapped in a loop" + IGNORED,
  ignore: missing !== "",
  async fn() {
    const r = await inNamespace(`
${HOME_SETUP}
# The classmate's sticky folder; the victim's own folder inside it.
mkdir -m 1777 /tmp/X && chown ${ATTACKER}:${ATTACKER} /tmp/X
as_user ${VICTIM} mkdir -m 700 /tmp/X/mine
as_user ${VICTIM} cp /tmp/src/fixtures/reference-ledger.sqlite /tmp/X/mine/lab.sqlite
# A link to the victim's home, and a clean ledger of the classmate's own.
as_user ${ATTACKER} ln -s /mnt/home /tmp/X/decoy
as_user ${ATTACKER} mkdir -m 700 /tmp/X/clean
guardlab_as ${ATTACKER} run --ledger-file /tmp/X/clean/lab.sqlite ${RUN} >/dev/null 2>&1
as_user ${ATTACKER} chmod 755 /tmp/X/clean
as_user ${ATTACKER} chmod 644 /tmp/X/clean/lab.sqlite
step warm guardlab_as ${VICTIM} run --ledger-file /tmp/X/mine/lab.sqlite ${RUN}
${swapLoop("/tmp/X/mine", "/tmp/X/decoy")}
${whileSwapping("run", `run --ledger-file /tmp/X/mine/lab.sqlite ${RUN}`)}
${swapLoop("/tmp/X/mine", "/tmp/X/clean")}
${whileSwapping("reconcile", "reconcile --ledger-file /tmp/X/mine/lab.sqlite")}
step home ls -A /mnt/home
step mine ls -A /tmp/X/mine
step sum sha256sum /tmp/X/mine/lab.sqlite /tmp/src/fixtures/reference-ledger.sqlite
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    for (const label of ["run", "reconcile"]) {
      const swapped = swapsOf(all, label);
      const runs = runsOf(all, label);
      assert.ok(swapped.swaps >= 1000, `${label}: ${JSON.stringify(swapped)}`);
      assert.ok(runs.length >= 2, `${label}: only ${runs.length} runs`);
      for (const run of [all.get("warm")!, ...runs]) {
        // Refused every time, in one line that names the classmate's folder;
        // never "accepted", never "nothing to reconcile".
        assert.equal(run.code, 4, [...run.out, ...run.err].join("\n"));
        assert.deepEqual(run.out, []);
        assert.equal(run.err.length, 1, run.err.join("\n"));
        assert.match(
          run.err[0],
          /^guardlab: refused: \/tmp\/X belongs to uid 10002, not to you \(uid 10001\) or root; its owner can rename anything inside it/,
        );
      }
    }
    assert.deepEqual(all.get("home")!.out, [], "nothing made in the home");
    assert.deepEqual(all.get("mine")!.out, ["lab.sqlite"], "no -wal, -shm");
    const [mine, reference] = all.get("sum")!.out.map((l) => l.split(" ")[0]);
    assert.equal(mine, reference, "the victim's ledger is byte-identical");
  },
});

Deno.test({
  name: "two users: in a sticky folder of the victim's own the swap fails" +
    IGNORED,
  ignore: missing !== "",
  async fn() {
    const r = await inNamespace(`
${HOME_SETUP}
as_user ${VICTIM} mkdir -m 1777 /tmp/V
as_user ${VICTIM} mkdir -m 700 /tmp/V/mine
as_user ${VICTIM} cp /tmp/src/fixtures/reference-ledger.sqlite /tmp/V/mine/lab.sqlite
as_user ${ATTACKER} ln -s /mnt/home /tmp/V/decoy
step warm guardlab_as ${VICTIM} reconcile --ledger-file /tmp/V/mine/lab.sqlite
${swapLoop("/tmp/V/mine", "/tmp/V/decoy")}
${whileSwapping("reconcile", "reconcile --ledger-file /tmp/V/mine/lab.sqlite")}
step run guardlab_as ${VICTIM} run --ledger-file /tmp/V/mine/new.sqlite ${RUN}
step home ls -A /mnt/home
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    const swapped = swapsOf(all, "reconcile");
    // The sticky bit holds against everyone but the folder's owner: EPERM.
    assert.equal(swapped.swaps, 0, JSON.stringify(swapped));
    assert.ok(swapped.refused >= 1000, JSON.stringify(swapped));
    assert.equal(swapped.errno, 1, "EPERM");
    for (const run of [all.get("warm")!, ...runsOf(all, "reconcile")]) {
      assert.equal(run.code, 3, [...run.out, ...run.err].join("\n"));
    }
    assert.equal(all.get("run")!.code, 0, all.get("run")!.err.join("\n"));
    assert.deepEqual(all.get("home")!.out, []);
  },
});

Deno.test({
  name: "two users: a classmate takes /tmp/guardlab-UID first" + IGNORED,
  ignore: missing !== "",
  async fn() {
    const taken = `/tmp/guardlab-${VICTIM}`;
    const r = await inNamespace(`
# The classmate takes the private folder of a whole range of uids.
for u in $(seq 10000 10040); do as_user ${ATTACKER} mkdir -m 700 /tmp/guardlab-$u; done
printf '{"op":"count"}\\n' >/tmp/steps && chmod 644 /tmp/steps
step verify guardlab_as ${VICTIM} verify
step demo guardlab_as ${VICTIM} demo timing
step explain guardlab_as ${VICTIM} explain retry_same_request
step show guardlab_as ${VICTIM} exercise show 1
step hint guardlab_as ${VICTIM} exercise hint 1
step check guardlab_as ${VICTIM} exercise check 1
step run guardlab_as ${VICTIM} run ${RUN}
IN=/tmp/steps step script guardlab_as ${VICTIM} script
step named guardlab_as ${VICTIM} run --ledger mine ${RUN}
step config guardlab_as ${VICTIM} config lang zh
step handin guardlab_as ${VICTIM} exercise hand-in
step home-run guardlab_as ${VICTIM} run --ledger mine ${RUN} --home /tmp/a-own
step home-config guardlab_as ${VICTIM} config lang zh --home /tmp/a-own
step home-demo guardlab_as ${VICTIM} demo timing --home /tmp/a-own
step home-outside guardlab_as ${VICTIM} config lang zh --home /var/tmp/a-own
step taken ls -A ${taken}
step owner stat -c %u ${taken}
step own stat -c '%u %a' /tmp/a-own
step leftovers sh -c 'ls -A /tmp | grep -c "^guardlab-scratch-" || true'
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    const note = (s: Step) => s.err.join("\n");
    for (const name of ["verify", "demo", "explain", "show", "run", "script"]) {
      const s = all.get(name)!;
      assert.equal(s.code, 0, `${name}: ${note(s)}`);
      assert.ok(s.out.length > 0, name);
      // One line: the stored language could not be read, and the way out.
      assert.equal(s.err.length, 1, `${name}: ${note(s)}`);
      assert.match(s.err[0], /stored settings not read.*--home DIR/);
    }
    for (const [name, code] of [["hint", 0], ["check", 1]] as const) {
      const s = all.get(name)!;
      assert.equal(s.code, code, `${name}: ${note(s)}`);
      assert.ok(s.out.length > 0, name);
      assert.ok(
        s.err.some((l) =>
          /your progress could not be kept: .*--home DIR/.test(l)
        ),
        `${name}: ${note(s)}`,
      );
    }
    for (const name of ["named", "config", "handin"]) {
      const s = all.get(name)!;
      assert.equal(s.code, 4, `${name}: ${note(s)}`);
      assert.deepEqual(s.out, []);
      assert.equal(s.err.length, 1, `${name}: ${note(s)}`);
      assert.match(
        s.err[0],
        /guardlab-10001 belongs to uid 10002, not to you \(uid 10001\); another user made it, so only they or an administrator can remove it; .*--home DIR/,
      );
      assert.doesNotMatch(s.err[0], /remove or rename|\brm \//);
    }
    for (const name of ["home-run", "home-config", "home-demo"]) {
      const s = all.get(name)!;
      assert.equal(s.code, 0, `${name}: ${note(s)}`);
      assert.deepEqual(s.err, [], name);
    }
    // The language stored in --home is used.
    assert.ok(all.get("home-demo")!.out.some((l) => /[\u4e00-\u9fff]/.test(l)));
    const outside = all.get("home-outside")!;
    assert.equal(outside.code, 4, note(outside));
    assert.match(
      outside.err[0],
      /refused by the sandbox: read access to "\/var\/tmp\/a-own"/,
    );
    assert.deepEqual(all.get("taken")!.out, [], "the taken folder untouched");
    assert.deepEqual(all.get("owner")!.out, [String(ATTACKER)]);
    assert.deepEqual(all.get("own")!.out, [`${VICTIM} 700`]);
    assert.deepEqual(
      all.get("leftovers")!.out,
      ["0"],
      "scratch folders removed",
    );
  },
});
