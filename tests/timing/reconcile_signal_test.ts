/**
 * Ctrl-C stops `reconcile` (issue 49: it ignored SIGINT while it walked
 * 200,000 drafts): the walk looks between its steps whether a signal came,
 * and ends the process there, the exit hooks first (every connection
 * closed, so the ledger is one file at rest), with 128 + the signal's
 * number.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";

const HELD = fileURLToPath(new URL("./held_reconcile.ts", import.meta.url));

Deno.test({
  name: "reconcile: a signal ends the walk at its next step" + NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    for (const [signal, exit] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
      await t.step(signal, async () => {
        const dir = await Deno.makeTempDir({ prefix: "guardlab-walk-" });
        try {
          const mark = join(dir, "mark");
          const child = new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-q",
              "--allow-read",
              `--allow-write=${dir}`,
              HELD,
              mark,
            ],
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).spawn();
          const reader = child.stdout.getReader();
          let out = "";
          while (!out.includes("walking\n")) {
            const { value, done } = await reader.read();
            if (done) break;
            out += new TextDecoder().decode(value);
          }
          reader.releaseLock();
          assert.equal(out, "walking\n");
          child.kill(signal);
          const { code, stdout } = await child.output();
          assert.equal(code, exit);
          assert.equal(new TextDecoder().decode(stdout), "", "not done");
          assert.equal(await Deno.readTextFile(mark), "hooks ran\n");
          const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
          assert.deepEqual(left, ["lab.sqlite", "mark"], "one file at rest");
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  },
});
