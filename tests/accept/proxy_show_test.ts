/**
 * `proxy show` draws no more than the record holds. A message over 64 KiB
 * is kept as its size only: its answer is not a success nobody saw, and a
 * call whose arguments were not kept is neither a cancel nor a retry of
 * another such call. And a record is input (a classmate may hand you one):
 * the names in it are shown inert, colour codes too. Records written by
 * hand.
 */
import assert from "node:assert/strict";
import { say } from "../../lib/base/i18n.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import type { RecordLine } from "../../lib/accept/record.ts";
import {
  proxyShowLines,
  proxySteps,
} from "../../lib/accept/views/proxy_view.ts";

const call = (
  n: number,
  id: number,
  tool: string,
  text: string,
): RecordLine => ({
  kind: "msg",
  t: n,
  dir: "client>server",
  action: "forwarded",
  call: n,
  tool,
  bytes: 100,
  msg: {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: tool, arguments: { id: "a", text } },
  },
});

const RECORD: RecordLine[] = [
  { kind: "start", guardlab_proxy: 1, command: ["srv\x1b[8m", "x"] },
  // Two calls with arguments over 64 KiB: kept as their size only.
  {
    kind: "msg",
    t: 1,
    dir: "client>server",
    action: "forwarded",
    call: 1,
    tool: "put_note",
    bytes: 70_000,
  },
  {
    kind: "msg",
    t: 2,
    dir: "client>server",
    action: "forwarded",
    call: 2,
    tool: "put_note",
    bytes: 70_001,
  },
  // An error answer of 3.5 MB, kept as its size only.
  {
    kind: "msg",
    t: 3,
    dir: "server>client",
    action: "forwarded",
    call: 1,
    tool: "put_note",
    bytes: 3_500_120,
  },
  {
    kind: "msg",
    t: 4,
    dir: "server>client",
    action: "forwarded",
    call: 2,
    tool: "put_note",
    bytes: 60,
    msg: { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad" } },
  },
  // A tool named with colour codes that hide what follows.
  call(3, 4, "put\x1b[8m_hidden\x1b[0m_note", "b"),
  { kind: "end", t: 6, truncated: false },
];

Deno.test("proxy show: a message kept as its size only is drawn as not kept: never a success, a cancel or a retry", () => {
  const texts = proxySteps(RECORD).map((s) =>
    `${s.lane}: ${say(s.text, "en")}`
  );
  // Before: "client: cancels call 1", "client: cancels call 2" and
  // "server: answers call 1: success".
  assert.deepEqual(texts, [
    "client: sends call 1 put_note (a message of 70000 bytes, not kept: its key is unknown)",
    "client: sends call 2 put_note (a message of 70001 bytes, not kept: its key is unknown)",
    "server: answers call 1: a message of 3500120 bytes, not kept",
    "server: answers call 2: JSON-RPC error",
    "client: sends call 3 put\\u001b[8m_hidden\\u001b[0m_note",
  ]);
  const zh = proxySteps(RECORD).map((s) => say(s.text, "zh"));
  assert.equal(
    zh[0],
    "发送调用 1 put_note（一条 70000 字节的消息，未保留：业务键未知）",
  );
  assert.equal(zh[2], "应答调用 1：一条 3500120 字节的消息，未保留");
});

Deno.test("proxy show: the names a record holds are shown inert, colour codes too, within 80 columns", () => {
  for (const lang of ["en", "zh"] as const) {
    const screen = proxyShowLines(RECORD, "/tmp/r.jsonl", lang);
    // deno-lint-ignore no-control-regex -- the character the test looks for
    assert.deepEqual(screen.filter((l) => /\x1b/.test(l)), []);
    assert.deepEqual(screen.filter((l) => displayWidth(l) > 80), []);
    assert.ok(screen.join("\n").includes("srv\\u001b[8m x"));
  }
});
