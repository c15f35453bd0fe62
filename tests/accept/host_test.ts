/**
 * `accept host` against two agent hosts of our own that really behave so
 * (examples/host_fixture.ts, on the MCP SDK's client 1.32.2): one that
 * resends a failed call, one that says the outcome is unknown. Each case
 * runs the real model, tool and faults on loopback; each verdict is
 * checked against the ledger, read here by the test itself (its own parse
 * of the file the tool appends to), and against what the model was told,
 * written here by hand from what the fixture says. Also: a host that
 * never reaches the tool, one still waiting at the case's limit, the
 * process group ended at the limit and on SIGTERM, and the flags. And
 * `--otlp`: a live run's trace, its counts held to the ledger the test
 * counted, and the file refused before the host starts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  HostCaseName,
  HostTransport,
  HostVariant,
} from "../../lib/accept/cases.ts";
import {
  type HostCaseResult,
  type HostOptions,
  runHostCase,
} from "../../lib/accept/host.ts";
import { launchCommand, thisInstall } from "../../lib/mcp/host_config.ts";
import { serveDroppable } from "../../lib/accept/_host_serve.ts";
import { judgeHostReport } from "../../lib/accept/host_judge.ts";
import { hostTrace, randomIds } from "../../lib/accept/host_otlp.ts";
import { encodeTrace } from "../../lib/otlp/trace.ts";
import {
  attributesOf,
  type DecodedSpan,
  decodeOtlpFile,
  spansOf,
} from "../_helpers/otlp.ts";
import {
  CAN_START,
  hostCaseWithLedger,
  hostSeen as seen,
  privateDir,
  ROOT,
  runEngineer,
  startEngineer,
} from "../_helpers/accept_helpers.ts";

const CAN_LISTEN =
  Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state ===
    "granted";
const CAN = CAN_START && CAN_LISTEN;
const NEEDS = CAN
  ? ""
  : " [ignored: starts an agent host and listens on 127.0.0.1, which needs --allow-run, --allow-env and --allow-net=127.0.0.1; run `deno task test`]";

const FIXTURE = fileURLToPath(
  new URL("../../examples/host_fixture.ts", import.meta.url),
);

/** The fixture host in `mode`, its SDK timeout `timeoutMs`, as accept host starts it (with the test's Deno cache). */
function fixtureHost(mode: string, timeoutMs = 3000): string[] {
  const denoDir = CAN ? Deno.env.get("DENO_DIR") : undefined;
  return [
    ...(denoDir === undefined ? [] : ["/usr/bin/env", `DENO_DIR=${denoDir}`]),
    Deno.execPath(),
    "run",
    "-q",
    `--config=${join(ROOT, "deno.json")}`,
    `--lock=${join(ROOT, "deno.lock")}`,
    "--frozen",
    "--allow-env",
    "--allow-read",
    "--allow-run",
    "--allow-net=127.0.0.1",
    FIXTURE,
    mode,
    String(timeoutMs),
  ];
}

/** One case of `argv` on `variant` over `transport`; the row, and the ledger as the test read it. */
async function hostCase(
  argv: string[],
  name: HostCaseName,
  variant: HostVariant,
  transport: HostTransport = "stdio",
  caseMs = 60_000,
): Promise<{ row: HostCaseResult; ledger: Map<string, number> }> {
  return await hostCaseWithLedger((base, onLedger) => {
    const options: HostOptions = {
      argv,
      transport,
      ...(transport === "http"
        ? { url: new URL("http://127.0.0.1:0/mcp") }
        : {}),
      cases: [name],
      variants: [variant],
      caseMs,
      base,
      guardlab: launchCommand(thisInstall(), "guardlab-engineer"),
      onLedger,
    };
    return runHostCase(name, variant, options);
  });
}

const OK = (key: string, how: string) => `ok: row for ${key} ${how}`;
const TOOL_ERROR = "error: the ledger failed after writing the row; try again";
const UNKNOWN =
  "The outcome of write_row is unknown: it may have taken effect. Check by its key before calling again.";

/** A test that runs the fixture hosts. */
function hostTest(name: string, fn: () => Promise<void>) {
  Deno.test({
    name: `accept host: ${name}${NEEDS}`,
    ignore: !CAN,
    sanitizeOps: false,
    sanitizeResources: false,
    fn,
  });
}

hostTest(
  "no fault: the host hands the tool's success on, one effect",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "no-fault",
      "keyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "TOLD-SUCCESS",
      info: [],
      resent: 0,
      cancelled: false,
      told: OK(row.key, "written"),
      ledger: [1, 0],
      counted: [1, 0],
    });
    assert.equal(row.host_end, "exit");
    assert.equal(row.host_code, 0);
    assert.deepEqual(row.clients, ["host-fixture-resends 1.0.0"]);
  },
);

hostTest(
  "a reply withheld past the host's timeout: the resending host cancels, resends, and the unkeyed tool writes twice",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "late-reply",
      "unkeyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "RESENT-DUPLICATED",
      info: ["CANCELLED-AFTER-COMMIT"],
      resent: 1,
      cancelled: true,
      told: OK(row.key, "written"),
      ledger: [2, 0],
      counted: [2, 0],
    });
    assert.equal(row.resent_same_arguments, true);
  },
);

hostTest(
  "a reply withheld for good: the resending host's resend is reused by the keyed tool",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "no-reply",
      "keyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "RESENT-REUSED",
      info: ["CANCELLED-AFTER-COMMIT"],
      resent: 1,
      cancelled: true,
      told: OK(row.key, "reused"),
      ledger: [1, 0],
      counted: [1, 0],
    });
  },
);

hostTest(
  "the tool's process killed after its commit: the resending host starts a new one and resends",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "killed-after-commit",
      "unkeyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "RESENT-DUPLICATED",
      info: [],
      resent: 1,
      cancelled: false,
      told: OK(row.key, "written"),
      ledger: [2, 0],
      counted: [2, 0],
    });
    const calls = row.history.records.filter((r) => r.op === "call");
    assert.deepEqual(calls.map((c) => c.op === "call" && c.conn), [1, 2]);
  },
);

hostTest(
  "a reply withheld for good: the host that says unknown does not resend; the naive model's new key doubles the effect",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("says-unknown"),
      "no-reply",
      "unkeyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "TOLD-UNKNOWN",
      info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
      resent: 0,
      cancelled: true,
      told: UNKNOWN,
      ledger: [1, 1],
      counted: [1, 1],
    });
    assert.equal(row.new_key_called, true);
  },
);

hostTest(
  "an error after the commit: the host hands the tool's own error on",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("says-unknown"),
      "error-after-commit",
      "keyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "PASSED-ON-ERROR",
      info: ["NEW-KEY-DOUBLED"],
      resent: 0,
      cancelled: false,
      told: TOOL_ERROR,
      ledger: [1, 1],
      counted: [1, 1],
    });
  },
);

hostTest(
  "the tool's process killed after its commit: the host that says unknown does not resend",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("says-unknown"),
      "killed-after-commit",
      "unkeyed",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "TOLD-UNKNOWN",
      info: [],
      resent: 0,
      cancelled: false,
      told: UNKNOWN,
      // The new key's call went to the dead connection: it never reached the tool.
      ledger: [1, 0],
      counted: [1, 0],
    });
  },
);

for (
  const [fault, what] of [
    ["http-503-after-commit", "a 503"],
    ["connection-reset-after-commit", "the connection closed with no answer"],
  ] as const
) {
  hostTest(
    `over HTTP, ${what} after the commit: the resending host's call is sent again on the same session, the unkeyed tool writes twice`,
    async () => {
      const { row, ledger } = await hostCase(
        fixtureHost("resends"),
        fault,
        "unkeyed",
        "http",
      );
      assert.deepEqual(seen(row, ledger), {
        verdict: "RESENT-DUPLICATED",
        info: [],
        resent: 1,
        cancelled: false,
        told: OK(row.key, "written"),
        ledger: [2, 0],
        counted: [2, 0],
      });
    },
  );
}

hostTest(
  "over HTTP, the session expired after the commit: the resending host opens a new one and the keyed tool reuses",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "session-expired-after-commit",
      "keyed",
      "http",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "RESENT-REUSED",
      info: [],
      resent: 1,
      cancelled: false,
      told: OK(row.key, "reused"),
      ledger: [1, 0],
      counted: [1, 0],
    });
    const calls = row.history.records.filter((r) => r.op === "call");
    assert.deepEqual(calls.map((c) => c.op === "call" && c.conn), [1, 2]);
  },
);

hostTest(
  "over HTTP, the connection closed after the commit with no answer: Deno's fetch sends the same request again by itself (same id, same session), so even the host that says unknown never sees the failure; the keyed tool reuses",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("says-unknown"),
      "connection-reset-after-commit",
      "keyed",
      "http",
    );
    assert.deepEqual(seen(row, ledger), {
      verdict: "RESENT-REUSED",
      info: [],
      resent: 1,
      cancelled: false,
      told: OK(row.key, "reused"),
      ledger: [1, 0],
      counted: [1, 0],
    });
    const calls = row.history.records.flatMap((r) =>
      r.op === "call" ? [[r.conn, r.id, r.reply]] : []
    );
    assert.deepEqual(calls, [[1, 2, "reset"], [1, 2, "ok"]]);
    // A saved report of it is judged again: its reset records are read, not refused.
    const saved = JSON.stringify({
      kind: "accept-host",
      host: { program: "deno" },
      transport: "http",
      case_ms: 60_000,
      results: [row],
    });
    const again = judgeHostReport(saved, "reset.json");
    assert.equal(again.report.results[0].verdict, "RESENT-REUSED");
    assert.deepEqual(again.changed, []);
  },
);

hostTest(
  "the droppable front: a dropped request's connection closes with no byte of an answer; the handler ran once; the next connection is answered",
  async () => {
    const seenBodies: string[] = [];
    const server = serveDroppable(async (request, drop) => {
      const body = await request.text();
      seenBodies.push(body);
      if (body === "drop") drop();
      return new Response(`answer to ${body}`);
    });
    try {
      const port = Number(new URL(server.url).port);
      const exchange = async (body: string) => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(new TextEncoder().encode(
          `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        ));
        const got = await new Response(conn.readable).text();
        return got.split("\r\n")[0] +
          (got.endsWith(`answer to ${body}`) ? " +body" : "");
      };
      assert.equal(await exchange("drop"), "");
      assert.equal(await exchange("keep"), "HTTP/1.1 200 OK +body");
      assert.deepEqual(seenBodies, ["drop", "keep"]);
    } finally {
      await server.close();
    }
  },
);

hostTest(
  "a host that never reaches the tool: HOST-NOT-REACHED, its exit code and last lines kept, the dummy key masked",
  async () => {
    const { row, ledger } = await hostCase(
      [
        "/bin/sh",
        "-c",
        'echo "cannot find the model with $OPENAI_API_KEY" >&2; exit 3',
      ],
      "no-reply",
      "unkeyed",
    );
    assert.equal(row.verdict, "HOST-NOT-REACHED");
    assert.equal(row.class, "inconclusive");
    assert.equal(row.host_code, 3);
    // The dummy key guardlab handed the host is masked in what is kept.
    assert.deepEqual(row.host_output, ["cannot find the model with …"]);
    assert.deepEqual([...ledger], []);
  },
);

hostTest(
  "a host still waiting at the case's limit: STILL-WAITING, and its process group is ended",
  async () => {
    using dir = privateDir("gl-accept-host-wait-");
    const pids = join(dir.path, "pids");
    // The host waits 10 minutes for the tool; it also starts a child of its
    // own, which must end with it.
    const { row, ledger } = await hostCase(
      [
        "/bin/sh",
        "-c",
        `sleep 600 & echo "$$ $!" > ${pids}; exec "$@"`,
        "sh",
        ...fixtureHost("says-unknown", 600_000),
      ],
      "no-reply",
      "unkeyed",
      "stdio",
      8_000,
    );
    assert.equal(row.verdict, "STILL-WAITING");
    assert.equal(row.host_end, "limit");
    assert.deepEqual([ledger.get(row.key), ledger.get(row.new_key)], [
      1,
      undefined,
    ]);
    for (const pid of Deno.readTextFileSync(pids).trim().split(" ")) {
      assert.equal(alive(Number(pid)), false, `process ${pid} still runs`);
    }
  },
);

/** Whether `pid` runs (a zombie waiting for its parent does not). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

Deno.test({
  name:
    `accept host: SIGTERM ends guardlab and the host's process group within 2 s${NEEDS}`,
  ignore: !CAN || Deno.build.os === "windows",
  async fn() {
    using dir = privateDir("gl-accept-host-term-");
    const pids = join(dir.path, "pids");
    const child = startEngineer([
      "accept",
      "host",
      "--cases",
      "no-reply",
      "--variant",
      "keyed",
      "--",
      "/bin/sh",
      "-c",
      `sleep 600 & echo "$$ $!" > ${pids}.tmp; mv ${pids}.tmp ${pids}; wait`,
    ]);
    child.stdin.close();
    const output = child.output();
    // Wait for the host to say it has started (the event, not a time).
    for (let i = 0; !exists(pids); i++) {
      assert.ok(i < 6000, "the host never started");
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGTERM");
    const ended = performance.now();
    const { code } = await output;
    assert.equal(code, 128 + 15);
    const listed = Deno.readTextFileSync(pids).trim().split(" ").map(Number);
    while (listed.some(alive)) {
      assert.ok(
        performance.now() - ended < 2000,
        "the host outlived guardlab by 2 s",
      );
      await new Promise((r) => setTimeout(r, 10));
    }
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name:
    `accept host: a port in use for --url, and a host command that does not exist: one line each, exit 1${NEEDS}`,
  ignore: !CAN,
  async fn() {
    using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (taken.addr as Deno.NetAddr).port;
    const busy = await runEngineer([
      "accept",
      "host",
      "--url",
      `http://127.0.0.1:${port}/mcp`,
      "--cases",
      "no-fault",
      "--",
      "/bin/true",
    ]);
    assert.equal(busy.code, 1);
    assert.equal(
      busy.stderr,
      `guardlab: accept host --url http://127.0.0.1:${port}/mcp: that port is in use; name another, or port 0\n`,
    );
    const missing = await runEngineer([
      "accept",
      "host",
      "--cases",
      "no-fault",
      "--",
      "/nonexistent/host",
    ]);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^guardlab: the host command "\/nonexistent\/host" cannot be started: [^\n]+\n$/,
    );
  },
});

Deno.test({
  name: `accept host: its flags, checked before anything starts${NEEDS}`,
  ignore: !CAN,
  async fn() {
    for (
      const [args, line] of [
        [["accept", "host"], "accept host needs the host's command"],
        [
          ["accept", "host", "--cases", "nope", "--", "x"],
          '--cases: "nope" is not a case of accept host over stdio',
        ],
        [
          ["accept", "host", "--cases", "http-503-after-commit", "--", "x"],
          '--cases: "http-503-after-commit" is not a case',
        ],
        [
          ["accept", "host", "--url", "http://example.com/mcp", "--", "x"],
          "accept host --url: the URL the tool listens at",
        ],
        [["accept", "host", "--case-ms", "5", "--", "x"], "--case-ms"],
        [
          ["accept", "host", "--oracle", "o.json", "--", "x"],
          "accept host takes only",
        ],
      ] as const
    ) {
      const r = await runEngineer([...args]);
      assert.equal(r.stdout, "", args.join(" "));
      assert.equal(r.code, 2, args.join(" "));
      assert.ok(r.stderr.includes(line), `${args.join(" ")}: ${r.stderr}`);
    }
  },
});

Deno.test({
  name:
    `accept host: --json and --junit from the command line, and accept judge judges the report again${NEEDS}`,
  ignore: !CAN,
  async fn() {
    using dir = privateDir("gl-accept-host-cli-");
    const junit = join(dir.path, "host.xml");
    const run = await runEngineer([
      "accept",
      "host",
      "--cases",
      "no-reply",
      "--variant",
      "unkeyed",
      "--json",
      "--junit",
      junit,
      "--",
      ...fixtureHost("resends"),
    ]);
    assert.equal(run.code, 5, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.kind, "accept-host");
    assert.equal(report.exit, 5);
    assert.deepEqual(
      report.results.map((r: HostCaseResult) => [r.case, r.variant, r.verdict]),
      [["no-reply", "unkeyed", "RESENT-DUPLICATED"]],
    );
    // The dummy key guardlab handed the host is in no line of the report.
    assert.equal(run.stdout.includes("guardlab-dummy-"), false);
    const xml = Deno.readTextFileSync(junit);
    assert.ok(xml.includes('tests="1" failures="1" errors="0"'), xml);
    assert.ok(
      xml.includes('<testcase name="no-reply/unkeyed"') &&
        xml.includes('<failure type="RESENT-DUPLICATED"'),
      xml,
    );
    const saved = join(dir.path, "host.json");
    Deno.writeTextFileSync(saved, run.stdout);
    const again = await runEngineer(["accept", "judge", saved, "--json"]);
    assert.equal(again.code, 5, again.stderr);
    const judged = JSON.parse(again.stdout);
    assert.equal(judged.results[0].verdict, "RESENT-DUPLICATED");
    assert.deepEqual(judged.changed, []);
    // A verdict edited by hand is named; the history decides.
    report.results[0].verdict = "TOLD-SUCCESS";
    Deno.writeTextFileSync(saved, JSON.stringify(report));
    const edited = await runEngineer(["accept", "judge", saved]);
    assert.equal(edited.code, 5);
    assert.ok(
      edited.stdout.includes(
        "no-reply/unkeyed: the report said TOLD-SUCCESS; its history gives RESENT-DUPLICATED",
      ),
      edited.stdout,
    );
    // A record no history holds: one line, exit 2.
    report.results[0].history.records[1].op = "surprise";
    Deno.writeTextFileSync(saved, JSON.stringify(report));
    const bad = await runEngineer(["accept", "judge", saved]);
    assert.equal(bad.code, 2);
    assert.ok(
      bad.stderr.includes(
        "results[0] cannot be judged: history: records[1].op",
      ),
      bad.stderr,
    );
  },
});

/** The events named `name` of `spans`, each as its key and count. */
function counted(spans: DecodedSpan[], name: string): [unknown, unknown][] {
  return spans.flatMap((s) =>
    s.events.filter((e) => e.name === name).map((e) => {
      const a = attributesOf(e.attributes);
      return [a["guardlab.job"], a["guardlab.effect.count"]] as [
        unknown,
        unknown,
      ];
    })
  );
}

hostTest(
  "--otlp of a live run: the resending host's late call, its resend and the commits, the counts the ledger's",
  async () => {
    const { row, ledger } = await hostCase(
      fixtureHost("resends"),
      "late-reply",
      "unkeyed",
    );
    assert.equal(row.verdict, "RESENT-DUPLICATED");
    const spans = spansOf(decodeOtlpFile(
      encodeTrace(hostTrace({
        kind: "accept-host",
        host: { program: "deno" },
        transport: "stdio",
        case_ms: 60_000,
        results: [row],
        unsafe: 1,
        inconclusive: 0,
      }, randomIds())).text,
    ));
    const [, kase] = spans;
    const calls = spans.filter((s) => s.name === "tools/call write_row");
    const models = spans.filter((s) => s.name === "chat");
    assert.ok(spans.slice(2).every((s) => s.parentSpanId === kase.spanId));
    // One commit per row the test counted in the ledger, on the call that
    // made it: the model's call, then the host's own resend.
    const rows = ledger.get(row.key) ?? 0;
    assert.equal(rows, 2);
    assert.equal(ledger.get(row.new_key) ?? 0, 0);
    assert.deepEqual(
      counted(calls, "guardlab.effect_visible"),
      Array.from({ length: rows }, (_, n) => [row.key, n + 1]),
    );
    assert.deepEqual(counted([kase], "guardlab.effect_read"), [
      [row.key, ledger.get(row.key) ?? 0],
      [row.new_key, ledger.get(row.new_key) ?? 0],
    ]);
    assert.deepEqual(
      calls.map((s) => {
        const a = attributesOf(s.attributes);
        return [
          a["guardlab.model.call"],
          a["guardlab.retry"],
          a["guardlab.arguments.same"],
          a["guardlab.reply"],
          a["guardlab.outcome.known"],
        ];
      }),
      [[1, undefined, undefined, "late", false], [1, true, true, "ok", true]],
    );
    // The first call: withheld, then the host's cancel on it.
    const first = calls[0].events.map((e) => e.name);
    assert.deepEqual(first.slice(0, 2), [
      "guardlab.effect_visible",
      "guardlab.fault.withhold",
    ]);
    assert.ok(first.includes("guardlab.cancelled"), first.join(" "));
    // What the model was told, on the request that carried it.
    const told = models.flatMap((s) =>
      s.events.map((e) => attributesOf(e.attributes))
    );
    assert.deepEqual(told, [{
      "guardlab.model.call": 1,
      "gen_ai.tool.call.result": OK(row.key, "written"),
      "guardlab.told.as": "success",
    }]);
  },
);

hostTest(
  "accept host --otlp FILE from the command line: the trace beside the report, never the host's command or its key",
  async () => {
    using dir = privateDir("gl-accept-host-otlp-");
    const file = join(dir.path, "host.jsonl");
    const argv = fixtureHost("resends");
    const run = await runEngineer([
      "accept",
      "host",
      "--cases",
      "no-fault",
      "--variant",
      "keyed",
      "--json",
      "--otlp",
      file,
      "--",
      ...argv,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    const [row] = report.results as HostCaseResult[];
    const text = Deno.readTextFileSync(file);
    for (const never of [FIXTURE, "--allow-run", "guardlab-dummy-"]) {
      assert.equal(text.includes(never), false, never);
    }
    const spans = spansOf(decodeOtlpFile(text));
    assert.deepEqual(
      spans.map((s) => s.name),
      ["accept host", "case no-fault/keyed", "chat", "tools/call write_row"]
        .concat("chat"),
    );
    assert.deepEqual(attributesOf(spans[1].attributes), {
      "guardlab.case": "no-fault",
      "guardlab.variant": "keyed",
      "guardlab.transport": "stdio",
      "gen_ai.tool.name": "write_row",
      "guardlab.verdict": "TOLD-SUCCESS",
      "guardlab.verdict.class": "safe",
      "guardlab.job": row.key,
      "guardlab.job.new": row.new_key,
      "guardlab.clients": ["host-fixture-resends 1.0.0"],
    });
    // The case starts when its history says, on the wall clock.
    assert.equal(
      spans[1].startTimeUnixNano,
      String(BigInt(Math.round(row.history.epoch_ms! * 1000)) * 1000n),
    );
    assert.deepEqual(counted(spans, "guardlab.effect_visible"), [[
      row.key,
      row.effects_key,
    ]]);
  },
);

Deno.test({
  name:
    `accept host --otlp: a name that exists, a link or a FIFO is refused, exit 4, before the host starts, the file untouched${NEEDS}`,
  ignore: !CAN,
  async fn() {
    using dir = privateDir("gl-accept-host-otlp-");
    const marker = join(dir.path, "started");
    const taken = join(dir.path, "taken.jsonl");
    Deno.writeTextFileSync(taken, "mine\n");
    const link = join(dir.path, "link.jsonl");
    Deno.symlinkSync(taken, link);
    const fifo = join(dir.path, "fifo.jsonl");
    const made = new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    assert.equal(made.code, 0);
    for (const file of [taken, link, fifo]) {
      const r = await runEngineer([
        "accept",
        "host",
        "--cases",
        "no-fault",
        "--otlp",
        file,
        "--",
        "/bin/sh",
        "-c",
        `touch ${marker}`,
      ]);
      assert.equal(r.code, 4, `${file}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.equal(r.stderr.split("\n").filter((l) => l !== "").length, 1);
      assert.equal(exists(marker), false, "the host was started");
    }
    assert.equal(Deno.readTextFileSync(taken), "mine\n");
    assert.equal(Deno.lstatSync(link).isSymlink, true);
    assert.equal(Deno.lstatSync(fifo).isFile, false);
  },
});
