/**
 * `guardlab accept host --example agents-core` and exercise 20 from the
 * command line, under the grants the binary is compiled with: the
 * students' (deno.json's `guardlab` set, the environment ignored) runs
 * agents-core in process, and so does the engineers' (the variables it
 * does not list are ignored the same way). The bad command
 * lines are refused before anything loads. Expected lines written by hand.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CAN_RUN, NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import { runEngineer } from "../_helpers/accept_helpers.ts";
import { cli } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** Exercise 20's right prediction, written by hand. */
const RIGHT_GUESS = JSON.stringify({
  resends: false,
  cancels: true,
  told: "failure",
  rows: 2,
});

/** What agents-core 0.20.0 hands the model when an MCP call fails (its default error function). */
const AGENTS_CORE_FAILED =
  "An error occurred while running the tool. Please try again.";

Deno.test({
  name:
    "accept host --example: agents-core runs in process under the students' grant, late-reply unkeyed is TOLD-FAILED, exit 5" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const r = await spawnGuardlab([
      "accept",
      "host",
      "--example",
      "agents-core",
      "--cases",
      "late-reply",
      "--variant",
      "unkeyed",
      "--json",
    ]);
    assert.equal(r.code, 5, r.err.join("\n"));
    assert.equal(r.err.length, 1, r.err.join("\n"));
    assert.match(
      r.err[0],
      /^late-reply on the unkeyed tool: TOLD-FAILED \(\d+\.\d s\)$/,
    );
    const report = JSON.parse(r.out.join("\n"));
    assert.deepEqual(
      {
        kind: report.kind,
        host: report.host,
        transport: report.transport,
        in_process: report.in_process,
        case_ms: report.case_ms,
        unsafe: report.unsafe,
        exit: report.exit,
      },
      {
        kind: "accept-host",
        host: { program: "agents-core" },
        transport: "http",
        in_process: true,
        case_ms: 30000,
        unsafe: 1,
        exit: 5,
      },
    );
    const [row] = report.results;
    // Each field the row states, against what was written by hand.
    const expected: Record<string, unknown> = {
      case: "late-reply",
      variant: "unkeyed",
      verdict: "TOLD-FAILED",
      info: ["CANCELLED-AFTER-COMMIT", "NEW-KEY-DOUBLED"],
      resent: 0,
      cancelled: true,
      told: "failure",
      told_text: AGENTS_CORE_FAILED,
      effects_key: 1,
      effects_new_key: 1,
      host_end: "exit",
      // agents-core's own client name: the URL it was given.
      clients: ["streamable-http: http://guardlab.invalid/mcp 1.0.0"],
    };
    for (const [field, value] of Object.entries(expected)) {
      assert.deepEqual(row[field], value, field);
    }
    // Its trace: the case's spans, and no network attribute on any (no socket).
    await using traced = await tempDir("gl-host-example-otlp-");
    const file0 = join(traced.path, "trace.json");
    const t = await spawnGuardlab([
      "accept",
      "host",
      "--example",
      "agents-core",
      "--cases",
      "no-fault",
      "--variant",
      "keyed",
      "--otlp",
      file0,
    ]);
    assert.equal(t.code, 0, t.err.join("\n"));
    const spans = JSON.parse(Deno.readTextFileSync(file0)).resourceSpans
      .flatMap((r: { scopeSpans: { spans: unknown[] }[] }) =>
        r.scopeSpans.flatMap((s) => s.spans)
      ) as { name: string; attributes?: { key: string }[] }[];
    assert.ok(spans.length >= 4, spans.map((s) => s.name).join(", "));
    // No process exited: the case says the run returned, with no exit code.
    const events = (spans as {
      events?: { name: string; attributes?: { key: string }[] }[];
    }[]).flatMap((s) => s.events ?? []);
    const ends = events.filter((e) => e.name.startsWith("guardlab.host."))
      .map((e) => e.name);
    assert.deepEqual(ends, ["guardlab.host.start", "guardlab.host.returned"]);
    assert.ok(
      !events.some((e) =>
        (e.attributes ?? []).some((a) => a.key === "process.exit.code")
      ),
    );
    assert.deepEqual(
      spans.flatMap((s) =>
        (s.attributes ?? []).filter((a) => a.key.startsWith("network."))
      ),
      [],
    );
    // The saved report is judged again offline, and says where the host ran.
    await using dir = await tempDir("gl-host-example-report-");
    const file = join(dir.path, "report.json");
    Deno.writeTextFileSync(file, r.out.join("\n"));
    const judged = await cli(["accept", "judge", file], "", false, dir.path);
    assert.equal(judged.code, 5, judged.err.join("\n"));
    // The screen wraps at 80 columns: the line read whole.
    assert.ok(
      judged.out.join(" ").includes(
        "The model and the tool are guardlab's; the host ran in guardlab's own process, under its grant: no socket, no process.",
      ),
      judged.out.join("\n"),
    );
    assert.ok(
      !judged.out.join(" ").includes("on loopback"),
      judged.out.join("\n"),
    );
    // No process: its end is the run's, and its bound is an abort.
    const screen = judged.out.map((l) => l.trim()).join(" ");
    assert.ok(screen.includes("the host's run returned"), screen);
    assert.ok(!screen.includes("exited"), screen);
    assert.ok(
      screen.includes("a host run still going after 30 s is aborted"),
      screen,
    );
  },
});

Deno.test({
  name:
    "accept host --example and exercise 20 under the engineers' grant: the variables it does not list are ignored, so agents-core loads and runs" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const r = await runEngineer([
      "accept",
      "host",
      "--example",
      "agents-core",
      "--cases",
      "no-fault",
      "--variant",
      "keyed",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const [row] = JSON.parse(r.stdout).results;
    assert.equal(row.verdict, "TOLD-SUCCESS");
    assert.equal(row.told, "success");
    assert.equal(row.host_end, "exit");
    // A teacher checks and grades under this grant: the right prediction
    // passes, as under the students', and the hand-in's cell is done.
    await using home = await tempDir("gl-ex20-engineer-home-");
    Deno.chmodSync(home.path, 0o700);
    // Each step in the teacher's home, exit 0; its output.
    const inHome = async (args: string[], stdin = "") => {
      const r = await runEngineer([...args, "--home", home.path], stdin);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      return r;
    };
    await inHome(["config", "name", "Li Lei"]);
    const c = await inHome(["exercise", "check", "20"], RIGHT_GUESS);
    assert.ok(c.out.includes("exercise 20: done"), c.stdout);
    const handIn = await inHome(["exercise", "hand-in"]);
    const graded = await runEngineer(
      ["exercise", "grade", "--json"],
      handIn.stdout,
    );
    assert.equal(graded.code, 0, graded.stderr);
    const [student] = JSON.parse(graded.stdout).students;
    assert.deepEqual([student.cells["20"], student.total, student.flags], [
      "done",
      1,
      [],
    ]);
  },
});

Deno.test({
  name:
    "exercise 20: checked under the students' grant, the right prediction passes" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    await using home = await tempDir("gl-ex20-home-");
    Deno.chmodSync(home.path, 0o700);
    const r = await spawnGuardlab(
      ["exercise", "check", "20", "--home", home.path],
      RIGHT_GUESS,
    );
    assert.equal(r.code, 0, [...r.out, ...r.err].join("\n"));
    assert.ok(r.out.includes("exercise 20: done"), r.out.join("\n"));
    assert.ok(r.out.includes("  rows: 2"), r.out.join("\n"));
  },
});

Deno.test("accept host --example: a server's flags, a command or another example are refused in one line before anything runs", async () => {
  await using dir = await tempDir("gl-host-example-usage-");
  const run = (args: string[]) => cli(args, "", false, dir.path);
  const cases: [string[], string][] = [
    [
      ["accept", "--example", "agents-core"],
      'guardlab: --example "agents-core" is an agent host, not a server: guardlab accept host --example "agents-core"',
    ],
    [
      ["accept", "host", "--example", "agents-core", "--case-ms", "5000"],
      "guardlab: accept host --example takes only --cases, --variant, --json, --junit and --otlp (the host runs in process: no command, no --url, no --case-ms); got --case-ms",
    ],
    [
      [
        "accept",
        "host",
        "--example",
        "agents-core",
        "--url",
        "http://127.0.0.1:0/mcp",
      ],
      "guardlab: accept host --example takes only --cases, --variant, --json, --junit and --otlp (the host runs in process: no command, no --url, no --case-ms); got --url",
    ],
    [
      ["accept", "host", "--example", "agents-core", "--", "node", "host.js"],
      'guardlab: accept host --example runs the host in process and takes no command or other argument; got "node"',
    ],
    [
      ["accept", "host", "--example", "agents-core", "extra"],
      'guardlab: accept host --example runs the host in process and takes no command or other argument; got "extra"',
    ],
    [
      // Only the hosts: a server's name is accept's, not offered here.
      ["accept", "host", "--example", "foo"],
      'guardlab: --example must be one of agents-core (got "foo")',
    ],
    [
      ["accept", "host", "--example", "loses-updates"],
      'guardlab: --example must be one of agents-core (got "loses-updates")',
    ],
    [
      [
        "accept",
        "host",
        "--example",
        "agents-core",
        "--cases",
        "connection-reset-after-commit",
      ],
      'guardlab: --cases: "connection-reset-after-commit" is not a case of accept host over http, in process (cases: no-fault, late-reply, no-reply, error-after-commit, http-503-after-commit, session-expired-after-commit)',
    ],
    [
      [
        "accept",
        "host",
        "--example",
        "agents-core",
        "--cases",
        "killed-after-commit",
      ],
      'guardlab: --cases: "killed-after-commit" is not a case of accept host over http, in process (cases: no-fault, late-reply, no-reply, error-after-commit, http-503-after-commit, session-expired-after-commit)',
    ],
  ];
  for (const [args, line] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(" ")}\n${r.err.join("\n")}`);
    assert.equal(r.err[0], line);
    assert.deepEqual(r.out, []);
  }
});
