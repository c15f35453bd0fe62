/**
 * The nesting-depth bound at the client end of the wire, against a hostile
 * server that really sends what it is bounded against (the fixture's
 * `deep-read` mode answers every read with each note's id nested 100,000
 * levels deep). Before the bound, accept read that answer, compared ids it
 * could not compare, counted 0 and said NONE (unsafe), though the server
 * had written the note (its own store says so). Now the answer is read no
 * further: one line names the bound, and the case is not judged.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { MAX_DEPTH } from "../../lib/wire/limits.ts";
import {
  acceptFixture,
  CAN_START,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  runEngineer,
  storedNotes,
  storedUnder,
} from "../_helpers/accept_helpers.ts";

Deno.test({
  name:
    "depth: a read answered nested past the bound is read no further; the case is not judged (before: NONE, though the server's store holds the note)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await acceptFixture("deep-read", [
      "once",
      "lost-reply-retry",
    ]);
    const [once, retry] = report.results;
    assert.equal(once.verdict, "READ-FAILED");
    assert.equal(once.class, "inconclusive");
    assert.equal(once.effect, null);
    // The write happened: the server's own store has the note.
    assert.equal(storedUnder(report, once.key), 1);
    assert.deepEqual(once.notices, [{ kind: "too-deep", max: MAX_DEPTH }]);
    // Its history says what came: the fresh key's read before the call
    // (no note, nothing nested: 0), then a read that could not count.
    assert.deepEqual(
      once.history.records.filter((r) => r.op === "read").map((r) =>
        r.op === "read" ? r.count : "?"
      ),
      [0, null],
    );
    assert.equal(retry.verdict, "READ-FAILED");
    assert.equal(storedUnder(report, retry.key), 1);
    // No wait ran out for it: the answer came, and was refused at once.
    assert.equal(report.inconclusive, 2);
  },
});

Deno.test({
  name:
    "depth: accept against that server, as an engineer runs it: one line names the bound under the row, exit 6, nothing on stderr" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-depth-cli-");
    const oracle = join(dir.path, "oracle.json");
    Deno.writeTextFileSync(oracle, JSON.stringify(EXAMPLE_ORACLE));
    const store = join(dir.path, "notes.jsonl");
    const r = await runEngineer([
      "accept",
      "--cases",
      "once",
      "--oracle",
      oracle,
      "--",
      ...fixtureCommand("deep-read", store),
    ]);
    assert.equal(r.code, 6, r.err.join("\n"));
    assert.deepEqual(r.err, []);
    const screen = r.out.join("\n");
    assert.match(screen, /once {21}success {17}\? {11}READ-FAILED/);
    assert.ok(
      r.out.map((l) => l.trim()).join(" ").includes(
        "the server sent a message nested deeper than 64 levels; guardlab read it no further (an answer so deep counts as none: the case is not judged on it)",
      ),
      screen,
    );
    assert.equal(storedNotes(store).length, 1);
  },
});

Deno.test({
  name:
    "depth: the proxy does not forward a server's message nested past the bound, and says so in one line; the record keeps its size" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    using dir = privateDir("gl-depth-proxy-");
    const record = join(dir.path, "record.jsonl");
    const session = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "put_note", arguments: { id: "a", text: "b" } },
      },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "get_notes", arguments: { id: "a" } },
      },
    ].map((m) => JSON.stringify(m)).join("\n") + "\n";
    const r = await runEngineer([
      "proxy",
      "--record",
      record,
      "--timeout-ms",
      "200",
      "--",
      ...fixtureCommand("deep-read"),
    ], session);
    assert.equal(r.code, 0, r.err.join("\n"));
    // The client has the answers it can read; the deep one never reached it.
    assert.deepEqual(r.out.map((l) => JSON.parse(l).id), [1, 2]);
    assert.deepEqual(
      r.err.filter((l) => l.includes("nested")),
      [
        `guardlab proxy: the server sent a message nested deeper than ${MAX_DEPTH} levels; not read, not forwarded`,
      ],
    );
    const lines = Deno.readTextFileSync(record).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const deep = lines.filter((l) => l.action === "too-deep");
    assert.equal(deep.length, 1);
    assert.equal(deep[0].dir, "server>client");
    assert.ok(deep[0].bytes > 200_000, String(deep[0].bytes));
    assert.equal(deep[0].msg, undefined);
  },
});
