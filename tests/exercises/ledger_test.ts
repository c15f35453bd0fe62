/**
 * Exercise 17, judged from the ledger a session left: `exercise check 17
 * --ledger NAME` reads the named ledger through a read-only snapshot and
 * judges a bounded copy of its rows; the hand-in carries that copy; `grade`
 * re-judges the copy and says the session was not re-run.
 *
 * The ledgers here are made three ways: by `guardlab mcp`'s server in
 * process (the remote timeout: a held call, a cancel, a retry), which
 * records each call in `mcp_calls`; with `guardlab run` steps (a script:
 * the same receipts, no call rows, and so not yet); and, under `deno task
 * test`, by the MCP SDK's own client driving `guardlab mcp`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Ledger } from "../../lib/timing/ledger.ts";
import {
  BUILTIN_COURSE,
  copyOfLedger,
  defaultParams,
  judgeLedgerCopy,
  MAX_COPY_BYTES,
  MAX_COPY_ROWS,
  MAX_LEDGER_FILE_BYTES,
} from "../../lib/exercises/mod.ts";
import { ledgerFolder, privateRoot } from "../../lib/sandbox/sandbox.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  plainSession,
  remoteTimeoutSession,
} from "../_helpers/mcp_inprocess.ts";
import {
  CAN_SPAWN_CLIENT,
  connect,
  faultsFile,
  NEEDS_CLIENT,
} from "../_helpers/mcp_helpers.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

const X = BUILTIN_COURSE.exercises.find((x) =>
  x.slug === "agent-retry-reuses"
)!;
const N = String(X.n);
const NOT_RERUN = "ledger copy re-judged, session not re-run";

/** A student in a base folder of their own. */
async function student() {
  const base = await Deno.makeTempDir({ prefix: "guardlab-ex17-" });
  const say = (args: string[], input = "") => cli(args, input, false, base);
  return { base, say };
}

const name = () => `t-ex17-${crypto.randomUUID().slice(0, 6)}`;

/** `guardlab run` for the default values, with extra flags. */
function run(
  say: (a: string[]) => ReturnType<typeof cli>,
  ledger: string,
  more: string[] = [],
  job = "JOB-001",
) {
  return say([
    "run",
    "--ledger",
    ledger,
    ...runFlags({ job }),
    ...more,
  ]);
}

function fileOf(base: string, ledger: string): string {
  return join(privateRoot(base)!, ledger, "lab.sqlite");
}

/** A named ledger of the student in `base`, made empty, for a session to write. */
function ledgerAt(base: string, ledger: string): { dir: string; path: string } {
  const paths = ledgerFolder(privateRoot(base)!, ledger)!;
  return { dir: paths.dir, path: paths.lab };
}

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };

Deno.test("exercise 17: judged from a named ledger an MCP session made (guardlab mcp, in process)", async (t) => {
  const { base, say } = await student();
  try {
    await t.step(
      "the remote timeout over MCP, then the same call: done",
      async () => {
        const L = name();
        await remoteTimeoutSession(ARGS, { at: ledgerAt(base, L) });
        const file = fileOf(base, L);
        const before = await Deno.readFile(file);
        const r = await say(["exercise", "check", N, "--ledger", L]);
        assert.equal(r.code, 0, r.out.join("\n"));
        assert.ok(r.out.includes(`exercise ${N}: done`));
        const text = r.out.join(" ").replace(/\s+/g, " ");
        assert.match(text, /guardlab judges the ledger, not the agent/);
        assert.match(
          text,
          /a ledger written by hand with the same rows, mcp_calls included, passes too/,
        );
        // Judging reads a snapshot: the ledger file is byte-identical.
        assert.deepEqual(await Deno.readFile(file), before);
      },
    );
    await t.step("near misses over MCP: not yet, exit 1", async () => {
      // Each with the line that decided it, written by hand.
      const cases: [
        string,
        (at: { dir: string; path: string }) => unknown,
        string,
      ][] = [
        [
          "called twice, nothing unclear",
          (at) => plainSession([ARGS, ARGS], at),
          "[no] a call of JOB-001 committed the draft, and its receipt does not say accepted",
        ],
        [
          "no retry after the cancel",
          (at) => remoteTimeoutSession(ARGS, { at, then: [] }),
          "[no] a later call of JOB-001 (after receipt #1) reused the draft, and its receipt says accepted",
        ],
        [
          "a new key: two drafts",
          (at) =>
            remoteTimeoutSession(ARGS, {
              at,
              then: [{ ...ARGS, job: "JOB-002" }],
            }),
          "     what the ledger holds: receipt #2 of JOB-002: accepted, effect present",
        ],
        [
          "a retry under a new key, then the same-key retry (issue 39)",
          (at) =>
            remoteTimeoutSession(ARGS, {
              at,
              then: [{ ...ARGS, job: "JOB-002" }, ARGS],
            }),
          "[no] no draft under another key repeats your request (river, 2 copies): no retry under a new key",
        ],
        [
          "other arguments: key_conflict",
          (at) =>
            remoteTimeoutSession(ARGS, {
              at,
              then: [{ ...ARGS, copies: 3 }],
            }),
          "     what the ledger holds: receipt #2 of JOB-001: key_conflict, effect present",
        ],
      ];
      for (const [what, made, line] of cases) {
        const L = name();
        await made(ledgerAt(base, L));
        const r = await say(["exercise", "check", N, "--ledger", L]);
        assert.equal(r.code, 1, `${what}\n${r.out.join("\n")}`);
        assert.ok(r.out.includes(`exercise ${N}: not yet`), what);
        // The screen wraps at 80 columns: compared with the wrapping undone.
        const said = r.out.join(" ").replace(/\s+/g, " ");
        assert.ok(said.includes(line.trim()), `${what}\n${r.out.join("\n")}`);
      }
    });
    await t.step(
      "the same rows from script steps (guardlab run): no MCP call wrote them, not yet",
      async () => {
        const L = name();
        await run(say, L, ["--cancel-at", "after_business"]);
        await run(say, L);
        const r = await say(["exercise", "check", N, "--ledger", L]);
        assert.equal(r.code, 1, r.out.join("\n"));
        const said = r.out.join(" ").replace(/\s+/g, " ");
        assert.ok(
          said.includes(
            "[no] receipt #1 was written by a create_draft call over MCP (a " +
              "row of mcp_calls) what the ledger holds: no row in calls",
          ),
          r.out.join("\n"),
        );
      },
    );
    await t.step(
      "no such ledger: refused, exit 4; --ledger elsewhere: usage",
      async () => {
        assert.equal(
          (await say(["exercise", "check", N, "--ledger", name()])).code,
          4,
        );
        assert.equal((await say(["exercise", "check", N], "")).code, 2);
        assert.equal(
          (await say(["exercise", "check", "3", "--ledger", name()])).code,
          2,
        );
        assert.equal(
          (await say(["exercise", "show", N, "--ledger", name()])).code,
          2,
        );
      },
    );
    await t.step(
      `a ledger file over ${MAX_LEDGER_FILE_BYTES} bytes: over the limit, unread and unchanged`,
      async () => {
        const L = name();
        await run(say, L);
        const file = fileOf(base, L);
        await Deno.truncate(file, MAX_LEDGER_FILE_BYTES + 1);
        const r = await say(["exercise", "check", N, "--ledger", L]);
        assert.equal(r.code, 1);
        assert.match(
          r.out.join(" "),
          /over the limit: the ledger is \d+ bytes/,
        );
        assert.equal((await Deno.lstat(file)).size, MAX_LEDGER_FILE_BYTES + 1);
      },
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("exercise 17: the copy is bounded in rows and bytes", async () => {
  const { base } = await student();
  try {
    const L = name();
    await remoteTimeoutSession(ARGS, { at: ledgerAt(base, L) });
    const ledger = Ledger.open(fileOf(base, L), { mode: "read" });
    try {
      // One draft, two receipts and three MCP calls (create_draft, ledger,
      // create_draft): six rows, the calls counted before any is read.
      const ok = copyOfLedger(ledger, 6);
      assert.ok("text" in ok);
      assert.deepEqual(JSON.parse(ok.text).calls, [
        {
          session: 1,
          call: 1,
          tool: "create_draft",
          job: "JOB-001",
          receipt: 1,
        },
        { session: 1, call: 2, tool: "ledger", job: "JOB-001", receipt: null },
        {
          session: 1,
          call: 3,
          tool: "create_draft",
          job: "JOB-001",
          receipt: 2,
        },
      ]);
      assert.equal(judgeLedgerCopy(X, ok.text, defaultParams).passed, true);
      const over = copyOfLedger(ledger, 5);
      assert.ok("reason" in over && over.overLimit);
      assert.match(over.reason.en, /^over the limit: the ledger has 6 rows/);
    } finally {
      ledger.close();
    }
    const calls = Array.from({ length: MAX_COPY_ROWS + 1 }, (_, i) => ({
      session: 1,
      call: i + 1,
      tool: "ledger",
      job: null,
      receipt: null,
    }));
    const manyCalls = judgeLedgerCopy(
      X,
      JSON.stringify({
        ledger_copy: 2,
        drafts: [],
        receipts: [],
        compensations: [],
        calls,
      }),
      defaultParams,
    );
    assert.equal(manyCalls.overLimit, true);
    assert.match(manyCalls.reason!.en, /more than 2000 to judge/);
    const receipts = Array.from({ length: MAX_COPY_ROWS + 1 }, (_, i) => ({
      attempt: i + 1,
      job: "JOB-001",
      status: "cancelled",
      effect_exists: true,
      events: ["effect_committed"],
    }));
    const many = JSON.stringify({
      ledger_copy: 1,
      drafts: [],
      receipts,
      compensations: [],
    });
    const v = judgeLedgerCopy(X, many, defaultParams);
    assert.equal(v.overLimit, true);
    assert.match(v.reason!.en, /more than 2000 to judge/);
    const big = judgeLedgerCopy(
      X,
      " ".repeat(MAX_COPY_BYTES + 1),
      defaultParams,
    );
    assert.equal(big.overLimit, true);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("exercise 17: hand-in carries the ledger copy; grade re-judges it and says the session was not re-run", async () => {
  const { base, say } = await student();
  const teacher = await Deno.makeTempDir({ prefix: "guardlab-ex17-t-" });
  try {
    assert.equal((await say(["config", "name", "李雷"])).code, 0);
    assert.equal((await say(["config", "course", "NET-2026"])).code, 0);
    const shown = (await say(["exercise", "show", N])).out.join(" ")
      .replace(/\s+/g, " ");
    assert.match(
      shown,
      /a ledger written by hand with the same rows, mcp_calls included, passes too/,
    );
    assert.match(shown, new RegExp(`check ${N} --ledger NAME`));
    const m = shown.match(
      /job (JOB-\d{3}), topic (river|forest), copies (\d)\./,
    );
    assert.ok(m, shown);
    const args = { job: m[1], topic: m[2], copies: Number(m[3]) };
    // A key that is not this student's: not yet.
    const foreign = name();
    const other = ["JOB-998", "JOB-999"].find((k) => k !== args.job)!;
    await remoteTimeoutSession({ ...args, job: other }, {
      at: ledgerAt(base, foreign),
    });
    assert.equal(
      (await say(["exercise", "check", N, "--ledger", foreign])).code,
      1,
    );
    const L = name();
    await remoteTimeoutSession(args, { at: ledgerAt(base, L) });
    assert.equal((await say(["exercise", "check", N, "--ledger", L])).code, 0);
    const handIn = (await say(["exercise", "hand-in"])).out[0];
    const entry = JSON.parse(handIn).exercises["agent-retry-reuses"];
    const copy = JSON.parse(entry.answer);
    assert.equal(copy.ledger_copy, 2);
    assert.deepEqual(
      copy.receipts.map((r: { status: string }) => r.status),
      ["cancelled", "accepted"],
    );
    assert.ok(!entry.answer.includes(base), "no path in the copy");
    assert.ok(entry.passed);
    // The ledger is gone: grade judges the copy, it never looks for the ledger.
    await Deno.remove(join(privateRoot(base)!, L), { recursive: true });
    await Deno.writeTextFile(join(teacher, "li-lei.json"), handIn);
    const grade = (flags: string[]) =>
      cli(
        ["exercise", "grade", join(teacher, "li-lei.json"), ...flags],
        "",
        false,
        teacher,
      );
    assert.equal((await say(["config", "course", "NET-2026"])).code, 0);
    const tc = (args: string[]) => cli(args, "", false, teacher);
    assert.equal((await tc(["config", "course", "NET-2026"])).code, 0);
    const table = await grade([]);
    assert.equal(table.code, 0, table.out.join("\n"));
    const row = table.out.find((l) => l.startsWith("李雷"))!;
    assert.equal(row.trim().split(/\s+/)[X.n], "+", row);
    const text = table.out.join(" ").replace(/\s+/g, " ");
    assert.match(text, new RegExp(`exercise ${N}: ${NOT_RERUN}`));
    assert.match(text, /it requires the calls to have come over MCP/);
    const json = JSON.parse((await grade(["--json"])).out[0]);
    assert.equal(json.students[0].cells[N], "done");
    assert.match(json.sessionNotRerun[N].en, new RegExp(NOT_RERUN));
    assert.match(json.sessionNotRerun[N].zh, /已重新判定账本副本，未重跑会话/);
    const csv = (await grade(["--csv"])).out;
    assert.ok(csv[0].includes(`"${N} (${NOT_RERUN})"`), csv[0]);
    const zh = await cli(
      ["exercise", "grade", join(teacher, "li-lei.json"), "--lang", "zh"],
      "",
      false,
      teacher,
    );
    assert.match(zh.out.join(""), /已重新判定账本副本，未重跑会话/);
    // A copy edited to pass for a ledger that never was: grade cannot tell.
    // (The digest shows the edit; the schema is checked, not the provenance.)
  } finally {
    await Deno.remove(base, { recursive: true });
    await Deno.remove(teacher, { recursive: true });
  }
});

Deno.test({
  name:
    "exercise 17: a ledger made by the MCP SDK's own client (the remote timeout, then a retry) passes" +
    NEEDS_CLIENT,
  ignore: !CAN_SPAWN_CLIENT,
  async fn() {
    await using homeFolder = await tempDir("guardlab-ex17-home-");
    const home = homeFolder.path;
    await Deno.chmod(home, 0o700);
    const L = name();
    using faults = faultsFile([{ call: 1, hold_at: "after_commit" }]);
    {
      await using s = await connect([
        "--home",
        home,
        "--ledger",
        L,
        "--faults",
        faults.path,
      ]);
      const args = { job: "JOB-001", topic: "river", copies: 2 };
      // The client gives up once the call is held after its commit: what
      // its timeout does (the SDK sends notifications/cancelled), waited
      // for as an event, not a clock that a busy machine can outrun.
      const giveUp = new AbortController();
      const first = s.client.callTool(
        { name: "create_draft", arguments: args },
        undefined,
        { signal: giveUp.signal },
      );
      await s.waitFor(/call 1: held at after_commit/);
      giveUp.abort("timed out");
      await assert.rejects(first);
      await s.waitFor(/call 1 create_draft: cancelled/);
      const retry = await s.client.callTool({
        name: "create_draft",
        arguments: args,
      });
      assert.equal(
        (retry.structuredContent as { status: string }).status,
        "accepted",
      );
    }
    const r = await cli(
      ["exercise", "check", N, "--ledger", L, "--home", home],
      "",
      false,
      "/tmp",
    );
    assert.equal(r.code, 0, [...r.out, ...r.err].join("\n"));
  },
});

Deno.test("exercise 17: a consistent forgery, written by hand, passes, as the text says (issue 48)", () => {
  // A ledger copy no session ever made: every row typed by hand, the
  // mcp_calls rows included, consistent with the remote timeout and the
  // retry. guardlab cannot tell it from a real one, and says so before the
  // work starts and after the pass.
  const forged = JSON.stringify({
    ledger_copy: 2,
    drafts: [{ job: "JOB-001", topic: "river", copies: 2 }],
    receipts: [
      {
        attempt: 1,
        job: "JOB-001",
        status: "cancelled",
        effect_exists: true,
        events: [
          "arguments_valid",
          "input_allowed",
          "business_started",
          "effect_committed",
        ],
      },
      {
        attempt: 2,
        job: "JOB-001",
        status: "accepted",
        effect_exists: true,
        events: [
          "arguments_valid",
          "input_allowed",
          "business_started",
          "effect_reused",
          "output_started",
          "output_allowed",
        ],
      },
    ],
    compensations: [],
    calls: [
      { session: 1, call: 1, tool: "create_draft", job: "JOB-001", receipt: 1 },
      { session: 2, call: 1, tool: "create_draft", job: "JOB-001", receipt: 2 },
    ],
  });
  const v = judgeLedgerCopy(X, forged, defaultParams);
  assert.equal(v.passed, true, v.feedback.map((l) => l.en).join("\n"));
  assert.match(
    v.why!.en,
    /a ledger written by hand with the same rows would pass too\.$/,
  );
  assert.match(v.why!.zh, /有同样几行的手工账本也会通过。$/);
  assert.match(
    v.feedback.at(-1)!.en,
    /a ledger written by hand with the same rows, mcp_calls included, passes too\.$/,
  );
  assert.match(
    X.task.en,
    /a ledger \(or its copy\) written by hand with the same rows, mcp_calls included, passes too/,
  );
  assert.match(
    X.task.zh,
    /手工写出的账本或账本副本只要有同样几行（含 mcp_calls），也能通过/,
  );
});
