/**
 * A view's memory does not grow with the ledger (issue 49): every view of a
 * ledger of your own, opened on its proof, holds what it shows and the keys
 * of one range of the drafts' index, whatever the ledger holds. Measured as
 * the peak resident size of the view's process against the same view of a
 * ledger of one receipt, on smaller stand-ins for the red team's ledgers
 * (which `deno task bench:bounds` measures at full size): 300,000 attempts
 * for 3,000,000 (1.89 GB before), 300,000 drafts no receipt records for
 * 1,000,000 (619 MB before), and one draft whose body is a JSON object of
 * 2,000,000 members, 40 MB, for the 120 MB one that drove `ledger` to
 * 3.2 GB and the out-of-memory kill.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CAN_RUN, NEEDS_RUN, sandboxCommand } from "../_helpers/spawn.ts";
import { fillLedger, type Kind } from "../../scripts/bench/big_ledgers.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TIME = "/usr/bin/time";
const HAS_TIME = (() => {
  try {
    return Deno.statSync(TIME).isFile;
  } catch {
    return false;
  }
})();

/**
 * The most a view of a big ledger may take against the same view of one
 * receipt. What it holds besides its own start is bounded by the view's
 * bound and the keys of one range (`MAX_HELD_KEY_CHARS`): a ratio, so that
 * the test says the same on any machine.
 */
const BOUND = 2;

/** The stand-ins: name, kind, rows. */
const LEDGERS: readonly [string, Kind, number][] = [
  ["attempts", "attempts", 300_000],
  ["drafts", "drafts", 300_000],
  ["object", "object", 2_000_000],
];

/** Stands for a new file's name in a view's flags (each run writes its own). */
const NEW_FILE = "{new file}";

const VIEWS: readonly string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "json"],
  // The trace is made from the same bounded reading as the screen.
  ["ledger", "--timeline", "--otlp", NEW_FILE],
  ["reconcile", "--json"],
];

const RUN = ["run", "--job", "JOB-001", "--topic", "river", "--copies", "2"];

/** guardlab's run of `args`, its exit code and its peak resident size in KiB. */
async function peak(args: string[]): Promise<{ code: number; kib: number }> {
  const { program, args: flags } = sandboxCommand();
  const { code, stderr } = await new Deno.Command(TIME, {
    args: ["-f", "\n%M", program, ...flags, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const lines = new TextDecoder().decode(stderr).trimEnd().split("\n");
  return { code, kib: Number(lines.at(-1)) };
}

const IGNORED = !CAN_RUN
  ? NEEDS_RUN
  : HAS_TIME
  ? ""
  : ` [ignored: ${TIME} is missing, so a peak memory cannot be read]`;

Deno.test({
  name: "view memory: every view of a big ledger of your own within " +
    `${BOUND}× the same view of one receipt` + IGNORED,
  ignore: IGNORED !== "",
  async fn(t) {
    const home = await Deno.makeTempDir({ prefix: "gl-memory-" });
    try {
      await Deno.chmod(home, 0o700);
      const at = (name: string) => ["--home", home, "--ledger", name];
      for (const name of ["small", ...LEDGERS.map(([name]) => name)]) {
        assert.equal((await peak([...RUN, ...at(name)])).code, 0);
      }
      for (const [name, kind, rows] of LEDGERS) {
        fillLedger(join(home, name, "lab.sqlite"), kind, rows);
        // Checked in full once, and sealed, by guardlab's own run.
        assert.equal((await peak([...RUN, ...at(name)])).code, 0);
      }
      let files = 0;
      const fresh = (view: readonly string[]) =>
        view.map((a) => a === NEW_FILE ? join(home, `${++files}.jsonl`) : a);
      for (const flags of VIEWS) {
        await t.step(flags.join(" "), async () => {
          const view = fresh(flags);
          const small = await peak([...view, ...at("small")]);
          assert.equal(small.code, 0);
          for (const [name] of LEDGERS) {
            const big = await peak([...fresh(flags), ...at(name)]);
            assert.ok(big.code === 0 || big.code === 3, `${name}: ${big.code}`);
            assert.ok(
              big.kib <= BOUND * small.kib,
              `${name}: ${big.kib} KiB against ${small.kib} KiB`,
            );
          }
        });
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
