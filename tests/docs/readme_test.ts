/**
 * The READMEs and the chapters of `docs/` kept in step and kept true.
 * README.md and README.zh.md, and each chapter of `docs/en/` and its twin of
 * the same name in `docs/zh/`, link to each other on their first line, have
 * the same sections in the same order (the heading map below), the same
 * commands and flags in their tables and examples, the same code in each row
 * of a table, and the same numbers, section by section; every screen a file
 * shows is what guardlab prints; each README fits in 150 lines; every link
 * between the files resolves; and the architecture chapter names every file
 * of `lib/`, in the layers of `lib/_layers.ts`, while every `lib/` and
 * `tests/` path the docs name exists. A command, flag, section or number
 * added to one language only fails here.
 */
import assert from "node:assert/strict";
import { LAYERS } from "../../lib/_layers.ts";
import { zhPunctuationProblems } from "../../lib/base/_zh_punctuation.ts";
import { EXERCISE_LINES } from "../../lib/cli/commands/exercise/_messages.ts";
import { cli } from "../_helpers/helpers.ts";
import { remoteTimeoutSession } from "../_helpers/mcp_inprocess.ts";
import { ROOT_URL } from "../_helpers/root.ts";

const read = (name: string) => Deno.readTextFileSync(new URL(name, ROOT_URL));

const exists = (name: string) => {
  try {
    Deno.statSync(new URL(name, ROOT_URL));
    return true;
  } catch {
    return false;
  }
};

/** The files under `dir` (relative to the checkout), sorted, recursively. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of Deno.readDirSync(new URL(`${dir}/${rel}`, ROOT_URL))) {
      const path = rel + entry.name;
      if (entry.isDirectory) walk(path + "/");
      else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/**
 * Each heading of a file in English and its heading in Chinese, in order,
 * per file: `README.md` for the two READMEs, else the chapter's path under
 * `docs/en/` (and `docs/zh/`). A section added to one language must be added
 * here and to the other.
 */
const HEADINGS: Record<string, readonly [string, string][]> = {
  "README.md": [
    ["# guardlab", "# guardlab"],
    ["## Start in two commands", "## 两条命令上手"],
    ["## The demo, one screen", "## 看一屏演示"],
    ["## Commands", "## 命令"],
    ["## Where next", "## 接下来读什么"],
  ],
  "01-timeline.md": [
    ["# The timeline", "# 时间线"],
    ["## Reading a timeline", "## 怎样读时间线"],
    ["## Why: explain", "## 为什么：explain"],
    ["## Two languages", "## 两种语言"],
    ["## Slides: SVG", "## 做幻灯片：SVG"],
    ["## One attempt: run", "## 一次调用：run"],
    ["## Ledgers you keep", "## 保留的账本"],
    ["## Exit codes", "## 退出码"],
    ["## What survives what", "## 什么故障之后留下什么"],
  ],
  "02-policy.md": [
    ["# The policy lab", "# 规则实验"],
    ["## The demo", "## 演示"],
    ["## Two lanes", "## 两条泳道"],
    ["## As a script", "## 写成 script"],
  ],
  "03-agents-and-mcp.md": [
    ["# Connect a real agent", "# 接入真实的 Agent"],
    ["## Tools", "## 工具"],
    ["## What the annotations promise", "## 注解承诺了什么"],
    ["## Validation and protocol faults", "## 参数校验与协议错误"],
    ["## Cancellation", "## 取消"],
    ["## Faults", "## 故障"],
    ["## Wire it up", "## 接上去"],
    ["## What the receipt does not show", "## 回执上看不到的东西"],
    ["## The remote timeout, reproduced", "## 复现远程调用超时"],
    [
      "### The same timeline in a tracing backend: `--otlp`",
      "### 放进 tracing 后端：`--otlp`",
    ],
    ["## Exercise 17", "## 第 17 道练习"],
  ],
  "04-sdk-lens.md": [
    ["# The SDK lens", "# SDK 视角"],
    ["## JavaScript: run", "## JavaScript：实际运行"],
    ["## Python: read", "## Python：阅读源码"],
    ["## Where the two SDKs differ", "## 两个 SDK 不同的地方"],
  ],
  "05-exercises.md": [
    ["# Exercises", "# 练习"],
    ["## Your name, course code and language", "## 你的姓名、课程代码和语言"],
    ["## Answers", "## 答案"],
    ["## Exercise 17: an agent's session", "## 第 17 道练习：一次 Agent 会话"],
    [
      "## Exercise 18: an MCP server's verdicts",
      "## 第 18 道练习：一个 MCP 服务器的结论",
    ],
    [
      "## Exercise 19: a real agent's output guardrail",
      "## 第 19 道练习：真实 Agent 的输出护栏",
    ],
    [
      "## Exercise 20: an agent host after a lost reply",
      "## 第 20 道练习：应答丢失之后的 Agent 宿主",
    ],
    ["## Hand in", "## 交作业"],
  ],
  "06-course-and-grading.md": [
    ["# For a course", "# 用于课堂"],
    ["## A course file", "## 课程文件"],
    ["## Names, course code and variants", "## 姓名、课程代码与变体"],
    ["## What a hand-in carries", "## 作业文件里有什么"],
    ["## A whole class at once", "## 一次批改全班"],
    ["## Grades in a learning system", "## 在学习平台里评分"],
    [
      "### Running the judge inside the autograder",
      "### 在自动评分器里运行判定",
    ],
    ["## Bounds", "## 上限"],
  ],
  "07-shipping-binaries.md": [
    ["# Shipping binaries", "# 分发二进制"],
    ["## Get the binaries", "## 拿到二进制"],
    [
      "## What the workflow proves on each platform",
      "## 工作流在每个平台上证明了什么",
    ],
    ["## What has not run here", "## 这里没有运行过的"],
    ["## Build a binary yourself", "## 自己构建二进制"],
    ["## What students type", "## 学生输入什么"],
  ],
  "08-accept-your-own-tool.md": [
    ["# Accept your own tool", "# 验收你自己的工具"],
    ["## The grant", "## 权限"],
    ["### A staging host, on purpose", "### 有意测试预发布主机"],
    ["## Try it on an example", "## 先在示例上试"],
    ["## The oracle", "## oracle"],
    ["## The cases and their verdicts", "## 用例与结论"],
    ["### The JSON, for scripts", "### 供脚本使用的 JSON"],
    ["### The history, and accept judge", "### 历史记录与 accept judge"],
    ["### What changed in issue 36", "### 第 36 号 issue 改了什么"],
    ["### What changed in issue 45", "### 第 45 号 issue 改了什么"],
    [
      "## A real server: server-memory and server-filesystem",
      "## 一个真实的服务器：server-memory 与 server-filesystem",
    ],
    ["## Draft an oracle: accept init", "## 起草 oracle：accept init"],
    [
      "### A server never seen: the memory bank",
      "### 一个从没见过的服务器：memory bank",
    ],
    [
      "## An HTTP API, and the idempotency-key contract",
      "## HTTP API 与幂等键契约",
    ],
    ["### The draft's cases", "### 草案的用例"],
    ["### Where the key lives over MCP", "### MCP 中业务键放在哪里"],
    [
      "### Try it: deno task example:http",
      "### 试一试：deno task example:http",
    ],
    [
      "### An app nobody here wrote: express-idempotency",
      "### 一个不是我们写的应用：express-idempotency",
    ],
    [
      "### An app nobody here wrote: @node-idempotency/core",
      "### 一个不是我们写的应用：@node-idempotency/core",
    ],
    [
      "## In CI: JUnit, a baseline and a workflow",
      "## 在 CI 中：JUnit、基线与工作流",
    ],
    ["### The workflow for your repository", "### 用于你的仓库的工作流"],
    ["## Your agent, through the proxy", "## 让你的 Agent 经过 proxy"],
    ["## Bounds and speed", "## 上限与速度"],
  ],
  "09-your-agents-guardrails.md": [
    [
      "# Your agent's guardrails on the timeline",
      "# 把你的 Agent 护栏放上时间线",
    ],
    ["## What the SDK records", "## SDK 记录了什么"],
    ["## The agent hook", "## Agent 钩子"],
    ["## One timeline", "## 一条时间线"],
    ["## One trace", "## 一条 trace"],
    ["## The example", "## 示例"],
    ["## What this does not show", "## 这里看不到的"],
  ],
  "10-accept-your-agent-host.md": [
    ["# Accept your agent host", "# 验收你的 Agent 宿主"],
    ["## Run it", "## 运行"],
    ["## The cases and their verdicts", "## 用例与结论"],
    ["## The run as a trace: `--otlp`", "## 把运行写成 trace：`--otlp`"],
    [
      "## How each host takes the model and the tool",
      "## 各个宿主怎样接上模型和工具",
    ],
    ["## Four hosts, 2026-12-06", "## 四个宿主，2026-12-06"],
    [
      "## In process, under the students' grant",
      "## 在进程内、在学生权限下运行",
    ],
    [
      "## What to configure before giving a host a write tool",
      "## 把写工具交给宿主之前要配置什么",
    ],
    ["## What is not here yet", "## 还没有做的"],
  ],
  "reference/architecture.md": [
    ["# How the code is laid out", "# 代码结构"],
    ["## Layers", "## 分层"],
    ["## One home per fact", "## 每个事实一个家"],
    ["## File by file", "## 逐个文件"],
    ["## The history of a case", "## 一个用例的历史记录"],
    ["## Tests", "## 测试"],
    ["## Fixtures", "## 夹具"],
    ["## Cancellation", "## 取消"],
  ],
  "reference/development.md": [
    ["# Working on guardlab", "# 参与开发 guardlab"],
    ["## Tests", "## 测试"],
    ["## Packages and the lock file", "## 包与锁文件"],
    ["## Gates", "## 质量关卡"],
  ],
  "reference/sandbox.md": [
    ["# The sandbox and the threat model", "# 沙箱与威胁模型"],
    ["## What the binary can touch", "## 二进制能碰到什么"],
    ["## On a shared machine", "## 在共享的机器上"],
    [
      "## If a classmate takes your folder first",
      "## 如果同学抢先占了你的文件夹",
    ],
    ["## The Deno cache", "## Deno 的缓存"],
    ["## Trust by provenance", "## 凭来源信任"],
    ["## Checking a file in full", "## 完整检查一个文件"],
    ["## Attacks, and what guardlab does", "## 攻击，以及 guardlab 怎么做"],
    ["## How it is tested", "## 怎样测试"],
  ],
  "reference/script-format.md": [
    ["# The script contract", "# script 的约定"],
  ],
  "reference/speed.md": [
    ["# Speed", "# 速度"],
    ["## Measured", "## 测得的数字"],
    ["## Where a start goes", "## 启动的时间花在哪里"],
    ["## A big ledger", "## 大账本"],
    ["## Bounds on a view", "## 视图的上限"],
    ["## script and the commit floor", "## script 与提交下限"],
    ["## The cost of one call", "## 一次调用的代价"],
    ["### Measured here, all under load", "### 这里测得的数字，全部在有负载时"],
    [
      "### Where the CPU goes, and what was cut",
      "### CPU 花在哪里，删掉了什么",
    ],
    ["### Start-up", "### 启动"],
    ["## The other benchmarks", "## 其他基准"],
  ],
};

/** The English and the Chinese file of one key of {@linkcode HEADINGS}. */
const pair = (key: string): [string, string] =>
  key === "README.md"
    ? ["README.md", "README.zh.md"]
    : [`docs/en/${key}`, `docs/zh/${key}`];

const KEYS = Object.keys(HEADINGS);
const FILES = KEYS.flatMap(pair);
const TEXT = new Map(FILES.map((f) => [f, read(f)]));
const text = (file: string) => TEXT.get(file)!;

/** One section of a file: its heading and the lines up to the next. */
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
  /^(guardlab|deno|npx|npm|sha256sum|shasum|Get-FileHash|scripts\/|mkdir|cp|echo|cat|python3?|apt)\b/;

/**
 * The command lines of a section's examples: lines of a code block that
 * start with a program's name, cut where two spaces begin a comment or a
 * description (`guardlab verify          # first: …`).
 */
function commandLines(lines: string[]): string[] {
  // A code block inside a list item is indented two more columns.
  // A line guardlab printed (`guardlab: refused: …`, `guardlab accept: …`)
  // is a screen's, in the screen's language: not a command.
  return codeBlocks(lines).flat().map((l) => l.replace(/^ {1,2}(?=\S)/, ""))
    .filter((l) => PROGRAMS.test(l) && !/^guardlab( [a-z-]+){0,2}[:：]/.test(l))
    .map((l) => l.replace(/\s{2,}.*$/, ""));
}

/** The flags named anywhere in a section's code (spans, tables, examples). */
function flags(lines: string[]): string[] {
  // A screen's `--lang zh` is the language of the screen, not drift; the
  // flag itself (`--lang en|zh`) is still compared.
  const code = [
    ...codeSpans(prose(lines)),
    ...codeSpans(lines.filter((l) => l.startsWith("|")).join("\n")),
    ...codeBlocks(lines).flat(),
  ].join(" ").replace(/--lang (en|zh)(?![|\w])/g, "");
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

/** The relative links of a text (`[text](target)`), web links aside. */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, t]) => t)
    .filter((t) => !/^[a-z]+:/.test(t));
}

/** A heading's anchor as GitHub makes it. */
const anchor = (heading: string) =>
  heading.replace(/^#+ /, "").toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");

/**
 * The `lib/` and `tests/` paths a text names, in prose, code or tables. A
 * path with a placeholder segment (`tests/AREA/`) is a pattern, not a path.
 */
function namedPaths(text: string): string[] {
  const found = text.match(/(?<![\w./-])(lib|tests)\/[\w./-]*/g) ?? [];
  return [...new Set(found.map((p) => p.replace(/\.+$/, "")))]
    .filter((p) => !p.split("/").some((s) => /^[A-Z]+(\.\w+)?$/.test(s)))
    .sort();
}

Deno.test("docs: docs/en and docs/zh hold the same chapter files, each in the heading map", () => {
  const en = filesUnder("docs/en");
  assert.deepEqual(filesUnder("docs/zh"), en, "docs/zh/ must mirror docs/en/");
  assert.deepEqual(
    en,
    KEYS.filter((k) => k !== "README.md").sort(),
    "every chapter has its headings in HEADINGS",
  );
});

Deno.test("docs: each file links to the other language on its first line", () => {
  for (const key of KEYS) {
    const [en, zh] = pair(key);
    const first = (file: string) => text(file).split("\n")[0];
    const target = (file: string, label: string) => {
      const m = first(file).match(new RegExp(`\\[${label}\\]\\(([^)]+)\\)`));
      assert.ok(m, `${file}: first line links to [${label}](…)`);
      return new URL(m[1], new URL(file, ROOT_URL)).href;
    };
    assert.equal(target(en, "中文"), new URL(zh, ROOT_URL).href, en);
    assert.equal(target(zh, "English"), new URL(en, ROOT_URL).href, zh);
  }
});

Deno.test("docs: every link between the files resolves, anchors included", () => {
  const broken: string[] = [];
  for (const file of FILES) {
    for (const link of links(text(file))) {
      const [path, hash] = link.split("#");
      const url = path === ""
        ? new URL(file, ROOT_URL)
        : new URL(path, new URL(file, ROOT_URL));
      const name = decodeURIComponent(url.href.slice(ROOT_URL.href.length));
      if (!exists(name)) {
        broken.push(`${file}: ${link}`);
      } else if (hash !== undefined && name.endsWith(".md")) {
        const anchors = sections(read(name)).map((s) => anchor(s.heading));
        if (!anchors.includes(decodeURIComponent(hash))) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
  }
  assert.deepEqual(broken, [], "links that lead nowhere");
});

Deno.test("docs: each README is at most 150 lines", () => {
  for (const file of pair("README.md")) {
    const lines = text(file).trimEnd().split("\n").length;
    assert.ok(
      lines <= 150,
      `${file} has ${lines} lines; move the rest to docs/`,
    );
  }
});

Deno.test("docs: the same sections in the same order (the heading map)", () => {
  for (const key of KEYS) {
    const [en, zh] = pair(key);
    assert.deepEqual(
      sections(text(en)).map((s) => s.heading),
      HEADINGS[key].map(([e]) => e),
      `${en}'s headings: add a new one to HEADINGS and to ${zh}`,
    );
    assert.deepEqual(
      sections(text(zh)).map((s) => s.heading),
      HEADINGS[key].map(([, z]) => z),
      `${zh}'s headings`,
    );
  }
});

Deno.test("docs: section by section, the same tables, commands, flags and numbers", async (t) => {
  for (const key of KEYS) {
    const [enFile, zhFile] = pair(key);
    const en = sections(text(enFile));
    const zh = sections(text(zhFile));
    assert.equal(en.length, zh.length, key);
    for (const [i, [heading]] of HEADINGS[key].entries()) {
      await t.step(`${key}: ${heading}`, () => {
        const a = en[i].lines;
        const b = zh[i].lines;
        const [ta, tb] = [tables(a), tables(b)];
        assert.equal(ta.length, tb.length, "the number of tables");
        ta.forEach((table, k) => {
          assert.equal(table.length, tb[k].length, `table ${k + 1}: rows`);
          table.forEach((row, r) => {
            assert.equal(
              row.length,
              tb[k][r].length,
              `table ${k + 1}: columns`,
            );
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
  }
});

Deno.test("docs: the in-step checks catch drift", () => {
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
  assert.deepEqual(numbers(["see [chapter 7](docs/en/07-shipping.md)"]), ["7"]);
  assert.deepEqual(codeSpans("`a \\| b` and `--x\nY`"), ["a | b", "--x Y"]);
  assert.deepEqual(
    namedPaths("`lib/base/i18n.ts`. See lib/cli/, tests/AREA/x and a/lib/y."),
    ["lib/base/i18n.ts", "lib/cli/"],
  );
  assert.equal(
    anchor("## If a classmate takes your folder first"),
    "if-a-classmate-takes-your-folder-first",
  );
  assert.equal(
    anchor("## 攻击，以及 guardlab 怎么做"),
    "攻击以及-guardlab-怎么做",
  );
});

/**
 * The screens a file shows: a code block right after a paragraph that ends
 * in "prints:" / "输出：", with the command as the paragraph's last code
 * span.
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

Deno.test("docs: every screen shown is what guardlab prints", async (t) => {
  for (const key of KEYS) {
    const [en, zh] = pair(key);
    assert.equal(
      screens(text(zh)).length,
      screens(text(en)).length,
      `${en} and ${zh} show as many screens`,
    );
  }
  for (const file of pair("README.md")) {
    assert.ok(
      screens(text(file)).some(({ command }) => command[0] === "demo"),
      `${file} shows a screen of the demo`,
    );
  }
  for (const file of FILES) {
    for (const { command, block } of screens(text(file))) {
      await t.step(`${file}: ${command.join(" ")}`, async () => {
        const out = (await cli(command)).out;
        const at = out.indexOf(block[0]);
        assert.ok(at >= 0, `first line not printed: ${block[0]}`);
        assert.deepEqual(block, out.slice(at, at + block.length));
      });
    }
  }
});

Deno.test("docs: the Chinese prose uses Chinese punctuation, with no stray spaces", () => {
  for (const file of KEYS.map((k) => pair(k)[1])) {
    for (const section of sections(text(file))) {
      for (const paragraph of prose(section.lines).split(/\n\s*\n/)) {
        const where = `${file}: ${section.heading}: ${paragraph.slice(0, 80)}`;
        const joined = paragraph.replace(/\n/g, "");
        assert.deepEqual(zhPunctuationProblems(joined), [], where);
        // A space between two Chinese characters is a joined line break (deno
        // fmt joins lines with a space), not something a Chinese reader writes.
        const stray =
          /[\p{Script=Han}，。；：、（）“”] +[\p{Script=Han}，。；：、（）“”]/u
            .exec(paragraph.replace(/`[^`]*`/g, "x"));
        assert.equal(stray, null, `${where}: ${stray?.[0]}`);
      }
    }
  }
});

Deno.test("docs: the class tables shown are the ones the class test checks", () => {
  // tests/exercises/class_grade_test.ts holds the program's output to these files.
  const table = (lang: string) =>
    read(`fixtures/class/table.${lang}.txt`).trimEnd().split("\n");
  const shown = (text: string, first: string) =>
    sections(text).flatMap((s) => codeBlocks(s.lines)).filter((b) =>
      b[0] === first
    );
  const [en, zh] = pair("06-course-and-grading.md");
  for (const [file, langs] of [[en, ["en", "zh"]], [zh, ["zh"]]] as const) {
    for (const lang of langs) {
      const expected = table(lang);
      const blocks = shown(text(file), expected[0]);
      assert.equal(blocks.length, 1, `${file}: the ${lang} table shown once`);
      assert.deepEqual(blocks[0], expected);
    }
  }
});

Deno.test("docs: the timeline left by the remote-timeout session is what guardlab draws", async () => {
  // The session itself, over MCP in process: call 1 held after its commit,
  // the client's cancel, ledger by key, the same key and arguments again.
  const session = await remoteTimeoutSession();
  try {
    for (
      const [lang, first] of [["en", "2 attempts in order"], [
        "zh",
        "按顺序共 2 次调用",
      ]]
    ) {
      const drawn = (await cli([
        "ledger",
        "--ledger-file",
        session.path,
        "--timeline",
        "--lang",
        lang,
      ])).out;
      const blocks = pair("03-agents-and-mcp.md").flatMap((file) =>
        sections(text(file)).flatMap((s) => codeBlocks(s.lines))
      ).filter((b) => b[0].startsWith(first));
      assert.ok(blocks.length >= (lang === "zh" ? 2 : 1), `${lang} shown`);
      for (const block of blocks) assert.deepEqual(block, drawn);
    }
  } finally {
    await session.stop();
  }
});

const ARCHITECTURE = pair("reference/architecture.md");

Deno.test("docs: the architecture chapter names every file of lib/, and nothing that is gone", () => {
  const files = filesUnder("lib").map((f) => `lib/${f}`);
  // A TypeScript file is named by its path; a data file by its folder's.
  const folders = (f: string) =>
    f.split("/").slice(0, -1).map((_, i, s) =>
      s.slice(0, i + 1).join("/") + "/"
    );
  const problems: string[] = [];
  for (const file of ARCHITECTURE) {
    const named = new Set(namedPaths(text(file)));
    const missing = files.filter((f) =>
      f.endsWith(".ts")
        ? !named.has(f)
        : !folders(f).some((d) => d !== "lib/" && named.has(d))
    );
    const stale = [...named].filter((p) => !exists(p));
    if (missing.length > 0) {
      problems.push(
        `${file} does not name these files (add a row for each to "File by file"):`,
        ...missing.map((f) => `  ${f}`),
      );
    }
    if (stale.length > 0) {
      problems.push(
        `${file} names paths that do not exist (remove or rename their rows):`,
        ...stale.map((p) => `  ${p}`),
      );
    }
  }
  assert.deepEqual(problems, [], `\n${problems.join("\n")}`);
});

Deno.test("docs: the architecture chapter's layers are lib/_layers.ts's, in order", () => {
  const expected = LAYERS.map((layer) =>
    layer.members.map((m) =>
      Deno.statSync(new URL(`lib/${m}`, ROOT_URL)).isDirectory
        ? `lib/${m}/`
        : `lib/${m}`
    )
  );
  for (const file of ARCHITECTURE) {
    const [, ...rows] = tables(sections(text(file))[1].lines)[0];
    assert.deepEqual(
      rows.map((row) => codeSpans(row.at(-1)!)),
      expected,
      `${file}: the table under its second heading lists each layer's members of lib/_layers.ts, lowest first`,
    );
  }
});

Deno.test("docs: the architecture chapter names every folder of tests/", () => {
  const folders = [...Deno.readDirSync(new URL("tests/", ROOT_URL))]
    .filter((e) => e.isDirectory).map((e) => `tests/${e.name}/`).sort();
  for (const file of ARCHITECTURE) {
    const named = new Set(namedPaths(text(file)));
    const missing = folders.filter((f) => !named.has(f));
    assert.deepEqual(
      missing,
      [],
      `${file} does not name these folders of tests/ (see its "Tests" section):\n  ${
        missing.join("\n  ")
      }`,
    );
  }
});

Deno.test("docs: every lib/ and tests/ path the docs name exists", () => {
  const stale = FILES.flatMap((file) =>
    namedPaths(text(file)).filter((p) => !exists(p)).map((p) => `${file}: ${p}`)
  );
  assert.deepEqual(
    stale,
    [],
    `paths named in the docs that do not exist:\n  ${stale.join("\n  ")}`,
  );
});

Deno.test("docs: no shell block makes a folder under /tmp with -p, or writes straight into the shared /tmp (issue 39)", () => {
  // `mkdir -p` says nothing when a classmate made the folder first, open
  // to all: every file then written into it is theirs to read and rewrite.
  // A redirect into /tmp itself follows whatever link a classmate left
  // there. Every doc, both languages, and the README.
  const docs = (dir: string): string[] =>
    [...Deno.readDirSync(dir)].flatMap((e) =>
      e.isDirectory
        ? docs(`${dir}/${e.name}`)
        : e.name.endsWith(".md")
        ? [`${dir}/${e.name}`]
        : []
    );
  const files = ["README.md", "README.zh.md", ...docs("docs")];
  const found: string[] = [];
  for (const file of files) {
    for (
      const block of sections(read(file)).flatMap((s) => codeBlocks(s.lines))
    ) {
      for (const line of block) {
        const shell = line.replace(/\s+#.*$/, "");
        if (/\bmkdir\b.*(\s-p\b|\s--parents\b).*\/tmp\//.test(shell)) {
          found.push(`${file}: ${line}`);
        }
        if (/>>?\s*\/tmp\/[^/\s]+(\s|$)/.test(shell)) {
          found.push(`${file}: ${line}`);
        }
      }
    }
  }
  assert.deepEqual(found, []);
  // Written by hand: the teacher's block says why, as the student's does.
  const [en, zh] = pair("06-course-and-grading.md").map(read);
  assert.ok(
    en.includes(
      "    mkdir -m 700 /tmp/net-2026               # no -p: if it is there, someone made it",
    ),
  );
  assert.ok(
    zh.includes(
      "    mkdir -m 700 /tmp/net-2026               # 不加 -p：已经存在就是别人建的",
    ),
  );
});

Deno.test("docs: chapter 5 names the states exercise list shows, as it shows them", () => {
  const states = {
    en: "not started / attempted / done",
    zh: "未开始 / 尝试过 / 已完成",
  };
  for (const lang of ["en", "zh"] as const) {
    const text = read(`docs/${lang}/05-exercises.md`);
    assert.ok(text.includes(states[lang]), `${lang}: ${states[lang]}`);
    const shown = [
      EXERCISE_LINES["not started"][lang],
      EXERCISE_LINES.attempted[lang],
      EXERCISE_LINES.done[lang],
    ].join(" / ");
    assert.equal(shown, states[lang]);
  }
});

Deno.test("docs: chapter 2 says which explain draws the lanes, as it does", async () => {
  // The text view of a policy topic says what happened and why, with no
  // lane; the SVG replays it and draws the reader's and editor's steps.
  const text = await cli(["explain", "checked_stale"]);
  assert.equal(text.code, 0);
  assert.ok(text.out.every((l) => !l.includes(" | ")), text.out.join("\n"));
  const svg = (await cli(["explain", "checked_stale", "--format", "svg"])).out
    .join("\n");
  assert.match(svg, /class="policy-step"/);
  const said = {
    en: "`explain --format svg` replays a policy topic in a scratch ledger",
    zh: "`explain --format svg` 在临时账本里重放规则实验的课题",
  };
  for (const lang of ["en", "zh"] as const) {
    const chapter = read(`docs/${lang}/02-policy.md`).replace(/\s+/g, " ");
    assert.ok(chapter.includes(said[lang]), lang);
  }
});
