import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "../_helpers/deps.ts";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../../lib/cli/_command_registry.ts";

const COMMAND_NAMES = COMMANDS.map((c) => c.name);
import { cli, TEST_ROOT } from "../_helpers/helpers.ts";
import { removeLedger } from "../../lib/sandbox/sandbox.ts";
import { displayWidth, wrap } from "../../lib/base/terminal.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const EXPECTED_VIEW = Deno.readTextFileSync(
  fileURLToPath(
    new URL("../../fixtures/views/timing-demo.txt", import.meta.url),
  ),
).trimEnd().split("\n");

// deno-lint-ignore no-control-regex -- stripping ANSI colour codes
const stripAnsi = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

/** The marks per scenario, read from the hand-written view. */
function marksOfView(lines: string[]): string[][] {
  const lanes: string[][] = [];
  for (const line of lines) {
    if (/^[a-z_]+$/.test(line)) lanes.push([]);
    const m =
      /^ {2}(arguments valid|input check|before business|business|after commit|output check|receipt) +\[..?\] +(passed|refused|failed|cancelled|not reached)/
        .exec(line);
    if (m) lanes.at(-1)!.push(m[2]);
  }
  return lanes;
}

Deno.test("view: the timing demo's terminal view", async (t) => {
  await t.step("plain text equals the hand-written view", async () => {
    const r = await cli(["demo", "timing"]);
    assert.deepEqual(r.out, EXPECTED_VIEW);
  });

  await t.step(
    "with colour: same text once the colour codes are removed",
    async () => {
      const r = await cli(["demo", "timing"], "", true);
      assert.deepEqual(r.out.map(stripAnsi), EXPECTED_VIEW);
      const text = r.out.join("\n");
      assert.ok(text.includes("\x1b[32m[ok] passed"));
      assert.ok(text.includes("\x1b[31m[no] refused"));
      assert.ok(text.includes("\x1b[33m[xx] cancelled"));
      assert.ok(text.includes("\x1b[90m[ ]  not reached"));
    },
  );
});

Deno.test("view: no line is wider than 80 columns", async (t) => {
  const name = `t-view-${crypto.randomUUID().slice(0, 6)}`;
  try {
    const commands = [
      ["demo"],
      ["explain"],
      ["explain", "--lang", "zh"],
      [
        "run",
        "--ledger",
        name,
        ...runFlags({ topic: "forest", copies: 3 }),
        "--bad-output",
      ],
      [
        "run",
        "--ledger",
        name,
        ...runFlags({ topic: "forest", copies: 3 }),
      ],
      ["ledger", "--ledger", name],
      ["reconcile", "--ledger", name],
      ["verify"],
      ["sandbox"],
      ["--help"],
      ["nonsense"],
      ["demo", "--bogus"],
      ...COMMAND_NAMES.map((c) => [c, "--help"]),
      ["exercise", "list"],
      ...Array.from({ length: 17 }, (_, i) => ["exercise", "show", `${i + 1}`]),
      ["exercise", "hint", "9"],
      ["exercise", "progress"],
      ["explain", "--sdk"],
    ];
    // Every screen again in Chinese, where wide characters take two columns.
    commands.push(...commands.map((args) => [...args, "--lang", "zh"]));
    commands.push([
      "run",
      "--ledger",
      name,
      ...runFlags({ job: "JOB-002" }),
      "--cancel-at",
      "after_business",
      "--audit-failure",
      "--lang",
      "zh",
    ]);
    for (const args of commands) {
      await t.step(args.join(" "), async () => {
        const r = await cli(args, "", true);
        for (const line of [...r.out, ...r.err]) {
          assert.ok(
            displayWidth(line) <= 80,
            `${displayWidth(line)} columns: ${line}`,
          );
        }
      });
    }
  } finally {
    removeLedger(TEST_ROOT, name);
  }
});

Deno.test("view: wrap keeps Chinese within the width and breaks English at spaces", () => {
  const zh = wrap("  原因: " + "后检位于提交点之后。".repeat(12), 40);
  for (const line of zh) assert.ok(displayWidth(line) <= 40, line);
  assert.equal(
    zh.join("").replaceAll(" ", "").length,
    ("原因:" + "后检位于提交点之后。".repeat(12)).length,
  );
  const en = wrap(
    "  why: " + "the output check runs after the commit point ".repeat(4),
    40,
  );
  for (const line of en) {
    assert.ok(displayWidth(line) <= 40 && !line.endsWith(" "), line);
  }
  assert.ok(en.slice(1).every((l) => l.startsWith("      ")));
});

Deno.test("view: wrap never splits an identifier or starts a line with closing punctuation", () => {
  const text = "  重试：同一业务键复用草稿，事件是 effect_reused，" +
    "后检再次运行。".repeat(3) + "（见 output_allowed）。";
  for (let width = 30; width <= 80; width++) {
    const lines = wrap(text, width);
    for (const line of lines) {
      assert.ok(displayWidth(line) <= width, `${width}: ${line}`);
      assert.doesNotMatch(line.trimStart(), /^[，。、；：！？）」”,.;:!?)]/);
    }
    const joined = lines.map((l) => l.trim()).join("\n");
    for (const word of ["effect_reused", "output_allowed"]) {
      assert.ok(joined.includes(word), `${width}: ${word} split`);
    }
    assert.equal(
      lines.map((l) => l.trim()).join("").replaceAll(" ", ""),
      text.replaceAll(" ", ""),
    );
  }
});

Deno.test("view: wrap cuts a word wider than the line even when closing punctuation follows it", () => {
  // A name cut with an ellipsis, then a colon: one clause of three pieces.
  const lines = wrap("guardrail " + "n".repeat(64) + "…: allow", 19, 0);
  for (const line of lines) assert.ok(displayWidth(line) <= 19, line);
  assert.equal(lines.join(""), "guardrail" + "n".repeat(64) + "…: allow");
});

Deno.test("view: display width counts emoji, rare CJK and combining marks", () => {
  assert.equal(displayWidth("🙂"), 2);
  assert.equal(displayWidth("𠀀"), 2, "CJK Extension B");
  assert.equal(displayWidth("e\u0301"), 1, "e with a combining accent");
  assert.equal(displayWidth("后检 ok"), 7);
  assert.equal(displayWidth("\x1b[31mred\x1b[0m"), 3);
});

Deno.test("view: SVG is well-formed and carries the same marks", async (t) => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
  });

  await t.step("demo --format svg", async () => {
    const r = await cli(["demo", "--format", "svg"]);
    assert.equal(r.code, 0);
    const svg = r.out.join("\n");
    assert.equal(XMLValidator.validate(svg), true);
    const doc = parser.parse(svg);
    assert.equal(doc.svg.xmlns, "http://www.w3.org/2000/svg");
    const marks = [...svg.matchAll(/data-mark="([^"]+)"/g)].map((m) => m[1]);
    const expected = marksOfView(EXPECTED_VIEW);
    assert.equal(expected.length, 4);
    // The timing lanes first, then the article's four.
    assert.deepEqual(marks.slice(0, expected.flat().length), expected.flat());
    for (
      const scenario of [
        "input_rejected",
        "output_rejected",
        "retry_same_request",
        "cancelled_after_business",
      ]
    ) {
      assert.ok(svg.includes(`>${scenario}</text>`), scenario);
    }
    // The commit point is drawn by what happened there, lane by lane.
    assert.deepEqual(
      [...svg.matchAll(/data-commit="([^"]+)"/g)].map((m) => m[1]),
      [
        ...["not reached", "committed", "reused", "committed"],
        ...["committed", "committed", "committed", "not reached"],
      ],
    );
    assert.deepEqual(
      [...svg.matchAll(/data-draft="([^"]+)"/g)].map((m) => m[1]),
      [
        ...["absent", "present", "present", "present"],
        ...["present", "present", "present", "absent"],
      ],
    );
    assert.ok(svg.includes("naive_stale"), "the policy lab is described too");
  });

  await t.step("run and explain --format svg", async () => {
    const run = await cli([
      "run",
      ...runFlags(),
      "--cancel-at",
      "after_business",
      "--format",
      "svg",
    ]);
    assert.equal(run.code, 1);
    const svg = run.out.join("\n");
    assert.equal(XMLValidator.validate(svg), true);
    assert.deepEqual(
      [...svg.matchAll(/data-mark="([^"]+)"/g)].map((m) => m[1]),
      ["passed", "passed", "passed", "cancelled", "not reached", "passed"],
    );
    for (const lang of ["en", "zh"]) {
      const explain = await cli([
        "explain",
        "output_rejected",
        "--format",
        "svg",
        "--lang",
        lang,
      ]);
      assert.equal(XMLValidator.validate(explain.out.join("\n")), true);
    }
  });

  await t.step(
    "xmlEscape escapes the five XML special characters",
    async () => {
      const { xmlEscape } = await import("../../lib/base/markup.ts");
      assert.equal(
        xmlEscape(`<a href="x">&'`),
        "&lt;a href=&quot;x&quot;&gt;&amp;&apos;",
      );
    },
  );
});
