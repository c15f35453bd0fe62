/**
 * The overview (`guardlab --help`), built from the command registry.
 *
 * @module
 */
import { type Lang, say } from "../i18n.ts";
import { SANDBOX_ROOT } from "../sandbox/sandbox.ts";
import { displayWidth } from "../terminal.ts";
import { COMMANDS } from "./command_registry.ts";
import { EXIT_MEANING, type ExitCode } from "./exit.ts";

/** The lines of `guardlab --help` in `lang`. */
export function overview(lang: Lang): string[] {
  const en = lang === "en";
  const lines = [
    en
      ? "guardlab: where a tool's guardrail stops a call, relative to its side effect"
      : "guardlab：工具护栏在哪一步拦住调用——放到副作用的同一条时间线上看",
    "",
    en ? "Commands:" : "命令：",
  ];
  for (const c of COMMANDS) {
    const name = `  ${c.name}`;
    lines.push(
      `${name}${" ".repeat(Math.max(1, 14 - displayWidth(name)))}${
        say(c.summary, lang)
      }`,
    );
  }
  lines.push(
    "",
    en ? "Options:" : "选项：",
    en
      ? "  -h, --help    help (also: guardlab <command> --help, guardlab help <command>)"
      : "  -h, --help    帮助（也可：guardlab <命令> --help、guardlab help <命令>）",
    en ? "  -V, --version the version" : "  -V, --version 版本",
    en
      ? "  --lang en|zh  the language of this screen (see: guardlab config)"
      : "  --lang en|zh  本次输出的语言（见 guardlab config）",
    "",
    en
      ? `guardlab reads and writes only under ${SANDBOX_ROOT}, in your private folder`
      : `guardlab 只读写 ${SANDBOX_ROOT}，并且只在你的私有目录里`,
    en
      ? `${SANDBOX_ROOT}/guardlab-UID. It has no network, environment or process access.`
      : `${SANDBOX_ROOT}/guardlab-UID 中。它没有网络、环境变量或子进程权限。`,
    "",
    en ? "Exit codes:" : "退出码：",
  );
  for (const code of [0, 1, 2, 3, 4] as ExitCode[]) {
    lines.push(`  ${code}  ${say(EXIT_MEANING[code], lang)}`);
  }
  lines.push(
    en
      ? "  (each command's --help lists the codes it can return; any command exits 1 on an internal error)"
      : "  （各命令的 --help 列出它可能返回的退出码；内部错误时任何命令都以 1 退出）",
  );
  return lines;
}
