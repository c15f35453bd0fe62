/**
 * A FILE the user names that is missing, or a folder: every command that
 * reads one says the same one line (`lib/cli/user_file.ts`), naming what
 * the file should have held, and exits 1 with nothing on stdout; the name
 * is shown quoted and inert (a control character escaped, not sent to the
 * terminal).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, TEST_BASE } from "../_helpers/helpers.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";

const missing = join(TEST_BASE, "not-there.jsonl");

/**
 * Each command's call with FILE, and what it says the file should have held
 * (`run`: the call needs the engineer grant's --allow-run).
 */
const READERS: {
  args: (file: string) => string[];
  en: string;
  zh: string;
  run?: true;
}[] = [
  { args: (f) => ["script", f], en: "steps", zh: "步骤" },
  {
    args: (f) => ["mcp", "--faults", f],
    en: "faults",
    zh: "故障",
  },
  {
    args: (f) => ["exercise", "check", "1", f],
    en: "an answer",
    zh: "答案",
  },
  {
    args: (f) => ["exercise", "list", "--course", f],
    en: "a course",
    zh: "课程",
  },
  {
    args: (f) => ["accept", "--oracle", f, "--", "true"],
    en: "the oracle",
    zh: "该 oracle 文件",
    run: true,
  },
  { args: (f) => ["proxy", "show", f], en: "a record", zh: "记录" },
];

Deno.test("user file: missing or a folder, every command says the same one line and exits 1", async (t) => {
  for (const reader of READERS) {
    await t.step({
      name: reader.args("FILE").join(" ") +
        (reader.run && !CAN_RUN
          ? " [ignored: accept reads its oracle only under the engineer grant, which needs --allow-run; run `deno task test`]"
          : ""),
      ignore: reader.run && !CAN_RUN,
      fn: async () => {
        for (const file of [missing, TEST_BASE]) {
          const en = await cli(reader.args(file));
          assert.equal(en.code, 1, en.err.join("\n"));
          assert.deepEqual(en.out, []);
          assert.deepEqual(en.err, [
            `guardlab: cannot read ${reader.en} from ${
              JSON.stringify(file)
            }: not a readable file`,
          ]);
          const zh = await cli(["--lang", "zh", ...reader.args(file)]);
          assert.equal(zh.code, 1);
          assert.deepEqual(zh.err, [
            `guardlab: 无法从 ${
              JSON.stringify(file)
            } 读取${reader.zh}：不是可读的文件`,
          ]);
        }
      },
    });
  }
});

Deno.test("user file: a control character in the name is shown escaped", async () => {
  // U+009B is a one-byte CSI on a terminal that takes C1 controls.
  const odd = join(TEST_BASE, "a\u009b2Jb");
  const r = await cli(["script", odd]);
  assert.equal(r.code, 1);
  assert.equal(r.err.length, 1);
  assert.ok(!r.err[0].includes("\u009b"), r.err[0]);
  assert.ok(r.err[0].includes("a\\u009b2Jb"), r.err[0]);
});
