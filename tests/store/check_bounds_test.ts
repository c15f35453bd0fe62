/**
 * Every check of a file another user may have crafted is bounded: it runs
 * on a worker thread while the opener waits with a time limit, so it ends
 * with one line and exit 4 however long SQLite would take, and a signal
 * ends the process meanwhile (hooks first), as Ctrl-C always must. The
 * three ledgers that hung a view for minutes (a costly index filed under an
 * allowed name, `sqlite_sequence` with a costly CHECK, a costly CHECK on a
 * foreign table) are crafted by a classmate and opened by the victim, two
 * users on one machine: each is refused in one line, long before the
 * evaluation would have ended.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LedgerUnusable } from "../../lib/base/errors.ts";
import { openDatabase } from "../../lib/store/db.ts";
import { Ledger, LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { sharedPlace, snapshot } from "../_helpers/sandbox_fixtures.ts";
import { CAN_RUN, NEEDS_RUN, signalledAt } from "../_helpers/spawn.ts";
import {
  ATTACKER,
  inNamespace,
  steps,
  twoUsersMissing,
  VICTIM,
} from "../_helpers/namespace.ts";
import { HOSTILE } from "./hostile_schemas.ts";

const HELD = fileURLToPath(new URL("./held_check.ts", import.meta.url));

/** A gate that holds the worker until it is opened. */
function closedGate(): Int32Array & { open(): void } {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  return Object.assign(gate, {
    open() {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    },
  });
}

Deno.test("bounds: a check that runs out of time is refused in one line that says it was stopped", async () => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const path = join(mine, "lab.sqlite");
  Ledger.open(path, { trusted: [p.base] }).close();
  const before = await snapshot(mine);
  const gate = closedGate();
  try {
    for (const mode of ["read", "write"] as const) {
      let error: unknown;
      try {
        openDatabase(path, LEDGER_SCHEMA, {
          mode,
          trusted: [p.base],
          bounds: { timeLimitMs: 20, gate },
        }).close();
      } catch (thrown) {
        error = thrown;
      }
      assert.ok(error instanceof LedgerUnusable, String(error));
      // Stopped, not found wrong: the line says so, and never that the
      // file is something else.
      assert.match(
        error.text.en,
        /^guardlab stopped checking .*lab\.sqlite after 0\.02 s, before it could tell whether it is a guardlab ledger \(the check takes longer on a busy machine\); nothing was changed: run the command again when the machine is less busy$/,
      );
      assert.match(
        error.text.zh,
        /^guardlab 检查 .*lab\.sqlite 0\.02 秒后停止了，还没能判断它是不是 guardlab 的账本（机器忙时检查会更慢）；没有改动任何东西：请在机器不那么忙时再运行这条命令$/,
      );
      assert.doesNotMatch(error.text.en, /is not a|new ledger/);
      assert.equal(error.text.en.split("\n").length, 1);
    }
  } finally {
    gate.open();
  }
  // The abandoned checks end once let go; the next check has a worker of its own.
  Ledger.open(path, { mode: "read", trusted: [p.base] }).close();
  assert.deepEqual(await snapshot(mine), before, "the file is unchanged");
});

Deno.test({
  name: "bounds: a signal ends the process while a check is held" + NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    for (const [signal, exit] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
      await t.step(signal, async () => {
        const r = await signalledAt(HELD, "checking", signal);
        assert.equal(r.code, exit);
        assert.equal(r.after, "", "no verdict");
        assert.equal(r.mark, "hooks ran\n");
      });
    }
  },
});

const missing = twoUsersMissing();

/** The three ledgers that hung `ledger` for minutes. */
const HUNG = [
  "a costly index filed under an allowed index name",
  "sqlite_sequence redefined with a costly CHECK",
  "a costly CHECK on a foreign table",
];

/** How long a refused view may take before the run counts as hung: a guard, not a measure. */
const GUARD_S = 90;

Deno.test({
  name: "bounds: two users: a classmate's costly schema never hangs a view" +
    (missing ? ` [ignored: ${missing}]` : ""),
  ignore: missing !== "",
  async fn() {
    const cases = HOSTILE.filter((c) => HUNG.includes(c.name));
    assert.equal(cases.length, HUNG.length);
    const script = [
      "export -f as_user guardlab_as",
      "mkdir -m 1777 /tmp/share",
      `as_user ${VICTIM} mkdir -m 700 /tmp/v`,
      ...cases.flatMap((c, i) => [
        // The classmate crafts it; the victim keeps a copy of their own.
        `(cd /tmp/src && as_user ${ATTACKER} "$DENO" run -q --no-lock --cached-only ` +
        `--allow-read=/tmp --allow-write=/tmp tests/store/hostile_schemas.ts ` +
        `'${c.name}' /tmp/share/h${i}.sqlite costly)`,
        `as_user ${VICTIM} cp /tmp/share/h${i}.sqlite /tmp/v/h${i}.sqlite`,
        `step size-${i} stat -c %s /tmp/v/h${i}.sqlite`,
        `step sum-before-${i} sha256sum /tmp/v/h${i}.sqlite`,
        `step view-${i} timeout -s KILL ${GUARD_S} bash -c ` +
        `'guardlab_as ${VICTIM} ledger --ledger-file /tmp/v/h${i}.sqlite'`,
        `step sum-after-${i} sha256sum /tmp/v/h${i}.sqlite`,
      ]),
      "step left ls -A /tmp/v",
    ].join("\n");
    const r = await inNamespace(script);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    cases.forEach((c, i) => {
      const view = all.get(`view-${i}`)!;
      assert.ok(
        Number(all.get(`size-${i}`)!.out[0]) > 100_000,
        "a real ledger of rows",
      );
      assert.equal(view.code, 4, `${c.name}: ${view.err.join("\n")}`);
      assert.deepEqual(view.out, []);
      assert.equal(view.err.length, 1, view.err.join("\n"));
      assert.match(view.err[0], c.why);
      assert.deepEqual(
        all.get(`sum-after-${i}`)!.out,
        all.get(`sum-before-${i}`)!.out,
        "the file is unchanged",
      );
    });
    assert.deepEqual(
      all.get("left")!.out,
      cases.map((_, i) => `h${i}.sqlite`),
      "no -wal, -shm or -journal",
    );
  },
});
