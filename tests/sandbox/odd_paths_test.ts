/**
 * Odd paths and spent limits end in one line and exit 4, never "internal
 * error": a name past the system's limit (a component over 255 bytes, a
 * path over PATH_MAX), a path through a file (ENOTDIR), at every command
 * that takes a path; and a process left with too few file descriptors
 * (`ulimit -n`) says so, instead of calling the ledger "not a usable SQLite
 * ledger" or ending without a word.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli } from "../_helpers/helpers.ts";
import { assertRefused, sharedPlace } from "../_helpers/sandbox_fixtures.ts";
import { NEEDS_RUN, sandboxCommand } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/root.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);

/** Each command that takes a path, with the path put where `at` says. */
function commands(at: (name: string) => string): string[][] {
  return [
    ["ledger", "--ledger-file", at("lab.sqlite")],
    ["ledger", "--ledger-file", at("lab.sqlite"), "--json"],
    ["reconcile", "--ledger-file", at("lab.sqlite")],
    ["run", "--ledger-file", at("lab.sqlite"), ...runFlags()],
    ["compensate", "--ledger-file", at("lab.sqlite"), "--job", "JOB-001"],
    ["script", at("steps.jsonl")],
    ["mcp", "--faults", at("faults.jsonl")],
    ["exercise", "check", "1", at("answer.jsonl")],
    ["run", "--home", at("home"), "--ledger", "x", ...runFlags()],
    ["ledger", "--home", at("home"), "--ledger", "x"],
  ];
}

Deno.test("odd paths: too long for the system, or through a file", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const file = join(mine, "a-file");
  await Deno.writeTextFile(file, "x");
  const cases: [string, (name: string) => string, RegExp][] = [
    [
      "a name over 255 bytes",
      (name) => join(mine, "n".repeat(300), name),
      /is too long a path for this system/,
    ],
    [
      "a path over PATH_MAX",
      (name) => join(mine, ...Array(30).fill("d".repeat(200)), name),
      // The first folder that is not there is named, or the length.
      /is too long a path for this system|\/d{200} does not exist/,
    ],
    [
      "a file where a folder belongs",
      (name) => join(file, name),
      /cannot be reached: a part of its path is a file|is not a folder/,
    ],
    [
      "a file two folders up",
      (name) => join(file, "deeper", name),
      /cannot be reached: a part of its path is a file|is not a folder/,
    ],
  ];
  for (const [label, at, why] of cases) {
    for (const args of commands(at)) {
      await t.step(`${label}: ${args[0]} ${args[1]}`, async () => {
        for (const lang of ["en", "zh"]) {
          const r = await cli([...args, "--lang", lang], "", false, p.base);
          if (lang === "en") assertRefused(r, why);
          else {
            assert.equal(r.code, 4, r.err.join("\n"));
            assert.equal(r.err.length, 1, r.err.join("\n"));
            assert.doesNotMatch(r.err[0], /internal error|内部错误/);
          }
        }
      });
    }
  }
});

Deno.test({
  name: "odd paths: too few file descriptors is said in one line" + NEEDS_RUN,
  ignore: NEEDS_RUN !== "" || Deno.build.os === "windows",
  async fn(t) {
    await using p = await sharedPlace();
    const mine = join(p.base, "mine");
    await Deno.mkdir(mine, { mode: 0o700 });
    const ledger = join(mine, "lab.sqlite");
    await Deno.copyFile(REFERENCE_LEDGER, ledger);
    await Deno.chmod(ledger, 0o600);
    const { program, args } = sandboxCommand();
    // Below about 24, Deno itself cannot start (it panics before guardlab
    // runs a line): the limits here are ones guardlab gets to see.
    for (const limit of [24, 28, 32]) {
      for (
        const command of [
          ["ledger", "--ledger-file", ledger],
          ["reconcile", "--ledger-file", ledger],
          ["run", "--ledger-file", ledger, ...runFlags()],
        ]
      ) {
        await t.step(`ulimit -n ${limit}: ${command[0]}`, async () => {
          const { code, stdout, stderr } = await new Deno.Command("bash", {
            args: [
              "-c",
              // Descriptors this process inherited (a merge lock's, a
              // terminal's) would count against the limit: closed first.
              'for fd in /dev/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && ' +
              `eval "exec $fd>&-"; done; ulimit -n ${limit}; exec "$0" "$@"`,
              program,
              ...args,
              ...command,
            ],
            cwd: ROOT,
            env: { NO_COLOR: "1" },
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).output();
          const err = new TextDecoder().decode(stderr).trimEnd().split("\n");
          assert.equal(code, 4, err.join("\n"));
          assert.equal(new TextDecoder().decode(stdout), "");
          assert.equal(err.length, 1, err.join("\n"));
          assert.match(
            err[0],
            /^guardlab: refused: .*lab\.sqlite cannot be opened: guardlab ran out of file descriptors \(the limit of open files, ulimit -n, is too low\); raise the limit and try again$/,
          );
        });
      }
    }
  },
});
