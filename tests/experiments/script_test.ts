import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { ledgerPaths, removeLedger } from "../../lib/sandbox/sandbox.ts";
import { type Line, linesOf, MAX_LINE_BYTES } from "../../lib/base/lines.ts";
import { persistedCounts, TEST_BASE, TEST_ROOT } from "../_helpers/helpers.ts";

const SCRIPTS = fileURLToPath(
  new URL("../../fixtures/scripts/", import.meta.url),
);

const names = [...Deno.readDirSync(SCRIPTS)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".jsonl") && !n.endsWith(".expected.jsonl"))
  .sort();

Deno.test("script: the hand-written example scripts", async (t) => {
  assert.ok(names.length >= 5, "the example scripts are found");
  for (const name of names) {
    await t.step(name, async () => {
      const input = await Deno.readTextFile(join(SCRIPTS, name));
      const expectedLines = (await Deno.readTextFile(
        join(SCRIPTS, name.replace(/\.jsonl$/, ".expected.jsonl")),
      )).split("\n").filter((l) => l.trim() !== "");
      const io = memoryIo(input, false, TEST_BASE);
      const code = await main(["script"], io);
      // Compact, in the contract's key order: compare the exact text.
      assert.deepEqual(
        io.stdout,
        expectedLines.map((l) => JSON.stringify(JSON.parse(l))),
      );
      const invalid = expectedLines.some((l) =>
        JSON.parse(l).raised === "invalid_step"
      );
      assert.equal(code, invalid ? 1 : 0);
      assert.deepEqual(io.stderr, []);
    });
  }
});

Deno.test("script: state outlives the command in a named ledger", async () => {
  const name = `t-script-${crypto.randomUUID().slice(0, 6)}`;
  try {
    const run =
      '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2},' +
      '"faults":{"bad_output":true}}\n{"op":"policy.change","max_copies":2}\n';
    let io = memoryIo(run, false, TEST_BASE);
    assert.equal(await main(["script", "--ledger", name], io), 0);
    io = memoryIo(
      '{"op":"count"}\n{"op":"policy.precheck","job":"JOB-001","copies":2}\n',
      false,
      TEST_BASE,
    );
    assert.equal(await main(["script", "--ledger", name], io), 0);
    assert.deepEqual(io.stdout, [
      '{"drafts":1,"receipts":1}',
      '{"snapshot":{"revision":2,"max_copies":2}}',
    ]);
    assert.deepEqual(persistedCounts(ledgerPaths(TEST_ROOT, name).lab), [1, 1]);
    const reconcile = memoryIo("", false, TEST_BASE);
    assert.equal(await main(["reconcile", "--ledger", name], reconcile), 3);
  } finally {
    removeLedger(TEST_ROOT, name);
  }
});

Deno.test("script: odd input never crashes", async (t) => {
  const cases: [string, string][] = [
    ["empty input", ""],
    ["blank lines only", "\n\n  \r\n"],
    ["CRLF line endings", '{"op":"count"}\r\n'],
    ["no final newline", '{"op":"count"}'],
    ["deeply nested", "[".repeat(5000)],
    ["op of the wrong type", '{"op":7}'],
    ["__proto__ step", '{"__proto__":{"op":"count"}}'],
  ];
  for (const [label, input] of cases) {
    await t.step(label, async () => {
      const io = memoryIo(input, false, TEST_BASE);
      const code = await main(["script"], io);
      assert.ok(code === 0 || code === 1);
      for (const line of io.stdout) JSON.parse(line);
      assert.deepEqual(io.stderr, []);
    });
  }
});

Deno.test("script: bytes that are not UTF-8 become one invalid step", async () => {
  const bytes = new Uint8Array([
    0xff,
    0xfe,
    0x7b,
    0x0a,
    ...new TextEncoder().encode('{"op":"count"}\n'),
  ]);
  const io = memoryIo(bytes, false, TEST_BASE);
  assert.equal(await main(["script"], io), 1);
  assert.deepEqual(io.stdout, [
    '{"raised":"invalid_step","message":"line 1: not JSON"}',
    '{"drafts":0,"receipts":0}',
  ]);
});

Deno.test("script: lines are split exactly, and an overlong line is refused alone", async (t) => {
  const chunks = (...parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });
  const collect = async (stream: ReadableStream<Uint8Array>, max?: number) => {
    const seen: Line[] = [];
    for await (const line of linesOf(stream, max)) seen.push(line);
    return seen;
  };
  await t.step(
    "CRLF, split across chunks, and a last line without LF",
    async () => {
      assert.deepEqual(
        await collect(chunks("a\r", "\nb", "c\r\n", "\n中", "文")),
        [
          { number: 1, text: "a" },
          { number: 2, text: "bc" },
          { number: 3, text: "" },
          { number: 4, text: "中文" },
        ],
      );
    },
  );
  await t.step("a CR inside a line is kept", async () => {
    assert.deepEqual(await collect(chunks("a\rb\n")), [
      { number: 1, text: "a\rb" },
    ]);
  });
  await t.step("a line over the limit, across chunks", async () => {
    assert.deepEqual(await collect(chunks("12345", "678\nok\n9"), 6), [
      { number: 1, tooLong: true },
      { number: 2, text: "ok" },
      { number: 3, text: "9" },
    ]);
  });
  await t.step("through the CLI: the next step still runs", async () => {
    const huge = "x".repeat(MAX_LINE_BYTES + 10);
    const io = memoryIo(`${huge}\n{"op":"count"}\n`, false, TEST_BASE);
    assert.equal(await main(["script"], io), 1);
    assert.deepEqual(io.stdout, [
      `{"raised":"invalid_step","message":"line 1: longer than ${MAX_LINE_BYTES} bytes"}`,
      '{"drafts":0,"receipts":0}',
    ]);
  });
});

Deno.test("script: --view tells each step in words on stdout, and prints no JSON (issue 29, item 12)", async () => {
  const steps = [
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
    '{"op":"count"}',
    "nope",
    '{"op":"policy.precheck","job":"JOB-002","copies":1,"as":"s"}',
    '{"op":"policy.rows"}',
  ].join("\n");
  const io = memoryIo(steps, false, TEST_BASE);
  assert.equal(await main(["script", "--view"], io), 1, "one invalid step");
  assert.deepEqual(io.stderr, []);
  assert.ok(!io.stdout.some((l) => /[{[]"/.test(l)), io.stdout.join("\n"));
  assert.deepEqual(io.stdout, [
    "line 1: run JOB-001",
    "  arguments valid  [ok] passed",
    "  input check      [ok] passed",
    "  business         [ok] passed       new draft committed",
    "  --- commit point: draft committed; no later check can undo it --------------",
    "  output check     [ok] passed",
    "  receipt          [ok] passed       #1 accepted",
    "  ledger: draft present, receipt #1 accepted",
    "  caller received: the checked value",
    "line 2: count",
    "  drafts    1",
    "  receipts  1",
    "line 3: not JSON",
    "  reader (check, then write)            | editor (changes the rule)",
    "  --------------------------------------+-------------------------------------",
    "  pre-check JOB-002 ×1: saw revision    |",
    "    1, limit 3: allowed                 |",
    "                                        | drafts: none",
  ]);
  // Without --view: one JSON line a step, for a program.
  const plain = memoryIo(steps, false, TEST_BASE);
  assert.equal(await main(["script"], plain), 1);
  assert.equal(plain.stdout.length, 5);
  assert.ok(plain.stdout.every((l) => l.startsWith("{")));
});

Deno.test("script: a FILE inside the sandbox is read", async () => {
  const dir = await Deno.makeTempDir({
    dir: TEST_BASE,
    prefix: "guardlab-steps-",
  });
  try {
    const file = join(dir, "steps.jsonl");
    await Deno.writeTextFile(file, '{"op":"count"}\n');
    const io = memoryIo("", false, TEST_BASE);
    assert.equal(await main(["script", file], io), 0);
    assert.deepEqual(io.stdout, ['{"drafts":0,"receipts":0}']);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("script: a step's line is out before guardlab waits for the next step", async () => {
  // Each read gives one step, as a person or an agent that waits for the
  // answer does; at each read, every step sent so far has had its line.
  const steps = [
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}\n',
    '{"op":"count"}\n',
    '{"op":"nope"}\n',
  ];
  const linesAtRead: number[] = [];
  const io = memoryIo("", false, TEST_BASE);
  io.stdin = () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        linesAtRead.push(io.stdout.length);
        const step = steps.shift();
        if (step === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(step));
      },
    }, { highWaterMark: 0 });
  assert.equal(await main(["script"], io), 1);
  assert.deepEqual(linesAtRead, [0, 1, 2, 3]);
  assert.equal(io.stdout.length, 3);
  assert.match(io.stdout[0], /"status":"accepted"/);
  assert.equal(io.stdout[1], '{"drafts":1,"receipts":1}');
  assert.match(io.stdout[2], /"raised":"invalid_step"/);
});
