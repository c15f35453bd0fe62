/**
 * The CLI run as a user runs it: a subprocess under exactly the permission
 * flags of the `guardlab` task in deno.json (the flags the binary is compiled
 * with). Spawning needs --allow-run, which `deno task test` grants.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertUsageError } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import { SANDBOX_ROOT } from "../../lib/sandbox/sandbox.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const WHY = NEEDS_RUN;
const OUTSIDE = Deno.build.os === "windows" ? "C:\\" : "/";

Deno.test({
  name: "sandbox: the CLI under the sandbox flags" + WHY,
  ignore: !CAN_RUN,
  async fn(t) {
    await t.step("verify passes", async () => {
      const r = await spawnGuardlab(["verify"]);
      assert.equal(r.code, 0, r.err.join("\n"));
      assert.match(
        r.out.at(-1)!,
        /^all 21 checks of the 14 scenarios match the expected answers$/,
      );
    });

    await t.step(
      "the process can touch nothing but the sandbox root",
      async () => {
        const r = await spawnGuardlab(["sandbox", "--json"]);
        assert.equal(r.code, 0, r.out.join("\n"));
        const report = JSON.parse(r.out[0]);
        assert.equal(report.narrow, true);
        for (const what of ["net", "env", "run", "ffi", "sys", "import"]) {
          const probe = report.probes.find((p: { what: string }) =>
            p.what === what
          );
          assert.notEqual(probe.state, "granted", what);
        }
      },
    );

    await t.step(
      "a ledger outside the temp dir is refused with one line, nothing written",
      async () => {
        // The file system root is outside the sandbox wherever the checkout is
        // (a clone under /tmp would be inside it).
        const outside = join(
          OUTSIDE,
          `guardlab-outside-probe-${crypto.randomUUID()}.sqlite`,
        );
        assert.ok(!outside.startsWith(SANDBOX_ROOT));
        const r = await spawnGuardlab([
          "run",
          "--ledger-file",
          outside,
          ...runFlags({ copies: 1 }),
        ]);
        assert.equal(r.code, 4);
        assert.equal(r.out.length, 0);
        assert.equal(r.err.length, 1, r.err.join("\n"));
        assert.match(
          r.err[0],
          /^guardlab: refused by the sandbox: (read|write) access to ".*outside-probe-[0-9a-f-]+\.sqlite"/,
        );
        await assert.rejects(Deno.stat(outside), Deno.errors.NotFound);
      },
    );

    await t.step(
      "a script FILE outside the temp dir is refused with a hint",
      async () => {
        const r = await spawnGuardlab([
          "script",
          join(OUTSIDE, "etc", "hosts"),
        ]);
        assert.equal(r.code, 4);
        assert.equal(r.err.length, 1);
        assert.match(
          r.err[0],
          /refused by the sandbox: read access .*pipe it instead: guardlab script < FILE/,
        );
      },
    );

    await t.step("usage errors: one line and usage, exit 2", async () => {
      for (
        const args of [["nonsense"], ["demo", "--bogus"], ["demo", "nonsense"]]
      ) {
        assertUsageError(await spawnGuardlab(args));
      }
    });

    await t.step(
      "script reads stdin and streams one line per step",
      async () => {
        const r = await spawnGuardlab(["script"], '{"op":"count"}\nnope\n');
        assert.equal(r.code, 1);
        assert.deepEqual(r.out, [
          '{"drafts":0,"receipts":0}',
          '{"raised":"invalid_step","message":"line 2: not JSON"}',
        ]);
      },
    );
  },
});
