/**
 * The two READMEs kept in step: README.md (English) and README.zh.md
 * (Chinese) link to each other on their first line, have the same sections
 * in the same order (the heading map below), the same commands and flags in
 * their tables and examples, and the same numbers; every screen a README
 * shows is what guardlab prints. A command, flag, section or number added to
 * one README only fails here.
 */
import assert from "node:assert/strict";
import { zhPunctuationProblems } from "../../lib/base/zh_punctuation.ts";
import { cli } from "../_helpers/helpers.ts";

const read = (name: string) =>
  Deno.readTextFileSync(new URL(`../../${name}`, import.meta.url));

/**
 * Each heading of README.md and its heading in README.zh.md, in order. A
 * section added to one README must be added here and to the other.
 */
const HEADINGS: readonly [string, string][] = [
  ["# guardlab", "# guardlab"],
  ["## Start in two commands", "## 两条命令上手"],
  ["## Commands", "## 命令"],
  ["### The script contract", "### script 的约定"],
  ["## Connect a real agent", "## 接入真实的 agent"],
  ["### Wire it up", "### 接上去"],
  ["### The remote timeout, reproduced", "### 复现远程调用超时"],
  ["## The SDK lens", "## SDK 视角"],
  ["## For a course", "## 用于课堂"],
  ["### A course file", "### 课程文件"],
  ["### Names, course code and variants", "### 姓名、课程代码与变体"],
  ["### What a hand-in carries", "### 作业文件里有什么"],
  ["### A whole class at once", "### 一次批改全班"],
  ["### Bounds", "### 上限"],
  ["## For teachers: build, ship, check", "## 给老师：构建、分发、核对"],
  ["## What survives what", "## 什么故障之后留下什么"],
  ["## How the code is laid out", "## 代码结构"],
  ["## Speed", "## 速度"],
];

/** One section of a README: its heading and the lines up to the next. */
interface Section {
  heading: string;
  lines: string[];
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && /^#{1,6} /.test(line)) {
      out.push({ heading: line, lines: [] });
    } else out.at(-1)?.lines.push(line);
  }
  return out;
}

/**
 * The code blocks of a section, each as its lines: indented blocks (indent
 * removed) and fenced blocks (the lines between the fences).
 */
function codeBlocks(lines: string[]): string[][] {
  const blocks: string[][] = [];
  let current: string[] | null = null;
  let fence: string[] | null = null;
  let previousBlank = true;
  for (const line of lines) {
    if (fence !== null) {
      if (line.startsWith("```")) {
        blocks.push(fence);
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (line.startsWith("```")) {
      if (current) blocks.push(current);
      current = null;
      fence = [];
      continue;
    }
    const code = line.startsWith("    ") && (current !== null || previousBlank);
    if (code) {
      current ??= [];
      current.push(line.slice(4));
    } else if (line.trim() !== "" || current === null) {
      if (current) blocks.push(current);
      current = null;
    } else {
      current.push("");
    }
    previousBlank = line.trim() === "";
  }
  if (current) blocks.push(current);
  return blocks.map((b) => {
    while (b.at(-1) === "") b.pop();
    return b;
  });
}

/** The prose of a section: everything outside its code blocks and tables. */
function prose(lines: string[]): string {
  const kept: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && !line.startsWith("    ") && !line.startsWith("|")) {
      kept.push(line);
    } else if (line.trim() === "") kept.push(line);
  }
  return kept.join("\n");
}

/** Inline code spans of `text` (a span may run over a line break). */
function codeSpans(text: string): string[] {
  return [...text.replaceAll("\\|", "|").matchAll(/`([^`]+)`/g)].map(([, s]) =>
    s.replace(/\s*\n\s*/g, " ")
  );
}

/** The tables of a section: each as its rows, each row as its cells. */
function tables(lines: string[]): string[][][] {
  const out: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of lines) {
    if (line.startsWith("|")) {
      if (/^\|[\s:|-]+\|$/.test(line)) continue; // the rule under the header
      current ??= [];
      current.push(
        line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()),
      );
    } else if (current) {
      out.push(current);
      current = null;
    }
  }
  if (current) out.push(current);
  return out;
}

/** Program names a command line in an example starts with. */
const PROGRAMS =
  /^(guardlab|deno|npx|npm|sha256sum|shasum|Get-FileHash|scripts\/|mkdir|cp|echo|python3?|apt)\b/;

/**
 * The command lines of a section's examples: lines of a code block that
 * start with a program's name, cut where two spaces begin a comment or a
 * description (`guardlab verify          # first: …`).
 */
function commandLines(lines: string[]): string[] {
  // A code block inside a list item is indented two more columns.
  return codeBlocks(lines).flat().map((l) => l.replace(/^ {1,2}(?=\S)/, ""))
    .filter((l) => PROGRAMS.test(l)).map((l) => l.replace(/\s{2,}.*$/, ""));
}

/** The flags named anywhere in a section's code (spans, tables, examples). */
function flags(lines: string[]): string[] {
  const code = [
    ...codeSpans(prose(lines)),
    ...codeSpans(lines.filter((l) => l.startsWith("|")).join("\n")),
    ...codeBlocks(lines).flat(),
  ].join(" ");
  return [...new Set(code.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [])].sort();
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * The numbers a section states, as a sorted set: thousands separators
 * removed, leading zeros dropped, an English date ("4 December 2025") read
 * as its three numbers; links and the headings' anchors aside.
 */
function numbers(lines: string[]): string[] {
  let text = lines.join("\n").replace(/\]\([^)]*\)/g, "]");
  text = text.replace(
    new RegExp(`(\\d{1,2}) (${MONTHS.join("|")}) (\\d{4})`, "g"),
    (_m, d, month, y) => `${y}-${MONTHS.indexOf(month) + 1}-${d}`,
  );
  const found = text.replace(/(\d),(?=\d{3}(?!\d))/g, "$1").match(/\d+/g) ?? [];
  return [...new Set(found.map((n) => String(Number(n))))].sort();
}

const EN = read("README.md");
const ZH = read("README.zh.md");

Deno.test("readme: each README links to the other on its first line", () => {
  assert.match(EN.split("\n")[0], /\[中文\]\(README\.zh\.md\)/);
  assert.match(ZH.split("\n")[0], /\[English\]\(README\.md\)/);
});

Deno.test("readme: the same sections in the same order (the heading map)", () => {
  assert.deepEqual(
    sections(EN).map((s) => s.heading),
    HEADINGS.map(([en]) => en),
    "README.md's headings: add a new one to HEADINGS and to README.zh.md",
  );
  assert.deepEqual(
    sections(ZH).map((s) => s.heading),
    HEADINGS.map(([, zh]) => zh),
    "README.zh.md's headings",
  );
});

Deno.test("readme: section by section, the same tables, commands, flags and numbers", async (t) => {
  const en = sections(EN);
  const zh = sections(ZH);
  assert.equal(en.length, zh.length);
  for (const [i, [heading]] of HEADINGS.entries()) {
    await t.step(heading, () => {
      const a = en[i].lines;
      const b = zh[i].lines;
      const [ta, tb] = [tables(a), tables(b)];
      assert.equal(ta.length, tb.length, "the number of tables");
      ta.forEach((table, k) => {
        assert.equal(table.length, tb[k].length, `table ${k + 1}: rows`);
        table.forEach((row, r) => {
          assert.equal(row.length, tb[k][r].length, `table ${k + 1}: columns`);
          // Row by row, the same code: commands, flags, values, file names.
          assert.deepEqual(
            codeSpans(tb[k][r].join(" | ")).sort(),
            codeSpans(row.join(" | ")).sort(),
            `table ${k + 1}, row ${r + 1}: ${row[0]}`,
          );
        });
      });
      assert.deepEqual(commandLines(b), commandLines(a), "example commands");
      assert.deepEqual(flags(b), flags(a), "flags");
      assert.deepEqual(numbers(b), numbers(a), "numbers");
    });
  }
});

Deno.test("readme: the in-step checks catch drift", () => {
  const base = ["## Commands", "", "| command | what |", "| - | - |"];
  const one = [...base, "| `demo [--json]` | runs |", "", "    guardlab demo"];
  const other = [
    ...base,
    "| `demo [--json]` | 运行 |",
    "",
    "    guardlab demo",
  ];
  const [a, b] = [sections(one.join("\n"))[0], sections(other.join("\n"))[0]];
  assert.deepEqual(commandLines(a.lines), commandLines(b.lines));
  const added = [...one, "    guardlab verify --json"];
  assert.notDeepEqual(
    commandLines(sections(added.join("\n"))[0].lines),
    commandLines(b.lines),
  );
  assert.deepEqual(flags(a.lines), ["--json"]);
  assert.deepEqual(
    numbers(["21 checks, 1,048,576 bytes, on 4 December 2025"]),
    ["1048576", "12", "2025", "21", "4"],
  );
  assert.deepEqual(numbers(["2025 年 12 月 4 日，21 项，1,048,576 字节"]), [
    "1048576",
    "12",
    "2025",
    "21",
    "4",
  ]);
  assert.deepEqual(codeSpans("`a \\| b` and `--x\nY`"), ["a | b", "--x Y"]);
});

/**
 * The screens a README shows: a code block right after a paragraph that
 * ends in "prints:" / "输出：", with the command as the paragraph's last
 * code span.
 */
function screens(text: string): { command: string[]; block: string[] }[] {
  const found: { command: string[]; block: string[] }[] = [];
  for (const section of sections(text)) {
    const lines = section.lines;
    for (const block of codeBlocks(lines)) {
      const at = lines.indexOf("    " + block[0]);
      if (at < 0) continue; // a fenced block: code, not a screen
      let start = at - 1;
      while (start > 0 && lines[start - 1].trim() !== "") start--;
      const paragraph = lines.slice(start, at).join("\n").trim();
      if (!/(prints:|输出：)$/.test(paragraph)) continue;
      const command = codeSpans(paragraph).at(-1)!;
      assert.match(command, /^guardlab /, paragraph);
      found.push({ command: command.split(/\s+/).slice(1), block });
    }
  }
  return found;
}

Deno.test("readme: every screen shown is what guardlab prints", async (t) => {
  const all = [...screens(EN), ...screens(ZH)];
  assert.ok(screens(ZH).length >= 2, "README.zh.md shows its screens");
  for (const { command, block } of all) {
    await t.step(command.join(" "), async () => {
      const r = await cli(command);
      const out = r.out;
      const at = out.indexOf(block[0]);
      assert.ok(at >= 0, `first line not printed: ${block[0]}`);
      assert.deepEqual(block, out.slice(at, at + block.length));
    });
  }
});

Deno.test("readme: README.zh.md's prose uses Chinese punctuation, with no stray spaces", () => {
  for (const section of sections(ZH)) {
    for (const paragraph of prose(section.lines).split(/\n\s*\n/)) {
      const where = `${section.heading}: ${paragraph.slice(0, 80)}`;
      const text = paragraph.replace(/\n/g, "");
      assert.deepEqual(zhPunctuationProblems(text), [], where);
      // A space between two Chinese characters is a joined line break (deno
      // fmt joins lines with a space), not something a Chinese reader writes.
      const stray =
        /[\p{Script=Han}，。；：、（）“”] +[\p{Script=Han}，。；：、（）“”]/u
          .exec(paragraph.replace(/`[^`]*`/g, "x"));
      assert.equal(stray, null, `${where}: ${stray?.[0]}`);
    }
  }
});

Deno.test("readme: the class tables shown are the ones the class test checks", () => {
  // tests/exercises/class_grade_test.ts holds the program's output to these files.
  const table = (lang: string) =>
    read(`fixtures/class/table.${lang}.txt`).trimEnd().split("\n");
  const shown = (text: string, first: string) =>
    sections(text).flatMap((s) => codeBlocks(s.lines)).filter((b) =>
      b[0] === first
    );
  for (const [readme, langs] of [[EN, ["en", "zh"]], [ZH, ["zh"]]] as const) {
    for (const lang of langs) {
      const expected = table(lang);
      const blocks = shown(readme, expected[0]);
      assert.equal(blocks.length, 1, `${lang} table shown once`);
      assert.deepEqual(blocks[0], expected);
    }
  }
});

Deno.test("readme: the timeline left by the remote-timeout session is what guardlab draws", async () => {
  // The MCP session leaves: JOB-001 cancelled after its commit, then the
  // same key and arguments again (reused). The same two attempts by script:
  const name = `readme-${crypto.randomUUID().slice(0, 8)}`;
  const args = { job: "JOB-001", topic: "river", copies: 2 };
  const steps = [
    { op: "run", args, faults: { cancel_at: "after_business" } },
    { op: "run", args },
  ].map((s) => JSON.stringify(s)).join("\n");
  assert.equal((await cli(["script", "--ledger", name], steps)).code, 0);
  try {
    for (
      const [lang, first] of [["en", "2 attempts in order"], [
        "zh",
        "按顺序共 2 次调用",
      ]]
    ) {
      const drawn =
        (await cli(["ledger", "--ledger", name, "--timeline", "--lang", lang]))
          .out;
      const blocks = [EN, ZH].flatMap((text) =>
        sections(text).flatMap((s) => codeBlocks(s.lines))
      ).filter((b) => b[0].startsWith(first));
      assert.ok(blocks.length >= (lang === "zh" ? 2 : 1), `${lang} shown`);
      for (const block of blocks) assert.deepEqual(block, drawn);
    }
  } finally {
    await cli(["reset", "--ledger", name]);
  }
});
