/**
 * `accept --example NAME`: the example servers built into guardlab run in
 * process under the student grant (nothing is started), and each one's
 * matrix names exactly what it gets wrong. Expected matrices and screens
 * are written by hand.
 */
import assert from "node:assert/strict";
import {
  CASE_NAMES,
  type CaseName,
  EXAMPLE_NAMES,
  type ExampleName,
} from "../../lib/accept/cases.ts";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import { exampleServer } from "../../lib/accept/_examples.ts";
import { runAccept } from "../../lib/accept/run.ts";
import {
  acceptScreen,
  timelineLines,
} from "../../lib/accept/views/accept_view.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import { assertJudgedAgain, matrixOf } from "../_helpers/accept_helpers.ts";

const EXPECTED: Record<ExampleName, string[]> = {
  "idempotent": [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: ONCE",
    "cancel-after-send: ONCE +EFFECT-DESPITE-CANCEL",
    "concurrent-distinct: ALL-KEPT",
    "concurrent-same: ONCE",
    "same-key-other-arguments: CONFLICT-REPORTED",
    "two-processes: ALL-KEPT",
    "crash-after-commit: ONCE",
    "annotations: HINTS-HOLD",
  ],
  "duplicates-on-retry": [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: DUPLICATED",
    "cancel-after-send: DUPLICATED +EFFECT-DESPITE-CANCEL",
    "concurrent-distinct: ALL-KEPT",
    "concurrent-same: DUPLICATED",
    // The other text is appended beside the first: two effects, one key.
    "same-key-other-arguments: DUPLICATED",
    "two-processes: ALL-KEPT",
    "crash-after-commit: DUPLICATED",
    // It declares idempotentHint: true.
    "annotations: ANNOTATION-CONTRADICTED",
  ],
  "loses-updates": [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: ONCE",
    // Its write comes a turn after the call: the read right after the
    // cancel comes first.
    "cancel-after-send: ONCE",
    "concurrent-distinct: LOST",
    "concurrent-same: ONCE",
    "same-key-other-arguments: SILENT-CONFLICT",
    "two-processes: LOST",
    "crash-after-commit: ONCE",
    // It declares nothing, for put_note or get_notes.
    "annotations: NOTHING-PROMISED +READ-HINT-MISSING",
  ],
  "false-failure": [
    "once: ONCE",
    "rejected: NO-EFFECT",
    "lost-reply-retry: FALSE-FAILURE",
    "cancel-after-send: FALSE-FAILURE +EFFECT-DESPITE-CANCEL",
    "concurrent-distinct: ALL-KEPT",
    // 9 of 10 were told it failed.
    "concurrent-same: FALSE-FAILURE",
    "same-key-other-arguments: CONFLICT-REPORTED",
    "two-processes: ALL-KEPT",
    "crash-after-commit: FALSE-FAILURE",
    "annotations: ANNOTATION-CONTRADICTED",
  ],
};

const OPTIONS = {
  oracle: EXAMPLE_ORACLE,
  cases: CASE_NAMES,
  copies: 10,
  timeoutMs: 10_000,
  // The cancel leaves with the call, before any answer can come.
  cancelAfterMs: 0,
};

/** Run example `name` through `cases` in process, a second server over its notes at hand. */
async function run(
  name: ExampleName,
  cases: readonly CaseName[] = CASE_NAMES,
) {
  const server = exampleServer(name);
  return await runAccept(await server.open(), {
    ...OPTIONS,
    cases,
    start: server.open,
  });
}

for (const name of EXAMPLE_NAMES) {
  Deno.test(`accept examples: ${name}: its matrix, in process`, async () => {
    const report = await run(name);
    assert.deepEqual(matrixOf(report), EXPECTED[name]);
    assert.equal(report.server.name, `guardlab-example-${name}`);
    // Its verdicts come from its histories: judged again, the same rows.
    assertJudgedAgain(report);
  });
}

Deno.test("accept examples: the CLI's exit code: 0 when every verdict is safe, 5 when one is unsafe", async () => {
  const good = await cli(["accept", "--example", "idempotent", "--json"]);
  assert.equal(good.code, 0, good.err.join("\n"));
  const json = JSON.parse(good.out.join("\n"));
  assert.equal(json.exit, 0);
  assert.deepEqual(json.results.map((r: { case: string }) => r.case), [
    ...CASE_NAMES,
  ]);
  assert.deepEqual(Object.keys(json.results[0]).sort(), [
    "answers",
    "case",
    "class",
    "client_saw",
    "effect",
    "entry",
    "history",
    "info",
    "key",
    "notices",
    "problems",
    "run",
    "timeline",
    "tool",
    "verdict",
  ]);
  for (
    const name of ["duplicates-on-retry", "loses-updates", "false-failure"]
  ) {
    const bad = await cli(["accept", "--example", name]);
    assert.equal(bad.code, 5, name);
    assert.equal(bad.out.at(-1), "exit 5: at least one verdict is unsafe");
  }
});

Deno.test("accept examples: the screen in Chinese, the matrix row under its head", async () => {
  const r = await cli([
    "accept",
    "--example",
    "duplicates-on-retry",
    "--cases",
    "lost-reply-retry",
    "--lang",
    "zh",
  ]);
  assert.equal(r.code, 5);
  assert.deepEqual(r.out, [
    "guardlab accept：guardlab-example-duplicates-on-retry 1",
    "示例服务器 duplicates-on-retry，在 guardlab 进程内运行（没有启动任何程序）",
    "",
    "写入工具 put_note",
    "  声明的提示：idempotentHint: true，readOnlyHint: false",
    "  用例                     客户端看到              效果        结论",
    "  lost-reply-retry         无应答，然后成功        2，之前 1   DUPLICATED",
    "      同一业务键出现多个效果：重试、重复投递或其他参数又写了一次，与第一次并存",
    "      文章：仅凭一个超时异常就再次发送，可能造成重复效果",
    "",
    "已运行用例 1 个：安全 0，不安全 1，无法判断 0，提示 0",
    "退出码 5：至少一个结论不安全",
  ]);
});

Deno.test("accept examples: the timeline of a lost reply: the effect is visible before the client retries", async () => {
  const report = await run("duplicates-on-retry", ["lost-reply-retry"]);
  const lines = timelineLines(report.results[0], "en");
  assert.equal(
    lines[0],
    `timeline of lost-reply-retry (put_note, key ${report.results[0].key})`,
  );
  assert.deepEqual(lines.slice(1), [
    "  client                  | guardlab                | server",
    "  ------------------------+-------------------------+-------------------------",
    "  sends call 1            |                         |",
    "                          | forwards call 1         |",
    "                          |                         | answers call 1: success",
    "                          | withholds the answer to |",
    "                          | call 1                  |",
    "  no answer to call 1:    |                         |",
    "  gives up                |                         |",
    "  --- effect visible to the read tool by here: 1 ------------------------------",
    "                          | asks the read tool:     |",
    "                          | effect 1                |",
    "  retries: call 2, same   |                         |",
    "  arguments               |                         |",
    "                          | forwards call 2         |",
    "                          |                         | answers call 2: success",
    "                          | delivers call 2:        |",
    "                          | success                 |",
    "                          | asks the read tool:     |",
    "                          | effect 2                |",
  ]);
});

Deno.test("accept examples: --format svg draws each case's three lanes and the effect's first sighting", async () => {
  const r = await cli([
    "accept",
    "--example",
    "idempotent",
    "--cases",
    "lost-reply-retry,once",
    "--format",
    "svg",
  ]);
  assert.equal(r.code, 0);
  const svg = r.out.join("\n");
  assert.match(svg, /^<svg /);
  assert.equal(
    [...svg.matchAll(
      /<g class="case" data-case="([a-z-]+)" data-verdict="ONCE">/g,
    )].map((m) => m[1]).join(),
    "lost-reply-retry,once",
  );
  assert.equal([...svg.matchAll(/class="effect-visible"/g)].length, 2);
  assert.match(svg, /data-lane="guardlab" data-kind="withheld"/);
  assert.match(svg, /data-lane="client" data-kind="retried"/);
});

Deno.test("accept: usage errors are one line and the usage", async () => {
  assertUsageError(await cli(["accept"]), /give the server/);
  assertUsageError(
    await cli(["accept", "--example", "nope"]),
    // The servers only: a host's name is accept host's.
    /--example must be one of idempotent, duplicates-on-retry, loses-updates, false-failure \(got "nope"\)$/m,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--cases", "once,twice"]),
    /unknown case "twice"/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--copies", "0"]),
    /--copies must be a whole number from 1 to 64/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--copies", "1e3"]),
    /--copies/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--timeout-ms", "10"]),
    /from 50 to/,
  );
  assertUsageError(
    await cli([
      "accept",
      "--example",
      "idempotent",
      "--json",
      "--format",
      "svg",
    ]),
    /give one/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--oracle", "x.json"]),
    /--oracle FILE is needed with/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--tool", "nope"]),
    /no write tool "nope"/,
  );
  assertUsageError(
    await cli(["accept", "--example", "idempotent", "--", "deno"]),
    /give one server/,
  );
  assertUsageError(
    await cli([
      "accept",
      "--url",
      "http://example.com/mcp",
      "--oracle",
      "o.json",
    ]),
    /this machine/,
  );
  assertUsageError(
    await cli(["accept", "--", "deno"]),
    /--oracle FILE is needed/,
  );
});

Deno.test("accept examples: every line of every screen, matrix and timelines, in both languages, is within 80 columns", async () => {
  for (const name of EXAMPLE_NAMES) {
    const report = await run(name);
    for (const lang of ["en", "zh"] as const) {
      const lines = acceptScreen(report, {
        source: { kind: "example", name },
        timeline: true,
        exit: report.unsafe > 0 ? 5 : 0,
      }, lang);
      const wide = lines.filter((l) => displayWidth(l) > 80);
      assert.deepEqual(wide, [], `${name} ${lang}`);
    }
  }
});
