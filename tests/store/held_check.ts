/**
 * A child process for `check_bounds_test.ts`: it handles signals as the
 * entry point does, registers an exit hook that leaves a mark at
 * `Deno.args[0]`, and starts a check of a small ledger that a gate holds
 * for as long as the process lives. It prints `checking` once the signal
 * watcher listens and the wait is about to begin: a Ctrl-C from then on
 * must still run the hooks and end the process.
 */
import { DatabaseSync } from "node:sqlite";
import {
  blockUntil,
  onExit,
  runExitHooksOnSignals,
} from "../../lib/base/exit_hooks.ts";
import { inspectBounded } from "../../lib/store/bounded.ts";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";

const [mark] = Deno.args;
runExitHooksOnSignals();
onExit(() => Deno.writeTextFileSync(mark, "hooks ran\n"));
const db = new DatabaseSync(":memory:");
db.exec(LEDGER_SCHEMA.create);
const image = db.serialize();
db.close();
// The first blocked wait starts the watcher; this one returns at once.
blockUntil(new Int32Array([1]), 0, 0);
console.log("checking");
const gate = new Int32Array(new SharedArrayBuffer(4));
const finding = inspectBounded(image, LEDGER_SCHEMA, {
  timeLimitMs: 10 * 60_000,
  gate,
});
console.log(JSON.stringify(finding));
