/**
 * Ctrl-C stops `reconcile` (issue 49: it ignored SIGINT while it walked
 * 200,000 drafts): the walk looks between its steps whether a signal came,
 * and ends the process there, the exit hooks first (every connection
 * closed, so the ledger is one file at rest), with 128 + the signal's
 * number.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CAN_RUN, NEEDS_RUN, signalledAt } from "../_helpers/spawn.ts";

const HELD = fileURLToPath(new URL("./held_reconcile.ts", import.meta.url));

Deno.test({
  name: "reconcile: a signal ends the walk at its next step" + NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    for (const [signal, exit] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
      await t.step(signal, async () => {
        const r = await signalledAt(HELD, "walking", signal);
        assert.equal(r.code, exit);
        assert.equal(r.after, "", "not done");
        assert.equal(r.mark, "hooks ran\n");
        assert.deepEqual(r.left, ["lab.sqlite", "mark"], "one file at rest");
      });
    }
  },
});
