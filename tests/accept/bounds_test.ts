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
import { EXIT_GRACE_MS, MAX_WAIT_MESSAGES } from "../../lib/wire/limits.ts";
import { runAccept } from "../../lib/accept/run.ts";
import { within } from "../../lib/wire/server_process.ts";
import {
  CAN_START,
  engineerCommand,
  fixtureChannel,
  fixtureCommand,
  matrixOf,
  NEEDS_START,
  privateDir,
  processEnded,
  PUT_NOTE_SESSION,
  ROOT,
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

/** GNU time, to measure a run's peak memory; absent on some machines. */
const GNU_TIME = (() => {
  try {
    return Deno.statSync("/usr/bin/time").isFile;
  } catch {
    return false;
  }
})();

/** Well under what the floods took before (255 to 607 MB at a 2 s timeout), well over a run's own (70 to 80 MB). */
const FLOOD_RSS_KB = 200 * 1024;

for (const mode of ["flood-non-json", "flood-ping", "flood-unknown-ids"]) {
  Deno.test({
    name:
      `bounds: accept against ${mode} (a server that commits, then sends as fast as it is read and never answers) with a 600 s timeout: the flood is cut at ${MAX_WAIT_MESSAGES} lines, the server ended, PROTOCOL-VIOLATION, under ${
        FLOOD_RSS_KB / 1024
      } MB (before: it ran 10 to 32 s past a 2 s timeout, up to 607 MB)` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      using dir = privateDir("gl-bounds-flood-");
      const store = join(dir.path, "notes.jsonl");
      const oracle = join(dir.path, "oracle.json");
      Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
      const { command, args } = engineerCommand([
        "accept",
        "--cases",
        "once",
        "--timeout-ms",
        "600000",
        "--oracle",
        oracle,
        "--",
        ...fixtureCommand(mode, store),
      ]);
      const rss = join(dir.path, "rss");
      const child = new Deno.Command(GNU_TIME ? "/usr/bin/time" : command, {
        args: GNU_TIME ? ["-o", rss, "-f", "%M", command, ...args] : args,
        cwd: ROOT,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const out = await within(child.output(), HUNG_MS, "hung" as const);
      if (out === "hung") {
        child.kill("SIGKILL");
        await child.status;
        assert.fail(`accept did not end on ${mode}`);
      }
      const text = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 5, text);
      assert.match(text, /^ {2}once +server gone +\? +PROTOCOL-VIOLATION$/m);
      assert.match(
        text.replace(/\s+/g, " "),
        /sent more than 10000 lines or 64 MiB while guardlab waited for one answer: read no further, and ended/,
      );
      if (mode === "flood-unknown-ids") {
        // The history keeps the first 100 problems; the screen names 3 ids
        // and counts the rest.
        assert.match(
          text.replace(/\s+/g, " "),
          /the server answered id 1000000, which was never sent; answered id 1000001, which was never sent; answered id 1000002, which was never sent; 97× answered id …, which was never sent; sent more than/,
        );
      }
      // The server's own store: the note was committed before the flood.
      assert.equal(storedNotes(store).length, 1);
      const server = Number(Deno.readTextFileSync(`${store}.server.pid`));
      assert.ok(await ended(server), "the server was ended");
      if (GNU_TIME) {
        const kb = Number(Deno.readTextFileSync(rss).trim().split("\n").at(-1));
        assert.ok(kb < FLOOD_RSS_KB, `peak ${kb} KB`);
      }
    },
  });
}

/** Run guardlab under the engineer grant with `stdin` written as it is read, measured by GNU time where there is one: its exit, output lines and peak memory in KB (null without GNU time). */
async function measuredEngineer(
  dir: string,
  argv: string[],
  stdin: (write: (text: string) => Promise<void>) => Promise<void>,
) {
  const { command, args } = engineerCommand(argv);
  const rss = join(dir, "rss");
  const child = new Deno.Command(GNU_TIME ? "/usr/bin/time" : command, {
    args: GNU_TIME ? ["-o", rss, "-f", "%M", command, ...args] : args,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const fed = stdin((text) => writer.write(encoder.encode(text)))
    .then(() => writer.close()).catch(() => {});
  const out = await within(child.output(), HUNG_MS, "hung" as const);
  await fed;
  if (out === "hung") {
    child.kill("SIGKILL");
    await child.status;
    assert.fail(`guardlab ${argv[0]} did not end`);
  }
  const lines = (bytes: Uint8Array) =>
    new TextDecoder().decode(bytes).split("\n").filter((l) => l !== "");
  return {
    code: out.code,
    out: lines(out.stdout),
    err: lines(out.stderr),
    kb: GNU_TIME
      ? Number(Deno.readTextFileSync(rss).trim().split("\n").at(-1))
      : null,
  };
}

Deno.test({
  name:
    "bounds: proxy in front of flood-non-json, the client gone: the flood is cut, the server ended, three lines on stderr, under 200 MB (before: 15.9 s past the client, 184,391 lines on stderr)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-proxy-flood-");
    const store = join(dir.path, "notes.jsonl");
    const r = await measuredEngineer(dir.path, [
      "proxy",
      "--record",
      join(dir.path, "record.jsonl"),
      "--",
      ...fixtureCommand("flood-non-json", store),
    ], (write) => write(PUT));
    assert.equal(r.code, 1, r.err.join("\n"));
    assert.deepEqual(r.err.slice(1), [
      "guardlab proxy: the server wrote a line that is not JSON-RPC to stdout; not forwarded (the next ones are recorded, not shown here)",
      "guardlab proxy: the server sent more than 10000 lines or 64 MiB while the proxy waited for one answer: read no further, and ended",
      "guardlab proxy: the server exited (killed); the session ends",
    ]);
    // The client got its initialize answer, never the call's.
    assert.deepEqual(r.out.map((l) => JSON.parse(l).id), [1]);
    assert.equal(storedNotes(store).length, 1);
    const server = Number(Deno.readTextFileSync(`${store}.server.pid`));
    assert.ok(await ended(server), "the server was ended");
    if (r.kb !== null) assert.ok(r.kb < FLOOD_RSS_KB, `peak ${r.kb} KB`);
  },
});

/** How many calls of {@linkcode BIG_ARGUMENT} bytes each the proxy test sends. */
const BIG_CALLS = 200;
const BIG_ARGUMENT = 1 << 20;

Deno.test({
  name:
    `bounds: proxy passing ${BIG_CALLS} calls with 1 MiB arguments each stays under 250 MB: it keeps no call's arguments, and reads the client no faster than the server takes them (before: 988 MB at 400 calls, growing with each)` +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-bounds-proxy-big-");
    const store = join(dir.path, "notes.jsonl");
    const pad = "x".repeat(BIG_ARGUMENT);
    const r = await measuredEngineer(dir.path, [
      "proxy",
      "--record",
      join(dir.path, "record.jsonl"),
      "--",
      ...fixtureCommand("correct", store),
    ], async (write) => {
      await write(PUT.split("\n")[0] + "\n");
      for (let i = 1; i <= BIG_CALLS; i++) {
        await write(
          JSON.stringify({
            jsonrpc: "2.0",
            id: i + 1,
            method: "tools/call",
            params: {
              name: "put_note",
              arguments: { id: `k${i}`, text: "t", pad },
            },
          }) + "\n",
        );
      }
    });
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.equal(r.out.length, BIG_CALLS + 1);
    // The server's own store: every call was written, once.
    assert.equal(storedNotes(store).length, BIG_CALLS);
    if (r.kb !== null) assert.ok(r.kb < 250 * 1024, `peak ${r.kb} KB`);
  },
});
