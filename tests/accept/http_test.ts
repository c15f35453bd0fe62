/**
 * `accept --url`: a server over Streamable HTTP on this machine's
 * loopback, answering in JSON and in a server-sent event stream; and a URL
 * off this machine is a usage error before anything is sent.
 */
import assert from "node:assert/strict";
import { CASE_NAMES } from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { httpChannel, loopbackUrl } from "../../lib/accept/http.ts";
import { runAccept } from "../../lib/accept/run.ts";
import { linesOf } from "../../lib/base/lines.ts";
import {
  CAN_START,
  fixtureCommand,
  matrixOf,
  privateDir,
  runEngineer,
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

for (const mode of ["http", "http-sse"]) {
  Deno.test({
    name:
      `http: the whole matrix over Streamable HTTP (${
        mode === "http" ? "JSON answers" : "an event stream"
      })` + NEEDS,
    ignore: !(CAN_START && CAN_NET),
    async fn() {
      const [command, ...args] = fixtureCommand(mode);
      const child = new Deno.Command(command, {
        args,
        stdout: "piped",
        stderr: "null",
        stdin: "null",
      }).spawn();
      try {
        // The fixture writes its port first: wait for that line, not for time.
        const reader = linesOf(child.stdout);
        const first = (await reader.next()).value as { text: string };
        const url = loopbackUrl(`http://127.0.0.1:${first.text}/mcp`)!;
        const report = await runAccept(httpChannel(url), {
          oracle: EXAMPLE_ORACLE,
          cases: CASE_NAMES,
          copies: 10,
          timeoutMs: 10_000,
          cancelAfterMs: 20,
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
          ],
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
}

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
