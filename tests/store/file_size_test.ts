/**
 * A file size limit (`ulimit -f`) reached in the middle of a script: the
 * write that would pass it fails instead of SIGXFSZ killing the process on
 * the spot (exit 153 with no word, `-wal` and `-shm` left beside the
 * ledger). The process ends as on the other signals: every connection is
 * closed first, so the ledger is one whole file at rest, then one line
 * says why, and the exit is 153 (128 + SIGXFSZ). Until the signal is
 * handled (at the script's next turn of the event loop), each step that
 * could not be written says `database_error`. Limits of several sizes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli } from "../_helpers/helpers.ts";
import { runSteps } from "../_helpers/cli_fixtures.ts";
import { NEEDS_RUN, sandboxCommand } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/root.ts";
import { tempDir } from "../_helpers/tmp.ts";

const IGNORED = NEEDS_RUN ||
  (Deno.build.os === "windows" ? " [ignored: no ulimit on Windows]" : "");

/** 3,000 runs over 1,000 keys: far more than any of the limits holds. */
const STEPS = runSteps(3000);

Deno.test({
  name:
    "file size: a limit reached mid-script leaves one whole ledger and one line" +
    IGNORED,
  ignore: IGNORED !== "",
  async fn(t) {
    for (const kib of [64, 128, 256]) {
      await t.step(`ulimit -f ${kib}`, async () => {
        await using baseFolder = await tempDir("guardlab-fsize-");
        const base = baseFolder.path;
        const home = join(base, "home");
        await Deno.mkdir(home, { mode: 0o700 });
        const { program, args } = sandboxCommand();
        // stdout and stderr are pipes: only the files guardlab writes
        // meet the limit.
        const child = new Deno.Command("bash", {
          args: [
            "-c",
            `ulimit -f ${kib}; exec "$0" "$@"`,
            program,
            // Deno's own cache of compiled code is written at start, before
            // guardlab listens: the compiled binary writes none.
            args[0],
            "--no-code-cache",
            ...args.slice(1),
            "script",
            "--home",
            home,
            "--ledger",
            "l1",
          ],
          cwd: ROOT,
          env: { NO_COLOR: "1" },
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        // Written while the output is read: a pipe holds only so much.
        const output = child.output();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(STEPS)).catch(() => {});
        await writer.close().catch(() => {});
        const { code, stdout, stderr } = await output;
        const out = new TextDecoder().decode(stdout).split("\n")
          .filter((l) => l !== "");
        const err = new TextDecoder().decode(stderr).split("\n")
          .filter((l) => l !== "");
        assert.equal(code, 153, err.join("\n"));
        assert.deepEqual(err, [
          "guardlab: stopped: a write went past the file size limit " +
          "(ulimit -f); what was committed before it is kept",
        ]);
        // Each step the limit kept from being written says so; none
        // claims a write that did not happen (checked against the file).
        assert.ok(
          out.some((l) => l.includes('"database_error"')),
          "the failed write was reported",
        );
        const folder = join(home, "l1");
        const left = [...Deno.readDirSync(folder)].map((e) => e.name);
        assert.deepEqual(left, ["lab.sqlite"], "one file: no -wal, -shm");
        // The file is whole: guardlab's own check passes it, and every
        // run the script reported accepted is in it.
        const accepted = out.filter((l) => l.includes('"accepted"')).length;
        assert.ok(accepted > 0, "some runs were committed first");
        const r = await cli(
          ["ledger", "--home", home, "--ledger", "l1", "--json"],
          "",
          false,
          base,
        );
        assert.equal(r.code, 0, r.err.join("\n"));
        const { receipts } = JSON.parse(r.out[0]) as {
          receipts: { status: string }[];
        };
        assert.equal(
          receipts.filter((x) => x.status === "accepted").length,
          accepted,
        );
      });
    }
  },
});
