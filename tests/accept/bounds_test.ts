/**
 * Every wait has a bound, for real: a server that exits while a process it
 * started keeps its stdout open (`accept` and `proxy` still end, and that
 * process's group is ended with them), and a proxy whose server exits while
 * the client keeps its end open (the proxy ends instead of waiting on the
 * client). Each run is raced against a bound of the test's own, far past
 * the one guardlab keeps, so a wait that does not end fails the test
 * instead of hanging the suite; the test's sanitizers fail it on any read
 * still pending.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { EXIT_GRACE_MS } from "../../lib/wire/limits.ts";
import { runAccept } from "../../lib/accept/run.ts";
import { within } from "../../lib/wire/server_process.ts";
import {
  CAN_START,
  fixtureChannel,
  fixtureCommand,
  matrixOf,
  NEEDS_START,
  privateDir,
  processEnded,
  PUT_NOTE_SESSION,
  runEngineer,
  startEngineer,
  storedNotes,
} from "../_helpers/accept_helpers.ts";

/** Far past any bound guardlab keeps: reaching it means a wait did not end. */
const HUNG_MS = 4 * EXIT_GRACE_MS + 30_000;

/** Whether process `pid` has ended, asked until {@linkcode HUNG_MS}. */
const ended = (pid: number) => processEnded(pid, HUNG_MS);

/** The id of the process the orphan fixture started, from the file it wrote. */
function helperOf(store: string): number {
  return Number(Deno.readTextFileSync(`${store}.pid`));
}

const PUT = PUT_NOTE_SESSION;

Deno.test({
  name:
    "bounds: accept against a server whose helper keeps its stdout open: the run ends, the helper's group is ended, no read is left" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-orphan-");
    const store = join(dir.path, "notes.jsonl");
    const report = await within(
      runAccept(fixtureChannel("orphan", store), {
        oracle: EXAMPLE_ORACLE,
        cases: ["once"],
        copies: 10,
        timeoutMs: 10_000,
      }),
      HUNG_MS,
      "hung" as const,
    );
    assert.notEqual(report, "hung");
    if (report !== "hung") assert.deepEqual(matrixOf(report), ["once: ONCE"]);
    assert.ok(await ended(helperOf(store)), "the helper was ended");
  },
});

Deno.test({
  name:
    "bounds: the accept command exits after its matrix while the server's helper holds the pipe (before: it waited as long as the helper lived)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-cli-");
    const store = join(dir.path, "notes.jsonl");
    const oracle = join(dir.path, "oracle.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    const r = await within(
      runEngineer([
        "accept",
        "--cases",
        "once",
        "--oracle",
        oracle,
        "--",
        ...fixtureCommand("orphan", store),
      ]),
      HUNG_MS,
      "hung" as const,
    );
    assert.notEqual(r, "hung");
    if (r !== "hung") {
      assert.equal(r.code, 0, r.err.join("\n"));
      assert.match(r.out.at(-1) ?? "", /^cases run: 1; safe 1/);
    }
    assert.ok(await ended(helperOf(store)), "the helper was ended");
  },
});

Deno.test({
  name:
    "bounds: proxy in front of a server whose helper keeps its stdout open: the session ends when the client goes, the helper with it" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-proxy-");
    const store = join(dir.path, "notes.jsonl");
    const r = await within(
      runEngineer([
        "proxy",
        "--record",
        join(dir.path, "record.jsonl"),
        "--",
        ...fixtureCommand("orphan", store),
      ], PUT),
      HUNG_MS,
      "hung" as const,
    );
    assert.notEqual(r, "hung");
    if (r !== "hung") {
      assert.equal(r.code, 0, r.err.join("\n"));
      assert.deepEqual(r.out.map((l) => JSON.parse(l).id), [1, 2]);
    }
    assert.ok(await ended(helperOf(store)), "the helper was ended");
  },
});

Deno.test({
  name:
    "bounds: proxy whose server exits while the client keeps its end open: the proxy ends too, in one line (before: it waited on the client)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-exit-");
    const child = startEngineer([
      "proxy",
      "--record",
      join(dir.path, "record.jsonl"),
      "--",
      ...fixtureCommand("exits-mid-call"),
    ]);
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(PUT));
    // The client's end stays open: only the server's exit can end the session.
    const out = await within(child.output(), HUNG_MS, "hung" as const);
    await writer.close().catch(() => {});
    if (out === "hung") {
      child.kill("SIGKILL");
      await child.status;
      assert.fail("the proxy did not end when its server exited");
    }
    assert.equal(out.code, 1);
    assert.match(
      new TextDecoder().decode(out.stderr),
      /guardlab proxy: the server exited \(3\); the session ends/,
    );
  },
});

Deno.test({
  name:
    "bounds: accept ended by Ctrl-C while a case waits: the server's group is ended on the way out, though it no longer gets the terminal's signals" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-sigint-");
    const store = join(dir.path, "notes.jsonl");
    const oracle = join(dir.path, "oracle.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    const child = startEngineer([
      "accept",
      "--cases",
      "once",
      "--timeout-ms",
      "600000",
      "--oracle",
      oracle,
      "--",
      // Holds its answer, and does not exit when its input ends.
      ...fixtureCommand("deaf", store),
    ]);
    // The event: the server has committed the note and holds its answer.
    const until = performance.now() + HUNG_MS;
    while (storedNotes(store).length === 0 && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(storedNotes(store).length, 1, "the call reached the server");
    child.kill("SIGINT");
    const status = await within(child.output(), HUNG_MS, "hung" as const);
    if (status === "hung") {
      child.kill("SIGKILL");
      await child.status;
      assert.fail("accept did not end on SIGINT");
    }
    const server = Number(Deno.readTextFileSync(`${store}.server.pid`));
    assert.ok(await ended(server), "the server was ended with guardlab");
  },
});

Deno.test({
  name:
    'bounds: an empty key (bad_call\'s id is "", counted by text) cannot be counted: accept ends with READ-FAILED (before: the search for "" never advanced, at 100 % CPU, deaf to SIGTERM)' +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-empty-key-");
    const store = join(dir.path, "notes.jsonl");
    const oracle = join(dir.path, "oracle.json");
    const [tool] = EXAMPLE_ORACLE.tools;
    Deno.writeTextFileSync(
      oracle,
      JSON.stringify({
        tools: [{
          ...tool,
          count: { text: "{key}" },
          bad_call: { id: "", text: "" },
        }],
      }),
    );
    const child = startEngineer([
      "accept",
      "--cases",
      "rejected",
      "--oracle",
      oracle,
      "--",
      ...fixtureCommand("correct", store),
    ]);
    await child.stdin.close();
    const out = await within(child.output(), HUNG_MS, "hung" as const);
    if (out === "hung") {
      child.kill("SIGKILL");
      await child.status;
      assert.fail("accept did not end on an empty key");
    }
    const lines = new TextDecoder().decode(out.stdout).split("\n");
    assert.ok(
      lines.some((l) =>
        /^ *rejected +error \(isError\) +\? +READ-FAILED$/.test(l)
      ),
      lines.join("\n"),
    );
    // The server's own store: the bad call was refused, nothing written.
    assert.deepEqual(storedNotes(store), []);
  },
});
