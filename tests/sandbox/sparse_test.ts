/**
 * Every input is bounded before it is read: a sparse file costs a
 * classmate nothing on disk (`truncate`), so a terabyte of zeros as a
 * script FILE or an `mcp --faults` FILE is refused by its size in one line
 * before a byte is read, the same bytes on stdin are read only up to the
 * line bound, and a gigabyte `settings.json` or `exercises.json` under
 * `--home` is passed over by its size instead of read whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { memoryIo } from "../../lib/cli/io.ts";
import { main } from "../../main.ts";
import { MAX_LINE_BYTES, SKIP_FACTOR } from "../../lib/base/lines.ts";
import { MAX_INPUT_FILE_BYTES } from "../../lib/sandbox/plain_file.ts";
import { readPrivateJson } from "../../lib/sandbox/private_file.ts";
import { cli } from "../_helpers/helpers.ts";
import { assertRefused, sharedPlace } from "../_helpers/sandbox_fixtures.ts";

const TIB = 2 ** 40;
const GIB = 2 ** 30;

/** A sparse file of `size` zero bytes, or `head` then zeros. */
function sparse(path: string, size: number, head = ""): void {
  Deno.writeTextFileSync(path, head, { mode: 0o600 });
  Deno.truncateSync(path, size);
}

Deno.test("sparse: a terabyte FILE is refused by its size, before it is read", async (t) => {
  await using p = await sharedPlace();
  const mine = join(p.base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  for (const size of [TIB, MAX_INPUT_FILE_BYTES + 1]) {
    const file = join(mine, `steps-${size}.jsonl`);
    sparse(file, size, '{"op":"count"}\n');
    const why = new RegExp(
      `steps-${size}\\.jsonl is too large to read \\(${size} bytes; guardlab reads at most ${MAX_INPUT_FILE_BYTES} bytes`,
    );
    await t.step(`script FILE, ${size} bytes`, async () => {
      assertRefused(await cli(["script", file], "", false, p.base), why);
    });
    await t.step(`mcp --faults FILE, ${size} bytes`, async () => {
      assertRefused(
        await cli(["mcp", "--faults", file], "", false, p.base),
        why,
      );
    });
    await t.step(`exercise check FILE, ${size} bytes`, async () => {
      const r = await cli(["exercise", "check", "1", file], "", false, p.base);
      assert.equal(r.code, 4, r.err.join("\n"));
      assert.match(r.err.join("\n"), /too large/);
    });
  }
  await t.step("a FILE right at the limit is read", async () => {
    const file = join(mine, "at-limit.jsonl");
    sparse(file, MAX_INPUT_FILE_BYTES, '{"op":"count"}\n');
    const r = await cli(["script", file], "", false, p.base);
    assert.equal(r.code, 1, "the zeros after the step are one invalid line");
    assert.equal(r.out[0], '{"drafts":0,"receipts":0}');
  });
});

Deno.test("sparse: a terabyte on stdin is read only up to the line bound", async () => {
  await using p = await sharedPlace();
  let pulled = 0;
  const io = {
    ...memoryIo("", false, p.base),
    stdin: () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          // A guard, not a measure: the sparse file's first gigabyte.
          if (pulled > GIB) return controller.error(new Error("read 1 GiB"));
          pulled += 1 << 16;
          controller.enqueue(new Uint8Array(1 << 16));
        },
      }, { highWaterMark: 0 }),
  };
  assert.equal(await main(["script"], io), 1);
  assert.deepEqual(io.stdout, [
    `{"raised":"invalid_step","message":"line 1: longer than ${MAX_LINE_BYTES} bytes"}`,
  ]);
  assert.ok(pulled <= MAX_LINE_BYTES * (SKIP_FACTOR + 1), `${pulled}`);
});

Deno.test("sparse: a huge settings or progress file under --home is passed over unread", async (t) => {
  await using p = await sharedPlace();
  const home = join(p.base, "home");
  await Deno.mkdir(home, { mode: 0o700 });
  for (const size of [GIB, TIB]) {
    await t.step(`settings.json, ${size} bytes`, async () => {
      sparse(join(home, "settings.json"), size, '{"lang":"zh"}');
      const before = Deno.memoryUsage().rss;
      const r = await cli(["config", "--home", home], "", false, p.base);
      assert.equal(r.code, 0, r.err.join("\n"));
      assert.equal(
        readPrivateJson({ base: p.base, home }, "settings.json", 4096),
        undefined,
      );
      // Not read whole: resident memory did not grow by the file.
      assert.ok(Deno.memoryUsage().rss - before < 256 << 20);
    });
    await t.step(`exercises.json, ${size} bytes`, async () => {
      sparse(join(home, "exercises.json"), size, "{}");
      const r = await cli(
        ["exercise", "progress", "--home", home],
        "",
        false,
        p.base,
      );
      assert.notEqual(r.code, 1, r.err.join("\n"));
      assert.doesNotMatch(r.err.join("\n"), /internal error/);
    });
  }
});
