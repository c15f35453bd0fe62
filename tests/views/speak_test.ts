/**
 * Views that speak: the demo points onward, no view meant for people prints
 * a JSON literal, Chinese screens use full-width punctuation, and wrapping
 * never splits a Chinese word. Expectations are written by hand.
 */
import assert from "node:assert/strict";
import { DEMO_MESSAGES } from "../../lib/cli/commands/demo/_messages.ts";
import { TOPICS } from "../../lib/content/explain.ts";
import type { Lang } from "../../lib/base/i18n.ts";
import { plainFields, plainValue } from "../../lib/base/plain.ts";
import {
  draftRowsText,
  policyRow,
  renderPolicyRow,
} from "../../lib/views/policy_view.ts";
import {
  continuationColumn,
  displayWidth,
  PROTECTED_WORDS,
  wrap,
} from "../../lib/base/terminal.ts";
import { AGENT_INPUT_LABEL, STAGE_LABEL } from "../../lib/views/_messages.ts";
import {
  zhPunctuationProblems,
  zhSpacingProblems,
} from "../../lib/base/_zh_punctuation.ts";
import { BUILTIN_COURSE } from "../../lib/exercises/mod.ts";
import { cli } from "../_helpers/helpers.ts";
import { exportedTexts, sourceTexts } from "../_helpers/texts.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

const LANGS: Lang[] = ["en", "zh"];

Deno.test("demo: ends by pointing to explain and exercise, in the text view only", async (t) => {
  const expected: Record<Lang, string[]> = {
    en: [
      "Next: guardlab explain list    read why each check stops where it does",
      "      guardlab exercise list   prove it yourself, judged by the ledger",
    ],
    zh: [
      "下一步：guardlab explain list    读懂每个检查为什么拦在那一步",
      "        guardlab exercise list   亲手证明，由账本判定",
    ],
  };
  for (const lang of LANGS) {
    await t.step(`text, ${lang}`, async () => {
      for (const which of [[], ["timing"], ["policy"], ["article"]]) {
        const r = await cli(["demo", ...which, "--lang", lang]);
        assert.equal(r.code, 0);
        assert.deepEqual(r.out.slice(-2), expected[lang], which.join());
        assert.equal(r.out.at(-3), "", "a blank line before them");
        for (const line of r.out.slice(-2)) {
          assert.ok(displayWidth(line) <= 80, line);
          assert.ok(
            !line.includes("\x1b") && !line.includes("`"),
            "plain text",
          );
        }
      }
      assert.deepEqual(
        DEMO_MESSAGES.nextSteps[lang].split("\n"),
        expected[lang],
      );
    });
    await t.step(`never under --json or --format svg, ${lang}`, async () => {
      for (
        const flags of [["--json"], ["--format", "json"], ["--format", "svg"]]
      ) {
        for (const which of [[], ["timing"], ["policy"]]) {
          const r = await cli(["demo", ...which, ...flags, "--lang", lang]);
          assert.equal(r.code, 0);
          const out = r.out.join("\n");
          assert.doesNotMatch(out, /explain list|exercise list/, flags.join());
          if (flags.includes("svg")) {
            assert.match(out, /<\/svg>$/, "the SVG is the last thing out");
          } else {
            JSON.parse(out); // the whole output is one JSON document
          }
        }
      }
    });
  }
});

/** What looks like a JSON literal in a line meant for people. */
const JSON_LITERAL = /\[\[|\[\{|\{"|":|",\s*"|"\]|\[\]|\{\}/;

/** The text of an SVG as a person sees it: tag contents, entities decoded. */
function svgText(svg: string): string[] {
  return [...svg.matchAll(/>([^<]+)</g)].map(([, t]) =>
    t.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll(
      "&gt;",
      ">",
    ).replaceAll("&amp;", "&")
  );
}

/** Every view for people, as [what was run, the lines a person reads]. */
async function everyView(lang: Lang): Promise<[string, string[]][]> {
  const views: [string, string[]][] = [];
  const show = async (
    args: string[],
    input = "",
    from: "out" | "err" = "out",
  ) => {
    const r = await cli([...args, "--lang", lang], input);
    const lines = from === "out" ? r.out : r.err;
    const svg = args.includes("svg");
    views.push([args.join(" "), svg ? svgText(lines.join("\n")) : lines]);
  };
  for (const format of ["text", "svg"]) {
    for (const which of [[], ["timing"], ["policy"], ["article"]]) {
      await show(["demo", ...which, "--format", format]);
    }
    for (const topic of TOPICS) {
      await show(["explain", topic, "--format", format]);
    }
  }
  await show(["explain", "list"]);
  await show(["explain", "--sdk"]);
  const ledger = `speak-${crypto.randomUUID().slice(0, 8)}`;
  const runs = [
    ["--copies", "2"],
    ["--copies", "2", "--bad-output"],
    ["--copies", "4"],
    ["--copies", "2", "--cancel-at", "after_business"],
    ["--copies", "2", "--audit-failure"],
  ];
  for (const [i, extra] of runs.entries()) {
    for (const format of ["text", "svg"]) {
      await show([
        "run",
        "--ledger",
        ledger,
        "--job",
        `JOB-10${i}`,
        "--topic",
        "river",
        ...extra,
        "--format",
        format,
      ]);
    }
  }
  await show(["run", "--args", '{"job":"JOB-001","extra":[1,{"a":"b"}]}']);
  await show(["compensate", "--ledger", ledger, "--job", "JOB-101"]);
  // A prediction of the wrong shape is shown in words, not echoed as JSON.
  await show(
    ["exercise", "check", "15"],
    '{"outcome": {"status": "x"}, "draft": [true], "receipts": 1}',
  );
  await show(["ledger", "--ledger", ledger]);
  await show(["ledger", "--ledger", ledger, "--timeline"]);
  await show(["ledger", "--ledger", ledger, "--timeline", "--format", "svg"]);
  await show(["sandbox"]);
  await show(["verify"]);
  await show(["reconcile", "--ledger", ledger]);
  await show(["reset", "--ledger", ledger]);
  for (
    const entry of Deno.readDirSync(
      new URL("../../fixtures/scripts", import.meta.url),
    )
  ) {
    if (!entry.name.endsWith(".jsonl") || entry.name.includes(".expected")) {
      continue;
    }
    const steps = Deno.readTextFileSync(
      new URL(`../../fixtures/scripts/${entry.name}`, import.meta.url),
    );
    // script --view tells every step in words on stdout (no JSON there).
    await show(["script", "--view"], steps, "out");
  }
  return views;
}

Deno.test("views: no JSON literal where a person reads, in any view or language", async () => {
  for (const lang of LANGS) {
    const views = await everyView(lang);
    assert.ok(views.length > 60, `${views.length} views`);
    for (const [what, lines] of views) {
      if (!what.startsWith("script")) {
        assert.ok(lines.length > 0, `${what}: printed nothing`);
      }
      for (const line of lines) {
        assert.doesNotMatch(line, JSON_LITERAL, `${lang} ${what}: ${line}`);
      }
    }
  }
});

Deno.test("views: the JSON detector itself catches what used to leak", () => {
  for (
    const leak of [
      '读取草稿：[["JOB-002",1,2]]',
      'attempt with {"job":"JOB-001","topic":"river","copies":2}',
      '    "attempt": 1,',
      "reads drafts: []",
      '{"snapshot":{"revision":1,"max_copies":3}}',
    ]
  ) {
    assert.match(leak, JSON_LITERAL, leak);
  }
  assert.deepEqual(
    svgText('<text x="1">7. 读取草稿：[[&quot;JOB-002&quot;,1,2]]</text>'),
    ['7. 读取草稿：[["JOB-002",1,2]]'],
  );
});

Deno.test("views: drafts, arguments and results read as words", async (t) => {
  await t.step("the policy lab's draft rows", () => {
    assert.deepEqual(draftRowsText([["JOB-002", 1, 2]]), {
      en: "drafts: JOB-002 ×1 (revision 2)",
      zh: "草稿：JOB-002 ×1（修订号 2）",
    });
    assert.deepEqual(draftRowsText([["JOB-002", 1, 2], ["JOB-003", 2, 1]]), {
      en: "drafts: JOB-002 ×1 (revision 2), JOB-003 ×2 (revision 1)",
      zh: "草稿：JOB-002 ×1（修订号 2）、JOB-003 ×2（修订号 1）",
    });
    assert.deepEqual(draftRowsText([]), { en: "drafts: none", zh: "草稿：无" });
  });
  await t.step("the policy lanes' last step in the SVG", async () => {
    const r = await cli(["explain", "checked_stale", "--format", "svg"]);
    assert.ok(
      svgText(r.out.join("\n")).includes("7. drafts: JOB-002 ×1 (revision 2)"),
    );
  });
  await t.step("values, escaped where a terminal could be fooled", () => {
    assert.equal(
      plainValue({ job: "JOB-001", topic: "river", copies: 2 }, "en"),
      "job=JOB-001, topic=river, copies=2",
    );
    assert.equal(
      plainValue({ job: "JOB-001", topic: "river", copies: 2 }, "zh"),
      "job=JOB-001，topic=river，copies=2",
    );
    assert.equal(
      plainValue([1, [2, { a: "b c" }], {}], "en"),
      '(1, (2, (a="b c")), ())',
    );
    assert.equal(
      plainValue("\x1b[31mred\u202e", "en"),
      '"\\u001b[31mred\\u202e"',
    );
    assert.equal(plainValue("", "en"), '""');
    assert.equal(plainValue('say "hi"', "en"), '"say \\"hi\\""');
    assert.equal(plainValue(null, "en"), "null");
  });
  await t.step("a run's header and result", async () => {
    const r = await cli([
      "run",
      ...runFlags(),
      "--lang",
      "zh",
    ]);
    assert.equal(
      r.out[0],
      "调用参数：job=JOB-001，topic=river，copies=2；故障：无",
    );
    assert.deepEqual(
      r.out.slice(-8),
      [
        "结果：",
        "  attempt        1",
        "  job            JOB-001",
        "  status         accepted",
        "  effect_exists  true",
        "  events         arguments_valid > input_allowed > business_started >",
        "                 effect_committed > output_started > output_allowed",
        '  released       job=JOB-001，text="river / copies=2"',
      ],
    );
    assert.deepEqual(
      plainFields({ raised: "cancelled", message: "" }, "en"),
      ["raised   cancelled", 'message  ""'],
    );
  });
});

Deno.test("zh punctuation: the rule, by hand", () => {
  const bad = [
    "原因: 后检",
    "发生了什么:",
    "草稿,回执",
    "用法: guardlab",
    "账本:草稿",
  ];
  for (const text of bad) {
    assert.equal(zhPunctuationProblems(text).length, 1, text);
  }
  const good = [
    "原因：后检在提交点之后",
    "草稿，回执",
    "guardlab: 无法读取", // ASCII after ASCII
    "key_conflict: 业务键", // ASCII after a Latin word
    "写 `草稿:1` 即可", // a code span
    '用一行 JSON 回答：{"outcome": 状态, "draft": true|false}。', // a JSON template
    '读取 [["JOB-002",1,2]] 之后',
  ];
  for (const text of good) {
    assert.deepEqual(zhPunctuationProblems(text), [], text);
  }
});

Deno.test("zh punctuation: every zh entry of every message table and every text in lib/", async () => {
  // The walkers of tests/_helpers/texts.ts: every exported table (none listed by
  // hand) and every { en, zh } written in the source.
  const texts = [...await exportedTexts(), ...sourceTexts()];
  assert.ok(texts.length > 300, `only ${texts.length} texts found`);
  const problems = texts.flatMap((t) =>
    [...zhPunctuationProblems(t.zh), ...zhSpacingProblems(t.zh)].map((p) =>
      `${t.where}: ${p}`
    )
  );
  assert.deepEqual(problems, []);
});

Deno.test("zh spacing: one space between Chinese and a Latin word or number, none beside full-width punctuation, in every exercise text (issue 29)", () => {
  // The rule, by hand: what the issue saw, and what it must read.
  assert.deepEqual(zhSpacingProblems("你的 Snapshot 看到修订号 2"), []);
  assert.equal(zhSpacingProblems("你的 Snapshot看到").length, 1);
  assert.equal(zhSpacingProblems("旧 Snapshot仍被拒绝").length, 1);
  assert.equal(zhSpacingProblems("代码 （无）").length, 1);
  assert.equal(zhSpacingProblems("第3行").length, 2, "both sides");
  const problems: string[] = [];
  const walk = (v: unknown, where: string) => {
    if (v === null || typeof v !== "object") return;
    const zh = (v as { zh?: unknown }).zh;
    if (typeof zh === "string") {
      problems.push(...zhSpacingProblems(zh).map((p) => `${where}: ${p}`));
    }
    for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
  };
  for (const x of BUILTIN_COURSE.exercises) walk(x, `exercise ${x.n}`);
  assert.deepEqual(problems, []);
});

/** Every command, for the screens of its help. */
const COMMANDS = [
  "demo",
  "verify",
  "run",
  "ledger",
  "reconcile",
  "compensate",
  "reset",
  "script",
  "explain",
  "exercise",
  "sandbox",
  "config",
  "mcp",
];

Deno.test("zh punctuation: every Chinese screen as printed", async () => {
  const screens: [string, string[]][] = await everyView("zh");
  const more: string[][] = [
    ["--help"],
    ["demoo"],
    ["run", "--copies", "x"],
    ["exercise", "list"],
    ["sandbox"],
    ["config"],
  ];
  for (const c of COMMANDS) more.push([c, "--help"]);
  for (let n = 1; n <= 17; n++) {
    more.push(["exercise", "show", String(n)], ["exercise", "hint", String(n)]);
  }
  for (const args of more) {
    const r = await cli([...args, "--lang", "zh"]);
    screens.push([args.join(" "), [...r.out, ...r.err]]);
  }
  const problems = screens.flatMap(([what, lines]) =>
    lines.flatMap((line) =>
      [...zhPunctuationProblems(line), ...zhSpacingProblems(line)].map((p) =>
        `${what}: ${p} (in "${line}")`
      )
    )
  );
  assert.deepEqual(problems, []);
});

Deno.test("wrap: a Chinese word is never split; continuations line up", async (t) => {
  await t.step("hand-written breaks", () => {
    assert.deepEqual(wrap("原因：重试会复用 effect_reused 的草稿。", 24), [
      "原因：重试会复用",
      "      effect_reused",
      "      的草稿。",
    ]);
    // The policy lane's last step, at the lane's width: 草 / 稿 was split here.
    assert.deepEqual(
      wrap("读取草稿：JOB-002 ×1（修订号 2）、JOB-003 ×2（修订号 1）", 35),
      [
        "读取草稿：JOB-002 ×1（修订号 2）、",
        "          JOB-003 ×2（修订号 1）",
      ],
    );
    assert.deepEqual(wrap("x 朴素写入 JOB-003 ×2：只凭旧检查就写入了", 35), [
      "x 朴素写入 JOB-003 ×2：",
      "    只凭旧检查就写入了",
    ]);
    assert.deepEqual(
      wrap(
        "  发生了什么：同样的交错，但写入是条件式的：只有修订号仍等于前检所见、上限仍容纳份数时才提交。",
        80,
      ),
      [
        "  发生了什么：同样的交错，但写入是条件式的：只有修订号仍等于前检所见、",
        "              上限仍容纳份数时才提交。",
      ],
    );
    assert.deepEqual(
      wrap("  Why: the output check runs after the commit point, always", 30),
      [
        "  Why: the output check runs",
        "       after the commit point,",
        "       always",
      ],
    );
  });
  await t.step('a number keeps its unit (issue 29: "2 / 份")', () => {
    assert.deepEqual(
      wrap("用 JOB-001（river，2 份）制造一次调用：它的输出被后检拒绝", 22, 0),
      ["用 JOB-001（river，", "2 份）制造一次调用：", "它的输出被后检拒绝"],
    );
    // "第 3 行" is one span (zh-screens item 31): never "第" / "3 行".
    assert.deepEqual(wrap("它在第 3 行", 10, 0), ["它在", "第 3 行"]);
  });
  await t.step(
    "every --help, in Chinese: no word split, no line starts with punctuation (issue 29)",
    async () => {
      const problems: string[] = [];
      for (const c of COMMANDS) {
        const lines = (await cli([c, "--help", "--lang", "zh"])).out;
        lines.forEach((line, i) => {
          const next = lines[i + 1]?.trimStart() ?? "";
          if (/^[，。、；：！？）」』》〉】”’]/.test(next)) {
            problems.push(`${c}: a line starts with punctuation: ${next}`);
          }
          // In the columns of options and exit codes, which guardlab wraps
          // (the paragraphs above are broken by hand): two Chinese
          // characters on either side of a break split a word (the rule
          // breaks after punctuation, at a space, or beside a Latin word).
          const column = i > lines.indexOf("选项：") &&
            /^ {6,}\S/.test(lines[i + 1] ?? "");
          if (
            column && /\p{Script=Han}$/u.test(line) &&
            /^\p{Script=Han}/u.test(next)
          ) {
            problems.push(`${c}: split: ${line.trim()} / ${next}`);
          }
        });
      }
      assert.deepEqual(problems, []);
    },
  );
  await t.step("a clause wider than the line breaks between words", () => {
    // No punctuation at all: the break falls between two protected words.
    assert.deepEqual(wrap("前检草稿账本回执后检修订号提交点", 14), [
      "前检草稿账本",
      "    回执后检",
      "    修订号",
      "    提交点",
    ]);
  });
  await t.step("continuation columns", () => {
    assert.equal(continuationColumn("  原因：后检", 80), 8);
    assert.equal(continuationColumn("  Safe next step: retry", 80), 18);
    assert.equal(continuationColumn("  - item text", 80), 4);
    assert.equal(continuationColumn("  events         a > b", 80), 17);
    assert.equal(continuationColumn("plain sentence, no label", 80), 4);
    assert.equal(continuationColumn("  王小明 (li.json): exercise 1", 80), 6);
    assert.equal(
      continuationColumn("  发生了什么：" + "长".repeat(50), 20),
      10,
    );
  });
  await t.step("no protected word is split, at any width", () => {
    const text = "  安全的下一步：" +
      PROTECTED_WORDS.join("") + "。" + PROTECTED_WORDS.join("，") + "。";
    for (let width = 20; width <= 80; width++) {
      const lines = wrap(text, width);
      for (const line of lines) assert.ok(displayWidth(line) <= width, line);
      for (
        const [a, b] of lines.slice(0, -1).map((l, i) => [l, lines[i + 1]])
      ) {
        const end = a.trim();
        const start = b.trim();
        for (const word of PROTECTED_WORDS) {
          for (let cut = 1; cut < word.length; cut++) {
            assert.ok(
              !(end.endsWith(word.slice(0, cut)) &&
                start.startsWith(word.slice(cut))) ||
                // another word that happens to end and start there
                PROTECTED_WORDS.some((w) => end.endsWith(w)),
              `${width}: ${word} split in ${end} / ${start}`,
            );
          }
        }
      }
    }
  });
  await t.step("the glossary and the stage words are protected", () => {
    const glossary = [
      "参数校验",
      "前检",
      "业务写入",
      "提交点",
      "后检",
      "回执",
      "对账",
      "幂等",
      "业务键",
      "修订号",
      "条件写入",
      "对照实现",
    ];
    for (const word of glossary) {
      assert.ok(PROTECTED_WORDS.includes(word), word);
    }
    for (const text of [...Object.values(STAGE_LABEL), AGENT_INPUT_LABEL]) {
      // Each Chinese run of a stage label ("Agent 护栏结论": 护栏结论).
      for (const [run] of text.zh.matchAll(/\p{Script=Han}+/gu)) {
        assert.ok(PROTECTED_WORDS.includes(run), run);
      }
    }
  });
});

Deno.test("wrap: every policy step fits its SVG box (three lines) whole, in both languages", () => {
  // The longest outputs each policy step can print; the box shows 3 lines.
  const job = { job: "JOB-001", copies: 2 };
  const steps: [Record<string, unknown>, Record<string, unknown>, number?][] = [
    [{ op: "policy.precheck", ...job }, {
      snapshot: { revision: 12, max_copies: 9 },
    }],
    [{ op: "policy.precheck", ...job }, { rejected: "missing_policy" }],
    [{ op: "policy.change", max_copies: 1 }, {
      policy: { revision: 12, max_copies: 1 },
    }],
    [{ op: "policy.change", max_copies: 10 }, {
      raised: "invalid",
      message: "max_copies",
    }],
    [{ op: "policy.insert_checked", ...job }, { inserted: true }, 12],
    [{ op: "policy.insert_checked", ...job }, { inserted: false }, 12],
    [{ op: "policy.insert_checked", ...job }, {
      raised: "database_error",
      message: "database is locked",
    }],
    [{ op: "policy.insert_checked", ...job }, {
      raised: "injected",
      message: "injected_before_commit",
    }],
    [{ op: "policy.insert_checked", ...job }, {
      raised: "database_error",
      message: "UNIQUE constraint failed: drafts.job",
    }],
    [{ op: "policy.insert_naive", ...job }, { inserted: true }],
    [{ op: "policy.rows" }, { rows: [["JOB-001", 2, 1], ["JOB-002", 1, 2]] }],
  ];
  for (const [step, output, snapshotRevision] of steps) {
    const row = policyRow({ step, output, snapshotRevision } as never)!;
    for (const lang of LANGS) {
      const lines = wrap(row.text[lang], 34, 0);
      assert.ok(lines.length <= 3, `${lang}: ${lines.join(" / ")}`);
      for (const line of lines) assert.ok(displayWidth(line) <= 34, line);
    }
  }
});

Deno.test("policy lanes: a reader row that wraps keeps its | in the lane's column, in both languages", () => {
  const row = policyRow({
    step: { op: "policy.insert_checked", job: "JOB-001", copies: 2 },
    output: { inserted: false },
    snapshotRevision: 1,
  } as never)!;
  assert.deepEqual(renderPolicyRow(row, "en"), [
    "  x conditional insert JOB-001 ×2 (saw  |",
    "    revision 1): condition did not      |",
    "    match, nothing written              |",
  ]);
  assert.deepEqual(renderPolicyRow(row, "zh"), [
    "  x 条件写入 JOB-001 ×2（所见修订号     |",
    "    1）：条件不匹配，什么也没写         |",
  ]);
});
