/**
 * `accept --url`: a server over Streamable HTTP on this machine's
 * loopback, answering in JSON and in a server-sent event stream; and a URL
 * off this machine is a usage error before anything is sent.
 */
import assert from "node:assert/strict";
import { CASE_NAMES } from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { httpChannel, loopbackUrl } from "../../lib/wire/http.ts";
import { join } from "node:path";
import { HTTP_CLOSE_MS } from "../../lib/wire/limits.ts";
import { runAccept } from "../../lib/accept/run.ts";
import { within } from "../../lib/wire/server_process.ts";
import { InitializeFailed } from "../../lib/accept/session.ts";
import { type Line, linesOf } from "../../lib/base/lines.ts";
import {
  CAN_START,
  fixtureCommand,
  matrixOf,
  privateDir,
  runEngineer,
  storedNotes,
} from "../_helpers/accept_helpers.ts";

const CAN_NET =
  Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state ===
    "granted";
const NEEDS = CAN_START && CAN_NET
  ? ""
  : " [ignored: starts an HTTP server on 127.0.0.1, which needs --allow-run, --allow-env and --allow-net=127.0.0.1; run `deno task test`]";

Deno.test("http: only http:// on a loopback host is a URL accept talks to", () => {
  assert.equal(loopbackUrl("http://127.0.0.1:8080/mcp")?.port, "8080");
  assert.ok(loopbackUrl("http://localhost/mcp"));
  assert.ok(loopbackUrl("http://[::1]:9/mcp"));
  for (
    const bad of [
      "https://127.0.0.1/mcp",
      "http://10.0.0.1/mcp",
      "http://example.com/",
      "http://user:pw@127.0.0.1/",
      "not a url",
    ]
  ) {
    assert.equal(loopbackUrl(bad), null, bad);
  }
});

/**
 * Start the HTTP fixture in `mode` (its notes in `store`, when given), run
 * `fn` with its URL, and end it.
 */
async function withHttpFixture(
  mode: string,
  fn: (url: URL, lines: AsyncGenerator<Line>) => Promise<void>,
  store?: string,
): Promise<void> {
  const [command, ...args] = fixtureCommand(mode, store);
  const child = new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const reader = linesOf(child.stdout);
  try {
    // The fixture writes its port first: wait for that line, not for time.
    const first = (await reader.next()).value as { text: string };
    await fn(loopbackUrl(`http://127.0.0.1:${first.text}/mcp`)!, reader);
  } finally {
    try {
      child.kill();
    } catch { /* it has ended */ }
    await child.status;
    await reader.return(undefined);
  }
}

for (const mode of ["http", "http-sse"]) {
  Deno.test({
    name:
      `http: the whole matrix over Streamable HTTP (${
        mode === "http" ? "JSON answers" : "an event stream"
      })` + NEEDS,
    ignore: !(CAN_START && CAN_NET),
    async fn() {
      await withHttpFixture(mode, async (url) => {
        const report = await runAccept(httpChannel(url), {
          oracle: EXAMPLE_ORACLE,
          cases: CASE_NAMES,
          copies: 10,
          timeoutMs: 10_000,
          cancelAfterMs: 0,
        });
        assert.deepEqual(report.server, {
          name: `fixture-${mode}`,
          version: "1",
        });
        // Each message is its own request: whether the count after the
        // cancel already sees the call's effect is the server's order of
        // requests; the information must say what the count saw.
        const cancel = report.results[3];
        assert.equal(
          cancel.info.includes("EFFECT-DESPITE-CANCEL"),
          (cancel.effect_before_retry ?? 0) > 0,
        );
        assert.deepEqual(
          matrixOf(report).map((l) =>
            l.replace(/ \+EFFECT-DESPITE-CANCEL$/, "")
          ),
          [
            "once: ONCE",
            "rejected: NO-EFFECT",
            "lost-reply-retry: ONCE",
            "cancel-after-send: ONCE",
            "concurrent-distinct: ALL-KEPT",
            "concurrent-same: ONCE",
            "same-key-other-arguments: CONFLICT-REPORTED",
            // guardlab did not start it: no second process, no restart.
            "two-processes: NOT-RUN",
            "crash-after-commit: NOT-RUN",
            "annotations: NOTHING-PROMISED",
          ],
        );
        assert.equal(report.results[7].not_run, "not-started");
        assert.deepEqual(report.results.flatMap((r) => r.notices), []);
      });
    },
  });
}

Deno.test({
  name:
    "http: a 202 to a notification that carries the body null is noted and discarded, as the SDK's client does; the cancel case keeps its real verdict" +
    NEEDS,
  ignore: !(CAN_START && CAN_NET),
  async fn() {
    using dir = privateDir("gl-accept-http-202-");
    const store = join(dir.path, "notes.jsonl");
    await withHttpFixture("http-202-null", async (url) => {
      const report = await runAccept(httpChannel(url), {
        oracle: EXAMPLE_ORACLE,
        cases: ["cancel-after-send"],
        copies: 10,
        timeoutMs: 10_000,
        cancelAfterMs: 0,
      });
      const [cancel] = report.results;
      // Before: PROTOCOL-VIOLATION ("not-message"), the real verdict lost.
      assert.equal(cancel.verdict, "FALSE-FAILURE");
      assert.deepEqual(cancel.problems, []);
      // The cancel's 202 (the initialized notification's may land here too:
      // its answer comes when it comes).
      assert.deepEqual(
        cancel.notices.filter((n) =>
          n.kind === "discarded-body" && n.method === "notifications/cancelled"
        ),
        [{
          kind: "discarded-body",
          status: 202,
          method: "notifications/cancelled",
        }],
      );
      assert.ok(
        cancel.timeline.some((e) =>
          e.kind === "notice" && e.notice === "discarded-body"
        ),
      );
      // The retry was told "already exists": its text is kept, inert.
      assert.deepEqual(cancel.client_saw, ["no-answer", "tool-error"]);
      assert.match(
        cancel.answers.find((a) => a.call === 2)?.text ?? "",
        /^UNIQUE constraint failed: notes\.id/,
      );
      // The server's own store: one note under the key, the first call's.
      assert.equal(
        storedNotes(store).filter((n) => n.id === cancel.key).length,
        1,
      );
      assert.equal(cancel.effect, 1);
    }, store);
  },
});

Deno.test({
  name:
    "http: initialize answered with an event stream that never carries the answer and never ends: the wait ends, the stream is cancelled, the session's end is bounded" +
    NEEDS,
  ignore: !(CAN_START && CAN_NET),
  async fn() {
    await withHttpFixture("http-init-stream", async (url) => {
      const ended = runAccept(httpChannel(url), {
        oracle: EXAMPLE_ORACLE,
        cases: ["once"],
        copies: 10,
        timeoutMs: 200,
        startTimeoutMs: 200,
      }).then(() => "tested", (error) => error);
      // A bound of the test's own, far past the run's (200 ms, then at most
      // HTTP_CLOSE_MS for the DELETE the server never answers): a run that
      // does not end fails here instead of hanging the suite.
      const error = await within(ended, 200 + HTTP_CLOSE_MS + 30_000, "hung");
      assert.ok(error instanceof InitializeFailed, String(error));
      assert.equal(error.why, "no-answer");
      // Nothing of the stream or the DELETE is left open: the test's own
      // sanitizers fail it on any op or resource still pending.
    });
  },
});

for (const mode of ["http-sse-flood", "http-json-flood"]) {
  Deno.test({
    name:
      `http: ${mode}: an answer body that never ends, sent as fast as it is read, is read to the 4 MiB bound and no further (cancelled while the server still sends), and accept ends` +
      NEEDS,
    ignore: !(CAN_START && CAN_NET),
    async fn() {
      await withHttpFixture(mode, async (url, lines) => {
        const channel = httpChannel(url);
        const problems: string[] = [];
        channel.onproblem = (p) => problems.push(p.kind);
        channel.send({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "put_note", arguments: { id: "a", text: "b" } },
        });
        // The fixture says when the client stopped reading: an event, not
        // a time. Before: the data lines of the event that never closes
        // were cut at each 4 MiB and read on, and the empty lines of JSON
        // grew an array without bound, both until the request's wait
        // ended, and past it (Deno 2.9.6 may go on handing out chunks
        // after the signal is aborted).
        const said = await within(
          lines.next().then((l) => l.value),
          30_000,
          null,
        );
        await channel.close();
        assert.deepEqual(said, { number: 2, text: "body cancelled" });
        assert.deepEqual(problems, ["too-long"]);
      });
    },
  });
}

Deno.test({
  name:
    "http: a call answered with an event stream that never ends is read no further once the wait for it ends: accept ends" +
    NEEDS,
  ignore: !(CAN_START && CAN_NET),
  async fn() {
    await withHttpFixture("http-sse-flood", async (url, lines) => {
      const report = await within(
        runAccept(httpChannel(url), {
          oracle: EXAMPLE_ORACLE,
          cases: ["once"],
          copies: 10,
          timeoutMs: 300,
        }),
        300 + HTTP_CLOSE_MS + 30_000,
        null,
      );
      assert.ok(report !== null, "the run did not end");
      const [once] = report.results;
      assert.deepEqual(once.client_saw, ["no-answer"]);
      // A body past the bound when 4 MiB came before the wait ended (the
      // load decides which): never more than the one problem.
      assert.ok(once.problems.length <= 1, JSON.stringify(once.problems));
      assert.equal(
        once.verdict,
        once.problems.length === 0 ? "NO-ANSWER" : "PROTOCOL-VIOLATION",
      );
      const said = await within(
        lines.next().then((l) => l.value),
        30_000,
        null,
      );
      assert.deepEqual(said, { number: 2, text: "body cancelled" });
    });
  },
});

Deno.test({
  name: "http: accept --url under the engineers' grant (loopback net only)" +
    NEEDS,
  ignore: !(CAN_START && CAN_NET),
  async fn() {
    using dir = privateDir("gl-accept-http-");
    const oracle = `${dir.path}/oracle.json`;
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    const [command, ...args] = fixtureCommand("http");
    const child = new Deno.Command(command, {
      args,
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).spawn();
    try {
      const reader = linesOf(child.stdout);
      const first = (await reader.next()).value as { text: string };
      const r = await runEngineer([
        "accept",
        "--json",
        "--cases",
        "once,lost-reply-retry",
        "--oracle",
        oracle,
        "--url",
        `http://127.0.0.1:${first.text}/mcp`,
      ]);
      assert.equal(r.code, 0, r.err.join("\n"));
      assert.deepEqual(
        JSON.parse(r.stdout).results.map((x: { verdict: string }) => x.verdict),
        ["ONCE", "ONCE"],
      );
      await reader.return(undefined);
    } finally {
      try {
        child.kill();
      } catch { /* it has ended */ }
      await child.status;
    }
  },
});
