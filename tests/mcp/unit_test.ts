/**
 * The MCP pieces that need no subprocess: the line transport (every reply
 * to a bad line, the size limit, the drain before the close) and the faults
 * file (every bad field refused with its line number), plus `guardlab mcp`'s
 * refusals before any protocol starts.
 */
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { join } from "node:path";
import { LineTransport } from "../../lib/wire/line_transport.ts";
import { INVALID_REQUEST, PARSE_ERROR } from "../../lib/wire/message.ts";
import { BadFaultsFile, readFaults } from "../../lib/mcp/faults.ts";
import { assertUsageError, cli, TEST_BASE } from "../_helpers/helpers.ts";

function streamOf(...chunks: (string | Uint8Array)[]) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) {
        controller.enqueue(
          typeof c === "string" ? new TextEncoder().encode(c) : c,
        );
      }
      controller.close();
    },
  });
}

/** Run a transport over `input` to its close; returns what it wrote and passed on. */
async function through(
  input: ReadableStream<Uint8Array>,
  options: { maxBytes?: number; drain?: () => Promise<void> } = {},
) {
  const written: Record<string, unknown>[] = [];
  const passed: unknown[] = [];
  const t = new LineTransport({
    input,
    write: (line) => written.push(JSON.parse(line)),
    isMessage: (v) =>
      typeof v === "object" && v !== null && !Array.isArray(v) &&
      (v as { jsonrpc?: unknown }).jsonrpc === "2.0",
    ...options,
  });
  t.onmessage = (m) => passed.push(m);
  const closed = new Promise<void>((resolve) => (t.onclose = resolve));
  await t.start();
  await closed;
  return { written, passed, transport: t };
}

Deno.test("mcp transport: each bad line gets its JSON-RPC error and reading goes on", async () => {
  const { written, passed } = await through(streamOf(
    "not json\n",
    '{"id": 4, "x": 1}\n',
    "[1,2]\n",
    "\n",
    '{"jsonrpc":"2.0","id":5,"method":"ping"}\r\n',
  ));
  assert.deepEqual(
    written.map((w) => [w.id, (w.error as { code: number }).code]),
    [
      [null, PARSE_ERROR],
      [4, INVALID_REQUEST],
      [null, INVALID_REQUEST],
    ],
  );
  assert.deepEqual(passed, [{ jsonrpc: "2.0", id: 5, method: "ping" }]);
});

Deno.test("mcp transport: a message over the limit is refused as it streams, the next one is read", async () => {
  const big = new Uint8Array(5000).fill(0x61);
  const { written, passed } = await through(
    streamOf(
      '{"jsonrpc":"2.0","id":1,"method":"x","p":"',
      big,
      '"}\n',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    ),
    { maxBytes: 1024 },
  );
  assert.equal(written.length, 1);
  assert.equal((written[0].error as { code: number }).code, INVALID_REQUEST);
  assert.match(
    (written[0].error as { message: string }).message,
    /longer than 1024 bytes/,
  );
  assert.deepEqual(passed.map((m) => (m as { id: number }).id), [2]);
});

Deno.test("mcp transport: at the end of input the drain runs before the close, and nothing is written after", async () => {
  const order: string[] = [];
  const { transport, written } = await through(streamOf(""), {
    drain: async () => {
      await Promise.resolve();
      order.push("drain");
    },
  });
  order.push("closed");
  assert.deepEqual(order, ["drain", "closed"]);
  await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual(written, [], "a closed transport writes nothing");
});

async function faultsOf(text: string) {
  return await readFaults(streamOf(text));
}

Deno.test("mcp faults: a schedule by call number", async () => {
  const plan = await faultsOf(
    '{"call": 1, "hold_at": "after_commit", "hold_ms": 500}\n\n{"call": 3, "cancel_at": "after_business", "bad_output": false}\n{"call": 2, "fail_at": "inside_transaction", "audit_failure": true}\n',
  );
  assert.deepEqual(plan.lines.map((l) => [l.selector, l.faults, l.line]), [
    [{ call: 1 }, { holdAt: "after_commit", holdMs: 500 }, 1],
    [{ call: 3 }, { cancelAt: "after_business", badOutput: false }, 3],
    [{ call: 2 }, { failAt: "inside_transaction", auditFailure: true }, 4],
  ]);
  assert.deepEqual(plan.faultsFor(3, {}), {
    cancelAt: "after_business",
    badOutput: false,
  });
  assert.equal(plan.faultsFor(4, {}), undefined);
});

Deno.test("mcp faults: by key and for every call, for a client that makes one call per server (the Inspector's CLI)", async () => {
  const plan = await faultsOf([
    '{"call": 1, "job": "JOB-003", "fail_at": "after_commit"}',
    '{"job": "JOB-002", "bad_output": true}',
    '{"call": "every", "hold_at": "after_commit", "hold_ms": 5}',
  ].join("\n"));
  // The first line that picks a call wins.
  assert.deepEqual(plan.faultsFor(1, { job: "JOB-003" }), {
    failAt: "after_commit",
  });
  assert.deepEqual(plan.faultsFor(1, { job: "JOB-002" }), { badOutput: true });
  assert.deepEqual(plan.faultsFor(7, { job: "JOB-002" }), { badOutput: true });
  assert.deepEqual(plan.faultsFor(2, { job: "JOB-003" }), {
    holdAt: "after_commit",
    holdMs: 5,
  });
  assert.deepEqual(plan.faultsFor(1, "not an object"), {
    holdAt: "after_commit",
    holdMs: 5,
  });
});

Deno.test("mcp faults: every bad line is refused with its number and reason", async (t) => {
  const cases: [string, RegExp][] = [
    ["nope", /line 1: not JSON/],
    ["[1]", /line 1: must be a JSON object/],
    ['{"bad_output": true}', /needs "call" \(a number or "every"\), "job"/],
    ['{"call": "all"}', /"call" must be an integer from 1 .* or "every"/],
    ['{"job": "job-1"}', /"job" must be a business key/],
    ['{"job": 7, "call": 1}', /"job" must be a business key/],
    [
      '{"job": "JOB-001"}\n{"job": "JOB-001", "bad_output": true}',
      /line 2: job JOB-001 is scheduled twice/,
    ],
    [
      '{"call": "every"}\n{"call": "every", "bad_output": true}',
      /line 2: every call is scheduled twice/,
    ],
    ['{"call": 0}', /"call" must be an integer from 1/],
    ['{"call": 1.5}', /"call" must be an integer/],
    ['{"call": "1"}', /"call" must be an integer/],
    ['{"call": 1, "cancelAt": "x"}', /unknown field "cancelAt"/],
    [
      '{"call": 1, "cancel_at": "later"}',
      /cancel_at must be one of before_business/,
    ],
    ['{"call": 1, "fail_at": null}', /fail_at must be one of/],
    [
      '{"call": 1, "hold_at": "after_output_check"}',
      /hold_at must be one of before_business, after_commit/,
    ],
    ['{"call": 1, "bad_output": "yes"}', /bad_output must be true or false/],
    [
      '{"call": 1, "hold_at": "after_commit", "hold_ms": 0}',
      /hold_ms must be an integer from 1 to 600000/,
    ],
    [
      '{"call": 1, "hold_at": "after_commit", "hold_ms": 600001}',
      /hold_ms must be/,
    ],
    ['{"call": 1, "hold_ms": 5}', /hold_ms needs hold_at/],
    [
      '{"call": 1}\n{"call": 1, "bad_output": true}',
      /line 2: call 1 is scheduled twice/,
    ],
    [
      '{"call": 1, "x": "' + "y".repeat(5000) + '"}',
      /line 1: longer than 4096 bytes/,
    ],
  ];
  for (const [text, message] of cases) {
    await t.step(text.slice(0, 60), async () => {
      await assert.rejects(faultsOf(text), (e) => {
        assert.ok(e instanceof BadFaultsFile);
        assert.match(e.text.en, message);
        assert.match(e.text.zh, /^故障文件第 \d+ 行：/);
        return true;
      });
    });
  }
  await t.step("more than 1,000 lines", async () => {
    const lines = Array.from({ length: 1001 }, (_, i) => `{"call": ${i + 1}}`);
    await assert.rejects(
      faultsOf(lines.join("\n")),
      /line 1001: more than 1000 fault lines/,
    );
  });
});

Deno.test("mcp command: refusals before the protocol starts", async (t) => {
  const dir = Deno.makeTempDirSync({ dir: TEST_BASE, prefix: "faults-" });
  Deno.chmodSync(dir, 0o700);
  await t.step(
    "a bad faults file: exit 2, its line, nothing served",
    async () => {
      const file = join(dir, "bad.jsonl");
      Deno.writeTextFileSync(
        file,
        '{"call": 1}\n{"call": 2, "hold_at": "soon"}\n',
      );
      const r = await cli(["mcp", "--faults", file]);
      assertUsageError(r, /faults file line 2: field hold_at must be one of/);
    },
  );
  await t.step("a missing faults file: exit 1, one line", async () => {
    const r = await cli(["mcp", "--faults", join(dir, "absent.jsonl")]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.out, []);
    assert.equal(r.err.length, 1);
    assert.match(r.err[0], /cannot read faults from/);
  });
  await t.step("a faults file that is a link: refused, exit 4", async () => {
    const target = join(dir, "real.jsonl");
    Deno.writeTextFileSync(target, '{"call": 1}\n');
    const link = join(dir, "link.jsonl");
    Deno.symlinkSync(target, link);
    const r = await cli(["mcp", "--faults", link]);
    assert.equal(r.code, 4, r.err.join("\n"));
    assert.equal(r.err.length, 1);
  });
  await t.step("bad switches are usage errors", async () => {
    assertUsageError(
      await cli(["mcp", "--receipt", "sloppy"]),
      /--receipt must be one of checked, naive/,
    );
    assertUsageError(
      await cli(["mcp", "--input-guardrail", "later"]),
      /--input-guardrail must be one of sequential, parallel/,
    );
    assertUsageError(
      await cli(["mcp", "--ledger", "Bad/Name"]),
      /bad ledger name/,
    );
  });
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("mcp transport: while a message waits for room, nothing more is read; every message is handed on once it has room", async () => {
  const lines = [1, 2, 3].map((id) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call" }) + "\n"
  );
  let pulls = 0;
  const input = new ReadableStream<Uint8Array>({
    pull(controller) {
      // One message per chunk, read only when asked for.
      const next = lines[pulls++];
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  }, { highWaterMark: 0 });
  let room = () => {};
  const asked = Promise.withResolvers<void>();
  const passed: number[] = [];
  const t = new LineTransport({
    input,
    write: () => {},
    isMessage: () => true,
    admit: (value) => {
      if ((value as { id: number }).id !== 1) return undefined;
      asked.resolve();
      return new Promise<void>((resolve) => (room = resolve));
    },
  });
  t.onmessage = (m) => passed.push((m as { id: number }).id);
  const closed = new Promise<void>((resolve) => (t.onclose = resolve));
  await t.start();
  await asked.promise;
  const pullsWhenFull = pulls;
  // Many turns of the event loop later, still nothing more read or passed.
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  assert.equal(pulls, pullsWhenFull, "no read while there is no room");
  assert.deepEqual(passed, []);
  room();
  await closed;
  assert.deepEqual(passed, [1, 2, 3]);
});

Deno.test("mcp gate: 16 calls run at once; the next starts when one ends; a held call lends its place (at most 64)", async () => {
  const { CallGate, MAX_CALLS_IN_FLIGHT, MAX_CALLS_HELD } = await import(
    "../../lib/mcp/_gate.ts"
  );
  assert.equal(MAX_CALLS_IN_FLIGHT, 16);
  const gate = new CallGate();
  for (let i = 0; i < 16; i++) assert.equal(gate.admit(), undefined);
  let started = 0;
  const waiting = gate.admit()!.then(() => started++);
  await Promise.resolve();
  assert.equal(started, 0, "the 17th waits");
  gate.end();
  await waiting;
  assert.equal(started, 1);
  assert.equal(gate.running, 16);
  // Held calls lend their places, up to the limit of held ones.
  const small = new CallGate(2, 1);
  assert.equal(small.admit(), undefined);
  assert.equal(small.admit(), undefined);
  assert.equal(small.lend(), true, "the first held call lends its place");
  assert.equal(small.admit(), undefined, "so the next call runs at once");
  assert.equal(small.lend(), false, "past the held limit it keeps its place");
  assert.notEqual(small.admit(), undefined);
  small.reclaim();
  assert.equal(small.running, 3, "the held call goes on, past the limit");
  assert.ok(MAX_CALLS_HELD >= MAX_CALLS_IN_FLIGHT);
});

Deno.test("mcp hold: a hold whose cancel already arrived ends at once, and leaves no timer behind", async () => {
  const { hold } = await import("../../lib/mcp/server.ts");
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
    return "still waiting";
  };
  const aborted = AbortSignal.abort("the client gave up first");
  assert.equal(
    await Promise.race([hold(600_000, aborted).then(() => "ended"), turns(5)]),
    "ended",
  );
  // A cancel during the hold ends it too (the op sanitizer sees no timer left).
  const controller = new AbortController();
  const held = hold(600_000, controller.signal);
  controller.abort();
  await held;
});
