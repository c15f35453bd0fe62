/**
 * What `guardlab --help` says: its own lines, and each command's summary
 * (read through the command registry, which lists every command without
 * loading one).
 *
 * @module
 */
import type { Text } from "../../base/i18n.ts";

/** What the overview says, beside what it reads from the registry. */
export const OVERVIEW_MESSAGES = {
  title: {
    en:
      "guardlab: where a tool's guardrail stops a call, relative to its side effect",
    zh: "guardlab：工具护栏在哪一步拦住调用——放到副作用的同一条时间线上看",
  },
  commands: { en: "Commands:", zh: "命令：" },
  options: { en: "Options:", zh: "选项：" },
  help: {
    en: "help (also: guardlab <command> --help, guardlab help <command>)",
    zh: "帮助（也可：guardlab <命令> --help、guardlab help <命令>）",
  },
  version: { en: "the version", zh: "版本" },
  lang: {
    en: "the language of this screen (see: guardlab config)",
    zh: "本次输出的语言（见 guardlab config）",
  },
  home: {
    en: "keep ledgers, settings and progress in DIR, a folder of your own",
    zh: "把账本、设置和进度保存在 DIR（你自己的目录）",
  },
  sandbox1: {
    en: "guardlab reads and writes only under {root}, in your private folder",
    zh: "guardlab 只读写 {root}，并且只在你的私有目录里",
  },
  sandbox2: {
    en: "{root}/guardlab-UID (or --home DIR) and in scratch folders made per",
    zh: "{root}/guardlab-UID（或 --home DIR）以及每个进程各自的临时目录中。",
  },
  sandbox3: {
    en: "process. It has no network, environment or process access.",
    zh: "它没有网络、环境变量或子进程权限。",
  },
  sandbox3Engineer: {
    en:
      "process. This build has the engineers' grant: it may also start a server",
    zh: "这个版本带有工程师权限：它还可以启动服务器",
  },
  sandbox4Engineer: {
    en:
      "(accept, proxy), which runs with your own rights, and reach this machine.",
    zh: "（accept、proxy，服务器以你自己的权限运行），并连接本机回环地址。",
  },
  exits: { en: "Exit codes:", zh: "退出码：" },
  exitsNote: {
    en:
      "  (each command's --help lists the codes it can return; any command exits 1 on an internal error)",
    zh:
      "  （各命令的 --help 列出它可能返回的退出码；内部错误时任何命令都以 1 退出）",
  },
} as const satisfies Record<string, Text>;

/** Each command's one line in the overview, by command name. */
export const SUMMARIES = {
  demo: {
    en: "run the article's fixed scenarios (default: all three labs)",
    zh: "运行文章里的固定场景（默认三个实验都跑）",
  },
  verify: {
    en: "run every demo and compare it with the built-in expected answers",
    zh: "运行全部演示，并与程序内置的预期答案逐项比对",
  },
  run: {
    en: "one attempt of the draft tool, drawn as its timeline",
    zh: "调用一次草稿工具，并画出它的时间线",
  },
  ledger: {
    en: "show a ledger's drafts and receipts (read-only)",
    zh: "查看账本里的草稿和回执（只读）",
  },
  reconcile: {
    en: "list keys with a draft but no accepted receipt, and the next step",
    zh: "对账：列出有草稿但没有 accepted 回执的业务键，以及下一步",
  },
  compensate: {
    en: "undo a committed draft with a compensation, which can itself fail",
    zh: "用补偿撤销已提交的草稿（补偿本身也可能失败）",
  },
  reset: { en: "delete a named ledger", zh: "删除一个命名账本" },
  script: {
    en: "run an experiment written as JSON Lines (stdin or FILE)",
    zh: "运行以 JSON Lines 写成的实验（标准输入或 FILE）",
  },
  explain: {
    en: "what each demo scenario shows, in English or Chinese",
    zh: "用中文或英文讲解每个演示场景",
  },
  exercise: {
    en: "exercises: prove each claim, checked by the ledger you leave",
    zh: "练习：亲手证明每个论断，由你留下的账本来判定",
  },
  mcp: {
    en: "serve the lab's tool to a real agent over MCP (stdin/stdout)",
    zh: "通过 MCP（标准输入/输出）把实验工具提供给真实 Agent",
  },
  accept: {
    en: "run the article's acceptance test on an MCP server's write tool",
    zh: "对 MCP 服务器的写入工具运行文章的验收测试",
  },
  proxy: {
    en: "stand between an agent and its MCP server: record, inject faults",
    zh: "站在 Agent 与其 MCP 服务器之间：记录消息、注入故障",
  },
  sandbox: {
    en: "what this process may touch, and whether your folder is safe",
    zh: "查看本进程能访问什么，以及你的私有目录是否安全",
  },
  config: {
    en: "show or set the stored language, your name and the course code",
    zh: "查看或设置保存的语言、你的名字和课程代码",
  },
} as const satisfies Record<string, Text>;
