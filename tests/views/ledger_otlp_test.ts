/**
 * `ledger --timeline --otlp FILE`: a fixture session (two runs, then an
 * agent's MCP session of a write, a read and a cancelled retry) written to
 * a ledger, its rows of the MCP session put there by hand through a second
 * connection with times chosen here; the file decoded with OpenTelemetry's
 * own classes and each span, event and attribute checked against the
 * timeline written below by hand.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ledgerPaths } from "../../lib/sandbox/sandbox.ts";
import { CREATE_CALL_TABLES_IF_MISSING } from "../../lib/timing/call_schema.ts";
import { assertUsageError, cli, TEST_ROOT } from "../_helpers/helpers.ts";
import { withLedger } from "../_helpers/cli_fixtures.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";
import { CAN_RUN, NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import {
  attributesOf,
  type DecodedSpan,
  decodeOtlpFile,
  spansOf,
} from "../_helpers/otlp.ts";

/** When the agent's session started, in microseconds since the epoch. */
const T0 = 1_765_000_000_000_000;
/** `us` microseconds after {@linkcode T0}, as OTLP writes it (nanoseconds). */
const at = (us: number) => String(BigInt(T0 + us) * 1000n);
/** `ns` nanoseconds after `T0 + us`. */
const atNs = (us: number, ns: number) =>
  String(BigInt(T0 + us) * 1000n + BigInt(ns));

/**
 * The session: `run` commits JOB-001 and JOB-002 (#1, #2), then a cancel
 * after commit on JOB-002 reuses its draft (#3); the agent's MCP session
 * made #2 (call 1), read the ledger (call 2), made #3 (call 3).
 */
async function fixture(name: string): Promise<string> {
  for (
    const extra of [
      [...runFlags()],
      [...runFlags({ job: "JOB-002" })],
      [...runFlags({ job: "JOB-002" }), "--cancel-at", "after_business"],
    ]
  ) {
    const r = await cli(["run", "--ledger", name, ...extra]);
    assert.ok(r.code === 0 || r.code === 1, r.err.join("\n"));
  }
  const path = ledgerPaths(TEST_ROOT, name).lab;
  const db = new DatabaseSync(path);
  try {
    db.exec(CREATE_CALL_TABLES_IF_MISSING);
    db.prepare("INSERT INTO mcp_sessions VALUES(1, 'agent-x 1.0', ?)").run(T0);
    const call = db.prepare(
      "INSERT INTO mcp_calls VALUES(1, ?, ?, ?, ?, ?, ?)",
    );
    call.run(1, "create_draft", "JOB-002", 2, T0 + 1000, T0 + 5000);
    call.run(2, "ledger", "JOB-002", null, T0 + 6000, T0 + 6500);
    call.run(3, "create_draft", "JOB-002", 3, T0 + 7000, T0 + 9000);
  } finally {
    db.close();
  }
  return path;
}

/**
 * `ledger --ledger NAME --timeline --otlp FILE` (and `extra` flags) in
 * process: the screen, and the file's spans as OpenTelemetry's classes
 * decode them.
 */
async function exported(
  name: string,
  file: string,
  extra: string[] = [],
): Promise<{ out: string[]; text: string; spans: DecodedSpan[] }> {
  const r = await cli([
    "ledger",
    "--ledger",
    name,
    "--timeline",
    "--otlp",
    file,
    ...extra,
  ]);
  assert.equal(r.code, 0, r.err.join("\n"));
  const text = Deno.readTextFileSync(file);
  return { out: r.out, text, spans: spansOf(decodeOtlpFile(text)) };
}

/** A span's events as `[name, time, attributes]`. */
function eventsOf(s: DecodedSpan) {
  return s.events.map((
    e,
  ) => [e.name, e.timeUnixNano, attributesOf(e.attributes)]);
}

/** A stage's event as the file should hold it: its mark, and its note when it has one. */
function stage(id: string, time: string, mark: string, note?: string) {
  return [`guardlab.stage.${id}`, time, {
    "guardlab.stage": id,
    "guardlab.mark": mark,
    ...(note === undefined ? {} : { "guardlab.note": note }),
  }];
}

/** The commit point's event: what it saw, one draft of the key. */
function commit(seen: "committed" | "reused", time: string) {
  return [`guardlab.effect_${seen}`, time, {
    "guardlab.commit": seen,
    "guardlab.effect.count": 1,
  }];
}

/** The stage events of an accepted new draft, at `times`. */
function acceptedStages(receipt: number, times: string[]) {
  return [
    stage("arguments", times[0], "passed"),
    stage("input", times[1], "passed"),
    stage("business", times[2], "passed", "new draft committed"),
    commit("committed", times[3]),
    stage("output", times[4], "passed"),
    stage("receipt", times[5], "passed", `#${receipt} accepted`),
  ];
}

Deno.test("ledger --timeline --otlp: each span, event and attribute of a fixture session", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    await fixture(name);
    const file = `${dir.path}/trace.jsonl`;
    const { out, text, spans } = await exported(name, file);
    // The screen is the timeline, as without --otlp.
    const plain = await cli(["ledger", "--ledger", name, "--timeline"]);
    assert.deepEqual(out, plain.out);
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
    assert.equal(spans.length, 5);
    const [root, s1, s2, read, s3] = spans;

    // One trace; every span a child of the root.
    assert.ok(spans.every((s) => s.traceId === root.traceId));
    assert.equal(root.parentSpanId, "");
    assert.ok(spans.slice(1).every((s) => s.parentSpanId === root.spanId));
    assert.equal(new Set(spans.map((s) => s.spanId)).size, 5);

    // The root: the whole session, from the first attempt's start.
    assert.deepEqual(
      [root.name, root.kind, root.startTimeUnixNano, root.endTimeUnixNano],
      ["ledger timeline", 1, at(0), at(9000)],
    );
    assert.deepEqual(attributesOf(root.attributes), {
      "guardlab.source": "ledger",
      "guardlab.ledger": name,
      "guardlab.attempts.omitted": 0,
    });
    assert.deepEqual(eventsOf(root), [
      ["guardlab.mcp_session", at(0), {
        "guardlab.mcp.session": 1,
        "guardlab.client": "agent-x 1.0",
      }],
    ]);

    // #1, made by run: the ledger keeps its order, not its time. It is 1 ms
    // long and ends where the first timed call starts; six moments share it
    // evenly (1,000,000 ns / 7 = 142,857 ns apart).
    assert.deepEqual(
      [s1.name, s1.kind, s1.startTimeUnixNano, s1.endTimeUnixNano],
      ["execute_tool create_draft", 1, at(0), at(1000)],
    );
    assert.deepEqual(attributesOf(s1.attributes), {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_draft",
      "guardlab.receipt": 1,
      "guardlab.job": "JOB-001",
      "guardlab.status": "accepted",
      "guardlab.commit": "committed",
      "guardlab.outcome.known": true,
      "guardlab.time.source": "order",
    });
    assert.deepEqual(
      eventsOf(s1),
      acceptedStages(
        1,
        [1, 2, 3, 4, 5, 6].map((k) => atNs(0, 142_857 * k)),
      ),
    );
    assert.equal(s1.status ?? null, null);

    // #2, the agent's call 1: the server's span of tools/call, its own
    // times; 4 ms shared by six moments, 571,428 ns apart.
    assert.deepEqual(
      [s2.name, s2.kind, s2.startTimeUnixNano, s2.endTimeUnixNano],
      ["tools/call create_draft", 2, at(1000), at(5000)],
    );
    assert.deepEqual(attributesOf(s2.attributes), {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_draft",
      "mcp.method.name": "tools/call",
      "guardlab.mcp.session": 1,
      "guardlab.call": 1,
      "guardlab.overlaps": 0,
      "guardlab.receipt": 2,
      "guardlab.job": "JOB-002",
      "guardlab.status": "accepted",
      "guardlab.commit": "committed",
      "guardlab.outcome.known": true,
      "guardlab.time.source": "mcp_call",
    });
    assert.deepEqual(
      eventsOf(s2),
      acceptedStages(
        2,
        [1, 2, 3, 4, 5, 6].map((k) => atNs(1000, 571_428 * k)),
      ),
    );

    // Call 2 read the ledger: a span with no stages.
    assert.deepEqual(
      [read.name, read.kind, read.startTimeUnixNano, read.endTimeUnixNano],
      ["tools/call ledger", 2, at(6000), at(6500)],
    );
    assert.deepEqual(attributesOf(read.attributes), {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "ledger",
      "mcp.method.name": "tools/call",
      "guardlab.mcp.session": 1,
      "guardlab.call": 2,
      "guardlab.overlaps": 0,
      "guardlab.job": "JOB-002",
      "guardlab.time.source": "mcp_call",
    });
    assert.deepEqual(read.events, []);

    // #3, call 3: the draft was there, reused; the cancel came after the
    // commit point. An error, of class "cancelled", and why. 2 ms shared by
    // seven moments, 250,000 ns apart.
    assert.deepEqual(
      [s3.name, s3.kind, s3.startTimeUnixNano, s3.endTimeUnixNano],
      ["tools/call create_draft", 2, at(7000), at(9000)],
    );
    assert.deepEqual(attributesOf(s3.attributes), {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_draft",
      "mcp.method.name": "tools/call",
      "guardlab.mcp.session": 1,
      "guardlab.call": 3,
      "guardlab.overlaps": 0,
      "error.type": "cancelled",
      "guardlab.receipt": 3,
      "guardlab.job": "JOB-002",
      "guardlab.status": "cancelled",
      "guardlab.commit": "reused",
      "guardlab.outcome.known": true,
      "guardlab.time.source": "mcp_call",
    });
    const t3 = (k: number) => atNs(7000, 250_000 * k);
    assert.deepEqual(eventsOf(s3), [
      stage("arguments", t3(1), "passed"),
      stage("input", t3(2), "passed"),
      stage("business", t3(3), "passed", "reused: same key, same arguments"),
      commit("reused", t3(4)),
      stage(
        "after_commit",
        t3(5),
        "cancelled",
        "cancel arrived after commit: draft stays",
      ),
      stage("output", t3(6), "not reached"),
      stage("receipt", t3(7), "passed", "#3 cancelled"),
    ]);
    assert.deepEqual(s3.status, {
      code: 2,
      message:
        "after commit cancelled: cancel arrived after commit: draft stays",
    });

    // The same ledger again: the same file, byte for byte (derived ids).
    const again = await exported(name, `${dir.path}/again.jsonl`);
    assert.equal(again.text, text);

    // In Chinese, the notes and the error say it in Chinese; names and
    // marks stay as they are.
    const { spans: zhSpans } = await exported(name, `${dir.path}/zh.jsonl`, [
      "--lang",
      "zh",
    ]);
    assert.deepEqual(zhSpans[4].status, {
      code: 2,
      message: "提交之后取消：取消在提交之后才到达，草稿留下",
    });
    assert.deepEqual(
      attributesOf(zhSpans[4].events[4].attributes),
      {
        "guardlab.stage": "after_commit",
        "guardlab.mark": "cancelled",
        "guardlab.note": "取消在提交之后才到达，草稿留下",
      },
    );
  });
});

Deno.test("ledger --timeline --otlp: another ledger is another trace", async () => {
  await using dir = await tempDir();
  await withLedger(async (a) => {
    await withLedger(async (b) => {
      const ids = [];
      for (const name of [a, b]) {
        await cli(["run", "--ledger", name, ...runFlags()]);
        const file = `${dir.path}/${name}.jsonl`;
        const { spans: [root, span] } = await exported(name, file);
        ids.push(root.traceId, span.spanId);
      }
      assert.equal(new Set(ids).size, 4);
    });
  });
});

Deno.test("ledger --timeline --otlp: a draft no receipt records is an attempt whose outcome is unknown, not an error", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    await cli(["run", "--ledger", name, ...runFlags()]);
    const db = new DatabaseSync(ledgerPaths(TEST_ROOT, name).lab);
    db.exec("DELETE FROM receipts");
    db.close();
    const { spans: [, s] } = await exported(name, `${dir.path}/t.jsonl`);
    assert.deepEqual(attributesOf(s.attributes), {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_draft",
      "guardlab.job": "JOB-001",
      "guardlab.commit": "committed",
      "guardlab.outcome.known": false,
      "guardlab.time.source": "order",
    });
    assert.equal(s.status ?? null, null);
    assert.deepEqual(
      eventsOf(s).map((
        [name, , a],
      ) => [name, (a as Record<string, unknown>)["guardlab.mark"] ?? null]),
      [
        ["guardlab.stage.arguments", "passed"],
        ["guardlab.stage.input", "unknown"],
        ["guardlab.stage.business", "passed"],
        ["guardlab.effect_committed", null],
        ["guardlab.stage.output", "unknown"],
        ["guardlab.stage.receipt", "failed"],
      ],
    );
  });
});

Deno.test("ledger --otlp: needs --timeline, and a name that is taken is refused before the ledger is read", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    await cli(["run", "--ledger", name, ...runFlags()]);
    assertUsageError(
      await cli(["ledger", "--ledger", name, "--otlp", `${dir.path}/x.jsonl`]),
      /--otlp needs --timeline/,
    );
    const taken = `${dir.path}/taken.jsonl`;
    Deno.writeTextFileSync(taken, "mine\n");
    const target = `${dir.path}/target`;
    Deno.writeTextFileSync(target, "keep\n");
    const link = `${dir.path}/link.jsonl`;
    Deno.symlinkSync(target, link);
    const cases: [string, RegExp][] = [
      [
        taken,
        /exists already; guardlab writes a new file and never replaces one/,
      ],
      [link, /is a symbolic link; guardlab never follows links/],
    ];
    for (const [path, why] of cases) {
      const r = await cli([
        "ledger",
        "--ledger",
        name,
        "--timeline",
        "--otlp",
        path,
      ]);
      assert.equal(r.code, 4, r.err.join("\n"));
      assert.deepEqual(
        r.out,
        [],
        "nothing shown: refused before the ledger is read",
      );
      assert.equal(r.err.length, 1);
      assert.match(r.err[0], why);
    }
    assert.equal(Deno.readTextFileSync(taken), "mine\n");
    assert.equal(Deno.readTextFileSync(target), "keep\n");
    assert.ok(Deno.lstatSync(link).isSymlink);
  });
});

const FIFO_IGNORED = Deno.build.os === "windows"
  ? " [ignored: no FIFOs on Windows]"
  : CAN_RUN
  ? ""
  : " [ignored: making a FIFO needs --allow-run (mkfifo); run `deno task test`]";

Deno.test({
  name:
    `ledger --otlp: a FIFO or another user's file at the name is refused, never opened${FIFO_IGNORED}`,
  ignore: FIFO_IGNORED !== "",
  fn: async () => {
    await using dir = await tempDir();
    await withLedger(async (name) => {
      await cli(["run", "--ledger", name, ...runFlags()]);
      const fifo = `${dir.path}/fifo.jsonl`;
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success, "mkfifo made the FIFO");
      const theirs = `${dir.path}/theirs.jsonl`;
      Deno.writeTextFileSync(theirs, "theirs\n");
      // As root (CI, these sessions) the file becomes uid 65534's; as
      // anyone else it stays this user's, and is refused the same way.
      await Deno.chown(theirs, 65534, 65534).catch(() => {});
      for (const path of [fifo, theirs]) {
        // A FIFO opened for writing would wait for a reader: the refusal
        // must come without opening it.
        const r = await cli([
          "ledger",
          "--ledger",
          name,
          "--timeline",
          "--otlp",
          path,
        ]);
        assert.equal(r.code, 4, r.err.join("\n"));
        assert.equal(r.err.length, 1);
        assert.match(r.err[0], /exists already; guardlab writes a new file/);
      }
      assert.ok(Deno.lstatSync(fifo).isFifo);
      assert.equal(Deno.readTextFileSync(theirs), "theirs\n");
    });
  },
});

/** A ledger of `n` receipts written by hand (accepted, JOB keys as `job(i)`). */
async function bigLedger(name: string, n: number, job: (i: number) => string) {
  await cli(["run", "--ledger", name, ...runFlags()]);
  const db = new DatabaseSync(ledgerPaths(TEST_ROOT, name).lab);
  try {
    const events = JSON.stringify([
      "arguments_valid",
      "input_allowed",
      "business_started",
      "effect_reused",
      "output_started",
      "output_allowed",
    ]);
    const insert = db.prepare(
      "INSERT INTO receipts(job, status, effect_exists, events) VALUES(?, 'accepted', 1, ?)",
    );
    db.exec("BEGIN");
    for (let i = 0; i < n; i++) insert.run(job(i), events);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

Deno.test("ledger --timeline --otlp: a large ledger exports the attempts the view draws, and says how many it left out", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    // 1 run + 2,999 receipts: the latest 500 are drawn.
    await bigLedger(name, 2_999, () => "JOB-001");
    const { spans } = await exported(name, `${dir.path}/t.jsonl`);
    assert.equal(spans.length, 1 + 500);
    const root = attributesOf(spans[0].attributes);
    assert.equal(root["guardlab.attempts.omitted"], 2_500);
    assert.equal(root["guardlab.note"], "(2500 earlier attempts not drawn)");
    assert.deepEqual(
      [spans[1], spans[500]].map((s) =>
        attributesOf(s.attributes)["guardlab.receipt"]
      ),
      [2_501, 3_000],
    );
  });
});

Deno.test("ledger --timeline --otlp: rows past the view's bound are left out as on screen, long keys cut and inert", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    // 300 receipts with 3,000-character keys (a ledger someone else made):
    // the view's 512 Ki characters hold fewer than 300 of them.
    const long = (i: number) => `K\x1b[2J${i}`.padEnd(3_000, "x");
    await bigLedger(name, 300, long);
    const { out, spans } = await exported(name, `${dir.path}/t.jsonl`);
    const root = attributesOf(spans[0].attributes);
    const drawn = spans.length - 1;
    assert.ok(drawn > 0 && drawn < 300, `${drawn} drawn`);
    // As the screen says it: the receipt-less run's key among the rest.
    assert.equal(root["guardlab.left_out.attempts"], 301 - drawn);
    const screenCut = out.slice(-2).join(" ").replace(/\s+/g, " ");
    assert.equal(root["guardlab.note"], screenCut);
    const last = attributesOf(spans.at(-1)!.attributes)["guardlab.job"];
    // K, ESC, [, 2, J, 2, 9, 9: eight characters, then 248 of the x.
    assert.equal(last, "K\\u001b[2J299" + "x".repeat(256 - 8) + "…");
  });
});

Deno.test({
  name:
    `ledger --otlp: under the student grant, a FILE outside /tmp is refused (exit 4), nothing written${NEEDS_RUN}`,
  ignore: !CAN_RUN,
  fn: async () => {
    await using dir = await tempDir();
    const ledger = `${dir.path}/lab.sqlite`;
    const home = ["--home", dir.path];
    const made = await spawnGuardlab([
      "run",
      ...home,
      "--ledger-file",
      ledger,
      ...runFlags(),
    ]);
    assert.equal(made.code, 0, made.err.join("\n"));
    const outside = `/var/guardlab-otlp-${crypto.randomUUID()}.jsonl`;
    const r = await spawnGuardlab([
      "ledger",
      ...home,
      "--ledger-file",
      ledger,
      "--timeline",
      "--otlp",
      outside,
    ]);
    assert.equal(r.code, 4, r.err.join("\n"));
    assert.deepEqual(r.out, []);
    assert.equal(r.err.length, 1);
    assert.match(r.err[0], /guardlab-otlp-/);
    assert.throws(() => Deno.lstatSync(outside), Deno.errors.NotFound);
    // Under /tmp, the same call writes the file.
    const inside = `${dir.path}/t.jsonl`;
    const ok = await spawnGuardlab([
      "ledger",
      ...home,
      "--ledger-file",
      ledger,
      "--timeline",
      "--otlp",
      inside,
    ]);
    assert.equal(ok.code, 0, ok.err.join("\n"));
    assert.equal(
      spansOf(decodeOtlpFile(Deno.readTextFileSync(inside))).length,
      2,
    );
  },
});

Deno.test("ledger --timeline --otlp: a ledger too big to order by its calls says so on the root, as the screen does", async () => {
  await using dir = await tempDir();
  await withLedger(async (name) => {
    await bigLedger(name, 65_536, () => "JOB-001");
    const db = new DatabaseSync(ledgerPaths(TEST_ROOT, name).lab);
    db.exec(CREATE_CALL_TABLES_IF_MISSING);
    db.prepare("INSERT INTO mcp_sessions VALUES(1, 'agent-x 1.0', ?)").run(T0);
    db.prepare(
      "INSERT INTO mcp_calls VALUES(1, 1, 'create_draft', 'JOB-001', 2, ?, ?)",
    ).run(T0, T0 + 10);
    db.close();
    const { spans: [root] } = await exported(name, `${dir.path}/t.jsonl`);
    assert.equal(
      attributesOf(root.attributes)["guardlab.note"],
      "(65037 earlier attempts not drawn) (drawn in receipt order: this " +
        "ledger records 1 MCP call, and a timeline orders attempts by their " +
        "calls' start only up to 65536 rows of receipts, calls and drafts " +
        "together)",
    );
  });
});
