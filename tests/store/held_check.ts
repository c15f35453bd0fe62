/**
 * A child process for `check_bounds_test.ts`: it handles signals as the
 * entry point does, registers an exit hook that leaves a mark at
 * `Deno.args[0]`, and opens a small ledger beside it whose check a gate
 * holds for as long as the process lives. It prints `checking` once the
 * signal watcher listens and the wait is about to begin: a Ctrl-C from
 * then on must still run the hooks and end the process.
 */
import { dirname, join } from "node:path";
import {
  blockUntil,
  onExit,
  runExitHooksOnSignals,
} from "../../lib/base/exit_hooks.ts";
import { openDatabase } from "../../lib/store/db.ts";
import { Ledger, LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";

const [mark] = Deno.args;
const dir = dirname(mark);
const path = join(dir, "lab.sqlite");
Ledger.open(path, { trusted: [dir] }).close();
runExitHooksOnSignals();
onExit(() => Deno.writeTextFileSync(mark, "hooks ran\n"));
// The first blocked wait starts the watcher; this one returns at once.
blockUntil(new Int32Array([1]), 0, 0);
console.log("checking");
const gate = new Int32Array(new SharedArrayBuffer(4));
openDatabase(path, LEDGER_SCHEMA, {
  mode: "read",
  trusted: [dir],
  bounds: { timeLimitMs: 10 * 60_000, gate },
}).close();
console.log("checked");
