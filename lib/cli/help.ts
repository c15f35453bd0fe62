/**
 * The overview (`guardlab --help`), built from the command registry.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../base/i18n.ts";
import { SANDBOX_ROOT } from "../sandbox/sandbox.ts";
import { displayWidth } from "../base/terminal.ts";
import { COMMANDS } from "./command_registry.ts";
import { canStartServers } from "../accept/channel.ts";
import { EXIT, EXIT_MEANING } from "./exit.ts";
import { COMMON, flagLabel, type OptionSpec } from "./parser.ts";

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

/** `--version`: taken before any command, so it is not one of {@linkcode COMMON}. */
export const VERSION_FLAG: OptionSpec = {
  type: "boolean",
  short: "V",
  help: OVERVIEW_MESSAGES.version,
};

/** The lines of `guardlab --help` in `lang`. */
export function overview(lang: Lang): string[] {
  const m = OVERVIEW_MESSAGES;
  const text = (t: Text) => say(fill(t, { root: SANDBOX_ROOT }), lang);
  const lines = [text(m.title), "", text(m.commands)];
  for (const c of COMMANDS) {
    const name = `  ${c.name}`;
    lines.push(
      `${name}${" ".repeat(Math.max(1, 14 - displayWidth(name)))}${
        say(c.summary, lang)
      }`,
    );
  }
  lines.push("", text(m.options));
  // The flags every command takes, as the parser defines them; the
  // overview's own words for each.
  const flags: [string, OptionSpec, Text][] = [
    ["help", COMMON.help, m.help],
    ["version", VERSION_FLAG, m.version],
    ["lang", COMMON.lang, m.lang],
    ["home", COMMON.home, m.home],
  ];
  for (const [name, spec, help] of flags) {
    const flag = `  ${flagLabel(name, spec)}`;
    lines.push(
      `${flag}${" ".repeat(Math.max(1, 16 - displayWidth(flag)))}${
        say(help, lang)
      }`,
    );
  }
  lines.push(
    "",
    text(m.sandbox1),
    text(m.sandbox2),
    // Each screen is true of the grant it runs under: the engineers' build
    // may start a process, the student's may not.
    ...(canStartServers()
      ? [text(m.sandbox3Engineer), text(m.sandbox4Engineer)]
      : [text(m.sandbox3)]),
    "",
    text(m.exits),
  );
  for (const code of Object.values(EXIT)) {
    lines.push(`  ${code}  ${say(EXIT_MEANING[code], lang)}`);
  }
  lines.push(text(m.exitsNote));
  return lines;
}
