/**
 * Stopping `accept` and `proxy` always stops them: SIGTERM or SIGINT in
 * the middle of each phase (starting and initialize, tools/list, a case's
 * call, a read, a restart's new server) ends guardlab within two seconds,
 * with every server process it started (each in a process group of its
 * own, which no longer gets the terminal's signals). The fixture server
 * writes a marker when the phase is reached and then holds there; the
 * test waits for that event, never for a time. A run that does not end is
 * killed at the test's own bound and fails it.
 *
 * The checker and the JUnit write are not in the list: both run on this
 * thread without a wait, bounded by the history's size, and a signal that
 * comes meanwhile is handled as soon as they return.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { EXIT_GRACE_MS } from "../../lib/wire/limits.ts";
import { within } from "../../lib/wire/server_process.ts";
import {
  CAN_START,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  processEnded,
  PUT_NOTE_SESSION,
  runEngineer,
  startEngineer,
} from "../_helpers/accept_helpers.ts";

/** Far past any bound guardlab keeps: reaching it means a wait did not end. */
const HUNG_MS = 4 * EXIT_GRACE_MS + 30_000;
/** What the issue asks: a stopped guardlab is gone within two seconds. */
const STOP_MS = 2_000;

/** Wait for the event: the fixture wrote `STORE.reached` (it holds there now). */
async function reached(store: string): Promise<string> {
  const until = performance.now() + HUNG_MS;
  while (performance.now() < until) {
    try {
      return Deno.readTextFileSync(`${store}.reached`);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return "(never reached)";
}

/** Every server process started over `store`, as each wrote itself there. */
function serversOf(store: string): number[] {
  return Deno.readTextFileSync(`${store}.starts`).split("\n")
    .filter((l) => l !== "").map(Number);
}

/** Signal `child` once the fixture holds at `phase`; it must end within STOP_MS with 128 + the signal's number, every server with it. */
async function stopAt(
  child: Deno.ChildProcess,
  store: string,
  phase: string,
  signal: "SIGTERM" | "SIGINT",
): Promise<void> {
  assert.equal(await reached(store), phase, "the fixture reached the phase");
  const sent = performance.now();
  child.kill(signal);
  const out = await within(child.output(), HUNG_MS, "hung" as const);
  const took = performance.now() - sent;
  if (out === "hung") {
    child.kill("SIGKILL");
    await child.status;
    assert.fail(`guardlab did not end on ${signal} at ${phase}`);
  }
  assert.equal(out.code, 128 + (signal === "SIGTERM" ? 15 : 2));
  assert.ok(took < STOP_MS, `ended ${Math.round(took)} ms after ${signal}`);
  const servers = serversOf(store);
  assert.ok(servers.length > 0);
  for (const pid of servers) {
    assert.ok(await processEnded(pid, HUNG_MS), `server ${pid} was ended`);
  }
}

/** Where accept is stopped: the fixture's mode that holds there, and the cases that get there. */
const ACCEPT_PHASES = [
  { phase: "initialize", mode: "hold-initialize", cases: "once" },
  { phase: "tools/list", mode: "hold-tools/list", cases: "once" },
  { phase: "put_note", mode: "hold-put_note", cases: "once" },
  { phase: "get_notes", mode: "hold-get_notes", cases: "once" },
  // The third process over the store: the one crash-after-commit starts
  // after it killed the second (the first is accept's own).
  {
    phase: "initialize",
    mode: "hold-initialize-3",
    cases: "crash-after-commit",
  },
] as const;

for (const { phase, mode, cases } of ACCEPT_PHASES) {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // SIGINT is the same path: once at the call, once at the restart.
    if (
      signal === "SIGINT" && mode !== "hold-put_note" && !mode.endsWith("3")
    ) {
      continue;
    }
    Deno.test({
      name:
        `signals: accept ${cases} stopped by ${signal} at ${mode}: it ends within 2 s, with every server it started` +
        NEEDS_START,
      ignore: !CAN_START,
      async fn() {
        using dir = privateDir("gl-signals-");
        const store = join(dir.path, "notes.jsonl");
        const oracle = join(dir.path, "oracle.json");
        Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
        const child = startEngineer([
          "accept",
          "--cases",
          cases,
          "--timeout-ms",
          "600000",
          "--oracle",
          oracle,
          "--",
          ...fixtureCommand(mode, store),
        ]);
        await child.stdin.close();
        await stopAt(child, store, phase, signal);
      },
    });
  }
}

for (const mode of ["hold-initialize", "hold-put_note"] as const) {
  Deno.test({
    name:
      `signals: proxy stopped by SIGTERM at ${mode}, its client still there: it ends within 2 s, with its server` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      using dir = privateDir("gl-signals-proxy-");
      const store = join(dir.path, "notes.jsonl");
      const child = startEngineer([
        "proxy",
        "--record",
        join(dir.path, "record.jsonl"),
        "--",
        ...fixtureCommand(mode, store),
      ]);
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(PUT_NOTE_SESSION));
      // The client's end stays open: only the signal can end the session.
      await stopAt(child, store, mode.slice("hold-".length), "SIGTERM");
      await writer.close().catch(() => {});
    },
  });
}

Deno.test({
  name:
    "signals: a --header-env value that is not a byte string is refused in one line at the start, exit 2 (before: a 30 s wait for an initialize never sent)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const r = await within(
      runEngineer(
        [
          "accept",
          "--timeout-ms",
          "600000",
          "--url",
          "http://127.0.0.1:9/mcp",
          "--header-env",
          "Authorization=GUARDLAB_HEADER_T",
        ],
        "",
        { GUARDLAB_HEADER_T: "tok-秘密-123" },
      ),
      HUNG_MS,
      "hung" as const,
    );
    assert.notEqual(r, "hung");
    if (r === "hung") return;
    assert.equal(r.code, 2);
    assert.deepEqual(r.out, []);
    // One line that says why (the usage follows it, as for every usage error).
    assert.match(
      r.err[0],
      /^guardlab: --header-env GUARDLAB_HEADER_T: its value is not one line/,
    );
    assert.match(r.err[1], /^usage: guardlab accept/);
    assert.ok(!r.err.join("\n").includes("秘密"));
  },
});
