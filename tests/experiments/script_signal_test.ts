/**
 * `script` holds its JSON lines while the input has more ready, and writes
 * them when it would wait (lib/cli/commands/script/mod.ts). SIGTERM sent in
 * the middle of a long piped input must still find every line out: each
 * run whose receipt was committed is said, none that was not. (The runtime
 * reads its signals when the event loop waits, so this one lands at a
 * read; the SIGXFSZ let in mid-input is tests/store/file_size_test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runSteps } from "../_helpers/cli_fixtures.ts";
import { NEEDS_RUN, startGuardlab } from "../_helpers/spawn.ts";
import { persistedCounts } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** One block of the input; the feeder writes it again and again. */
const BLOCK = new TextEncoder().encode(runSteps(500));

Deno.test({
  name:
    "script: SIGTERM in the middle of a piped input, every committed run is said" +
    NEEDS_RUN,
  ignore: NEEDS_RUN !== "" || Deno.build.os === "windows",
  async fn() {
    await using homeFolder = await tempDir("guardlab-sigterm-");
    const home = homeFolder.path;
    await Deno.chmod(home, 0o700);
    // The ledger exists before the watch starts: its folder is watched.
    const first = startGuardlab(["script", "--home", home, "--ledger", "s"]);
    const w = first.stdin.getWriter();
    await w.write(new TextEncoder().encode('{"op":"count"}\n'));
    await w.close();
    assert.equal((await first.output()).code, 0);
    const folder = join(home, "s");
    const watcher = Deno.watchFs(folder);
    const child = startGuardlab(["script", "--home", home, "--ledger", "s"]);
    const output = child.output();
    const writer = child.stdin.getWriter();
    // The input never ends: blocks are written until the child is gone, so
    // the signal comes in the middle of it however fast the runs go (a
    // fixed input of 3,000 runs could all be committed before a loaded
    // machine delivered the watch's event).
    let fed = 0;
    const feeding = (async () => {
      try {
        for (;;) {
          await writer.write(BLOCK);
          fed += 500;
        }
      } catch {
        // The child is gone: its input is closed.
      }
    })();
    // The first write of the log: runs are being committed.
    for await (const event of watcher) {
      if (event.paths.some((p) => p.endsWith("lab.sqlite-wal"))) break;
    }
    watcher.close();
    child.kill("SIGTERM");
    const { code, stdout } = await output;
    await feeding;
    assert.equal(code, 143);
    const said = new TextDecoder().decode(stdout).split("\n")
      .filter((l) => l.includes('"status":"accepted"')).length;
    const [, receipts] = persistedCounts(join(folder, "lab.sqlite"));
    assert.ok(
      receipts < fed + 500,
      `the signal came mid-input (${receipts} of ${fed} fed)`,
    );

    assert.equal(said, receipts);
  },
});
