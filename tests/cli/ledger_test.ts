/**
 * A named ledger through its life: run, ledger, reconcile, compensate,
 * reset, and the policy lab beside it.
 */
import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import {
  ledgerFolder,
  ledgerPaths,
  removeLedger,
} from "../../lib/sandbox/sandbox.ts";
import { cli, persistedCounts, TEST_ROOT } from "../_helpers/helpers.ts";
import { REFERENCE_LEDGER, withLedger } from "../_helpers/cli_fixtures.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

Deno.test(
  "cli: named ledger: output rejected leaves the draft; reconcile finds it; a retry closes it",
  () =>
    withLedger(async (name) => {
      const args = [
        "--ledger",
        name,
        ...runFlags(),
      ];
      const first = await cli(["run", ...args, "--bad-output"]);
      assert.equal(first.code, 0);
      assert.match(first.out.join("\n"), /output check +\[no\] refused/);
      const shown = first.out.slice(first.out.indexOf("result:") + 1);
      assert.ok(shown.includes("  status         output_rejected"));
      assert.ok(shown.includes("  attempt        1"));
      assert.deepEqual(persistedCounts(ledgerPaths(TEST_ROOT, name).lab), [
        1,
        1,
      ]);

      const pending = await cli(["reconcile", "--ledger", name]);
      assert.equal(pending.code, 3);
      assert.match(
        pending.out[0],
        /^JOB-001: draft present, never accepted; receipts #1 output_rejected/,
      );
      assert.match(
        pending.out[1],
        new RegExp(
          `guardlab run --ledger ${name} --job JOB-001 --topic river --copies 2`,
        ),
      );
      // The note under "next:" starts where the command does, in both
      // languages ("  下一步：" is ten columns wide, not eight).
      const run =
        `guardlab run --ledger ${name} --job JOB-001 --topic river --copies 2`;
      assert.deepEqual(pending.out, [
        "JOB-001: draft present, never accepted; receipts #1 output_rejected",
        `  next: ${run}`,
        "        (same key, same arguments: the draft is reused, checked again)",
      ]);
      const pendingZh = await cli([
        "reconcile",
        "--ledger",
        name,
        "--lang",
        "zh",
      ]);
      assert.deepEqual(pendingZh.out, [
        "JOB-001：草稿存在，但从未得到 accepted 回执；已有回执 #1 output_rejected",
        // Ten columns more than 80: the command breaks as a shell line.
        `  下一步：guardlab run --ledger ${name} \\`,
        "          --job JOB-001 --topic river --copies 2",
        "          （同一业务键、同样参数：草稿被复用，后检重新运行）",
      ]);

      const retry = await cli(["run", ...args, "--json"]);
      assert.equal(retry.code, 0);
      const result = JSON.parse(retry.out[0]).result;
      assert.equal(result.status, "accepted");
      assert.ok(result.events.includes("effect_reused"));
      assert.deepEqual(persistedCounts(ledgerPaths(TEST_ROOT, name).lab), [
        1,
        2,
      ]);

      const clean = await cli(["reconcile", "--ledger", name, "--json"]);
      assert.equal(clean.code, 0);
      assert.deepEqual(JSON.parse(clean.out[0]), { pending: [] });

      const book = JSON.parse(
        (await cli(["ledger", "--ledger", name, "--json"])).out[0],
      );
      assert.deepEqual(
        book.receipts.map((r: { status: string }) => r.status),
        ["output_rejected", "accepted"],
      );
      assert.equal(book.drafts.length, 1);

      assert.deepEqual((await cli(["reset", "--ledger", name])).out, [
        `removed ledger ${name}`,
      ]);
      await assert.rejects(
        Deno.stat(ledgerPaths(TEST_ROOT, name).dir),
        Deno.errors.NotFound,
      );
      assert.deepEqual((await cli(["reset", "--ledger", name])).out, [
        `no ledger named ${name}; nothing removed`,
      ]);
    }),
);

Deno.test(
  "cli: named ledger: every injected fault through the CLI",
  () =>
    withLedger(async (name) => {
      const base = [
        "run",
        "--ledger",
        name,
        "--topic",
        "river",
        "--copies",
        "1",
        "--json",
      ];
      const cases: [string[], string, unknown, [number, number]][] = [
        [
          ["--job", "JOB-010", "--cancel-at", "before_business"],
          "raised",
          "cancelled",
          [0, 1],
        ],
        [
          ["--job", "JOB-011", "--cancel-at", "after_business"],
          "raised",
          "cancelled",
          [1, 2],
        ],
        [
          ["--job", "JOB-012", "--cancel-at", "output_check"],
          "raised",
          "cancelled",
          [2, 3],
        ],
        [
          ["--job", "JOB-013", "--fail-at", "inside_transaction"],
          "status",
          "error",
          [2, 4],
        ],
        [
          ["--job", "JOB-014", "--fail-at", "after_commit"],
          "status",
          "error",
          [3, 5],
        ],
        [
          ["--job", "JOB-015", "--fail-at", "output_check"],
          "status",
          "error",
          [4, 6],
        ],
        [["--job", "JOB-016", "--bad-output"], "status", "output_rejected", [
          5,
          7,
        ]],
        [
          ["--job", "JOB-017", "--audit-failure"],
          "raised",
          "audit_unavailable",
          [6, 7],
        ],
      ];
      for (const [extra, key, value, counts] of cases) {
        const r = await cli([...base, ...extra]);
        const out = JSON.parse(r.out[0]).result;
        assert.equal(out[key], value, extra.join(" "));
        assert.equal(r.code, key === "raised" ? 1 : 0);
        assert.deepEqual(
          persistedCounts(ledgerPaths(TEST_ROOT, name).lab),
          counts,
          extra.join(" "),
        );
      }
      const pending = JSON.parse(
        (await cli(["reconcile", "--ledger", name, "--json"])).out[0],
      ).pending;
      assert.deepEqual(
        pending.map((p: { job: string }) => p.job),
        ["JOB-011", "JOB-012", "JOB-014", "JOB-015", "JOB-016", "JOB-017"],
      );
      assert.deepEqual(
        pending.find((p: { job: string }) => p.job === "JOB-017").receipts,
        [],
      );
    }),
);

Deno.test(
  "cli: named ledger: missing or malformed arguments reach the lab's validation",
  () =>
    withLedger(async (name) => {
      const cases: [string[], string][] = [
        [["--job", "JOB-001"], "shape"],
        [
          ["--job", "JOB-001", "--topic", "river", "--copies", "2.0"],
          "copies",
        ],
        [[
          "--args",
          '{"job":"JOB-001","topic":"river","copies":2,"__proto__":{}}',
        ], "shape"],
        [["--args", "null"], "shape"],
        [runFlags({ job: "JOB-01" }), "job"],
        [runFlags({ topic: "sea" }), "topic"],
        [
          runFlags({ copies: 4 }),
          "batch_limit",
        ],
      ];
      for (const [extra, rule] of cases) {
        const r = await cli(["run", "--ledger", name, "--json", ...extra]);
        assert.equal(r.code, 0);
        const { result, refusal } = JSON.parse(r.out[0]);
        assert.equal(result.status, "input_rejected");
        // The rule that refused rides beside the reference-shaped result.
        assert.equal(refusal.rule, rule, extra.join(" "));
        assert.ok(!("refusal" in result));
      }
      assert.deepEqual(persistedCounts(ledgerPaths(TEST_ROOT, name).lab), [
        0,
        cases.length,
      ]);
    }),
);

Deno.test(
  "cli: named ledger: a ledger written by the reference lab is continued and listed",
  () =>
    withLedger(async (name) => {
      ledgerFolder(TEST_ROOT, name);
      await copyFile(REFERENCE_LEDGER, ledgerPaths(TEST_ROOT, name).lab);
      const pending = await cli(["reconcile", "--ledger", name]);
      assert.equal(pending.code, 3);
      assert.match(pending.out[0], /^JOB-002: /);
      assert.match(pending.out[1], /--job JOB-002 --topic forest --copies 3/);
      const reuse = await cli([
        "run",
        "--ledger",
        name,
        ...runFlags({ job: "JOB-002", topic: "forest", copies: 3 }),
        "--json",
      ]);
      assert.equal(JSON.parse(reuse.out[0]).result.attempt, 3);
      assert.ok(
        JSON.parse(reuse.out[0]).result.events.includes("effect_reused"),
      );
      const conflict = await cli([
        "run",
        "--ledger",
        name,
        ...runFlags({ copies: 3 }),
        "--json",
      ]);
      assert.equal(JSON.parse(conflict.out[0]).result.status, "key_conflict");
      assert.equal((await cli(["reconcile", "--ledger", name])).code, 0);
      const listing = (await cli(["ledger", "--ledger", name])).out.join(
        "\n",
      );
      assert.match(listing, /drafts \(2\)/);
      assert.match(listing, /receipts \(4\)/);
      assert.match(listing, /#4 {2}JOB-001 {2}key_conflict/);
      assert.deepEqual(persistedCounts(ledgerPaths(TEST_ROOT, name).lab), [
        2,
        4,
      ]);
    }),
);

Deno.test(
  "cli: named ledger: ledger and reconcile refuse a ledger that does not exist, creating nothing",
  async () => {
    const name = `t-absent-${crypto.randomUUID().slice(0, 6)}`;
    for (const command of ["ledger", "reconcile"]) {
      const r = await cli([command, "--ledger", name]);
      assert.equal(r.code, 4);
      assert.match(r.err[0], new RegExp(`no ledger named ${name}`));
    }
    await assert.rejects(
      Deno.stat(ledgerPaths(TEST_ROOT, name).dir),
      Deno.errors.NotFound,
    );
  },
);

Deno.test("cli: ledger shows the policy lab beside the lab, in both languages", async () => {
  const name = `t-pol-${crypto.randomUUID().slice(0, 6)}`;
  try {
    const steps = [
      '{"op":"policy.precheck","job":"JOB-001","copies":2,"as":"s"}',
      '{"op":"policy.change","max_copies":1}',
      '{"op":"policy.insert_naive","job":"JOB-001","copies":2,"snapshot":"s"}',
    ].join("\n");
    assert.equal((await cli(["script", "--ledger", name], steps)).code, 0);
    const json = JSON.parse(
      (await cli(["ledger", "--ledger", name, "--json"])).out[0],
    );
    assert.deepEqual(json.policy, {
      rule: { revision: 2, max_copies: 1 },
      drafts: [["JOB-001", 2, 1]],
    });
    const en = (await cli(["ledger", "--ledger", name])).out;
    assert.ok(en.includes("  rule: revision 2, max_copies 1"), en.join("\n"));
    assert.ok(en.includes("    JOB-001  copies=2  checked at revision 1"));
    const zh = (await cli(["ledger", "--ledger", name, "--lang", "zh"])).out;
    assert.ok(zh.includes("  当前规则：修订号 2，max_copies 1"), zh.join("\n"));
    assert.ok(zh.includes("    JOB-001  copies=2  按修订号 1 检查"));
    // The policy database is only read: the same bytes afterwards.
    const file = ledgerPaths(TEST_ROOT, name).policy;
    const before = await Deno.readFile(file);
    await cli(["ledger", "--ledger", name]);
    assert.deepEqual(await Deno.readFile(file), before);
  } finally {
    removeLedger(TEST_ROOT, name);
  }
});
