/**
 * A child process for `reconcile_signal_test.ts`: it handles signals as the
 * entry point does, registers an exit hook that leaves a mark at
 * `Deno.args[0]`, and reconciles a ledger beside it of 20,000 drafts that
 * no receipt accepts. It prints `walking` when the walk shows its first
 * key, and holds that key until the signal watcher has seen a signal: from
 * then on, the walk must end the process (hooks first) at its next step,
 * not when it is done, which it would say with `done`.
 */
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  blockUntil,
  onExit,
  runExitHooksOnSignals,
  signalWaiting,
} from "../../lib/base/exit_hooks.ts";
import { Ledger } from "../../lib/timing/ledger.ts";
import { reconcileLedger } from "../../lib/timing/reconcile.ts";

const [mark] = Deno.args;
const dir = dirname(mark);
const path = join(dir, "lab.sqlite");
Ledger.open(path, { trusted: [dir] }).close();
const db = new DatabaseSync(path);
db.exec("BEGIN");
const add = db.prepare("INSERT INTO drafts VALUES(?, 'd', '{}')");
// Keys long enough that the walk takes several batches.
for (let i = 0; i < 20_000; i++) add.run(`JOB-${i}-${"x".repeat(100)}`);
db.exec("COMMIT");
db.close();
runExitHooksOnSignals();
onExit(() => Deno.writeTextFileSync(mark, "hooks ran\n"));
// The first blocked wait starts the watcher; this one returns at once.
blockUntil(new Int32Array([1]), 0, 0);
const ledger = Ledger.open(path, { mode: "read", trusted: [dir] });
let first = true;
reconcileLedger(ledger, {
  show: () => {
    if (first) {
      first = false;
      console.log("walking");
      while (!signalWaiting()) {
        // The key is held until the signal has come.
      }
    }
    return true;
  },
});
console.log("done");
