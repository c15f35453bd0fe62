/**
 * `accept` where engineers run it, through the CLI under the engineer grant:
 * `accept init` against the fixture server, the draft refused until its
 * guesses are confirmed, then a baseline made and used (excused, fixed,
 * worse, new), the JUnit report beside it; the files init and --junit
 * write (never through a link, never over a name); and a server behind a
 * bearer token (`--header-env`), whose value appears nowhere guardlab
 * writes. Screens are written by hand.
 */
import assert from "node:assert/strict";
import { attributesOf, decodeOtlpFile, spansOf } from "../_helpers/otlp.ts";
import { join } from "node:path";
import { linesOf } from "../../lib/base/lines.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import {
  CAN_START,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  runEngineer,
  storedNotes,
} from "../_helpers/accept_helpers.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { listing } from "../_helpers/files.ts";
import { blockAfter, chapter8 } from "../_helpers/accept_reports.ts";

/** A baseline block from its first indented line (its heading wraps with the file's name). */
const fromIndented = (lines: string[]) =>
  lines.slice(lines.findIndex((l) => l.startsWith("  ")));

/** The fixture in `mode`, named `notes-server` (one server, several behaviours). */
const notes = (mode: string) => [...fixtureCommand(mode), "notes-server"];

/**
 * The cases the baseline story runs: a duplicating server's retries and
 * copies (the later cases, two processes and a restart among them, need a
 * store of the server's own, and say nothing more about a baseline).
 */
const STORY = [
  "--cases",
  "once,rejected,lost-reply-retry,cancel-after-send,concurrent-distinct,concurrent-same",
];

/** `o.json` with every guess deleted: what an engineer does after checking each. */
function confirmed(draft: string, path: string): string {
  const oracle = JSON.parse(Deno.readTextFileSync(draft));
  for (const t of oracle.tools) delete t.guesses;
  Deno.writeTextFileSync(path, JSON.stringify(oracle, null, 2));
  return path;
}

Deno.test({
  name:
    "accept ci: init drafts, accept refuses the guesses, then a baseline excuses, fixes, and still fails what is worse or new" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-ci-");
    const draft = join(dir.path, "o.json");
    const init = await runEngineer([
      "accept",
      "init",
      "--output",
      draft,
      "--",
      ...notes("correct"),
    ]);
    assert.equal(init.code, 0, init.err.join("\n"));
    assert.deepEqual(init.out, [
      "guardlab accept init: notes-server 1, 2 tools listed",
      `draft oracle written to "${draft}" (write tools: 1)`,
      "read-only (readOnlyHint: true), not drafted: get_notes",
      "guesses to confirm (accept refuses the oracle until each is deleted from its guesses):",
      "  put_note: key, read, count, other_count",
      "next: check each guess in the file, delete it from guesses, then run guardlab accept --oracle FILE with the same server",
    ]);
    assert.equal((Deno.statSync(draft).mode ?? 0o600) & 0o777, 0o600);
    const refused = await runEngineer([
      "accept",
      "--oracle",
      draft,
      "--",
      ...notes("correct"),
    ]);
    assert.equal(refused.code, 2);
    assert.equal(
      refused.err[0],
      `guardlab: "${draft}": unconfirmed guesses of accept init: tools[0] (put_note): key, read, count, other_count; check each field, then delete its entry from guesses`,
    );
    const oracle = confirmed(draft, join(dir.path, "ok.json"));
    // The baseline: a --json report of the duplicating server, edited as a
    // team's history would have it.
    const first = await runEngineer([
      "accept",
      "--json",
      ...STORY,
      "--oracle",
      oracle,
      "--",
      ...notes("duplicates"),
    ]);
    assert.equal(first.code, 5, first.err.join("\n"));
    const report = JSON.parse(first.stdout);
    assert.match(report.oracle_digest, /^sha256:[0-9a-f]{64}$/);
    const baseline = join(dir.path, "baseline.json");
    Deno.writeTextFileSync(baseline, first.stdout);
    const excusedAll = await runEngineer([
      "accept",
      ...STORY,
      "--oracle",
      oracle,
      "--baseline",
      baseline,
      "--",
      ...notes("duplicates"),
    ]);
    assert.equal(excusedAll.code, 0, excusedAll.err.join("\n"));
    const tail = (out: string[]) =>
      out.slice(out.findIndex((l) => l.startsWith("baseline "))).join(" ")
        .replace(/ {2,}/g, " ");
    assert.equal(
      tail(excusedAll.out),
      `baseline "${baseline}" (notes-server 1, the same oracle): ` +
        "excused (the same failing verdict is in the baseline): " +
        "put_note/lost-reply-retry DUPLICATED; put_note/cancel-after-send DUPLICATED; put_note/concurrent-same DUPLICATED " +
        "exit 0: every failing verdict is one the baseline excused",
    );
    const byCase = (c: string) =>
      report.results.find((r: { case: string }) => r.case === c);
    byCase("lost-reply-retry").verdict = "FALSE-FAILURE";
    byCase("concurrent-distinct").verdict = "LOST";
    report.results = report.results.filter((r: { case: string }) =>
      r.case !== "concurrent-same"
    );
    Deno.writeTextFileSync(baseline, JSON.stringify(report));
    const junit = join(dir.path, "report.xml");
    const mixed = await runEngineer([
      "accept",
      ...STORY,
      "--oracle",
      oracle,
      "--baseline",
      baseline,
      "--junit",
      junit,
      "--",
      ...notes("duplicates"),
    ]);
    assert.equal(mixed.code, 5, mixed.err.join("\n"));
    assert.equal(
      tail(mixed.out),
      `baseline "${baseline}" (notes-server 1, the same oracle): ` +
        "excused (the same failing verdict is in the baseline): put_note/cancel-after-send DUPLICATED " +
        "fixed (failing in the baseline, not now): put_note/concurrent-distinct ALL-KEPT, was LOST " +
        "worse (another failing verdict than the baseline's): put_note/lost-reply-retry DUPLICATED, was FALSE-FAILURE " +
        "new (not failing in the baseline): put_note/concurrent-same DUPLICATED " +
        "exit 5: at least one verdict is unsafe",
    );
    const block = mixed.out.slice(
      mixed.out.findIndex((l) => l.startsWith("baseline ")),
    );
    for (const line of block) assert.ok(displayWidth(line) <= 80, line);
    // The chapter shows this screen (its heading names the chapter's file).
    assert.deepEqual(
      fromIndented(block),
      fromIndented(
        blockAfter(chapter8("en"), "screen lists them under the summary"),
      ),
    );
    const xml = Deno.readTextFileSync(junit);
    assert.match(xml, /tests="6" failures="2" errors="0" skipped="1"/);
    assert.match(
      xml,
      /<skipped message="excused by the baseline: DUPLICATED">/,
    );
    // --json says the same, for scripts.
    const json = await runEngineer([
      "accept",
      "--json",
      ...STORY,
      "--lang",
      "zh",
      "--oracle",
      oracle,
      "--baseline",
      baseline,
      "--",
      ...notes("duplicates"),
    ]);
    const section = JSON.parse(json.stdout).baseline;
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(section).map(([k, rows]) => [
          k,
          (rows as { case: string; verdict: string; baseline?: string }[]).map(
            (r) => `${r.case} ${r.verdict} ${r.baseline ?? "-"}`,
          ),
        ]),
      ),
      {
        excused: ["cancel-after-send DUPLICATED DUPLICATED"],
        fixed: ["concurrent-distinct ALL-KEPT LOST"],
        worse: ["lost-reply-retry DUPLICATED FALSE-FAILURE"],
        new: ["concurrent-same DUPLICATED -"],
      },
    );
    assert.equal(JSON.parse(json.stdout).exit, 5);
    const zhScreen = await runEngineer([
      "accept",
      ...STORY,
      "--lang",
      "zh",
      "--oracle",
      oracle,
      "--baseline",
      baseline,
      "--",
      ...notes("duplicates"),
    ]);
    assert.deepEqual(
      fromIndented(
        zhScreen.out.slice(
          zhScreen.out.findIndex((l) => l.startsWith("基线 ")),
        ),
      ),
      fromIndented(blockAfter(chapter8("zh"), "屏幕在摘要下面列出它们")),
    );
    // Another server's name: refused in one line, before any verdict.
    const other = await runEngineer([
      "accept",
      "--lang",
      "zh",
      "--oracle",
      oracle,
      "--baseline",
      baseline,
      "--",
      ...fixtureCommand("duplicates"),
    ]);
    assert.equal(other.code, 2);
    assert.deepEqual(other.out, []);
    assert.equal(
      other.err[0],
      `guardlab: "${baseline}" 是服务器 "notes-server" 的基线，不是 "fixture-duplicates" 的：基线只能豁免它所来自的服务器的结论`,
    );
    // Another oracle: refused before the server starts.
    const changed = JSON.parse(Deno.readTextFileSync(oracle));
    changed.tools[0].call.text = "changed {run}";
    const changedPath = join(dir.path, "changed.json");
    Deno.writeTextFileSync(changedPath, JSON.stringify(changed));
    const otherOracle = await runEngineer([
      "accept",
      "--oracle",
      changedPath,
      "--baseline",
      baseline,
      "--",
      "no-such-server-is-started",
    ]);
    assert.equal(otherOracle.code, 2);
    assert.match(otherOracle.err[0], /was made with another oracle \(sha256:/);
  },
});

Deno.test({
  name:
    "accept ci: --output and --junit write a new file: a link or an existing name is refused (exit 4) before the server starts, and left as it was" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-files-");
    const target = join(dir.path, "target.txt");
    Deno.writeTextFileSync(target, "mine\n");
    const link = join(dir.path, "link.json");
    Deno.symlinkSync(target, link);
    const taken = join(dir.path, "taken.xml");
    Deno.writeTextFileSync(taken, "old report\n");
    // --junit: a FIFO, a file with a second name, another user's file, in
    // a folder of their own (a listing would wait on the FIFO's reader).
    using odd = privateDir("gl-accept-odd-");
    const fifo = join(odd.path, "fifo.xml");
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const twice = join(odd.path, "twice.xml");
    Deno.writeTextFileSync(twice, "old report\n");
    Deno.linkSync(twice, join(odd.path, "second-name.xml"));
    // Only root can give a file away: elsewhere that refusal is not tried.
    let others: string | null = join(odd.path, "others.xml");
    Deno.writeTextFileSync(others, "their report\n");
    try {
      Deno.chownSync(others, 65534, null);
    } catch {
      Deno.removeSync(others);
      others = null;
    }
    const oracle = join(dir.path, "o.json");
    Deno.writeTextFileSync(
      oracle,
      JSON.stringify({
        tools: [{
          tool: "put_note",
          call: { id: "n-{run}-{n:3}", text: "t" },
          key: "/id",
          read: { tool: "get_notes", arguments: { id: "{key}" } },
          count: { text: "{key}" },
        }],
      }),
    );
    const before = await listing(dir.path);
    // A server that would leave a mark if it were started.
    const marker = join(dir.path, "started");
    const server = ["sh", "-c", `touch ${marker}`];
    for (
      const [args, problem] of [
        [
          ["accept", "init", "--output", link, "--", ...server],
          "is a symbolic link; guardlab never follows links",
        ],
        [
          ["accept", "init", "--output", taken, "--", ...server],
          "exists already; guardlab writes a new file and never replaces one; give a new name (or remove the old file first)",
        ],
        [
          ["accept", "--oracle", oracle, "--junit", link, "--", ...server],
          "is a symbolic link; guardlab never follows links",
        ],
        [
          ["accept", "--oracle", oracle, "--junit", fifo, "--", ...server],
          "is not a regular file",
        ],
        [
          ["accept", "--oracle", oracle, "--junit", twice, "--", ...server],
          "has 2 hard links; guardlab refuses a file it may share with another name",
        ],
        ...(others === null ? [] : [
          [
            ["accept", "--oracle", oracle, "--junit", others, "--", ...server],
            "belongs to uid 65534, not to you",
          ] as const,
        ]),
      ] as const
    ) {
      const r = await runEngineer([...args]);
      assert.equal(r.code, 4, args.join(" "));
      assert.equal(r.err.length, 1, r.err.join("\n"));
      assert.ok(r.err[0].startsWith("guardlab: refused: "), r.err[0]);
      assert.ok(r.err[0].includes(problem), r.err[0]);
    }
    assert.deepEqual(await listing(dir.path), before);
    assert.equal(Deno.readTextFileSync(target), "mine\n");
    assert.equal(Deno.readTextFileSync(twice), "old report\n");
    assert.ok(Deno.lstatSync(fifo).isFifo);
    if (others !== null) {
      assert.equal(Deno.readTextFileSync(others), "their report\n");
    }
  },
});

Deno.test({
  name:
    "accept ci: --junit over the user's own report of an earlier run replaces it with this run's (a rerun; before: refused, exit 4)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-rerun-");
    const store = join(dir.path, "notes.jsonl");
    const oracle = join(dir.path, "o.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    const junit = join(dir.path, "report.xml");
    Deno.writeTextFileSync(junit, "old report\n");
    const r = await runEngineer([
      "accept",
      "--cases",
      "once",
      "--oracle",
      oracle,
      "--junit",
      junit,
      "--",
      ...fixtureCommand("correct", store),
    ]);
    assert.equal(r.code, 0, r.err.join("\n"));
    const xml = Deno.readTextFileSync(junit);
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), xml);
    assert.match(xml, /<testcase [^>]*name="put_note\/once"/);
    // Nothing beside it: the new report took the old one's name.
    assert.deepEqual(
      [...Deno.readDirSync(dir.path)].map((e) => e.name).filter((n) =>
        n.startsWith(".report.xml")
      ),
      [],
    );
    assert.equal(storedNotes(store).length, 1);
  },
});

const TOKEN = "Bearer fixture-s3cret-7f3a";
/** A secret given with --header, in the open on guardlab's command line. */
const PLAIN_SECRET = "plain-s3cret-9b1c";

Deno.test({
  name:
    "accept ci: a server behind a bearer token: --header-env reads GUARDLAB_HEADER_* under the engineer grant, and the value is nowhere guardlab writes" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const [command, ...args] = fixtureCommand("http-auth");
    const child = new Deno.Command(command, {
      args,
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).spawn();
    try {
      // The fixture writes its port first: wait for that line, not for time.
      const first = (await linesOf(child.stdout).next()).value as {
        text: string;
      };
      const url = `http://127.0.0.1:${first.text}/mcp`;
      using dir = privateDir("gl-accept-http-");
      const env = { GUARDLAB_HEADER_TOKEN: TOKEN };
      const draft = join(dir.path, "o.json");
      const init = await runEngineer(
        [
          "accept",
          "init",
          "--output",
          draft,
          "--url",
          url,
          "--header-env",
          "Authorization=GUARDLAB_HEADER_TOKEN",
        ],
        "",
        env,
      );
      assert.equal(init.code, 0, init.err.join("\n"));
      const oracle = confirmed(draft, join(dir.path, "ok.json"));
      const junit = join(dir.path, "r.xml");
      const trace = join(dir.path, "r.jsonl");
      const run = await runEngineer(
        [
          "accept",
          "--json",
          "--oracle",
          oracle,
          "--junit",
          junit,
          "--otlp",
          trace,
          "--cases",
          "once,rejected",
          "--url",
          url,
          "--header-env",
          "Authorization=GUARDLAB_HEADER_TOKEN",
          "--header",
          "X-Trace=on",
          "--header",
          `X-Api-Key=${PLAIN_SECRET}`,
        ],
        "",
        env,
      );
      assert.equal(run.code, 0, run.err.join("\n"));
      assert.deepEqual(
        JSON.parse(run.stdout).results.map((r: { verdict: string }) =>
          r.verdict
        ),
        ["ONCE", "NO-EFFECT"],
      );
      const secret = "fixture-s3cret-7f3a";
      for (const text of [init.stdout, init.stderr, run.stdout, run.stderr]) {
        assert.ok(!text.includes(secret));
      }
      for (const file of [draft, oracle, junit, trace]) {
        assert.ok(!Deno.readTextFileSync(file).includes(secret), file);
        assert.ok(!Deno.readTextFileSync(file).includes(PLAIN_SECRET), file);
      }
      // The trace holds the run: a span per case, with its verdict.
      const cases = spansOf(decodeOtlpFile(Deno.readTextFileSync(trace)))
        .filter((s) => s.name.startsWith("case "))
        .map((s) => attributesOf(s.attributes)["guardlab.verdict"]);
      assert.deepEqual(cases, ["ONCE", "NO-EFFECT"]);
      // Without the token the server refuses initialize: one line, exit 6.
      const none = await runEngineer(["accept", "init", "--url", url]);
      assert.equal(none.code, 6);
      assert.deepEqual(none.err, [
        "guardlab: the server refused initialize (HTTP 401); nothing was tested",
      ]);
      // A variable the grant does not name is refused, not read.
      const other = await runEngineer(
        [
          "accept",
          "init",
          "--url",
          url,
          "--header-env",
          "Authorization=MY_TOKEN",
        ],
        "",
        { MY_TOKEN: TOKEN },
      );
      assert.equal(other.code, 4);
      assert.deepEqual(other.err, [
        "guardlab: refused: --header-env MY_TOKEN: this guardlab's grant does not name that variable (the engineer grant reads GUARDLAB_HEADER_* only): name it GUARDLAB_HEADER_…, or run guardlab with a grant that names it",
      ]);
      assert.ok(chapter8("en").includes(`\n    ${other.err[0]}\n`));
      const otherZh = await runEngineer(
        [
          "accept",
          "init",
          "--lang",
          "zh",
          "--url",
          url,
          "--header-env",
          "Authorization=MY_TOKEN",
        ],
        "",
        { MY_TOKEN: TOKEN },
      );
      assert.ok(
        chapter8("zh").includes(`\n    ${otherZh.err[0]}\n`),
        otherZh.err[0],
      );
      // A malformed --header never echoes what it was given.
      const malformed = await runEngineer([
        "accept",
        "init",
        "--url",
        url,
        "--header",
        `Authorization: ${TOKEN}`,
      ]);
      assert.equal(malformed.code, 2);
      assert.ok(!malformed.stderr.includes(secret));
      assert.match(malformed.err[0], /^guardlab: --header …: not NAME=VALUE/);
    } finally {
      child.kill();
      await child.status;
    }
  },
});

Deno.test({
  name:
    "accept ci: the engineer grant reaches loopback only: another host is refused in one line naming how to test it on purpose; headers go with --url only" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-accept-host-");
    const oracle = join(dir.path, "o.json");
    Deno.writeTextFileSync(oracle, "{}");
    const staging = await runEngineer([
      "accept",
      "init",
      "--url",
      "https://staging.example.com/mcp",
    ]);
    assert.equal(staging.code, 4);
    assert.deepEqual(staging.err, [
      "guardlab: refused: guardlab accept init --url staging.example.com:443: this guardlab's grant reaches this machine's loopback only (127.0.0.1, localhost, [::1]); to test another host on purpose, run guardlab with a grant that names it (see docs/en/08-accept-your-own-tool.md, a staging host)",
    ]);
    // The chapter's line is accept's own (the same refusal, without init).
    for (const lang of ["en", "zh"] as const) {
      const r = await runEngineer([
        "accept",
        "--lang",
        lang,
        "--oracle",
        oracle,
        "--url",
        "https://staging.example.com/mcp",
      ]);
      assert.equal(r.code, 4);
      assert.ok(chapter8(lang).includes(`\n    ${r.err[0]}\n`), r.err[0]);
    }
    const plain = await runEngineer([
      "accept",
      "init",
      "--url",
      "http://user:pw@staging.example.com/mcp",
    ]);
    assert.equal(plain.code, 2);
    assert.ok(!plain.stderr.includes("pw@"), plain.stderr);
    const noUrl = await runEngineer([
      "accept",
      "--example",
      "idempotent",
      "--header",
      "A=b",
    ]);
    assert.equal(noUrl.code, 2);
    assert.equal(
      noUrl.err[0],
      "guardlab: --header and --header-env go with --url (a started server gets no headers)",
    );
    const initFlag = await runEngineer([
      "accept",
      "init",
      "--junit",
      join(dir.path, "r.xml"),
      "--",
      "true",
    ]);
    assert.equal(initFlag.code, 2);
    assert.match(initFlag.err[0], /accept init takes only .*; got --junit$/);
  },
});

Deno.test({
  name:
    "accept ci: init follows tools/list's pages, and a list that never ends is read to its bound" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const paged = await runEngineer([
      "accept",
      "init",
      "--",
      ...fixtureCommand("paged"),
    ]);
    assert.equal(paged.code, 0, paged.err.join("\n"));
    // The read tool was on the second page.
    assert.deepEqual(paged.err.slice(0, 3), [
      "guardlab accept init: fixture-paged 1, 2 tools listed",
      "draft oracle on stdout (write tools: 1)",
      "read-only (readOnlyHint: true), not drafted: get_notes",
    ]);
    assert.deepEqual(JSON.parse(paged.stdout).tools[0].read, {
      tool: "get_notes",
      arguments: { id: "{key}" },
    });
    const forever = await runEngineer([
      "accept",
      "init",
      "--",
      ...fixtureCommand("pages-forever"),
    ]);
    assert.equal(forever.code, 0, forever.err.join("\n"));
    // 20 pages, each listing put_note again: drafted once.
    assert.equal(
      forever.err[0],
      "guardlab accept init: fixture-pages-forever 1, 20 tools listed",
    );
    assert.equal(JSON.parse(forever.stdout).tools.length, 1);
  },
});

Deno.test({
  name:
    'accept ci: init against a server whose tools/list answers an error says so in one line, exit 6 (before: "the server lists 0 tools", exit 1)' +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const r = await runEngineer([
      "accept",
      "init",
      "--",
      ...fixtureCommand("list-fails"),
    ]);
    assert.equal(r.code, 6);
    assert.equal(r.stdout, "");
    assert.deepEqual(r.err, [
      "guardlab: the server's tools/list could not be read (it answered an error); nothing was drafted",
    ]);
  },
});
